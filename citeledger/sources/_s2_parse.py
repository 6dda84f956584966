"""The pure half of the Semantic Scholar adapter: Graph API requests built and JSON parsed, no I/O.

Public names are re-exported from :mod:`citeledger.sources.semanticscholar`; import them there.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar
from urllib.parse import quote

import attrs
from attrs import field, frozen

from citeledger.errors import InvalidIdentifier, ParseError
from citeledger.formats._asserted import asserted_resolution
from citeledger.identifiers import (
    PMCID,
    PMID,
    ArxivId,
    CorpusId,
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
    WorkType,
)
from citeledger.sources import UnreadableItem
from citeledger.sources._common import (
    as_identifier,
    load_named_json,
    payload_shape,
    read_each,
    refuse_unreadable,
    with_first,
)
from citeledger.sources._transport import Request

if TYPE_CHECKING:
    import datetime as dt

    from citeledger.identifiers import Identifier


#: The source's name, carried by every request and error.
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
    ident = as_identifier(identifier)
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


def api_root(base_url: str | None) -> str:
    """The Graph API root: ``base_url`` (or the default) without a trailing slash."""
    return (base_url or DEFAULT_BASE_URL).rstrip("/")


def _headers(api_key: str | None) -> dict[str, str]:
    return {"x-api-key": api_key} if api_key else {}


def _paper_path(base_url: str | None, identifier: Identifier | str) -> str:
    # ':' and '/' are part of S2 ids ("DOI:10.1/x"); everything else a DOI may hold is escaped.
    return f"{api_root(base_url)}/paper/{quote(s2_paper_id(identifier), safe=':/')}"


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
        url=f"{api_root(base_url)}/paper/batch",
        params={"fields": fields},
        headers=_headers(api_key),
        secret_headers={"x-api-key"},
        json_body=json.dumps({"ids": list(ids)}),
    )


def _listing_request(
    kind: str,
    identifier: Identifier | str,
    *,
    offset: int = 0,
    limit: int = 100,
    base_url: str | None = None,
    api_key: str | None = None,
    fields: str = LINK_FIELDS,
) -> Request:
    """``GET /paper/{id}/{kind}``: the body of the listing builders below."""
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


# A builder per listing (``build_{kind}_request``): ``_listing_request`` with the kind bound.
build_references_request, build_citations_request = (
    with_first(
        _listing_request,
        kind,
        name=f"build_{kind}_request",
        doc=f"""``GET /paper/{{id}}/{kind}?fields=...&offset=...&limit=...``.

    Raises:
        ValueError: ``limit`` above 1,000 or ``offset + limit`` above 9,999 (S2's caps).
    """,
    )
    for kind in ("references", "citations")
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
        url=f"{api_root(base_url)}/paper/search",
        params={"query": query, "limit": max(1, min(limit, 100)), "fields": fields},
        headers=_headers(api_key),
        secret_headers={"x-api-key"},
    )


# --------------------------------------------------------------------------- parsing


def load_body(body: bytes, what: str) -> Any:
    """The JSON document of a body; ``what`` names it in the error.

    Raises:
        ParseError: not JSON, or nested too deeply.
    """
    return load_named_json(body, source=NAME, what=what)


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
    data = load_body(body, "paper")
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
    data = load_body(body, "batch")
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
    data = load_body(body, what)
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

    >>> import datetime as dt
    >>> now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    >>> [m.value for m in parse_citation_counts(b'{"citationCount": 5}', observed=now)]
    [5]
    """
    data = load_body(body, "paper")
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
    data = load_body(body, "search")
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
    cites = Reference.from_paper(link.paper, position=link.index + 1)
    return attrs.evolve(cites, asserted_by=NAME, extra=extra)


def link_observation(
    link: S2Link, *, subject: Paper, direction: Direction, observed: dt.datetime
) -> Observation:
    """An :class:`Observation` for one listing element; S2 asserts the link, so it is verified.

    ``subject`` is the paper whose listing it is: the cited paper of a citations listing
    (``direction`` inbound), the citing paper of a references listing (outbound).
    """
    inbound = direction is Direction.INBOUND
    citing, cited = (link.paper, subject) if inbound else (subject, link.paper)
    resolution = asserted_resolution(cited, Method.S2, "Semantic Scholar asserts the citation link")
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
