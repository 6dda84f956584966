"""Counting right (issue 12): observation ids, one citing work per work, self-citation, counts.

Each test is built from the case the issue reports.
"""

from __future__ import annotations

import datetime as dt
import html
from pathlib import Path

import pytest

import citeledger as cl
from citeledger.model import replace
from citeledger.sources.opencitations import link_from_row
from citeledger.sources.sample import ZERO, ZERO_INFINITY, SampleSource
from citeledger.testing import FakeSource

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
NOW = dt.datetime(2026, 8, 8, tzinfo=dt.UTC)


def _seed_pair() -> list[cl.Observation]:
    """The seed's two observations of one citing paper at reference 234, in two states."""
    inbound = list(SampleSource().citations(ZERO_INFINITY))
    pair = [o for o in inbound if o.position == 234]
    assert len(pair) == 2
    assert {o.state for o in pair} == {
        cl.ResolutionState.VERIFIED_EXACT,
        cl.ResolutionState.UNRESOLVED,
    }
    return pair


def test_the_seed_pair_reported_by_one_source_gets_two_ids() -> None:
    # The sample keeps the seed's two link tables; one source reporting both is the collision.
    pair = [replace(o, source="paper_references") for o in _seed_pair()]
    assert pair[0].id != pair[1].id
    # Still deterministic: the same observation built again has the same id.
    again = [replace(o, source="paper_references") for o in _seed_pair()]
    assert [o.id for o in again] == [o.id for o in pair]
    # When it was seen is not part of the identity.
    later = replace(pair[0], observed=pair[0].observed + dt.timedelta(days=30))
    assert later.id == pair[0].id


def test_a_record_keeps_both_observations_of_the_seed_pair_from_one_source() -> None:
    if SEEDS.is_dir():
        seed = next(SEEDS.glob("000_*.txt")).read_text(encoding="utf-8")
        assert seed.count("Reference 234") == 2
    pair = [replace(o, source="links") for o in _seed_pair()]
    fake = FakeSource(name="links", citations={str(ZERO_INFINITY): pair})
    record = cl.build_record(ZERO_INFINITY, [fake], now=NOW)
    assert len(record.inbound) == 2
    assert len({o.id for o in record.inbound}) == 2
    # Two observations of one citing work.
    assert len(record.citing_works) == 1
    assert len(record.citing_works[0].observations) == 2


@pytest.mark.parametrize("state", ["metadata_mismatch", "unresolved"])
def test_state_or_method_changes_the_id(state: str) -> None:
    one = _seed_pair()[0]
    assert one.resolution is not None
    other = replace(one, resolution=replace(one.resolution, state=state))
    assert other.id != one.id
    method = replace(one, resolution=replace(one.resolution, method="doi"))
    assert method.id != one.id


# --------------------------------------------------------------------------- one citing work

P = cl.Paper(
    identifiers=["arXiv:2104.07857"],
    title="ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme Scale Deep Learning",
    authors=[
        cl.Author(family="Rajbhandari", given="Samyam"),
        cl.Author(family="He", given="Yuxiong", orcid="0000-0002-1825-0097"),
    ],
    year=2021,
)
TITLE = "Scaling sparse mixture of experts training across thousands of accelerators"


def _inbound(source: str, *citing: cl.Paper) -> list[cl.Observation]:
    return [
        cl.Observation(
            direction="inbound", citing=c, cited=P, source=source, observed=NOW, position=i
        )
        for i, c in enumerate(citing, start=1)
    ]


def _record(*citing: cl.Paper) -> cl.CitationRecord:
    fake = FakeSource(
        name="s2", papers=[P], citations={"arXiv:2104.07857": _inbound("s2", *citing)}
    )
    return cl.build_record("arXiv:2104.07857", [fake], now=NOW)


AUTHORS = [cl.Author(family="Lovelace", given="Ada"), cl.Author(family="Babbage", given="Charles")]


def test_an_arxiv_preprint_and_its_neurips_version_are_one_citing_work() -> None:
    preprint = cl.Paper(identifiers=["arXiv:2203.01234"], title=TITLE, authors=AUTHORS, year=2022)
    published = cl.Paper(
        identifiers=["doi:10.5555/neurips.2023.77"],
        title=TITLE,
        authors=AUTHORS,
        year=2023,
        venue="Advances in Neural Information Processing Systems (NeurIPS)",
    )
    record = _record(preprint, published)
    (work,) = record.citing_works
    assert len(work.observations) == 2
    assert "another publication of one work" in work.grouping[0]
    assert "preprint (arXiv, 2022)" in work.grouping[0]
    assert not work.unlinked
    assert record.citing_total == 1


