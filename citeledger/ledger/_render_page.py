"""The facts every rendering of a :class:`~citeledger.CitationRecord` shares.

Dates as the seed prints them, the ledger's resolution and entry lines, and the paper page as a
list of :class:`_Block` facts in order, which the text, Markdown and HTML views each render (so
the three formats carry the same page facts). The views live in
:mod:`~citeledger.ledger._render_text` and :mod:`~citeledger.ledger._render_html`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from citeledger.ledger._parts import _z
from citeledger.ledger.record import ITEMIZED, PRINCIPLE, CitingSort
from citeledger.model import CheckStatus, Facet

if TYPE_CHECKING:
    import datetime as dt

    from citeledger.ledger.record import CitationRecord
    from citeledger.model import Measurement, Observation
    from citeledger.page import CitingWork, YearCount

__all__: list[str] = []

RANK_HEAD = 12  # the seed page shows twelve, then "N more"


def _long_date(value: dt.date) -> str:
    return f"{value.day} {value.strftime('%B')} {value.year}"


def _short_date(value: dt.date) -> str:
    return f"{value.day} {value.strftime('%b')} {value.year}"


def _as_of(record: CitationRecord, label: str) -> str:
    return (
        f"As of {_long_date(record.built.date())}, this Paper Citation Record lists "
        f"{len(record.outbound):,} of {record.outbound_total:,} outbound references and "
        f"{len(record.inbound):,} inbound citation observations for {label}."
    )


def _citing_total(record: CitationRecord) -> str:
    """The citing-paper count, or "not measured (why)" when no source could be asked."""
    total = record.citing_total
    if total is None:
        return f"not measured ({record.citing_total_reason})"
    return f"{total:,}"


def _facet_title(facet: Facet) -> str:
    return facet.value.replace("_", " ")


def _facets(record: CitationRecord) -> list[Facet]:
    """The facets the record has a coverage row for, in :class:`Facet` order.

    A record read from older JSON may lack the newer ones.
    """
    have = {c.facet for c in record.coverage}
    return [f for f in Facet if f in have]


def _resolution_line(obs: Observation) -> str:
    res = obs.resolution
    check = obs.check
    if check is not None and check.status is CheckStatus.NOT_CHECKED:
        return (
            f"Resolution: {check.describe()}; listed by {obs.source}, observed {_z(obs.observed)}"
        )
    if res is None:
        return f"Resolution: not reported by the source, observed {_z(obs.observed)}"
    # No method means nothing linked the reference to a work: the seed's "no resolver link".
    method = res.method.label if res.method is not None else "no resolver link"
    if check is not None and check.status is CheckStatus.ASSERTED:
        method += f", {check.describe()}"
    when = check.checked if check is not None and check.checked is not None else obs.observed
    return f"Resolution: {res.state.label}; {method}, observed {_z(when)}"


def _entry_line(obs: Observation) -> str | None:
    """The citing paper's entry as it reads (and where the check read it), when checked."""
    check = obs.check
    if check is None or check.status is not CheckStatus.CHECKED or check.source is None:
        return None
    ref = obs.reference
    if ref is None:
        return f"Checked against {check.describe().removeprefix('checked against ')}"
    text = ref.raw or ref.title or (" ".join(str(i) for i in ref.identifiers)) or "(no text)"
    key = f" [{ref.key}]" if ref.key else ""
    return f"Entry{key} ({check.source}): {text}"


def _source_flags(obs: Observation) -> str:
    """What the source says of the citation itself (OpenCitations' author_sc and timespan)."""
    said = []
    if obs.author_self_citation is not None:
        said.append(f"author self-citation {'yes' if obs.author_self_citation else 'no'}")
    if obs.timespan:
        said.append(f"timespan {obs.timespan}")
    return f"{obs.source} reports: " + "; ".join(said) if said else ""


def _other_counts(work: CitingWork, source: str | None) -> str:
    """Other sources' differing counts, " (semanticscholar: 500)": shown, never mixed in."""
    others = work.other_counts(source)
    if not others:
        return ""
    return " (" + "; ".join(f"{m.source}: {m.value:,}" for m in others) + ")"


def _per_year_line(years: tuple[YearCount, ...]) -> str:
    return "Citing papers per year: " + "; ".join(f"{y.year}: {y.count:,}" for y in years) + "."


class _Block(NamedTuple):
    """One fact of the paper page, rendered alike by the text, Markdown and HTML views.

    ``kind``: "title", "head" (a section heading), "para", "small" (a source note), "item"
    (a numbered citing paper: ``number`` and the work's ``areas``), "more" (how many follow the
    head of the list) or "chart" (where HTML draws its per-year chart; no text). ``chart``
    marks the blocks of the per-year chart (its heading, the chart, the per-year line), which the
    HTML view draws at the top of the page view instead of in order.
    """

    kind: str
    text: str
    number: int = 0
    areas: str = ""
    chart: bool = False


def _count_label(m: Measurement, record: CitationRecord) -> str:
    """A count with whose it is and its date: "1,301 (mlsanity, 14 Oct 2026)"."""
    return f"{m.value:,} ({m.source}, {_short_date(_count_date(m, record))})"


def _count_date(m: Measurement, record: CitationRecord) -> dt.date:
    through = record.data_through
    if through is not None and record.data_through_source == m.source:
        return through
    return m.observed.date()


