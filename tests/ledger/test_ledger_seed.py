"""Acceptance: the two seed pages come out of citeledger exactly, from the embedded sample."""

from __future__ import annotations

import re

import pytest

import citeledger as cl
from citeledger.ledger import PRINCIPLE, SCHEMA
from citeledger.ledger._citing import _group_citing
from citeledger.model import utc
from citeledger.sources.sample import DEMO, ZERO, ZERO_INFINITY, SampleSource
from tests.conftest import SHARED, requires_shared

SEEDS = SHARED / "seeds"


def _seed(number: str) -> str:
    """The text of ``../shared/seeds/<number>_*.txt`` (skips when the seeds are not laid out)."""
    found = sorted(SEEDS.glob(f"{number}_*.txt"))
    if not found:
        pytest.skip("../shared/seeds is not present beside the checkout")
    return found[0].read_text(encoding="utf-8")


# The eight observations of seed 000: (source id, citing title, reference, state, method, observed)
SEED_OBSERVATIONS = [
    (
        "47c79d72-47c9-41b2-83e8-d4f6d4285e35",
        "Using DeepSpeed and Megatron to Train Megatron-Turing NLG 530B, A Large-Scale Generative Language Model",
        56,
        "verified exact",
        "arxiv_id",
        "2026-05-24T12:14:26.603797Z",
    ),
    (
        "5b7311e8-64ae-46d4-93bf-d08657db1649",
        "LLM.int8(): 8-bit Matrix Multiplication for Transformers at Scale",
        77,
        "metadata mismatch",
        "arxiv_id",
        "2026-05-13T13:35:36.112167Z",
    ),
    (
        "eac066d1-55ad-4914-9134-18f059fbd4c8",
        "Speeding up Model Loading with fastsafetensors",
        20,
        "unresolved",
        "no resolver link",
        "2026-08-07T12:58:05.322950Z",
    ),
    (
        "e2b3638e-38a1-4326-946c-6c6f81a290f7",
        "Infinite Sampling: Efficient and Stable Grouped RL Training for Large Language Models",
        26,
        "unresolved",
        "no resolver link",
        "2026-08-06T22:01:23.734112Z",
    ),
    (
        "c6a546ef-7146-4d16-a77d-769bc003fe8f",
        "Efficient Training on Multiple Consumer GPUs with RoundPipe",
        42,
        "verified exact",
        "arxiv_id",
        "2026-05-12T09:31:26.792934Z",
    ),
    (
        "f9e91246-80d2-4687-afbb-3f511f6ea6a3",
        "Runtime-Orchestrated Second-Order Optimization for Scalable LLM Training",
        16,
        "metadata mismatch",
        "arxiv_id",
        "2026-05-19T18:32:42.956504Z",
    ),
    (
        "ed54f167-bd48-4bdf-90c2-ab70536557d3",
        "The Hitchhiker's Guide to Agentic AI: From Foundations to Systems",
        234,
        "verified exact",
        "arxiv_id",
        "2026-07-04T11:09:46.154734Z",
    ),
    (
        "2ab751d5-1005-4adb-8649-1c5012e0d69b",
        "The Hitchhiker's Guide to Agentic AI: From Foundations to Systems",
        234,
        "unresolved",
        "no resolver link",
        "2026-08-02T10:27:18.533828Z",
    ),
]
NONE_FOUND = "No event found in the named queried sources as of 2026-08-08T06:32:00.761636+00:00."
UNAVAILABLE = "Unavailable: canonical work link unavailable."

ZERO_YEARS = [(2021, 8), (2022, 18), (2023, 81), (2024, 350), (2025, 439), (2026, 405)]
ZERO_TOP = [
    ("Training Compute-Optimal Large Language Models", 2022, 3019),
    ("A Survey of Large Language Models", 2023, 2576),
    ("HybridFlow: A Flexible and Efficient RLHF Framework", 2024, 2057),
]
ZERO_LAST = (
    "A Survey of Large Language Models for Healthcare: from Data, Technology, and Applications to Accountability and Ethics",
    2023,
    163,
)


