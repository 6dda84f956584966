"""The text and Markdown renderings of a :class:`~citeledger.CitationRecord`.

The text form follows the layout of the paper citation record the project was seeded with
(title, the "As of ..." sentence, the principle, the schema tag and id/version, the coverage
vector, the reference-resolution table, external measurements, outbound references and citing
papers), then the paper page (cited by year, ranked citing papers, area note). Times of
observations and measurements print with ``Z``; notice-check times print as the check reports
them (``+00:00``), as in the seed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citeledger.ledger._parts import _z
from citeledger.ledger._render_page import (
    _as_of,
    _entry_line,
    _facet_title,
    _facets,
    _page_blocks,
    _resolution_line,
    _source_flags,
)
from citeledger.ledger.record import PRINCIPLE
from citeledger.model import Coverage, CoverageState, Facet, ResolutionState

if TYPE_CHECKING:
    from citeledger.ledger.record import CitationRecord, CitingSort, ObservationNotice
    from citeledger.model import Observation

__all__ = ["coverage_line"]

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
