"""Retraction data: the Retraction Watch CSV (a local file) and openretractions.com records.

The Retraction Watch database is distributed as one CSV file (Crossref Labs export, ~50-60 MB)
whose header is::

    Record ID,Title,Subject,Institution,Journal,Publisher,Country,Author,URLS,ArticleType,
    RetractionDate,RetractionDOI,RetractionPubMedID,OriginalPaperDate,OriginalPaperDOI,
    OriginalPaperPubMedID,RetractionNature,Reason,Paywalled,Notes

Multi-valued cells end each value with ``;`` (reasons also start with ``+``), dates are US style
``M/D/YYYY 0:00``, and a PubMed id of ``0`` means none. Each row becomes a
:class:`RetractionWatchRecord` and one :class:`~citeledger.model.Event` whose ``kind`` comes
from ``RetractionNature`` and whose ``label`` keeps it verbatim.

:class:`RetractionWatchSource` indexes the file once (by DOI and PubMed id) and answers
``events(identifier)`` with a :class:`~citeledger.model.NoticeCheck`.

openretractions.com records (:func:`parse_open_retractions`) carry a ``retracted`` flag and a
list of typed updates that can disagree (a record flagged retracted whose only update is typed
``erratum``); each update and the flag become separate events so the disagreement stays visible.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Final

from attrs import frozen

from citeledger.errors import InvalidIdentifier, ParseError
from citeledger.identifiers import DOI, PMID, ArxivId, Identifier, normalize_doi, parse_identifier
from citeledger.model import Event, EventKind, NoticeCheck
from citeledger.sources import Capability, UnreadableItem
from citeledger.sources._common import as_identifier, notice_check, read_each, refuse_unreadable

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping


__all__ = [
    "RETRACTION_WATCH_COLUMNS",
    "OpenRetractionsRecord",
    "RetractionWatchIndex",
    "RetractionWatchRecord",
    "RetractionWatchSource",
    "event_kind",
    "iter_retraction_watch",
    "open_retractions_check",
    "parse_open_retractions",
    "parse_open_retractions_record",
    "parse_retraction_watch",
]

NAME: Final = "retractionwatch"
OPEN_RETRACTIONS: Final = "openretractions"

#: The columns of the Retraction Watch CSV, in file order.
RETRACTION_WATCH_COLUMNS: Final = (
    "Record ID",
    "Title",
    "Subject",
    "Institution",
    "Journal",
    "Publisher",
    "Country",
    "Author",
    "URLS",
    "ArticleType",
    "RetractionDate",
    "RetractionDOI",
    "RetractionPubMedID",
    "OriginalPaperDate",
    "OriginalPaperDOI",
    "OriginalPaperPubMedID",
    "RetractionNature",
    "Reason",
    "Paywalled",
    "Notes",
)
# Without these a row cannot be placed; the rest are kept when present.
_REQUIRED: Final = ("Record ID", "OriginalPaperDOI", "OriginalPaperPubMedID", "RetractionNature")

# Labels as the sources write them (case and spacing vary) -> the model's kinds.
_KINDS: Final = {
    "retraction": EventKind.RETRACTION,
    "retracted": EventKind.RETRACTION,
    "correction": EventKind.CORRECTION,
    "corrigendum": EventKind.CORRECTION,
    "expression of concern": EventKind.EXPRESSION_OF_CONCERN,
    "expression_of_concern": EventKind.EXPRESSION_OF_CONCERN,
    "reinstatement": EventKind.REINSTATEMENT,
    "erratum": EventKind.ERRATUM,
    "withdrawal": EventKind.WITHDRAWAL,
    "withdrawn": EventKind.WITHDRAWAL,
    "addendum": EventKind.ADDENDUM,
}
_US_DATE_RE: Final = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?$")


def event_kind(label: str | None) -> EventKind:
    """The event kind of a source's label; unknown labels are ``other`` (the label is kept).

    >>> event_kind("Expression of concern").value
    'expression_of_concern'
    >>> event_kind("Retraction and Replacement").value
    'other'
    """
    key = " ".join((label or "").replace("-", " ").split()).lower()
    return _KINDS.get(key, _KINDS.get(key.replace(" ", "_"), EventKind.OTHER))


def _date(text: str | None) -> dt.date | None:
    """``8/16/2023 0:00`` (US month first), ``8/16/2023`` or ISO ``2023-08-16``."""
    text = (text or "").strip()
    if not text:
        return None
    m = _US_DATE_RE.match(text)
    try:
        if m:
            return dt.date(int(m.group(3)), int(m.group(1)), int(m.group(2)))
        return dt.date.fromisoformat(text[:10])
    except ValueError:
        return None


def _doi(text: str | None) -> DOI | None:
    text = (text or "").strip()
    # Retraction Watch writes "unavailable" / "Unavailable" where there is no DOI.
    if not text or text.lower() in ("unavailable", "na", "n/a", "none", "0"):
        return None
    try:
        return normalize_doi(text)
    except InvalidIdentifier:
        return None


def _pmid(text: str | None) -> PMID | None:
    text = (text or "").strip()
    if not text or text == "0":  # 0 means "no PubMed id"
        return None
    try:
        ident = parse_identifier(text, "pmid")
    except InvalidIdentifier:
        return None
    return ident if isinstance(ident, PMID) else None


def _multi(text: str | None) -> tuple[str, ...]:
    """Split a ``;``-terminated multi-value cell; reasons lose their ``+`` prefix."""
    return tuple(
        p.strip().lstrip("+").strip()
        for p in (text or "").split(";")
        if p.strip().lstrip("+").strip()
    )


@frozen(kw_only=True)
class RetractionWatchRecord:
    """One row of the Retraction Watch CSV.

    Args:
        record_id: ``Record ID``.
        title: Title of the original paper.
        journal: Journal.
        publisher: Publisher.
        original_doi: ``OriginalPaperDOI`` (None when "unavailable").
        original_pmid: ``OriginalPaperPubMedID`` (None when 0).
        original_date: ``OriginalPaperDate``.
        notice_doi: ``RetractionDOI`` of the notice.
        notice_pmid: ``RetractionPubMedID`` of the notice.
        date: ``RetractionDate``.
        nature: ``RetractionNature``, verbatim ("Retraction", "Expression of concern", ...).
        reasons: ``Reason`` values without the ``+`` prefixes.
        article_types: ``ArticleType`` values.
        urls: ``URLS`` values.
        notes: ``Notes``.
    """

    record_id: str
    title: str | None = None
    journal: str | None = None
    publisher: str | None = None
    original_doi: DOI | None = None
    original_pmid: PMID | None = None
    original_date: dt.date | None = None
    notice_doi: DOI | None = None
    notice_pmid: PMID | None = None
    date: dt.date | None = None
    nature: str = ""
    reasons: tuple[str, ...] = ()
    article_types: tuple[str, ...] = ()
    urls: tuple[str, ...] = ()
    notes: str | None = None

    @property
    def subject(self) -> Identifier | None:
        """The original paper's DOI, else its PubMed id."""
        return self.original_doi or self.original_pmid

    def event(self) -> Event:
        """This row as an event about the original paper."""
        return Event(
            kind=event_kind(self.nature),
            subject=self.subject,
            notice=self.notice_doi or self.notice_pmid,
            date=self.date,
            source=NAME,
            label=self.nature or None,
            reason="; ".join(self.reasons) or None,
        )

    @classmethod
    def from_row(cls, row: Mapping[str, str | None]) -> RetractionWatchRecord:
        """A record from one CSV row (a ``csv.DictReader`` mapping)."""

        def cell(name: str) -> str | None:
            value = (row.get(name) or "").strip()
            return value or None

        return cls(
            record_id=cell("Record ID") or "",
            title=cell("Title"),
            journal=cell("Journal"),
            publisher=cell("Publisher"),
            original_doi=_doi(cell("OriginalPaperDOI")),
            original_pmid=_pmid(cell("OriginalPaperPubMedID")),
            original_date=_date(cell("OriginalPaperDate")),
            notice_doi=_doi(cell("RetractionDOI")),
            notice_pmid=_pmid(cell("RetractionPubMedID")),
            date=_date(cell("RetractionDate")),
            nature=cell("RetractionNature") or "",
            reasons=_multi(cell("Reason")),
            article_types=_multi(cell("ArticleType")),
            urls=_multi(cell("URLS")),
            notes=cell("Notes"),
        )