@pytest.fixture(scope="module")
def sample() -> SampleSource:
    return SampleSource()


@pytest.fixture(scope="module")
def zi(sample: SampleSource) -> cl.CitationRecord:
    return cl.build_record(
        ZERO_INFINITY, [sample], now=sample.as_of(ZERO_INFINITY), inbound_cap=100
    )


@pytest.fixture(scope="module")
def zero(sample: SampleSource) -> cl.CitationRecord:
    return cl.build_record(ZERO, [sample], now=sample.as_of(ZERO), inbound_cap=100)


@pytest.fixture(scope="module")
def demo(sample: SampleSource) -> cl.CitationRecord:
    return cl.build_record(
        DEMO, [sample], now=sample.as_of(DEMO), resolver=cl.Resolver(sample.catalog())
    )


# ----------------------------------------------------------------------------- seed 000


def test_zero_infinity_coverage_lines(zi: cl.CitationRecord) -> None:
    text = zi.render("text", view="ledger")
    for line in [
        "measured 0 of 0 reference resolution",
        "Source: paper_references, paper_reference_links",
        "measured 8 of 8 standing notices",
        "Source: scholarly_work_events, retraction_status_cache, observed 2026-08-08T06:32:00.761636+00:00",
        "measured 8 of 8 inbound itemization",
        "Source: paper_references, paper_reference_links, observed 2026-08-07T12:58:05.322950Z",
        "measured 1 of 1 external citation measurements",
        "Source: arxiv_reference, observed 2026-08-05T02:28:24.338817Z",
    ]:
        assert line in text.splitlines(), line
    # The reference-resolution facet of a paper without a reference list has no observation time.
    idx = text.splitlines().index("measured 0 of 0 reference resolution")
    assert text.splitlines()[idx + 4] == "Source: paper_references, paper_reference_links"
    assert (
        zi.coverage_of(cl.Facet.REFERENCE_RESOLUTION).state is cl.CoverageState.NOTHING_TO_MEASURE
    )
    assert zi.coverage_of(cl.Facet.INBOUND_ITEMIZATION).state is cl.CoverageState.COMPLETE
    assert zi.coverage_of(cl.Facet.STANDING_NOTICES).state is cl.CoverageState.COMPLETE
    assert (
        zi.coverage_of(cl.Facet.EXTERNAL_CITATION_MEASUREMENTS).state is cl.CoverageState.COMPLETE
    )


def test_zero_infinity_header_and_principle(zi: cl.CitationRecord) -> None:
    lines = zi.render("text").splitlines()
    assert lines[0] == "Paper Citation Record · LEDGER"
    assert lines[2] == "ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme Scale Deep Learning"
    assert lines[4] == (
        "As of 8 August 2026, this Paper Citation Record lists 0 of 0 outbound references and 8 "
        "inbound citation observations for arXiv:2104.07857."
    )
    assert lines[6] == PRINCIPLE
    assert lines[8:10] == ["citeledger.paper-citation-record.v1", "2104.07857 v1"]


def test_zero_infinity_resolution_table_lists_all_six_states(zi: cl.CitationRecord) -> None:
    counts = zi.resolution_counts()
    assert [c.state for c in counts] == list(cl.ResolutionState)
    assert all(c.count == 0 for c in counts)
    text = zi.render("text")
    assert "0 of 0 outbound references displayed" in text
    for label in (
        "verified exact",
        "verified fuzzy",
        "unresolved",
        "parse uncertain",
        "malformed identifier",
        "metadata mismatch",
    ):
        assert re.search(rf"^{label} +0$", text, re.MULTILINE), label
    assert "No outbound reference observations are available for this paper version." in text


