"""Semantic Scholar pure half: every recording in ../shared/data/sources/semanticscholar."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from citeledger import (
    DOI,
    PMCID,
    PMID,
    ArxivId,
    CorpusId,
    Direction,
    InvalidIdentifier,
    Method,
    ParseError,
    ResolutionState,
    S2PaperId,
)
from citeledger.model import MeasurementKind, WorkType
from citeledger.sources import semanticscholar as s2
from tests.conftest import SOURCES, requires_shared

S2_DIR = SOURCES / "semanticscholar"
NOW = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)
BATCH_IDS = [
    "CorpusId:211530585",
    "CorpusId:470667",
    "10.2139/ssrn.2250500",
    "0f40b1f08821e22e859c6050916cec3667778613",
]


def body(name: str) -> bytes:
    return (S2_DIR / name).read_bytes()


# --------------------------------------------------------------------------- requests (pure)


def test_s2_paper_id_forms() -> None:
    assert s2.s2_paper_id("10.1038/S42256-024-00832-8") == "DOI:10.1038/s42256-024-00832-8"
    assert s2.s2_paper_id(ArxivId("2104.12255v1")) == "ARXIV:2104.12255"
    assert s2.s2_paper_id("CorpusId:14514057") == "CorpusId:14514057"
    assert s2.s2_paper_id(PMID("38799228")) == "PMID:38799228"
    assert s2.s2_paper_id(PMCID("PMC11116106")) == "PMCID:11116106"
    sha = "354dcdebf3f8b5feeed5c62090e0bc1f0c28db06"
    assert s2.s2_paper_id(sha) == sha
    with pytest.raises(InvalidIdentifier, match="OpenAlex"):
        s2.s2_paper_id("W2741809807")


def test_build_requests() -> None:
    req = s2.build_paper_request("10.1000/a;b<c>", base_url="http://h/", api_key="k3y")
    assert req.url == "http://h/paper/DOI:10.1000/a%3Bb%3Cc%3E"
    assert req.header("x-api-key") == "k3y"
    assert "k3y" not in repr(req)
    cit = s2.build_citations_request("CorpusId:1", offset=9000, limit=999)
    assert dict(cit.params)["offset"] == "9000"
    assert cit.url.endswith("/paper/CorpusId:1/citations")
    with pytest.raises(ValueError, match="9999"):
        s2.build_citations_request("CorpusId:1", offset=9000, limit=1000)
    with pytest.raises(ValueError, match="1-1000"):
        s2.build_references_request("CorpusId:1", limit=1001)
    batch = s2.build_batch_request(["CorpusId:1", "DOI:10.1000/x"])
    assert batch.method == "POST"
    assert json.loads(batch.json_body or "") == {"ids": ["CorpusId:1", "DOI:10.1000/x"]}
    with pytest.raises(ValueError, match="500"):
        s2.build_batch_request(["CorpusId:1"] * 501)


# --------------------------------------------------------------------------- recordings


@requires_shared
def test_paper_doi_chemcrow() -> None:
    paper = s2.parse_paper(body("paper-DOI-10.1038_s42256-024-00832-8.json"))
    assert paper.title == "Augmenting large language models with chemistry tools"
    assert set(paper.identifiers) == {
        DOI("10.1038/s42256-024-00832-8"),
        ArxivId("2304.05376"),
        PMID("38799228"),
        PMCID("PMC11116106"),
        S2PaperId("354dcdebf3f8b5feeed5c62090e0bc1f0c28db06"),
        CorpusId("258059792"),
    }
    assert [a.name for a in paper.authors][:2] == ["Andrés M Bran", "Sam Cox"]
    assert paper.authors[0].family == "Bran"
    assert len(paper.authors) == 6
    assert paper.year == 2023
    assert paper.date == dt.date(2023, 4, 11)
    assert paper.venue == "Nature Machine Intelligence"
    assert (paper.volume, paper.pages) == ("6", "525-535")
    assert paper.work_type is WorkType.ARTICLE
    assert paper.source == "semanticscholar"
    counts = s2.parse_citation_counts(
        body("paper-DOI-10.1038_s42256-024-00832-8.json"),
        observed=NOW,
        subject="10.1038/s42256-024-00832-8",
    )
    assert [(m.kind, m.value, m.source) for m in counts] == [
        (MeasurementKind.CITED_BY, 500, "semanticscholar"),
        (MeasurementKind.INFLUENTIAL_CITED_BY, 20, "semanticscholar"),
    ]
    assert counts[0].subject == DOI("10.1038/s42256-024-00832-8")
    assert counts[0].observed == NOW


@requires_shared
def test_batch_null_keeps_positions() -> None:
    items = s2.parse_batch(body("paper-batch-with-null-for-unknown-id.json"), BATCH_IDS)
    assert [i.status for i in items] == [
        s2.BatchStatus.NOT_FOUND,
        s2.BatchStatus.FOUND,
        s2.BatchStatus.FOUND,
        s2.BatchStatus.FOUND,
    ]
    assert [i.requested for i in items] == BATCH_IDS
    assert items[0].paper is None
    first = items[1].paper
    assert first is not None
    assert first.title == "How Much Should We Trust Differences-in-Differences Estimates?"
    assert CorpusId("470667") in first.identifiers
    assert first.areas == ("Psychology", "Economics", "Mathematics")
    second = items[2].paper
    assert second is not None
    assert DOI("10.2139/ssrn.2250500") in second.identifiers
    assert second.title == "The Miracle of Microfinance? Evidence from a Randomized Evaluation"
    third = items[3].paper
    assert third is not None
    assert S2PaperId(BATCH_IDS[3]) in third.identifiers
    # fieldsOfStudy is null there: areas fall back to s2FieldsOfStudy categories
    assert third.areas == ("Environmental Science", "Business", "Economics")
    with pytest.raises(ParseError, match="expected 3 positions, got 4"):
        s2.parse_batch(body("paper-batch-with-null-for-unknown-id.json"), BATCH_IDS[:3])


@requires_shared
def test_citations_first_page_has_next() -> None:
    page = s2.parse_citations_page(body("paper-citations-CorpusID-14514057-first-page.json"))
    assert (page.offset, page.next, len(page.items)) == (0, 100, 100)
    first = page.items[0]
    assert first.paper.title == (
        "We’ve got you covered! The effect of public health insurance on rural entrepreneurship in China"
    )
    assert first.paper.identifiers == (S2PaperId("344e7fb2000d9063cbc9deb550e46946bafe3c90"),)
    assert first.index == 0
    assert page.items[-1].index == 99
    # fields=title only: no contexts, intents or influence were asked for
    assert first.contexts == ()
    assert first.influential is None


@requires_shared
def test_citations_last_page_has_no_next() -> None:
    page = s2.parse_citations_page(body("paper-citations-CorpusID-14514057-last-page.json"))
    assert (page.offset, page.next, len(page.items)) == (1800, None, 81)
    assert page.items[0].index == 1800
    assert (
        page.items[0].paper.title
        == "POVERTY LINES, HOUSEHOLD ECONOMIES OF SCALE AND URBAN POVERTY IN MALAYSIA"
    )
    no_id = [link for link in page.items if not link.paper.identifiers]
    assert len(no_id) == 4
    assert no_id[0].paper.title == "The Construction of a Major Macromarketing Research Collection"


@requires_shared
def test_references_page_contexts_intents() -> None:
    page = s2.parse_references_page(
        body("paper-references-CorpusID-1033682-contexts-intents-page1.json")
    )
    assert (page.offset, page.next, len(page.items)) == (0, 100, 100)
    with_contexts = [link for link in page.items if link.contexts]
    assert len(with_contexts) == 11
    assert all(link.influential is False for link in page.items)
    first = page.items[0].paper
    assert first.title is not None
    assert first.title.startswith("Controlled Sparsity via Constrained Optimization")
    assert ArxivId("2208.04425") in first.identifiers
    assert DOI("10.48550/arxiv.2208.04425") in first.identifiers
    scattering = page.items[30]
    assert scattering.intents == ("background",)
    assert len(scattering.contexts) == 1
    refs = [s2.link_reference(link) for link in page.items]
    assert [r.position for r in refs] == list(range(1, 101))
    assert refs[30].get_extra("intent") == "background"
    assert refs[30].get_extra("position_basis") == "semanticscholar listing order"
    assert refs[30].identifiers[0] == DOI("10.1109/tpami.2018.2855738")
    subject = s2.paper_from_json({"paperId": None, "externalIds": {"CorpusId": 1033682}})
    obs = s2.link_observation(
        page.items[30], subject=subject, direction=Direction.OUTBOUND, observed=NOW
    )
    assert obs.citing == subject
    assert obs.cited == scattering.paper
    assert obs.position == 31
    assert obs.intents == ("background",)


@requires_shared
def test_citation_item_with_contexts_intents() -> None:
    item = json.loads(body("citation-item-with-contexts-intents.json"))
    page = s2.parse_citations_page(json.dumps({"offset": 0, "data": [item]}).encode())
    (link,) = page.items
    assert link.intents == ("result", "background", "methodology")
    assert len(link.contexts) == 4
    assert link.contexts[0].startswith("RP is implemented by fixing the release position")
    assert link.influential is True
    citing = link.paper
    assert citing.title == "Learning to Throw With a Handful of Samples Using Decision Transformers"
    assert DOI("10.1109/lra.2022.3229266") in citing.identifiers
    assert CorpusId("254723237") in citing.identifiers
    assert (citing.venue, citing.volume, citing.pages, citing.year) == (
        "IEEE Robotics and Automation Letters",
        "8",
        "576-583",
        2023,
    )
    cited = s2.paper_from_json({"externalIds": {"CorpusId": 49313245}})
    obs = s2.link_observation(link, subject=cited, direction=Direction.INBOUND, observed=NOW)
    assert obs.direction is Direction.INBOUND
    assert obs.citing == citing
    assert obs.cited == cited
    assert obs.state is ResolutionState.VERIFIED_EXACT
    assert obs.method is Method.S2
    assert obs.influential is True
    assert obs.intents == link.intents
    assert obs.contexts == link.contexts
    assert obs.position is None
    assert obs.source == "semanticscholar"


@requires_shared
def test_search_match() -> None:
    (paper,) = s2.parse_search(body("paper-search-match-chemcrow.json"))
    assert paper.title == "Augmenting large language models with chemistry tools"
    assert CorpusId("258059792") in paper.identifiers


@requires_shared
@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("error-400-unrecognized-fields.json", "Unrecognized or unsupported fields: [unknown]"),
        (
            "error-404-paper-id-not-found.json",
            "Paper with id DOI:10.1101/2024.04.01.587366 not found",
        ),
        ("error-429-too-many-requests.json", "Too Many Requests."),
        ("error-504-endpoint-request-timed-out.json", "Endpoint request timed out"),
    ],
)
def test_error_bodies_are_not_papers(name: str, text: str) -> None:
    raw = body(name)
    assert text in raw.decode()
    with pytest.raises(ParseError, match="not a paper object"):
        s2.parse_paper(raw)
    with pytest.raises(ParseError, match="no 'data' array"):
        s2.parse_citations_page(raw)


@requires_shared
def test_html_and_truncated_bodies() -> None:
    with pytest.raises(ParseError, match="not JSON"):
        s2.parse_paper(b"<!doctype html><title>502 Bad Gateway</title>")
    truncated = body("paper-citations-CorpusID-14514057-first-page.json")[:-40]
    with pytest.raises(ParseError, match="not JSON"):
        s2.parse_citations_page(truncated)
