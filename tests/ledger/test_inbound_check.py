"""The inbound check's pure core on recorded reference lists, and its edge under failure.

Recorded responses (``../shared/data/sources``): Crossref works with deposited references,
a Semantic Scholar references page, a JATS and a GROBID TEI file. Each is one citing paper's
list; the paper P is one of its entries (or not), and the check must find it at the right
reference number with the outbound states' meaning.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

import pytest

import citeledger as cl
from citeledger.errors import SourceError
from citeledger.formats.jats import parse_jats_references
from citeledger.formats.tei import parse_tei_references
from citeledger.ledger._inbound import check_entries, inbound_catalog
from citeledger.model import CheckStatus, InboundCheck, NotChecked
from citeledger.sources import semanticscholar as s2
from citeledger.sources.crossref import work_from_message
from citeledger.sources.fulltext import FullTextFiles, parse_full_text_references
from citeledger.sources.sample import ZERO_INFINITY, SampleSource
from citeledger.testing import FakeSource
from tests.conftest import SOURCES, requires_shared

NOW = dt.datetime(2026, 8, 8, tzinfo=dt.UTC)


def _crossref(name: str) -> list[cl.Reference]:
    message = json.loads((SOURCES / "crossref" / name).read_bytes())["message"]
    return list(work_from_message(message).references)


def _resolver(paper: cl.Paper) -> cl.Resolver:
    return cl.Resolver(inbound_catalog(paper))


CHEMCROW = "work-10.1038_s42256-024-00832-8-references-mixed.json"
#: ZeRO-Infinity: the paper P of the module docstring.
P = cl.Paper(
    title="ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme Scale Deep Learning",
    authors=["Samyam Rajbhandari", "Olatunji Ruwase", "Jeff Rasley", "Shaden Smith", "Yuxiong He"],
    year=2021,
    identifiers=["arXiv:2104.07857"],
)
FOUNDATION = cl.Paper(
    title="On the Opportunities and Risks of Foundation Models",
    authors=["Rishi Bommasani", "Drew A. Hudson", "Ehsan Adeli"],
    year=2021,
    identifiers=["arXiv:2108.07258"],
)


# ----------------------------------------------------------------------------- recordings


@requires_shared
def test_crossref_entry_naming_the_paper_by_arxiv_id_is_verified_exact() -> None:
    refs = _crossref(CHEMCROW)
    (hit,) = check_entries(_resolver(FOUNDATION), refs)
    assert hit.reference.position == 3
    assert hit.reference.key == "832_CR3"
    assert hit.resolution.state is cl.ResolutionState.VERIFIED_EXACT
    assert hit.resolution.method is cl.Method.ARXIV_ID
    assert "2108.07258" in (hit.reference.raw or "")


@requires_shared
def test_crossref_entry_with_the_right_doi_but_another_title_is_a_mismatch() -> None:
    refs = _crossref("work-10.1038_srep16696-references-unstructured.json")
    entry = next(r for r in refs if r.position == 7)
    doi = next(i for i in entry.identifiers if i.scheme is cl.Scheme.DOI)
    other = cl.Paper(
        title="A completely different study of soil bacteria in alpine meadows",
        authors=["Nobody Else"],
        year=1999,
        identifiers=[doi],
    )
    hits = check_entries(_resolver(other), refs)
    assert [(h.reference.position, h.resolution.state, h.resolution.method) for h in hits] == [
        (7, cl.ResolutionState.METADATA_MISMATCH, cl.Method.DOI)
    ]


@requires_shared
def test_a_list_without_the_paper_has_no_entry_for_it() -> None:
    # ChemCrow's list does not cite ZeRO-Infinity (P).
    assert check_entries(_resolver(P), _crossref(CHEMCROW)) == ()


@requires_shared
def test_semantic_scholar_references_page() -> None:
    body = (
        SOURCES
        / "semanticscholar"
        / "paper-references-CorpusID-1033682-contexts-intents-page1.json"
    ).read_bytes()
    refs = [s2.link_reference(link) for link in s2.parse_references_page(body).items]
    wgan = cl.Paper(
        title="Wasserstein GAN",
        authors=["Martín Arjovsky", "Soumith Chintala", "Léon Bottou"],
        year=2017,
        identifiers=["arXiv:1701.07875"],
    )
    (hit,) = check_entries(_resolver(wgan), refs)
    assert hit.reference.position == 62
    assert (hit.resolution.state, hit.resolution.method) == (
        cl.ResolutionState.VERIFIED_EXACT,
        cl.Method.ARXIV_ID,
    )
    # S2's position is its listing order, and the entry says so.
    assert ("position_basis", "semanticscholar listing order") in hit.reference.extra


@requires_shared
@pytest.mark.parametrize(
    ("path", "parse", "cited", "where", "states", "method"),
    [
        pytest.param(
            "jats/PMC6398430-mixed-citation-ref-list.xml",
            parse_jats_references,
            cl.Paper(
                title="Data from: counting crows: flock structure and subgroup size variation in "
                "an urban population of crows",
                year=2018,
                identifiers=["doi:10.5061/dryad.t0g149j"],
            ),
            (74, "CIT0074"),
            {cl.ResolutionState.VERIFIED_EXACT, cl.ResolutionState.METADATA_MISMATCH},
            cl.Method.DOI,
            id="jats-entry-by-doi",
        ),
        pytest.param(
            "grobid/N18-3011-literature-graph-semantic-scholar.tei.xml",
            parse_tei_references,
            cl.Paper(
                title="Content-based citation recommendation",
                authors=["Chandra Bhagavatula", "Sergey Feldman", "Russell Power", "Waleed Ammar"],
                year=2018,
                identifiers=["arXiv:1802.08301"],
            ),
            (3, "b2"),
            {cl.ResolutionState.VERIFIED_FUZZY},
            cl.Method.FUZZY_TITLE,
            id="grobid-tei-entry-by-title",
        ),
    ],
)
def test_full_text_entry_found(
    path: str,
    parse: Callable[[bytes], list[cl.Reference]],
    cited: cl.Paper,
    where: tuple[int, str],
    states: set[cl.ResolutionState],
    method: cl.Method,
) -> None:
    body = (SOURCES / path).read_bytes()
    refs = parse(body)
    assert parse_full_text_references(body) == refs
    (hit,) = check_entries(_resolver(cited), refs)
    assert (hit.reference.position, hit.reference.key) == where
    assert hit.resolution.method is method
    assert hit.resolution.state in states


@requires_shared
def test_full_text_files_by_path_and_any_identifier(tmp_path: Any) -> None:
    src = SOURCES / "grobid" / "N18-3011-literature-graph-semantic-scholar.tei.xml"
    files = FullTextFiles({"arXiv:1805.02262v2": src})
    refs = files.full_text_references("10.48550/arXiv.1805.02262")
    assert refs is not None
    assert len(refs) == 27
    assert files.references("arXiv:1805.02262") == refs
    assert files.full_text_references("arXiv:1805.09999") is None
    bad = tmp_path / "x.xml"
    bad.write_bytes(b"<html/>")
    with pytest.raises(cl.ParseError, match="not a JATS"):
        FullTextFiles({"doi:10.5555/x": bad}).full_text_references("doi:10.5555/x")


# ----------------------------------------------------------------------------- the edge

ENTRY = (
    "Rajbhandari S, Ruwase O, Rasley J, Smith S, He Y (2021) ZeRO-Infinity: breaking the GPU "
    "memory wall for extreme scale deep learning. arXiv:2104.07857"
)


def _citing(i: int) -> cl.Paper:
    return cl.Paper(
        title=f"Citing work {i} about offloading", year=2024, identifiers=[f"doi:10.5555/c.{i}"]
    )


def _listed(i: int) -> cl.Observation:
    return cl.Observation(
        direction=cl.Direction.INBOUND, citing=_citing(i), cited=P, source="lister", observed=NOW
    )


class _FlakyReferences:
    """Reference lists for citing works; the ``fail``-th call raises (a fetch failing midway)."""

    name = "flaky"
    capabilities = frozenset({cl.Capability.REFERENCES})

    def __init__(self, lists: dict[str, list[cl.Reference]], fail: int) -> None:
        self.lists = lists
        self.fail = fail
        self.calls: list[str] = []

    def references(self, identifier: Any) -> list[cl.Reference]:
        if str(identifier) not in self.lists:
            return []  # the paper's own (outbound) list: none here
        self.calls.append(str(identifier))
        if len(self.calls) == self.fail:
            raise SourceError("HTTP 503 after retries", source=self.name, status=503)
        return self.lists[str(identifier)]


def _lists() -> dict[str, list[cl.Reference]]:
    other = cl.Reference.from_string("Vaswani A (2017) Attention is all you need. NeurIPS")
    return {
        str(_citing(i).identifiers[0]): [
            cl.Reference(position=1, raw=other.raw, title=other.title, year=2017),
            cl.Reference.from_string(ENTRY, position=2 + i),
        ]
        for i in range(4)
    }


def test_a_fetch_failing_midway_keeps_everything_else() -> None:
    lister = FakeSource(
        name="lister", papers=[P], citations={"arXiv:2104.07857": [_listed(i) for i in range(4)]}
    )
    flaky = _FlakyReferences(_lists(), fail=2)
    record = cl.build_record("arXiv:2104.07857", [lister, flaky], now=NOW)
    by_work = {o.citing.title: o for o in record.inbound}
    assert len(by_work) == 4
    states = [by_work[f"Citing work {i} about offloading"] for i in range(4)]
    assert [o.state for o in states] == [
        cl.ResolutionState.VERIFIED_EXACT,
        None,
        cl.ResolutionState.VERIFIED_EXACT,
        cl.ResolutionState.VERIFIED_EXACT,
    ]
    assert [o.position for o in states] == [2, None, 4, 5]
    failed = states[1].check
    assert failed is not None
    assert failed.not_checked is NotChecked.FETCH_FAILED
    assert "HTTP 503" in (failed.reason or "")
    cov = record.coverage_of(cl.Facet.INBOUND_RESOLUTION)
    assert (cov.measured, cov.total, cov.state) == (3, 4, cl.CoverageState.PARTIAL)
    assert cov.reason == "1 not checked: reference list fetch failed"
    assert len(flaky.calls) == 4  # one fetch per citing work, none repeated
    errors = [r for r in record.reports if r.capability == "inbound_check" and r.error]
    assert len(errors) == 1


def test_no_list_available_is_not_checked_with_k_of_n() -> None:
    lister = FakeSource(
        name="lister", papers=[P], citations={"arXiv:2104.07857": [_listed(i) for i in range(3)]}
    )
    record = cl.build_record("arXiv:2104.07857", [lister], now=NOW)
    assert all(o.resolution is None for o in record.inbound)
    assert all(
        o.check is not None and o.check.not_checked is NotChecked.NO_SOURCE for o in record.inbound
    )
    cov = record.coverage_of(cl.Facet.INBOUND_RESOLUTION)
    assert (cov.measured, cov.total, cov.state) == (0, 3, cl.CoverageState.UNAVAILABLE)
    assert cov.reason == "3 not checked: no source has the reference list"
    text = record.render("text")
    assert "Resolution: not checked: no source has the reference list" in text
    assert not [line for line in text.splitlines() if line.startswith("Resolution: verified")]


def test_two_listing_sources_of_one_citing_work_cost_one_fetch() -> None:
    first_obs = cl.model.replace(_listed(0), source="a")
    first = FakeSource(name="a", papers=[P], citations={"arXiv:2104.07857": [first_obs]})
    second_obs = cl.model.replace(_listed(0), source="b")
    second = FakeSource(name="b", citations={"arXiv:2104.07857": [second_obs]})
    refs = _FlakyReferences(_lists(), fail=0)
    record = cl.build_record("arXiv:2104.07857", [first, second, refs], now=NOW)
    assert refs.calls == ["doi:10.5555/c.0"]
    assert sorted(o.source for o in record.inbound) == ["a", "b"]
    assert all(o.state is cl.ResolutionState.VERIFIED_EXACT for o in record.inbound)
    assert record.coverage_of(cl.Facet.INBOUND_RESOLUTION).describe() == (
        "measured 1 of 1 inbound resolution"
    )


def test_progress_counts_citing_works_checked() -> None:
    lister = FakeSource(
        name="lister", papers=[P], citations={"arXiv:2104.07857": [_listed(i) for i in range(4)]}
    )
    seen: list[int] = []
    cl.build_record(
        "arXiv:2104.07857",
        [lister, _FlakyReferences(_lists(), fail=0)],
        now=NOW,
        progress=lambda done, _total: seen.append(done),
    )
    quiet: list[int] = []
    cl.build_record(
        "arXiv:2104.07857",
        [lister],
        now=NOW,
        check_inbound=False,
        progress=lambda done, _total: quiet.append(done),
    )
    assert seen[-1] >= quiet[-1] + 4


def test_inbound_check_values() -> None:
    with pytest.raises(cl.ModelError):
        InboundCheck(status=CheckStatus.CHECKED, not_checked=NotChecked.CAP)
    with pytest.raises(cl.ModelError):
        InboundCheck(status=CheckStatus.NOT_CHECKED)
    c = InboundCheck(status="checked", source="crossref", entries=70, checked=NOW)
    assert c.describe() == "checked against crossref reference list (70 entries)"
    assert InboundCheck(status="asserted", source="openalex").describe() == (
        "as asserted by openalex"
    )
    assert NotChecked.CAP.label == "beyond the disclosed check cap"


def test_sample_keeps_its_stored_checks() -> None:
    src = SampleSource()
    record = cl.build_record(ZERO_INFINITY, [src], now=src.as_of(ZERO_INFINITY))
    assert all(
        o.check is not None and o.check.status is CheckStatus.CHECKED for o in record.inbound
    )
    assert record.coverage_of(cl.Facet.INBOUND_RESOLUTION).describe() == (
        "measured 7 of 7 inbound resolution"
    )
