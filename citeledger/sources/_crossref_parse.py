"""The pure half of the Crossref adapter: requests built and REST API JSON parsed, no I/O.

:class:`~citeledger.sources.crossref.CrossrefSource` sends these requests and reads its answers
with these parsers. :mod:`citeledger.sources.crossref` re-exports every public name and is where
the reference documents them.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

import attrs
from attrs import frozen

from citeledger.errors import InvalidIdentifier, ParseError
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
    Paper,
    Reference,
    Relation,
    RelationKind,
    WorkType,
)

# At run time, not under TYPE_CHECKING: the work list's annotations resolve (get_type_hints).
from citeledger.sources import UnreadableItem  # noqa: TC001
from citeledger.sources._common import (
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
DEFAULT_BASE_URL = "https://api.crossref.org"
#: The source's name, carried by every request and error.
SOURCE = "crossref"

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
class CrossrefWorkList(CursorWorkList[CrossrefWork]):
    """One page of a Crossref work list.

    Args:
        works: The page's works, in order.
        total: ``total-results``.
        next_cursor: The cursor of the next page (None when not cursor paging).
        items_per_page: ``items-per-page``.
        skipped: The page's items that could not be read, each with its index and reason.
    """

    items_per_page: int | None = None
    skipped: tuple[UnreadableItem, ...] = ()


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
    params = query_params(
        ("query", query),
        ("query.bibliographic", bibliographic),
        ("query.title", title),
        ("query.author", author),
    )
    params += filter_params(filters)
    params.append(("rows", rows))
    params += query_params(("cursor", cursor), ("offset", offset), keep_empty=True)
    params += query_params(("sort", sort), ("order", order))
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
    # "updated-by" lists the notices that update this work (it is their subject); "update-to",
    # on a notice, lists the works it updates (it is their notice).
    for key, own_is_subject in (("updated-by", True), ("update-to", False)):
        for entry in message.get(key) or ():
            if not isinstance(entry, Mapping):
                continue
            other = _doi_or_none(entry.get("DOI"))
            events.append(
                Event(
                    kind=event_kind(entry.get("type")),
                    subject=own if own_is_subject else other,
                    notice=other if own_is_subject else own,
                    date=_update_date(entry),
                    source=SOURCE,
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
                out.append(Relation(kind=kind, identifier=doi, source=SOURCE))
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
        source=SOURCE,
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
    ref_count = message.get("references-count", message.get("reference-count"))
    return CrossrefWork(
        paper=paper,
        references=references,
        updates=tuple(updates),
        cited_by_count=json_int(message.get("is-referenced-by-count")),
        reference_count=json_int(ref_count),
        crossref_type=crossref_type,
        score=json_number(message.get("score")),
    )


def envelope(data: Any, expected: str) -> Mapping[str, Any]:
    """The ``message`` of a Crossref envelope whose ``message-type`` is ``expected``.

    Raises:
        ParseError: not an object, a ``status: failed`` answer, another message type, or no
            message object.
    """
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
    data = json_document(body, source=SOURCE)
    return work_from_message(envelope(data, "work"), parse_unstructured=parse_unstructured)


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
    message = envelope(json_document(body, source=SOURCE), "work-list")
    items = message.get("items") or ()
    if not isinstance(items, list | tuple):
        raise ParseError(f"crossref: work-list 'items' is not an array: {type(items).__name__}")
    works, skipped = read_each(
        items,
        lambda item: work_from_message(
            require_object(item, "crossref: work-list item"), parse_unstructured=parse_unstructured
        ),
        source=SOURCE,
        what="work record",
    )
    return CrossrefWorkList(
        works=tuple(works),
        total=json_int(message.get("total-results")),
        next_cursor=json_text(message.get("next-cursor")),
        items_per_page=json_int(message.get("items-per-page")),
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
    data = json_document(body, source=SOURCE)
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
