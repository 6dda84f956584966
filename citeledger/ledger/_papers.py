"""The paper and its cited works: merging descriptions, picking identifiers, telling dates apart."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from citeledger.identifiers import ArxivId, Identifier, Scheme, work_key
from citeledger.model import EventKind, Paper

if TYPE_CHECKING:
    import datetime as dt
    from collections.abc import Sequence

    from citeledger.model import NoticeCheck


def _merge_papers(requested: Identifier | None, papers: Sequence[Paper]) -> Paper:
    if not papers:
        return Paper(identifiers=() if requested is None else (requested,))
    first = papers[0]
    idents: list[Identifier] = [] if requested is None else [requested]
    for p in papers:
        for i in p.identifiers:
            if i not in idents and not any(
                work_key(i) == work_key(j) and i.scheme is Scheme.ARXIV for j in idents
            ):
                idents.append(i)
    # A versioned arXiv id from a source is more specific than the requested one.
    if requested is not None and requested.scheme is Scheme.ARXIV:
        versioned = [i for p in papers for i in p.identifiers if work_key(i) == work_key(requested)]
        best = next((i for i in versioned if isinstance(i, ArxivId) and i.version), None)
        if best is not None and isinstance(requested, ArxivId) and requested.version is None:
            idents = [best if i == requested else i for i in idents]
    fill: dict[str, Any] = {}
    for name in (
        "title",
        "year",
        "date",
        "venue",
        "volume",
        "issue",
        "pages",
        "work_type",
        "abstract",
    ):
        for p in papers:
            value = getattr(p, name)
            if value is not None:
                fill[name] = value
                break
    for name in ("authors", "areas", "related"):
        for p in papers:
            if getattr(p, name):
                fill[name] = getattr(p, name)
                break
    return attrs.evolve(first, identifiers=tuple(idents), source=None, **fill)


def _best_identifier(paper: Paper) -> Identifier | None:
    order = [Scheme.DOI, Scheme.ARXIV, Scheme.PMID, Scheme.PMCID, Scheme.OPENALEX, Scheme.S2]
    for scheme in order:
        ident = paper.identifier(scheme)
        if ident is not None:
            return ident
    return paper.identifiers[0] if paper.identifiers else None


def _work_date(paper: Paper) -> tuple[dt.date | None, int | None]:
    return paper.date, paper.date.year if paper.date else paper.year


def _after(citing: Paper, event_date: dt.date | None) -> bool | None:
    """Whether ``citing`` appeared after ``event_date`` (None when it cannot be told)."""
    if event_date is None:
        return None
    date, year = _work_date(citing)
    if date is not None:
        return date > event_date
    if year is None or year == event_date.year:
        return None
    return year > event_date.year


def _retraction_date(check: NoticeCheck) -> tuple[bool, dt.date | None]:
    dates = [e.date for e in check.events if e.kind is EventKind.RETRACTION]
    if not dates:
        return False, None
    known = [d for d in dates if d is not None]
    return True, (min(known) if known else None)