def test_an_arxiv_datacite_doi_links_the_preprint_to_its_arxiv_id() -> None:
    a = cl.Paper(identifiers=["doi:10.48550/arXiv.2203.01234"], title=TITLE, year=2022)
    b = cl.Paper(identifiers=["arXiv:2203.01234v2"], title=TITLE + " (v2)", year=2022)
    (work,) = _record(a, b).citing_works
    assert "arXiv DataCite DOI" in work.grouping[0]


def test_look_alikes_kept_apart_say_truly_what_links_them() -> None:
    # Same title and authors, two published venues years apart, neither a preprint: the rule
    # for another publication does not apply, and the note must not deny the shared authors.
    a = cl.Paper(title=TITLE, authors=AUTHORS, year=2019, venue="Workshop on Systems")
    b = cl.Paper(title=TITLE, authors=AUTHORS, year=2023, venue="Workshop on Systems")
    works = _record(a, b).citing_works
    assert len(works) == 2
    note = works[1].unlinked[0]
    assert "shared author Ada Lovelace" in note
    assert "no identifier, relation or shared author" not in note


# --------------------------------------------------------------------------- self-citation


@pytest.mark.parametrize(
    ("author", "expected"),
    [
        (cl.Author(family="He", given="Yang"), False),  # not Yuxiong He: given names conflict
        (cl.Author(family="He", given="Y."), True),  # an initial that does not conflict
        (cl.Author(raw="Yuxiong He"), True),
        (cl.Author(family="Rajbhandari", given="Samyam"), True),
        # ORCID decides when both sides have one: another person of the same name...
        (cl.Author(family="He", given="Yuxiong", orcid="0000-0001-5109-3700"), False),
        # ...and one person writing the name differently.
        (cl.Author(family="Ho", given="Yu-Hsiung", orcid="0000-0002-1825-0097"), True),
    ],
)
def test_self_citation_by_orcid_else_by_full_name(author: cl.Author, expected: bool) -> None:
    citing = cl.Paper(identifiers=["doi:10.5555/c1"], title="A citing paper", authors=[author])
    (work,) = _record(citing).citing_works
    assert work.self_citation is expected
    assert work.shared_authors == ((author.name,) if expected else ())


# --------------------------------------------------------------------------- OpenCitations flags


def test_opencitations_author_sc_and_timespan_reach_observation_tables_and_renderings() -> None:
    link = link_from_row(
        {
            "oci": "0610-0612",
            "citing": "doi:10.5555/citing",
            "cited": "doi:10.5555/cited",
            "creation": "2023-05",
            "timespan": "P1Y10M10D",
            "journal_sc": "no",
            "author_sc": "yes",
        }
    )
    obs = link.to_observation(direction="inbound", observed=NOW)
    assert obs.author_self_citation is True
    assert obs.timespan == "P1Y10M10D"
    # Not part of the identity: the same citation without the flags is the same observation.
    assert replace(obs, author_self_citation=None, timespan=None).id == obs.id
    fake = FakeSource(name="opencitations", citations={"doi:10.5555/cited": [obs]})
    record = cl.build_record("doi:10.5555/cited", [fake], now=NOW)
    (row,) = record.to_records("observations")
    assert row["author_self_citation"] is True
    assert row["timespan"] == "P1Y10M10D"
    flags = "opencitations reports: author self-citation yes; timespan P1Y10M10D"
    for fmt in ("text", "markdown", "html"):
        assert flags in record.render(fmt, view="ledger"), fmt
    assert "opencitations flags 1 observations as author self-citations" in record.render("text")
    again = cl.CitationRecord.from_json(record.to_json())
    assert again.inbound[0].timespan == "P1Y10M10D"


# --------------------------------------------------------------------------- headline counts


def _counted(name: str, total: int, when: dt.datetime) -> FakeSource:
    obs = _inbound(name, cl.Paper(identifiers=[f"doi:10.5555/{name}"], title=f"Citing via {name}"))
    counts = [cl.Measurement(value=total, source=name, observed=when, subject="arXiv:2104.07857")]
    return FakeSource(
        name=name,
        papers=[P],
        citations={"arXiv:2104.07857": obs},
        counts={"arXiv:2104.07857": counts},
    )


