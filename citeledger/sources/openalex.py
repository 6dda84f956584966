"""OpenAlex: works by W id, DOI, arXiv id or PubMed id; references; citing works; counts.

The pure half builds requests (:func:`build_work_request`, :func:`build_works_request`) and
parses the JSON (:func:`parse_work`, :func:`parse_work_list`, :func:`rebuild_abstract`);
:class:`OpenAlexSource` is the thin edge.

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

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self

import attrs
from attrs import frozen

from citeledger.errors import (
    CiteledgerError,
    InvalidIdentifier,
    NotFoundError,
    ParseError,
    SourceError,
)
from citeledger.identifiers import (
    DOI,
    PMCID,
    PMID,
    ArxivId,
    Identifier,
    OpenAlexId,
    parse_identifier,
)
from citeledger.model import (
    Author,
    Direction,
    Event,
    EventKind,
    Measurement,
    MeasurementKind,
    Method,
    NoticeCheck,
    Observation,
    Paper,
    Reference,
    Resolution,
    ResolutionState,
    WorkType,
)
from citeledger.page import CitedByYear, CountedCitation
from citeledger.sources import (
    Capability,
    Paged,
    SearchResults,
    UnreadableItem,
    describe_unreadable,
)
from citeledger.sources._common import (
    Clock,
    as_identifier,
    join_url,
    load_json,
    payload_shape,
    read_each,
    require_object,
    utc_now,
)
from citeledger.sources._http import EdgeTransport, HttpEdge
from citeledger.sources._paging import PageBounds, PageGuard
from citeledger.sources._transport import Request

if TYPE_CHECKING:
    import requests

    from citeledger.sources._transport import RetryPolicy, Transport

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

#: The service root; ``base_url`` replaces it.
DEFAULT_BASE_URL = "https://api.openalex.org"
#: OpenAlex allows 10 requests per second (https://docs.openalex.org/how-to-use-the-api/rate-limits-and-authentication);
#: 0.1 s between requests keeps one client within it.
MIN_INTERVAL = 0.1
#: OpenAlex accepts at most 50 values in one OR filter (``doi:a|b|...``; "up to 50", docs:
#: "Filter entity lists" / "OR between values").
BATCH_SIZE = 50
#: Largest page OpenAlex serves (``per-page`` 1-200).
MAX_PER_PAGE = 200
_SOURCE = "openalex"

_TYPES = {
    "article": WorkType.ARTICLE,
    "review": WorkType.ARTICLE,
    "letter": WorkType.ARTICLE,
    "editorial": WorkType.ARTICLE,
    "preprint": WorkType.PREPRINT,
    "book": WorkType.BOOK,
    "book-chapter": WorkType.CHAPTER,
    "dataset": WorkType.DATASET,
    "dissertation": WorkType.THESIS,
    "report": WorkType.REPORT,
    "standard": WorkType.REPORT,
    "erratum": WorkType.NOTICE,
    "retraction": WorkType.NOTICE,
}


# --------------------------------------------------------------------------- values


@frozen(kw_only=True)
class OpenAlexWork:
    """One OpenAlex work record, read into model values.

    Args:
        paper: The work (identifiers incl. W id, DOI, PMID, PMCID and, for arXiv preprints, the
            arXiv id; authors with institutions; topics and concepts as areas; the abstract).
        id: The W id.
        references: ``referenced_works`` as references with the W id as identifier, positions
            in OpenAlex's list order.
        cited_by_count: ``cited_by_count``.
        counts_by_year: ``counts_by_year`` as ``{year: cited_by_count}``.
        referenced_works_count: ``referenced_works_count``.
        is_retracted: ``is_retracted``.
        relevance_score: The search relevance score, in search results.
    """

    paper: Paper
    id: OpenAlexId
    references: tuple[Reference, ...] = ()
    cited_by_count: int | None = None
    counts_by_year: Mapping[int, int] = attrs.field(factory=dict, hash=False)
    referenced_works_count: int | None = None
    is_retracted: bool | None = None
    relevance_score: float | None = None


@frozen(kw_only=True)
class OpenAlexWorkList:
    """One page of an OpenAlex work list.

    Args:
        works: The works, in order.
        total: ``meta.count``.
        next_cursor: ``meta.next_cursor`` (None on the last page or when page-paging).
        page: ``meta.page`` when page-paging.
        per_page: ``meta.per_page``.
        skipped: The results that could not be read, each with its index and reason.
    """

    works: tuple[OpenAlexWork, ...] = ()
    total: int | None = None
    next_cursor: str | None = None
    page: int | None = None
    per_page: int | None = None
    skipped: tuple[UnreadableItem, ...] = ()

    @property
    def papers(self) -> list[Paper]:
        """The works' papers."""
        return [w.paper for w in self.works]


