"""OpenAlex: every recorded response parsed with concrete assertions; the edge over a local server."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from pytest_httpserver import HTTPServer, RequestHandler

import citeledger as cl
from citeledger.errors import (
    InvalidIdentifier,
    InvalidResponseError,
    NotFoundError,
    ParseError,
    ServerError,
)
from citeledger.identifiers import OpenAlexId, normalize_arxiv, normalize_doi, parse_identifier
from citeledger.model import (
    Direction,
    EventKind,
    MeasurementKind,
    Method,
    NoticeStatus,
    Reference,
    ResolutionState,
    WorkType,
)
from citeledger.sources import Capability
from citeledger.sources._transport import RequestsTransport, RetryPolicy
from citeledger.sources.openalex import (
    BATCH_SIZE,
    OpenAlexSource,
    build_batch_request,
    build_work_request,
    parse_work,
    parse_work_list,
    rebuild_abstract,
    work_path,
)
from tests.conftest import FakeTime, fixture_bytes, requires_shared
from tests.sources.conftest import NOW, recording_dirs

OPENALEX, FIXTURE_DIR = recording_dirs("openalex")
SECRET = "oa-key-5f3c2a1b9d"


def recorded(name: str) -> bytes:
    """A hand-written body in ``tests/fixtures/openalex/`` (the shapes of the ../shared recordings)."""
    return fixture_bytes("openalex", name)


def recorded_json(name: str) -> Any:
    return json.loads(recorded(name))


# --------------------------------------------------------------------------- fixture bodies


def test_every_openalex_fixture_is_covered() -> None:
    assert {p.name for p in FIXTURE_DIR.iterdir()} == {
        "work-W-id.json",
        "work-doi-lookup.json",
        "works-title-search-two-versions.json",
    }


@requires_shared
def test_every_recorded_openalex_file_parses() -> None:
    assert {p.name for p in OPENALEX.iterdir()} == {
        "work-W2741809807.json",
        "work-doi-10.1016_j.addr.2015.01.008.json",
        "works-filter-title-search-chemcrow.json",
    }
    work = parse_work((OPENALEX / "work-W2741809807.json").read_bytes())
    assert (work.cited_by_count, work.referenced_works_count, len(work.references)) == (962, 45, 45)
    by_doi = parse_work((OPENALEX / "work-doi-10.1016_j.addr.2015.01.008.json").read_bytes())
    assert by_doi.id == OpenAlexId(value="W2033425827")
    page = parse_work_list((OPENALEX / "works-filter-title-search-chemcrow.json").read_bytes())
    assert [w.paper.work_type for w in page.works] == [WorkType.ARTICLE, WorkType.PREPRINT]


def test_work_by_w_id() -> None:
    work = parse_work(recorded("work-W-id.json"))
    paper = work.paper
    assert work.id == OpenAlexId(value="W4390000017")
    assert [str(i) for i in paper.identifiers] == [
        "openalex:W4390000017",
        "doi:10.5555/ledger.2024.017",
        "pmid:38000001",
        "pmcid:PMC10900001",
    ]
    assert paper.title == "Counting citations with provenance"
    assert (paper.year, paper.date, paper.venue, paper.volume, paper.pages) == (
        2024,
        dt.date(2024, 3, 14),
        "Journal of Scholarly Metrics",
        "9",
        "101-118",
    )
    assert paper.work_type is WorkType.ARTICLE
    assert (work.cited_by_count, work.referenced_works_count, work.is_retracted) == (59, 4, False)
    # newest-first in the body; 57 in all, two fewer than cited_by_count
    assert work.counts_by_year == {2024: 7, 2025: 30, 2026: 20}
    assert len(work.references) == 4
    assert [r.position for r in work.references] == list(range(1, 5))
    assert work.references[0].identifiers == (OpenAlexId(value="W1000000001"),)
    assert all(
        r.get_extra("order") == "openalex_list" and r.asserted_by == "openalex"
        for r in work.references
    )
    assert paper.areas[:2] == (
        "scientometrics and bibliometrics research",
        "Academic Publishing and Open Access",
    )
    assert "Computer science" in paper.areas  # a level-0 concept
    assert "Citation" not in paper.areas  # a level-2 concept is too fine to be an area
    # Rebuilt from the inverted index, words in position order.
    assert paper.abstract == (
        "Citation counts differ between sources, and a ledger records each of them with its "
        "provenance."
    )
    first = paper.authors[0]
    assert (first.name, first.orcid, first.affiliations) == (
        "Rosa de la Cruz Ortega",
        "0000-0001-5109-3700",
        ("Universidad de Ejemplo",),
    )
    assert paper.authors[1].orcid is None  # "orcid": null


def test_work_by_doi_url_lookup() -> None:
    work = parse_work(recorded("work-doi-lookup.json"))
    assert work.id == OpenAlexId(value="W2000000042")
    assert work.paper.identifier("doi") == normalize_doi("10.5555/review.2015.42")
    assert work.paper.title == "Uptake of small molecules by cultured cells: a review"
    assert work.paper.work_type is WorkType.ARTICLE  # OpenAlex "review"
    assert work.paper.pages == "46-51"
    assert (work.cited_by_count, len(work.references), work.is_retracted) == (88, 3, False)
    assert len(work.counts_by_year) == 3
    assert min(work.counts_by_year) == 2015
    assert work.paper.areas == ()  # no topics, no concepts
    ids = [int(r.identifiers[0].value[1:]) for r in work.references]
    assert ids != sorted(ids)  # the list is not sorted by id: no order is promised


def test_title_search_returns_journal_version_and_arxiv_preprint() -> None:
    page = parse_work_list(recorded("works-title-search-two-versions.json"))
    assert (page.total, page.page, page.per_page, page.next_cursor) == (2, 1, 25, None)
    journal, preprint = page.works
    assert journal.id == OpenAlexId(value="W3150000001")
    assert journal.paper.identifier("doi") == normalize_doi("10.1145/3458817.3476205")
    assert journal.paper.work_type is WorkType.PROCEEDINGS_ARTICLE
    assert (journal.paper.volume, journal.paper.issue, journal.paper.pages) == (None, None, "1-14")
    assert journal.relevance_score == pytest.approx(812.5)
    assert preprint.id == OpenAlexId(value="W3150000002")
    assert preprint.paper.identifiers == (
        OpenAlexId(value="W3150000002"),
        normalize_doi("10.48550/arxiv.2104.07857"),
        normalize_arxiv("2104.07857"),
    )
    assert preprint.paper.work_type is WorkType.PREPRINT
    assert preprint.paper.title == journal.paper.title
    assert preprint.paper.venue == "arXiv (Cornell University)"
    assert (preprint.cited_by_count, preprint.references) == (95, ())
    assert journal.paper.key != preprint.paper.key  # two records: clustering is the resolver's job
    assert preprint.paper.key == "arxiv:2104.07857"


def test_rebuild_abstract_orders_words_by_position() -> None:
    assert rebuild_abstract({"b": [1], "a": [0, 2]}) == "a b a"
    assert rebuild_abstract({}) is None
    assert rebuild_abstract(None) is None


def test_work_paths_and_requests() -> None:
    assert work_path("pmid:29456894") == "/works/pmid:29456894"
    assert work_path("PMC5815332") == "/works/pmcid:PMC5815332"
    with pytest.raises(InvalidIdentifier):
        work_path("CorpusId:1033682")
    r = build_work_request("W1", api_key=SECRET, mailto="me@example.org", select=["id", "doi"])
    assert SECRET not in repr(r)
    assert r.redacted_url() == (
        "https://api.openalex.org/works/W1?mailto=me%40example.org&api_key=REDACTED&select=id%2Cdoi"
    )
    ids = [parse_identifier(f"W{i}") for i in range(1, BATCH_SIZE + 2)]
    with pytest.raises(ValueError, match="at most 50"):
        build_batch_request(ids)
    with pytest.raises(ValueError, match="one filter kind"):
        build_batch_request([parse_identifier("W1"), normalize_doi("10.1234/x")])
    with pytest.raises(ParseError):
        parse_work(b'{"id": "not an id"}')
    with pytest.raises(ParseError):
        parse_work_list(b'{"meta": {}}')


# --------------------------------------------------------------------------- the edge, over sockets


def source(server: HTTPServer, fake: FakeTime, **options: Any) -> OpenAlexSource:
    policy = RetryPolicy(jitter=False, backoff_base=0.5, max_attempts=2)
    t = RequestsTransport(policy=policy, sleep=fake.sleep, clock=fake.clock)
    return OpenAlexSource(base_url=server.url_for("/"), transport=t, clock=lambda: NOW, **options)


HTML_404 = (
    b"<!doctype html>\n<html lang=en>\n<title>404 Not Found</title>\n<h1>Not Found</h1>\n"
    b"<p>The requested URL was not found on the server.</p>\n"
)


def test_work_by_id_counts_references_and_events(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works/W4390000017").respond_with_data(recorded("work-W-id.json"))
    src = source(httpserver, fake)
    paper = src.paper("https://openalex.org/W4390000017")
    assert paper is not None
    assert paper.identifier("doi") == normalize_doi("10.5555/ledger.2024.017")
    refs = src.references("W4390000017")
    assert len(refs) == 4
    (m,) = src.citation_counts("W4390000017")
    assert (m.value, m.source, m.kind, m.observed, str(m.subject)) == (
        59,
        "openalex",
        MeasurementKind.CITED_BY,
        NOW,
        "doi:10.5555/ledger.2024.017",
    )
    assert src.counts_by_year("W4390000017")[2025] == 30
    check = src.events("W4390000017")
    assert check.status is NoticeStatus.NONE_FOUND
    assert (check.sources, check.checked, check.retracted) == (("openalex",), NOW, False)


def test_work_by_doi_goes_through_the_doi_url(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works/https://doi.org/10.5555/review.2015.42").respond_with_data(
        recorded("work-doi-lookup.json")
    )
    paper = source(httpserver, fake).paper("doi:10.5555/REVIEW.2015.42")
    assert paper is not None
    assert paper.identifier("openalex") == OpenAlexId(value="W2000000042")


def test_arxiv_id_goes_through_its_datacite_doi(httpserver: HTTPServer, fake: FakeTime) -> None:
    preprint = recorded_json("works-title-search-two-versions.json")["results"][1]
    httpserver.expect_request("/works/https://doi.org/10.48550/arxiv.2104.07857").respond_with_json(
        preprint
    )
    paper = source(httpserver, fake).paper("arXiv:2104.07857v2")
    assert paper is not None
    assert normalize_arxiv("2104.07857") in paper.identifiers


def test_html_404_means_not_found(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works/https://doi.org/10.5555/not-in-openalex").respond_with_data(
        HTML_404, status=404, content_type="text/html; charset=utf-8"
    )
    src = source(httpserver, fake)
    assert src.paper("10.5555/not-in-openalex") is None
    with pytest.raises(NotFoundError) as info:
        src.events("10.5555/not-in-openalex")
    assert (info.value.detail, info.value.status, info.value.attempt) == ("404 Not Found", 404, 1)


def test_html_page_on_200_is_invalid(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works/W1").respond_with_data(
        HTML_404, status=200, content_type="text/html"
    )
    with pytest.raises(InvalidResponseError) as info:
        source(httpserver, fake).paper("W1")
    assert info.value.message == "HTML page where JSON was expected"
    assert info.value.detail == "404 Not Found"


def test_retracted_work_gives_a_retraction_event(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works/W42").respond_with_json(
        {
            "id": "https://openalex.org/W42",
            "doi": "https://doi.org/10.1234/retracted",
            "is_retracted": True,
        }
    )
    check = source(httpserver, fake).events("W42")
    assert check.status is NoticeStatus.EVENTS_FOUND
    assert check.retracted is True
    (event,) = check.events
    assert (event.kind, str(event.subject), event.source) == (
        EventKind.RETRACTION,
        "doi:10.1234/retracted",
        "openalex",
    )


def _list(works: list[Any], *, count: int, cursor: str | None) -> dict[str, Any]:
    return {"meta": {"count": count, "next_cursor": cursor, "per_page": 200}, "results": works}


def test_citations_cursor_paging_gives_inbound_observations(
    httpserver: HTTPServer, fake: FakeTime
) -> None:
    versions = recorded_json("works-title-search-two-versions.json")["results"]
    httpserver.expect_request("/works/W4390000017").respond_with_data(recorded("work-W-id.json"))
    q = {"filter": "cites:W4390000017", "per-page": "200"}
    httpserver.expect_request("/works", query_string={**q, "cursor": "*"}).respond_with_json(
        _list(
            [recorded_json("work-doi-lookup.json"), versions[0]],
            count=3,
            cursor="c2",
        )
    )
    httpserver.expect_request("/works", query_string={**q, "cursor": "c2"}).respond_with_json(
        _list([versions[1]], count=3, cursor="c3")
    )
    httpserver.expect_request("/works", query_string={**q, "cursor": "c3"}).respond_with_json(
        _list([], count=3, cursor=None)
    )
    src = source(httpserver, fake)
    paged = src.citations("W4390000017")
    observations = list(paged)
    assert [str(o.citing.identifiers[0]) for o in observations] == [
        "openalex:W2000000042",
        "openalex:W3150000001",
        "openalex:W3150000002",
    ]
    for o in observations:
        assert o.direction is Direction.INBOUND
        assert o.cited is not None
        assert o.cited.identifier("openalex") == OpenAlexId(value="W4390000017")
        assert (o.source, o.observed) == ("openalex", NOW)
        assert o.resolution is not None
        assert (o.state, o.method) == (ResolutionState.VERIFIED_EXACT, Method.OPENALEX)
    assert (paged.fetched, paged.total, paged.complete, paged.error) == (3, 3, True, None)
    assert len({o.id for o in observations}) == 3
    # Stops once 3 of 3 are fetched: the "c3" page is never asked for.
    assert len(httpserver.log) == 3
    assert [o.id for o in src.citations("W4390000017")] == [
        o.id for o in observations
    ]  # deterministic ids


def second_citing_page(httpserver: HTTPServer, *, count: int) -> RequestHandler:
    """Serve W4390000017 and its first citing page (one work, ``count`` announced, cursor c2).

    Returns the expectation of the second page (cursor c2), for the test to answer.
    """
    httpserver.expect_request("/works/W4390000017").respond_with_data(recorded("work-W-id.json"))
    httpserver.expect_request(
        "/works", query_string={"filter": "cites:W4390000017", "per-page": "200", "cursor": "*"}
    ).respond_with_json(_list([recorded_json("work-doi-lookup.json")], count=count, cursor="c2"))
    return httpserver.expect_request(
        "/works", query_string={"filter": "cites:W4390000017", "per-page": "200", "cursor": "c2"}
    )


def test_citations_failure_midway_keeps_what_was_fetched(
    httpserver: HTTPServer, fake: FakeTime
) -> None:
    second_citing_page(httpserver, count=962).respond_with_data(
        b'{"meta": {"count": 962}, "results": [{"id": "https://openalex.org/W1", "tit',
        content_type="application/json",
    )
    paged = source(httpserver, fake).citations("W4390000017")
    observations = list(paged)
    assert len(observations) == 1
    assert (paged.fetched, paged.total, paged.complete) == (1, 962, False)
    assert isinstance(paged.error, InvalidResponseError)
    assert paged.error.message == "truncated or invalid JSON"


def test_citations_503_midway_after_retries(httpserver: HTTPServer, fake: FakeTime) -> None:
    second_citing_page(httpserver, count=2).respond_with_data("unavailable", status=503)
    paged = source(httpserver, fake).citations("W4390000017")
    assert len(list(paged)) == 1
    assert isinstance(paged.error, ServerError)
    assert paged.error.attempt == 2
    assert fake.sleeps == [0.5]


def test_search_by_reference_title(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request(
        "/works",
        query_string={
            "filter": "title.search:ZeRO-Infinity Breaking the GPU Memory Wall",
            "per-page": "10",
        },
    ).respond_with_data(recorded("works-title-search-two-versions.json"))
    papers = source(httpserver, fake).search(
        Reference(title="ZeRO-Infinity, Breaking the GPU Memory Wall")
    )
    assert [str(p.identifiers[0]) for p in papers] == [
        "openalex:W3150000001",
        "openalex:W3150000002",
    ]


def test_batch_lookup_keeps_order_and_per_item_status(
    httpserver: HTTPServer, fake: FakeTime
) -> None:
    page = recorded("works-title-search-two-versions.json")
    httpserver.expect_request(
        "/works",
        query_string={
            "filter": "doi:10.1145/3458817.3476205|10.48550/arxiv.2104.07857|10.5555/unknown",
            "per-page": "50",
        },
    ).respond_with_data(page)
    httpserver.expect_request(
        "/works", query_string={"filter": "openalex:W3150000002", "per-page": "50"}
    ).respond_with_data(page)
    inputs = [
        "10.1145/3458817.3476205",
        "arXiv:2104.07857",
        "10.5555/unknown",
        "W3150000002",
        "no id",
        "CorpusId:1",
    ]
    results = source(httpserver, fake).papers(inputs)
    assert [r[0] for r in results] == inputs
    found = [None if r[1] is None else str(r[1].identifiers[0]) for r in results]
    assert found == [
        "openalex:W3150000001",
        "openalex:W3150000002",
        None,
        "openalex:W3150000002",
        None,
        None,
    ]
    assert [type(r[2]).__name__ if r[2] else None for r in results] == [
        None,
        None,
        None,
        None,
        "InvalidIdentifier",
        "InvalidIdentifier",
    ]
    assert len(httpserver.log) == 2


def test_batch_lookup_chunks_by_50_and_one_failed_chunk_loses_nothing_else(
    httpserver: HTTPServer, fake: FakeTime
) -> None:
    dois = [f"10.1234/item{i}" for i in range(55)]
    first = "|".join(dois[:50])
    httpserver.expect_request(
        "/works", query_string={"filter": f"doi:{first}", "per-page": "50"}
    ).respond_with_json(
        _list(
            [
                {"id": f"https://openalex.org/W{i + 1}", "doi": f"https://doi.org/{d}"}
                for i, d in enumerate(dois[:50])
            ],
            count=50,
            cursor=None,
        )
    )
    httpserver.expect_request("/works").respond_with_data("boom", status=500)
    results = source(httpserver, fake).papers(dois)
    assert [r[0] for r in results] == dois
    assert all(r[1] is not None and r[2] is None for r in results[:50])
    assert results[49][1] is not None
    assert results[49][1].identifier("openalex") == OpenAlexId(value="W50")
    assert all(r[1] is None and isinstance(r[2], ServerError) for r in results[50:])
    assert len(httpserver.log) == 3  # one good chunk; the second tried twice


def test_api_key_is_a_secret_param(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works/W1").respond_with_data(
        f"error near api_key={SECRET}", status=500
    )
    src = source(httpserver, fake, api_key=SECRET, mailto="me@example.org")
    assert SECRET not in repr(src)
    with pytest.raises(ServerError) as info:
        src.paper("W1")
    assert SECRET not in str(info.value)
    assert info.value.url.endswith("/works/W1?mailto=me%40example.org&api_key=REDACTED")
    assert httpserver.log[0][0].args["api_key"] == SECRET


def test_load_source_and_capabilities() -> None:
    src = cl.load_source("openalex", base_url="http://127.0.0.1:9", mailto="me@example.org")
    assert isinstance(src, OpenAlexSource)
    assert src.capabilities == {
        Capability.PAPER,
        Capability.REFERENCES,
        Capability.CITATIONS,
        Capability.EVENTS,
        Capability.CITATION_COUNTS,
        Capability.SEARCH,
        Capability.CITED_BY_YEAR,
    }
    assert isinstance(src, cl.Source)
    with pytest.raises(InvalidIdentifier):
        src.paper("CorpusId:1033682")