def test_headline_counts_name_each_source_side_by_side_never_a_max() -> None:
    openalex = _counted("openalex", 340, NOW)
    s2 = _counted("s2", 412, NOW - dt.timedelta(days=1))
    record = cl.build_record("arXiv:2104.07857", [openalex, s2], now=NOW)
    assert [(m.source, m.value) for m in record.citing_counts()] == [
        ("openalex", 340),
        ("s2", 412),
    ]
    for fmt in ("text", "markdown", "html"):
        page = record.render(fmt, view="page")
        assert "cited by 340 (openalex, 8 Aug 2026) · cited by 412 (s2, 7 Aug 2026)" in page, fmt
        assert (
            "Cited by 340 papers per openalex (observed 8 Aug 2026) and 412 papers per s2" in page
        )
        assert "Cited by 412 papers" not in page
        assert "752" not in page  # never a sum


def test_a_listing_total_is_named_by_the_source_that_announced_it() -> None:
    record = _record(cl.Paper(identifiers=["doi:10.5555/c1"], title="A citing paper"))
    (m,) = record.citing_counts()
    assert (m.source, m.value, m.observed) == ("s2", 1, NOW)
    assert "cited by 1 (s2, 8 Aug 2026)" in record.render("text", view="page")
    assert "Cited by 1 paper per s2 (observed 8 Aug 2026)." in record.render("text", view="page")


# --------------------------------------------------------------------------- sorting


@pytest.fixture(scope="module")
def zero() -> cl.CitationRecord:
    return cl.build_record(ZERO, [SampleSource()], now="2026-10-14T00:00:00Z")


def test_ranked_citing_sorts_by_citations_year_or_title(zero: cl.CitationRecord) -> None:
    by_count = zero.ranked_citing()
    assert by_count == zero.ranked_citing(sort="citations")
    assert by_count[0].paper.title == "Training Compute-Optimal Large Language Models"
    by_year = zero.ranked_citing(sort=cl.ledger.CitingSort.YEAR)
    years = [w.year or 0 for w in by_year]
    assert years == sorted(years, reverse=True)
    assert by_year[0].paper.title == "GLM-5: from Vibe Coding to Agentic Engineering"
    titles = [w.paper.title or "" for w in zero.ranked_citing(sort="title")]
    assert titles == sorted(titles, key=str.casefold)
    with pytest.raises(ValueError, match="sideways"):
        zero.ranked_citing(sort="sideways")


@pytest.mark.parametrize("fmt", ["text", "markdown", "html"])
def test_every_rendering_shows_the_sort_used(zero: cl.CitationRecord, fmt: str) -> None:
    assert "Sort: citations (mlsanity). Also available: year, title." in zero.render(
        fmt, view="page"
    )
    by_year = zero.render(fmt, view="page", sort="year")
    assert "Sort: year, newest first, then citations (mlsanity)." in by_year
    assert "50 most cited of 1,301 (sample), sorted by year" in by_year
    # Numbering continues after the first twelve (the seed restarts it at 1 after "38 more").
    assert "38 more; numbering continues" in zero.render(fmt, view="page")


# --------------------------------------------------------------------------- one page, three views


def _html_text(page: str) -> str:
    return html.unescape(page)


def _md_text(page: str) -> str:
    for ch in "\\`*_[]<>|#":
        page = page.replace("\\" + ch, ch)
    return page


@pytest.mark.parametrize(
    "build",
    [
        "zero",
        "zero_infinity",
    ],
)
def test_text_markdown_and_html_pages_carry_the_same_facts(
    build: str, zero: cl.CitationRecord
) -> None:
    record = (
        zero
        if build == "zero"
        else cl.build_record(ZERO_INFINITY, [SampleSource()], now="2026-08-08T06:32:00Z")
    )
    text = record.render("text", view="page")
    md = _md_text(record.render("markdown", view="page"))
    page = _html_text(record.render("html", view="page"))
    facts = [line.strip() for line in text.splitlines() if line.strip()]
    facts.remove("Paper page")  # the text view's own heading
    # Ranked lines carry their number in the text view ("  1. 2022 Title"): compare the fact.
    facts = [f.split(". ", 1)[1] if f[:1].isdigit() and ". " in f[:6] else f for f in facts]
    assert len(facts) > 10
    for fact in facts:
        assert fact in md, fact
        assert fact in page, fact
    for must in ("Abstract (sample)", "Builds on", "Built on by", "Key facts."):
        if build == "zero":
            assert must in md
            assert must in page