def test_zero_infinity_external_measurement(zi: cl.CitationRecord) -> None:
    (m,) = zi.measurements
    assert (m.value, m.source) == (57, "arxiv_reference")
    assert m.observed.isoformat() == "2026-08-05T02:28:24.338817+00:00"
    assert "57\narxiv_reference, observed 2026-08-05T02:28:24.338817Z" in zi.render("text")


def test_zero_infinity_eight_observations(zi: cl.CitationRecord) -> None:
    assert len(zi.inbound) == 8
    assert len({o.id for o in zi.inbound}) == 8  # the duplicate stays two observations
    for obs, (sid, title, ref, state, method, observed) in zip(
        zi.inbound, SEED_OBSERVATIONS, strict=True
    ):
        assert zi.source_id(obs.id) == sid
        assert obs.citing.title == title
        assert obs.position == ref
        assert obs.state is not None
        assert obs.state.label == state
        got_method = obs.method.label if obs.method else None
        assert got_method == method
        assert obs.observed.isoformat().replace("+00:00", "Z") == observed
        notice = zi.notice_for(obs.id)
        assert notice is not None
        expected = UNAVAILABLE if state == "unresolved" else NONE_FOUND
        assert notice.check.describe() == expected


def test_zero_infinity_observation_blocks_in_text(zi: cl.CitationRecord) -> None:
    text = zi.render("text")
    for sid, title, ref, state, method, observed in SEED_OBSERVATIONS:
        block = (
            f"Observation {sid} · inbound\n\n"
            rf"Record id [0-9a-f-]{{36}} \(source id above, from paper_reference_links|paper_references\)\n\n"
        )
        assert re.search(re.escape(f"Observation {sid} · inbound"), text)
        start = text.index(f"Observation {sid} · inbound")
        chunk = text[start : start + 1200]
        assert f"{title} cites this paper." in chunk
        assert f"\nReference {ref}\n" in chunk
        assert f"Resolution: {state}; {method}, observed {observed}" in chunk
        assert block  # layout documented above


def test_zero_infinity_duplicate_is_one_citing_work_with_two_observations(
    zi: cl.CitationRecord,
) -> None:
    """The seed's two observations of one citing paper (reference 234, two states) stay two
    observations but group into one citing work, with the reason: same title, same reference
    number."""
    assert len(zi.inbound) == 8
    assert len(zi.citing_works) == 7
    title = "The Hitchhiker's Guide to Agentic AI: From Foundations to Systems"
    (work,) = [w for w in zi.citing_works if w.paper.title == title]
    assert len(work.observations) == 2
    (why,) = work.grouping
    assert "same title and same reference number (234)" in why
    assert not work.unlinked


def test_same_title_different_reference_number_and_no_link_stays_apart() -> None:
    """Two citing papers sharing only a title (no ids, year, authors; different reference
    numbers) are kept apart and each names the other as an unlinked look-alike."""
    now = utc("2026-08-08T00:00:00Z")
    cited = cl.Paper(title="Cited", identifiers=["arXiv:2104.07857"])
    title = "A Survey of Large Language Models in Practice"
    obs = [
        cl.Observation(
            direction="inbound",
            citing=cl.Paper(title=title),
            cited=cited,
            position=pos,
            source="s",
            observed=now,
        )
        for pos in (3, 9)
    ]
    works = _group_citing(cited, obs, {})
    assert len(works) == 2
    for w in works:
        (note,) = w.unlinked
        assert "not grouped (year unknown" in note