def iter_retraction_watch(
    lines: Iterable[str], *, on_unreadable: Callable[[UnreadableItem], object] | None = None
) -> Iterator[RetractionWatchRecord]:
    r"""Stream records from the lines of a Retraction Watch CSV (header first).

    A row the ``csv`` module cannot read (a stray carriage return, an over-long field) raises by
    default;
    with ``on_unreadable`` it is recorded as an :class:`~citeledger.sources.UnreadableItem`
    (what ``"CSV row"``, the line in the reason) and reading goes on with the next row.

    >>> bad = []
    >>> rows = iter_retraction_watch(
    ...     [
    ...         "Record ID,OriginalPaperDOI,OriginalPaperPubMedID,RetractionNature\n",
    ...         "1,10.1/a,0,Retraction\n",
    ...         "2,10.1/b\rx,0,Retraction\n",
    ...         "3,10.1/c,0,Retraction\n",
    ...     ],
    ...     on_unreadable=bad.append,
    ... )
    >>> [r.record_id for r in rows], bad[0].reason[:50]
    (['1', '3'], 'retractionwatch: malformed CSV at line 3: new-line')

    Args:
        lines: The file's lines (an open text file, or ``io.StringIO(text, newline="")``).
        on_unreadable: Called with each row that cannot be read; None raises instead.

    Raises:
        ParseError: the header lacks a required column or cannot be read, or (without
            ``on_unreadable``) a row is malformed.

    .. versionchanged:: 0.1.0
       ``on_unreadable``.
    """
    if on_unreadable is None:
        return _rows(lines, None)
    report = on_unreadable
    return _rows(lines, lambda item, _raw: report(item))


