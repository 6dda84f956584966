"""Standing notices one hop out: each observation's cited work checked once for events.

:func:`_notice_phase` checks the work every outbound and inbound observation points to with each
source that offers events (retractions, corrections, expressions of concern), once per work
(:class:`_WorkChecker`), and says whether the citation was made after a retraction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attrs import frozen

from citeledger.ledger._calls import _capabilities
from citeledger.ledger._disagreements import _notice_disagreement
from citeledger.ledger._papers import _after, _best_identifier, _retraction_date
from citeledger.ledger.record import LINK_UNAVAILABLE, ObservationNotice, Outcome, WorkNotices
from citeledger.model import Direction, NoticeCheck, NoticeStatus
from citeledger.sources import Capability
from citeledger.sources._protocols import EventSource

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from citeledger.ledger._calls import _Caller
    from citeledger.ledger.record import Disagreement
    from citeledger.model import Observation, Paper
    from citeledger.sources import Source

__all__: list[str] = []


@frozen(kw_only=True)
class _NoticePhase:
    """Standing notices one hop out: each observation's cited work checked once."""

    notices: tuple[ObservationNotice, ...]
    work_notices: tuple[WorkNotices, ...]
    disagreements: tuple[Disagreement, ...]
    #: Whether any source offers events at all.
    any_source: bool


class _WorkChecker:
    """Checks each cited work once, with every source that offers events."""

    def __init__(self, srcs: Sequence[Source], caller: _Caller) -> None:
        self.sources = [
            s for s in srcs if (caps := _capabilities(s)) is None or Capability.EVENTS in caps
        ]
        self.caller = caller
        self.checked: dict[str, WorkNotices] = {}
        self.disagreements: list[Disagreement] = []

    def __call__(self, target: Paper) -> WorkNotices:
        key = target.key
        if key in self.checked:
            return self.checked[key]
        target_id = _best_identifier(target)
        checks: list[NoticeCheck] = []
        if target_id is None:
            outcome = NoticeCheck.unavailable("the cited work has no identifier to check")
        else:
            for src in self.sources:
                fn = src.events if isinstance(src, EventSource) else None
                ok, check, failure = self.caller.call(
                    src, Capability.EVENTS, "events", fn, target_id, subject=str(target_id)
                )
                if ok and check is not None and not isinstance(check, NoticeCheck):
                    failure = self.caller.wrong_type(
                        src, "events", check, "a NoticeCheck", str(target_id)
                    )
                if ok and isinstance(check, NoticeCheck):
                    checks.append(check)
                elif failure is not None and failure.outcome in (Outcome.ERROR, Outcome.NOT_FOUND):
                    checks.append(
                        NoticeCheck.unavailable(
                            f"{failure.source}: {failure.error_type or failure.outcome.value}: "
                            f"{failure.error}",
                            sources=(src.name,),
                            subject=target_id,
                        )
                    )
            outcome = NoticeCheck.combine(checks, target_id)
        wn = WorkNotices(work=key, subject=target_id, checks=tuple(checks), outcome=outcome)
        self.checked[key] = wn
        dis = _notice_disagreement(key, checks)
        if dis is not None:
            self.disagreements.append(dis)
        return wn


def _notice_phase(
    srcs: Sequence[Source],
    caller: _Caller,
    *,
    paper: Paper,
    observations: Iterable[Observation],
) -> _NoticePhase:
    check_work = _WorkChecker(srcs, caller)
    notices: list[ObservationNotice] = []
    for obs in observations:
        if obs.resolution is not None:
            target = obs.resolution.target
        else:
            target = obs.cited if obs.cited is not None and obs.cited.identifiers else None
        if target is None:
            notices.append(
                ObservationNotice(
                    observation=obs.id, check=NoticeCheck.unavailable(LINK_UNAVAILABLE)
                )
            )
            continue
        wn = check_work(target)
        retracted, when = _retraction_date(wn.outcome)
        if wn.outcome.status is NoticeStatus.UNAVAILABLE:
            after: bool | None = None
        elif not retracted:
            after = False
        else:
            citing = paper if obs.direction is Direction.OUTBOUND else obs.citing
            after = _after(citing, when)
        notices.append(
            ObservationNotice(
                observation=obs.id, work=wn.work, check=wn.outcome, after_retraction=after
            )
        )
    return _NoticePhase(
        notices=tuple(notices),
        work_notices=tuple(check_work.checked.values()),
        disagreements=tuple(check_work.disagreements),
        any_source=bool(check_work.sources),
    )
