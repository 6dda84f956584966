"""The small parts of a :class:`~citeledger.ledger.CitationRecord`.

What the builder reports of each source call (:class:`Outcome`, :class:`SourceReport`), what a
record could measure (:class:`RecordStatus`), the notices of cited works
(:class:`WorkNotices`, :class:`ObservationNotice`), where sources disagree (:class:`Claim`,
:class:`Disagreement`), source ids, the per-year reconciliation and the citing-paper sort order:
pure frozen values. :mod:`citeledger.ledger.record` composes them into the record and exports
them; import them from there (or from :mod:`citeledger.ledger`).
"""

from __future__ import annotations

import datetime as dt
import enum
from typing import TYPE_CHECKING

from attrs import field, frozen

from citeledger.identifiers import Identifier  # noqa: TC001 - cattrs resolves the field annotations at run time
from citeledger.model import NoticeCheck, ResolutionState, _opt_utc
from citeledger.sources import Capability, UnreadableItem, describe_unreadable

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "ITEMIZED",
    "CitingSort",
    "Claim",
    "Disagreement",
    "ObservationNotice",
    "Outcome",
    "Reconciliation",
    "RecordStatus",
    "SourceIdentity",
    "SourceReport",
    "StateCount",
    "WorkNotices",
]


class Outcome(enum.StrEnum):
    """What happened when the builder asked a source for something."""

    OK = "ok"
    #: The source answered but stopped early (an error mid-paging, or the disclosed page cap).
    PARTIAL = "partial"
    #: The source does not know the work (a None paper, a 404).
    NOT_FOUND = "not_found"
    #: The source lacks the capability.
    UNSUPPORTED = "unsupported"
    #: The source failed (after its transport's retries).
    ERROR = "error"
    #: The builder did not ask (e.g. the paper id is malformed).
    SKIPPED = "skipped"


class RecordStatus(enum.StrEnum):
    """What a record could measure, for a caller's exit code (``record.status``).

    The command line exits 0 for :attr:`OK`, 1 for :attr:`PARTIAL` and 3 for
    :attr:`NOTHING_MEASURED`.

    .. versionadded:: 0.2.0
    """

    #: Every source asked answered (a missing capability is not a failure).
    OK = "ok"
    #: Some source failed (an error, a timeout, a wrong answer): the record says which.
    PARTIAL = "partial"
    #: No source answered anything (network down, a malformed id, no sources).
    NOTHING_MEASURED = "nothing_measured"


def _unreadable_items(items: Iterable[UnreadableItem]) -> tuple[UnreadableItem, ...]:
    return tuple(items)


@frozen(kw_only=True)
class SourceReport:
    """One call the builder made to one source, and how it went. Nothing is dropped silently.

    Args:
        source: The source's name.
        capability: What was asked: the :class:`~citeledger.sources.Capability` (protocol) the
            call went through (serialised as its string, "paper", "references", ...).
        outcome: How it went.
        fetched: Items received (observations, references, measurements), when counted.
        total: Items the source announced, when it did.
        capped: Whether the disclosed page cap stopped the listing.
        error: The error's message, when it failed.
        error_type: The error's class name ("SourceTimeout").
        subject: What was asked about (an identifier or work key), when not the record's paper.
        unreadable: Items the source sent that could not be read (not counted in
            ``fetched``), each with its position and reason.

    .. versionchanged:: 0.1.0
       ``unreadable``.
    .. versionchanged:: 0.2.0
       ``capability`` is a :class:`~citeledger.sources.Capability` (same strings).
    """

    source: str
    capability: Capability = field(converter=Capability)
    outcome: Outcome = field(converter=Outcome)
    fetched: int | None = None
    total: int | None = None
    capped: bool = False
    error: str | None = None
    error_type: str | None = None
    subject: str | None = None
    unreadable: tuple[UnreadableItem, ...] = field(default=(), converter=_unreadable_items)

    def describe(self) -> str:
        """One line: "openalex citations: error (SourceTimeout: read timed out)"."""
        text = f"{self.source} {self.capability}"
        if self.subject:
            text += f" for {self.subject}"
        text += f": {self.outcome.value.replace('_', ' ')}"
        if self.fetched is not None:
            announced = "" if self.total is None else f" of {self.total:,} announced"
            text += f", {self.fetched:,} received{announced}"
        notes = (
            describe_unreadable(self.unreadable) if self.unreadable else "",
            "stopped at the disclosed page cap" if self.capped else "",
        )
        text += "".join(f", {note}" for note in notes if note)
        if self.error:
            text += f" ({self.error_type}: {self.error})" if self.error_type else f" ({self.error})"
        return text