# --------------------------------------------------------------------------- requests


def work_path(identifier: Identifier | str) -> str:
    """The ``/works/...`` path that looks a work up by any identifier OpenAlex accepts.

    arXiv ids go through their DataCite DOI (``10.48550/arXiv.<id>``), which is how OpenAlex
    records arXiv preprints.

    >>> work_path("W2741809807"), work_path("10.7717/peerj.4375"), work_path("arXiv:2304.05376v2")
    ('/works/W2741809807', '/works/https://doi.org/10.7717/peerj.4375', '/works/https://doi.org/10.48550/arxiv.2304.05376')

    Raises:
        InvalidIdentifier: a scheme OpenAlex cannot look up (Semantic Scholar ids).
    """
    ident = as_identifier(identifier)
    if isinstance(ident, OpenAlexId):
        return f"/works/{ident.value}"
    if isinstance(ident, ArxivId):
        ident = ident.unversioned().as_doi()
    if isinstance(ident, DOI):
        return f"/works/https://doi.org/{ident.value}"
    if isinstance(ident, PMID):
        return f"/works/pmid:{ident.value}"
    if isinstance(ident, PMCID):
        return f"/works/pmcid:{ident.value}"
    raise InvalidIdentifier(
        str(ident), "OpenAlex cannot look works up by this scheme", scheme=ident.scheme
    )


def _params(mailto: str | None, api_key: str | None) -> list[tuple[str, object]]:
    params: list[tuple[str, object]] = []
    if mailto:
        params.append(("mailto", mailto))  # OpenAlex's "polite pool"
    if api_key:
        params.append(("api_key", api_key))
    return params


def build_work_request(
    identifier: Identifier | str,
    *,
    base_url: str | None = None,
    mailto: str | None = None,
    api_key: str | None = None,
    select: Sequence[str] | None = None,
) -> Request:
    """``GET /works/{id}`` for a W id, DOI, arXiv id, PMID or PMCID.

    ``api_key`` is sent as a secret parameter: redacted in every URL citeledger shows.

    >>> r = build_work_request("W2741809807", api_key="s3cret")
    >>> r.redacted_url()
    'https://api.openalex.org/works/W2741809807?api_key=REDACTED'
    """
    params = _params(mailto, api_key)
    if select:
        params.append(("select", ",".join(select)))
    return Request(
        url=join_url(base_url or DEFAULT_BASE_URL, work_path(identifier)),
        params=params,
        secret_params={"api_key"},
    )


def _filter_value(value: str) -> str:
    # Commas separate filters and "|" separates OR values: neither may appear inside a value.
    return " ".join(re.sub(r"[,|]+", " ", value).split())


