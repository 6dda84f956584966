"""arXiv: papers by id (new-style, old-style, versioned) and search, from the Atom API.

The pure half builds query requests (:func:`build_query_request`) and parses Atom feeds
(:func:`parse_feed`) into :class:`ArxivFeed` / :class:`ArxivEntry` values; the edge,
:class:`ArxivSource`, sends them through a :class:`~citeledger.sources._transport.Transport`.

What the recorded feeds teach (and this module handles):

* a malformed id gives HTTP 400 whose body is still a feed with one ``<entry>`` titled
  ``Error``: it becomes :class:`~citeledger.errors.BadRequestError` with arXiv's explanation as
  the detail (and :attr:`ArxivFeed.error` in the pure half);
* an unknown but well-formed id gives HTTP 200 with ``totalResults`` 0: :meth:`ArxivSource.paper`
  returns None;
* a multi-id request silently drops unknown ids: :meth:`ArxivSource.papers` matches entries back
  to the requested ids and reports the missing ones as None;
* entry ids always carry a version, even when none was requested;
* a title can be the bare string ``0`` (it is a real title, never treated as "missing").

arXiv has no reference lists, citations, events or counts: those methods raise
:class:`~citeledger.errors.UnsupportedCapability`.

API manual: https://info.arxiv.org/help/api/user-manual.html

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Unpack

import attrs
from attrs import frozen

from citeledger.errors import (
    BadRequestError,
    CiteledgerError,
    InvalidIdentifier,
    InvalidResponseError,
    ParseError,
    SourceError,
)
from citeledger.formats._xml import safe_xml
from citeledger.identifiers import DOI, ArxivId, Identifier, normalize_arxiv, normalize_doi
from citeledger.model import Author, Paper, Relation, RelationKind, WorkType
from citeledger.sources import Capability, Paged, SearchResults, UnreadableItem, describe_unreadable
from citeledger.sources._common import as_identifier, join_url, payload_shape
from citeledger.sources._http import ContactOptions, ContactSource
from citeledger.sources._paging import PageBounds, PageGuard, capped_size
from citeledger.sources._transport import Request
from citeledger.sources._wire import query_params

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

    from lxml import etree

    from citeledger.model import Reference

__all__ = [
    "DEFAULT_BASE_URL",
    "MIN_INTERVAL",
    "ArxivEntry",
    "ArxivFeed",
    "ArxivSource",
    "build_query_request",
    "feed_from_element",
    "parse_feed",
    "reference_query",
]

#: The service root; ``base_url`` replaces it.
DEFAULT_BASE_URL = "https://export.arxiv.org"
#: arXiv's API Terms of Use ask for "no more than one request every three seconds"
#: (https://info.arxiv.org/help/api/tou.html), so one transport waits 3 s between requests.
MIN_INTERVAL = 3.0
#: arXiv returns at most 2000 entries per request (API manual, "Paging"); 100 keeps pages light.
DEFAULT_PAGE_SIZE = 100

_ATOM = "{http://www.w3.org/2005/Atom}"
_ARXIV = "{http://arxiv.org/schemas/atom}"
_OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
_ABS_RE = re.compile(r"arxiv\.org/abs/(.+)$", re.IGNORECASE)
_SOURCE = "arxiv"


# --------------------------------------------------------------------------- values


@frozen(kw_only=True)
class ArxivEntry:
    """One entry of an arXiv feed, with what :class:`~citeledger.model.Paper` has no room for.

    Args:
        paper: The work (identifiers, title, authors with affiliations, dates, categories as
            areas, abstract; the journal DOI as a ``preprint_of`` relation).
        id: The entry's id, always versioned (``2104.12255v1``).
        primary_category: arXiv's primary category (``cs.CR``).
        categories: Every category, primary first.
        comment: The authors' comment (pages, figures, where submitted).
        journal_ref: The journal reference the authors gave, verbatim.
        doi: The DOI of the published version, when the authors gave one.
        published: When version 1 was submitted.
        updated: When this version was submitted.
        pdf_url: Link to the PDF of this version.
    """

    paper: Paper
    id: ArxivId
    primary_category: str | None = None
    categories: tuple[str, ...] = ()
    comment: str | None = None
    journal_ref: str | None = None
    doi: DOI | None = None
    published: dt.datetime | None = None
    updated: dt.datetime | None = None
    pdf_url: str | None = None

    @property
    def version(self) -> int | None:
        """The version number of this entry."""
        return self.id.version

    @property
    def versions(self) -> tuple[ArxivId, ...]:
        """Every version up to this one (arXiv numbers versions 1, 2, ... without gaps)."""
        last = self.id.version or 1
        return tuple(self.id.unversioned().with_version(n) for n in range(1, last + 1))


@frozen(kw_only=True)
class ArxivFeed:
    """A parsed arXiv Atom feed.

    Args:
        entries: The entries, in feed order (the error entry excluded).
        total: ``opensearch:totalResults``, the number of matches.
        start: ``opensearch:startIndex``.
        per_page: ``opensearch:itemsPerPage``.
        error: arXiv's explanation when the feed is an error feed ("incorrect id format for
            abc"), else None.
        skipped: The entries that could not be read (kept out of :attr:`entries`), each with
            its index among the feed's entries, the reason, and its ``<id>`` as excerpt.
    """

    entries: tuple[ArxivEntry, ...] = ()
    total: int | None = None
    start: int | None = None
    per_page: int | None = None
    error: str | None = None
    skipped: tuple[UnreadableItem, ...] = ()

    @property
    def papers(self) -> list[Paper]:
        """The entries' papers."""
        return [e.paper for e in self.entries]


