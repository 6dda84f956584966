"""Crossref: every recorded response parsed with concrete assertions; the edge over a local server."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from pytest_httpserver import HTTPServer

import citeledger as cl
from citeledger.errors import (
    BadRequestError,
    InvalidIdentifier,
    InvalidResponseError,
    NotFoundError,
    ParseError,
    ServerError,
)
from citeledger.identifiers import normalize_arxiv, normalize_doi
from citeledger.model import (
    EventKind,
    MeasurementKind,
    NoticeStatus,
    Reference,
    RelationKind,
    WorkType,
)
from citeledger.sources import Capability, CitationSource, CountedCitationSource
from citeledger.sources._transport import RequestsTransport, RetryPolicy
from citeledger.sources.crossref import (
    CrossrefSource,
    bibliographic_query,
    build_work_request,
    build_works_request,
    event_kind,
    parse_failure,
    parse_work,
    parse_work_list,
    reference_from_crossref,
    work_type,
)
from tests.conftest import SOURCES, FakeTime, requires_shared

CROSSREF = SOURCES / "crossref"
NOW = dt.datetime(2026, 8, 5, 2, 28, 24, tzinfo=dt.UTC)


def recorded(name: str) -> bytes:
    return (CROSSREF / name).read_bytes()


# --------------------------------------------------------------------------- recorded responses


@requires_shared
def test_every_recorded_crossref_file_is_covered() -> None:
    assert {p.name for p in CROSSREF.iterdir()} == {
        "error-400-field-query-not-allowed-on-doi-route.json",
        "error-404-invalid-cursor.json",
        "journal-1932-6203-works-cursor-page-with-retraction-notices.json",
        "journal-2167-8359-works-query.bibliographic-fish.json",
        "work-10.1038_s42256-024-00832-8-references-mixed.json",
        "work-10.1038_srep16696-references-unstructured.json",
        "work-10.1101_2024.04.01.587366-posted-content-is-preprint-of.json",
        "work-10.1371_journal.pone.0033693-updated-by-correction.json",
        "works-query.title-no-results.json",
    }


@requires_shared
def test_validation_failure_body() -> None:
    failure = parse_failure(recorded("error-400-field-query-not-allowed-on-doi-route.json"))
    assert failure.message_type == "validation-failure"
    assert failure.problems == (
        ("parameter-not-allowed", "query.*", "This route does not support field query parameters"),
    )
    with pytest.raises(ParseError, match="validation-failure"):
        parse_work(recorded("error-400-field-query-not-allowed-on-doi-route.json"))


@requires_shared
def test_invalid_cursor_body() -> None:
    failure = parse_failure(recorded("error-404-invalid-cursor.json"))
    assert failure.message_type == "resource-failure"
    assert failure.problems == (("cursor-invalid", "thing", "Cursor specified but it is invalid"),)


@requires_shared
def test_journal_cursor_page_with_retraction_and_correction_notices() -> None:
    page = parse_work_list(
        recorded("journal-1932-6203-works-cursor-page-with-retraction-notices.json")
    )
    assert page.total == 254800
    assert page.items_per_page == 30
    assert len(page.works) == 30
    assert page.next_cursor is not None
    assert page.next_cursor.startswith("DnF1ZXJ5VGhlbkZldGNoBgAAAAAAJ7AQFjJMRzRa")
    assert len(page.next_cursor) == 272
    updates = [
        (str(e.subject), e.kind, str(e.notice), e.date) for w in page.works for e in w.updates
    ]
    assert (
        "doi:10.1371/journal.pone.0090062",
        EventKind.RETRACTION,
        "doi:10.1371/journal.pone.0210896",
        dt.date(2019, 1, 10),
    ) in updates
    assert (
        "doi:10.1371/journal.pone.0083541",
        EventKind.RETRACTION,
        "doi:10.1371/journal.pone.0211247",
        dt.date(2019, 1, 17),
    ) in updates
    assert sorted(k.value for _, k, _, _ in updates) == ["correction"] * 3 + ["retraction"] * 2
    notices = [w for w in page.works if w.updates]
    assert all(w.paper.work_type is WorkType.NOTICE for w in notices)  # notices are not articles
    assert sum(w.paper.work_type is WorkType.ARTICLE for w in page.works) == 25
    retraction = next(w for w in notices if str(w.doi) == "doi:10.1371/journal.pone.0210896")
    assert retraction.paper.title is not None
    assert retraction.paper.title.startswith(
        "Retraction: Human Phosphatidylethanolamine-Binding Protein 4"
    )
    assert (
        retraction.events_about(normalize_doi("10.1371/journal.pone.0090062"))[0].label
        == "Retraction"
    )
    assert all(w.paper.areas == ("Multidisciplinary",) for w in page.works[:2])


@requires_shared
def test_bibliographic_query_results_with_scores_and_has_preprint() -> None:
    page = parse_work_list(recorded("journal-2167-8359-works-query.bibliographic-fish.json"))
    assert (page.total, page.items_per_page, len(page.works), page.next_cursor) == (
        230,
        20,
        20,
        None,
    )
    first = page.works[0]
    assert str(first.doi) == "doi:10.7717/peerj.3811"
    assert first.paper.title == "Fish Ontology framework for taxonomy-based fish recognition"
    assert first.score == pytest.approx(8.682194)
    (relation,) = first.paper.related  # has-review links are not version links: left out
    assert (relation.kind, str(relation.identifier)) == (
        RelationKind.HAS_PREPRINT,
        "doi:10.7287/peerj.preprints.3020",
    )
    scores = [w.score or 0.0 for w in page.works]
    assert scores == sorted(scores, reverse=True)
    assert all(w.score is not None for w in page.works)
    assert all(w.paper.venue == "PeerJ" for w in page.works)


@requires_shared
def test_chemcrow_work_with_mixed_references() -> None:
    work = parse_work(recorded("work-10.1038_s42256-024-00832-8-references-mixed.json"))
    paper = work.paper
    assert paper.title == "Augmenting large language models with chemistry tools"
    assert (paper.venue, paper.volume, paper.issue, paper.pages) == (
        "Nature Machine Intelligence",
        "6",
        "5",
        "525-535",
    )
    assert (paper.year, paper.date, paper.work_type) == (
        2024,
        dt.date(2024, 5, 8),
        WorkType.ARTICLE,
    )
    assert paper.authors[0].family == "M. Bran"
    assert paper.authors[2].orcid == "0000-0003-0310-0851"
    assert paper.abstract is not None
    assert paper.abstract.startswith("Large language models (LLMs) have shown strong performance")
    assert "<jats:" not in paper.abstract
    assert (work.cited_by_count, work.reference_count) == (238, 103)

    refs = work.references
    assert len(refs) == 103
    assert [r.position for r in refs] == list(range(1, 104))
    assert [r.key for r in refs[:3]] == ["832_CR1", "832_CR2", "832_CR3"]
    assert all(r.raw for r in refs)
    deposited = [r for r in refs if r.asserted_by is not None]
    assert len(deposited) == 58
    assert all(r.identifiers[0].scheme == "doi" for r in deposited)
    assert sum(r.asserted_by == "publisher" for r in refs) == 51
    assert sum(r.asserted_by == "crossref" for r in refs) == 7
    assert sum(r.asserted_by is None for r in refs) == 45
    cr2 = refs[1]
    assert (cr2.venue, cr2.volume, cr2.first_page, cr2.year) == (
        "Adv. Neural Inf. Process. Syst.",
        "33",
        "1877",
        2020,
    )
    assert cr2.authors[0].family == "Brown"
    assert (
        cr2.raw
        == "Brown, T. et al. Language models are few-shot learners. Adv. Neural Inf. Process. Syst. 33, 1877–1901 (2020)."
    )
    # An unstructured-only preprint: the arXiv id printed in the text becomes an identifier.
    cr3 = refs[2]
    assert normalize_arxiv("2108.07258") in cr3.identifiers
    assert cr3.asserted_by is None
    last = refs[-1]
    assert (last.key, last.asserted_by) == ("832_CR103", "publisher")
    assert normalize_doi("10.5281/zenodo.10884639") in last.identifiers


@requires_shared
def test_srep_work_every_reference_unstructured_and_publisher_doi() -> None:
    work = parse_work(recorded("work-10.1038_srep16696-references-unstructured.json"))
    assert work.paper.title == (
        "Single-molecule FRET studies on alpha-synuclein oligomerization of Parkinson’s disease genetically "
        "related mutants"
    )
    assert work.paper.pages == "16696"  # article-number
    assert work.cited_by_count == 110
    refs = work.references
    assert len(refs) == 62
    assert all(r.raw and r.identifiers for r in refs)
    # The README says every DOI is asserted by the publisher; the body says two are Crossref's.
    assert [r.key for r in refs if r.asserted_by != "publisher"] == [
        "BFsrep16696_CR27",
        "BFsrep16696_CR50",
    ]
    assert {refs[26].asserted_by, refs[49].asserted_by} == {"crossref"}
    assert [r.key for r in refs] == [f"BFsrep16696_CR{i}" for i in range(1, 63)]
    cr2 = refs[1]
    assert cr2.identifiers[0] == normalize_doi("10.1038/42166")
    assert (cr2.venue, cr2.volume, cr2.first_page, cr2.year) == ("Nature", "388", "839", 1997)
    assert cr2.raw is not None
    assert cr2.raw.startswith("Spillantini, M. G. et al. Alpha-synuclein in Lewy bodies.")


@requires_shared
def test_biorxiv_posted_content_is_preprint_of() -> None:
    work = parse_work(recorded("work-10.1101_2024.04.01.587366-posted-content-is-preprint-of.json"))
    paper = work.paper
    assert work.crossref_type == "posted-content"
    assert paper.work_type is WorkType.PREPRINT
    assert paper.venue == "bioRxiv"
    assert (
        paper.title == "High-throughput screening of human genetic variants by pooled prime editing"
    )
    (relation,) = paper.related
    assert (relation.kind, str(relation.identifier), relation.source) == (
        RelationKind.PREPRINT_OF,
        "doi:10.1016/j.xgen.2025.100814",
        "crossref",
    )
    assert len(work.references) == 50
    assert all(len(r.identifiers) >= 1 for r in work.references)
    first = work.references[0]
    assert (first.raw, first.title, str(first.identifiers[0]), first.asserted_by) == (
        None,
        None,
        "doi:10.1038/gim.2015.30",
        "publisher",
    )
    assert (
        work.references[1].title
        == "Quantitative Missense Variant Effect Prediction Using Large-Scale Mutagenesis Data"
    )
    assert work.cited_by_count == 2


@requires_shared
def test_plos_work_updated_by_correction_and_empty_relation() -> None:
    work = parse_work(recorded("work-10.1371_journal.pone.0033693-updated-by-correction.json"))
    assert work.paper.related == ()  # relation: {}
    (event,) = work.updates
    assert event.kind is EventKind.CORRECTION
    assert event.subject == normalize_doi("10.1371/journal.pone.0033693")
    assert event.notice == normalize_doi("10.1371/annotation/c76da2c1-ccb8-4797-94c1-359d3ceceeda")
    assert event.date == dt.date(2012, 5, 8)
    assert event.label == "Correction"
    refs = work.references
    assert len(refs) == 70
    assert [r.key for r in refs] == [f"ref{i}" for i in range(1, 71)]
    assert sum(r.asserted_by == "crossref" for r in refs) == 65
    assert all(r.raw is None for r in refs)
    assert [r.key for r in refs if not r.identifiers] == ["ref5", "ref6", "ref23", "ref24", "ref63"]
    ref1 = refs[0]
    assert (ref1.title, ref1.venue, ref1.volume, ref1.first_page, ref1.year) == (
        "Stimulants: Therapeutic actions in ADHD.",
        "Neuropsychopharmacology",
        "31",
        "2376",
        2006,
    )
    assert ref1.authors[0].family == "Arnsten"
    assert work.cited_by_count == 72


@requires_shared
def test_empty_title_query() -> None:
    page = parse_work_list(recorded("works-query.title-no-results.json"))
    assert (page.total, page.works, page.next_cursor, page.items_per_page) == (0, (), None, 1)


def test_pure_helpers() -> None:
    assert work_type("book-chapter") is WorkType.CHAPTER
    assert work_type(None) is None
    assert event_kind("expression_of_concern") is EventKind.EXPRESSION_OF_CONCERN
    assert event_kind("Retraction") is EventKind.RETRACTION
    assert event_kind("new_version") is EventKind.OTHER
    assert (
        build_work_request(normalize_doi("10.1000/a<b>c")).url
        == "https://api.crossref.org/works/10.1000/a%3Cb%3Ec"
    )
    r = build_works_request(bibliographic="Smith 2020 fish", rows=5, mailto="me@example.org")
    assert r.full_url == (
        "https://api.crossref.org/works?query.bibliographic=Smith+2020+fish&rows=5&mailto=me%40example.org"
    )
    assert bibliographic_query(Reference(raw="  A  B\n C ")) == "A B C"
    bad = reference_from_crossref(
        {"key": "r9", "DOI": "not a doi", "unstructured": "Foo. Bar 2001."}, position=9
    )
    assert bad.identifiers == ()
    assert bad.get_extra("DOI") == "not a doi"  # a malformed deposited DOI is kept, not dropped
    assert bad.position == 9
    with pytest.raises(ParseError):
        parse_work(b"{not json")


# --------------------------------------------------------------------------- the edge, over sockets


def source(server: HTTPServer, fake: FakeTime, **options: Any) -> CrossrefSource:
    policy = RetryPolicy(jitter=False, backoff_base=0.5, max_attempts=3)
    t = RequestsTransport(policy=policy, sleep=fake.sleep, clock=fake.clock)
    return CrossrefSource(
        base_url=server.url_for("/"),
        mailto="me@example.org",
        transport=t,
        clock=lambda: NOW,
        **options,
    )


def minimal_work(doi: str, **fields: Any) -> dict[str, Any]:
    return {
        "status": "ok",
        "message-type": "work",
        "message": {"DOI": doi, "type": "journal-article", **fields},
    }


@requires_shared
def test_load_source_by_entry_point_fetches_a_work(httpserver: HTTPServer) -> None:
    httpserver.expect_request(
        "/works/10.1038/srep16696", query_string={"mailto": "you@example.org"}
    ).respond_with_data(
        recorded("work-10.1038_srep16696-references-unstructured.json"),
        content_type="application/json",
    )
    src = cl.load_source("crossref", base_url=httpserver.url_for("/"), mailto="you@example.org")
    assert src.name == "crossref"
    assert isinstance(src, cl.sources.PaperSource)
    assert isinstance(src, cl.sources.ReferenceSource)
    paper = src.paper("https://doi.org/10.1038/SREP16696")
    assert paper is not None
    assert paper.identifiers == (normalize_doi("10.1038/srep16696"),)
    refs = src.references(normalize_doi("10.1038/srep16696"))
    assert len(refs) == 62
    assert refs[55].position == 56
    (req, _), _ = httpserver.log
    assert req.headers["User-Agent"] == f"citeledger/{cl.__version__} (+mailto:you@example.org)"


@requires_shared
def test_citation_counts_is_a_dated_measurement(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works/10.1038/s42256-024-00832-8").respond_with_data(
        recorded("work-10.1038_s42256-024-00832-8-references-mixed.json")
    )
    (m,) = source(httpserver, fake).citation_counts("10.1038/s42256-024-00832-8")
    assert (m.value, m.source, m.observed, m.kind, str(m.subject)) == (
        238,
        "crossref",
        NOW,
        MeasurementKind.CITED_BY,
        "doi:10.1038/s42256-024-00832-8",
    )


@requires_shared
def test_events_updated_by_correction_and_empty_update_filter(
    httpserver: HTTPServer, fake: FakeTime
) -> None:
    doi = "10.1371/journal.pone.0033693"
    httpserver.expect_request(f"/works/{doi}").respond_with_data(
        recorded("work-10.1371_journal.pone.0033693-updated-by-correction.json")
    )
    httpserver.expect_request(
        "/works",
        query_string={
            "filter": f"updates:{doi}",
            "rows": "100",
            "cursor": "*",
            "mailto": "me@example.org",
        },
    ).respond_with_data(recorded("works-query.title-no-results.json"))
    check = source(httpserver, fake).events(doi)
    assert check.status is NoticeStatus.EVENTS_FOUND
    assert check.retracted is False
    (event,) = check.events
    assert (event.kind, str(event.notice)) == (
        EventKind.CORRECTION,
        "doi:10.1371/annotation/c76da2c1-ccb8-4797-94c1-359d3ceceeda",
    )
    assert (check.sources, check.checked, str(check.subject)) == (("crossref",), NOW, f"doi:{doi}")


@requires_shared
def test_events_found_through_the_notice_update_to(httpserver: HTTPServer, fake: FakeTime) -> None:
    doi = "10.1371/journal.pone.0090062"
    httpserver.expect_request(f"/works/{doi}").respond_with_json(
        minimal_work(doi, title=["The original"])
    )
    httpserver.expect_request(
        "/works",
        query_string={
            "filter": f"updates:{doi}",
            "rows": "100",
            "cursor": "*",
            "mailto": "me@example.org",
        },
    ).respond_with_data(
        recorded("journal-1932-6203-works-cursor-page-with-retraction-notices.json")
    )
    check = source(httpserver, fake).events(doi)
    assert check.status is NoticeStatus.EVENTS_FOUND
    assert check.retracted is True
    (event,) = check.events  # only the notice about this DOI, not the page's other notices
    assert (event.kind, str(event.notice), event.date) == (
        EventKind.RETRACTION,
        "doi:10.1371/journal.pone.0210896",
        dt.date(2019, 1, 10),
    )
    assert len(httpserver.log) == 2  # a 30-item page under rows=100 is the last page


@requires_shared
def test_events_none_found_is_dated_and_named(httpserver: HTTPServer, fake: FakeTime) -> None:
    doi = "10.1038/srep16696"
    httpserver.expect_request(f"/works/{doi}").respond_with_data(
        recorded("work-10.1038_srep16696-references-unstructured.json")
    )
    httpserver.expect_request("/works").respond_with_data(
        recorded("works-query.title-no-results.json")
    )
    check = source(httpserver, fake).events(doi)
    assert check.status is NoticeStatus.NONE_FOUND
    assert (check.sources, check.checked, check.events) == (("crossref",), NOW, ())
    assert check.retracted is False


@requires_shared
def test_search_by_bibliographic_reference(httpserver: HTTPServer, fake: FakeTime) -> None:
    raw = "Fish Ontology framework for taxonomy-based fish recognition. PeerJ 5, e3811 (2017)."
    httpserver.expect_request(
        "/works", query_string={"query.bibliographic": raw, "rows": "5", "mailto": "me@example.org"}
    ).respond_with_data(recorded("journal-2167-8359-works-query.bibliographic-fish.json"))
    papers = source(httpserver, fake).search(Reference(raw=raw), limit=5)
    assert len(papers) == 5
    assert papers[0].identifiers == (normalize_doi("10.7717/peerj.3811"),)


@requires_shared
def test_search_with_no_results(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works").respond_with_data(
        recorded("works-query.title-no-results.json")
    )
    assert source(httpserver, fake).search("askldjrq3rjaw938h", limit=1) == []
    assert source(httpserver, fake).search("   ") == []


def test_unknown_doi_plain_text_404(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works/10.5555/unknown").respond_with_data(
        "Resource not found.", status=404, content_type="text/plain"
    )
    src = source(httpserver, fake)
    assert src.paper("10.5555/unknown") is None
    with pytest.raises(NotFoundError) as info:
        src.references("10.5555/unknown")
    assert (info.value.detail, info.value.status, info.value.attempt) == (
        "Resource not found.",
        404,
        1,
    )
    assert len(httpserver.log) == 2  # one request each: 404 is not retried


@requires_shared
def test_validation_failure_over_http(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works/10.1371/journal.pone.0033693").respond_with_data(
        recorded("error-400-field-query-not-allowed-on-doi-route.json"),
        status=400,
        content_type="application/json",
    )
    with pytest.raises(BadRequestError) as info:
        source(httpserver, fake).paper("10.1371/journal.pone.0033693")
    assert (
        info.value.detail
        == "parameter-not-allowed: This route does not support field query parameters"
    )


@requires_shared
def test_cursor_paging_over_two_pages_then_invalid_cursor_keeps_items(
    httpserver: HTTPServer, fake: FakeTime
) -> None:
    page1 = recorded("journal-1932-6203-works-cursor-page-with-retraction-notices.json")
    cursor1 = json.loads(page1)["message"]["next-cursor"]
    page2 = {
        "status": "ok",
        "message-type": "work-list",
        "message": {
            "total-results": 254800,
            "items-per-page": 30,
            "next-cursor": "second-cursor",
            "items": [
                {"DOI": f"10.1371/journal.pone.99{i:05d}", "type": "journal-article"}
                for i in range(30)
            ],
        },
    }
    base = {"rows": "30", "mailto": "me@example.org"}
    httpserver.expect_request(
        "/journals/1932-6203/works", query_string={**base, "cursor": "*"}
    ).respond_with_data(page1)
    httpserver.expect_request(
        "/journals/1932-6203/works", query_string={**base, "cursor": cursor1}
    ).respond_with_json(page2)
    httpserver.expect_request(
        "/journals/1932-6203/works", query_string={**base, "cursor": "second-cursor"}
    ).respond_with_data(
        recorded("error-404-invalid-cursor.json"), status=404, content_type="application/json"
    )
    paged = source(httpserver, fake).works(path="/journals/1932-6203/works", rows=30)
    papers = list(paged)
    assert len(papers) == 60
    assert str(papers[0].identifiers[0]) == "doi:10.1371/journal.pone.0210699"
    assert str(papers[30].identifiers[0]) == "doi:10.1371/journal.pone.9900000"
    assert (paged.fetched, paged.total, paged.complete) == (60, 254800, False)
    assert isinstance(paged.error, NotFoundError)
    assert paged.error.detail == "cursor-invalid: Cursor specified but it is invalid"
    assert len(httpserver.log) == 3


@requires_shared
def test_paging_stops_on_a_short_last_page(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works").respond_with_data(
        recorded("journal-2167-8359-works-query.bibliographic-fish.json")
    )
    paged = source(httpserver, fake).works(bibliographic="fish", rows=50)
    assert len(list(paged)) == 20
    assert paged.complete is True
    assert paged.error is None
    assert len(httpserver.log) == 1


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            b'{"status":"ok","message-type":"work","message":{"DOI":"10.1038/srep16696","reference":[{"key":',
            "truncated or invalid JSON",
        ),
        (
            b"<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head></html>",
            "HTML page where JSON was expected",
        ),
        (b"", "empty body where JSON was expected"),
        (b'{"status":"ok","message-type":"work-list","message":{}}', "not a Crossref work"),
    ],
)
def test_unusable_200_bodies(
    httpserver: HTTPServer, fake: FakeTime, body: bytes, message: str
) -> None:
    httpserver.expect_request("/works/10.1038/srep16696").respond_with_data(
        body, content_type="application/json"
    )
    with pytest.raises(InvalidResponseError) as info:
        source(httpserver, fake).paper("10.1038/srep16696")
    assert info.value.message == message
    assert (info.value.status, info.value.attempt, info.value.source) == (200, 1, "crossref")


@requires_shared
def test_429_with_retry_after_then_success(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_oneshot_request("/works/10.1038/srep16696").respond_with_data(
        "rate limited", status=429, headers={"Retry-After": "2"}
    )
    httpserver.expect_request("/works/10.1038/srep16696").respond_with_data(
        recorded("work-10.1038_srep16696-references-unstructured.json")
    )
    paper = source(httpserver, fake).paper("10.1038/srep16696")
    assert paper is not None
    assert fake.sleeps == [2.0]


def test_plus_token_is_a_secret_header(httpserver: HTTPServer, fake: FakeTime) -> None:
    token = "plus-token-0987654321"
    httpserver.expect_request("/works/10.5555/x").respond_with_data(f"boom {token}", status=500)
    src = source(httpserver, fake, api_key=token)
    assert token not in repr(src)
    with pytest.raises(ServerError) as info:
        src.paper("10.5555/x")
    assert token not in str(info.value)
    assert httpserver.log[0][0].headers["Crossref-Plus-API-Token"] == f"Bearer {token}"


def test_capabilities_and_identifier_checks() -> None:
    src = CrossrefSource()
    assert src.capabilities == {
        Capability.PAPER,
        Capability.REFERENCES,
        Capability.EVENTS,
        Capability.CITATION_COUNTS,
        Capability.SEARCH,
    }
    assert not isinstance(src, CitationSource)
    assert not isinstance(src, CountedCitationSource)
    with pytest.raises(InvalidIdentifier):
        src.paper("arXiv:2104.12255")
    assert isinstance(src, cl.Source)
