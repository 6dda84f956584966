"""What the sources disagree on: each claim kept with its source, never averaged away."""

from __future__ import annotations

from typing import TYPE_CHECKING

from citeledger._text import key_text
from citeledger.ledger.record import Claim, Disagreement
from citeledger.model import NoticeStatus

if TYPE_CHECKING:
    from collections.abc import Sequence

    from citeledger.model import Measurement, NoticeCheck, Paper
    from citeledger.page import CitingWork


def _paper_disagreements(papers: Sequence[Paper], subject: str) -> list[Disagreement]:
    out: list[Disagreement] = []
    titled = [p for p in papers if p.title]
    if len({key_text(p.title) for p in titled}) > 1:
        out.append(
            Disagreement(
                topic="title",
                subject=subject,
                claims=tuple(Claim(source=p.source or "?", value=p.title or "") for p in titled),
            )
        )
    dated = [p for p in papers if p.year is not None]
    if len({p.year for p in dated}) > 1:
        out.append(
            Disagreement(
                topic="year",
                subject=subject,
                claims=tuple(Claim(source=p.source or "?", value=str(p.year)) for p in dated),
            )
        )
    return out


def _citing_count_disagreement(work: CitingWork) -> Disagreement | None:
    """Sources that count one citing work differently (each source's own figure, never mixed)."""
    per_source: dict[str, Measurement] = {}
    for m in work.cited_by:
        if m.source not in per_source:
            best = work.count(m.source)
            if best is not None:
                per_source[m.source] = best
    if len(per_source) < 2 or len({m.value for m in per_source.values()}) < 2:
        return None
    return Disagreement(
        topic="citing work's cited_by count",
        subject=work.key,
        claims=tuple(
            Claim(source=m.source, value=f"{m.value:,}", observed=m.observed)
            for m in per_source.values()
        ),
    )


def _notice_disagreement(work: str, checks: Sequence[NoticeCheck]) -> Disagreement | None:
    verdicts: dict[str, str] = {}
    claims: list[Claim] = []
    for c in checks:
        if c.status is NoticeStatus.UNAVAILABLE:
            continue
        retracted = c.retracted
        value = (
            "retraction found"
            if retracted
            else (
                "events found, no retraction"
                if c.status is NoticeStatus.EVENTS_FOUND
                else "no event found"
            )
        )
        for s in c.sources:
            verdicts[s] = "retracted" if retracted else "not retracted"
            claims.append(Claim(source=s, value=value, observed=c.checked))
    if len(set(verdicts.values())) > 1:
        return Disagreement(topic="retraction status", subject=work, claims=tuple(claims))
    return None


def _measurement_disagreements(
    measurements: Sequence[Measurement], subject: str
) -> list[Disagreement]:
    out: list[Disagreement] = []
    by_kind: dict[str, list[Measurement]] = {}
    for m in measurements:
        by_kind.setdefault(m.kind.value, []).append(m)
    for kind, ms in by_kind.items():
        if len({m.source for m in ms}) > 1 and len({m.value for m in ms}) > 1:
            out.append(
                Disagreement(
                    topic=f"{kind} count",
                    subject=subject,
                    claims=tuple(
                        Claim(source=m.source, value=f"{m.value:,}", observed=m.observed)
                        for m in ms
                    ),
                )
            )
    return out
