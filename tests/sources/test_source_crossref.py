"""Crossref: every fixture body parsed with concrete assertions; the edge over a local server."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from pytest_httpserver import HTTPServer, RequestHandler

import citeledger as cl
from citeledger.errors import (
    BadRequestError,
    InvalidIdentifier,
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
from tests._checks import assert_fields
from tests.conftest import FakeTime, fixture_bytes, requires_shared
from tests.sources.conftest import NOW, recording_dirs, unusable_200

CROSSREF, FIXTURE_DIR = recording_dirs("crossref")


def fixture(name: str) -> bytes:
    """A hand-written body in ``tests/fixtures/crossref/`` (the shapes of the ../shared recordings)."""
    return fixture_bytes("crossref", name)


# --------------------------------------------------------------------------- fixture bodies


def test_every_crossref_fixture_is_covered() -> None:
    assert {p.name for p in FIXTURE_DIR.iterdir()} == {
        "error-400-validation-failure.json",
        "error-404-invalid-cursor.json",
        "journal-works-cursor-page-with-notices.json",
        "works-query-bibliographic-scored.json",
        "work-references-mixed.json",
        "work-references-unstructured.json",
        "work-posted-content-preprint.json",
        "work-updated-by-correction.json",
        "works-no-results.json",
    }


@requires_shared
def test_every_recorded_crossref_file_parses() -> None:
    bodies = {p.name: p.read_bytes() for p in CROSSREF.iterdir()}
    assert len(bodies) == 9
    assert parse_failure(bodies["error-404-invalid-cursor.json"]).problems == (
        ("cursor-invalid", "thing", "Cursor specified but it is invalid"),
    )
    notices = parse_work_list(
        bodies["journal-1932-6203-works-cursor-page-with-retraction-notices.json"]
    )
    assert (notices.total, len(notices.works)) == (254800, 30)
    assert sum(len(w.updates) for w in notices.works) == 5
    chemcrow = parse_work(bodies["work-10.1038_s42256-024-00832-8-references-mixed.json"])
    assert len(chemcrow.references) == 103
    assert sum(r.asserted_by is None for r in chemcrow.references) == 45
    plos = parse_work(bodies["work-10.1371_journal.pone.0033693-updated-by-correction.json"])
    assert [e.kind for e in plos.updates] == [EventKind.CORRECTION]
    assert parse_work_list(bodies["works-query.title-no-results.json"]).works == ()


def test_validation_failure_body() -> None:
    failure = parse_failure(fixture("error-400-validation-failure.json"))
    assert failure.message_type == "validation-failure"
    assert failure.problems == (
        ("parameter-not-allowed", "query.*", "This route does not support field query parameters"),
    )
    with pytest.raises(ParseError, match="validation-failure"):
        parse_work(fixture("error-400-validation-failure.json"))


def test_invalid_cursor_body() -> None:
    failure = parse_failure(fixture("error-404-invalid-cursor.json"))
    assert failure.message_type == "resource-failure"
    assert failure.problems == (
        ("cursor-invalid", "not-a-cursor", "Cursor specified but it is invalid"),
    )


def test_journal_cursor_page_with_retraction_and_correction_notices() -> None:
    page = parse_work_list(fixture("journal-works-cursor-page-with-notices.json"))
    assert page.total == 41230
    assert page.items_per_page == 5
    assert len(page.works) == 5
    assert page.next_cursor is not None
    assert page.next_cursor.startswith("FGluY2x1ZGVfY29udGV4dF91dWlk")
    assert len(page.next_cursor) == 85
    updates = [
        (str(e.subject), e.kind, str(e.notice), e.date) for w in page.works for e in w.updates
    ]
    assert updates == [
        (
            "doi:10.1371/journal.pone.0200077",
            EventKind.RETRACTION,
            "doi:10.1371/journal.pone.0300002",
            dt.date(2019, 1, 8),
        ),
        (
            "doi:10.1371/journal.pone.0200123",
            EventKind.CORRECTION,
            "doi:10.1371/journal.pone.0300003",
            dt.date(2019, 1, 9),
        ),
    ]
    notices = [w for w in page.works if w.updates]
    assert all(w.paper.work_type is WorkType.NOTICE for w in notices)  # notices are not articles
    assert sum(w.paper.work_type is WorkType.ARTICLE for w in page.works) == 3
    retraction = next(w for w in notices if str(w.doi) == "doi:10.1371/journal.pone.0300002")
    assert retraction.paper.title is not None
    assert retraction.paper.title.startswith("Retraction: Sleep Duration and Memory")
    assert (
        retraction.events_about(normalize_doi("10.1371/journal.pone.0200077"))[0].label
        == "Retraction"
    )
    assert all(w.paper.areas == ("Multidisciplinary",) for w in page.works[:2])
    assert page.works[3].paper.areas == ("Public Health", "Epidemiology")


def test_bibliographic_query_results_with_scores_and_has_preprint() -> None:
    page = parse_work_list(fixture("works-query-bibliographic-scored.json"))
    assert (page.total, page.items_per_page, len(page.works), page.next_cursor) == (
        57,
        4,
        4,
        None,
    )
    first = page.works[0]
    assert str(first.doi) == "doi:10.7717/peerj.9001"
    assert first.paper.title == "Otolith shape separates cod stocks in the Baltic"
    assert first.score == pytest.approx(11.25)
    (relation,) = first.paper.related  # has-review links are not version links: left out
    assert (relation.kind, str(relation.identifier)) == (
        RelationKind.HAS_PREPRINT,
        "doi:10.7287/peerj.preprints.9001",
    )
    scores = [w.score or 0.0 for w in page.works]
    assert scores == sorted(scores, reverse=True)
    assert all(w.score is not None for w in page.works)
    assert all(w.paper.venue == "PeerJ" for w in page.works)
    assert [w.paper.related for w in page.works[1:]] == [(), (), ()]  # relation: {}


def test_work_with_mixed_references() -> None:
    work = parse_work(fixture("work-references-mixed.json"))
    paper = work.paper
    assert_fields(
        paper,
        title="Counting citations with provenance",
        venue="Journal of Scholarly Metrics",
        volume="9",
        issue="2",
        pages="101-118",
        year=2024,
        date=dt.date(2024, 3, 14),
        work_type=WorkType.ARTICLE,
    )
    assert paper.authors[0].family == "de la Cruz Ortega"  # a multi-word family name kept whole
    assert paper.authors[0].orcid is None
    assert paper.authors[1].orcid == "0000-0002-1825-0097"  # from the https://orcid.org/ URL
    assert paper.abstract == (
        "Citation counts disagree between sources; we record each observation with its provenance."
    )
    assert "<jats:" not in paper.abstract
    assert (work.cited_by_count, work.reference_count) == (12, 5)

    refs = work.references
    assert len(refs) == 5
    assert [r.position for r in refs] == list(range(1, 6))
    assert [r.key for r in refs[:3]] == ["e_1_2_1_1", "e_1_2_1_2", "e_1_2_1_3"]
    assert all(r.raw for r in refs)
    deposited = [r for r in refs if r.asserted_by is not None]
    assert len(deposited) == 2
    assert all(r.identifiers[0].scheme == "doi" for r in deposited)
    assert sum(r.asserted_by == "publisher" for r in refs) == 1
    assert sum(r.asserted_by == "crossref" for r in refs) == 1
    assert sum(r.asserted_by is None for r in refs) == 3
    second = refs[1]
    assert (second.venue, second.volume, second.first_page, second.year) == (
        "Proc. SC",
        "52",
        "3354",
        2021,
    )
    assert second.authors[0].family == "Rajbhandari"
    assert second.raw == (
        "Rajbhandari, S. et al. ZeRO-Infinity: breaking the GPU memory wall. "
        "Proc. SC 52, 3354–3367 (2021)."
    )
    # An unstructured-only preprint: the arXiv id printed in the text becomes an identifier.
    third = refs[2]
    assert normalize_arxiv("2104.07857") in third.identifiers
    assert third.asserted_by is None
    last = refs[-1]
    assert (last.key, last.asserted_by) == ("e_1_2_1_5", "publisher")
    assert normalize_doi("10.5281/zenodo.1234567") in last.identifiers


def test_work_every_reference_unstructured_and_publisher_doi() -> None:
    work = parse_work(fixture("work-references-unstructured.json"))
    assert work.paper.title == "Folding of a small protein in crowded solution"
    assert work.paper.pages == "42"  # article-number, page is null
    assert work.cited_by_count == 5
    refs = work.references
    assert len(refs) == 4
    assert all(r.raw and r.identifiers for r in refs)
    # Most DOIs are asserted by the publisher; one is Crossref's.
    assert [r.key for r in refs if r.asserted_by != "publisher"] == ["BFsrep0042_CR3"]
    assert refs[2].asserted_by == "crossref"
    assert [r.key for r in refs] == [f"BFsrep0042_CR{i}" for i in range(1, 5)]
    cr2 = refs[1]
    assert cr2.identifiers[0] == normalize_doi("10.5555/fold.2")
    assert (cr2.venue, cr2.volume, cr2.first_page, cr2.year) == ("Nature", "388", "839", 1997)
    assert cr2.raw is not None
    assert cr2.raw.startswith("Rossi, M. G. et al. Folding in the cell.")


def test_posted_content_is_preprint_of() -> None:
    work = parse_work(fixture("work-posted-content-preprint.json"))
    paper = work.paper
    assert work.crossref_type == "posted-content"
    assert paper.work_type is WorkType.PREPRINT
    assert paper.venue == "bioRxiv"
    assert paper.title == "Pooled screens of enhancer variants in zebrafish"
    (relation,) = paper.related
    assert (relation.kind, str(relation.identifier), relation.source) == (
        RelationKind.PREPRINT_OF,
        "doi:10.5555/genomics.2024.77",
        "crossref",
    )
    assert len(work.references) == 3
    assert all(len(r.identifiers) >= 1 for r in work.references)
    first = work.references[0]
    assert (first.raw, first.title, str(first.identifiers[0]), first.asserted_by) == (
        None,
        None,
        "doi:10.5555/enh.1",
        "publisher",
    )
    assert work.references[1].title == "Saturation mutagenesis of a developmental enhancer"
    assert work.cited_by_count == 1


def test_work_updated_by_correction_and_empty_relation() -> None:
    work = parse_work(fixture("work-updated-by-correction.json"))
    assert work.paper.related == ()  # relation: {}
    (event,) = work.updates
    assert event.kind is EventKind.CORRECTION
    assert event.subject == normalize_doi("10.1371/journal.pone.0123456")
    assert event.notice == normalize_doi("10.1371/annotation/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b")
    assert event.date == dt.date(2013, 6, 3)
    assert event.label == "Correction"
    refs = work.references
    assert len(refs) == 4
    assert [r.key for r in refs] == [f"ref{i}" for i in range(1, 5)]
    assert sum(r.asserted_by == "crossref" for r in refs) == 3
    assert all(r.raw is None for r in refs)
    assert [r.key for r in refs if not r.identifiers] == ["ref2"]
    ref1 = refs[0]
    assert_fields(
        ref1,
        title="Caffeine: a review of its effects.",
        venue="Sleep Med Rev",
        volume="14",
        first_page="210",
        year=2004,
    )
    assert ref1.authors[0].family == "Okonkwo"
    assert refs[3].authors == ()  # neither author nor title: only a DOI, a volume and a year
    assert work.cited_by_count == 30


def test_empty_title_query() -> None:
    page = parse_work_list(fixture("works-no-results.json"))
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


def test_load_source_by_entry_point_fetches_a_work(httpserver: HTTPServer) -> None:
    httpserver.expect_request(
        "/works/10.5555/srep.0042", query_string={"mailto": "you@example.org"}
    ).respond_with_data(
        fixture("work-references-unstructured.json"),
        content_type="application/json",
    )
    src = cl.load_source("crossref", base_url=httpserver.url_for("/"), mailto="you@example.org")
    assert src.name == "crossref"
    assert isinstance(src, cl.sources.PaperSource)
    assert isinstance(src, cl.sources.ReferenceSource)
    paper = src.paper("https://doi.org/10.5555/SREP.0042")
    assert paper is not None
    assert paper.identifiers == (normalize_doi("10.5555/srep.0042"),)
    refs = src.references(normalize_doi("10.5555/srep.0042"))
    assert len(refs) == 4
    assert refs[3].position == 4
    (req, _), _ = httpserver.log
    assert req.headers["User-Agent"] == f"citeledger/{cl.__version__} (+mailto:you@example.org)"


def test_citation_counts_is_a_dated_measurement(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works/10.5555/ledger.2024.017").respond_with_data(
        fixture("work-references-mixed.json")
    )
    (m,) = source(httpserver, fake).citation_counts("10.5555/ledger.2024.017")
    assert (m.value, m.source, m.observed, m.kind, str(m.subject)) == (
        12,
        "crossref",
        NOW,
        MeasurementKind.CITED_BY,
        "doi:10.5555/ledger.2024.017",
    )


def expect_update_filter(httpserver: HTTPServer, doi: str) -> RequestHandler:
    """The first ``filter=updates:{doi}`` page :meth:`CrossrefSource.events` asks for."""
    return httpserver.expect_request(
        "/works",
        query_string={
            "filter": f"updates:{doi}",
            "rows": "100",
            "cursor": "*",
            "mailto": "me@example.org",
        },
    )


def test_events_updated_by_correction_and_empty_update_filter(
    httpserver: HTTPServer, fake: FakeTime
) -> None:
    doi = "10.1371/journal.pone.0123456"
    httpserver.expect_request(f"/works/{doi}").respond_with_data(
        fixture("work-updated-by-correction.json")
    )
    expect_update_filter(httpserver, doi).respond_with_data(fixture("works-no-results.json"))
    check = source(httpserver, fake).events(doi)
    assert check.status is NoticeStatus.EVENTS_FOUND
    assert check.retracted is False
    (event,) = check.events
    assert (event.kind, str(event.notice)) == (
        EventKind.CORRECTION,
        "doi:10.1371/annotation/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b",
    )
    assert (check.sources, check.checked, str(check.subject)) == (("crossref",), NOW, f"doi:{doi}")


def test_events_found_through_the_notice_update_to(httpserver: HTTPServer, fake: FakeTime) -> None:
    doi = "10.1371/journal.pone.0200077"
    httpserver.expect_request(f"/works/{doi}").respond_with_json(
        minimal_work(doi, title=["The original"])
    )
    expect_update_filter(httpserver, doi).respond_with_data(
        fixture("journal-works-cursor-page-with-notices.json")
    )
    check = source(httpserver, fake).events(doi)
    assert check.status is NoticeStatus.EVENTS_FOUND
    assert check.retracted is True
    (event,) = check.events  # only the notice about this DOI, not the page's other notices
    assert (event.kind, str(event.notice), event.date) == (
        EventKind.RETRACTION,
        "doi:10.1371/journal.pone.0300002",
        dt.date(2019, 1, 8),
    )
    assert len(httpserver.log) == 2  # a 5-item page under rows=100 is the last page


def test_events_none_found_is_dated_and_named(httpserver: HTTPServer, fake: FakeTime) -> None:
    doi = "10.5555/srep.0042"
    httpserver.expect_request(f"/works/{doi}").respond_with_data(
        fixture("work-references-unstructured.json")
    )
    httpserver.expect_request("/works").respond_with_data(fixture("works-no-results.json"))
    check = source(httpserver, fake).events(doi)
    assert check.status is NoticeStatus.NONE_FOUND
    assert (check.sources, check.checked, check.events) == (("crossref",), NOW, ())
    assert check.retracted is False


def test_search_by_bibliographic_reference(httpserver: HTTPServer, fake: FakeTime) -> None:
    raw = "Otolith shape separates cod stocks in the Baltic. PeerJ 6, e9001 (2018)."
    httpserver.expect_request(
        "/works", query_string={"query.bibliographic": raw, "rows": "3", "mailto": "me@example.org"}
    ).respond_with_data(fixture("works-query-bibliographic-scored.json"))
    papers = source(httpserver, fake).search(Reference(raw=raw), limit=3)
    assert len(papers) == 3  # the body held 4 items; the limit wins
    assert papers[0].identifiers == (normalize_doi("10.7717/peerj.9001"),)


def test_search_with_no_results(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works").respond_with_data(fixture("works-no-results.json"))
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


def test_validation_failure_over_http(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works/10.1371/journal.pone.0033693").respond_with_data(
        fixture("error-400-validation-failure.json"),
        status=400,
        content_type="application/json",
    )
    with pytest.raises(BadRequestError) as info:
        source(httpserver, fake).paper("10.1371/journal.pone.0033693")
    assert (
        info.value.detail
        == "parameter-not-allowed: This route does not support field query parameters"
    )


def test_cursor_paging_over_two_pages_then_invalid_cursor_keeps_items(
    httpserver: HTTPServer, fake: FakeTime
) -> None:
    page1 = fixture("journal-works-cursor-page-with-notices.json")
    cursor1 = json.loads(page1)["message"]["next-cursor"]
    page2 = {
        "status": "ok",
        "message-type": "work-list",
        "message": {
            "total-results": 41230,
            "items-per-page": 5,
            "next-cursor": "second-cursor",
            "items": [
                {"DOI": f"10.1371/journal.pone.99{i:05d}", "type": "journal-article"}
                for i in range(5)
            ],
        },
    }
    base = {"rows": "5", "mailto": "me@example.org"}
    httpserver.expect_request(
        "/journals/1932-6203/works", query_string={**base, "cursor": "*"}
    ).respond_with_data(page1)
    httpserver.expect_request(
        "/journals/1932-6203/works", query_string={**base, "cursor": cursor1}
    ).respond_with_json(page2)
    httpserver.expect_request(
        "/journals/1932-6203/works", query_string={**base, "cursor": "second-cursor"}
    ).respond_with_data(
        fixture("error-404-invalid-cursor.json"), status=404, content_type="application/json"
    )
    paged = source(httpserver, fake).works(path="/journals/1932-6203/works", rows=5)
    papers = list(paged)
    assert len(papers) == 10
    assert str(papers[0].identifiers[0]) == "doi:10.1371/journal.pone.0300001"
    assert str(papers[5].identifiers[0]) == "doi:10.1371/journal.pone.9900000"
    assert (paged.fetched, paged.total, paged.complete) == (10, 41230, False)
    assert isinstance(paged.error, NotFoundError)
    assert paged.error.detail == "cursor-invalid: Cursor specified but it is invalid"
    assert len(httpserver.log) == 3


def test_paging_stops_on_a_short_last_page(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works").respond_with_data(
        fixture("works-query-bibliographic-scored.json")
    )
    paged = source(httpserver, fake).works(bibliographic="cod", rows=50)
    assert len(list(paged)) == 4
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
    src = source(httpserver, fake)
    doi = "10.1038/srep16696"
    error = unusable_200(
        httpserver, f"/works/{doi}", body, "application/json", lambda: src.paper(doi)
    )
    assert (error.message, error.source) == (message, "crossref")


def test_429_with_retry_after_then_success(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_oneshot_request("/works/10.5555/srep.0042").respond_with_data(
        "rate limited", status=429, headers={"Retry-After": "2"}
    )
    httpserver.expect_request("/works/10.5555/srep.0042").respond_with_data(
        fixture("work-references-unstructured.json")
    )
    paper = source(httpserver, fake).paper("10.5555/srep.0042")
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
