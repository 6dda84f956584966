"""What a record measured: :class:`Event`, :class:`NoticeCheck`, :class:`Measurement`, ..."""

from __future__ import annotations

import datetime as dt  # noqa: TC003 - cattrs resolves the field annotations at run time
from collections.abc import Iterable, Sequence  # noqa: TC003 - cattrs resolves the field annotations at run time

import attrs
from attrs import field, frozen

from citeledger.errors import IncompatibleMeasurements, ModelError
from citeledger.identifiers import Identifier  # noqa: TC001 - cattrs resolves the field annotations at run time
from citeledger.model._convert import (
    _count,
    _non_negative,
    _opt_count,
    _opt_date,
    _opt_identifier,
    _opt_utc,
    _strs,
    utc,
)
from citeledger.model._enums import CoverageState, EventKind, Facet, MeasurementKind, NoticeStatus

# --------------------------------------------------------------------------- events & notices


def _event_kind(value: EventKind | str) -> EventKind:
    return EventKind(value)


@frozen(kw_only=True)
class Event:
    """A source-reported event about a work: retraction, correction, ...

    Args:
        kind: What happened.
        subject: The work the event is about.
        notice: The notice's own identifier (the retraction notice DOI), if any.
        date: When the event happened (or was published).
        source: Who reported it ("crossref", "retractionwatch", "openalex").
        label: The source's own label, verbatim ("Retraction", "erratum").
        reason: A reason, if the source gives one.
    """

    kind: EventKind = field(converter=_event_kind)
    subject: Identifier | None = field(default=None, converter=_opt_identifier)
    notice: Identifier | None = field(default=None, converter=_opt_identifier)
    date: dt.date | None = field(default=None, converter=_opt_date)
    source: str
    label: str | None = None
    reason: str | None = None


def _events(values: Iterable[Event] | None) -> tuple[Event, ...]:
    return () if values is None else tuple(values)


