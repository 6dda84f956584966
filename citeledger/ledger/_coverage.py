"""The coverage vector: one :class:`~citeledger.model.Coverage` row per facet of a record.

Each row says what was measured of what there was to measure ("measured X of Y"), by which
named sources, and why anything could not be measured. Pure functions of what the build fetched
and the source reports it made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citeledger.ledger._util import _merge_names
from citeledger.ledger.record import LINK_UNAVAILABLE, Outcome
from citeledger.model import CheckStatus, Coverage, CoverageState, Facet, NoticeStatus
from citeledger.sources import UnreadableItem, describe_unreadable

if TYPE_CHECKING:
    import datetime as dt
    from collections.abc import Sequence

    from citeledger.ledger.record import ObservationNotice, SourceReport
    from citeledger.model import Measurement, Observation, Reference
    from citeledger.sources import Source


def _is_unreadable(ref: Reference) -> bool:
    return ref.unreadable is not None


def _unreadable_references(source: str, refs: Sequence[Reference]) -> tuple[UnreadableItem, ...]:
    """The reference entries a source kept at their positions although it could not read them."""
    return tuple(
        UnreadableItem.of(
            source,
            "reference entry",
            None if ref.position is None else ref.position - 1,
            ref.unreadable or "unreadable",
            ref.raw or ref.key,
        )
        for ref in refs
        if _is_unreadable(ref)
    )


def _failures(reports: Sequence[SourceReport], capability: str) -> list[str]:
    return [
        r.describe()
        for r in reports
        if r.capability == capability
        and r.subject is None
        and r.outcome in (Outcome.ERROR, Outcome.NOT_FOUND)
    ]


def _asked(reports: Sequence[SourceReport], capability: str) -> bool:
    return any(r.capability == capability and r.outcome is not Outcome.UNSUPPORTED for r in reports)


def _ref_coverage(
    *,
    outbound: Sequence[Observation],
    total: int,
    ref_lists: Sequence[tuple[Source, Sequence[Reference]]],
    names: Sequence[tuple[str, ...]],
    reports: Sequence[SourceReport],
    resolve_failures: Sequence[str],
    built: dt.datetime,
) -> Coverage:
    facet = Facet.REFERENCE_RESOLUTION
    failures = [*_failures(reports, "references"), *resolve_failures]
    failures += [
        f"{r.source}: reference entries that could not be read: "
        + describe_unreadable(r.unreadable)
        for r in reports
        if r.capability == "references" and r.subject is None and r.unreadable
    ]
    srcs = _merge_names(names)
    if not ref_lists:
        reason = "; ".join(failures) or "no named source can list the paper's references"
        return Coverage(
            facet=facet,
            measured=0,
            total=None if failures else 0,
            sources=srcs,
            state=CoverageState.UNAVAILABLE,
            reason=reason,
        )
    # An entry kept only as "unreadable" has an observation but nothing was resolved from it.
    measured = sum(1 for o in outbound if o.reference is None or not _is_unreadable(o.reference))
    observed = built if total else None
    if failures:
        return Coverage(
            facet=facet,
            measured=measured,
            total=total,
            sources=srcs,
            observed=observed,
            state=CoverageState.PARTIAL,
            reason="; ".join(failures),
        )
    if total == 0:
        return Coverage(
            facet=facet,
            measured=0,
            total=0,
            sources=srcs,
            state=CoverageState.NOTHING_TO_MEASURE,
            note="no reference list yet",
        )
    return Coverage(
        facet=facet,
        measured=measured,
        total=total,
        sources=srcs,
        observed=observed,
        state=CoverageState.COMPLETE,
    )


def _notice_coverage(
    notices: Sequence[ObservationNotice], reports: Sequence[SourceReport], any_source: bool
) -> Coverage:
    facet = Facet.STANDING_NOTICES
    total = len(notices)
    measured_n = [
        n
        for n in notices
        if n.check.status is not NoticeStatus.UNAVAILABLE or n.check.reason == LINK_UNAVAILABLE
    ]
    sources = _merge_names(n.check.sources for n in measured_n)
    times = [n.check.checked for n in measured_n if n.check.checked is not None]
    observed = max(times) if times else None
    no_link = sum(1 for n in notices if n.check.reason == LINK_UNAVAILABLE)
    note = (
        f"{no_link:,} of {total:,} observations have no canonical work link, "
        "so no event check applies to them"
        if no_link
        else None
    )
    if total == 0:
        return Coverage(
            facet=facet,
            measured=0,
            total=0,
            sources=sources,
            state=CoverageState.NOTHING_TO_MEASURE,
        )
    measured_ids = {id(n) for n in measured_n}
    unmeasured = [n for n in notices if id(n) not in measured_ids]
    if not unmeasured:
        return Coverage(
            facet=facet,
            measured=total,
            total=total,
            sources=sources,
            observed=observed,
            state=CoverageState.COMPLETE,
            note=note,
        )
    reasons = list(dict.fromkeys(n.check.reason or "" for n in unmeasured))
    if not any_source:
        reasons = ["no named source can report events"]
    reason = f"{len(unmeasured):,} checks unavailable: " + "; ".join(reasons)
    state = CoverageState.UNAVAILABLE if not measured_n else CoverageState.PARTIAL
    del reports
    return Coverage(
        facet=facet,
        measured=len(measured_n),
        total=total,
        sources=sources,
        observed=observed,
        state=state,
        reason=reason,
        note=note,
    )


def _inbound_coverage(
    *,
    inbound: Sequence[Observation],
    total: int | None,
    names: Sequence[tuple[str, ...]],
    reports: Sequence[SourceReport],
    reasons: Sequence[str],
    cap: int | None,
) -> Coverage:
    facet = Facet.INBOUND_ITEMIZATION
    failures = _failures(reports, "citations")
    srcs = _merge_names(names)
    note = f"under the disclosed page cap of {cap:,}" if cap is not None else None
    observed = max((o.observed for o in inbound), default=None)
    measured = len(inbound)
    if total is not None and total < measured:
        total = measured
    if not names:
        reason = "; ".join(failures) or "no named source can list citing papers"
        return Coverage(
            facet=facet,
            measured=0,
            total=None,
            sources=srcs,
            state=CoverageState.UNAVAILABLE,
            reason=reason,
            note=note,
        )
    why = [*reasons, *failures]
    if why:
        return Coverage(
            facet=facet,
            measured=measured,
            total=total,
            sources=srcs,
            observed=observed,
            state=CoverageState.PARTIAL,
            reason="; ".join(why),
            note=note,
        )
    if measured == 0:
        return Coverage(
            facet=facet,
            measured=0,
            total=0,
            sources=srcs,
            state=CoverageState.NOTHING_TO_MEASURE,
            note=note,
        )
    return Coverage(
        facet=facet,
        measured=measured,
        total=total,
        sources=srcs,
        observed=observed,
        state=CoverageState.COMPLETE,
        note=note,
    )


def _inbound_resolution_coverage(
    inbound: Sequence[Observation], *, enabled: bool, cap: int | None
) -> Coverage:
    """The "inbound resolution: measured k of n" row: citing works whose list was read.

    ``n`` counts the distinct citing works listed; ``k`` those with at least one observation
    whose check read their list. Works not checked are counted by reason.
    """
    facet = Facet.INBOUND_RESOLUTION
    by_work: dict[str, list[Observation]] = {}
    for obs in inbound:
        by_work.setdefault(obs.citing.key, []).append(obs)
    total = len(by_work)
    note = f"at most the first {cap:,} citing works checked" if cap is not None else None
    checks = [o.check for o in inbound if o.check is not None]
    read = {
        key
        for key, group in by_work.items()
        if any(o.check is not None and o.check.status is CheckStatus.CHECKED for o in group)
    }
    srcs = tuple(
        dict.fromkeys(
            c.source for c in checks if c.status is CheckStatus.CHECKED and c.source is not None
        )
    )
    observed = max(
        (c.checked for c in checks if c.status is CheckStatus.CHECKED and c.checked), default=None
    )
    if total == 0:
        return Coverage(facet=facet, state=CoverageState.NOTHING_TO_MEASURE, note=note)
    if not enabled and not read:
        asserted = tuple(dict.fromkeys(o.source for o in inbound))
        return Coverage(
            facet=facet,
            measured=0,
            total=total,
            sources=asserted,
            state=CoverageState.UNAVAILABLE,
            reason="checking switched off (check_inbound=False): states as asserted by "
            + ", ".join(asserted),
            note=note,
        )
    if len(read) == total:
        return Coverage(
            facet=facet,
            measured=total,
            total=total,
            sources=srcs,
            observed=observed,
            state=CoverageState.COMPLETE,
            note=note,
        )
    why: dict[str, int] = {}
    for key, group in by_work.items():
        if key in read:
            continue
        check = next((o.check for o in group if o.check is not None), None)
        label = "not checked" if check is None else check.describe().split(" (", 1)[0]
        why[label] = why.get(label, 0) + 1
    reason = "; ".join(f"{n:,} {label}" for label, n in why.items())
    return Coverage(
        facet=facet,
        measured=len(read),
        total=total,
        sources=srcs,
        observed=observed,
        state=CoverageState.PARTIAL if read else CoverageState.UNAVAILABLE,
        reason=reason,
        note=note,
    )


def _measurement_coverage(
    measurements: Sequence[Measurement], failures: Sequence[str], reports: Sequence[SourceReport]
) -> Coverage:
    facet = Facet.EXTERNAL_CITATION_MEASUREMENTS
    sources = _merge_names([m.source] for m in measurements)
    observed = max((m.observed for m in measurements), default=None)
    measured = len(measurements)
    total = measured + len(failures)
    if failures and not measured:
        return Coverage(
            facet=facet,
            measured=0,
            total=total,
            sources=sources,
            state=CoverageState.UNAVAILABLE,
            reason="; ".join(failures),
        )
    if failures:
        return Coverage(
            facet=facet,
            measured=measured,
            total=total,
            sources=sources,
            observed=observed,
            state=CoverageState.PARTIAL,
            reason="; ".join(failures),
        )
    if not _asked(reports, "citation_counts"):
        return Coverage(
            facet=facet,
            measured=0,
            total=None,
            state=CoverageState.UNAVAILABLE,
            reason="no named source reports citation counts",
        )
    if measured == 0:
        return Coverage(
            facet=facet,
            measured=0,
            total=0,
            state=CoverageState.NOTHING_TO_MEASURE,
            note="no named source gave a count",
        )
    return Coverage(
        facet=facet,
        measured=measured,
        total=total,
        sources=sources,
        observed=observed,
        state=CoverageState.COMPLETE,
    )