def build_works_request(
    *,
    filters: Mapping[str, object] | Sequence[tuple[str, object]] | None = None,
    search: str | None = None,
    per_page: int = 25,
    cursor: str | None = None,
    page: int | None = None,
    sort: str | None = None,
    select: Sequence[str] | None = None,
    base_url: str | None = None,
    mailto: str | None = None,
    api_key: str | None = None,
) -> Request:
    """A ``/works`` list request.

    Args:
        filters: ``filter=name:value,...`` (``{"cites": "W2741809807"}``, ``{"title.search": t}``).
        search: Full-text ``search``.
        per_page: 1-200.
        cursor: ``*`` to start cursor paging, then each page's ``next_cursor``.
        page: Page number for page paging (limited to 10,000 results by OpenAlex).
        sort: Sort (``cited_by_count:desc``).
        select: Fields to return.
        base_url: Replaces ``https://api.openalex.org``.
        mailto: Contact address for the polite pool.
        api_key: Premium key (a secret parameter).

    >>> build_works_request(filters={"cites": "W1"}, per_page=200, cursor="*").full_url
    'https://api.openalex.org/works?filter=cites%3AW1&per-page=200&cursor=%2A'
    """
    params: list[tuple[str, object]] = []
    if filters:
        items = filters.items() if isinstance(filters, Mapping) else filters
        params.append(("filter", ",".join(f"{k}:{v}" for k, v in items)))
    if search:
        params.append(("search", search))
    params.append(("per-page", min(max(1, per_page), MAX_PER_PAGE)))
    if cursor is not None:
        params.append(("cursor", cursor))
    if page is not None:
        params.append(("page", page))
    if sort:
        params.append(("sort", sort))
    if select:
        params.append(("select", ",".join(select)))
    params += _params(mailto, api_key)
    return Request(
        url=join_url(base_url or DEFAULT_BASE_URL, "/works"),
        params=params,
        secret_params={"api_key"},
    )


def _batch_key(ident: Identifier) -> tuple[str, str]:
    """(filter name, value) to look ``ident`` up in an OR filter."""
    if isinstance(ident, OpenAlexId):
        return "openalex", ident.value
    if isinstance(ident, ArxivId):
        return "doi", ident.unversioned().as_doi().value
    if isinstance(ident, DOI):
        return "doi", ident.value
    if isinstance(ident, PMID):
        return "pmid", ident.value
    if isinstance(ident, PMCID):
        return "pmcid", ident.value
    raise InvalidIdentifier(
        str(ident), "OpenAlex cannot look works up by this scheme", scheme=ident.scheme
    )


def build_batch_request(
    identifiers: Sequence[Identifier],
    *,
    base_url: str | None = None,
    mailto: str | None = None,
    api_key: str | None = None,
) -> Request:
    """One OR-filter request for up to :data:`BATCH_SIZE` identifiers of one filter kind.

    >>> from citeledger import parse_identifier
    >>> build_batch_request([parse_identifier("W1"), parse_identifier("W2")]).full_url
    'https://api.openalex.org/works?filter=openalex%3AW1%7CW2&per-page=50'

    Raises:
        ValueError: more than :data:`BATCH_SIZE` identifiers, or of different filter kinds.
    """
    if len(identifiers) > BATCH_SIZE:
        raise ValueError(
            f"OpenAlex OR filters take at most {BATCH_SIZE} values, got {len(identifiers)}"
        )
    keys = [_batch_key(i) for i in identifiers]
    names = {k for k, _ in keys}
    if len(names) != 1:
        raise ValueError(f"one batch must use one filter kind, got {sorted(names)}")
    (name,) = names
    return build_works_request(
        filters={name: "|".join(v for _, v in keys)},
        per_page=BATCH_SIZE,
        base_url=base_url,
        mailto=mailto,
        api_key=api_key,
    )


# --------------------------------------------------------------------------- parsing


def rebuild_abstract(inverted_index: Mapping[str, Sequence[Any]] | None) -> str | None:
    """The abstract text from OpenAlex's ``abstract_inverted_index``.

    >>> rebuild_abstract(
    ...     {"Despite": [0], "growing": [1], "interest,": [2], "the": [3, 5], "end": [4]}
    ... )
    'Despite growing interest, the end the'
    """
    if not inverted_index or not isinstance(inverted_index, Mapping):
        return None
    slots: dict[int, str] = {}
    for word, positions in inverted_index.items():
        if not isinstance(positions, list | tuple):
            continue  # a junk entry loses one word, not the work
        for pos in positions:
            if isinstance(pos, int) and pos >= 0:
                slots[pos] = word
    if not slots:
        return None
    return " ".join(slots[i] for i in sorted(slots))