@frozen(kw_only=True)
class NoticeCheck:
    """The outcome of asking named sources for events about one work.

    "None found in the named sources as of T" (:attr:`NoticeStatus.NONE_FOUND`) is a measurement;
    "unavailable" is the absence of one. An error is never read as clean.

    Args:
        status: Events found, none found, or unavailable.
        subject: The work checked.
        events: The events found.
        sources: The sources queried.
        checked: When (aware UTC).
        reason: Why unavailable; on a found or none-found check combined from several
            sources (the ledger's per-work outcome), what the others said — a source that
            could not be asked — which the named sources of the check do not include.
    """

    status: NoticeStatus = field(converter=NoticeStatus)
    subject: Identifier | None = field(default=None, converter=_opt_identifier)
    events: tuple[Event, ...] = field(default=(), converter=_events)
    sources: tuple[str, ...] = field(default=(), converter=_strs)
    checked: dt.datetime | None = field(default=None, converter=_opt_utc)
    reason: str | None = None

    def __attrs_post_init__(self) -> None:
        if self.status is NoticeStatus.EVENTS_FOUND and not self.events:
            raise ModelError("a NoticeCheck with status events_found needs events")
        if self.status is NoticeStatus.NONE_FOUND:
            if self.events:
                raise ModelError("a NoticeCheck with status none_found cannot carry events")
            if not self.sources or self.checked is None:
                raise ModelError("'none found' must name the queried sources and the time")
        if self.status is NoticeStatus.UNAVAILABLE and not self.reason:
            raise ModelError("an unavailable NoticeCheck needs a reason")

    @classmethod
    def found(
        cls,
        events: Iterable[Event],
        *,
        sources: Iterable[str],
        checked: dt.datetime,
        subject: Identifier | str | None = None,
    ) -> NoticeCheck:
        """Events found in the named sources."""
        return cls(
            status=NoticeStatus.EVENTS_FOUND,
            events=tuple(events),
            sources=_strs(sources),
            checked=checked,
            subject=subject,
        )

    @classmethod
    def none_found(
        cls,
        *,
        sources: Iterable[str],
        checked: dt.datetime,
        subject: Identifier | str | None = None,
    ) -> NoticeCheck:
        """No event found in the named queried sources as of ``checked``."""
        return cls(
            status=NoticeStatus.NONE_FOUND, sources=_strs(sources), checked=checked, subject=subject
        )

    @classmethod
    def unavailable(
        cls,
        reason: str,
        *,
        sources: Iterable[str] = (),
        checked: dt.datetime | None = None,
        subject: Identifier | str | None = None,
    ) -> NoticeCheck:
        """The check could not be made; says why."""
        return cls(
            status=NoticeStatus.UNAVAILABLE,
            reason=reason,
            sources=_strs(sources),
            checked=checked,
            subject=subject,
        )

    @classmethod
    def combine(cls, checks: Sequence[NoticeCheck], subject: Identifier | None) -> NoticeCheck:
        """One work's checks from several sources as one outcome (the ledger's per-work check).

        Events found in any source, else none found in the sources that answered, else
        unavailable with every reason: an error never reads as clean. The combined check names
        only the sources it rests on; what the others said (a source that could not be asked,
        a found check's own note) is kept in its ``reason``.

        Args:
            checks: Each source's own check of the work.
            subject: The work checked.

        .. versionadded:: 0.2.0
        """

        def names(group: Iterable[NoticeCheck]) -> tuple[str, ...]:
            return tuple(dict.fromkeys(s for c in group for s in c.sources))

        found = [c for c in checks if c.status is NoticeStatus.EVENTS_FOUND]
        clean = [c for c in checks if c.status is NoticeStatus.NONE_FOUND]
        notes = [c.reason for c in found if c.reason] + [
            f"{', '.join(c.sources) or 'a source'} unavailable: {c.reason}"
            for c in checks
            if c.status is NoticeStatus.UNAVAILABLE
        ]
        reason = "; ".join(dict.fromkeys(notes)) or None
        if found:
            times = [c.checked for c in found if c.checked is not None]
            return cls(
                status=NoticeStatus.EVENTS_FOUND,
                events=tuple(e for c in found for e in c.events),
                sources=names(found),
                checked=max(times) if times else None,
                subject=subject,
                reason=reason,
            )
        if clean:
            times = [c.checked for c in clean if c.checked is not None]
            return attrs.evolve(
                cls.none_found(sources=names(clean), checked=max(times), subject=subject),
                reason=reason,
            )
        reasons = "; ".join(dict.fromkeys(c.reason or "" for c in checks)) if checks else ""
        return cls.unavailable(
            reasons or "no named source can report events", sources=names(checks), subject=subject
        )

    @property
    def retracted(self) -> bool | None:
        """True if a retraction was found, False if none found, None if unavailable."""
        if self.status is NoticeStatus.UNAVAILABLE:
            return None
        return any(e.kind is EventKind.RETRACTION for e in self.events)

    def describe(self) -> str:
        """The ledger sentence for this check."""
        if self.status is NoticeStatus.UNAVAILABLE:
            return f"Unavailable: {self.reason}."
        when = self.checked.isoformat() if self.checked else "unknown time"
        if self.status is NoticeStatus.NONE_FOUND:
            return f"No event found in the named queried sources as of {when}."
        kinds = ", ".join(sorted({e.kind.value.replace("_", " ") for e in self.events}))
        return f"Events found ({kinds}) in {', '.join(self.sources)} as of {when}."


# --------------------------------------------------------------------------- measurements


