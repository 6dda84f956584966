"""OpenAlex: works by W id, DOI, arXiv id or PubMed id; references; citing works; counts.

The pure half builds requests (:func:`build_work_request`, :func:`build_works_request`) and
parses the JSON (:func:`parse_work`, :func:`parse_work_list`, :func:`rebuild_abstract`);
:class:`OpenAlexSource` is the thin edge. The pure half lives in ``_openalex_parse`` (private)
and is re-exported here, its documented home.

What the recorded responses teach (and this module handles):

* a DOI lookup is ``/works/https://doi.org/{doi}``; for a DOI OpenAlex does not know the 404
  body is an HTML page, not JSON: it becomes :class:`~citeledger.errors.NotFoundError` and
  :meth:`OpenAlexSource.paper` returns None;
* the same paper can come back twice from one search (the journal version and the arXiv
  preprint with a 10.48550 DataCite DOI): both are returned, each with its own identifiers;
* ``referenced_works`` is OpenAlex's list of W ids, in *OpenAlex's* order (often sorted by id),
  not the order printed in the paper;
* the abstract is only given as ``abstract_inverted_index`` (word -> positions).

Citing works come from ``filter=cites:W...`` with cursor paging. OpenAlex itself asserts each
of those links, so every inbound observation carries
``Resolution(state=VERIFIED_EXACT, method=Method.OPENALEX)``: the identifier route is OpenAlex's
own work id, not a string match made by citeledger.

API documentation: https://docs.openalex.org/

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from citeledger.errors import (
    CiteledgerError,
    InvalidIdentifier,
    ParseError,
    SourceError,
)
from citeledger.formats._asserted import asserted_resolution
from citeledger.identifiers import DOI, PMCID, PMID, Identifier, OpenAlexId
from citeledger.model import (
    Direction,
    Event,
    EventKind,
    Measurement,
    MeasurementKind,
    Method,
    NoticeCheck,
    Observation,
    Paper,
)
from citeledger.page import CitedByYear, CountedCitation
from citeledger.sources import Capability, Paged, SearchResults, UnreadableItem, describe_unreadable
from citeledger.sources import _openalex_parse as _parse
from citeledger.sources._common import Clock, as_identifier, cited_by_count, paper_or_none, utc_now
from citeledger.sources._http import ContactOptions, ContactSource
from citeledger.sources._openalex_parse import (
    MAX_PER_PAGE,
    SOURCE,
    OpenAlexWork,
    OpenAlexWorkList,
    batch_key,
    build_batch_request,
    build_work_request,
    build_works_request,
    filter_value,
    parse_work,
    parse_work_list,
    rebuild_abstract,
    work_from_json,
    work_path,
)
from citeledger.sources._paging import PageBounds, PageGuard, capped_size, cursor_pages
from citeledger.sources._protocols import CORE

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence

    from citeledger.model import Reference, Resolution
    from citeledger.sources._transport import Request

__all__ = [
    "BATCH_SIZE",
    "DEFAULT_BASE_URL",
    "OpenAlexSource",
    "OpenAlexWork",
    "OpenAlexWorkList",
    "build_batch_request",
    "build_work_request",
    "build_works_request",
    "parse_work",
    "parse_work_list",
    "rebuild_abstract",
    "work_from_json",
    "work_path",
]

# Re-bound, not only imported, so that the reference documents them on this module's page.
#: The service root; ``base_url`` replaces it.
DEFAULT_BASE_URL = _parse.DEFAULT_BASE_URL
#: OpenAlex accepts at most 50 values in one OR filter (``doi:a|b|...``; "up to 50", docs:
#: "Filter entity lists" / "OR between values").
BATCH_SIZE = _parse.BATCH_SIZE

#: OpenAlex allows 10 requests per second (https://docs.openalex.org/how-to-use-the-api/rate-limits-and-authentication);
#: 0.1 s between requests keeps one client within it.
MIN_INTERVAL = 0.1


# --------------------------------------------------------------------------- edge


def _asserted_citation(cited: Paper) -> Resolution:
    # OpenAlex's filter=cites lists works whose reference lists OpenAlex resolved to ``cited``.
    return asserted_resolution(
        cited, Method.OPENALEX, "OpenAlex asserts this citation (filter=cites)"
    )


class OpenAlexSource(ContactSource):
    """The OpenAlex API as a :class:`~citeledger.sources.Source`.

    Args:
        base_url: Replaces ``https://api.openalex.org``.
        mailto: Contact address: sent as ``mailto`` (the polite pool) and in the User-Agent.
        api_key: Premium API key, sent as the secret ``api_key`` parameter (never shown).
        transport: Send through this transport (then ``session``, ``policy`` and
            ``min_interval`` are not used).
        session: A :class:`requests.Session` (or ``requests_cache.CachedSession``) to wrap.
        policy: Retry policy of the default transport.
        min_interval: Seconds between requests (default 0.1: OpenAlex allows 10/s).
        per_page: Results per page when paging (OpenAlex allows up to 200).
        clock: Current aware UTC time, for observations, measurements and notice checks.

    >>> OpenAlexSource(api_key="s3cret")
    OpenAlexSource(base_url='https://api.openalex.org', mailto=None, api_key=REDACTED)
    """

    name = SOURCE
    #: ``referenced_works`` are W ids in OpenAlex's order, no text: an identifier hint for the
    #: ledger's inbound check, never the citing paper's list (``ReferenceOrderSource``).
    references_in_order = False
    #: Bounds of every paged listing (set on an instance to change them).
    page_bounds: PageBounds = PageBounds()
    capabilities = CORE | {Capability.CITED_BY_YEAR}
    _default_base_url = DEFAULT_BASE_URL

    def __init__(
        self,
        *,
        per_page: int = MAX_PER_PAGE,
        clock: Clock = utc_now,
        **options: Unpack[ContactOptions],
    ) -> None:
        self.per_page = per_page
        self._clock = clock
        self._reach(options, min_interval=MIN_INTERVAL)

    def __repr__(self) -> str:
        return self._http.describe("OpenAlexSource", base_url=self.base_url, mailto=self.mailto)

    # -- plumbing

    def _list(self, request: Request) -> OpenAlexWorkList:
        return self._http.json_as(request, parse_work_list, "an OpenAlex list")

    def work(self, identifier: Identifier | str) -> OpenAlexWork:
        """The full work record.

        Raises:
            NotFoundError: OpenAlex does not know the work (its 404 page is HTML).
            SourceError: the request failed after retries, or the body is unusable.
        """
        request = build_work_request(
            identifier, base_url=self.base_url, mailto=self.mailto, api_key=self._http.api_key
        )
        return self._http.json_as(request, parse_work, "an OpenAlex work")

    def _paged(self, request: Request, *, limit: int | None) -> Iterator[OpenAlexWorkList]:
        """Cursor-page through a list request; stops on an empty page or a missing cursor."""
        url = request.with_params(cursor="*").redacted_url()
        guard = PageGuard(source=self.name, bounds=self.page_bounds, url=url)

        def enough(_request: Request, _sent: int, kept: int) -> bool:
            # Unreadable results count toward the total, not toward a limit of works wanted.
            return limit is not None and kept >= limit

        return cursor_pages(request, self._list, guard, last=enough)

    # -- Source methods

    def paper(self, identifier: Identifier | str) -> Paper | None:
        """The work, or None when OpenAlex does not know it (404)."""
        return paper_or_none(self.work, identifier)

    def references(self, identifier: Identifier | str) -> list[Reference]:
        """``referenced_works`` as references (W ids), positions in OpenAlex's list order.

        OpenAlex does not keep the order printed in the paper (its lists are often sorted by
        id); each reference says so in ``extra`` (``("order", "openalex_list")``).

        Raises:
            NotFoundError: OpenAlex does not know the work.
        """
        return list(self.work(identifier).references)

    def citing_works(
        self, identifier: Identifier | str, *, limit: int | None = None
    ) -> Paged[OpenAlexWork]:
        """Works that cite the work (``filter=cites:W...``), lazily, with cursor paging.

        ``identifier`` may be any scheme; non-W ids cost one lookup first.
        """
        ident = as_identifier(identifier)
        wid = ident if isinstance(ident, OpenAlexId) else self.work(ident).id
        return self._citing(wid, limit=limit)

    def _citing_pages(self, wid: OpenAlexId, *, limit: int | None) -> Iterator[OpenAlexWorkList]:
        size = capped_size(self.per_page, limit)
        request = build_works_request(
            filters={"cites": wid.value},
            per_page=size,
            base_url=self.base_url,
            mailto=self.mailto,
            api_key=self._http.api_key,
        )
        return self._paged(request, limit=limit)

    def _citing(self, wid: OpenAlexId, *, limit: int | None) -> Paged[OpenAlexWork]:
        def pages() -> Iterator[tuple[list[OpenAlexWork], int | None, _Skipped]]:
            for page in self._citing_pages(wid, limit=limit):
                yield list(page.works), page.total, page.skipped

        return Paged(pages(), limit=limit)

    def citations(
        self, identifier: Identifier | str, *, limit: int | None = None
    ) -> Paged[Observation]:
        """Inbound observations: one per citing work, lazily (a :class:`Paged`).

        Each observation has direction INBOUND, the citing work as ``citing``, the work as
        ``cited``, source "openalex" and ``Resolution(VERIFIED_EXACT, method=OPENALEX)``, since
        OpenAlex itself asserts the link. A failure midway keeps what was fetched and is kept in
        :attr:`Paged.error`; :attr:`Paged.total` is OpenAlex's ``meta.count``.

        Raises:
            NotFoundError: OpenAlex does not know the work (raised at once, not on iteration).
        """
        cited = self.work(identifier)
        resolution = _asserted_citation(cited.paper)

        def observation(work: OpenAlexWork) -> Observation:
            return Observation(
                direction=Direction.INBOUND,
                citing=work.paper,
                cited=cited.paper,
                resolution=resolution,
                source=SOURCE,
                observed=self._clock(),
            )

        def pages() -> Iterator[tuple[list[Observation], int | None, _Skipped]]:
            for page in self._citing_pages(cited.id, limit=limit):
                yield [observation(w) for w in page.works], page.total, page.skipped

        return Paged(pages(), limit=limit)

    def events(self, identifier: Identifier | str) -> NoticeCheck:
        """``is_retracted`` as a notice check: a retraction event, or none found as of now.

        Raises:
            NotFoundError: OpenAlex does not know the work.
        """
        ident = as_identifier(identifier)
        work = self.work(ident)
        checked = self._clock()
        subject = work.paper.identifier("doi") or work.id
        if work.is_retracted is None:
            return NoticeCheck.unavailable(
                "OpenAlex gave no is_retracted flag",
                sources=(self.name,),
                checked=checked,
                subject=subject,
            )
        if work.is_retracted:
            event = Event(
                kind=EventKind.RETRACTION, subject=subject, source=self.name, label="is_retracted"
            )
            return NoticeCheck.found(
                [event], sources=(self.name,), checked=checked, subject=subject
            )
        return NoticeCheck.none_found(sources=(self.name,), checked=checked, subject=subject)

    def citation_counts(self, identifier: Identifier | str) -> list[Measurement]:
        """``cited_by_count`` as a dated measurement (per-year counts: :meth:`counts_by_year`)."""
        work = self.work(identifier)
        subject = work.paper.identifier("doi") or work.id
        return cited_by_count(
            work.cited_by_count, source=self.name, clock=self._clock, subject=subject
        )

    def counts_by_year(self, identifier: Identifier | str) -> dict[int, int]:
        """Citations received per year, ``{year: count}`` (OpenAlex keeps the last ten years)."""
        return dict(self.work(identifier).counts_by_year)

    def cited_by_year(self, identifier: Identifier | str) -> CitedByYear | None:
        """``counts_by_year`` as a dated per-year series, with ``cited_by_count`` beside it.

        OpenAlex bins citations by year for recent years only (its documentation: the last ten
        years), so the series says so in ``note`` when it starts after the work's own year.
        None when OpenAlex gives no per-year counts.

        Raises:
            NotFoundError: OpenAlex does not know the work.

        .. versionadded:: 0.1.0
        """
        work = self.work(identifier)
        if not work.counts_by_year:
            return None
        first = min(work.counts_by_year)
        own = work.paper.year
        note = None
        if own is None or first > own:
            # OpenAlex docs (Work object, counts_by_year): "for the last ten years".
            note = (
                "OpenAlex keeps counts_by_year for recent years only; "
                f"this series begins in {first}"
            )
            if own is not None:
                gap = f"{own}" if first - own == 1 else f"{own}-{first - 1}"
                note += f", so citations from {gap} are not in it (unknown, not zero)"
        return CitedByYear(
            source=self.name,
            observed=self._clock(),
            counts=work.counts_by_year,
            subject=work.paper.identifier("doi") or work.id,
            source_total=work.cited_by_count,
            note=note,
        )

    def citations_with_counts(
        self, identifier: Identifier | str, *, limit: int | None = None
    ) -> Paged[CountedCitation]:
        """:meth:`citations`, each with the citing work's own ``cited_by_count``.

        The counts come from the same ``filter=cites`` pages as the observations (no extra
        request); each names OpenAlex and, as ``subject``, the citing work's W id.

        Raises:
            NotFoundError: OpenAlex does not know the work (raised at once).

        .. versionadded:: 0.1.0
        """
        cited = self.work(identifier)
        resolution = _asserted_citation(cited.paper)

        def counted(work: OpenAlexWork) -> CountedCitation:
            observed = self._clock()
            obs = Observation(
                direction=Direction.INBOUND,
                citing=work.paper,
                cited=cited.paper,
                resolution=resolution,
                source=SOURCE,
                observed=observed,
            )
            counts: tuple[Measurement, ...] = ()
            if work.cited_by_count is not None:
                counts = (
                    Measurement(
                        value=work.cited_by_count,
                        source=self.name,
                        observed=observed,
                        kind=MeasurementKind.CITED_BY,
                        subject=work.id,
                    ),
                )
            return CountedCitation(observation=obs, cited_by=counts)

        def pages() -> Iterator[tuple[list[CountedCitation], int | None, _Skipped]]:
            for page in self._citing_pages(cited.id, limit=limit):
                yield [counted(w) for w in page.works], page.total, page.skipped

        return Paged(pages(), limit=limit)

    def search(self, query: Reference | str, *, limit: int = 10) -> list[Paper]:
        """Candidate works: ``filter=title.search:`` for a reference with a title, else ``search=``.

        Both versions of a paper (journal and arXiv preprint) can come back; they are kept.

        Raises:
            SourceError: the request failed after retries.
        """
        filters: dict[str, object] = {}
        text: str | None = None
        if isinstance(query, str):
            text = query.strip() or None
        elif query.title:
            filters["title.search"] = filter_value(query.title)
        else:
            text = (query.raw or "").strip() or None
        if not filters and not text:
            return []
        request = build_works_request(
            filters=filters or None,
            search=text,
            per_page=max(1, limit),
            base_url=self.base_url,
            mailto=self.mailto,
            api_key=self._http.api_key,
        )
        page = self._list(request)
        # Unreadable candidates travel with the answer, for the ledger to report.
        return SearchResults(page.papers[:limit], skipped=page.skipped)

    def works(
        self,
        *,
        filters: Mapping[str, object] | None = None,
        search: str | None = None,
        limit: int | None = None,
    ) -> Paged[Paper]:
        """Page lazily through any ``/works`` list with cursors."""
        size = capped_size(self.per_page, limit)
        request = build_works_request(
            filters=filters,
            search=search,
            per_page=size,
            base_url=self.base_url,
            mailto=self.mailto,
            api_key=self._http.api_key,
        )

        def pages() -> Iterator[tuple[list[Paper], int | None, _Skipped]]:
            for page in self._paged(request, limit=limit):
                yield page.papers, page.total, page.skipped

        return Paged(pages(), limit=limit)

    def papers(
        self, identifiers: Sequence[Identifier | str]
    ) -> list[tuple[Identifier | str, Paper | None, CiteledgerError | None]]:
        """Batch lookup with OR filters of at most 50 ids, keeping input order.

        Each input gets ``(input, paper, None)`` when found, ``(input, None, None)`` when
        OpenAlex does not know it, ``(input, None, InvalidIdentifier)`` when it does not parse,
        and ``(input, None, SourceError)`` when its batch failed. One bad id never loses the
        others. (A merged W id comes back under its new id and so reads as not found.) When
        the answer held records that could not be read, an id it does not match gets a
        :class:`~citeledger.errors.ParseError` naming them instead of "not found": its record
        may be among them.
        """
        results: list[tuple[Identifier | str, Paper | None, CiteledgerError | None]] = []
        groups: dict[str, list[tuple[int, Identifier, str]]] = {}
        for i, raw in enumerate(identifiers):
            try:
                ident = as_identifier(raw)
                name, value = batch_key(ident)
            except InvalidIdentifier as exc:
                results.append((raw, None, exc))
                continue
            results.append((raw, None, None))
            groups.setdefault(name, []).append((i, ident, value))
        for name, members in groups.items():
            for start in range(0, len(members), BATCH_SIZE):
                chunk = members[start : start + BATCH_SIZE]
                request = build_batch_request(
                    [m[1] for m in chunk],
                    base_url=self.base_url,
                    mailto=self.mailto,
                    api_key=self._http.api_key,
                )
                try:
                    page = self._list(request)
                except SourceError as exc:
                    for i, _, _ in chunk:
                        results[i] = (identifiers[i], None, exc)
                    continue
                index = _batch_index(name, page.works)
                unread = (
                    ParseError("openalex: " + describe_unreadable(page.skipped))
                    if page.skipped
                    else None
                )
                for i, _, value in chunk:
                    work = index.get(value.lower())
                    if work is not None:
                        results[i] = (identifiers[i], work.paper, None)
                    else:
                        results[i] = (identifiers[i], None, unread)
        return results


#: The unreadable items of one page.
_Skipped = tuple[UnreadableItem, ...]


def _batch_index(name: str, works: Sequence[OpenAlexWork]) -> dict[str, OpenAlexWork]:
    """Map each returned work by the value a batch of filter ``name`` asked for (lower-cased)."""
    index: dict[str, OpenAlexWork] = {}
    for work in works:
        for ident in work.paper.identifiers:
            if (
                (name == "openalex" and isinstance(ident, OpenAlexId))
                or (name == "doi" and isinstance(ident, DOI))
                or (name == "pmid" and isinstance(ident, PMID))
                or (name == "pmcid" and isinstance(ident, PMCID))
            ):
                index.setdefault(ident.value.lower(), work)
    return index