# --------------------------------------------------------------------------- pure half


def build_query_request(
    *,
    search_query: str = "",
    id_list: Iterable[ArxivId | str] = (),
    start: int = 0,
    max_results: int = 10,
    sort_by: str | None = None,
    sort_order: str | None = None,
    base_url: str | None = None,
) -> Request:
    """A request to arXiv's ``/api/query``.

    Args:
        search_query: arXiv query syntax (``ti:"attention" AND au:vaswani``); may be empty when
            ``id_list`` is given.
        id_list: Ids to fetch (versioned or not).
        start: Index of the first result (paging).
        max_results: Results per page.
        sort_by: "relevance", "lastUpdatedDate" or "submittedDate".
        sort_order: "ascending" or "descending".
        base_url: Replaces ``https://export.arxiv.org``.

    >>> build_query_request(id_list=["astro-ph/0601001"], max_results=1).full_url
    'https://export.arxiv.org/api/query?id_list=astro-ph%2F0601001&start=0&max_results=1'
    """
    ids = ",".join(i.value if isinstance(i, ArxivId) else str(i).strip() for i in id_list)
    params = query_params(("search_query", search_query), ("id_list", ids))
    params += [("start", start), ("max_results", max_results)]
    params += query_params(("sortBy", sort_by), ("sortOrder", sort_order))
    return Request(url=join_url(base_url or DEFAULT_BASE_URL, "/api/query"), params=params)


def _text(element: etree._Element | None) -> str | None:
    if element is None or element.text is None:
        return None
    text = " ".join(element.text.split())
    return text or None


def _int(element: etree._Element | None) -> int | None:
    text = _text(element)
    # ASCII digits only ("²" passes isdigit, not int) and at most 18 of them: a 5,000-digit
    # count would hit Python's integer-digit limit; an unreadable count is unknown (None).
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > 18:
        return None
    return int(text)


def _time(element: etree._Element | None) -> dt.datetime | None:
    text = _text(element)
    if text is None:
        return None
    try:
        value = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


def _entry_id(entry: etree._Element) -> str:
    return _text(entry.find(f"{_ATOM}id")) or ""


def _is_error_entry(entry: etree._Element) -> bool:
    # Error entries have ids like https://arxiv.org/api/errors#incorrect_id_format_for_abc
    return "/api/errors" in _entry_id(entry)


