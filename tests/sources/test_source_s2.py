"""Semantic Scholar pure half: the hand-written bodies in tests/fixtures/semanticscholar."""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING

import pytest
from werkzeug import Request as WRequest
from werkzeug import Response as WResponse

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
    load_source,
)
from citeledger.errors import BadRequestError, QuotaExceededError, RateLimitError, ServerError
from citeledger.model import MeasurementKind, WorkType
from citeledger.sources import CountedCitationSource, EventSource
from citeledger.sources import semanticscholar as s2
from citeledger.sources._transport import RequestsTransport, RetryPolicy
from citeledger.sources.semanticscholar import BatchStatus, SemanticScholarSource
from tests.conftest import SOURCES, fixture_bytes, requires_shared

if TYPE_CHECKING:
    from pytest_httpserver import HTTPServer


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


# --- Semantic Scholar edge over real sockets: a local HTTP server serves the fixture bodies.


NOW_EDGE = dt.datetime(2026, 1, 2, tzinfo=dt.UTC)

JSON = "application/json"


class Sleeps(list[float]):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


def make_source(httpserver: HTTPServer, sleeps: Sleeps, **kw: object) -> SemanticScholarSource:
    transport = RequestsTransport(
        policy=RetryPolicy(max_attempts=3, backoff_base=0.25, jitter=False, read_timeout=5),
        sleep=sleeps,
    )
    return SemanticScholarSource(
        base_url=httpserver.url_for("/"),
        transport=transport,
        now=lambda: NOW_EDGE,
        **kw,  # type: ignore[arg-type]
    )


LEDGER = "/paper/DOI:10.5555/ledger.2024.017"


