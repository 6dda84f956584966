"""Record output: JSON + schema, renderings (text, markdown, HTML + SVG), rows, pandas."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import jsonschema
import pytest

import citeledger as cl
from citeledger.errors import DeserializationError
from citeledger.frames import CITING_PAPER_COLUMNS, OBSERVATION_COLUMNS, observation_rows
from citeledger.ledger import PRINCIPLE, SCHEMA
from citeledger.ledger._render_html import svg_bar_chart
from citeledger.page import YearCount
from citeledger.sources.sample import DEMO, ZERO, ZERO_INFINITY, SampleSource
from citeledger.testing import FakeSource

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def records() -> dict[str, cl.CitationRecord]:
    s = SampleSource()
    return {
        pid: cl.build_record(
            pid, [s], now=s.as_of(pid), resolver=cl.Resolver(s.catalog()), inbound_cap=100
        )
        for pid in (ZERO_INFINITY, ZERO, DEMO)
    }


def test_json_round_trip_and_tag(records: dict[str, cl.CitationRecord]) -> None:
    for rec in records.values():
        text = rec.to_json()
        data = json.loads(text)
        assert next(iter(data)) == "schema"
        assert data["schema"] == "citeledger.paper-citation-record.v1"
        assert cl.CitationRecord.from_json(text) == rec


def test_from_json_rejects_wrong_tag_and_garbage(records: dict[str, cl.CitationRecord]) -> None:
    data = json.loads(records[ZERO_INFINITY].to_json())
    data["schema"] = "pith.paper-citation-record.v1"
    with pytest.raises(DeserializationError, match="schema"):
        cl.CitationRecord.from_json(json.dumps(data))
    with pytest.raises(DeserializationError):
        cl.CitationRecord.from_json("{not json")
    data["schema"] = SCHEMA
    data["inbound"][0]["observed"] = "2026-05-24T12:14:26"  # naive time
    with pytest.raises(DeserializationError):
        cl.CitationRecord.from_json(json.dumps(data))


def test_output_validates_against_json_schema(records: dict[str, cl.CitationRecord]) -> None:
    schema = cl.CitationRecord.json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for rec in records.values():
        validator.validate(json.loads(rec.to_json()))
    bad = json.loads(records[ZERO_INFINITY].to_json())
    bad["coverage"][0]["state"] = "mostly fine"
    assert list(validator.iter_errors(bad))
    bad = json.loads(records[ZERO_INFINITY].to_json())
    bad["surprise"] = 1
    assert list(validator.iter_errors(bad))


def test_docs_schema_is_current() -> None:
    path = DOCS / "citation-record.schema.json"
    assert json.loads(path.read_text(encoding="utf-8")) == cl.CitationRecord.json_schema(), (
        "regenerate: python -m citeledger.ledger._schema > docs/citation-record.schema.json"
    )


def test_html_has_svg_chart_and_escapes(records: dict[str, cl.CitationRecord]) -> None:
    page = records[ZERO].render("html")
    assert page.count("<svg") == 1
    assert "</svg>" in page
    assert page.count("<rect") == 6  # 2021..2026
    assert "<title>2024: 350</title>" in page
    nasty = cl.Paper(identifiers=["doi:10.1234/x"], title='<script>alert("x")</script> & co')
    rec = cl.build_record(
        "doi:10.1234/x",
        [FakeSource(name="one", papers=[nasty], capabilities=[cl.Capability.PAPER])],
        now=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
    )
    out = rec.render("html")
    assert "<script>" not in out
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co" in out
    assert rec._repr_html_() == out


def test_svg_keeps_zero_years() -> None:
    svg = svg_bar_chart(
        (
            YearCount(year=2020, count=3),
            YearCount(year=2021, count=0),
            YearCount(year=2022, count=1),
        )
    )
    assert svg.count("<rect") == 3
    assert "<title>2021: 0</title>" in svg
    assert svg_bar_chart(()) == ""


def test_markdown(records: dict[str, cl.CitationRecord]) -> None:
    md = records[DEMO]._repr_markdown_()
    assert "| metadata mismatch | 1 |" in md
    assert "| verified exact | 6 |" in md
    assert (
        "> A citation records a reference. It does not transfer a finding from one paper to another."
        in md
    )
    zero_md = records[ZERO].render("markdown")
    assert "| 2025 | 439 |" in zero_md
    assert "50 most cited of 1,301" in zero_md


def test_render_rejects_unknown_format(records: dict[str, cl.CitationRecord]) -> None:
    with pytest.raises(ValueError, match="format"):
        records[DEMO].render("pdf")
    with pytest.raises(ValueError, match="view"):
        records[DEMO].render("text", view="everything")


def test_principle_in_every_rendering(records: dict[str, cl.CitationRecord]) -> None:
    for rec in records.values():
        for fmt in ("text", "markdown", "html"):
            assert PRINCIPLE in rec.render(fmt)


def test_to_records_rows(records: dict[str, cl.CitationRecord]) -> None:
    rows = records[ZERO_INFINITY].to_records()
    assert len(rows) == 8
    assert rows[0]["source_id"] == "47c79d72-47c9-41b2-83e8-d4f6d4285e35"
    assert rows[0]["state"] == "verified_exact"
    assert rows[0]["position"] == 56
    # One table schema: the record's rows are the frames rows, with their columns in order.
    assert [list(r) for r in rows] == [[n for n, _ in OBSERVATION_COLUMNS]] * len(rows)
    assert rows == observation_rows(records[ZERO_INFINITY])
    assert isinstance(rows[0]["observed"], dt.datetime)
    assert rows[0]["observed"].tzinfo is not None
    scalars = (str, int, float, bool, dt.datetime, type(None))
    # Scalars, or lists of strings (identifiers, areas, intents: list columns in frames).
    assert all(
        isinstance(v, scalars) or (isinstance(v, list) and all(isinstance(x, str) for x in v))
        for r in rows
        for v in r.values()
    )
    citing = records[ZERO].to_records("citing")
    assert [list(r) for r in citing[:1]] == [[n for n, _ in CITING_PAPER_COLUMNS]]
    assert [r["rank"] for r in citing[:3]] == [1, 2, 3]
    assert citing[0]["cited_by"] == 3019
    assert citing[0]["cited_by_source"] == "mlsanity"
    assert isinstance(citing[0]["cited_by_observed"], dt.datetime)
    with pytest.raises(ValueError, match="kind"):
        records[ZERO].to_records("everything")


def test_area_filter_and_json_export(records: dict[str, cl.CitationRecord]) -> None:
    zero = records[ZERO]
    cv = zero.ranked_citing(area="cs.CV")
    assert cv
    assert all("cs.CV" in w.paper.areas for w in cv)
    assert cv[0].paper.title == "FLAVA: A Foundational Language And Vision Alignment Model"
    both = zero.ranked_citing(area=["cs.CV", "cs.DC"])
    assert len(both) == len(cv) + 1
    assert len(zero.ranked_citing(limit=12)) == 12
    exported = json.loads(zero.citing_json())
    assert len(exported) == 50
    assert exported[0]["title"] == "Training Compute-Optimal Large Language Models"
    assert dict(zero.citing_areas())["cs.DC"] == 1


def test_to_pandas(records: dict[str, cl.CitationRecord]) -> None:
    pd = pytest.importorskip("pandas")
    df = records[ZERO].to_pandas("citing")
    assert isinstance(df, pd.DataFrame)
    assert len(df) == 50
    assert df["cited_by"].iloc[0] == 3019