def _obj(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """``data[key]`` when it is an object, else an empty one (fields may be null)."""
    value = data.get(key)
    return value if isinstance(value, Mapping) else {}


def _opt_ident(text: object, scheme: str) -> Identifier | None:
    if not text:
        return None
    try:
        return parse_identifier(str(text), scheme)
    except InvalidIdentifier:
        return None


def _identifiers(data: Mapping[str, Any]) -> list[Identifier]:
    ids = _obj(data, "ids")
    found: list[Identifier] = []
    for text, scheme in (
        (data.get("id") or ids.get("openalex"), "openalex"),
        (data.get("doi") or ids.get("doi"), "doi"),
        (ids.get("pmid"), "pmid"),
        (ids.get("pmcid"), "pmcid"),
    ):
        ident = _opt_ident(text, scheme)
        if ident is not None:
            found.append(ident)
            if isinstance(ident, DOI):
                arxiv = ident.as_arxiv()  # an arXiv preprint's DataCite DOI
                if arxiv is not None:
                    found.append(arxiv)
    return found


def _author(authorship: Mapping[str, Any]) -> Author | None:
    author = _obj(authorship, "author")
    name = author.get("display_name") or authorship.get("raw_author_name")
    if not name:
        return None
    institutions = [
        i["display_name"]
        for i in authorship.get("institutions") or ()
        if isinstance(i, Mapping) and i.get("display_name")
    ]
    affiliations = institutions or [s for s in authorship.get("raw_affiliation_strings") or () if s]
    base = Author.from_string(str(name))
    return attrs.evolve(base, orcid=author.get("orcid"), affiliations=affiliations)


def _areas(data: Mapping[str, Any]) -> list[str]:
    """Primary topic, other topics, then broad concepts (levels 0-1), without repeats."""
    areas: list[str] = []

    def add(name: object) -> None:
        if isinstance(name, str) and name and name not in areas:
            areas.append(name)

    primary = data.get("primary_topic")
    if isinstance(primary, Mapping):
        add(primary.get("display_name"))
    for topic in data.get("topics") or ():
        if isinstance(topic, Mapping):
            add(topic.get("display_name"))
    for concept in data.get("concepts") or ():
        if (
            isinstance(concept, Mapping)
            and isinstance(concept.get("level"), int)
            and concept["level"] <= 1
        ):
            add(concept.get("display_name"))
    return areas


def _pages(biblio: Mapping[str, Any]) -> str | None:
    first, last = biblio.get("first_page"), biblio.get("last_page")
    if first and last and last != first:
        return f"{first}-{last}"
    return first or last or None


def work_from_json(data: Mapping[str, Any]) -> OpenAlexWork:
    """A work object (``/works/{id}`` body or one ``results[]`` entry).

    Raises:
        ParseError: the object has no valid OpenAlex W id, or is of unexpected shape.
    """
    with payload_shape("openalex", "work"):
        return _work_from_json(data)


def _work_from_json(data: Mapping[str, Any]) -> OpenAlexWork:
    wid = _opt_ident(data.get("id"), "openalex")
    if not isinstance(wid, OpenAlexId):
        raise ParseError(f"openalex: work without a valid W id: {data.get('id')!r}")
    biblio = _obj(data, "biblio")
    location = _obj(data, "primary_location")
    host = _obj(location, "source")
    kind = _TYPES.get(str(data.get("type") or ""), WorkType.OTHER) if data.get("type") else None
    if data.get("type_crossref") == "proceedings-article":
        kind = WorkType.PROCEEDINGS_ARTICLE
    date = data.get("publication_date")
    paper = Paper(
        identifiers=_identifiers(data),
        title=data.get("title") if data.get("title") is not None else data.get("display_name"),
        authors=[
            a
            for a in (_author(x) for x in data.get("authorships") or () if isinstance(x, Mapping))
            if a
        ],
        year=data.get("publication_year"),
        date=date if isinstance(date, str) and len(date) == 10 else None,
        venue=host.get("display_name"),
        volume=biblio.get("volume"),
        issue=biblio.get("issue"),
        pages=_pages(biblio),
        work_type=kind,
        areas=_areas(data),
        abstract=rebuild_abstract(data.get("abstract_inverted_index")),
        source=_SOURCE,
    )
    references: list[Reference] = []
    for ref in data.get("referenced_works") or ():
        ident = _opt_ident(ref, "openalex")
        if ident is None:
            continue
        references.append(
            Reference(
                position=len(references) + 1,
                identifiers=(ident,),
                asserted_by=_SOURCE,
                # OpenAlex's list order (often sorted by id), not the order printed in the paper.
                extra=(("order", "openalex_list"),),
            )
        )
    counts: dict[int, int] = {}
    for row in data.get("counts_by_year") or ():
        if isinstance(row, Mapping) and isinstance(row.get("year"), int):
            counts[row["year"]] = int(row.get("cited_by_count") or 0)
    cited = data.get("cited_by_count")
    ref_count = data.get("referenced_works_count")
    retracted = data.get("is_retracted")
    score = data.get("relevance_score")
    return OpenAlexWork(
        paper=paper,
        id=wid,
        references=tuple(references),
        cited_by_count=cited if isinstance(cited, int) else None,
        counts_by_year=dict(sorted(counts.items())),
        referenced_works_count=ref_count if isinstance(ref_count, int) else None,
        is_retracted=retracted if isinstance(retracted, bool) else None,
        relevance_score=float(score) if isinstance(score, int | float) else None,
    )


def _loads(body: bytes | Mapping[str, Any]) -> Any:
    if isinstance(body, Mapping):
        return body
    return load_json(body, source="openalex")


def parse_work(body: bytes | Mapping[str, Any]) -> OpenAlexWork:
    """Parse a ``/works/{id}`` response.

    Raises:
        ParseError: not JSON, or not a work.

    >>> w = parse_work(b'{"id": "https://openalex.org/W1", "title": "0", "cited_by_count": 2}')
    >>> str(w.id), w.paper.title, w.cited_by_count
    ('openalex:W1', '0', 2)
    """
    data = _loads(body)
    if not isinstance(data, Mapping):
        raise ParseError("openalex: expected a JSON object")
    return work_from_json(data)


def parse_work_list(body: bytes | Mapping[str, Any]) -> OpenAlexWorkList:
    """Parse a ``/works`` list response.

    A result that cannot be read (not an object, no W id, fields of unexpected shape) costs
    the page nothing else: the other works keep their order and the result is recorded in
    :attr:`OpenAlexWorkList.skipped` with its index and reason.

    >>> page = parse_work_list(
    ...     b'{"meta": {"count": 3}, "results": [{"id": "https://openalex.org/W1"}, 7,'
    ...     b' {"id": "https://openalex.org/W3"}]}'
    ... )
    >>> [str(w.id) for w in page.works], [(u.index, u.reason) for u in page.skipped]
    (['openalex:W1', 'openalex:W3'], [(1, 'openalex: result is of type int, not an object')])

    Raises:
        ParseError: not JSON, or no ``results`` list.
    """
    data = _loads(body)
    if not isinstance(data, Mapping) or not isinstance(data.get("results"), list):
        raise ParseError("openalex: expected a list response with 'results'")
    meta = _obj(data, "meta")
    works, skipped = read_each(
        data["results"],
        lambda item: work_from_json(require_object(item, "openalex: result")),
        source=_SOURCE,
        what="work",
    )
    count, cursor = meta.get("count"), meta.get("next_cursor")
    page, per_page = meta.get("page"), meta.get("per_page")
    return OpenAlexWorkList(
        works=tuple(works),
        total=count if isinstance(count, int) else None,
        next_cursor=cursor if isinstance(cursor, str) and cursor else None,
        page=page if isinstance(page, int) else None,
        per_page=per_page if isinstance(per_page, int) else None,
        skipped=tuple(skipped),
    )


# --------------------------------------------------------------------------- edge


def _asserted_citation(cited: Paper) -> Resolution:
    # OpenAlex's filter=cites lists works whose reference lists OpenAlex resolved to ``cited``.
    return Resolution(
        state=ResolutionState.VERIFIED_EXACT,
        method=Method.OPENALEX,
        target=cited,
        score=100.0,
        reason="OpenAlex asserts this citation (filter=cites)",
    )


class OpenAlexSource:
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

    name = _SOURCE
    #: ``referenced_works`` are W ids in OpenAlex's order, no text: an identifier hint for the
    #: ledger's inbound check, never the citing paper's list (``ReferenceOrderSource``).
    references_in_order = False
    #: Bounds of every paged listing (set on an instance to change them).
    page_bounds: PageBounds = PageBounds()
    capabilities = frozenset(
        {
            Capability.PAPER,
            Capability.REFERENCES,
            Capability.CITATIONS,
            Capability.EVENTS,
            Capability.CITATION_COUNTS,
            Capability.SEARCH,
            Capability.CITED_BY_YEAR,
        }
    )
    transport = EdgeTransport()

    def __init__(
        self,
        *,
        base_url: str | None = None,
        mailto: str | None = None,
        api_key: str | None = None,
        transport: Transport | None = None,
        session: requests.Session | None = None,
        policy: RetryPolicy | None = None,
        min_interval: float = MIN_INTERVAL,
        per_page: int = MAX_PER_PAGE,
        clock: Clock = utc_now,
    ) -> None:
        self.mailto = mailto
        self.per_page = per_page
        self._clock = clock
        self._http = HttpEdge.build(
            self.name,
            transport=transport,
            session=session,
            policy=policy,
            min_interval=min_interval,
            mailto=mailto,
            base_url=base_url or DEFAULT_BASE_URL,
            api_key=api_key,
        )

    @property
    def base_url(self) -> str:
        """The API root requests go to."""
        return self._http.base_url or DEFAULT_BASE_URL

    def __repr__(self) -> str:
        return self._http.describe("OpenAlexSource", base_url=self.base_url, mailto=self.mailto)

    def with_transport(self, transport: Transport) -> Self:
        """A copy of this source sending through ``transport`` (settings and secrets kept)."""
        return self._http.clone_onto(self, transport)

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
        request = request.with_params(cursor="*")
        guard = PageGuard(source=self.name, bounds=self.page_bounds, url=request.redacted_url())
        guard.start("*")
        seen = kept = 0
        while True:
            page = self._list(request)
            guard.page(page.works, cursor=page.next_cursor)
            yield page
            # Unreadable results count toward the total, not toward a limit of works wanted.
            sent = len(page.works) + len(page.skipped)
            seen += sent
            kept += len(page.works)
            if (
                not sent
                or page.next_cursor is None
                or (page.total is not None and seen >= page.total)
                or (limit is not None and kept >= limit)
            ):
                return
            guard.more()
            request = request.with_params(cursor=page.next_cursor)

    # -- Source methods

    def paper(self, identifier: Identifier | str) -> Paper | None:
        """The work, or None when OpenAlex does not know it (404)."""
        try:
            return self.work(identifier).paper
        except NotFoundError:
            return None

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
        size = self.per_page if limit is None else max(1, min(self.per_page, limit))
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
                source=_SOURCE,
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
        if work.cited_by_count is None:
            return []
        return [
            Measurement(
                value=work.cited_by_count,
                source=self.name,
                observed=self._clock(),
                kind=MeasurementKind.CITED_BY,
                subject=work.paper.identifier("doi") or work.id,
            )
        ]

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
                source=_SOURCE,
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
            filters["title.search"] = _filter_value(query.title)
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
        size = self.per_page if limit is None else max(1, min(self.per_page, limit))
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
                name, value = _batch_key(ident)
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