def _rows(
    lines: Iterable[str], on_bad: Callable[[UnreadableItem, str], object] | None
) -> Iterator[RetractionWatchRecord]:
    """:func:`iter_retraction_watch`; ``on_bad`` also gets the bad row's whole text."""
    # The reader gets the lines through this iterator, so a row it rejects can be shown:
    # ``last`` holds the lines of the row being read (a quoted cell may span several).
    last: list[str] = []

    def remember(source: Iterable[str]) -> Iterator[str]:
        for line in source:
            last.append(line)
            yield line

    reader = csv.DictReader(remember(lines))
    try:
        header = reader.fieldnames
    except csv.Error as exc:
        raise ParseError(f"retractionwatch: unreadable CSV header: {exc}") from exc
    if header is None:
        return
    header = [h.lstrip("\ufeff").strip() for h in header]
    reader.fieldnames = header
    missing = [c for c in _REQUIRED if c not in header]
    if missing:
        raise ParseError(f"retractionwatch: not a Retraction Watch CSV (missing columns {missing})")

    def skip(error: ParseError, cause: Exception | None = None) -> None:
        # Raise without ``on_bad``; else record the row. The reader has consumed the bad
        # line(s) and the next row starts on a fresh line, so one bad row costs nothing else.
        if on_bad is None:
            raise error from cause
        raw = "".join(last)
        on_bad(UnreadableItem.of(NAME, "CSV row", None, error, raw), raw)

    while True:
        last.clear()
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            # DictReader.line_num is only updated after a good row; its reader's counts this one.
            line = reader.reader.line_num
            skip(ParseError(f"retractionwatch: malformed CSV at line {line}: {exc}"), exc)
            continue
        if not any((v or "").strip() for v in row.values() if isinstance(v, str)):
            continue
        extra = row.get(None)  # DictReader's restkey
        short = sum(1 for v in row.values() if v is None)
        if extra or short:
            # A row split by a stray line break, or cells shifted by an unquoted comma: its
            # values would land in the wrong columns, so it is not read as a record.
            cells = len(header) - short + (len(extra) if isinstance(extra, list) else 0)
            skip(
                ParseError(
                    f"retractionwatch: row at line {reader.line_num} has {cells} cells, "
                    f"the header {len(header)}"
                )
            )
            continue
        yield RetractionWatchRecord.from_row(row)


def _decode(body: bytes) -> str:
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Older Retraction Watch exports were written in Windows-1252.
        return body.decode("cp1252", errors="replace")