def _parse_entry(entry: etree._Element) -> ArxivEntry:
    raw_id = _entry_id(entry)
    m = _ABS_RE.search(raw_id)
    arxiv_id = normalize_arxiv(m.group(1) if m else raw_id)

    authors = []
    for author in entry.findall(f"{_ATOM}author"):
        name = _text(author.find(f"{_ATOM}name"))
        if not name:
            continue
        affiliations = [a for a in (_text(x) for x in author.findall(f"{_ARXIV}affiliation")) if a]
        authors.append(attrs.evolve(Author.from_string(name), affiliations=affiliations))

    primary = entry.find(f"{_ARXIV}primary_category")
    primary_term = primary.get("term") if primary is not None else None
    categories: list[str] = [primary_term] if primary_term else []
    for cat in entry.findall(f"{_ATOM}category"):
        term = cat.get("term")
        if term and term not in categories:
            categories.append(term)

    doi: DOI | None = None
    doi_text = _text(entry.find(f"{_ARXIV}doi"))
    if doi_text is None:
        for link in entry.findall(f"{_ATOM}link"):
            if link.get("title") == "doi" and link.get("href"):
                doi_text = link.get("href")
                break
    if doi_text:
        try:
            # Authors sometimes list several DOIs separated by spaces; the first is the article.
            doi = normalize_doi(doi_text.split()[0])
        except InvalidIdentifier:
            doi = None

    pdf_url = None
    for link in entry.findall(f"{_ATOM}link"):
        if link.get("title") == "pdf" or link.get("type") == "application/pdf":
            pdf_url = link.get("href")
            break

    published = _time(entry.find(f"{_ATOM}published"))
    # ``.text`` is kept as given: the title "0" is a title, not a missing value.
    title_el = entry.find(f"{_ATOM}title")
    paper = Paper(
        identifiers=(arxiv_id,),
        title=title_el.text if title_el is not None else None,
        authors=authors,
        year=published.year if published else None,
        date=published.date() if published else None,
        venue="arXiv",
        work_type=WorkType.PREPRINT,
        areas=categories,
        abstract=_text(entry.find(f"{_ATOM}summary")),
        related=(
            [Relation(kind=RelationKind.PREPRINT_OF, identifier=doi, source=_SOURCE)] if doi else []
        ),
        source=_SOURCE,
    )
    return ArxivEntry(
        paper=paper,
        id=arxiv_id,
        primary_category=primary_term,
        categories=tuple(categories),
        comment=_text(entry.find(f"{_ARXIV}comment")),
        journal_ref=_text(entry.find(f"{_ARXIV}journal_ref")),
        doi=doi,
        published=published,
        updated=_time(entry.find(f"{_ATOM}updated")),
        pdf_url=pdf_url,
    )


def feed_from_element(root: etree._Element) -> ArxivFeed:
    """Read an already (safely) parsed Atom feed element into an :class:`ArxivFeed`."""
    entries: list[ArxivEntry] = []
    skipped: list[UnreadableItem] = []
    error: str | None = None
    for index, entry in enumerate(root.findall(f"{_ATOM}entry")):
        if _is_error_entry(entry):
            error = _text(entry.find(f"{_ATOM}summary")) or _entry_id(entry)
            continue
        try:
            # A bad id or an odd field costs this entry, never the feed's others.
            with payload_shape(_SOURCE, "feed entry"):
                entries.append(_parse_entry(entry))
        except ParseError as exc:
            skipped.append(UnreadableItem.of(_SOURCE, "feed entry", index, exc, _entry_id(entry)))
    return ArxivFeed(
        entries=tuple(entries),
        total=_int(root.find(f"{_OPENSEARCH}totalResults")),
        start=_int(root.find(f"{_OPENSEARCH}startIndex")),
        per_page=_int(root.find(f"{_OPENSEARCH}itemsPerPage")),
        error=error,
        skipped=tuple(skipped),
    )


def parse_feed(body: bytes) -> ArxivFeed:
    """Parse an arXiv Atom feed (any status: error feeds come with HTTP 400).

    Raises:
        ParseError: the body is not well-formed XML.
        UnsafeXMLError: the body declares entities.

    >>> feed = parse_feed(
    ...     b'<feed xmlns="http://www.w3.org/2005/Atom"><entry>'
    ...     b"<id>http://arxiv.org/abs/2104.12255v1</id><title>0</title></entry></feed>"
    ... )
    >>> feed.entries[0].paper.title, str(feed.entries[0].id)
    ('0', 'arxiv:2104.12255v1')
    """
    return feed_from_element(safe_xml(body, source=_SOURCE))


_QUERY_CHARS = re.compile(r"[^\w\s-]+")


def reference_query(reference: Reference) -> str:
    """Build arXiv query syntax for a reference: its title as a phrase, AND its first author.

    >>> from citeledger.model import Reference
    >>> reference_query(Reference(title="Attention is all you need!", authors="A. Vaswani"))
    'ti:"Attention is all you need" AND au:Vaswani'
    """
    parts = []
    title = reference.title or reference.raw or ""
    words = _QUERY_CHARS.sub(" ", title).split()
    if words:
        parts.append(f'ti:"{" ".join(words[:20])}"')
    if reference.authors and reference.authors[0].family:
        family = _QUERY_CHARS.sub(" ", reference.authors[0].family).split()
        if family:
            parts.append(f"au:{'_'.join(family)}")
    return " AND ".join(parts)


