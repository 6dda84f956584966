"""The HTML rendering of a :class:`~citeledger.CitationRecord`.

HTML is built with :func:`html.escape` on every value, carries one small stylesheet
(:data:`STYLESHEET`) and draws citations per year as an inline SVG bar chart
(:func:`svg_bar_chart`, no plotting dependency).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from citeledger.ledger._parts import _z
from citeledger.ledger._render_page import (
    _as_of,
    _citing_total,
    _entry_line,
    _facet_title,
    _facets,
    _page_blocks,
    _resolution_line,
    _short_date,
    _source_flags,
)
from citeledger.ledger.record import ITEMIZED

if TYPE_CHECKING:
    import datetime as dt

    from citeledger.ledger._render_page import _Block
    from citeledger.ledger.record import CitationRecord, CitingSort
    from citeledger.model import CoverageState
    from citeledger.page import YearCount

__all__ = ["STYLESHEET", "svg_bar_chart"]

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
