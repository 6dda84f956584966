"""citeledger.frames: stable columns, right values, records and plain inputs alike."""

from __future__ import annotations

import datetime as dt
import math
import re
from pathlib import Path
from typing import Any

import pytest

import citeledger as cl
from citeledger import frames
from citeledger.frames import (
    CITING_PAPER_COLUMNS,
    OBSERVATION_COLUMNS,
    PER_YEAR_COLUMNS,
    RESOLUTION_COLUMNS,
    RESULT_COLUMNS,
    citing_paper_rows,
    observation_rows,
    reference_from_row,
    resolution_rows,
    result_row,
)
from citeledger.model import Evidence
from citeledger.sources.sample import DEMO, ZERO, ZERO_INFINITY, SampleSource

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

T0 = dt.datetime(2026, 8, 5, 2, 28, tzinfo=dt.UTC)


def _names(columns: tuple[tuple[str, str], ...]) -> list[str]:
    return [n for n, _ in columns]


def _pandas(columns: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """The pandas dtypes: list columns are ``object`` (Python lists)."""
    return {n: "object" if t == "list<string>" else t for n, t in columns}


@pytest.fixture(scope="module")
def sample() -> SampleSource:
    return SampleSource()


@pytest.fixture(scope="module")
def demo_record(sample: SampleSource) -> Any:
    return cl.build_record(DEMO, [sample], resolver=cl.Resolver(sample.catalog()), now=T0)


@pytest.fixture(scope="module")
def zi_record(sample: SampleSource) -> Any:
    return cl.build_record(ZERO_INFINITY, [sample], now=T0)


@pytest.fixture(scope="module")
def zero_record(sample: SampleSource) -> Any:
    return cl.build_record(ZERO, [sample], now=T0)


def test_column_names_are_the_documented_ones() -> None:
    # A rename is a breaking change: this list is the contract in docs/dataframes.md.
    assert _names(RESULT_COLUMNS) == [
        "state",
        "verified",
        "method",
        "score",
        "target_key",
        "target_title",
        "target_year",
        "target_identifiers",
        "alternatives",
        "evidence",
        "reason",
    ]
    assert _names(RESOLUTION_COLUMNS)[:6] == [
        "position",
        "reference_key",
        "reference_raw",
        "reference_title",
        "reference_year",
        "reference_identifiers",
    ]
    assert _names(CITING_PAPER_COLUMNS)[:3] == ["rank", "key", "title"]
    assert _names(OBSERVATION_COLUMNS)[:4] == ["id", "direction", "source", "observed"]


def test_resolution_rows_from_pairs() -> None:
    target = cl.Paper(title="Deep learning", year=2015, identifiers=["doi:10.1038/nature14539"])
    ref = cl.Reference(position=3, title="Deep learning", identifiers=["doi:10.1038/nature14539"])
    res = cl.Resolution(
        state="verified_exact",
        method="doi",
        target=target,
        score=97.5,
        evidence=[
            Evidence(field="title", agreement="agree", score=100),
            Evidence(field="year", agreement="missing"),
        ],
        reason="doi found",
    )
    (row,) = resolution_rows([(ref, res)])
    assert list(row) == _names(RESOLUTION_COLUMNS)
    assert row["position"] == 3
    assert row["reference_identifiers"] == ["doi:10.1038/nature14539"]
    assert row["state"] == "verified_exact"
    assert row["verified"] is True
    assert row["method"] == "doi"
    assert row["score"] == 97.5
    assert row["target_key"] == target.key
    assert row["target_year"] == 2015
    assert row["evidence"] == ["title=agree:100.0", "year=missing"]
    assert list(result_row(res)) == _names(RESULT_COLUMNS)


def test_resolutions_frame_of_a_record_matches_its_outbound(demo_record: Any) -> None:
    frame = frames.resolutions_frame(demo_record)
    assert list(frame.columns) == _names(RESOLUTION_COLUMNS)
    assert {n: str(t) for n, t in frame.dtypes.items()} == _pandas(RESOLUTION_COLUMNS)
    outbound = [o for o in demo_record.outbound if o.resolution is not None]
    assert len(frame) == len(outbound) > 0
    assert frame["state"].tolist() == [o.state.value for o in outbound]
    counts = frame["state"].value_counts().to_dict()
    # The demo paper exercises all six states.
    assert set(counts) == {s.value for s in cl.ResolutionState}
    table = frames.resolutions_table(demo_record)
    assert table.column_names == _names(RESOLUTION_COLUMNS)
    assert table.column("state").to_pylist() == frame["state"].tolist()


def test_observations_frame_of_a_record(zi_record: Any) -> None:
    frame = frames.observations_frame(zi_record)
    assert list(frame.columns) == _names(OBSERVATION_COLUMNS)
    assert {n: str(t) for n, t in frame.dtypes.items()} == _pandas(OBSERVATION_COLUMNS)
    expected = [*zi_record.outbound, *zi_record.inbound]
    assert frame["id"].tolist() == [o.id for o in expected]
    assert len(frame) == 8  # the seed's eight inbound observations, no references
    assert frame["observed"].dt.tz is not None
    # The record's own rows agree on the shared columns.
    own = zi_record.to_records()
    assert frame["state"].tolist() == [r["state"] for r in own]
    assert frame["position"].tolist() == [r["position"] for r in own]
    table = frames.observations_table(zi_record)
    assert table.num_rows == 8
    assert str(table.schema.field("observed").type) == "timestamp[us, tz=UTC]"


def test_citing_papers_frame_follows_the_record_ranking(zero_record: Any) -> None:
    frame = frames.citing_papers_frame(zero_record)
    assert list(frame.columns) == _names(CITING_PAPER_COLUMNS)
    own = zero_record.to_records("citing")
    assert frame["title"].tolist() == [r["title"] for r in own]
    assert frame["rank"].tolist() == list(range(1, len(own) + 1))
    counts = [c for c in frame["cited_by"].tolist() if c is not pd.NA]
    assert counts == sorted(counts, reverse=True)
    assert len(counts) > 1
    lm = frame[frame["areas"].map(lambda areas: "cs.CL" in areas)]
    assert 0 < len(lm) < len(frame)
    assert frames.citing_papers_table(zero_record).num_rows == len(frame)


def test_citing_rows_group_observations_of_one_work(zi_record: Any) -> None:
    # The seed's duplicate: the same citing paper at reference 234 in two states.
    rows = citing_paper_rows(zi_record.inbound)
    assert len(rows) == len({o.citing.key for o in zi_record.inbound}) == 7
    twice = [r for r in rows if r["observations"] == 2]
    assert len(twice) == 1
    assert len(twice[0]["states"]) == 2


def test_observation_rows_plain() -> None:
    citing = cl.Paper(title="Citing", year=2024, areas=["cs.LG", "cs.DC"])
    obs = cl.Observation(
        direction="inbound", citing=citing, position=5, source="s2", observed=T0, intents=["x"]
    )
    (row,) = observation_rows([obs])
    assert list(row) == _names(OBSERVATION_COLUMNS)
    assert row["citing_areas"] == ["cs.LG", "cs.DC"]
    assert row["cited_key"] is None
    assert row["state"] is None
    assert row["intents"] == ["x"]


def test_reference_from_row() -> None:
    parsed = reference_from_row(
        {"raw": "LeCun Y, Bengio Y, Hinton G. Deep learning. Nature. 2015."}
    )
    assert parsed.title is not None
    assert "Deep learning" in parsed.title
    assert parsed.year == 2015
    structured = reference_from_row(
        {"citation": "x", "title": "Deep learning", "year": 2015.0, "authors": math.nan},
        columns={"raw": "citation"},
    )
    assert structured.raw == "x"
    assert structured.title == "Deep learning"
    assert structured.year == 2015
    assert structured.authors == ()
    ids = reference_from_row({"identifiers": "doi:10.1038/nature14539 arXiv:1706.03762"})
    assert [str(i) for i in ids.identifiers] == ["doi:10.1038/nature14539", "arxiv:1706.03762"]
    na = reference_from_row({"title": pd.NA, "raw": "Smith J. A title here. 2001.", "year": None})
    assert na.raw is not None
    with pytest.raises(ValueError, match="unknown reference fields"):
        reference_from_row({}, columns={"doi": "x"})


def test_docs_list_exactly_these_columns() -> None:
    doc = Path(__file__).resolve().parents[2] / "docs" / "reference" / "dataframes.md"
    tables: list[list[tuple[str, str]]] = []
    current: list[tuple[str, str]] = []
    for line in [*doc.read_text(encoding="utf-8").splitlines(), ""]:
        m = re.match(r"^\| `(\w+)` \| ([\w\[\], <>]+?) \|", line)
        if m:
            current.append((m.group(1), m.group(2)))
        elif current:
            tables.append(current)
            current = []
    expected = [RESOLUTION_COLUMNS, OBSERVATION_COLUMNS, CITING_PAPER_COLUMNS, PER_YEAR_COLUMNS]
    assert tables == [[(n, t) for n, t in cols] for cols in expected]


def test_resolutions_frame_of_results_alone() -> None:
    catalog = [
        cl.Paper(title="Attention is all you need", year=2017, identifiers=["doi:10.1234/a"])
    ]
    strings = ["Vaswani A. Attention is all you need. 2017.", "Nobody. Nothing here at all. 1999."]
    results = cl.Resolver(catalog).resolve_many(strings)
    alone = frames.resolutions_frame(results)
    assert list(alone.columns) == _names(RESOLUTION_COLUMNS)
    assert alone["position"].tolist() == [1, 2]
    assert alone["state"].tolist() == [r.state.value for r in results]
    assert alone["reference_raw"].isna().all()
    with_strings = frames.resolutions_frame(zip(strings, results, strict=True))
    assert with_strings["reference_raw"].tolist() == strings
    assert with_strings["state"].tolist() == alone["state"].tolist()
    papers = frames.resolutions_frame(zip(catalog, results[:1], strict=True))
    assert papers["reference_title"].tolist() == ["Attention is all you need"]
    assert frames.resolutions_table(results).num_rows == 2
    with pytest.raises(TypeError, match="item 0"):
        frames.resolutions_frame([42])


def test_record_frame_and_observations_frame_share_one_schema(zi_record: Any) -> None:
    assert (
        zi_record.to_pandas().columns.tolist()
        == frames.observations_frame(zi_record).columns.tolist()
    )
    assert zi_record.to_pandas().dtypes.astype(str).tolist() == (
        frames.observations_frame(zi_record).dtypes.astype(str).tolist()
    )


def test_per_year_frame(zero_record: Any) -> None:
    frame = frames.per_year_frame(zero_record)
    assert list(frame.columns) == ["year", "count"]
    assert {n: str(t) for n, t in frame.dtypes.items()} == dict(PER_YEAR_COLUMNS)
    years = zero_record.per_year()
    assert frame["year"].tolist() == [y.year for y in years]
    assert frame["count"].tolist() == [y.count for y in years]
    assert len(frame) > 1
    table = frames.per_year_table(zero_record)
    assert str(table.schema.field("count").type) == "int64"
    assert frames.per_year_frame(years)["count"].sum() == sum(y.count for y in years)


def test_lists_are_list_columns(zero_record: Any) -> None:
    frame = frames.citing_papers_frame(zero_record)
    assert all(isinstance(v, list) for v in frame["areas"])
    assert any("cs.CL" in v for v in frame["areas"])
    table = frames.citing_papers_table(zero_record)
    for name in ("identifiers", "areas", "sources", "states", "grouping"):
        assert str(table.schema.field(name).type) == "list<item: string>"
    assert table.column("areas").to_pylist() == frame["areas"].tolist()
    obs = frames.observations_table(zero_record)
    assert str(obs.schema.field("citing_areas").type) == "list<item: string>"