@requires_shared
def test_zero_infinity_text_contains_every_seed_line_in_order(zi: cl.CitationRecord) -> None:
    """Every line of seed 000 appears, in order, in the text rendering.

    Documented substitutions: the seed's brand word "Pith" is dropped (so case is ignored), its
    schema tag becomes
    citeledger's, and the "<citing> <cited>" line is printed with an arrow between the titles.
    Whitespace inside a line is ignored (the seed's table cells are glued: "verified exact0").
    """
    seed = _seed("000")
    seed = seed.replace("Pith ", "").replace("pith.paper-citation-record.v1", SCHEMA)
    ours = zi.render("text").replace(" → ", " ")

    def norm(line: str) -> str:
        # Dropping "Pith " leaves "citing papers ..." in lower case at the start of a line.
        return re.sub(r"\s+", "", line).casefold()

    our_lines = [norm(x) for x in ours.splitlines() if x.strip()]
    pos = 0
    for line in seed.splitlines():
        if not line.strip():
            continue
        want = norm(line)
        try:
            pos = our_lines.index(want, pos) + 1
        except ValueError:
            pytest.fail(f"seed line not found in order: {line!r}")


# ----------------------------------------------------------------------------- seed 002


def test_zero_metadata_and_page_facts(zero: cl.CitationRecord) -> None:
    p = zero.paper
    assert p.title == "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models"
    assert str(p.date) == "2019-10-04"
    assert p.areas == ("cs.LG", "cs.DC", "stat.ML")
    assert p.abstract is not None
    assert p.abstract.startswith("Large deep learning models offer")
    assert p.abstract.endswith("(Turing-NLG, 17B parameters) with record breaking accuracy.")
    assert str(zero.data_through) == "2026-10-14"
    text = zero.render("text", view="page")
    # Each count names whose it is and its date (the seed's "mlsanity · Data to 14 Oct 2026").
    assert "mlsanity · Data to 14 Oct 2026" in text
    assert (
        "arXiv 1910.02054 · First posted 4 Oct 2019 · cs.LG cs.DC stat.ML · "
        "cited by 1,301 (mlsanity, 14 Oct 2026)" in text
    )
    assert "Key facts. Cited by 1,301 papers per mlsanity (data through 14 Oct 2026)" in text
    assert "First posted on arXiv 4 Oct 2019." in text
    assert "Builds on\n\nNo reference list yet." in text
    assert "measured 0 of 0 reference resolution" in zero.render("text", view="ledger")


def test_zero_per_year_counts(zero: cl.CitationRecord) -> None:
    assert [(y.year, y.count) for y in zero.per_year()] == ZERO_YEARS
    assert sum(c for _, c in ZERO_YEARS) == 1301
    text = zero.render("text")
    assert "Cited by year (2026 to 14 Oct)" in text
    assert (
        "Citing papers per year: 2021: 8; 2022: 18; 2023: 81; 2024: 350; 2025: 439; 2026: 405."
        in text
    )
    assert "\n1,301 papers.\n" in text
    rec = zero.reconciliation()
    assert (rec.per_year_total, rec.itemized, rec.agrees) == (1301, 50, False)
    assert "50 of the 1,301" in rec.explanation


def test_zero_ranking_order_and_counts(zero: cl.CitationRecord) -> None:
    ranked = zero.ranked_citing()
    assert len(ranked) == 50
    got = [(w.paper.title, w.year, m.value) for w in ranked if (m := w.count()) is not None]
    assert got[:3] == ZERO_TOP
    assert got[-1] == ZERO_LAST
    values = [v for _, _, v in got]
    assert values == sorted(values, reverse=True)
    # ties keep the source's order (Llemma before Kimi-VL at 388; ReMax, CodeS, DiffuCoder at 187)
    titles = [t for t, _, _ in got]
    assert titles.index("Llemma: An Open Language Model For Mathematics") + 1 == titles.index(
        "Kimi-VL Technical Report"
    )
    assert zero.citing_total == 1301
    assert "50 most cited of 1,301" in zero.render("text")