def _key_counts(record: CitationRecord) -> str:
    """Each source's count, named: "Cited by 1,301 papers per mlsanity (data through ...)"."""
    parts = []
    for m in record.citing_counts():
        when = (
            f"data through {_short_date(_count_date(m, record))}"
            if record.data_through_source == m.source
            else f"observed {_short_date(m.observed.date())}"
        )
        whose = "itemized here" if m.source == ITEMIZED else f"per {m.source}"
        noun = "paper" if m.value == 1 else "papers"
        parts.append(f"{m.value:,} {noun} {whose} ({when})")
    if not parts and record.citing_total is None:
        return f"Cited by: {_citing_total(record)}."
    if not parts:
        return "No citing papers are known to the named sources."
    return "Cited by " + " and ".join(parts) + "."


def _total_whose(record: CitationRecord) -> str:
    """Whose figure ``citing_total`` is: the sources announcing it, or "itemized here"."""
    total = record.citing_total
    announced = [
        r.source
        for r in record.reports
        if r.capability == "citations" and r.subject is None and r.total == total
    ]
    if announced and total != len(record.citing_works):
        return ", ".join(dict.fromkeys(announced))
    return ITEMIZED


def _sort_line(record: CitationRecord, sort: CitingSort) -> str:
    src = record.ranking_source
    if sort is CitingSort.CITATIONS:
        how = f"citations ({src})" if src else "citations (no counts from the named sources)"
    elif sort is CitingSort.YEAR:
        how = "year, newest first" + (f", then citations ({src})" if src else "")
    else:
        how = "title, A to Z"
    others = ", ".join(s.value for s in CitingSort if s is not sort)
    return f"Sort: {how}. Also available: {others}."


def _page_blocks(record: CitationRecord, sort: CitingSort) -> list[_Block]:
    """The paper page's facts, in order: one list every view renders (the same facts in each)."""
    p = record.paper
    out: list[_Block] = []
    through = record.data_through
    if through is not None:
        whose = record.data_through_source
        out.append(
            _Block(
                "small",
                f"{whose} · Data to {_short_date(through)}"
                if whose
                else f"Data to {_short_date(through)}",
            )
        )
    out.append(_Block("title", p.title or record.requested))
    facts = [
        record.paper_label.replace(":", " ", 1)
        if record.paper_label.startswith("arXiv:")
        else record.paper_label
    ]
    if p.date is not None:
        facts.append(f"First posted {_short_date(p.date)}")
    if p.areas:
        facts.append(" ".join(p.areas))
    facts += [f"cited by {_count_label(m, record)}" for m in record.citing_counts()]
    out.append(_Block("para", " · ".join(facts)))
    for prof in record.area_profiles:
        why = prof.explanation()
        if why:
            if prof.own_placement is None:
                out.append(_Block("head", "Not on the map. Why?"))
            out.append(_Block("para", why))
            out.append(
                _Block("small", f"(area profile from {prof.source}, observed {_z(prof.observed)})")
            )
    if p.abstract:
        src = record.abstract_source
        out.append(_Block("head", f"Abstract ({src})" if src else "Abstract"))
        out.append(_Block("para", p.abstract))
    key = f"Key facts. {_key_counts(record)}"
    if p.date is not None:
        where = "on arXiv " if record.paper_label.startswith("arXiv:") else ""
        key += f" First posted {where}{_short_date(p.date)}."
    out += [_Block("para", key), _Block("head", "Builds on")]
    if record.outbound_total == 0:
        out.append(_Block("para", "No reference list yet."))
    else:
        counts = ", ".join(f"{s.state.label} {s.count}" for s in record.resolution_counts())
        out.append(_Block("para", f"{record.outbound_total:,} references: {counts}."))
    out.append(_Block("head", "Built on by"))
    years = record.per_year()
    if years:
        last = years[-1].year
        head = "Cited by year"
        if through is not None and through.year == last:
            head += f" ({last} to {through.day} {through.strftime('%b')})"
        out += [
            _Block("head", head, chart=True),
            _Block("chart", "", chart=True),
            _Block("para", _per_year_line(years), chart=True),
            _Block("para", f"{sum(y.count for y in years):,} papers."),
        ]
    out.append(_Block("para", record.reconciliation().explanation))
    ranked = record.ranked_citing(sort=sort)
    if ranked:
        src = record.ranking_source
        out.append(
            _Block(
                "para",
                f"Citing papers ranked by their own citation counts ({src})."
                if src
                else "Citing papers (no citation counts of citing papers from the named sources).",
            )
        )
        out.append(_Block("para", _sort_line(record, sort)))
        areas = record.citing_areas()
        if areas:
            out.append(_Block("para", "By area: " + ", ".join(f"{a} ({n})" for a, n in areas)))
        for i, w in enumerate(ranked, start=1):
            m = w.count(src) if src else None
            year = f"{w.year} " if w.year is not None else ""
            tail = f" · cited by {m.value:,}" if m is not None else ""
            tail += _other_counts(w, src)
            out.append(_Block("item", f"{year}{w.paper.title}{tail}", i, " ".join(w.paper.areas)))
            if i == RANK_HEAD and len(ranked) > RANK_HEAD:
                out.append(_Block("more", f"({len(ranked) - RANK_HEAD} more; numbering continues)"))
        total = (
            f"{record.citing_total:,} ({_total_whose(record)})"
            if record.citing_total is not None
            else _citing_total(record)
        )
        if src and sort is CitingSort.CITATIONS:
            out.append(_Block("para", f"{len(ranked):,} most cited of {total}"))
        elif src:
            out.append(
                _Block("para", f"{len(ranked):,} most cited of {total}, sorted by {sort.value}")
            )
        else:
            out.append(_Block("para", f"{len(ranked):,} of {total} citing papers listed, unranked"))
        out.append(
            _Block(
                "para",
                f"All {len(ranked):,} itemized citing papers are exportable as JSON: "
                "record.citing_json().",
            )
        )
    out.append(_Block("para", PRINCIPLE))
    return out
