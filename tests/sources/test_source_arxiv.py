"""arXiv: every recorded feed parsed with concrete assertions; the edge over a real local server."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer

import citeledger as cl
from citeledger.errors import (
    BadRequestError,
    InvalidIdentifier,
    ParseError,
    ServerError,
)
from citeledger.identifiers import ArxivId, normalize_arxiv, normalize_doi
from citeledger.model import Reference, RelationKind, WorkType
from citeledger.sources import Capability, PaperSource, SearchSource
from citeledger.sources._transport import RequestsTransport, RetryPolicy
from citeledger.sources.arxiv import (
    MIN_INTERVAL,
    ArxivSource,
    build_query_request,
    parse_feed,
    reference_query,
)
from tests.conftest import FIXTURES, SOURCES, FakeTime, fixture_bytes, requires_shared
from tests.sources.conftest import assert_protocols, unusable_200

ARXIV = SOURCES / "arxiv"
FIXTURE_DIR = FIXTURES / "arxiv"


def fixture(name: str) -> bytes:
    """A hand-written feed in ``tests/fixtures/arxiv/`` (the shapes of the ../shared recordings)."""
    return fixture_bytes("arxiv", name)


# --------------------------------------------------------------------------- fixture feeds


def test_every_arxiv_fixture_is_covered() -> None:
    covered = {
        "empty-feed.xml",
        "partial-two-ids.xml",
        "versioned-id-title-zero.xml",
        "error-feed-http400.xml",
        "old-style-id.xml",
        "legacy-2016-search-page.xml",
        "search-page.xml",
    }
    assert {p.name for p in FIXTURE_DIR.iterdir()} == covered


@requires_shared
def test_every_recorded_arxiv_file_parses() -> None:
    recorded = {p.name: parse_feed(p.read_bytes()) for p in ARXIV.iterdir()}
    assert len(recorded) == 7
    assert recorded["id_list-abc-error-feed-http400.xml"].error == "incorrect id format for abc"
    assert recorded["id_list-0000.0000-empty-feed.xml"].entries == ()
    (zero,) = recorded["id_list-2104.12255v1-versioned-id.xml"].entries
    assert zero.paper.title == "0"
    legacy = recorded["legacy-2016-search_query-au-del_maestro.xml"]
    assert (legacy.total, legacy.start, legacy.per_page, len(legacy.entries)) == (31, 0, 10, 10)


def test_empty_feed_has_zero_total_and_no_entries() -> None:
    feed = parse_feed(fixture("empty-feed.xml"))
    assert (feed.total, feed.start, feed.per_page) == (0, 0, 100)
    assert feed.entries == ()
    assert feed.error is None


def test_partial_multi_id_feed_returns_only_the_known_id() -> None:
    feed = parse_feed(fixture("partial-two-ids.xml"))
    assert feed.total == 1
    (entry,) = feed.entries
    assert entry.id == normalize_arxiv("2104.07857v1")
    assert (
        entry.paper.title
        == "ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme Scale Deep Learning"
    )
    assert len(entry.paper.authors) == 5
    assert entry.paper.authors[0].name == "Samyam Rajbhandari"
    assert entry.paper.authors[-1].family == "He"
    assert entry.categories == ("cs.DC", "cs.LG")
    assert entry.comment is None
    assert entry.doi is None
    assert entry.journal_ref is None


def test_versioned_id_feed_title_zero_is_a_real_title() -> None:
    feed = parse_feed(fixture("versioned-id-title-zero.xml"))
    (entry,) = feed.entries
    paper = entry.paper
    assert paper.title == "0"
    assert paper.title is not None
    assert entry.id == normalize_arxiv("2301.01234v1")
    assert entry.version == 1
    assert entry.versions == (normalize_arxiv("2301.01234v1"),)
    assert paper.identifiers == (normalize_arxiv("2301.01234v1"),)
    assert paper.areas == ("math.HO",)
    assert entry.primary_category == "math.HO"
    assert [a.name for a in paper.authors] == ["Ada Quill"]
    assert (paper.year, paper.date) == (2023, dt.date(2023, 1, 4))
    assert paper.abstract is not None
    assert paper.abstract.startswith(
        "Zero is the loneliest number, and also a perfectly good title."
    )
    assert paper.work_type is WorkType.PREPRINT
    assert paper.venue == "arXiv"
    assert entry.pdf_url == "https://arxiv.org/pdf/2301.01234v1"
    assert entry.published == dt.datetime(2023, 1, 4, 9, 30, 0, tzinfo=dt.UTC)


def test_error_feed_reads_as_an_error_not_an_entry() -> None:
    feed = parse_feed(fixture("error-feed-http400.xml"))
    assert feed.error == "incorrect id format for xyz"
    assert feed.entries == ()
    assert feed.total == 1  # arXiv counts the error entry; we do not turn it into a paper


def test_old_style_id_feed_with_affiliations_comment_and_journal_ref() -> None:
    feed = parse_feed(fixture("old-style-id.xml"))
    (entry,) = feed.entries
    assert entry.id == normalize_arxiv("hep-th/9901001v1")  # versioned though none was asked
    assert entry.id.is_old_style
    paper = entry.paper
    # The title's line break and indentation fold to one space.
    assert paper.title == "A Toy Model of Brane Scattering in Three Dimensions"
    assert [(a.name, a.affiliations) for a in paper.authors] == [
        ("Maria Oyelaran", ("Lagos",)),
        ("J. P. van der Berg", ("Utrecht",)),
        ("Kenji Sato", ("KEK",)),
    ]
    assert paper.authors[1].family == "van der Berg"
    assert entry.journal_ref == "Nucl.Phys.B512:1-20,1999"
    assert entry.comment is not None
    assert entry.comment.startswith("20 pages, 3 figures")
    assert paper.areas == ("hep-th",)
    assert paper.year == 1999
    assert paper.related == ()  # no DOI given


def test_legacy_2016_layout_with_doi_links() -> None:
    feed = parse_feed(fixture("legacy-2016-search-page.xml"))
    assert (feed.total, feed.start, feed.per_page) == (7, 0, 3)
    assert len(feed.entries) == 3
    first = feed.entries[0]
    assert first.id == normalize_arxiv("1403.2211v1")
    assert first.paper.title == "Vortex Lattices in Rotating Dipolar Gases"
    assert first.doi == normalize_doi("10.1103/PhysRevA.89.033601")
    (relation,) = first.paper.related
    assert relation.kind is RelationKind.PREPRINT_OF
    assert relation.identifier == normalize_doi("10.1103/PhysRevA.89.033601")
    assert relation.source == "arxiv"
    assert first.journal_ref == "Phys. Rev. A 89, 033601 (2014)"
    assert first.paper.areas == ("cond-mat.quant-gas", "cond-mat.other")
    assert first.pdf_url == "http://arxiv.org/pdf/1403.2211v1"
    assert sum(e.doi is not None for e in feed.entries) == 2
    # The author query matched "J. P. van der Berg" and "Johannes van der Berg" alike.
    assert all(any(a.family == "van der Berg" for a in e.paper.authors) for e in feed.entries)
    assert [str(e.id) for e in feed.entries][1:3] == [
        "arxiv:cond-mat/0501123v2",
        "arxiv:cond-mat/0609876v1",
    ]


def test_search_feed_paging_counters_and_entries() -> None:
    feed = parse_feed(fixture("search-page.xml"))
    assert (feed.total, feed.start, feed.per_page) == (1520, 0, 4)
    assert len(feed.entries) == 4
    first = feed.entries[0]
    assert first.paper.title == "Ledgers of Citations: Provenance for Every Count"
    assert first.paper.areas == ("cs.DL", "cs.IR")
    assert first.doi == normalize_doi("10.1145/3600000.3600001")
    assert [e.version for e in feed.entries] == [1, 2, 3, 1]
    assert feed.entries[2].versions == tuple(normalize_arxiv(f"2305.00003v{n}") for n in (1, 2, 3))
    assert sum(e.doi is not None for e in feed.entries) == 2
    assert feed.entries[-1].paper.title == "Auditing Double-Entry Bookkeeping with Language Models"


def test_parse_feed_rejects_broken_xml() -> None:
    with pytest.raises(ParseError):
        parse_feed(b"<feed><entry>")


def test_build_query_request_and_reference_query() -> None:
    r = build_query_request(
        search_query="au:del_maestro",
        start=10,
        max_results=10,
        sort_by="relevance",
        sort_order="descending",
    )
    assert r.full_url == (
        "https://export.arxiv.org/api/query?search_query=au%3Adel_maestro&start=10&max_results=10"
        "&sortBy=relevance&sortOrder=descending"
    )
    r = build_query_request(
        id_list=[normalize_arxiv("2104.12255v1"), "1707.08567"], base_url="http://h:1/"
    )
    assert (
        r.full_url
        == "http://h:1/api/query?id_list=2104.12255v1%2C1707.08567&start=0&max_results=10"
    )
    assert reference_query(
        Reference(title="Zero: the (funniest) number", authors="Q. T. M. Nguyen")
    ) == ('ti:"Zero the funniest number" AND au:Nguyen')


# --------------------------------------------------------------------------- the edge, over sockets


def source(
    server: HTTPServer, fake: FakeTime, *, min_interval: float = 0.0, **policy: Any
) -> ArxivSource:
    options: dict[str, Any] = {"jitter": False, "backoff_base": 0.5, "max_attempts": 3}
    options.update(policy)
    t = RequestsTransport(
        policy=RetryPolicy(**options), min_interval=min_interval, sleep=fake.sleep, clock=fake.clock
    )
    return ArxivSource(base_url=server.url_for("/"), transport=t)


def atom(body: bytes) -> dict[str, Any]:
    return {"response_data": body, "content_type": "application/atom+xml; charset=utf-8"}


def test_paper_by_old_style_id_over_http(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request(
        "/api/query", query_string={"id_list": "hep-th/9901001", "start": "0", "max_results": "1"}
    ).respond_with_data(**atom(fixture("old-style-id.xml")))
    paper = source(httpserver, fake).paper("arXiv:hep-th/9901001")
    assert paper is not None
    assert paper.identifiers == (normalize_arxiv("hep-th/9901001v1"),)
    assert paper.authors[2].affiliations == ("KEK",)
    assert len(httpserver.log) == 1


def test_versioned_paper_title_zero_and_versions_over_http(
    httpserver: HTTPServer, fake: FakeTime
) -> None:
    httpserver.expect_request("/api/query").respond_with_data(
        **atom(fixture("versioned-id-title-zero.xml"))
    )
    src = source(httpserver, fake)
    paper = src.paper(normalize_arxiv("2301.01234v1"))
    assert paper is not None
    assert paper.title == "0"
    assert src.versions("2301.01234") == [normalize_arxiv("2301.01234v1")]
    # Asked for v2, arXiv (here) answered v1: that is not the requested version.
    assert src.paper("2301.01234v2") is None
    # The 10.48550 DataCite DOI names the same paper.
    assert src.paper("10.48550/arXiv.2301.01234") is not None
    assert httpserver.log[0][0].args["id_list"] == "2301.01234v1"


def test_unknown_id_gives_none(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/api/query").respond_with_data(**atom(fixture("empty-feed.xml")))
    src = source(httpserver, fake)
    assert src.paper("2301.00001") is None
    assert src.versions("2301.00001") == []


def test_multi_id_partial_results_keep_input_order(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/api/query").respond_with_data(
        **atom(fixture("partial-two-ids.xml"))
    )
    results = source(httpserver, fake).papers(["0808.05394", "2104.07857", "2104.99999"])
    assert [r[0] for r in results] == ["0808.05394", "2104.07857", "2104.99999"]
    # 0808.05394 cannot exist (2008 ids have 4 digits): refused locally, the others still fetched.
    assert results[0][1] is None
    assert isinstance(results[0][2], InvalidIdentifier)
    assert results[1][1] is not None
    assert results[1][1].identifiers == (normalize_arxiv("2104.07857v1"),)
    assert results[1][2] is None
    assert results[2][1:] == (None, None)  # silently dropped by arXiv -> not found
    ((req, _),) = httpserver.log
    assert req.args["id_list"] == "2104.07857,2104.99999"
    assert req.args["max_results"] == "2"


def test_error_feed_under_http_400_is_a_typed_error(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/api/query").respond_with_data(
        status=400, **atom(fixture("error-feed-http400.xml"))
    )
    src = source(httpserver, fake)
    with pytest.raises(BadRequestError) as info:
        src.search("id:xyz")
    err = info.value
    assert (err.status, err.attempt, err.source) == (400, 1, "arxiv")
    assert err.detail == "incorrect id format for xyz"
    assert len(httpserver.log) == 1  # a 400 is never retried
    # A malformed id never reaches arXiv at all.
    with pytest.raises(InvalidIdentifier):
        src.paper("abc")
    assert len(httpserver.log) == 1


def test_error_feed_under_http_200_is_also_an_error(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/api/query").respond_with_data(
        **atom(fixture("error-feed-http400.xml"))
    )
    with pytest.raises(BadRequestError) as info:
        source(httpserver, fake).search("id:xyz")
    assert info.value.status == 200
    assert info.value.detail == "incorrect id format for xyz"


def test_search_with_limit(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/api/query").respond_with_data(**atom(fixture("search-page.xml")))
    src = source(httpserver, fake)
    papers = src.search("ledger", limit=3)
    assert papers[0].title == "Ledgers of Citations: Provenance for Every Count"
    assert len(papers) == 3
    ((req, _),) = httpserver.log
    assert (req.args["search_query"], req.args["start"], req.args["max_results"]) == (
        "ledger",
        "0",
        "3",
    )


def test_search_paging_failure_midway_keeps_the_first_page(
    httpserver: HTTPServer, fake: FakeTime
) -> None:
    httpserver.expect_request(
        "/api/query",
        query_string={"search_query": "au:van_der_berg", "start": "0", "max_results": "3"},
    ).respond_with_data(**atom(fixture("legacy-2016-search-page.xml")))
    httpserver.expect_request(
        "/api/query",
        query_string={"search_query": "au:van_der_berg", "start": "3", "max_results": "3"},
    ).respond_with_data("Service Unavailable", status=503)
    src = source(httpserver, fake, min_interval=MIN_INTERVAL, max_attempts=2)
    paged = src.search_paged("au:van_der_berg", page_size=3)
    papers = list(paged)
    assert len(papers) == 3
    assert papers[0].title == "Vortex Lattices in Rotating Dipolar Gases"
    assert (paged.fetched, paged.total, paged.complete) == (3, 7, False)
    assert isinstance(paged.error, ServerError)
    assert paged.error.attempt == 2
    assert len(httpserver.log) == 3  # one page, then two attempts at the second
    # arXiv pacing: 3 s before each later request; the retry also waited its 0.5 s backoff,
    # which counts towards the 3 s.
    assert fake.sleeps == [3.0, 0.5, 2.5]
    with pytest.raises(ServerError):
        paged.raise_for_error()


def test_503_then_success(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_oneshot_request("/api/query").respond_with_data("busy", status=503)
    httpserver.expect_request("/api/query").respond_with_data(
        **atom(fixture("versioned-id-title-zero.xml"))
    )
    paper = source(httpserver, fake).paper("2301.01234v1")
    assert paper is not None
    assert paper.title == "0"
    assert len(httpserver.log) == 2
    assert fake.sleeps == [0.5]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"<feed xmlns='http://www.w3.org/2005/Atom'><entry>", "invalid XML"),
        (b"", "empty body where XML was expected"),
        (
            b"<!DOCTYPE html><html><title>arXiv is down</title></html>",
            "HTML page where XML was expected",
        ),
    ],
)
def test_unusable_200_bodies(
    httpserver: HTTPServer, fake: FakeTime, body: bytes, message: str
) -> None:
    src = source(httpserver, fake)
    error = unusable_200(
        httpserver, "/api/query", body, "application/atom+xml", lambda: src.paper("2104.12255")
    )
    assert error.message == message


def test_capabilities_match_the_protocols_it_implements() -> None:
    src = ArxivSource()
    assert src.capabilities == {Capability.PAPER, Capability.SEARCH}
    assert_protocols(src, PaperSource, SearchSource)
    with pytest.raises(InvalidIdentifier):
        src.paper("10.1038/srep16696")  # not an arXiv DOI
    assert isinstance(src, cl.Source)


def test_default_pacing_follows_arxiv_terms() -> None:
    src = ArxivSource(mailto="me@example.org")
    assert isinstance(src.transport, RequestsTransport)
    assert src.transport.min_interval == 3.0
    assert src.transport.user_agent.endswith("(+mailto:me@example.org)")
    assert ArxivSource(min_interval=0.5).transport.min_interval == 0.5  # type: ignore[attr-defined]


def test_search_by_reference_with_arxiv_id_uses_the_id(
    httpserver: HTTPServer, fake: FakeTime, tmp_path: Path
) -> None:
    feed = (
        b'<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/2104.07857v1</id>'
        b"<title>ZeRO-Infinity</title></entry></feed>"
    )
    httpserver.expect_request(
        "/api/query", query_string={"id_list": "2104.07857", "start": "0", "max_results": "1"}
    ).respond_with_data(**atom(feed))
    ref = Reference(
        raw="Rajbhandari S, et al. ZeRO-Infinity. arXiv:2104.07857",
        identifiers=[ArxivId(value="2104.07857")],
    )
    (paper,) = source(httpserver, fake).search(ref)
    assert paper.title == "ZeRO-Infinity"
