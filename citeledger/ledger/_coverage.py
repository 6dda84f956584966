"""The coverage vector: one :class:`~citeledger.model.Coverage` row per facet of a record.

Each row says what was measured of what there was to measure ("measured X of Y"), by which
named sources, and why anything could not be measured. Pure functions of what the build fetched
and the source reports it made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attrs import frozen

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


@frozen(kw_only=True)
class _Rows:
    """What every row of one facet shares: the facet, its named sources and its note."""

    facet: Facet
    sources: tuple[str, ...] = ()
    note: str | None = None

    def row(
        self,
        state: CoverageState,
        *,
        measured: int = 0,
        total: int | None = None,
        observed: dt.datetime | None = None,
        reason: str | None = None,
        sources: tuple[str, ...] | None = None,
    ) -> Coverage:
        """The facet's row in ``state`` (``sources`` replaces the facet's sources when given)."""
        return Coverage(
            facet=self.facet,
            measured=measured,
            total=total,
            sources=self.sources if sources is None else sources,
            observed=observed,
            state=state,
            reason=reason,
            note=self.note,
        )

    def partial(
        self,
        *,
        measured: int,
        total: int | None,
        observed: dt.datetime | None,
        reasons: Sequence[str],
    ) -> Coverage:
        """The partial row, its ``reasons`` joined with "; "."""
        return self.row(
            CoverageState.PARTIAL,
            measured=measured,
            total=total,
            observed=observed,
            reason="; ".join(reasons),
        )

    def nothing(self, *, note: str | None = None, total: int | None = 0) -> Coverage:
        """The nothing-to-measure row (``note`` replaces the facet's note when given)."""
        return Coverage(
            facet=self.facet,
            total=total,
            sources=self.sources,
            state=CoverageState.NOTHING_TO_MEASURE,
            note=note or self.note,
        )


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
    failures = [*_failures(reports, "references"), *resolve_failures]
    failures += [
        f"{r.source}: reference entries that could not be read: "
        + describe_unreadable(r.unreadable)
        for r in reports
        if r.capability == "references" and r.subject is None and r.unreadable
    ]
    rows = _Rows(facet=Facet.REFERENCE_RESOLUTION, sources=_merge_names(names))
    if not ref_lists:
        reason = "; ".join(failures) or "no named source can list the paper's references"
        return rows.row(CoverageState.UNAVAILABLE, total=None if failures else 0, reason=reason)
    # An entry kept only as "unreadable" has an observation but nothing was resolved from it.
    measured = sum(1 for o in outbound if o.reference is None or not _is_unreadable(o.reference))
    observed = built if total else None
    if failures:
        return rows.partial(measured=measured, total=total, observed=observed, reasons=failures)
    if total == 0:
        return rows.nothing(note="no reference list yet")
    return rows.row(CoverageState.COMPLETE, measured=measured, total=total, observed=observed)


def _notice_coverage(
    notices: Sequence[ObservationNotice], reports: Sequence[SourceReport], any_source: bool
) -> Coverage:
    total = len(notices)
    measured_n = [
        n
        for n in notices
        if n.check.status is not NoticeStatus.UNAVAILABLE or n.check.reason == LINK_UNAVAILABLE
    ]
    times = [n.check.checked for n in measured_n if n.check.checked is not None]
    observed = max(times) if times else None
    no_link = sum(1 for n in notices if n.check.reason == LINK_UNAVAILABLE)
    note = (
        f"{no_link:,} of {total:,} observations have no canonical work link, "
        "so no event check applies to them"
        if no_link
        else None
    )
    rows = _Rows(
        facet=Facet.STANDING_NOTICES,
        sources=_merge_names(n.check.sources for n in measured_n),
        note=note,
    )
    if total == 0:
        return rows.nothing()
    measured_ids = {id(n) for n in measured_n}
    unmeasured = [n for n in notices if id(n) not in measured_ids]
    if not unmeasured:
        return rows.row(CoverageState.COMPLETE, measured=total, total=total, observed=observed)
    reasons = list(dict.fromkeys(n.check.reason or "" for n in unmeasured))
    if not any_source:
        reasons = ["no named source can report events"]
    reason = f"{len(unmeasured):,} checks unavailable: " + "; ".join(reasons)
    state = CoverageState.UNAVAILABLE if not measured_n else CoverageState.PARTIAL
    del reports
    return rows.row(state, measured=len(measured_n), total=total, observed=observed, reason=reason)


def _inbound_coverage(
    *,
    inbound: Sequence[Observation],
    total: int | None,
    names: Sequence[tuple[str, ...]],
    reports: Sequence[SourceReport],
    reasons: Sequence[str],
    cap: int | None,
) -> Coverage:
    failures = _failures(reports, "citations")
    rows = _Rows(
        facet=Facet.INBOUND_ITEMIZATION,
        sources=_merge_names(names),
        note=f"under the disclosed page cap of {cap:,}" if cap is not None else None,
    )
    observed = max((o.observed for o in inbound), default=None)
    measured = len(inbound)
    if total is not None and total < measured:
        total = measured
    if not names:
        reason = "; ".join(failures) or "no named source can list citing papers"
        return rows.row(CoverageState.UNAVAILABLE, reason=reason)
    why = [*reasons, *failures]
    if why:
        return rows.partial(measured=measured, total=total, observed=observed, reasons=why)
    if measured == 0:
        return rows.nothing()
    return rows.row(CoverageState.COMPLETE, measured=measured, total=total, observed=observed)


def _inbound_resolution_coverage(
    inbound: Sequence[Observation], *, enabled: bool, cap: int | None
) -> Coverage:
    """The "inbound resolution: measured k of n" row: citing works whose list was read.

    ``n`` counts the distinct citing works listed; ``k`` those with at least one observation
    whose check read their list. Works not checked are counted by reason.
    """
    by_work: dict[str, list[Observation]] = {}
    for obs in inbound:
        by_work.setdefault(obs.citing.key, []).append(obs)
    total = len(by_work)
    checks = [o.check for o in inbound if o.check is not None]
    read = {
        key
        for key, group in by_work.items()
        if any(o.check is not None and o.check.status is CheckStatus.CHECKED for o in group)
    }
    rows = _Rows(
        facet=Facet.INBOUND_RESOLUTION,
        sources=tuple(
            dict.fromkeys(
                c.source for c in checks if c.status is CheckStatus.CHECKED and c.source is not None
            )
        ),
        note=f"at most the first {cap:,} citing works checked" if cap is not None else None,
    )
    observed = max(
        (c.checked for c in checks if c.status is CheckStatus.CHECKED and c.checked), default=None
    )
    if total == 0:
        return rows.nothing(total=None)
    if not enabled and not read:
        asserted = tuple(dict.fromkeys(o.source for o in inbound))
        return rows.row(
            CoverageState.UNAVAILABLE,
            measured=0,
            total=total,
            sources=asserted,
            reason="checking switched off (check_inbound=False): states as asserted by "
            + ", ".join(asserted),
        )
    if len(read) == total:
        return rows.row(CoverageState.COMPLETE, measured=total, total=total, observed=observed)
    why: dict[str, int] = {}
    for key, group in by_work.items():
        if key in read:
            continue
        check = next((o.check for o in group if o.check is not None), None)
        label = "not checked" if check is None else check.describe().split(" (", 1)[0]
        why[label] = why.get(label, 0) + 1
    return rows.row(
        CoverageState.PARTIAL if read else CoverageState.UNAVAILABLE,
        measured=len(read),
        total=total,
        observed=observed,
        reason="; ".join(f"{n:,} {label}" for label, n in why.items()),
    )


def _measurement_coverage(
    measurements: Sequence[Measurement], failures: Sequence[str], reports: Sequence[SourceReport]
) -> Coverage:
    rows = _Rows(
        facet=Facet.EXTERNAL_CITATION_MEASUREMENTS,
        sources=_merge_names([m.source] for m in measurements),
    )
    observed = max((m.observed for m in measurements), default=None)
    measured = len(measurements)
    total = measured + len(failures)
    if failures and not measured:
        return rows.row(CoverageState.UNAVAILABLE, total=total, reason="; ".join(failures))
    if failures:
        return rows.partial(measured=measured, total=total, observed=observed, reasons=failures)
    if not _asked(reports, "citation_counts"):
        return rows.row(
            CoverageState.UNAVAILABLE,
            sources=(),
            reason="no named source reports citation counts",
        )
    if measured == 0:
        return rows.nothing(note="no named source gave a count")
    return rows.row(CoverageState.COMPLETE, measured=measured, total=total, observed=observed)
