"""Semantic Scholar edge over real sockets: a local HTTP server serves the fixture bodies."""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING

import pytest
from werkzeug import Request as WRequest
from werkzeug import Response as WResponse

from citeledger import CorpusId, Direction, Method, ResolutionState, load_source
from citeledger.errors import BadRequestError, QuotaExceededError, RateLimitError, ServerError
from citeledger.model import MeasurementKind
from citeledger.sources import CountedCitationSource, EventSource
from citeledger.sources._transport import RequestsTransport, RetryPolicy
from citeledger.sources.semanticscholar import BatchStatus, SemanticScholarSource
from tests.conftest import fixture_bytes

if TYPE_CHECKING:
    from pytest_httpserver import HTTPServer

NOW = dt.datetime(2026, 1, 2, tzinfo=dt.UTC)
JSON = "application/json"


def body(name: str) -> bytes:
    """A hand-written body in ``tests/fixtures/semanticscholar/`` (the recorded shapes)."""
    return fixture_bytes("semanticscholar", name)


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
        now=lambda: NOW,
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
    assert all(m.source == "semanticscholar" and m.observed == NOW for m in counts)


def test_search(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    httpserver.expect_request("/paper/search").respond_with_data(
        body("paper-search-match.json"), content_type=JSON
    )
    found = make_source(httpserver, sleeps).search("Counting citations with provenance")
    assert [p.title for p in found] == ["Counting citations with provenance"]
    ((req, _),) = httpserver.log
    assert req.args["query"] == "Counting citations with provenance"


BATCH_IDS = [
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
    items = make_source(httpserver, sleeps).batch(BATCH_IDS)
    assert [i.requested for i in items] == BATCH_IDS
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
    assert first.observed == NOW
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
