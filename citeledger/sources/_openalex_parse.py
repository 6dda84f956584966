"""OpenAlex without I/O: the request builders and the parsers of its JSON.

Split from :mod:`citeledger.sources.openalex` (which re-exports and documents it) so that the
edge, :class:`~citeledger.sources.openalex.OpenAlexSource`, stays a short module.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
from attrs import frozen

from citeledger.errors import InvalidIdentifier, ParseError
from citeledger.identifiers import (
    DOI,
    PMCID,
    PMID,
    ArxivId,
    Identifier,
    OpenAlexId,
    parse_identifier,
)
from citeledger.model import Author, Paper, Reference, WorkType

# At run time, not under TYPE_CHECKING: the work list's annotations resolve (get_type_hints).
from citeledger.sources import UnreadableItem  # noqa: TC001
from citeledger.sources._common import (
    as_identifier,
    join_url,
    json_document,
    json_int,
    json_number,
    json_text,
    payload_shape,
    read_each,
    require_object,
)
from citeledger.sources._paging import CursorWorkList
from citeledger.sources._transport import Request
from citeledger.sources._wire import filter_params, query_params

#: The service root; ``base_url`` replaces it.
DEFAULT_BASE_URL = "https://api.openalex.org"
#: OpenAlex accepts at most 50 values in one OR filter (``doi:a|b|...``; "up to 50", docs:
#: "Filter entity lists" / "OR between values").
BATCH_SIZE = 50
#: Largest page OpenAlex serves (``per-page`` 1-200).
MAX_PER_PAGE = 200
#: The source's name, carried by every request and error.
SOURCE = "openalex"

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
class OpenAlexWorkList(CursorWorkList[OpenAlexWork]):
    """One page of an OpenAlex work list.

    Args:
        works: The works, in order.
        total: ``meta.count``.
        next_cursor: ``meta.next_cursor`` (None on the last page or when page-paging).
        page: ``meta.page`` when page-paging.
        per_page: ``meta.per_page``.
        skipped: The results that could not be read, each with its index and reason.
    """

    page: int | None = None
    per_page: int | None = None
    skipped: tuple[UnreadableItem, ...] = ()


# --------------------------------------------------------------------------- requests


#: The ``/works/`` path prefix of each identifier type OpenAlex looks works up by.
_WORK_PATH_PREFIXES: tuple[tuple[type[Identifier], str], ...] = (
    (OpenAlexId, "/works/"),
    (DOI, "/works/https://doi.org/"),
    (PMID, "/works/pmid:"),
    (PMCID, "/works/pmcid:"),
)


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
    if isinstance(ident, ArxivId):
        ident = ident.unversioned().as_doi()
    for kind, prefix in _WORK_PATH_PREFIXES:
        if isinstance(ident, kind):
            return prefix + ident.value
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


def filter_value(value: str) -> str:
    """``value`` made safe inside a filter (no ``,`` or ``|``, spaces folded)."""
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
    params = filter_params(filters)
    params += query_params(("search", search))
    params.append(("per-page", min(max(1, per_page), MAX_PER_PAGE)))
    params += query_params(("cursor", cursor), ("page", page), keep_empty=True)
    params += query_params(("sort", sort))
    if select:
        params.append(("select", ",".join(select)))
    params += _params(mailto, api_key)
    return Request(
        url=join_url(base_url or DEFAULT_BASE_URL, "/works"),
        params=params,
        secret_params={"api_key"},
    )


def batch_key(ident: Identifier) -> tuple[str, str]:
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
    keys = [batch_key(i) for i in identifiers]
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
        source=SOURCE,
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
                asserted_by=SOURCE,
                # OpenAlex's list order (often sorted by id), not the order printed in the paper.
                extra=(("order", "openalex_list"),),
            )
        )
    counts: dict[int, int] = {}
    for row in data.get("counts_by_year") or ():
        if isinstance(row, Mapping) and isinstance(row.get("year"), int):
            counts[row["year"]] = int(row.get("cited_by_count") or 0)
    retracted = data.get("is_retracted")
    return OpenAlexWork(
        paper=paper,
        id=wid,
        references=tuple(references),
        cited_by_count=json_int(data.get("cited_by_count")),
        counts_by_year=dict(sorted(counts.items())),
        referenced_works_count=json_int(data.get("referenced_works_count")),
        is_retracted=retracted if isinstance(retracted, bool) else None,
        relevance_score=json_number(data.get("relevance_score")),
    )


def parse_work(body: bytes | Mapping[str, Any]) -> OpenAlexWork:
    """Parse a ``/works/{id}`` response.

    Raises:
        ParseError: not JSON, or not a work.

    >>> w = parse_work(b'{"id": "https://openalex.org/W1", "title": "0", "cited_by_count": 2}')
    >>> str(w.id), w.paper.title, w.cited_by_count
    ('openalex:W1', '0', 2)
    """
    data = json_document(body, source=SOURCE)
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
    data = json_document(body, source=SOURCE)
    if not isinstance(data, Mapping) or not isinstance(data.get("results"), list):
        raise ParseError("openalex: expected a list response with 'results'")
    meta = _obj(data, "meta")
    works, skipped = read_each(
        data["results"],
        lambda item: work_from_json(require_object(item, "openalex: result")),
        source=SOURCE,
        what="work",
    )
    return OpenAlexWorkList(
        works=tuple(works),
        total=json_int(meta.get("count")),
        next_cursor=json_text(meta.get("next_cursor")),
        page=json_int(meta.get("page")),
        per_page=json_int(meta.get("per_page")),
        skipped=tuple(skipped),
    )