def parse_retraction_watch(body: bytes) -> list[RetractionWatchRecord]:
    r"""Parse a whole Retraction Watch CSV.

    >>> rows = parse_retraction_watch(
    ...     b"Record ID,OriginalPaperDOI,OriginalPaperPubMedID,RetractionNature,RetractionDate\n"
    ...     b"1,10.1155/X,0,Retraction,8/16/2023 0:00\n"
    ... )
    >>> str(rows[0].original_doi), rows[0].original_pmid, rows[0].date.isoformat()
    ('doi:10.1155/x', None, '2023-08-16')

    Raises:
        ParseError: not a Retraction Watch CSV.
    """
    return list(iter_retraction_watch(io.StringIO(_decode(body), newline="")))


def _lookup_keys(identifier: Identifier) -> list[str]:
    if isinstance(identifier, ArxivId):
        # Retraction Watch lists DOIs; an arXiv paper's DOI is its DataCite DOI.
        return [str(identifier.unversioned().as_doi())]
    return [str(identifier)]


class RetractionWatchIndex:
    """Records of a Retraction Watch CSV indexed by original-paper DOI and PubMed id.

    Args:
        records: The records (any iterable; read once).
        unreadable: Rows of the file that could not be read, each with its whole text; a
            lookup whose id appears in such a row is told so by :meth:`unreadable_rows`.

    .. versionchanged:: 0.1.0
       ``unreadable``.
    """

    def __init__(
        self,
        records: Iterable[RetractionWatchRecord],
        *,
        unreadable: Iterable[tuple[UnreadableItem, str]] = (),
    ) -> None:
        self._by_key: dict[str, list[RetractionWatchRecord]] = {}
        self._unreadable = [(item, raw.casefold()) for item, raw in unreadable]
        self.size = 0
        for record in records:
            self.size += 1
            for ident in (record.original_doi, record.original_pmid):
                if ident is not None:
                    bucket = self._by_key.setdefault(str(ident), [])
                    if record not in bucket:
                        bucket.append(record)

    def records(self, identifier: Identifier | str) -> list[RetractionWatchRecord]:
        """Every record whose original paper is ``identifier`` (a DOI, PMID or arXiv id)."""
        ident = as_identifier(identifier)
        found: list[RetractionWatchRecord] = []
        for key in _lookup_keys(ident):
            found += [r for r in self._by_key.get(key, []) if r not in found]
        return found

    @property
    def skipped(self) -> tuple[UnreadableItem, ...]:
        """The rows of the file that could not be read."""
        return tuple(item for item, _ in self._unreadable)

    def unreadable_rows(self, identifier: Identifier | str) -> list[UnreadableItem]:
        """Unreadable rows whose text holds the identifier's value (they may be about it).

        The bare DOI or PubMed id is looked for in the row's whole text, case-insensitively,
        so an unreadable row is only held against the ids it could be about.
        """
        ident = as_identifier(identifier)
        needles = [_value(key) for key in _lookup_keys(ident)]
        return [
            item
            for item, raw in self._unreadable
            if any(needle and needle in raw for needle in needles)
        ]

    def __len__(self) -> int:
        return self.size


def _value(key: str) -> str:
    """``doi:10.1155/x`` -> ``10.1155/x`` (casefolded); a PubMed id keeps its digits only."""
    return key.partition(":")[2].casefold()


def _file_date(path: Path) -> dt.datetime:
    return dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.UTC)