@frozen(kw_only=True, eq=True, order=False)
class Measurement:
    """One source's dated count, e.g. "57, arxiv_reference, observed 2026-08-05".

    Measurements from different sources are never combined: adding them, summing them or
    comparing them raises :class:`~citeledger.errors.IncompatibleMeasurements`. Use ``.value``
    of one measurement deliberately if you must do arithmetic.

    Args:
        value: The count.
        source: Who measured it.
        observed: When (aware UTC).
        kind: What is counted.
        subject: The work it is about.
    """

    value: int = field(converter=_count, validator=_non_negative)
    source: str
    observed: dt.datetime = field(converter=utc)
    kind: MeasurementKind = field(default=MeasurementKind.CITED_BY, converter=MeasurementKind)
    subject: Identifier | None = field(default=None, converter=_opt_identifier)

    def _refuse(self, other: object, op: str) -> IncompatibleMeasurements:
        if isinstance(other, Measurement) and other.source != self.source:
            why = f"from different sources ({self.source!r} vs {other.source!r})"
        elif isinstance(other, Measurement) and op != "compare":
            why = "to another of the same source (each count stands for one dated observation)"
        elif isinstance(other, Measurement):
            why = "of the same source about different things (kind or subject differ)"
        else:
            why = f"with a {type(other).__name__}"
        return IncompatibleMeasurements(
            f"cannot {op} a measurement {why}: external counts name their source and date and are "
            "never combined; use .value of one measurement explicitly"
        )

    def __add__(self, other: object) -> Measurement:
        raise self._refuse(other, "add")

    __radd__ = __add__

    def __sub__(self, other: object) -> Measurement:
        raise self._refuse(other, "subtract")

    __rsub__ = __sub__

    def _cmp_key(self, other: object, op: str) -> tuple[int, int]:
        if (
            not isinstance(other, Measurement)
            or other.source != self.source
            or other.kind != self.kind
            or other.subject != self.subject
        ):
            raise self._refuse(other, op)
        return self.value, other.value

    def __lt__(self, other: object) -> bool:
        a, b = self._cmp_key(other, "compare")
        return a < b

    def __le__(self, other: object) -> bool:
        a, b = self._cmp_key(other, "compare")
        return a <= b

    def __gt__(self, other: object) -> bool:
        a, b = self._cmp_key(other, "compare")
        return a > b

    def __ge__(self, other: object) -> bool:
        a, b = self._cmp_key(other, "compare")
        return a >= b

    def __int__(self) -> int:
        raise IncompatibleMeasurements(
            "a Measurement is not a bare number; use .value and keep its source and date with it"
        )

    def describe(self) -> str:
        """The ledger line ("57 · arxiv_reference, observed 2026-08-05T02:28:24.338817Z")."""
        return f"{self.value} · {self.source}, observed {self.observed.isoformat()}"


# --------------------------------------------------------------------------- coverage


@frozen(kw_only=True)
class Coverage:
    """One entry of a record's coverage vector: "measured X of Y" for one facet.

    Args:
        facet: Which facet.
        measured: How many items were measured.
        total: How many there are (None when unknown).
        sources: The named sources.
        observed: When (aware UTC).
        state: Complete, partial, unavailable or nothing to measure.
        reason: Why partial or unavailable.
        note: Disclosures such as a page cap ("under the disclosed page cap of 100").
    """

    facet: Facet = field(converter=Facet)
    measured: int = field(default=0, converter=_count, validator=_non_negative)
    total: int | None = field(default=None, converter=_opt_count)
    sources: tuple[str, ...] = field(default=(), converter=_strs)
    observed: dt.datetime | None = field(default=None, converter=_opt_utc)
    state: CoverageState = field(converter=CoverageState)
    reason: str | None = None
    note: str | None = None

    def __attrs_post_init__(self) -> None:
        if self.total is not None and self.total < 0:
            raise ModelError(f"coverage total must be >= 0, got {self.total}")
        if self.total is not None and self.measured > self.total:
            raise ModelError(f"coverage measured {self.measured} > total {self.total}")
        if (
            self.state is CoverageState.COMPLETE
            and self.total is not None
            and self.measured != self.total
        ):
            # "complete" next to "measured 3 of 5" would be a claim the numbers contradict.
            raise ModelError(
                f"a complete coverage entry must measure everything, got {self.measured} of "
                f"{self.total}"
            )
        if self.state is CoverageState.NOTHING_TO_MEASURE and (self.measured or self.total):
            raise ModelError("a nothing_to_measure coverage entry cannot count items")
        if self.state in (CoverageState.PARTIAL, CoverageState.UNAVAILABLE) and not self.reason:
            raise ModelError(f"a {self.state.value} coverage entry needs a reason")

    def describe(self) -> str:
        """The ledger line ("measured 8 of 8 inbound itemization")."""
        total = "?" if self.total is None else str(self.total)
        return f"measured {self.measured} of {total} {self.facet.value.replace('_', ' ')}"
