"""Text, Markdown and HTML renderings of a :class:`~citeledger.CitationRecord`.

The text form follows the layout of the paper citation record the project was seeded with
(title, the "As of ..." sentence, the principle, the schema tag and id/version, the coverage
vector, the reference-resolution table, external measurements, outbound references and citing
papers), then the paper page (cited by year, ranked citing papers, area note). Times of
observations and measurements print with ``Z``; notice-check times print as the check reports
them (``+00:00``), as in the seed.

HTML is built with :func:`html.escape` on every value, and draws citations per year as an inline
SVG bar chart (no plotting dependency).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, NamedTuple

from citeledger.ledger.record import ITEMIZED, PRINCIPLE, CitingSort, _z
from citeledger.model import (
    CheckStatus,
    Coverage,
    CoverageState,
    Facet,
    Observation,
    ResolutionState,
)

if TYPE_CHECKING:
    import datetime as dt

    from citeledger.ledger.record import CitationRecord, ObservationNotice
    from citeledger.model import Measurement
    from citeledger.page import CitingWork, YearCount

__all__ = ["STYLESHEET", "coverage_line", "render", "svg_bar_chart"]

FACET_BLURB = {
    Facet.REFERENCE_RESOLUTION: "Typed states for the displayed outbound observations.",
    Facet.STANDING_NOTICES: "One-hop event checks from named stored sources.",
    Facet.INBOUND_ITEMIZATION: "Citing papers itemized{cap}.",
    Facet.INBOUND_RESOLUTION: (
        "Citing papers whose own reference list was read and resolved against this paper."
    ),
    Facet.EXTERNAL_CITATION_MEASUREMENTS: (
        "A source-named dated measurement, never combined with another source."
    ),
}

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


def _blurb(record: CitationRecord, facet: Facet) -> str:
    text = FACET_BLURB[facet]
    if facet is Facet.INBOUND_ITEMIZATION:
        cap = (
            " under the disclosed page cap"
            if record.inbound_cap is not None
            else "; no page cap was applied"
        )
        text = text.format(cap=cap)
    return text


def coverage_line(cov: Coverage) -> str:
    """The ledger line of one coverage entry: "measured 8 of 8 inbound itemization"."""
    total = "?" if cov.total is None else f"{cov.total:,}"
    return f"measured {cov.measured:,} of {total} {_facet_title(cov.facet)}"


def _state_line(cov_state: CoverageState, reason: str | None, note: str | None) -> str:
    text = f"State: {cov_state.value.replace('_', ' ')}"
    if reason:
        text += f" ({reason})"
    text += "."
    if note:
        text += f" Note: {note}."
    return text


def _source_line(record: CitationRecord, facet: Facet) -> str:
    cov = record.coverage_of(facet)
    names = ", ".join(cov.sources) if cov.sources else "none"
    text = f"Source: {names}"
    if cov.observed is not None:
        when = cov.observed.isoformat() if facet is Facet.STANDING_NOTICES else _z(cov.observed)
        text += f", observed {when}"
    return text


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


def _notice_lines(notices: dict[str, ObservationNotice], obs: Observation) -> list[str]:
    notice = notices.get(obs.id)
    if notice is None:
        return []
    lines = ["Source-reported events for the cited work", "", notice.check.describe()]
    if notice.after_retraction:
        lines += ["", "This citation was made after the cited work's retraction."]
    return lines


def _cited_title(obs: Observation) -> str:
    target = obs.resolution.target if obs.resolution is not None else None
    paper = target or obs.cited
    return (paper.title if paper is not None else None) or "(unresolved)"


def _ledger_text(record: CitationRecord) -> list[str]:
    # Built once per rendering: per-observation lookups would be quadratic.
    notices, sids = record.notice_index(), record.source_id_index()
    p = record.paper
    out: list[str] = [
        "Paper Citation Record · LEDGER",
        "",
        p.title or f"(no title known for {record.requested})",
        "",
    ]
    out += [
        _as_of(record, record.paper_label),
        "",
        PRINCIPLE,
        "",
        record.schema,
        record.version_label,
        "",
        "Coverage vector",
        "",
    ]
    for facet in _facets(record):
        cov = record.coverage_of(facet)
        out += [
            coverage_line(cov),
            "",
            _blurb(record, facet),
            "",
            _source_line(record, facet),
            "",
            _state_line(cov.state, cov.reason, cov.note),
            "",
        ]
    counts = record.resolution_counts()
    width = max(len(s.state.label) for s in counts) + 2
    out += [
        "Reference resolution",
        "",
        f"{len(record.outbound):,} of {record.outbound_total:,} outbound references displayed",
        "",
    ]
    out += [f"{s.state.label:<{width}}{s.count}" for s in counts]
    out += ["", "External citation measurements", ""]
    if record.measurements:
        for m in record.measurements:
            out += [f"{m.value:,}", f"{m.source}, observed {_z(m.observed)}", ""]
    else:
        out += ["No external citation measurement is available.", ""]
    out += ["Outbound references", ""]
    if not record.outbound:
        out += ["No outbound reference observations are available for this paper version.", ""]
    for obs in record.outbound:
        ref = obs.reference
        label = (
            (ref.raw or ref.title or "(empty reference)")
            if ref is not None
            else "(no reference text)"
        )
        out += [f"Observation {obs.id} · outbound", "", f"Reference {obs.position}: {label}", ""]
        out += [_resolution_line(obs)]
        if obs.resolution is not None and obs.resolution.reason:
            out += [f"Why: {obs.resolution.reason}"]
        if obs.resolution is not None and obs.resolution.target is not None:
            t = obs.resolution.target
            ids = ", ".join(str(i) for i in t.identifiers)
            label = (
                "Identifier points to"
                if obs.state is ResolutionState.METADATA_MISMATCH
                else "Cited work"
            )
            out += [f"{label}: {t.title}" + (f" ({ids})" if ids else "")]
        out += ["", *_notice_lines(notices, obs), ""]
    out += ["Citing papers", ""]
    if not record.inbound:
        out += ["No inbound citation observations are available.", ""]
    for obs in record.inbound:
        sid = sids.get(obs.id)
        title = obs.citing.title or "(untitled citing work)"
        out += [f"Observation {sid or obs.id} · inbound", ""]
        if sid:
            out += [f"Record id {obs.id} (source id above, from {obs.source})", ""]
        out += [f"{title} cites this paper.", "", f"{title} → {_cited_title(obs)}", ""]
        out += [
            f"Reference {obs.position}"
            if obs.position is not None
            else "Reference number not reported",
            "",
        ]
        out += [_resolution_line(obs), ""]
        entry = _entry_line(obs)
        if entry:
            out += [entry, ""]
        flags = _source_flags(obs)
        if flags:
            out += [flags, ""]
        out += [*_notice_lines(notices, obs), ""]
    out += _extras_text(record)
    return out


def _extras_text(record: CitationRecord) -> list[str]:
    out: list[str] = []
    grouped = [w for w in record.citing_works if len(w.observations) > 1]
    out += [
        "Distinct citing works",
        "",
        (
            f"{len(record.citing_works):,} distinct citing works from "
            f"{len(record.inbound):,} inbound observations."
        ),
    ]
    for w in grouped:
        out += [f"- {w.paper.title}: {'; '.join(w.grouping)}"]
    for w in record.citing_works:
        out += [f"- {w.paper.title}: {note}" for note in w.unlinked]
    selfc = record.self_citations
    unknown = sum(1 for w in record.citing_works if w.self_citation is None)
    if selfc:
        for w in selfc:
            out += [
                f"- Self-citation (shared authors: {', '.join(w.shared_authors)}): {w.paper.title}"
            ]
    elif record.citing_works:
        out += [
            f"- No self-citation found; author lists unknown for {unknown:,} citing works."
            if unknown
            else "- No self-citation found."
        ]
    flagged_sc = [o for o in record.inbound if o.author_self_citation]
    if flagged_sc:
        by: dict[str, int] = {}
        for o in flagged_sc:
            by[o.source] = by.get(o.source, 0) + 1
        out += [
            f"- {src} flags {n:,} observations as author self-citations (its own check)."
            for src, n in by.items()
        ]
    out += [""]
    flagged = [n for n in record.notices if n.after_retraction]
    if flagged:
        out += ["Citations made after a retraction", ""]
        out += [f"- Observation {n.observation}: {n.check.describe()}" for n in flagged]
        out += [""]
    if record.disagreements:
        out += ["Disagreements between sources", ""]
        out += [f"- {d.describe()}" for d in record.disagreements]
        out += [""]
    problems = [r for r in record.reports if r.outcome.value not in ("ok", "unsupported")]
    if problems:
        out += ["What could not be measured", ""]
        out += [f"- {r.describe()}" for r in problems]
        out += [""]
    return out


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


def _page_text(record: CitationRecord, sort: CitingSort) -> list[str]:
    out: list[str] = ["Paper page", ""]
    blocks = _page_blocks(record, sort)
    for i, b in enumerate(blocks):
        if b.kind == "chart":
            continue
        if b.kind == "item":
            out.append(f"{b.number:>3}. {b.text}")
        elif b.kind == "more":
            out.append(f"     {b.text}")
        elif b.kind == "small" and i and blocks[i - 1].kind == "para" and out and not out[-1]:
            out[-1] = b.text  # a source note sits right under its fact
        else:
            out.append(b.text)
        following = blocks[i + 1].kind if i + 1 < len(blocks) else ""
        if b.kind not in ("item", "more") or following not in ("item", "more"):
            out.append("")
    return out


def _text(record: CitationRecord, view: str, sort: CitingSort) -> str:
    note = record.status_note
    lines: list[str] = [note, ""] if note else []
    if view in ("ledger", "full"):
        lines += _ledger_text(record)
    if view in ("page", "full"):
        lines += _page_text(record, sort)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- markdown


def _md_escape(text: str) -> str:
    out = text
    for ch in "\\`*_[]<>|#":
        out = out.replace(ch, "\\" + ch)
    return out


def _markdown(record: CitationRecord, view: str, sort: CitingSort) -> str:
    # Built once per rendering: per-observation lookups would be quadratic.
    notices, sids = record.notice_index(), record.source_id_index()
    p = record.paper
    e = _md_escape
    note = record.status_note
    lines = [f"**{e(note)}**", ""] if note else []
    lines += [f"# {e(p.title or record.requested)}", ""]
    lines += [
        f"*{_as_of(record, e(record.paper_label))}*",
        "",
        f"> {PRINCIPLE}",
        "",
        f"`{record.schema}` · `{record.version_label}`",
        "",
    ]
    if view in ("ledger", "full"):
        lines += [
            "## Coverage vector",
            "",
            "| facet | measured | state | sources | observed |",
            "|---|---|---|---|---|",
        ]
        for cov in record.coverage:
            total = "?" if cov.total is None else f"{cov.total:,}"
            state = cov.state.value.replace("_", " ") + (f": {e(cov.reason)}" if cov.reason else "")
            lines.append(
                f"| {_facet_title(cov.facet)} | {cov.measured:,} of {total} | {state} | "
                f"{e(', '.join(cov.sources))} | {_z(cov.observed)} |"
            )
        lines += ["", "## Reference resolution", "", "| state | count |", "|---|---|"]
        lines += [f"| {s.state.label} | {s.count} |" for s in record.resolution_counts()]
        lines += ["", "## External citation measurements", ""]
        lines += [
            f"- **{m.value:,}** · {e(m.source)}, observed {_z(m.observed)}"
            for m in record.measurements
        ] or ["No external citation measurement is available."]
        lines += ["", "## Outbound references", ""]
        if not record.outbound:
            lines.append("No outbound reference observations are available for this paper version.")
        for obs in record.outbound:
            ref = obs.reference
            label = (ref.raw or ref.title or "") if ref is not None else ""
            state = obs.state.label if obs.state else "not resolved"
            lines.append(f"- [{obs.position}] {e(label)} — **{state}**")
        lines += ["", "## Citing papers", ""]
        for obs in record.inbound:
            sid = sids.get(obs.id) or obs.id
            notice = notices.get(obs.id)
            line = _resolution_line(obs).removeprefix("Resolution: ")
            entry = _entry_line(obs)
            lines.append(
                f"- `{sid}` {e(obs.citing.title or '')} — reference "
                f"{obs.position if obs.position is not None else '?'}; {e(line)}. "
                + (f"{e(entry)}. " if entry else "")
                + (e(_source_flags(obs)) + ". " if _source_flags(obs) else "")
                + (e(notice.check.describe()) if notice else "")
            )
        if record.disagreements:
            lines += ["", "## Disagreements between sources", ""]
            lines += [f"- {e(d.describe())}" for d in record.disagreements]
    if view in ("page", "full"):
        lines += ["", "## Paper page", ""]
        for b in _page_blocks(record, sort):
            if b.kind == "title":
                lines += [f"### {e(b.text)}", ""]
            elif b.kind == "head":
                lines += [f"#### {e(b.text)}", ""]
            elif b.kind == "small":
                lines += [f"*{e(b.text)}*", ""]
            elif b.kind == "chart":
                years = record.per_year()
                lines += ["| year | citing papers |", "|---|---|"]
                lines += [f"| {y.year} | {y.count:,} |" for y in years] + [""]
            elif b.kind == "item":
                lines.append(f"{b.number}. {e(b.text)}")
            elif b.kind == "more":
                lines.append(f"   *{e(b.text)}*")
            else:
                if lines and lines[-1] and lines[-1][:1].isdigit():
                    lines.append("")  # end the list
                lines += [e(b.text), ""]
    return "\n".join(lines).rstrip() + "\n"


# ---------------------------------------------------------------------------- html

#: The stylesheet every HTML rendering carries (no external assets; scoped to the record).
#: Text and rules take the page's own colour (``currentColor``, translucent greys) and every
#: background is transparent, so the record reads in light and dark themes alike; the one
#: accent colour lightens when the reader prefers a dark scheme or JupyterLab's theme is dark.
#: In a notebook, JupyterLab's rendered-HTML rules (``:not(.jp-RenderedMarkdown)
#: .jp-RenderedHTMLCommon td`` right-aligns every cell, headings drop to weight 500, tables get
#: a fixed layout and zebra rows) outrank one class, so the table rules double the class.
STYLESHEET = """\
.citeledger-record{--cl-accent:#3566b8;--cl-rule:rgba(127,127,127,.35);\
--cl-faint:rgba(127,127,127,.12);color:inherit;background:transparent;\
font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;\
max-width:60rem;overflow-wrap:break-word}
.citeledger-record .cl-wrap{overflow-wrap:anywhere}
@media (prefers-color-scheme:dark){.citeledger-record{--cl-accent:#7ea6ec}}
[data-jp-theme-light=false] .citeledger-record{--cl-accent:#7ea6ec}
.citeledger-record h2{font-size:1.45em;line-height:1.2;margin:.1em 0 .3em;font-weight:600}
.citeledger-record h3{font-size:1.05em;margin:1.4em 0 .4em;padding-bottom:.15em;\
border-bottom:1px solid var(--cl-rule);font-weight:600;line-height:1.3}
.citeledger-record h4{font-size:1em;font-weight:600;margin:1em 0 .3em}
.citeledger-record .cl-kicker,.citeledger-record .cl-muted{opacity:.72;font-size:.86em;margin:0}
.citeledger-record .cl-meta{margin:.1em 0 .5em}
.citeledger-record blockquote{margin:.6em 0;padding:.1em .8em;\
border-left:3px solid var(--cl-accent)}
.citeledger-record.citeledger-record table{border-collapse:collapse;margin:.3em 0;font-size:.93em;\
table-layout:auto;color:inherit}
.citeledger-record .cl-table{overflow-x:auto;max-width:100%}
.citeledger-record table.cl-ranked,.citeledger-record table.cl-coverage{width:100%}
.citeledger-record.citeledger-record th,.citeledger-record.citeledger-record td{\
text-align:left;vertical-align:top;line-height:inherit;\
padding:.28em .6em .28em 0;border-bottom:1px solid var(--cl-rule);background:transparent}
.citeledger-record.citeledger-record tbody tr{background:transparent}
.citeledger-record.citeledger-record thead th{font-weight:600;border-bottom-width:2px}
.citeledger-record.citeledger-record td.cl-n,.citeledger-record.citeledger-record th.cl-n{\
text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.citeledger-record thead th.cl-n{white-space:normal}
.citeledger-record tr.cl-zero td{opacity:.55}
.citeledger-record .cl-state{display:inline-block;padding:0 .45em;border-radius:.7em;\
border:1px solid var(--cl-rule);font-size:.85em;white-space:nowrap}
.citeledger-record .cl-complete{border-color:var(--cl-accent)}
.citeledger-record .cl-unavailable{border-style:dashed}
.citeledger-record .cl-chart{display:block;max-width:100%;height:auto;margin:.4em 0}
.citeledger-record .cl-chart .cl-bar{fill:var(--cl-accent)}
.citeledger-record .cl-chart .cl-bar.cl-partial{fill-opacity:.4;stroke:var(--cl-accent);\
stroke-dasharray:3 2}
.citeledger-record .cl-chart .cl-grid{stroke:var(--cl-rule)}
.citeledger-record details{margin:.5em 0;padding:.2em .6em;border:1px solid var(--cl-rule);\
border-radius:4px}
.citeledger-record summary{cursor:pointer;font-weight:600}
.citeledger-record .cl-observation{padding:.35em 0;border-bottom:1px solid var(--cl-faint)}
.citeledger-record .cl-observation p{margin:.1em 0}
.citeledger-record code{font-size:.9em}
"""


def _nice_step(top: int, ticks: int = 4) -> int:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks`` gridlines."""
    raw = max(1.0, top / ticks)
    power: int = 10 ** (len(str(int(raw))) - 1)
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def svg_bar_chart(
    years: tuple[YearCount, ...],
    *,
    title: str = "Citing papers per year",
    partial_through: dt.date | None = None,
) -> str:
    """An inline SVG bar chart of per-year counts, with a y-axis and labelled bars.

    Zero years are drawn as empty slots. When ``partial_through`` falls in the last year shown
    (and is not its last day), that bar is drawn hatched and labelled as partial.

    .. versionchanged:: 0.1.0
       A y-axis with gridlines, ``partial_through``.
    """
    if not years:
        return ""
    # Wide slots for a short series, so a few years do not make a thumbnail.
    slot = max(40, min(72, 480 // len(years)))
    left, right, top_pad, bottom = 48, 10, 18, 34
    width = left + slot * len(years) + right
    height = 240
    gap = round(slot * 0.16)
    plot_h = height - top_pad - bottom
    last = years[-1].year
    partial = (
        partial_through is not None
        and partial_through.year == last
        and (partial_through.month, partial_through.day) != (12, 31)
    )
    peak = max(y.count for y in years)
    step = _nice_step(peak)
    axis_top = max(step, -(-peak // step) * step)

    def y_of(value: int) -> float:
        return top_pad + plot_h * (1 - value / axis_top)

    desc = f"{title}, {years[0].year}-{last}" + (
        f"; {last} to {_short_date(partial_through)} only" if partial and partial_through else ""
    )
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" '
            f'height="{height}" viewBox="0 0 {width} {height}" class="cl-chart" '
            f'font-family="inherit" font-size="11" fill="currentColor">'
        ),
        f"<title>{html.escape(desc)}</title>",
    ]
    tick = 0
    while tick <= axis_top:
        gy = round(y_of(tick), 1)
        parts.append(
            f'<line class="cl-grid" x1="{left}" x2="{width - right}" y1="{gy}" y2="{gy}" '
            f'stroke="currentColor" stroke-opacity=".25" stroke-width="1"/>'
        )
        parts.append(
            f'<text x="{left - 6}" y="{gy + 3.5}" text-anchor="end" opacity=".75">{tick:,}</text>'
        )
        tick += step
    for i, y in enumerate(years):
        x = left + i * slot
        bar_h = round(plot_h * y.count / axis_top, 1)
        y0 = round(top_pad + plot_h - bar_h, 1)
        is_partial = partial and y.year == last
        label = f"{y.year}: {y.count:,}"
        if is_partial and partial_through is not None:
            label += f" (partial year, to {_short_date(partial_through)})"
        cls = "cl-bar cl-partial" if is_partial else "cl-bar"
        extra = ' fill-opacity=".4"' if is_partial else ""
        parts.append(
            f'<rect class="{cls}" x="{x + gap}" y="{y0}" width="{slot - 2 * gap}" height="{bar_h}" '
            f'fill="#3566b8"{extra}><title>{html.escape(label)}</title></rect>'
        )
        parts.append(
            f'<text x="{x + slot / 2}" y="{y0 - 4}" text-anchor="middle">{y.count:,}</text>'
        )
        parts.append(
            f'<text x="{x + slot / 2}" y="{height - bottom + 15}" text-anchor="middle">'
            f"{y.year}</text>"
        )
        if is_partial:
            parts.append(
                f'<text x="{x + slot / 2}" y="{height - bottom + 28}" text-anchor="middle" '
                f'font-size="9.5" opacity=".75">partial</text>'
            )
    base = top_pad + plot_h
    parts.append(
        f'<line x1="{left}" x2="{width - right}" y1="{base}" y2="{base}" '
        f'stroke="currentColor" stroke-width="1"/>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _state_badge(state: CoverageState) -> str:
    return (
        f'<span class="cl-state cl-{state.value}">'
        f"{html.escape(state.value.replace('_', ' '))}</span>"
    )


def _counts_by_source(record: CitationRecord) -> list[str]:
    """Each source's own numbers side by side: never added up across sources."""
    names: list[str] = []
    for r in record.reports:
        if r.source not in names:
            names.append(r.source)
    # The same per-source "cited by" figures the page's fact line names (record.citing_counts):
    # a source's own count, else the total its citation listing announced.
    cited = {m.source: m for m in record.citing_counts()}
    inbound: dict[str, int] = {}
    for o in record.inbound:
        inbound[o.source] = inbound.get(o.source, 0) + 1
    outbound: dict[str, int] = {}
    for o in record.outbound:
        outbound[o.source] = outbound.get(o.source, 0) + 1
    names += [m.source for m in cited.values() if m.source not in names and m.source != ITEMIZED]
    h = html.escape
    rows = [
        (
            '<div class="cl-table"><table class="cl-sources">'
            '<thead><tr><th>source</th><th class="cl-n">cited by</th>'
            '<th class="cl-n">citing papers itemized</th><th class="cl-n">references listed</th>'
            "<th>observed</th></tr></thead><tbody>"
        )
    ]
    for name in names:
        got = cited.get(name)
        rows.append(
            f"<tr><th>{h(name)}</th>"
            f'<td class="cl-n">{f"{got.value:,}" if got is not None else "–"}</td>'
            f'<td class="cl-n">{inbound.get(name, 0):,}</td>'
            f'<td class="cl-n">{outbound.get(name, 0):,}</td>'
            f"<td>{h(_short_date(got.observed.date())) if got is not None else ''}</td></tr>"
        )
    rows.append("</tbody></table></div>")
    rows.append(
        f'<p class="cl-muted">{len(record.citing_works):,} distinct citing works from '
        f"{len(record.inbound):,} inbound observations; counts of different sources are shown "
        "side by side, never combined.</p>"
    )
    return rows


def _coverage_table(record: CitationRecord) -> list[str]:
    h = html.escape
    out = [
        (
            '<div class="cl-table"><table class="cl-coverage">'
            '<thead><tr><th>facet</th><th class="cl-n">measured</th>'
            "<th>state</th><th>sources</th><th>why</th></tr></thead><tbody>"
        )
    ]
    for facet in _facets(record):
        cov = record.coverage_of(facet)
        total = "?" if cov.total is None else f"{cov.total:,}"
        why = "; ".join(x for x in (cov.reason, cov.note) if x)
        out.append(
            f"<tr><th>{h(_facet_title(facet))}</th>"
            f'<td class="cl-n">{cov.measured:,} of {total}</td>'
            f"<td>{_state_badge(cov.state)}</td>"
            f"<td>{h(', '.join(cov.sources)) or '–'}</td>"
            f'<td class="cl-wrap">{h(why)}</td></tr>'
        )
    out.append("</tbody></table></div>")
    return out


def _states_table(record: CitationRecord) -> list[str]:
    out = [
        (
            '<div class="cl-table"><table class="cl-states">'
            "<thead><tr><th>resolution state</th>"
            '<th class="cl-n">outbound references</th></tr></thead><tbody>'
        )
    ]
    for s in record.resolution_counts():
        zero = ' class="cl-zero"' if s.count == 0 else ""
        out.append(
            f'<tr{zero}><td>{html.escape(s.state.label)}</td><td class="cl-n">{s.count:,}</td></tr>'
        )
    out.append("</tbody></table></div>")
    return out


def _observation_blocks(record: CitationRecord) -> list[str]:
    # Built once per rendering: per-observation lookups would be quadratic.
    notices, sids = record.notice_index(), record.source_id_index()
    h = html.escape
    out: list[str] = []
    if record.outbound:
        out.append(
            f"<details><summary>Outbound references ({len(record.outbound):,} of "
            f"{record.outbound_total:,})</summary><ol>"
        )
        for obs in record.outbound:
            ref = obs.reference
            label = (ref.raw or ref.title or "") if ref is not None else ""
            state = obs.state.label if obs.state else "not resolved"
            out.append(f'<li value="{obs.position or 0}">{h(label)} <em>{h(state)}</em></li>')
        out.append("</ol></details>")
    else:
        out.append(
            "<p>No outbound reference observations are available for this paper version.</p>"
        )
    if record.inbound:
        out.append(
            f"<details><summary>Inbound citation observations ({len(record.inbound):,})</summary>"
        )
        for obs in record.inbound:
            sid = sids.get(obs.id) or obs.id
            notice = notices.get(obs.id)
            out.append(
                f'<div class="cl-observation"><p class="cl-muted">Observation {h(sid)} · '
                f"inbound</p><p>{h(obs.citing.title or '')} cites this paper.</p>"
                + (
                    f"<p>Reference {obs.position}</p>"
                    if obs.position is not None
                    else "<p>Reference number not reported</p>"
                )
                + f"<p>{h(_resolution_line(obs))}</p>"
                + (f"<p>{h(entry)}</p>" if (entry := _entry_line(obs)) else "")
                + (
                    f'<p class="cl-source-flags">{h(_source_flags(obs))}</p>'
                    if _source_flags(obs)
                    else ""
                )
                + (f"<p>{h(notice.check.describe())}</p>" if notice else "")
                + "</div>"
            )
        out.append("</details>")
    return out


def _page_section(blocks: list[_Block]) -> list[str]:
    """The paper page's facts (the blocks the text and Markdown views print) as HTML.

    The title is the page's ``<h2>`` and the chart blocks open the page view (first viewport),
    so neither is drawn again here; the ranked citing papers are a table.
    """
    h = html.escape
    out = ['<section class="cl-page">']
    in_table = False
    for b in blocks:
        if b.kind in ("item", "more") and not in_table:
            out.append("<h3>Most cited citing papers</h3>")
            out.append(
                '<div class="cl-table"><table class="cl-ranked"><thead><tr>'
                '<th class="cl-n">#</th><th>citing paper</th></tr></thead><tbody>'
            )
            in_table = True
        elif b.kind not in ("item", "more") and in_table:
            out.append("</tbody></table></div>")
            in_table = False
        if b.kind == "title" or b.chart:
            continue
        if b.kind == "head":
            out.append(f"<h4>{h(b.text)}</h4>")
        elif b.kind == "small":
            out.append(f'<p class="cl-muted">{h(b.text)}</p>')
        elif b.kind == "item":
            out.append(
                f'<tr data-areas="{h(b.areas)}"><td class="cl-n">{b.number}</td>'
                f'<td class="cl-wrap">{h(b.text)}</td></tr>'
            )
        elif b.kind == "more":
            out.append(f'<tr class="cl-more"><td></td><td class="cl-muted">{h(b.text)}</td></tr>')
        else:
            out.append(f"<p>{h(b.text)}</p>")
    if in_table:
        out.append("</tbody></table></div>")
    out.append("</section>")
    return out


def _html(record: CitationRecord, view: str, sort: CitingSort) -> str:
    h = html.escape
    p = record.paper
    out = ['<div class="citeledger-record">']
    note = record.status_note
    if note:  # first, before the stylesheet: the first thing a reader (or a grep) meets
        out.append(f'<p class="citeledger-nothing-measured"><strong>{h(note)}</strong></p>')
    out.append(f"<style>{STYLESHEET}</style>")
    out.append(
        f'<p class="cl-kicker">Paper Citation Record · <code>{h(record.schema)}</code> · '
        f"{h(record.version_label)}</p>"
    )
    out.append(f"<h2>{h(p.title or record.requested)}</h2>")
    meta = [h(record.paper_label)]
    if p.authors:
        names = [a.raw or " ".join(x for x in (a.given, a.family) if x) for a in p.authors]
        meta.append(h(", ".join(names[:6]) + (" et al." if len(names) > 6 else "")))
    if p.date is not None:
        meta.append(f"first posted {h(_short_date(p.date))}")
    elif p.year is not None:
        meta.append(str(p.year))
    # Every headline count names whose figure it is (never a maximum or a sum).
    counts = record.citing_counts()
    meta += (
        [f"cited by {m.value:,} ({h(m.source)})" for m in counts]
        if counts
        else [f"cited by {h(_citing_total(record))}"]
    )
    out.append(f'<p class="cl-meta">{" · ".join(meta)}</p>')
    out.append(f'<p class="cl-muted">{_as_of(record, h(record.paper_label))}</p>')
    if view in ("page", "full"):
        out.append("<h3>Counts by source</h3>")
        out += _counts_by_source(record)
        blocks = _page_blocks(record, sort)
        # The chart opens the page (first viewport); the other facts follow in order.
        for b in blocks:
            if not b.chart:
                continue
            if b.kind == "head":
                out.append(f"<h3>{h(b.text)}</h3>")
            elif b.kind == "chart":
                out.append(svg_bar_chart(record.per_year(), partial_through=record.data_through))
            else:
                out.append(f'<p class="cl-muted">{h(b.text)}</p>')
        out += _page_section(blocks)
    out.append("<h3>Coverage</h3>")
    out += _coverage_table(record)
    if view in ("ledger", "full"):
        out.append("<h3>Reference resolution</h3>")
        out += _states_table(record)
        out.append("<h3>External citation measurements</h3>")
        if record.measurements:
            out.append("<ul>")
            out += [
                f"<li><strong>{m.value:,}</strong> {h(m.source)}, observed {h(_z(m.observed))}</li>"
                for m in record.measurements
            ]
            out.append("</ul>")
        else:
            out.append("<p>No external citation measurement is available.</p>")
        out.append("<h3>Observations</h3>")
        out += _observation_blocks(record)
        if record.disagreements:
            out.append("<h3>Disagreements between sources</h3><ul>")
            out += [f"<li>{h(d.describe())}</li>" for d in record.disagreements]
            out.append("</ul>")
        problems = [r for r in record.reports if r.outcome.value not in ("ok", "unsupported")]
        if problems:
            out.append("<h3>What could not be measured</h3><ul>")
            out += [f"<li>{h(r.describe())}</li>" for r in problems]
            out.append("</ul>")
    out.append("</div>")
    return "\n".join(out) + "\n"


def render(
    record: CitationRecord, fmt: str = "text", *, view: str = "full", sort: str = "citations"
) -> str:
    """Render ``record`` as "text", "markdown" or "html"; ``view`` is "ledger", "page" or "full".

    ``sort`` orders the page's citing papers (:class:`~citeledger.ledger.CitingSort`); every
    view says which order it used. The three formats carry the same page facts.
    """
    if view not in ("ledger", "page", "full"):
        raise ValueError(f"view must be 'ledger', 'page' or 'full', got {view!r}")
    order = CitingSort(sort)
    if fmt == "text":
        return _text(record, view, order)
    if fmt == "markdown":
        return _markdown(record, view, order)
    if fmt == "html":
        return _html(record, view, order)
    raise ValueError(f"format must be 'text', 'markdown' or 'html', got {fmt!r}")