class RetractionWatchSource:
    """A local Retraction Watch CSV as a :class:`~citeledger.sources.Source` (events only).

    Args:
        path: The CSV file (the Crossref Labs export).
        as_of: The data date to report as ``checked``; the file's modification time when None.
        encoding: The file's text encoding; UTF-8 (falling back to Windows-1252) when None.

    The file is read and indexed once, on the first question.
    """

    name = NAME
    capabilities = frozenset({Capability.EVENTS})

    def __init__(
        self,
        *,
        path: str | Path,
        as_of: dt.datetime | None = None,
        encoding: str | None = None,
    ) -> None:
        self.path = Path(path)
        if as_of is not None and (as_of.tzinfo is None or as_of.utcoffset() is None):
            raise ValueError("as_of must be an aware datetime")
        self._as_of = as_of
        self._encoding = encoding
        self._index: RetractionWatchIndex | None = None

    def __repr__(self) -> str:
        return f"RetractionWatchSource(path={str(self.path)!r})"

    @property
    def checked(self) -> dt.datetime:
        """The data date reported with every answer."""
        return self._as_of if self._as_of is not None else _file_date(self.path)

    @property
    def index(self) -> RetractionWatchIndex:
        """The index, built on first use."""
        if self._index is None:
            body = self.path.read_bytes()
            text = body.decode(self._encoding) if self._encoding else _decode(body)
            bad: list[tuple[UnreadableItem, str]] = []
            rows = _rows(io.StringIO(text, newline=""), lambda item, raw: bad.append((item, raw)))
            # A malformed row costs the index that row only; lookups it may concern are
            # answered "unavailable" (see events()).
            self._index = RetractionWatchIndex(list(rows), unreadable=bad)
        return self._index

    def events(self, identifier: Identifier | str) -> NoticeCheck:
        """Events Retraction Watch lists for the work, or "none found as of" the data date.

        DOIs and PubMed ids are looked up (an arXiv id by its DataCite DOI); for other schemes
        the answer is "unavailable", never a clean "none found". A malformed row of the file
        is skipped when the index is built (:attr:`RetractionWatchIndex.skipped`); a work whose
        id appears in such a row gets "unavailable" (or events found with a ``reason``, when a
        retraction was read), never "none found".
        """
        ident = as_identifier(identifier)
        if not isinstance(ident, DOI | PMID | ArxivId):
            return NoticeCheck.unavailable(
                f"Retraction Watch indexes DOIs and PubMed ids, not {ident.scheme.value} ids",
                sources=(NAME,),
                subject=ident,
            )
        index = self.index
        # A row of the file that could not be read and mentions this id may be its notice:
        # then the answer is never "none found" (nor reads as "not retracted").
        return notice_check(
            [r.event() for r in index.records(ident)],
            index.unreadable_rows(ident),
            what="rows of the Retraction Watch file that mention the work",
            sources=(NAME,),
            checked=self.checked,
            subject=ident,
        )


# --------------------------------------------------------------------------- openretractions


def _ms_date(value: object, what: str) -> dt.date | None:
    """A millisecond timestamp's date; None when absent, ParseError when unusable."""
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return dt.datetime.fromtimestamp(value / 1000, tz=dt.UTC).date()
        except (OverflowError, ValueError, OSError):  # out of range, NaN, infinity
            pass
    raise ParseError(f"openretractions: {what} timestamp {value!r} is not a valid time")


def _or_doi(data: object) -> DOI | None:
    if isinstance(data, dict):
        return _doi(str(data.get("doi") or ""))
    return None


@frozen(kw_only=True)
class OpenRetractionsRecord:
    """One openretractions.com record, read update by update.

    Args:
        subject: The record's DOI.
        events: One event per readable update, then the ``retracted`` flag's event.
        skipped: The updates that could not be read (``index`` within ``updates``), each with
            its reason.

    .. versionadded:: 0.1.0
    """

    subject: DOI | None = None
    events: tuple[Event, ...] = ()
    skipped: tuple[UnreadableItem, ...] = ()

    def check(self, *, checked: dt.datetime) -> NoticeCheck:
        """As a notice check: an unreadable update never gives "none found"."""
        return notice_check(
            self.events,
            self.skipped,
            what="updates of the openretractions.com record",
            sources=(OPEN_RETRACTIONS,),
            checked=checked,
            subject=self.subject,
        )


def _update_event(update: object, subject: DOI | None) -> Event:
    if not isinstance(update, dict):
        raise ParseError(
            f"openretractions: update is of type {type(update).__name__}, not an object"
        )
    kind = update.get("type")
    if kind is not None and not isinstance(kind, str):
        # Its label is what says whether it is the retraction: guessing it would be a claim.
        raise ParseError(f"openretractions: update type is of type {type(kind).__name__}")
    label = (kind or "").strip() or None
    return Event(
        kind=event_kind(label),
        subject=subject,
        notice=_or_doi(update.get("identifier")),
        date=_ms_date(update.get("timestamp"), "update"),
        source=OPEN_RETRACTIONS,
        label=label,
    )