def test_paper_over_http(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    httpserver.expect_oneshot_request(
        LEDGER, headers={"x-api-key": "s3cret-key"}
    ).respond_with_data(body("paper-doi.json"), content_type=JSON)
    src = make_source(httpserver, sleeps, api_key="s3cret-key")
    paper = src.paper("https://doi.org/10.5555/LEDGER.2024.017")
    assert paper is not None
    assert paper.title == "Counting citations with provenance"
    assert "s3cret-key" not in repr(src)
    httpserver.check_assertions()
    ((req, _),) = httpserver.log
    assert "externalIds" in req.args["fields"]


def test_404_is_none(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    httpserver.expect_oneshot_request("/paper/DOI:10.5555/missing.404").respond_with_data(
        body("error-404-paper-id-not-found.json"), status=404, content_type=JSON
    )
    assert make_source(httpserver, sleeps).paper("10.5555/missing.404") is None
    assert len(httpserver.log) == 1
    assert sleeps == []


def test_400_is_bad_request_not_retried(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    httpserver.expect_request(LEDGER).respond_with_data(
        body("error-400-unrecognized-fields.json"), status=400, content_type=JSON
    )
    with pytest.raises(BadRequestError) as info:
        make_source(httpserver, sleeps).paper("10.5555/ledger.2024.017")
    assert info.value.detail == "Unrecognized or unsupported fields: [colour]"
    assert info.value.source == "semanticscholar"
    assert info.value.attempt == 1
    assert len(httpserver.log) == 1


def test_429_without_retry_after_then_success(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    for _ in range(2):
        httpserver.expect_ordered_request(LEDGER).respond_with_data(
            body("error-429-too-many-requests.json"), status=429, content_type=JSON
        )
    httpserver.expect_ordered_request(LEDGER).respond_with_data(
        body("paper-doi.json"), content_type=JSON
    )
    paper = make_source(httpserver, sleeps).paper("10.5555/ledger.2024.017")
    assert paper is not None
    assert paper.year == 2023
    assert len(httpserver.log) == 3
    # No Retry-After header: exponential backoff 0.25 s, 0.5 s (jitter off)
    assert sleeps == [0.25, 0.5]


def test_429_exhausted_is_rate_limit(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    httpserver.expect_request(LEDGER).respond_with_data(
        body("error-429-too-many-requests.json"), status=429, content_type=JSON
    )
    with pytest.raises(RateLimitError) as info:
        make_source(httpserver, sleeps).paper("10.5555/ledger.2024.017")
    assert info.value.attempt == 3
    assert info.value.detail.startswith("Too Many Requests.")
    assert len(httpserver.log) == 3


def test_403_forbidden_is_quota_never_retried(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    httpserver.expect_request(LEDGER).respond_with_json({"message": "Forbidden"}, status=403)
    src = make_source(httpserver, sleeps, api_key="s3cret-key")
    with pytest.raises(QuotaExceededError) as info:
        src.paper("10.5555/ledger.2024.017")
    assert len(httpserver.log) == 1
    assert sleeps == []
    assert "s3cret-key" not in str(info.value)
    assert "s3cret-key" not in repr(info.value)


def test_citation_counts(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    httpserver.expect_request(LEDGER).respond_with_data(body("paper-doi.json"), content_type=JSON)
    counts = make_source(httpserver, sleeps).citation_counts("10.5555/ledger.2024.017")
    assert {m.kind: m.value for m in counts} == {
        MeasurementKind.CITED_BY: 41,
        MeasurementKind.INFLUENTIAL_CITED_BY: 3,
    }
    assert all(m.source == "semanticscholar" and m.observed == NOW_EDGE for m in counts)


def test_search(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    httpserver.expect_request("/paper/search").respond_with_data(
        body("paper-search-match.json"), content_type=JSON
    )
    found = make_source(httpserver, sleeps).search("Counting citations with provenance")
    assert [p.title for p in found] == ["Counting citations with provenance"]
    ((req, _),) = httpserver.log
    assert req.args["query"] == "Counting citations with provenance"


BATCH_IDS_EDGE = [
    "CorpusId:211530585",
    "W2741809807",  # an OpenAlex id: S2 cannot look it up; must not lose the others
    "CorpusId:470001",
    "10.2139/ssrn.9990001",
    "d4e5f60718293a4b5c6d7e8f9012345678901234",
]


def test_batch_with_nulls_keeps_order(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    httpserver.expect_request("/paper/batch", method="POST").respond_with_data(
        body("paper-batch-with-null-for-unknown-id.json"), content_type=JSON
    )
    items = make_source(httpserver, sleeps).batch(BATCH_IDS_EDGE)
    assert [i.requested for i in items] == BATCH_IDS_EDGE
    assert [i.status for i in items] == [
        BatchStatus.NOT_FOUND,
        BatchStatus.INVALID,
        BatchStatus.FOUND,
        BatchStatus.FOUND,
        BatchStatus.FOUND,
    ]
    assert items[1].reason is not None
    assert "OpenAlex" in items[1].reason
    assert items[2].paper is not None
    assert CorpusId("470001") in items[2].paper.identifiers
    ((req, _),) = httpserver.log
    assert json.loads(req.get_data()) == {
        "ids": [
            "CorpusId:211530585",
            "CorpusId:470001",
            "DOI:10.2139/ssrn.9990001",
            "d4e5f60718293a4b5c6d7e8f9012345678901234",
        ]
    }


def test_batch_failed_chunk_loses_only_its_ids(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    ids = [f"CorpusId:{n}" for n in range(1, 502)]  # 501 ids: chunks of 500 and 1

    def handler(request: WRequest) -> WResponse:
        sent = json.loads(request.get_data())["ids"]
        if len(sent) == 500:
            return WResponse(
                body("error-400-unrecognized-fields.json"), status=400, content_type=JSON
            )
        return WResponse(json.dumps([{"paperId": None, "title": "Last one"}]), content_type=JSON)

    httpserver.expect_request("/paper/batch", method="POST").respond_with_handler(handler)
    items = make_source(httpserver, sleeps).batch(ids)
    assert len(items) == 501
    assert {i.status for i in items[:500]} == {BatchStatus.ERROR}
    assert items[0].reason is not None
    assert "bad request" in items[0].reason
    assert items[500].status is BatchStatus.FOUND
    assert items[500].paper is not None
    assert items[500].paper.title == "Last one"


CITATIONS = "/paper/CorpusId:14514057/citations"

COUNT_PATH = "/paper/CorpusId:14514057"


def test_citations_paging_stops_on_last_page(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    httpserver.expect_ordered_request(COUNT_PATH).respond_with_json({"citationCount": 5})
    httpserver.expect_ordered_request(CITATIONS).respond_with_data(
        body("paper-citations-first-page.json"), content_type=JSON
    )
    httpserver.expect_ordered_request(CITATIONS).respond_with_data(
        body("paper-citations-last-page.json"), content_type=JSON
    )
    paged = make_source(httpserver, sleeps, page_size=3).citations("CorpusId:14514057")
    observations = list(paged)
    assert len(observations) == 5
    assert (paged.fetched, paged.total, paged.complete, paged.capped, paged.error) == (
        5,
        5,
        True,
        False,
        None,
    )
    assert [r.args["offset"] for r, _ in httpserver.log[1:]] == ["0", "3"]
    assert [r.args["limit"] for r, _ in httpserver.log[1:]] == ["3", "3"]
    first = observations[0]
    assert first.direction is Direction.INBOUND
    assert first.cited is not None
    assert first.cited.identifiers == (CorpusId("14514057"),)
    assert first.state is ResolutionState.VERIFIED_EXACT
    assert first.method is Method.S2
    assert first.observed == NOW_EDGE
    assert first.citing.title == "Provenance-aware bibliometrics: a survey"
    # one citing paper has no paperId: its title keeps the observation ids distinct
    assert sum(1 for o in observations if not o.citing.identifiers) == 1
    assert len({o.id for o in observations}) == 5


def test_citations_mid_paging_failure_keeps_what_was_fetched(
    httpserver: HTTPServer, sleeps: Sleeps
) -> None:
    httpserver.expect_ordered_request(COUNT_PATH).respond_with_json({"citationCount": 1881})
    httpserver.expect_ordered_request(CITATIONS).respond_with_data(
        body("paper-citations-first-page.json"), content_type=JSON
    )
    for _ in range(3):
        httpserver.expect_ordered_request(CITATIONS).respond_with_data(
            body("error-504-endpoint-request-timed-out.json"), status=504, content_type=JSON
        )
    paged = make_source(httpserver, sleeps, page_size=3).citations("CorpusId:14514057")
    got = list(paged)
    assert len(got) == 3
    assert (paged.fetched, paged.total, paged.complete) == (3, 1881, False)
    assert isinstance(paged.error, ServerError)
    assert paged.error.detail == "Endpoint request timed out"
    assert paged.error.attempt == 3
    assert sleeps == [0.25, 0.5]
    with pytest.raises(ServerError):
        paged.raise_for_error()


def test_citations_stop_at_the_9999_window(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    def handler(request: WRequest) -> WResponse:
        offset, limit = int(request.args["offset"]), int(request.args["limit"])
        assert offset + limit <= 9999
        page = {
            "offset": offset,
            "next": offset + limit,
            "data": [{"citingPaper": {"paperId": None, "title": f"p{offset}"}}],
        }
        return WResponse(json.dumps(page), content_type=JSON)

    httpserver.expect_request(CITATIONS).respond_with_handler(handler)
    src = make_source(httpserver, sleeps, page_size=1000, announce_total=False)
    paged = src.citations("CorpusId:14514057")
    got = list(paged)
    assert len(got) == 10  # offsets 0, 1000, ..., 9000 (the last with limit 999)
    assert [r.args["limit"] for r, _ in httpserver.log][-1] == "999"
    assert paged.capped is True
    assert paged.complete is False
    assert paged.error is None
    assert paged.total is None


def test_references_over_http(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    path = "/paper/CorpusId:1033682/references"
    httpserver.expect_ordered_request(path).respond_with_data(
        body("paper-references-contexts-intents-page1.json"), content_type=JSON
    )
    httpserver.expect_ordered_request(path).respond_with_json({"offset": 4, "data": []})
    refs = make_source(httpserver, sleeps, announce_total=False).references("CorpusId:1033682")
    assert len(refs) == 4
    assert [r.position for r in refs[:3]] == [1, 2, 3]
    assert refs[0].title is not None
    assert refs[0].title.startswith("ZeRO-Infinity: Breaking the GPU Memory Wall")


def test_unsupported_events(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    src = make_source(httpserver, sleeps)
    assert not isinstance(src, EventSource)
    assert isinstance(src, CountedCitationSource)


def test_load_source_by_name(httpserver: HTTPServer) -> None:
    src = load_source("semanticscholar", base_url=httpserver.url_for("/"), min_interval=0)
    assert src.name == "semanticscholar"
    assert isinstance(src, SemanticScholarSource)
    assert src.base_url == httpserver.url_for("/").rstrip("/")