@frozen(kw_only=True)
class StateCount:
    """How many outbound observations reached one resolution state.

    Args:
        state: The state.
        count: How many.
    """

    state: ResolutionState = field(converter=ResolutionState)
    count: int = 0


@frozen(kw_only=True)
class WorkNotices:
    """Every named source's event check for one cited work, and their combined outcome.

    Args:
        work: The work key checked.
        subject: The identifier the sources were asked about.
        checks: Each source's own check (errors become "unavailable" checks naming the source).
        outcome: The combination: events found in any source, else none found in the sources
            that answered, else unavailable with every reason. An error never reads as clean.
    """

    work: str
    subject: Identifier | None = None
    checks: tuple[NoticeCheck, ...] = ()
    outcome: NoticeCheck


@frozen(kw_only=True)
class ObservationNotice:
    """The standing-notice outcome for the cited work of one observation (one hop out).

    Args:
        observation: The observation's id.
        work: The cited work's key; None when the observation has no canonical work link.
        check: The outcome for that work, or "unavailable: canonical work link unavailable".
        after_retraction: True when the citation was made after a retraction of the cited work;
            False when before or when none was found; None when unknown.
    """

    observation: str
    work: str | None = None
    check: NoticeCheck
    after_retraction: bool | None = None


@frozen(kw_only=True)
class Claim:
    """What one source says in a disagreement.

    Args:
        source: Who says it.
        value: What it says ("retraction found", "57").
        observed: When, if known.
    """

    source: str
    value: str
    observed: dt.datetime | None = field(default=None, converter=_opt_utc)


@frozen(kw_only=True)
class Disagreement:
    """Sources that say different things about the same thing, each claim with its source.

    Args:
        topic: What they disagree on ("retraction status", "cited_by count", "title").
        subject: What it is about (a work key or identifier).
        claims: Each source's claim.
    """

    topic: str
    subject: str
    claims: tuple[Claim, ...]

    def describe(self) -> str:
        """One line naming every source and its claim."""
        said = "; ".join(
            f"{c.source}: {c.value}" + (f" (observed {_z(c.observed)})" if c.observed else "")
            for c in self.claims
        )
        return f"{self.topic} of {self.subject}: {said}"


@frozen(kw_only=True)
class SourceIdentity:
    """A source's own id for an observation, kept next to citeledger's deterministic id.

    Args:
        observation: citeledger's deterministic observation id.
        source: The source that issued the id.
        source_id: The source's own id (the seed's observation UUIDs are these).
    """

    observation: str
    source: str
    source_id: str


@frozen(kw_only=True)
class Reconciliation:
    """Cited-by per year versus the itemized citing works.

    Args:
        per_year_source: Whose per-year counts are compared ("itemized" when derived from the
            itemized citing works themselves).
        per_year_total: Their sum.
        itemized: Distinct citing works itemized in the record.
        agrees: Whether the two totals are equal.
        explanation: Why they differ (or that they agree).
    """

    per_year_source: str
    per_year_total: int
    itemized: int
    agrees: bool
    explanation: str


class CitingSort(enum.StrEnum):
    """How :meth:`CitationRecord.ranked_citing` orders citing works.

    .. versionadded:: 0.2.0
    """

    #: By the ranking source's citation counts of the citing works, most cited first.
    CITATIONS = "citations"
    #: Newest first; within a year by the ranking source's counts.
    YEAR = "year"
    #: By title, A to Z (case- and accent-insensitive).
    TITLE = "title"


#: The source name of the count of distinct citing works itemized in the record, used when no
#: source gave a count or announced a total.
ITEMIZED = "itemized here"


def _z(value: dt.datetime | None) -> str:
    """ISO-8601 in UTC with a ``Z``, as the ledger prints observation and measurement times."""
    if value is None:
        return ""
    return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
