"""Crossref: works by DOI, reference lists, update notices, counts and bibliographic search.

The pure half builds requests (:func:`build_work_request`, :func:`build_works_request`) and
parses the REST API's JSON (:func:`parse_work`, :func:`parse_work_list`, :func:`parse_failure`)
into model values; :class:`CrossrefSource` is the thin edge.

What the recorded responses teach (and this module handles):

* errors are JSON (``status: failed``, ``message-type: validation-failure | resource-failure``)
  except ``GET /works/{unknown-doi}``, whose 404 body is the plain text ``Resource not found.``;
  both become typed errors (:meth:`CrossrefSource.paper` returns None for the 404);
* ``reference[]`` entries carry ``DOI`` + ``doi-asserted-by``, ``unstructured``, both, or
  neither; keys are publisher-specific; each becomes a :class:`~citeledger.model.Reference` with
  its 1-based position, in the citing paper's order;
* a retraction or correction shows as ``update-to`` on the *notice* and (in newer records)
  ``updated-by`` on the original; ``relation`` may be ``{}``;
* cursor paging (``cursor=*`` then ``next-cursor``) ends on a short or empty page.

API documentation: https://api.crossref.org/swagger-ui/index.html and
https://www.crossref.org/documentation/retrieve-metadata/rest-api/tips-for-using-the-crossref-rest-api/

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import quote

import attrs
from attrs import frozen

from citeledger.errors import InvalidIdentifier, NotFoundError, ParseError
from citeledger.identifiers import (
    DOI,
    Identifier,
    MalformedFragment,
    find_identifiers,
    normalize_doi,
)
from citeledger.model import (
    Author,
    Event,
    EventKind,
    Measurement,
    MeasurementKind,
    NoticeCheck,
    Paper,
    Reference,
    Relation,
    RelationKind,
    WorkType,
)
from citeledger.sources import (
    Capability,
    Paged,
    SearchResults,
    UnreadableItem,
)
from citeledger.sources._common import (
    Clock,
    as_identifier,
    join_url,
    load_json,
    notice_check,
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
    "DEFAULT_BASE_URL",
    "CrossrefFailure",
    "CrossrefSource",
    "CrossrefWork",
    "CrossrefWorkList",
    "bibliographic_query",
    "build_work_request",
    "build_works_request",
    "event_kind",
    "parse_failure",
    "parse_work",
    "parse_work_list",
    "reference_from_crossref",
    "work_from_message",
    "work_type",
]

#: The service root; ``base_url`` replaces it.
DEFAULT_BASE_URL = "https://api.crossref.org"
#: Seconds between requests by default. Crossref's public pool allows a few requests per second
#: and asks clients to identify themselves (``mailto``) to reach the polite pool; 0.2 s keeps one
#: client at 5 requests/s, within both.
MIN_INTERVAL = 0.2
_SOURCE = "crossref"

_TYPES = {
    "journal-article": WorkType.ARTICLE,
    "posted-content": WorkType.PREPRINT,
    "proceedings-article": WorkType.PROCEEDINGS_ARTICLE,
    "book": WorkType.BOOK,
    "monograph": WorkType.BOOK,
    "edited-book": WorkType.BOOK,
    "reference-book": WorkType.BOOK,
    "book-set": WorkType.BOOK,
    "book-chapter": WorkType.CHAPTER,
    "book-section": WorkType.CHAPTER,
    "book-part": WorkType.CHAPTER,
    "reference-entry": WorkType.CHAPTER,
    "dataset": WorkType.DATASET,
    "database": WorkType.DATASET,
    "dissertation": WorkType.THESIS,
    "report": WorkType.REPORT,
    "report-component": WorkType.REPORT,
    "report-series": WorkType.REPORT,
    "standard": WorkType.REPORT,
}

# Crossref update types (https://www.crossref.org/documentation/crossmark/participating-in-crossmark/).
# A partial retraction is not a retraction of the work, so it stays OTHER (its label is kept).
_EVENTS = {
    "retraction": EventKind.RETRACTION,
    "correction": EventKind.CORRECTION,
    "corrigendum": EventKind.CORRECTION,
    "erratum": EventKind.ERRATUM,
    "expression_of_concern": EventKind.EXPRESSION_OF_CONCERN,
    "expression-of-concern": EventKind.EXPRESSION_OF_CONCERN,
    "withdrawal": EventKind.WITHDRAWAL,
    "removal": EventKind.WITHDRAWAL,
    "reinstatement": EventKind.REINSTATEMENT,
    "addendum": EventKind.ADDENDUM,
}

_RELATIONS = {
    "is-preprint-of": RelationKind.PREPRINT_OF,
    "has-preprint": RelationKind.HAS_PREPRINT,
    "is-version-of": RelationKind.VERSION_OF,
    "has-version": RelationKind.HAS_VERSION,
    "is-identical-to": RelationKind.SAME_AS,
}


def work_type(crossref_type: str | None) -> WorkType | None:
    """The :class:`~citeledger.model.WorkType` of a Crossref ``type``.

    >>> work_type("posted-content"), work_type("journal-article"), work_type("peer-review")
    (<WorkType.PREPRINT: 'preprint'>, <WorkType.ARTICLE: 'article'>, <WorkType.OTHER: 'other'>)
    """
    if not crossref_type:
        return None
    return _TYPES.get(crossref_type, WorkType.OTHER)


def event_kind(update_type: str | None) -> EventKind:
    """The :class:`~citeledger.model.EventKind` of a Crossref update type.

    >>> event_kind("retraction"), event_kind("partial_retraction")
    (<EventKind.RETRACTION: 'retraction'>, <EventKind.OTHER: 'other'>)
    """
    return _EVENTS.get((update_type or "").strip().lower().replace(" ", "_"), EventKind.OTHER)


# --------------------------------------------------------------------------- values


@frozen(kw_only=True)
class CrossrefWork:
    """One Crossref work record, read into model values.

    Args:
        paper: The work.
        references: Its deposited reference list, in order, positions set.
        updates: Events from ``updated-by`` (about this work) and ``update-to`` (this work is
            the notice; the events are about the works it updates); each event names its subject.
        cited_by_count: ``is-referenced-by-count`` (Crossref's count of citing works).
        reference_count: ``references-count``.
        crossref_type: Crossref's own ``type``.
        score: The search relevance score, in search results.
    """

    paper: Paper
    references: tuple[Reference, ...] = ()
    updates: tuple[Event, ...] = ()
    cited_by_count: int | None = None
    reference_count: int | None = None
    crossref_type: str | None = None
    score: float | None = None

    @property
    def doi(self) -> DOI | None:
        """The work's DOI."""
        ident = self.paper.identifier("doi")
        return ident if isinstance(ident, DOI) else None

    def events_about(self, doi: DOI) -> tuple[Event, ...]:
        """The update events whose subject is ``doi``."""
        return tuple(e for e in self.updates if e.subject == doi)


@frozen(kw_only=True)
class CrossrefWorkList:
    """One page of a Crossref work list.

    Args:
        works: The page's works, in order.
        total: ``total-results``.
        next_cursor: The cursor of the next page (None when not cursor paging).
        items_per_page: ``items-per-page``.
        skipped: The page's items that could not be read, each with its index and reason.
    """

    works: tuple[CrossrefWork, ...] = ()
    total: int | None = None
    next_cursor: str | None = None
    items_per_page: int | None = None
    skipped: tuple[UnreadableItem, ...] = ()

    @property
    def papers(self) -> list[Paper]:
        """The works' papers."""
        return [w.paper for w in self.works]


@frozen(kw_only=True)
class CrossrefFailure:
    """A Crossref JSON error body (``status: failed``).

    Args:
        message_type: ``validation-failure``, ``resource-failure``, ...
        problems: ``(type, value, message)`` for each problem listed.
    """

    message_type: str
    problems: tuple[tuple[str, str, str], ...] = ()


# --------------------------------------------------------------------------- requests


def _common_params(mailto: str | None) -> list[tuple[str, object]]:
    # ``mailto`` routes the request to Crossref's "polite pool" (more reliable service).
    return [("mailto", mailto)] if mailto else []


def build_work_request(
    doi: DOI | str, *, base_url: str | None = None, mailto: str | None = None
) -> Request:
    """``GET /works/{doi}``.

    >>> build_work_request("10.1038/srep16696", mailto="me@example.org").full_url
    'https://api.crossref.org/works/10.1038/srep16696?mailto=me%40example.org'
    """
    value = doi.value if isinstance(doi, DOI) else normalize_doi(doi).value
    path = "/works/" + quote(value, safe="/")
    return Request(url=join_url(base_url or DEFAULT_BASE_URL, path), params=_common_params(mailto))


def build_works_request(
    *,
    path: str = "/works",
    query: str | None = None,
    bibliographic: str | None = None,
    title: str | None = None,
    author: str | None = None,
    filters: Mapping[str, object] | Iterable[tuple[str, object]] | None = None,
    rows: int = 20,
    cursor: str | None = None,
    offset: int | None = None,
    sort: str | None = None,
    order: str | None = None,
    select: Sequence[str] | None = None,
    base_url: str | None = None,
    mailto: str | None = None,
) -> Request:
    """A work-list request (``/works``, ``/journals/{issn}/works``, ...).

    Args:
        path: The route.
        query: Free ``query``.
        bibliographic: ``query.bibliographic`` (a whole citation string; best for references).
        title: ``query.title``.
        author: ``query.author``.
        filters: ``filter=name:value,...`` (``{"updates": doi}``, ``{"type": "journal-article"}``).
        rows: Items per page (Crossref allows up to 1000).
        cursor: ``*`` to start deep paging, then each page's ``next-cursor``.
        offset: Offset paging (limited to 10,000 by Crossref; prefer cursors).
        sort: Sort field.
        order: "asc" or "desc".
        select: Fields to return.
        base_url: Replaces ``https://api.crossref.org``.
        mailto: Contact address for the polite pool.

    >>> build_works_request(filters={"updates": "10.1/x"}, rows=5, cursor="*").full_url
    'https://api.crossref.org/works?filter=updates%3A10.1%2Fx&rows=5&cursor=%2A'
    """
    params: list[tuple[str, object]] = []
    for name, value in (
        ("query", query),
        ("query.bibliographic", bibliographic),
        ("query.title", title),
        ("query.author", author),
    ):
        if value:
            params.append((name, value))
    if filters:
        items = filters.items() if isinstance(filters, Mapping) else filters
        params.append(("filter", ",".join(f"{k}:{v}" for k, v in items)))
    params.append(("rows", rows))
    if cursor is not None:
        params.append(("cursor", cursor))
    if offset is not None:
        params.append(("offset", offset))
    if sort:
        params.append(("sort", sort))
    if order:
        params.append(("order", order))
    if select:
        params.append(("select", ",".join(select)))
    params += _common_params(mailto)
    return Request(url=join_url(base_url or DEFAULT_BASE_URL, path), params=params)


# --------------------------------------------------------------------------- parsing

_TAG_RE = re.compile(r"<[^>]{0,200}>")


def _first(value: object) -> str | None:
    if isinstance(value, list):
        value = value[0] if value else None
    if value is None:
        return None
    text = " ".join(str(value).split())
    return text or None


def _date_parts(value: object) -> tuple[int | None, dt.date | None]:
    """Year and (full) date from ``{"date-parts": [[2024, 5, 8]]}``."""
    if not isinstance(value, Mapping):
        return None, None
    parts = value.get("date-parts")
    if not parts or not isinstance(parts, list) or not parts[0]:
        return None, None
    first = [p for p in parts[0] if isinstance(p, int)]
    if not first:
        return None, None
    year = first[0]
    if len(first) >= 3:
        try:
            return year, dt.date(first[0], first[1], first[2])
        except ValueError:
            return year, None
    return year, None


def _strip_jats(text: str | None) -> str | None:
    """Plain text of a JATS-tagged abstract ("<jats:p>...</jats:p>")."""
    if not text:
        return None
    plain = html.unescape(_TAG_RE.sub(" ", text))
    plain = " ".join(plain.split())
    # Drop a leading "Abstract" heading that came from <jats:title>.
    return re.sub(r"^abstract\s+", "", plain, flags=re.IGNORECASE) or None


def _author(data: Mapping[str, Any]) -> Author:
    affiliations = [
        a["name"] for a in data.get("affiliation") or () if isinstance(a, Mapping) and a.get("name")
    ]
    family, given = data.get("family"), data.get("given")
    if family or given:
        raw = " ".join(p for p in (given, family) if p)
        return Author(
            family=family, given=given, raw=raw, orcid=data.get("ORCID"), affiliations=affiliations
        )
    # Organisations ("name") and odd records ("literal")
    return Author(raw=data.get("name") or data.get("literal"), affiliations=affiliations)


def _doi_or_none(text: object) -> DOI | None:
    if not text:
        return None
    try:
        return normalize_doi(str(text))
    except InvalidIdentifier:
        return None


def _update_events(message: Mapping[str, Any], own: DOI | None) -> list[Event]:
    events: list[Event] = []
    for entry in message.get("updated-by") or ():
        if not isinstance(entry, Mapping):
            continue
        events.append(
            Event(
                kind=event_kind(entry.get("type")),
                subject=own,
                notice=_doi_or_none(entry.get("DOI")),
                date=_update_date(entry),
                source=_SOURCE,
                label=entry.get("label") or entry.get("type"),
            )
        )
    for entry in message.get("update-to") or ():
        if not isinstance(entry, Mapping):
            continue
        events.append(
            Event(
                kind=event_kind(entry.get("type")),
                subject=_doi_or_none(entry.get("DOI")),
                notice=own,
                date=_update_date(entry),
                source=_SOURCE,
                label=entry.get("label") or entry.get("type"),
            )
        )
    return events


def _update_date(entry: Mapping[str, Any]) -> dt.date | None:
    updated = entry.get("updated")
    if isinstance(updated, Mapping):
        stamp = updated.get("date-time")
        if isinstance(stamp, str) and len(stamp) >= 10:
            try:
                return dt.date.fromisoformat(stamp[:10])
            except ValueError:
                pass
        return _date_parts(updated)[1]
    return None


def _relations(message: Mapping[str, Any]) -> list[Relation]:
    relation = message.get("relation")
    out: list[Relation] = []
    if not isinstance(relation, Mapping):
        return out
    for name, kind in _RELATIONS.items():
        for target in relation.get(name) or ():
            if not isinstance(target, Mapping) or target.get("id-type") != "doi":
                continue
            doi = _doi_or_none(target.get("id"))
            if doi is not None:
                out.append(Relation(kind=kind, identifier=doi, source=_SOURCE))
    return out


def reference_from_crossref(
    data: Mapping[str, Any], *, position: int, parse_unstructured: bool = True
) -> Reference:
    """One ``reference[]`` entry as a :class:`~citeledger.model.Reference`.

    ``DOI`` + ``doi-asserted-by`` become an identifier and ``asserted_by``; ``unstructured``
    becomes ``raw``; ``article-title``/``volume-title``, ``journal-title``/``series-title``,
    ``author``, ``year``, ``volume``, ``issue``, ``first-page`` fill the structured fields;
    ``key`` is kept. A malformed deposited DOI is kept as a malformed fragment, never dropped.
    An entry with only ``unstructured`` text is parsed with
    :meth:`~citeledger.model.Reference.from_string` when ``parse_unstructured``.

    >>> ref = reference_from_crossref(
    ...     {"key": "ref1", "DOI": "10.1038/42166", "doi-asserted-by": "publisher", "year": "1997"},
    ...     position=1,
    ... )
    >>> ref.position, ref.key, [str(i) for i in ref.identifiers], ref.asserted_by, ref.year
    (1, 'ref1', ['doi:10.1038/42166'], 'publisher', 1997)
    """
    raw = data.get("unstructured")
    raw = str(raw) if raw else None
    structured = {
        "title": data.get("article-title") or data.get("volume-title"),
        "authors": data.get("author") or None,
        "year": data.get("year") or None,
        "venue": data.get("journal-title") or data.get("series-title"),
        "volume": data.get("volume"),
        "issue": data.get("issue"),
        "first_page": data.get("first-page"),
    }
    has_structure = any(v for v in structured.values())
    identifiers: list[Identifier] = []
    malformed: list[MalformedFragment] = []
    extra: list[tuple[str, str]] = []
    deposited = data.get("DOI")
    if deposited:
        try:
            identifiers.append(normalize_doi(str(deposited)))
        except InvalidIdentifier as exc:
            found = find_identifiers(f"doi:{deposited}")
            malformed.extend(found.malformed)
            extra.append(("DOI", str(deposited)))
            extra.append(("DOI_error", exc.reason))
    extra.extend(
        (name, str(data[name]))
        for name in ("ISBN", "issn", "edition", "component")
        if data.get(name)
    )
    base = Reference(
        position=position,
        raw=raw,
        key=data.get("key"),
        identifiers=identifiers,
        malformed=malformed,
        asserted_by=data.get("doi-asserted-by") if deposited else None,
        extra=extra,
        **structured,
    )
    if raw is None:
        return base
    if not has_structure and parse_unstructured:
        parsed = Reference.from_string(raw, position=position)
        return attrs.evolve(
            parsed,
            key=base.key,
            identifiers=(*base.identifiers, *parsed.identifiers),
            malformed=(*base.malformed, *parsed.malformed),
            asserted_by=base.asserted_by,
            extra=(*base.extra, *parsed.extra),
        )
    # Keep identifiers printed in the text too (an arXiv id in a "Preprint at ..." string).
    found = find_identifiers(raw)
    return attrs.evolve(
        base,
        identifiers=(*base.identifiers, *found.identifiers),
        malformed=(*base.malformed, *found.malformed),
    )


def _reference_or_unreadable(
    data: Mapping[str, Any], *, position: int, parse_unstructured: bool
) -> Reference:
    """One ``reference[]`` entry; an entry of unexpected shape is kept, not lost with the work.

    A deposit with, say, a number for ``author`` must not cost the citing work its other
    references: the entry is kept at its position with its ``key`` and ``unstructured`` text
    (when they are strings) and the reason in ``unreadable``.
    """
    try:
        with payload_shape("crossref", "reference entry"):
            return reference_from_crossref(
                data, position=position, parse_unstructured=parse_unstructured
            )
    except ParseError as exc:
        key, raw = data.get("key"), data.get("unstructured")
        return Reference(
            position=position,
            key=key if isinstance(key, str) else None,
            raw=raw if isinstance(raw, str) else None,
            unreadable=str(exc),
        )


def work_from_message(
    message: Mapping[str, Any], *, parse_unstructured: bool = True
) -> CrossrefWork:
    """A work record (the ``message`` of ``/works/{doi}`` or one ``items[]`` entry).

    Raises:
        ParseError: the record has no usable DOI, or is of unexpected shape.
    """
    with payload_shape("crossref", "work record"):
        return _work_from_message(message, parse_unstructured=parse_unstructured)


def _work_from_message(message: Mapping[str, Any], *, parse_unstructured: bool) -> CrossrefWork:
    doi = _doi_or_none(message.get("DOI"))
    if doi is None:
        raise ParseError(f"crossref: work record without a valid DOI: {message.get('DOI')!r}")
    year, date = _date_parts(message.get("issued"))
    if date is None:
        for key in ("published-print", "published-online", "published", "posted"):
            y, d = _date_parts(message.get(key))
            if d is not None and (year is None or y == year):
                date = d
                break
    crossref_type = message.get("type")
    updates = _update_events(message, doi)
    kind = work_type(crossref_type)
    if message.get("update-to"):
        kind = WorkType.NOTICE  # a retraction / correction notice published as an article
    venue = _first(message.get("container-title"))
    if venue is None and crossref_type == "posted-content":
        institution = message.get("institution") or []
        if institution and isinstance(institution[0], Mapping):
            venue = institution[0].get("name")  # "bioRxiv"
    paper = Paper(
        identifiers=(doi,),
        title=_first(message.get("title")),
        authors=[_author(a) for a in message.get("author") or () if isinstance(a, Mapping)],
        year=year,
        date=date,
        venue=venue,
        volume=message.get("volume"),
        issue=message.get("issue"),
        pages=message.get("page") or message.get("article-number"),
        work_type=kind,
        areas=[s for s in message.get("subject") or () if isinstance(s, str)],
        abstract=_strip_jats(message.get("abstract")),
        related=_relations(message),
        source=_SOURCE,
    )
    listed = message.get("reference")
    references = tuple(
        _reference_or_unreadable(r, position=i, parse_unstructured=parse_unstructured)
        if isinstance(r, Mapping)
        # Not an object: kept at its position (a bare string is likely the citation itself).
        else Reference(
            position=i,
            raw=r if isinstance(r, str) and r.strip() else None,
            unreadable=f"crossref: reference entry is of type {type(r).__name__}",
        )
        for i, r in enumerate(listed if isinstance(listed, list) else (), start=1)
    )
    if listed is not None and not isinstance(listed, list):
        # A string is not a list of its characters: the field is one unreadable entry, the
        # work's other fields stand.
        why = f"crossref: reference is of type {type(listed).__name__}, not a list"
        references = (Reference(unreadable=why),)
    count = message.get("is-referenced-by-count")
    ref_count = message.get("references-count", message.get("reference-count"))
    score = message.get("score")
    return CrossrefWork(
        paper=paper,
        references=references,
        updates=tuple(updates),
        cited_by_count=count if isinstance(count, int) else None,
        reference_count=ref_count if isinstance(ref_count, int) else None,
        crossref_type=crossref_type,
        score=float(score) if isinstance(score, int | float) else None,
    )


def _envelope(data: Any, expected: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise ParseError(f"crossref: expected a JSON object, got {type(data).__name__}")
    if data.get("status") == "failed":
        failure = parse_failure(data)
        raise ParseError(f"crossref: failure {failure.message_type}: {failure.problems}")
    if data.get("message-type") != expected:
        raise ParseError(
            f"crossref: expected message-type {expected!r}, got {data.get('message-type')!r}"
        )
    message = data.get("message")
    if not isinstance(message, Mapping):
        raise ParseError("crossref: the envelope has no message object")
    return message


def parse_work(body: bytes | Mapping[str, Any], *, parse_unstructured: bool = True) -> CrossrefWork:
    """Parse a ``/works/{doi}`` response (``message-type: work``).

    Raises:
        ParseError: not JSON, a failure body, or not a work.

    >>> w = parse_work(
    ...     b'{"status":"ok","message-type":"work","message":{"DOI":"10.1234/A","title":["T"],'
    ...     b'"type":"journal-article","is-referenced-by-count":3}}'
    ... )
    >>> str(w.doi), w.paper.title, w.paper.work_type.value, w.cited_by_count
    ('doi:10.1234/a', 'T', 'article', 3)
    """
    data = _loads(body)
    return work_from_message(_envelope(data, "work"), parse_unstructured=parse_unstructured)


def parse_work_list(
    body: bytes | Mapping[str, Any], *, parse_unstructured: bool = True
) -> CrossrefWorkList:
    """Parse a work-list response (``message-type: work-list``).

    An item that cannot be read (not an object, no valid DOI, fields of unexpected shape)
    costs the page nothing else: the other works keep their order and the item is recorded in
    :attr:`CrossrefWorkList.skipped` with its index and reason.

    >>> page = parse_work_list(
    ...     b'{"status":"ok","message-type":"work-list","message":{"items":['
    ...     b'{"DOI":"10.1234/a"},{"DOI":5},{"DOI":"10.1234/b"}]}}'
    ... )
    >>> [str(w.doi) for w in page.works], [(u.index, u.excerpt) for u in page.skipped]
    (['doi:10.1234/a', 'doi:10.1234/b'], [(1, '{"DOI": 5}')])

    Raises:
        ParseError: not JSON, a failure body, or not a work list.
    """
    message = _envelope(_loads(body), "work-list")
    items = message.get("items") or ()
    if not isinstance(items, list | tuple):
        raise ParseError(f"crossref: work-list 'items' is not an array: {type(items).__name__}")
    works, skipped = read_each(
        items,
        lambda item: work_from_message(
            require_object(item, "crossref: work-list item"), parse_unstructured=parse_unstructured
        ),
        source=_SOURCE,
        what="work record",
    )
    total = message.get("total-results")
    per_page = message.get("items-per-page")
    cursor = message.get("next-cursor")
    return CrossrefWorkList(
        works=tuple(works),
        total=total if isinstance(total, int) else None,
        next_cursor=cursor if isinstance(cursor, str) and cursor else None,
        items_per_page=per_page if isinstance(per_page, int) else None,
        skipped=tuple(skipped),
    )


def parse_failure(body: bytes | Mapping[str, Any]) -> CrossrefFailure:
    """Parse a Crossref JSON error body.

    >>> parse_failure(
    ...     b'{"status":"failed","message-type":"resource-failure","message":'
    ...     b'[{"type":"cursor-invalid","value":"thing",'
    ...     b'"message":"Cursor specified but it is invalid"}]}'
    ... ).problems
    (('cursor-invalid', 'thing', 'Cursor specified but it is invalid'),)

    Raises:
        ParseError: not a Crossref failure body.
    """
    data = _loads(body)
    if not isinstance(data, Mapping) or data.get("status") != "failed":
        raise ParseError("crossref: not a failure body")
    problems = []
    message = data.get("message")
    for problem in message if isinstance(message, list) else [message]:
        if isinstance(problem, Mapping):
            problems.append(
                (
                    str(problem.get("type", "")),
                    str(problem.get("value", "")),
                    str(problem.get("message", "")),
                )
            )
        elif problem is not None:
            problems.append(("", "", str(problem)))
    return CrossrefFailure(message_type=str(data.get("message-type", "")), problems=tuple(problems))


def _loads(body: bytes | Mapping[str, Any]) -> Any:
    if isinstance(body, Mapping):
        return body
    return load_json(body, source="crossref")


def bibliographic_query(reference: Reference) -> str:
    """The ``query.bibliographic`` text for a reference: its raw string, else its fields.

    >>> from citeledger.model import Reference
    >>> bibliographic_query(
    ...     Reference(title="Alpha-synuclein in Lewy bodies", authors="Spillantini MG", year=1997)
    ... )
    'Spillantini Alpha-synuclein in Lewy bodies 1997'
    """
    if reference.raw:
        return " ".join(reference.raw.split())
    parts = [a.family or a.name for a in reference.authors[:3]]
    parts += [reference.title or "", reference.venue or "", str(reference.year or "")]
    return " ".join(p for p in parts if p)


# --------------------------------------------------------------------------- edge


def _doi(identifier: Identifier | str) -> DOI:
    ident = as_identifier(identifier)
    if isinstance(ident, DOI):
        return ident
    # arXiv ids are not looked up as their 10.48550 DOIs: those are DataCite's, not Crossref's.
    raise InvalidIdentifier(str(ident), "Crossref looks works up by DOI only", scheme="doi")


class CrossrefSource:
    """The Crossref REST API as a :class:`~citeledger.sources.Source`.

    Args:
        base_url: Replaces ``https://api.crossref.org``.
        mailto: Contact address: sent as ``mailto`` (the polite pool) and in the User-Agent.
        api_key: A Crossref Metadata Plus token (sent as a secret header, never shown).
        transport: Send through this transport (then ``session``, ``policy`` and
            ``min_interval`` are not used).
        session: A :class:`requests.Session` (or ``requests_cache.CachedSession``) to wrap.
        policy: Retry policy of the default transport.
        min_interval: Seconds between requests (default 0.2).
        rows: Items per page when paging.
        check_update_filter: :meth:`events` also asks ``filter=updates:{doi}`` for notices
            that update the work (older records carry ``update-to`` on the notice only).
        parse_unstructured: Parse reference strings that come without structured fields.
        clock: Current aware UTC time, for dated measurements and notice checks.

    >>> CrossrefSource(mailto="me@example.org").name
    'crossref'
    """

    name = _SOURCE
    #: Bounds of every paged listing (set on an instance to change them).
    page_bounds: PageBounds = PageBounds()
    capabilities = frozenset(
        {
            Capability.PAPER,
            Capability.REFERENCES,
            Capability.EVENTS,
            Capability.CITATION_COUNTS,
            Capability.SEARCH,
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
        rows: int = 100,
        check_update_filter: bool = True,
        parse_unstructured: bool = True,
        clock: Clock = utc_now,
    ) -> None:
        self.mailto = mailto
        self.rows = rows
        self.check_update_filter = check_update_filter
        self.parse_unstructured = parse_unstructured
        self._clock = clock
        # Metadata Plus tokens go in a header, redacted wherever a request is shown.
        token = (("Crossref-Plus-API-Token", f"Bearer {api_key}"),) if api_key else ()
        self._http = HttpEdge.build(
            self.name,
            transport=transport,
            session=session,
            policy=policy,
            min_interval=min_interval,
            mailto=mailto,
            base_url=base_url or DEFAULT_BASE_URL,
            api_key=api_key,
            secret_headers=token,
        )

    @property
    def base_url(self) -> str:
        """The API root requests go to."""
        return self._http.base_url or DEFAULT_BASE_URL

    def __repr__(self) -> str:
        return self._http.describe("CrossrefSource", base_url=self.base_url, mailto=self.mailto)

    def with_transport(self, transport: Transport) -> Self:
        """A copy of this source sending through ``transport`` (settings and secrets kept)."""
        return self._http.clone_onto(self, transport)

    # -- plumbing

    def _work_list(self, request: Request, *, parse_unstructured: bool) -> CrossrefWorkList:
        # One page of a work list; a body that is JSON but not a work list is an invalid answer.
        return self._http.json_as(
            request,
            lambda data: parse_work_list(data, parse_unstructured=parse_unstructured),
            "a Crossref work list",
        )

    def work(self, identifier: Identifier | str) -> CrossrefWork:
        """The full work record for a DOI.

        Raises:
            NotFoundError: Crossref does not know the DOI.
            SourceError: the request failed after retries, or the body is unusable.
        """
        doi = _doi(identifier)
        return self._http.json_as(
            build_work_request(doi, base_url=self.base_url, mailto=self.mailto),
            lambda data: work_from_message(
                _envelope(data, "work"), parse_unstructured=self.parse_unstructured
            ),
            "a Crossref work",
        )

    # -- Source methods

    def paper(self, identifier: Identifier | str) -> Paper | None:
        """The work for a DOI, or None when Crossref does not know it (404)."""
        try:
            return self.work(identifier).paper
        except NotFoundError:
            return None

    def references(self, identifier: Identifier | str) -> list[Reference]:
        """The deposited reference list, in order, positions set (empty if none deposited).

        Raises:
            NotFoundError: Crossref does not know the DOI.
        """
        return list(self.work(identifier).references)

    def events(self, identifier: Identifier | str) -> NoticeCheck:
        """Retractions, corrections and other updates Crossref records about the work.

        Reads ``updated-by`` on the work and, with ``check_update_filter``, the notices found
        by ``filter=updates:{doi}`` (their ``update-to``). No event gives "none found in
        crossref as of now". A notice that could not be read makes the check unavailable,
        keeping the events read, unless a retraction was read (then events found, with a
        ``reason`` naming the unreadable notices).

        Raises:
            NotFoundError: Crossref does not know the DOI.
            SourceError: a request failed after retries.
        """
        doi = _doi(identifier)
        work = self.work(doi)
        events = list(work.events_about(doi))
        skipped: list[UnreadableItem] = []
        if self.check_update_filter:
            request = build_works_request(
                filters={"updates": doi.value},
                rows=self.rows,
                base_url=self.base_url,
                mailto=self.mailto,
            )
            for page in self._pages(request, parse_unstructured=False):
                skipped.extend(page.skipped)
                for notice in page.works:
                    events.extend(notice.events_about(doi))
        unique: list[Event] = []
        for event in events:
            if all((e.kind, e.notice) != (event.kind, event.notice) for e in unique):
                unique.append(event)
        # An unreadable notice may be the retraction: unless one was read, the check is
        # unavailable (never "none found", nor events found reading as "not retracted").
        return notice_check(
            unique,
            skipped,
            what="notices that update the work",
            sources=(self.name,),
            checked=self._clock(),
            subject=doi,
        )

    def citation_counts(self, identifier: Identifier | str) -> list[Measurement]:
        """``is-referenced-by-count`` as a dated measurement (empty if Crossref gives none)."""
        work = self.work(identifier)
        if work.cited_by_count is None:
            return []
        return [
            Measurement(
                value=work.cited_by_count,
                source=self.name,
                observed=self._clock(),
                kind=MeasurementKind.CITED_BY,
                subject=work.doi,
            )
        ]

    def search(self, query: Reference | str, *, limit: int = 10) -> list[Paper]:
        """Candidate works by ``query.bibliographic`` (a reference's raw text, else its fields).

        Raises:
            SourceError: the request failed after retries.
        """
        text = query if isinstance(query, str) else bibliographic_query(query)
        if not text.strip():
            return []
        request = build_works_request(
            bibliographic=text, rows=max(1, limit), base_url=self.base_url, mailto=self.mailto
        )
        page = self._work_list(request, parse_unstructured=False)
        # Unreadable candidates travel with the answer, for the ledger to report.
        return SearchResults(page.papers[:limit], skipped=page.skipped)

    # -- paging

    def _pages(
        self, first: Request, *, parse_unstructured: bool = True
    ) -> Iterator[CrossrefWorkList]:
        """Cursor-page through a work-list request; stops on a short, empty or last page."""
        request = first.with_params(cursor="*")
        guard = PageGuard(source=self.name, bounds=self.page_bounds, url=first.redacted_url())
        guard.start("*")
        seen = 0
        while True:
            page = self._work_list(request, parse_unstructured=parse_unstructured)
            guard.page(page.works, cursor=page.next_cursor)
            yield page
            # Unreadable items still fill the page: only the items sent say it was the last.
            sent = len(page.works) + len(page.skipped)
            seen += sent
            rows = dict(request.params).get("rows")
            if (
                not sent
                or page.next_cursor is None
                or (page.total is not None and seen >= page.total)
                or (rows is not None and sent < int(rows))
            ):
                return
            guard.more()
            request = request.with_params(cursor=page.next_cursor)

    def works(
        self,
        *,
        path: str = "/works",
        query: str | None = None,
        bibliographic: str | None = None,
        filters: Mapping[str, object] | None = None,
        rows: int | None = None,
        limit: int | None = None,
    ) -> Paged[Paper]:
        """Page lazily through a work list with cursors (``/works``, ``/journals/{issn}/works``).

        A failure midway stops paging: what was fetched stays, :attr:`Paged.error` holds the
        failure and :attr:`Paged.total` the announced ``total-results``; unreadable items are
        in :attr:`Paged.skipped`.
        """
        size = rows or self.rows
        if limit is not None:
            size = max(1, min(size, limit))
        request = build_works_request(
            path=path,
            query=query,
            bibliographic=bibliographic,
            filters=filters,
            rows=size,
            base_url=self.base_url,
            mailto=self.mailto,
        )

        def pages() -> Iterator[tuple[list[Paper], int | None, tuple[UnreadableItem, ...]]]:
            for page in self._pages(request, parse_unstructured=self.parse_unstructured):
                yield page.papers, page.total, page.skipped

        return Paged(pages(), limit=limit)