# --------------------------------------------------------------------------- edge


def _arxiv_id(identifier: Identifier | str) -> ArxivId:
    ident = as_identifier(identifier)
    if isinstance(ident, ArxivId):
        return ident
    if isinstance(ident, DOI):
        as_arxiv = ident.as_arxiv()  # the 10.48550/arXiv.X DataCite DOI
        if as_arxiv is not None:
            return as_arxiv
    raise InvalidIdentifier(str(ident), "arXiv looks works up by arXiv id only", scheme="arxiv")


class ArxivSource(ContactSource):
    """The arXiv API as a :class:`~citeledger.sources.Source` (paper and search).

    Args:
        base_url: Replaces ``https://export.arxiv.org`` (a local test server, a mirror).
        mailto: A contact address, put in the User-Agent.
        api_key: Ignored (arXiv has no keys); accepted so every source takes the same options.
        transport: Send through this transport (then ``session``, ``policy`` and
            ``min_interval`` are not used).
        session: A :class:`requests.Session` (or ``requests_cache.CachedSession``) to wrap.
        policy: Retry policy of the default transport.
        min_interval: Seconds between requests; 3 s by arXiv's terms of use.
        page_size: Entries per page when searching.

    >>> ArxivSource().name
    'arxiv'
    """

    name = _SOURCE
    #: Bounds of every paged listing (set on an instance to change them).
    page_bounds: PageBounds = PageBounds()
    capabilities = frozenset({Capability.PAPER, Capability.SEARCH})
    _default_base_url = DEFAULT_BASE_URL

    def __init__(
        self, *, page_size: int = DEFAULT_PAGE_SIZE, **options: Unpack[ContactOptions]
    ) -> None:
        self.page_size = page_size
        options.pop("api_key", None)  # arXiv has no API keys: accepted, never sent or shown
        self._reach(options, min_interval=MIN_INTERVAL)

    def __repr__(self) -> str:
        return self._http.describe("ArxivSource", base_url=self.base_url)

    # -- plumbing

    def _fetch(self, request: Request) -> ArxivFeed:
        # An error feed under HTTP 400 is raised by the transport as BadRequestError whose
        # detail is the feed's <summary> ("incorrect id format for abc").
        response, root = self._http.xml(request)
        feed = feed_from_element(root)
        if feed.error is not None:
            raise BadRequestError(
                "arXiv answered with an error feed",
                source=self.name,
                url=response.url,
                attempt=response.attempt,
                status=response.status,
                detail=feed.error,
            )
        return feed

    # -- papers

    def entry(self, identifier: Identifier | str) -> ArxivEntry | None:
        """The full feed entry for an arXiv id (or arXiv DataCite DOI), or None if unknown.

        Raises:
            InvalidIdentifier: not an arXiv id.
            SourceError: the request failed after retries.
        """
        wanted = _arxiv_id(identifier)
        request = build_query_request(id_list=[wanted], max_results=1, base_url=self.base_url)
        feed = self._fetch(request)
        found = _match(wanted, feed.entries)
        if found is None and feed.skipped:
            # The unreadable entry is most likely the one asked for: not "unknown".
            raise InvalidResponseError(
                "arXiv answered with an entry that could not be read",
                source=self.name,
                url=request.redacted_url(),
                detail=describe_unreadable(feed.skipped),
            )
        return found

    def paper(self, identifier: Identifier | str) -> Paper | None:
        """The paper for an arXiv id (versioned or not, new or old style), or None if unknown."""
        entry = self.entry(identifier)
        return None if entry is None else entry.paper

    def versions(self, identifier: Identifier | str) -> list[ArxivId]:
        """Every version of the paper up to the latest (empty when arXiv does not know it)."""
        wanted = _arxiv_id(identifier).unversioned()
        entry = self.entry(wanted)
        return [] if entry is None else list(entry.versions)

    def papers(
        self, identifiers: Sequence[Identifier | str]
    ) -> list[tuple[Identifier | str, Paper | None, CiteledgerError | None]]:
        """Look several ids up in one request per 100, keeping input order.

        arXiv silently drops unknown ids from a multi-id answer; they come back as
        ``(id, None, None)``. An id that does not parse comes back with its
        :class:`~citeledger.errors.InvalidIdentifier`; a failed request gives each id of that
        chunk the :class:`~citeledger.errors.SourceError`. One bad id never loses the others.
        When the answer held entries that could not be read, an id it does not match gets a
        :class:`~citeledger.errors.ParseError` naming them instead of "unknown".
        """
        results: list[tuple[Identifier | str, Paper | None, CiteledgerError | None]] = []
        parsed: list[tuple[int, ArxivId]] = []
        for i, ident in enumerate(identifiers):
            try:
                parsed.append((i, _arxiv_id(ident)))
            except InvalidIdentifier as exc:
                results.append((ident, None, exc))
                continue
            results.append((ident, None, None))
        for chunk_start in range(0, len(parsed), 100):
            chunk = parsed[chunk_start : chunk_start + 100]
            request = build_query_request(
                id_list=[a for _, a in chunk], max_results=len(chunk), base_url=self.base_url
            )
            try:
                feed = self._fetch(request)
            except SourceError as exc:
                for i, _ in chunk:
                    results[i] = (identifiers[i], None, exc)
                continue
            # An entry that could not be read may be the one asked for: not "unknown" then.
            unread = (
                ParseError("arxiv: " + describe_unreadable(feed.skipped)) if feed.skipped else None
            )
            for i, wanted in chunk:
                found = _match(wanted, feed.entries)
                results[i] = (
                    (identifiers[i], None, unread)
                    if found is None
                    else (
                        identifiers[i],
                        found.paper,
                        None,
                    )
                )
        return results

    # -- search

    def search_paged(
        self,
        query: Reference | str,
        *,
        page_size: int | None = None,
        limit: int | None = None,
        sort_by: str | None = None,
        sort_order: str | None = None,
    ) -> Paged[Paper]:
        """Search lazily, page by page (``start`` / ``max_results``).

        A string is arXiv query syntax, passed as is; a reference becomes a title phrase AND
        first-author query (see :func:`reference_query`). Stops on the last page; a failure
        midway is kept in :attr:`Paged.error` with everything fetched before it.
        """
        search_query = query if isinstance(query, str) else reference_query(query)
        size = capped_size(page_size or self.page_size, limit)

        def pages() -> Iterator[
            tuple[list[Paper], int | None] | tuple[list[Paper], int | None, _Skipped]
        ]:
            guard = PageGuard(source=self.name, bounds=self.page_bounds)
            start = 0
            while True:
                request = build_query_request(
                    search_query=search_query,
                    start=start,
                    max_results=size,
                    sort_by=sort_by,
                    sort_order=sort_order,
                    base_url=self.base_url,
                )
                feed = self._fetch(request)
                total = feed.total
                if not feed.entries and not feed.skipped:
                    if total is not None and start < total:
                        # arXiv sometimes answers a page inside the result set with no entries.
                        raise InvalidResponseError(
                            "empty page before the announced total",
                            source=self.name,
                            url=request.redacted_url(),
                            detail=f"start={start} total={total}",
                        )
                    yield [], total
                    return
                guard.page(feed.entries)
                yield feed.papers, total, feed.skipped
                start += len(feed.entries) + len(feed.skipped)
                if total is not None and start >= total:
                    return
                guard.more()

        return Paged(pages(), limit=limit)

    def search(self, query: Reference | str, *, limit: int = 10) -> list[Paper]:
        """Candidate papers for a reference or an arXiv query (at most ``limit``).

        A reference carrying an arXiv id is looked up by that id.

        Raises:
            SourceError: a page failed after retries.
        """
        if not isinstance(query, str):
            for ident in query.identifiers:
                if isinstance(ident, ArxivId):
                    found = self.paper(ident)
                    return [found] if found is not None else []
        if isinstance(query, str) and not query.strip():
            return []
        if not isinstance(query, str) and not reference_query(query):
            return []
        paged = self.search_paged(query, limit=limit)
        papers = list(paged)
        paged.raise_for_error()
        # Unreadable entries travel with the answer, for the ledger to report.
        return SearchResults(papers, skipped=paged.skipped)


_Skipped = tuple[UnreadableItem, ...]


def _match(wanted: ArxivId, entries: Iterable[ArxivEntry]) -> ArxivEntry | None:
    """The entry for ``wanted``: the same version if one was asked for, else the same base."""
    same_base = None
    for entry in entries:
        if entry.id == wanted:
            return entry
        if entry.id.base == wanted.base and same_base is None:
            same_base = entry
    if (
        wanted.version is not None
        and same_base is not None
        and same_base.id.version != wanted.version
    ):
        return None  # asked for v2, arXiv answered v1: not the requested version
    return same_base