def parse_open_retractions_record(body: bytes) -> OpenRetractionsRecord:
    """One openretractions.com record (``/api/doi/{doi}/data.json``), keeping readable updates.

    Each update becomes its own event, typed by its own label; an update that cannot be read
    (not an object, a type that is not text, an unusable timestamp) costs the record nothing
    else and is recorded in :attr:`OpenRetractionsRecord.skipped`. The ``retracted`` flag
    becomes one more event, as in :func:`parse_open_retractions`.

    >>> rec = parse_open_retractions_record(
    ...     b'{"identifier": {"doi": "10.1/a"},'
    ...     b' "updates": [{"type": "erratum"}, 7, {"type": "correction"}]}'
    ... )
    >>> [e.label for e in rec.events], [(u.index, u.reason) for u in rec.skipped]
    (['erratum', 'correction'], [(1, 'openretractions: update is of type int, not an object')])

    Raises:
        ParseError: not a JSON object with an ``identifier``, or ``updates`` not an array.

    .. versionadded:: 0.1.0
    """
    try:
        data = json.loads(body)
    except RecursionError:
        raise ParseError("openretractions: not JSON (nested too deeply)") from None
    except (ValueError, TypeError) as exc:  # also bytes that are not UTF-8, over-long ints
        raise ParseError(f"openretractions: not JSON ({exc})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("identifier"), dict):
        raise ParseError("openretractions: expected an object with an 'identifier'")
    subject = _or_doi(data["identifier"])
    updates = data.get("updates") or []
    if not isinstance(updates, list):
        raise ParseError("openretractions: 'updates' is not an array")
    events, skipped = read_each(
        updates,
        lambda update: _update_event(update, subject),
        source=OPEN_RETRACTIONS,
        what="update",
    )
    labels = [e.label for e in events if e.label]
    if data.get("retracted") is True:
        typed = any(event_kind(label) is EventKind.RETRACTION for label in labels)
        reason = None
        if not typed:
            shown = ", ".join(labels) or "none"
            reason = (
                f"the record is flagged retracted but its updates are typed {shown}: "
                "the source's labels disagree"
            )
            if skipped:
                reason += f" ({len(skipped):,} update(s) could not be read)"
        try:
            date = _ms_date(data.get("timestamp"), "record")
        except ParseError as exc:
            # The flag is the record's own claim: it is kept, and the bad date said.
            date = None
            reason = f"{reason}; {exc}" if reason else str(exc)
        events.append(
            Event(
                kind=EventKind.RETRACTION,
                subject=subject,
                date=date,
                source=OPEN_RETRACTIONS,
                label="retracted: true",
                reason=reason,
            )
        )
    return OpenRetractionsRecord(subject=subject, events=tuple(events), skipped=tuple(skipped))


def parse_open_retractions(body: bytes) -> list[Event]:
    """Events of one openretractions.com record (``/api/doi/{doi}/data.json``), strictly.

    Each update becomes its own event, typed by its own label. The record's ``retracted``
    flag becomes one more event (label ``retracted: true``); when no update is typed as a
    retraction, that event's ``reason`` says the labels disagree, so neither label is trusted
    alone. The list is always every update: one that cannot be read raises, naming its index
    (:func:`parse_open_retractions_record` keeps the others and records it).

    >>> evs = parse_open_retractions(
    ...     b'{"retracted": true, "identifier": {"doi": "10.1/a"},'
    ...     b' "updates": [{"type": "erratum", "identifier": {"doi": "10.1/n"}}]}'
    ... )
    >>> [(e.kind.value, e.label) for e in evs]
    [('erratum', 'erratum'), ('retraction', 'retracted: true')]

    Raises:
        ParseError: not a JSON object with an ``identifier``, or an update cannot be read.
    """
    record = parse_open_retractions_record(body)
    refuse_unreadable(record.skipped, "openretractions: update", "parse_open_retractions_record")
    return list(record.events)


def open_retractions_check(body: bytes, *, checked: dt.datetime) -> NoticeCheck:
    """An openretractions.com record as a notice check (found, or none found as of ``checked``).

    The record carries no check time of its own; ``checked`` is when the caller fetched it.
    An update that could not be read may be the retraction: unless a retraction was read, the
    check is then *unavailable* (keeping the events read), never "none found".

    Raises:
        ParseError: not a JSON object with an ``identifier``, or ``updates`` not an array.
    """
    return parse_open_retractions_record(body).check(checked=checked)
