"""Semantic Scholar Graph API: papers, batch lookups, references and citations with contexts.

The pure half builds :class:`~citeledger.sources._transport.Request` values
(:func:`build_paper_request`, :func:`build_batch_request`, :func:`build_references_request`,
:func:`build_citations_request`, :func:`build_search_request`) and parses response bodies
(:func:`parse_paper`, :func:`parse_batch`, :func:`parse_references_page`,
:func:`parse_citations_page`, :func:`parse_citation_counts`, :func:`parse_search`,
:func:`parse_search_page`). The edge,
:class:`SemanticScholarSource`, sends them through an injected transport.

What the recordings show (``../shared/data/sources/semanticscholar``): errors are
``{"error": ...}`` (400/404) or ``{"message": ...}`` from the AWS gateway (429/403/504, the 429
without ``Retry-After``); batch responses are positional with ``null`` for unknown ids; pages
carry ``offset`` and ``next`` and the last page has no ``next``.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
import enum
import functools
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Generic, Self, TypeVar
from urllib.parse import quote

import attrs
from attrs import field, frozen

from citeledger.errors import (
    InvalidIdentifier,
    NotFoundError,
    ParseError,
    SourceError,
)
from citeledger.identifiers import (
    PMCID,
    PMID,
    ArxivId,
    CorpusId,
    Identifier,
    OpenAlexId,
    S2PaperId,
    parse_identifier,
)
from citeledger.model import (
    Author,
    Direction,
    Measurement,
    MeasurementKind,
    Method,
    Observation,
    Paper,
    Reference,
    Resolution,
    ResolutionState,
    WorkType,
)
from citeledger.page import CountedCitation
from citeledger.sources import (
    Capability,
    Paged,
    SearchResults,
    UnreadableItem,
)
from citeledger.sources._common import payload_shape, read_each, refuse_unreadable
from citeledger.sources._http import EdgeTransport, HttpEdge
from citeledger.sources._paging import PageBounds, PageGuard
from citeledger.sources._transport import (
    Request,
    RetryPolicy,
    Transport,
)

if TYPE_CHECKING:
    import requests

__all__ = [
    "COUNTED_LINK_FIELDS",
    "DEFAULT_BASE_URL",
    "MAX_BATCH",
    "MAX_PAGE",
    "MAX_WINDOW",
    "BatchItem",
    "BatchStatus",
    "S2Link",
    "S2Page",
    "SemanticScholarSource",
    "build_batch_request",
    "build_citations_request",
    "build_paper_request",
    "build_references_request",
    "build_search_request",
    "parse_batch",
    "parse_citation_counts",
    "parse_citations_page",
    "parse_paper",
    "parse_references_page",
    "parse_search",
    "parse_search_page",
    "s2_paper_id",
]

NAME: Final = "semanticscholar"
#: The Graph API root; ``base_url`` replaces it.
DEFAULT_BASE_URL: Final = "https://api.semanticscholar.org/graph/v1"
#: Largest ``limit`` of one references/citations page (S2 Graph API documentation).
MAX_PAGE: Final = 1000
#: ``offset + limit`` may not exceed this on references/citations listings (S2 refuses deeper
#: pages; the rest of a listing is only reachable through the bulk datasets).
MAX_WINDOW: Final = 9999
#: Most ids one ``POST /paper/batch`` accepts (S2 Graph API documentation).
MAX_BATCH: Final = 500

#: Fields asked for a paper; nested paper fields (citingPaper/citedPaper) use the same names.
PAPER_FIELDS: Final = (
    "paperId,externalIds,corpusId,title,abstract,venue,year,publicationDate,journal,"
    "publicationTypes,authors,citationCount,influentialCitationCount,referenceCount,fieldsOfStudy"
)
#: Fields of one listing element: the link's own fields plus the other paper's.
LINK_FIELDS: Final = (
    "contexts,intents,isInfluential,paperId,externalIds,title,venue,year,publicationDate,"
    "journal,publicationTypes,authors"
)
COUNT_FIELDS: Final = "citationCount,influentialCitationCount"
#: Listing fields of :meth:`SemanticScholarSource.citations_with_counts`: the citing paper's own
#: ``citationCount`` (to rank citing papers) and ``fieldsOfStudy`` (its areas) as well.
COUNTED_LINK_FIELDS: Final = LINK_FIELDS + ",citationCount,fieldsOfStudy"

_T = TypeVar("_T")

# S2 publicationTypes -> WorkType; anything else is left unset rather than guessed.
_WORK_TYPES: Final = {
    "JournalArticle": WorkType.ARTICLE,
    "Review": WorkType.ARTICLE,
    "LettersAndComments": WorkType.ARTICLE,
    "Editorial": WorkType.ARTICLE,
    "CaseReport": WorkType.ARTICLE,
    "ClinicalTrial": WorkType.ARTICLE,
    "Study": WorkType.ARTICLE,
    "MetaAnalysis": WorkType.ARTICLE,
    "Conference": WorkType.PROCEEDINGS_ARTICLE,
    "Book": WorkType.BOOK,
    "BookSection": WorkType.CHAPTER,
    "Dataset": WorkType.DATASET,
    "News": WorkType.OTHER,
}


# --------------------------------------------------------------------------- values


class BatchStatus(enum.StrEnum):
    """What happened to one id of a batch lookup."""

    #: Semantic Scholar returned the paper.
    FOUND = "found"
    #: Semantic Scholar answered ``null`` at this position: it does not know the id.
    NOT_FOUND = "not_found"
    #: The id could not be sent (not a parseable identifier, or a scheme S2 cannot look up).
    INVALID = "invalid"
    #: The request carrying this id failed after retries; other chunks are unaffected.
    ERROR = "error"


@frozen(kw_only=True)
class BatchItem:
    """One position of a batch lookup, in the order the ids were given.

    Args:
        requested: The id as given.
        status: Found, not found, invalid or error.
        paper: The paper when found.
        reason: Why it is not found / invalid / an error.
    """

    requested: str
    status: BatchStatus = field(converter=BatchStatus)
    paper: Paper | None = None
    reason: str | None = None


@frozen(kw_only=True)
class S2Link:
    """One element of a references or citations listing.

    Args:
        paper: The other paper (the cited one for references, the citing one for citations).
        contexts: Sentences around the in-text citation.
        intents: S2's citation intents ("methodology", "background", "result").
        influential: S2's ``isInfluential``.
        index: 0-based index in S2's listing (offset included).
        citation_count: The other paper's own ``citationCount``, when the listing asked for it.
    """

    paper: Paper
    contexts: tuple[str, ...] = ()
    intents: tuple[str, ...] = ()
    influential: bool | None = None
    index: int
    citation_count: int | None = None


@frozen(kw_only=True)
class S2Page(Generic[_T]):
    """One page of an offset-paged listing.

    Args:
        items: The page's elements.
        offset: The page's ``offset``.
        next: The next page's offset; None on the last page (S2 omits ``next``).
        skipped: The page's elements that could not be read (``index`` within the page's
            ``data`` array), each with its reason.
        total: The number of matches S2 announced (``/paper/search`` only; None otherwise).

    .. versionchanged:: 0.1.0
       ``total``.
    """

    items: tuple[_T, ...]
    offset: int
    next: int | None = None
    skipped: tuple[UnreadableItem, ...] = ()
    total: int | None = None


# --------------------------------------------------------------------------- requests


def _coerce(identifier: Identifier | str) -> Identifier:
    return parse_identifier(identifier) if isinstance(identifier, str) else identifier


def s2_paper_id(identifier: Identifier | str) -> str:
    """The id form the Graph API accepts in ``/paper/{id}`` and batch bodies.

    >>> s2_paper_id("10.1038/s42256-024-00832-8")
    'DOI:10.1038/s42256-024-00832-8'
    >>> s2_paper_id("arXiv:2104.12255v1")
    'ARXIV:2104.12255'
    >>> s2_paper_id("CorpusId:14514057")
    'CorpusId:14514057'

    Raises:
        InvalidIdentifier: the text is no identifier, or it is an OpenAlex id (S2 cannot look
            those up).
    """
    ident = _coerce(identifier)
    if isinstance(ident, S2PaperId):
        return ident.value
    if isinstance(ident, CorpusId):
        return f"CorpusId:{ident.value}"
    if isinstance(ident, ArxivId):
        # S2 keys arXiv papers by base id; a version suffix is not accepted.
        return f"ARXIV:{ident.unversioned().value}"
    if isinstance(ident, PMID):
        return f"PMID:{ident.value}"
    if isinstance(ident, PMCID):
        return f"PMCID:{ident.value.removeprefix('PMC')}"
    if isinstance(ident, OpenAlexId):
        raise InvalidIdentifier(
            str(ident), "Semantic Scholar cannot look up OpenAlex ids", "openalex"
        )
    return f"DOI:{ident.value}"


def _root(base_url: str | None) -> str:
    return (base_url or DEFAULT_BASE_URL).rstrip("/")


def _headers(api_key: str | None) -> dict[str, str]:
    return {"x-api-key": api_key} if api_key else {}


def _paper_path(base_url: str | None, identifier: Identifier | str) -> str:
    # ':' and '/' are part of S2 ids ("DOI:10.1/x"); everything else a DOI may hold is escaped.
    return f"{_root(base_url)}/paper/{quote(s2_paper_id(identifier), safe=':/')}"


def build_paper_request(
    identifier: Identifier | str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    fields: str = PAPER_FIELDS,
) -> Request:
    """``GET /paper/{id}?fields=...``.

    >>> build_paper_request("PMID:38799228", base_url="http://h").full_url.split("?")[0]
    'http://h/paper/PMID:38799228'
    """
    return Request(
        url=_paper_path(base_url, identifier),
        params={"fields": fields},
        headers=_headers(api_key),
        secret_headers={"x-api-key"},
    )


def build_batch_request(
    ids: Sequence[str],
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    fields: str = PAPER_FIELDS,
) -> Request:
    """``POST /paper/batch`` with ``{"ids": [...]}`` (ids already in S2 form, at most 500).

    Raises:
        ValueError: more than :data:`MAX_BATCH` ids.
    """
    if len(ids) > MAX_BATCH:
        raise ValueError(f"a batch holds at most {MAX_BATCH} ids, got {len(ids)}")
    return Request(
        method="POST",
        url=f"{_root(base_url)}/paper/batch",
        params={"fields": fields},
        headers=_headers(api_key),
        secret_headers={"x-api-key"},
        json_body=json.dumps({"ids": list(ids)}),
    )


def _listing_request(
    kind: str,
    identifier: Identifier | str,
    *,
    offset: int,
    limit: int,
    base_url: str | None,
    api_key: str | None,
    fields: str,
) -> Request:
    if not 1 <= limit <= MAX_PAGE:
        raise ValueError(f"limit must be within 1-{MAX_PAGE}, got {limit}")
    if offset < 0 or offset + limit > MAX_WINDOW:
        raise ValueError(f"offset + limit must stay within 0-{MAX_WINDOW}, got {offset} + {limit}")
    return Request(
        url=f"{_paper_path(base_url, identifier)}/{kind}",
        params={"fields": fields, "offset": offset, "limit": limit},
        headers=_headers(api_key),
        secret_headers={"x-api-key"},
    )


def build_references_request(
    identifier: Identifier | str,
    *,
    offset: int = 0,
    limit: int = 100,
    base_url: str | None = None,
    api_key: str | None = None,
    fields: str = LINK_FIELDS,
) -> Request:
    """``GET /paper/{id}/references?fields=...&offset=...&limit=...``.

    Raises:
        ValueError: ``limit`` above 1,000 or ``offset + limit`` above 9,999 (S2's caps).
    """
    return _listing_request(
        "references",
        identifier,
        offset=offset,
        limit=limit,
        base_url=base_url,
        api_key=api_key,
        fields=fields,
    )


def build_citations_request(
    identifier: Identifier | str,
    *,
    offset: int = 0,
    limit: int = 100,
    base_url: str | None = None,
    api_key: str | None = None,
    fields: str = LINK_FIELDS,
) -> Request:
    """``GET /paper/{id}/citations?fields=...&offset=...&limit=...``.

    Raises:
        ValueError: ``limit`` above 1,000 or ``offset + limit`` above 9,999 (S2's caps).
    """
    return _listing_request(
        "citations",
        identifier,
        offset=offset,
        limit=limit,
        base_url=base_url,
        api_key=api_key,
        fields=fields,
    )


def build_search_request(
    query: str,
    *,
    limit: int = 10,
    base_url: str | None = None,
    api_key: str | None = None,
    fields: str = PAPER_FIELDS,
) -> Request:
    """``GET /paper/search?query=...&limit=...`` (relevance search, at most 100 per page)."""
    return Request(
        url=f"{_root(base_url)}/paper/search",
        params={"query": query, "limit": max(1, min(limit, 100)), "fields": fields},
        headers=_headers(api_key),
        secret_headers={"x-api-key"},
    )


# --------------------------------------------------------------------------- parsing


def _load(body: bytes, what: str) -> Any:
    try:
        return json.loads(body)
    except RecursionError:
        raise ParseError(f"semanticscholar {what}: not JSON (nested too deeply)") from None
    except (ValueError, TypeError) as exc:  # also bytes that are not UTF-8, over-long ints
        shown = body[:60].decode("utf-8", "replace")
        raise ParseError(f"semanticscholar {what}: not JSON ({exc}): {shown!r}") from exc


def _external_ids(data: Mapping[str, Any]) -> list[Identifier]:
    """The citeledger identifiers of an S2 paper; S2 values that do not parse are skipped."""
    out: list[Identifier] = []
    ext = data.get("externalIds") or {}
    candidates: list[tuple[object, str]] = [
        (ext.get("DOI"), "doi"),
        (ext.get("ArXiv"), "arxiv"),
        (ext.get("PubMed"), "pmid"),
        (ext.get("PubMedCentral"), "pmcid"),
        (data.get("paperId"), "s2"),
        (ext.get("CorpusId", data.get("corpusId")), "corpusid"),
    ]
    for value, scheme in candidates:
        if value is None or value == "":
            continue
        try:
            ident = parse_identifier(str(value), scheme)
        except InvalidIdentifier:
            # S2 carries some junk external ids; a bad one must not lose the paper.
            continue
        if ident not in out:
            out.append(ident)
    return out


def _pages(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    # "525 - 535" -> "525-535"
    return "-".join(p.strip() for p in value.split("-")) or None


def paper_from_json(data: Mapping[str, Any]) -> Paper:
    """A :class:`Paper` from one S2 paper object (as in ``/paper``, batch or listings)."""
    if not isinstance(data, Mapping):
        raise ParseError(f"semanticscholar: expected a paper object, got {type(data).__name__}")
    with payload_shape("semanticscholar", "paper object"):
        return _paper_from_json(data)


def _paper_from_json(data: Mapping[str, Any]) -> Paper:
    journal = data.get("journal") or {}
    types = data.get("publicationTypes") or []
    work_type = next((_WORK_TYPES[t] for t in types if t in _WORK_TYPES), None)
    fos = data.get("fieldsOfStudy") or []
    if not fos:
        fos = list(
            dict.fromkeys(
                f["category"] for f in data.get("s2FieldsOfStudy") or [] if "category" in f
            )
        )
    date = data.get("publicationDate")
    return Paper(
        identifiers=_external_ids(data),
        title=data.get("title"),
        authors=[Author.from_string(a["name"]) for a in data.get("authors") or [] if a.get("name")],
        year=data.get("year"),
        date=date if isinstance(date, str) and len(date) >= 10 else None,
        venue=journal.get("name") or data.get("venue") or None,
        volume=journal.get("volume"),
        pages=_pages(journal.get("pages")),
        work_type=work_type,
        areas=fos,
        abstract=data.get("abstract"),
        source=NAME,
    )


def parse_paper(body: bytes) -> Paper:
    """Parse a ``GET /paper/{id}`` body.

    >>> parse_paper(b'{"paperId": null, "title": "A", "year": 2020}').title
    'A'

    Raises:
        ParseError: not JSON, or not a paper object.
    """
    data = _load(body, "paper")
    if not isinstance(data, dict) or "error" in data or "message" in data:
        raise ParseError(f"semanticscholar paper: not a paper object: {str(data)[:80]!r}")
    return paper_from_json(data)


def parse_batch(body: bytes, requested: Sequence[str]) -> list[BatchItem]:
    """Parse a ``POST /paper/batch`` body: one item per requested id, in order.

    >>> [i.status.value for i in parse_batch(b'[null, {"title": "T"}]', ["a", "b"])]
    ['not_found', 'found']

    Raises:
        ParseError: not a JSON array of the requested length.
    """
    data = _load(body, "batch")
    if not isinstance(data, list) or len(data) != len(requested):
        got = len(data) if isinstance(data, list) else type(data).__name__
        raise ParseError(f"semanticscholar batch: expected {len(requested)} positions, got {got}")
    items: list[BatchItem] = []
    for req, entry in zip(requested, data, strict=True):
        if entry is None:
            items.append(BatchItem(requested=req, status=BatchStatus.NOT_FOUND, reason="null"))
            continue
        try:
            paper = paper_from_json(entry)
        except ParseError as exc:
            # One unreadable position must not cost the batch its other papers.
            items.append(BatchItem(requested=req, status=BatchStatus.ERROR, reason=str(exc)))
        else:
            items.append(BatchItem(requested=req, status=BatchStatus.FOUND, paper=paper))
    return items


def _page(body: bytes, what: str) -> tuple[list[Any], int, int | None]:
    data = _load(body, what)
    if not isinstance(data, dict) or not isinstance(data.get("data"), list):
        raise ParseError(f"semanticscholar {what}: no 'data' array")
    offset = data.get("offset", 0)
    nxt = data.get("next")
    if not isinstance(offset, int) or (nxt is not None and not isinstance(nxt, int)):
        raise ParseError(f"semanticscholar {what}: bad offset/next {offset!r}/{nxt!r}")
    return data["data"], offset, nxt


def _link(row: Any, key: str, index: int) -> S2Link:
    """One listing element; ``index`` is its 0-based place in S2's whole listing."""
    if not isinstance(row, dict) or not isinstance(row.get(key), dict):
        raise ParseError(f"semanticscholar: listing element {index} has no {key!r}")
    influential = row.get("isInfluential")
    count = row[key].get("citationCount")
    contexts, intents = row.get("contexts") or (), row.get("intents") or ()
    if not isinstance(contexts, list | tuple) or not isinstance(intents, list | tuple):
        raise ParseError(
            f"semanticscholar: listing element {index} has contexts/intents that are not arrays"
        )
    return S2Link(
        paper=paper_from_json(row[key]),
        contexts=tuple(contexts),
        intents=tuple(intents),
        influential=influential if isinstance(influential, bool) else None,
        index=index,
        citation_count=count if isinstance(count, int) and not isinstance(count, bool) else None,
    )


def _links(
    rows: list[Any], key: str, offset: int
) -> tuple[tuple[S2Link, ...], tuple[UnreadableItem, ...]]:
    """The page's readable links, and a record of each element that is not one."""
    out: list[S2Link] = []
    skipped: list[UnreadableItem] = []
    what = "citing paper" if key == "citingPaper" else "cited paper"
    for i, row in enumerate(rows):
        try:
            out.append(_link(row, key, offset + i))
        except ParseError as exc:
            # One unreadable element must not cost the page its other elements.
            skipped.append(UnreadableItem.of(NAME, what, i, exc, row))
    return tuple(out), tuple(skipped)


def parse_references_page(body: bytes) -> S2Page[S2Link]:
    """Parse one ``/paper/{id}/references`` page (elements carry ``citedPaper``).

    An element that cannot be read is recorded in :attr:`S2Page.skipped`; the page's other
    elements are kept, in order.

    >>> page = parse_references_page(
    ...     b'{"offset": 0, "data": [{"citedPaper": {"title": "X"}}, {"citedPaper": null}]}'
    ... )
    >>> page.next is None, page.items[0].paper.title, page.skipped[0].reason
    (True, 'X', "semanticscholar: listing element 1 has no 'citedPaper'")

    Raises:
        ParseError: not JSON, or no ``data`` array / a bad ``offset`` or ``next``.
    """
    rows, offset, nxt = _page(body, "references")
    items, skipped = _links(rows, "citedPaper", offset)
    return S2Page(items=items, offset=offset, next=nxt, skipped=skipped)


def parse_citations_page(body: bytes) -> S2Page[S2Link]:
    """Parse one ``/paper/{id}/citations`` page (elements carry ``citingPaper``).

    An element that cannot be read is recorded in :attr:`S2Page.skipped`; the page's other
    elements are kept, in order.

    >>> parse_citations_page(b'{"offset": 0, "next": 1, "data": []}').next
    1

    Raises:
        ParseError: not JSON, or no ``data`` array / a bad ``offset`` or ``next``.
    """
    rows, offset, nxt = _page(body, "citations")
    items, skipped = _links(rows, "citingPaper", offset)
    return S2Page(items=items, offset=offset, next=nxt, skipped=skipped)


def parse_citation_counts(
    body: bytes, *, observed: dt.datetime, subject: Identifier | str | None = None
) -> list[Measurement]:
    """``citationCount`` and ``influentialCitationCount`` of a paper body as measurements.

    >>> now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    >>> [m.value for m in parse_citation_counts(b'{"citationCount": 5}', observed=now)]
    [5]
    """
    data = _load(body, "paper")
    if not isinstance(data, dict):
        raise ParseError("semanticscholar paper: not an object")
    out = []
    for key, kind in (
        ("citationCount", MeasurementKind.CITED_BY),
        ("influentialCitationCount", MeasurementKind.INFLUENTIAL_CITED_BY),
    ):
        value = data.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            out.append(
                Measurement(value=value, source=NAME, observed=observed, kind=kind, subject=subject)
            )
    return out


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_search_page(body: bytes) -> S2Page[Paper]:
    """Parse ``/paper/search`` or ``/paper/search/match``, keeping every readable result.

    A result that cannot be read (not an object, fields of unexpected shape) costs the page
    nothing else: the other papers keep S2's relevance order and the result is recorded in
    :attr:`S2Page.skipped` with its index in ``data`` and the reason.

    >>> page = parse_search_page(
    ...     b'{"total": 3, "offset": 0, "data": [{"title": "A"}, 5, {"title": "C"}]}'
    ... )
    >>> [p.title for p in page.items], page.total, [(u.index, u.reason) for u in page.skipped]
    (['A', 'C'], 3, [(1, 'semanticscholar: expected a paper object, got int')])

    Raises:
        ParseError: not JSON, not an object, or ``data`` is not an array.

    .. versionadded:: 0.1.0
    """
    data = _load(body, "search")
    if not isinstance(data, dict) or not isinstance(data.get("data", []), list):
        raise ParseError("semanticscholar search: no 'data' array")
    # One unreadable result must not cost the search its other candidates.
    papers, skipped = read_each(
        data.get("data", []), paper_from_json, source=NAME, what="search result"
    )
    offset = _int_or_none(data.get("offset"))
    return S2Page(
        items=tuple(papers),
        offset=offset or 0,
        next=_int_or_none(data.get("next")),
        skipped=tuple(skipped),
        total=_int_or_none(data.get("total")),
    )


def parse_search(body: bytes) -> list[Paper]:
    """Parse ``/paper/search`` or ``/paper/search/match`` (both ``{"data": [...]}``), strictly.

    The list returned is always every result: a result that cannot be read raises, naming
    its index. :func:`parse_search_page` keeps the readable results and records the others.

    >>> parse_search(b'{"total": 0, "offset": 0, "data": []}')
    []

    Raises:
        ParseError: not JSON, no ``data`` array, or a result that cannot be read.
    """
    page = parse_search_page(body)
    refuse_unreadable(page.skipped, "semanticscholar search: result", "parse_search_page")
    return list(page.items)


def link_reference(link: S2Link) -> Reference:
    """A :class:`Reference` for one element of a references listing.

    The position is S2's listing order, which is *not* the citing paper's printed order (the
    recordings list newest first); ``extra`` says so, and carries the contexts and intents.
    """
    extra: list[tuple[str, str]] = [("position_basis", "semanticscholar listing order")]
    extra += [("intent", i) for i in link.intents]
    extra += [("context", c) for c in link.contexts]
    if link.influential is not None:
        extra.append(("is_influential", str(link.influential).lower()))
    paper = link.paper
    return Reference(
        position=link.index + 1,
        title=paper.title,
        authors=paper.authors,
        year=paper.year,
        venue=paper.venue,
        volume=paper.volume,
        first_page=paper.first_page,
        identifiers=paper.identifiers,
        asserted_by=NAME,
        extra=extra,
    )


def link_observation(
    link: S2Link, *, subject: Paper, direction: Direction, observed: dt.datetime
) -> Observation:
    """An :class:`Observation` for one listing element; S2 asserts the link, so it is verified.

    ``subject`` is the paper whose listing it is: the cited paper of a citations listing
    (``direction`` inbound), the citing paper of a references listing (outbound).
    """
    inbound = direction is Direction.INBOUND
    citing, cited = (link.paper, subject) if inbound else (subject, link.paper)
    resolution = Resolution(
        state=ResolutionState.VERIFIED_EXACT,
        method=Method.S2,
        target=cited,
        score=100.0,
        reason="Semantic Scholar asserts the citation link",
    )
    return Observation(
        direction=direction,
        citing=citing,
        cited=cited,
        position=None if inbound else link.index + 1,
        resolution=resolution,
        source=NAME,
        observed=observed,
        contexts=link.contexts,
        intents=link.intents,
        influential=link.influential,
    )


# --------------------------------------------------------------------------- the edge


class _WindowPaged(Paged[_T]):
    """A :class:`Paged` whose pages can report that S2's offset window stopped them."""

    def __init__(
        self,
        pages: Callable[
            [_WindowPaged[_T]],
            Iterator[tuple[list[_T], int | None, tuple[UnreadableItem, ...]]],
        ],
    ) -> None:
        self._window_hit = False
        super().__init__(pages(self))

    def hit_window(self) -> None:
        """Record that more items exist beyond S2's 9,999 window."""
        self._window_hit = True

    def __next__(self) -> _T:
        try:
            return super().__next__()
        except StopIteration:
            if self._window_hit:
                self.complete = False
                self.capped = True
            raise


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class SemanticScholarSource:
    """Semantic Scholar Graph API as a :class:`~citeledger.sources.Source`.

    Args:
        base_url: Replaces ``https://api.semanticscholar.org/graph/v1``.
        api_key: Sent as the ``x-api-key`` header; never shown in a repr, log or error.
        transport: Sends requests; a :class:`RequestsTransport` over ``session`` when None.
        session: A ``requests.Session`` (or ``requests_cache.CachedSession``) for the default
            transport.
        min_interval: Seconds between requests of the default transport. S2 allows about one
            request per second without a key, and introductory keys get the same rate, so 1.0.
        policy: Retry policy of the default transport.
        page_size: Listing page size (at most 1,000). 500 by default: the recordings show a
            1,000-element citations page with contexts timing out (HTTP 504).
        announce_total: Before listing citations, ask for ``citationCount`` so a listing that
            fails midway can say "fetched X of Y" (one extra request).
        now: The current aware UTC time (injectable for tests).
    """

    name = NAME
    #: Bounds of every paged listing (set on an instance to change them).
    page_bounds: PageBounds = PageBounds()
    capabilities = frozenset(
        {
            Capability.PAPER,
            Capability.REFERENCES,
            Capability.CITATIONS,
            Capability.CITATION_COUNTS,
            Capability.SEARCH,
        }
    )
    transport = EdgeTransport()

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        transport: Transport | None = None,
        session: requests.Session | None = None,
        min_interval: float = 1.0,
        policy: RetryPolicy | None = None,
        page_size: int = 500,
        announce_total: bool = True,
        now: Callable[[], dt.datetime] | None = None,
    ) -> None:
        if not 1 <= page_size <= MAX_PAGE:
            raise ValueError(f"page_size must be within 1-{MAX_PAGE}, got {page_size}")
        # The key travels as the x-api-key header the request builders add (redacted).
        self._http = HttpEdge.build(
            NAME,
            transport=transport,
            session=session,
            policy=policy,
            min_interval=min_interval,
            base_url=_root(base_url),
            api_key=api_key,
        )
        self.page_size = page_size
        self.announce_total = announce_total
        self._now = now or _now

    @property
    def base_url(self) -> str:
        """The API root requests go to."""
        return _root(self._http.base_url)

    def __repr__(self) -> str:
        return self._http.describe("SemanticScholarSource", base_url=self.base_url)

    def with_transport(self, transport: Transport) -> Self:
        """A copy of this source sending through ``transport`` (settings and secrets kept)."""
        return self._http.clone_onto(self, transport)

    # -- plumbing

    def _kw(self) -> dict[str, Any]:
        return {"base_url": self.base_url, "api_key": self._http.api_key}

    # -- Source methods

    def paper(self, identifier: Identifier | str) -> Paper | None:
        """The paper, or None when S2 answers 404."""
        try:
            response = self._http.send(build_paper_request(identifier, **self._kw()))
        except NotFoundError:
            return None
        return self._http.read(response, parse_paper)

    def batch(self, identifiers: Iterable[Identifier | str]) -> list[BatchItem]:
        """Look many ids up with ``POST /paper/batch``, 500 per request, keeping input order.

        Every input gets one :class:`BatchItem`: an unparseable id is ``invalid`` without
        being sent, S2's ``null`` is ``not_found``, and a chunk whose request fails after
        retries marks only its own ids ``error``.
        """
        given = list(identifiers)
        out: list[BatchItem | None] = [None] * len(given)
        sendable: list[tuple[int, str]] = []
        for i, raw in enumerate(given):
            try:
                sendable.append((i, s2_paper_id(raw)))
            except InvalidIdentifier as exc:
                out[i] = BatchItem(
                    requested=str(raw), status=BatchStatus.INVALID, reason=exc.reason
                )
        for start in range(0, len(sendable), MAX_BATCH):
            chunk = sendable[start : start + MAX_BATCH]
            ids = [s for _, s in chunk]
            try:
                response = self._http.send(build_batch_request(ids, **self._kw()))
                items = self._http.read(response, functools.partial(parse_batch, requested=ids))
            except SourceError as exc:
                for i, _ in chunk:
                    out[i] = BatchItem(
                        requested=str(given[i]), status=BatchStatus.ERROR, reason=str(exc)
                    )
                continue
            for (i, _), item in zip(chunk, items, strict=True):
                out[i] = attrs.evolve(item, requested=str(given[i]))
        return [item for item in out if item is not None]

    def _listing(
        self,
        identifier: Identifier | str,
        kind: str,
        convert: Callable[[S2Link], _T],
        *,
        link_fields: str = LINK_FIELDS,
    ) -> _WindowPaged[_T]:
        build = build_citations_request if kind == "citations" else build_references_request
        parse = parse_citations_page if kind == "citations" else parse_references_page
        ident = _coerce(identifier)

        def pages(
            paged: _WindowPaged[_T],
        ) -> Iterator[tuple[list[_T], int | None, tuple[UnreadableItem, ...]]]:
            total: int | None = None
            if self.announce_total:
                fields = "citationCount" if kind == "citations" else "referenceCount"
                response = self._http.send(build_paper_request(ident, fields=fields, **self._kw()))
                data = self._http.read(response, lambda b: _load(b, "paper"))
                value = data.get(fields) if isinstance(data, dict) else None
                total = value if isinstance(value, int) and not isinstance(value, bool) else None
            guard = PageGuard(source=self.name, bounds=self.page_bounds)
            offset = 0
            while True:
                limit = min(self.page_size, MAX_WINDOW - offset)
                if limit <= 0:
                    # More items exist, but S2 serves nothing beyond offset + limit = 9,999.
                    paged.hit_window()
                    return
                response = self._http.send(
                    build(ident, offset=offset, limit=limit, fields=link_fields, **self._kw())
                )
                page = self._http.read(response, parse)
                guard.page(page.items)
                yield [convert(link) for link in page.items], total, page.skipped
                if page.next is None or page.next <= offset:
                    return
                read_to = offset + len(page.items) + len(page.skipped)
                guard.next_offset(page.next, read_to=read_to, total=total)
                guard.more()
                offset = page.next

        return _WindowPaged(pages)

    def citation_links(self, identifier: Identifier | str) -> Paged[S2Link]:
        """The raw citations listing (citing papers with contexts, intents, influence)."""
        return self._listing(identifier, "citations", _same)

    def reference_links(self, identifier: Identifier | str) -> Paged[S2Link]:
        """The raw references listing (cited papers with contexts, intents, influence)."""
        return self._listing(identifier, "references", _same)

    def citations(self, identifier: Identifier | str) -> Paged[Observation]:
        """Inbound observations, lazily; verified exact by method S2 (S2 asserts each link).

        The result is a :class:`~citeledger.sources.Paged`: ``total`` is S2's
        ``citationCount`` (when ``announce_total``), ``error`` is set if a page fails midway,
        ``capped`` is set when S2's 9,999 offset window stops the listing early, and
        ``skipped`` records the elements that could not be read.
        """
        ident = _coerce(identifier)
        subject = Paper(identifiers=(ident,))
        observed = self._now()
        return self._listing(
            ident,
            "citations",
            lambda link: link_observation(
                link, subject=subject, direction=Direction.INBOUND, observed=observed
            ),
        )

    def citations_with_counts(self, identifier: Identifier | str) -> Paged[CountedCitation]:
        """:meth:`citations`, each with the citing paper's own ``citationCount``.

        The listing also asks for ``citationCount`` and ``fieldsOfStudy`` of each citing paper
        (:data:`COUNTED_LINK_FIELDS`), so ranking costs no request per citing paper. A citing
        paper without a count gets none (never a zero).

        .. versionadded:: 0.1.0
        """
        ident = _coerce(identifier)
        subject = Paper(identifiers=(ident,))
        observed = self._now()

        def counted(link: S2Link) -> CountedCitation:
            obs = link_observation(
                link, subject=subject, direction=Direction.INBOUND, observed=observed
            )
            counts: tuple[Measurement, ...] = ()
            if link.citation_count is not None:
                counts = (
                    Measurement(
                        value=link.citation_count,
                        source=NAME,
                        observed=observed,
                        kind=MeasurementKind.CITED_BY,
                        subject=_best(link.paper),
                    ),
                )
            return CountedCitation(observation=obs, cited_by=counts)

        return self._listing(ident, "citations", counted, link_fields=COUNTED_LINK_FIELDS)

    def reference_observations(self, identifier: Identifier | str) -> list[Observation]:
        """Outbound observations with contexts/intents; positions are S2's listing order.

        An element that could not be read has no cited paper to observe, so it has no
        observation here (its position is missing); :meth:`references` keeps it as an
        unreadable reference and :meth:`reference_links` records it in ``skipped``.
        """
        ident = _coerce(identifier)
        subject = Paper(identifiers=(ident,))
        observed = self._now()
        paged = self.reference_links(ident)
        out = [
            link_observation(link, subject=subject, direction=Direction.OUTBOUND, observed=observed)
            for link in paged
        ]
        paged.raise_for_error()
        return out

    def references(self, identifier: Identifier | str) -> list[Reference]:
        """The reference list (every page); positions follow S2's listing order.

        An element that could not be read is kept at its position as a reference holding
        only the reason (``unreadable``), so the ledger counts it.

        Raises:
            SourceError: a page failed after retries (use :meth:`reference_links` to keep a
                partial listing).
        """
        paged = self.reference_links(identifier)
        out = [link_reference(link) for link in paged]
        paged.raise_for_error()
        for item in paged.skipped:
            index = item.listing_index if item.listing_index is not None else len(out)
            out.append(
                Reference(
                    position=index + 1,
                    asserted_by=NAME,
                    unreadable=item.reason,
                    extra=(("position_basis", "semanticscholar listing order"),),
                )
            )
        out.sort(key=lambda r: r.position or 0)
        return out

    def citation_counts(self, identifier: Identifier | str) -> list[Measurement]:
        """``citationCount`` (cited_by) and ``influentialCitationCount`` (influential_cited_by)."""
        ident = _coerce(identifier)
        response = self._http.send(build_paper_request(ident, fields=COUNT_FIELDS, **self._kw()))
        observed = self._now()
        return self._http.read(
            response, lambda b: parse_citation_counts(b, observed=observed, subject=ident)
        )

    def search(self, query: Reference | str, *, limit: int = 10) -> list[Paper]:
        """Relevance search by title (or the raw string of a reference).

        Returns a :class:`~citeledger.sources.SearchResults`: the readable papers in S2's
        order (at most ``limit``), and in ``skipped`` the results that could not be read
        (the ledger reports them).

        Raises:
            SourceError: the request failed after retries, or the body is not a search answer.
        """
        text = query if isinstance(query, str) else (query.title or query.raw or "")
        if not text.strip():
            return SearchResults()
        response = self._http.send(build_search_request(text, limit=limit, **self._kw()))
        page = self._http.read(response, parse_search_page)
        return SearchResults(page.items[:limit], skipped=page.skipped)


def _same(link: S2Link) -> S2Link:
    return link


def _best(paper: Paper) -> Identifier | None:
    """The identifier a count of ``paper`` is filed under (DOI, else arXiv, else the first)."""
    for scheme in ("doi", "arxiv"):
        ident = paper.identifier(scheme)
        if ident is not None:
            return ident
    return paper.identifiers[0] if paper.identifiers else None