@requires_shared
def test_zero_ranking_matches_seed_page(zero: cl.CitationRecord) -> None:
    seed = _seed("002")
    rows = re.findall(r"^\s+\d+\. (\d{4})(.+?)cited by ([\d,]+)$", seed, re.MULTILINE)
    assert len(rows) == 50
    want = [(t, int(y), int(c.replace(",", ""))) for y, t, c in rows]
    got = [(w.paper.title, w.year, m.value) for w in zero.ranked_citing() if (m := w.count())]
    assert got == want
    years = re.search(r"Citing papers per year: (.+)\.", seed)
    assert years is not None
    assert f"Citing papers per year: {years.group(1)}." in zero.render("text")


def test_zero_area_note(zero: cl.CitationRecord) -> None:
    (profile,) = zero.area_profiles
    assert (
        profile.explanation()
        == "Cited by 109 in LLM reasoning, but placed by its own abstract, which didn’t fit."
    )
    text = zero.render("text")
    assert "Not on the map. Why?" in text
    assert (
        "Cited by 109 in LLM reasoning, but placed by its own abstract, which didn’t fit." in text
    )


def test_zero_inbound_itemization_is_partial_and_says_why(zero: cl.CitationRecord) -> None:
    cov = zero.coverage_of(cl.Facet.INBOUND_ITEMIZATION)
    assert (cov.measured, cov.total, cov.state) == (50, 1301, cl.CoverageState.PARTIAL)
    assert cov.reason is not None
    assert "50 of the 1,301" in cov.reason
    assert cov.note == "under the disclosed page cap of 100"
    # the sample has no event data for ZeRO: unavailable, never "none found"
    notices = zero.coverage_of(cl.Facet.STANDING_NOTICES)
    assert notices.state is cl.CoverageState.UNAVAILABLE
    assert all(n.check.status is cl.NoticeStatus.UNAVAILABLE for n in zero.notices)


# ----------------------------------------------------------------------------- the demo paper


def test_demo_exercises_all_six_states(demo: cl.CitationRecord, sample: SampleSource) -> None:
    counts = {c.state: c.count for c in demo.resolution_counts()}
    assert counts == {
        cl.ResolutionState.VERIFIED_EXACT: 6,
        cl.ResolutionState.VERIFIED_FUZZY: 2,
        cl.ResolutionState.UNRESOLVED: 1,
        cl.ResolutionState.PARSE_UNCERTAIN: 1,
        cl.ResolutionState.MALFORMED_IDENTIFIER: 1,
        cl.ResolutionState.METADATA_MISMATCH: 1,
    }
    expected = sample.expected_states(DEMO)
    assert {o.position: o.state for o in demo.outbound} == expected
    cov = demo.coverage_of(cl.Facet.REFERENCE_RESOLUTION)
    assert (cov.measured, cov.total, cov.state) == (12, 12, cl.CoverageState.COMPLETE)
    assert "lists 12 of 12 outbound references" in demo.render("text")


def test_demo_network_resolves_against_source_candidates(sample: SampleSource) -> None:
    offline = cl.build_record(
        DEMO, [sample], now=sample.as_of(DEMO), resolver=cl.Resolver(sample.catalog())
    )
    online = cl.build_record(
        DEMO, [sample], now=sample.as_of(DEMO), resolver=cl.Resolver(sample.catalog()), network=True
    )
    ref8_off = next(o for o in offline.outbound if o.position == 8)
    ref8_on = next(o for o in online.outbound if o.position == 8)
    assert ref8_off.state is cl.ResolutionState.UNRESOLVED
    assert ref8_on.state is cl.ResolutionState.VERIFIED_FUZZY
    assert ref8_on.resolution is not None
    assert ref8_on.resolution.target is not None
    assert str(ref8_on.resolution.target.identifiers[0]) == "arxiv:1710.03740"
    # the resolver's same rules still refuse the mismatched and malformed references
    assert (
        next(o for o in online.outbound if o.position == 11).state
        is cl.ResolutionState.METADATA_MISMATCH
    )
    assert (
        next(o for o in online.outbound if o.position == 10).state
        is cl.ResolutionState.MALFORMED_IDENTIFIER
    )
