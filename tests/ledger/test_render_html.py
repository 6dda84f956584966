"""The HTML look: page view first, observations folded, one self-contained stylesheet, the chart."""

from __future__ import annotations

import datetime as dt
import re

import pytest

import citeledger as cl
from citeledger.ledger._render_html import STYLESHEET, _nice_step, svg_bar_chart
from citeledger.page import YearCount
from citeledger.sources.sample import SampleSource

ZERO = "arXiv:1910.02054"
DEMO = "doi:10.5555/citeledger.sample.0001"


@pytest.fixture(scope="module")
def records() -> dict[str, cl.CitationRecord]:
    sample = SampleSource()
    return {
        i: cl.build_record(
            i,
            [sample],
            now=sample.as_of(i),
            inbound_cap=100,
            resolver=cl.Resolver(sample.catalog()),
        )
        for i in (ZERO, DEMO)
    }


def test_full_view_opens_with_the_page_and_folds_the_observations(
    records: dict[str, cl.CitationRecord],
) -> None:
    page = records[ZERO].render("html")
    assert page == records[ZERO]._repr_html_()
    order = [
        "<h2>ZeRO: Memory Optimizations",
        "<h3>Counts by source</h3>",
        '<svg xmlns="http://www.w3.org/2000/svg"',
        "<h3>Most cited citing papers</h3>",
        "<h3>Coverage</h3>",
        "<h3>Reference resolution</h3>",
        "<details><summary>Inbound citation observations (50)</summary>",
    ]
    positions = [page.index(marker) for marker in order]
    assert positions == sorted(positions)
    # Every observation block is inside the fold, and the fold starts closed.
    folded = page[page.index("<details>") :]
    assert page.count('class="cl-observation"') == folded.count('class="cl-observation"') == 50
    assert "<details open" not in page


def test_tables_for_sources_states_coverage_and_ranking(
    records: dict[str, cl.CitationRecord],
) -> None:
    page = records[ZERO].render("html")
    sources = re.search(r'<table class="cl-sources">.*?</table>', page, flags=re.DOTALL)
    assert sources
    assert "<th>mlsanity</th>" in sources.group()
    assert '<td class="cl-n">1,301</td>' in sources.group()
    coverage = re.search(r'<table class="cl-coverage">.*?</table>', page, flags=re.DOTALL)
    assert coverage
    assert coverage.group().count("<tr>") == 1 + len(cl.Facet)
    assert '<span class="cl-state cl-partial">partial</span>' in coverage.group()
    ranked = re.search(r'<table class="cl-ranked">.*?</table>', page, flags=re.DOTALL)
    assert ranked
    assert ranked.group().count("<tr data-areas=") == len(records[ZERO].ranked_citing())
    demo = records[DEMO].render("html")
    states = re.search(r'<table class="cl-states">.*?</table>', demo, flags=re.DOTALL)
    assert states
    assert '<td>metadata mismatch</td><td class="cl-n">1</td>' in states.group()


def test_views_keep_their_parts(records: dict[str, cl.CitationRecord]) -> None:
    ledger = records[ZERO].render("html", view="ledger")
    assert "<svg" not in ledger
    assert 'class="cl-observation"' in ledger
    page = records[ZERO].render("html", view="page")
    assert "<svg" in page
    assert 'class="cl-observation"' not in page
    assert "<h3>Coverage</h3>" in page


def test_one_small_self_contained_stylesheet(records: dict[str, cl.CitationRecord]) -> None:
    page = records[ZERO].render("html")
    assert page.count("<style>") == 1
    assert STYLESHEET in page
    assert len(STYLESHEET) < 4000
    for external in ("url(", "@import", "<link", "http://", "https://", "@font-face"):
        assert external not in STYLESHEET
    assert "<script" not in page
    # Readable in light and dark themes: no fixed backgrounds, a dark-scheme accent.
    assert "prefers-color-scheme:dark" in STYLESHEET
    assert "[data-jp-theme-light=false]" in STYLESHEET
    assert "background:transparent" in STYLESHEET
    assert not re.search(r"background(-color)?:\s*#", STYLESHEET)
    assert 'fill="currentColor"' in page  # the chart's text takes the theme's colour


def test_chart_has_a_y_axis_labelled_bars_and_a_partial_year() -> None:
    years = (
        YearCount(year=2024, count=350),
        YearCount(year=2025, count=439),
        YearCount(year=2026, count=405),
    )
    svg = svg_bar_chart(years, partial_through=dt.date(2026, 10, 14))
    ticks = re.findall(r'<text x="[\d.]+" y="[\d.]+" text-anchor="end"[^>]*>([\d,]+)</text>', svg)
    assert ticks == ["0", "200", "400", "600"]  # round steps up past the highest bar
    assert svg.count("<rect") == 3
    assert svg.count('class="cl-bar cl-partial"') == 1
    assert "<title>2026: 405 (partial year, to 14 Oct 2026)</title>" in svg
    assert "<title>2025: 439</title>" in svg
    assert ">partial</text>" in svg
    for value in ("350", "439", "405"):  # each bar carries its value
        assert f'text-anchor="middle">{value}</text>' in svg
    # A year that ran to its last day is complete, and an earlier "through" marks nothing.
    for through in (dt.date(2026, 12, 31), dt.date(2025, 6, 1), None):
        assert "cl-partial" not in svg_bar_chart(years, partial_through=through)


@pytest.mark.parametrize(
    ("top", "step"), [(0, 1), (3, 1), (8, 2), (439, 200), (1301, 500), (99_999, 50_000)]
)
def test_nice_steps(top: int, step: int) -> None:
    assert _nice_step(top) == step


def test_repr_is_one_short_line(records: dict[str, cl.CitationRecord]) -> None:
    text = repr(records[DEMO])
    assert "\n" not in text
    assert len(text) < 600
    assert text.startswith("CitationRecord(paper='doi:10.5555/citeledger.sample.0001', title=")
    assert "outbound=12/12" in text
    assert "verified_exact=6" in text
    assert "metadata_mismatch=1" in text
    assert "reference_resolution=complete" in text
    assert len(repr(records[ZERO])) < 600
