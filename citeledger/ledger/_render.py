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
from citeledger.model import Coverage, CoverageState, Facet, Observation, ResolutionState

if TYPE_CHECKING:
    import datetime as dt

    from citeledger.ledger.record import CitationRecord, ObservationNotice
    from citeledger.model import Measurement
    from citeledger.page import CitingWork, YearCount

__all__ = ["coverage_line", "render", "svg_bar_chart"]

FACET_BLURB = {
    Facet.REFERENCE_RESOLUTION: "Typed states for the displayed outbound observations.",
    Facet.STANDING_NOTICES: "One-hop event checks from named stored sources.",
    Facet.INBOUND_ITEMIZATION: "Citing papers itemized{cap}.",
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


def _resolution_line(obs: Observation) -> str:
    res = obs.resolution
    if res is None:
        return f"Resolution: not reported by the source, observed {_z(obs.observed)}"
    # No method means nothing linked the reference to a work: the seed's "no resolver link".
    method = res.method.label if res.method is not None else "no resolver link"
    return f"Resolution: {res.state.label}; {method}, observed {_z(obs.observed)}"


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
    for facet in Facet:
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
    head of the list) or "chart" (where HTML draws its per-year chart; no text).
    """

    kind: str
    text: str
    number: int = 0
    areas: str = ""


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
            _Block("head", head),
            _Block("chart", ""),
            _Block("para", _per_year_line(years)),
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
        total = f"{record.citing_total:,} ({_total_whose(record)})"
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
    lines: list[str] = []
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
    lines = [f"# {e(p.title or record.requested)}", ""]
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
            state = obs.state.label if obs.state else "not reported"
            method = obs.method.label if obs.method else ""
            lines.append(
                f"- `{sid}` {e(obs.citing.title or '')} — reference "
                f"{obs.position if obs.position is not None else '?'}; "
                f"{state}; {e(method)}, observed {_z(obs.observed)}. "
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


def svg_bar_chart(years: tuple[YearCount, ...], *, title: str = "Citing papers per year") -> str:
    """An inline SVG bar chart of per-year counts (zero years drawn as empty slots)."""
    if not years:
        return ""
    width, height, pad, label_h = 40 * len(years) + 20, 180, 10, 30
    top = max(y.count for y in years) or 1
    plot_h = height - label_h - pad * 2
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" '
            f'height="{height}" viewBox="0 0 {width} {height}" class="cl-chart">'
        ),
        f"<title>{html.escape(title)}</title>",
    ]
    for i, y in enumerate(years):
        bar_h = round(plot_h * y.count / top)
        x = pad + i * 40
        y0 = pad + 14 + (plot_h - bar_h)
        parts.append(
            f'<rect x="{x + 4}" y="{y0}" width="28" height="{bar_h}" fill="#4a6fa5">'
            f"<title>{y.year}: {y.count:,}</title></rect>"
        )
        parts.append(
            f'<text x="{x + 18}" y="{y0 - 3}" font-size="10" '
            f'text-anchor="middle">{y.count:,}</text>'
        )
        parts.append(
            f'<text x="{x + 18}" y="{height - 8}" font-size="11" '
            f'text-anchor="middle">{y.year}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _html(record: CitationRecord, view: str, sort: CitingSort) -> str:
    # Built once per rendering: per-observation lookups would be quadratic.
    notices, sids = record.notice_index(), record.source_id_index()
    h = html.escape
    p = record.paper
    out = ['<div class="citeledger-record">']
    out.append(
        f"<p><small>Paper Citation Record · LEDGER · <code>{h(record.schema)}</code> · "
        f"{h(record.version_label)}</small></p>"
    )
    out.append(f"<h2>{h(p.title or record.requested)}</h2>")
    out.append(f"<p>{_as_of(record, h(record.paper_label))}</p>")
    out.append(f"<blockquote>{h(PRINCIPLE)}</blockquote>")
    if view in ("ledger", "full"):
        out.append("<h3>Coverage vector</h3><ul>")
        for facet in Facet:
            cov = record.coverage_of(facet)
            out.append(
                f"<li><strong>{h(coverage_line(cov))}</strong><br>{h(_blurb(record, facet))}<br>"
                f"{h(_source_line(record, facet))}<br>"
                f"{h(_state_line(cov.state, cov.reason, cov.note))}</li>"
            )
        out.append("</ul><h3>Reference resolution</h3><table><tbody>")
        out += [
            f"<tr><th>{h(s.state.label)}</th><td>{s.count}</td></tr>"
            for s in record.resolution_counts()
        ]
        out.append("</tbody></table><h3>External citation measurements</h3><ul>")
        out += [
            f"<li><strong>{m.value:,}</strong> {h(m.source)}, observed {h(_z(m.observed))}</li>"
            for m in record.measurements
        ]
        out.append("</ul><h3>Outbound references</h3>")
        if not record.outbound:
            out.append(
                "<p>No outbound reference observations are available for this paper version.</p>"
            )
        else:
            out.append("<ol>")
            for obs in record.outbound:
                ref = obs.reference
                label = (ref.raw or ref.title or "") if ref is not None else ""
                state = obs.state.label if obs.state else "not resolved"
                out.append(f'<li value="{obs.position or 0}">{h(label)} <em>{h(state)}</em></li>')
            out.append("</ol>")
        out.append("<h3>Citing papers</h3>")
        for obs in record.inbound:
            sid = sids.get(obs.id) or obs.id
            notice = notices.get(obs.id)
            out.append(
                f'<div class="cl-observation"><p><small>Observation {h(sid)} · inbound</small></p>'
                f"<p>{h(obs.citing.title or '')} cites this paper.</p>"
                + (
                    f"<p>Reference {obs.position}</p>"
                    if obs.position is not None
                    else "<p>Reference number not reported</p>"
                )
                + f"<p>{h(_resolution_line(obs))}</p>"
                + (
                    f'<p class="cl-source-flags">{h(_source_flags(obs))}</p>'
                    if _source_flags(obs)
                    else ""
                )
                + (f"<p>{h(notice.check.describe())}</p>" if notice else "")
                + "</div>"
            )
        if record.disagreements:
            out.append("<h3>Disagreements between sources</h3><ul>")
            out += [f"<li>{h(d.describe())}</li>" for d in record.disagreements]
            out.append("</ul>")
    if view in ("page", "full"):
        out.append('<section class="cl-page">')
        in_list = False
        for b in _page_blocks(record, sort):
            if b.kind in ("item", "more") and not in_list:
                out.append('<ol class="cl-citing">')
                in_list = True
            elif b.kind not in ("item", "more") and in_list:
                out.append("</ol>")
                in_list = False
            if b.kind == "title":
                out.append(f'<h3 class="cl-page-title">{h(b.text)}</h3>')
            elif b.kind == "head":
                out.append(f"<h4>{h(b.text)}</h4>")
            elif b.kind == "small":
                out.append(f"<p><small>{h(b.text)}</small></p>")
            elif b.kind == "chart":
                out.append(svg_bar_chart(record.per_year()))
            elif b.kind == "item":
                out.append(f'<li value="{b.number}" data-areas="{h(b.areas)}">{h(b.text)}</li>')
            elif b.kind == "more":
                out.append(f'<li class="cl-more">{h(b.text)}</li>')
            else:
                out.append(f"<p>{h(b.text)}</p>")
        if in_list:
            out.append("</ol>")
        out.append("</section>")
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
