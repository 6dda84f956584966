"""Semantic Scholar pure half: the hand-written bodies in tests/fixtures/semanticscholar."""

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
from tests.conftest import SOURCES, fixture_bytes, requires_shared

S2_DIR = SOURCES / "semanticscholar"
NOW = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)
BATCH_IDS = [
    "CorpusId:211530585",
    "CorpusId:470001",
    "10.2139/ssrn.9990001",
    "d4e5f60718293a4b5c6d7e8f9012345678901234",
]


def body(name: str) -> bytes:
    """A hand-written body in ``tests/fixtures/semanticscholar/`` (the recorded shapes)."""
    return fixture_bytes("semanticscholar", name)


def recorded(name: str) -> bytes:
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


# --------------------------------------------------------------------------- fixture bodies


@requires_shared
def test_every_recorded_s2_file_parses() -> None:
    names = {p.name for p in S2_DIR.iterdir()}
    assert len(names) == 11
    paper = s2.parse_paper(recorded("paper-DOI-10.1038_s42256-024-00832-8.json"))
    assert CorpusId("258059792") in paper.identifiers
    last = s2.parse_citations_page(recorded("paper-citations-CorpusID-14514057-last-page.json"))
    assert (last.offset, last.next, len(last.items)) == (1800, None, 81)
    refs = s2.parse_references_page(
        recorded("paper-references-CorpusID-1033682-contexts-intents-page1.json")
    )
    assert sum(1 for link in refs.items if link.contexts) == 11
    for name in sorted(n for n in names if n.startswith("error-")):
        with pytest.raises(ParseError, match="not a paper object"):
            s2.parse_paper(recorded(name))


def test_paper_by_doi() -> None:
    paper = s2.parse_paper(body("paper-doi.json"))
    assert paper.title == "Counting citations with provenance"
    assert set(paper.identifiers) == {
        DOI("10.5555/ledger.2024.017"),
        ArxivId("2311.04321"),
        PMID("38000001"),
        PMCID("PMC10900001"),  # S2 gives the bare number
        S2PaperId("a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"),
        CorpusId("265000001"),  # an int in the JSON
    }
    assert [a.name for a in paper.authors][:2] == ["Rosa de la Cruz Ortega", "Tomasz Wójcik"]
    assert paper.authors[1].family == "Wójcik"
    assert len(paper.authors) == 3
    assert paper.year == 2023
    assert paper.date == dt.date(2023, 11, 8)
    assert paper.venue == "Journal of Scholarly Metrics"  # journal.name, not the short venue
    assert (paper.volume, paper.pages) == ("9", "101-118")  # "101 - 118" tidied
    assert paper.work_type is WorkType.ARTICLE
    assert paper.source == "semanticscholar"
    counts = s2.parse_citation_counts(
        body("paper-doi.json"), observed=NOW, subject="10.5555/ledger.2024.017"
    )
    assert [(m.kind, m.value, m.source) for m in counts] == [
        (MeasurementKind.CITED_BY, 41, "semanticscholar"),
        (MeasurementKind.INFLUENTIAL_CITED_BY, 3, "semanticscholar"),
    ]
    assert counts[0].subject == DOI("10.5555/ledger.2024.017")
    assert counts[0].observed == NOW


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
    assert first.title == "Do Bike Lanes Pay? Evidence from Forty Cities"
    assert CorpusId("470001") in first.identifiers
    assert first.areas == ("Economics", "Political Science")
    second = items[2].paper
    assert second is not None
    assert DOI("10.2139/ssrn.9990001") in second.identifiers
    assert second.title == "Microcredit and the Village Economy"
    third = items[3].paper
    assert third is not None
    assert S2PaperId(BATCH_IDS[3]) in third.identifiers
    # fieldsOfStudy is null there: areas fall back to s2FieldsOfStudy categories
    assert third.areas == ("Environmental Science", "Business")
    with pytest.raises(ParseError, match="expected 3 positions, got 4"):
        s2.parse_batch(body("paper-batch-with-null-for-unknown-id.json"), BATCH_IDS[:3])


def test_citations_first_page_has_next() -> None:
    page = s2.parse_citations_page(body("paper-citations-first-page.json"))
    assert (page.offset, page.next, len(page.items)) == (0, 3, 3)
    first = page.items[0]
    assert first.paper.title == "Provenance-aware bibliometrics: a survey"
    assert first.paper.identifiers == (S2PaperId("e5f60718293a4b5c6d7e8f901234567890123456"),)
    assert first.index == 0
    assert page.items[-1].index == 2
    # fields=title only: no contexts, intents or influence were asked for
    assert first.contexts == ()
    assert first.influential is None


def test_citations_last_page_has_no_next() -> None:
    page = s2.parse_citations_page(body("paper-citations-last-page.json"))
    assert (page.offset, page.next, len(page.items)) == (3, None, 2)
    assert page.items[0].index == 3
    assert page.items[0].paper.title == "Retractions in the citation record"
    no_id = [link for link in page.items if not link.paper.identifiers]
    assert len(no_id) == 1
    assert no_id[0].paper.title == "An Unindexed Thesis on Citation Counting"


def test_references_page_contexts_intents() -> None:
    page = s2.parse_references_page(body("paper-references-contexts-intents-page1.json"))
    assert (page.offset, page.next, len(page.items)) == (0, 4, 4)
    with_contexts = [link for link in page.items if link.contexts]
    assert len(with_contexts) == 2
    assert all(link.influential is False for link in page.items)
    first = page.items[0].paper
    assert first.title is not None
    assert first.title.startswith("ZeRO-Infinity: Breaking the GPU Memory Wall")
    assert ArxivId("2104.07857") in first.identifiers
    assert DOI("10.48550/arxiv.2104.07857") in first.identifiers
    garfield = page.items[1]
    assert garfield.intents == ("background",)
    assert len(garfield.contexts) == 1
    assert page.items[2].paper.identifiers == ()  # paperId null, externalIds {}
    refs = [s2.link_reference(link) for link in page.items]
    assert [r.position for r in refs] == list(range(1, 5))
    assert refs[1].get_extra("intent") == "background"
    assert refs[1].get_extra("position_basis") == "semanticscholar listing order"
    assert refs[1].identifiers[0] == DOI("10.1126/science.122.3159.108")
    subject = s2.paper_from_json({"paperId": None, "externalIds": {"CorpusId": 265000001}})
    obs = s2.link_observation(
        page.items[1], subject=subject, direction=Direction.OUTBOUND, observed=NOW
    )
    assert obs.citing == subject
    assert obs.cited == garfield.paper
    assert obs.position == 2
    assert obs.intents == ("background",)


def test_citation_item_with_contexts_intents() -> None:
    item = json.loads(body("citation-item-with-contexts-intents.json"))
    page = s2.parse_citations_page(json.dumps({"offset": 0, "data": [item]}).encode())
    (link,) = page.items
    assert link.intents == ("methodology", "background", "result")
    assert len(link.contexts) == 3
    assert link.contexts[0].startswith("Counts were taken from three sources")
    assert link.influential is True
    citing = link.paper
    assert citing.title == "Ledgers, revisited"
    assert DOI("10.5555/jsm.2025.3") in citing.identifiers
    assert CorpusId("270000003") in citing.identifiers
    assert (citing.venue, citing.volume, citing.pages, citing.year) == (
        "Journal of Scholarly Metrics",
        "10",
        "1-19",
        2025,
    )
    cited = s2.paper_from_json({"externalIds": {"CorpusId": 265000001}})
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


def test_search_match() -> None:
    (paper,) = s2.parse_search(body("paper-search-match.json"))
    assert paper.title == "Counting citations with provenance"
    assert CorpusId("265000001") in paper.identifiers


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("error-400-unrecognized-fields.json", "Unrecognized or unsupported fields: [colour]"),
        ("error-404-paper-id-not-found.json", "Paper with id DOI:10.5555/missing.404 not found"),
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


def test_html_and_truncated_bodies() -> None:
    with pytest.raises(ParseError, match="not JSON"):
        s2.parse_paper(b"<!doctype html><title>502 Bad Gateway</title>")
    truncated = body("paper-citations-first-page.json")[:-40]
    with pytest.raises(ParseError, match="not JSON"):
        s2.parse_citations_page(truncated)
