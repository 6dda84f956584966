"""OpenCitations: every recording in ../shared/data/sources/opencitations, pure and over HTTP."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections import Counter
from typing import TYPE_CHECKING

import pytest

from citeledger import (
    DOI,
    Direction,
    InvalidIdentifier,
    Method,
    OpenAlexId,
    ParseError,
    ResolutionState,
)
from citeledger.errors import ServerError
from citeledger.model import MeasurementKind, WorkType
from citeledger.sources import CitationSource, CountSource, ReferenceSource
from citeledger.sources import opencitations as oc
from citeledger.sources._transport import RequestsTransport, RetryPolicy
from tests.conftest import SOURCES, fixture_bytes, requires_shared
from tests.sources.conftest import assert_protocols

if TYPE_CHECKING:
    from pytest_httpserver import HTTPServer

OC_DIR = SOURCES / "opencitations"
NOW = dt.datetime(2026, 1, 2, tzinfo=dt.UTC)
JD = "10.1108/jd-12-2013-0166"


def body(name: str) -> bytes:
    """A hand-written body in ``tests/fixtures/opencitations/`` (the recorded shapes)."""
    return fixture_bytes("opencitations", name)


def recorded(name: str) -> bytes:
    return (OC_DIR / name).read_bytes()


# --------------------------------------------------------------------------- pure


def test_creation_and_timespan() -> None:
    assert oc.parse_creation("2018") == (dt.date(2018, 1, 1), oc.DatePrecision.YEAR)
    assert oc.parse_creation("2017-08") == (dt.date(2017, 8, 1), oc.DatePrecision.MONTH)
    assert oc.parse_creation("2019-04-10") == (dt.date(2019, 4, 10), oc.DatePrecision.DAY)
    with pytest.raises(ParseError):
        oc.parse_creation("2019-13")
    with pytest.raises(ParseError):
        oc.parse_creation("10/04/2019")
    assert oc.parse_timespan("P124Y7M") == (124, 7, 0)
    assert oc.parse_timespan("-P1Y2D") == (-1, 0, -2)
    assert oc.parse_timespan("P") is None
    assert oc.parse_timespan("3 years") is None


def test_requests() -> None:
    v1 = oc.build_citations_request(JD, version="v1", base_url="http://h/")
    assert v1.url == f"http://h/citations/{JD}"
    v2 = oc.build_references_request(f"doi:{JD}", access_token="t0ken")
    assert v2.url == f"https://api.opencitations.net/index/v2/references/doi:{JD}"
    assert v2.header("authorization") == "t0ken"
    assert "t0ken" not in repr(v2)
    assert oc.build_citation_count_request("PMID:30846892").url.endswith(
        "/citation-count/pmid:30846892"
    )
    with pytest.raises(InvalidIdentifier, match="DOI only"):
        oc.build_citations_request("PMID:30846892", version="v1")
    with pytest.raises(InvalidIdentifier):
        oc.build_citations_request("arXiv:2104.12255")


def test_v2_space_separated_ids() -> None:
    (link,) = oc.parse_links(
        b'[{"oci": "06101801781-06180334099", "citing": "omid:br/06101801781 doi:10.7717/peerj-cs.421 '
        b'pmid:33817056", "cited": "omid:br/06180334099 doi:10.1108/jd-12-2013-0166", '
        b'"creation": "2021-03-10", "timespan": "P6Y0M1D", "journal_sc": "no", "author_sc": "yes"}]'
    )
    assert link.citing == ("omid:br/06101801781", "doi:10.7717/peerj-cs.421", "pmid:33817056")
    assert [str(i) for i in link.citing_identifiers] == [
        "doi:10.7717/peerj-cs.421",
        "pmid:33817056",
    ]
    assert link.author_sc is True
    assert link.journal_sc is False


# --------------------------------------------------------------------------- fixture bodies


@requires_shared
def test_every_recorded_opencitations_file_parses() -> None:
    assert len(list(OC_DIR.iterdir())) == 5
    assert len(oc.parse_links(recorded("coci-v1-citations-10.1108_jd-12-2013-0166.json"))) == 20
    refs = oc.parse_links(recorded("coci-v1-references-10.1108_jd-12-2013-0166.json"))
    assert (len(refs), sum(1 for link in refs if link.journal_sc)) == (37, 2)
    text = recorded("meta-dump-sample.csv").decode()
    papers = [oc.paper_from_meta_row(row) for row in csv.DictReader(io.StringIO(text))]
    assert papers[3].work_type is WorkType.CHAPTER


def test_coci_single_citation_by_oci() -> None:
    (link,) = oc.parse_links(body("coci-v1-citation-by-oci.json"))
    assert link.oci == "06180000017-06100000042"
    assert link.citing == ("doi:10.5555/ledger.2024.017",)
    assert link.cited == ("doi:10.5555/review.2015.42",)
    assert (link.creation, link.creation_precision) == (dt.date(2024, 3, 14), oc.DatePrecision.DAY)
    assert link.timespan == "P2Y1M3D"
    assert link.timespan_parts == (2, 1, 3)
    assert (link.journal_sc, link.author_sc) == (True, False)


def test_coci_citations_mixed_creation_precision() -> None:
    links = oc.parse_links(body("coci-v1-citations.json"))
    assert len(links) == 6
    assert {link.cited for link in links} == {(f"doi:{JD}",)}
    assert Counter(link.creation_precision for link in links) == {
        oc.DatePrecision.DAY: 2,
        oc.DatePrecision.YEAR: 2,
        oc.DatePrecision.MONTH: 2,
    }
    first, second = links[0], links[1]
    assert (first.creation_raw, first.creation, first.timespan) == (
        "2018",
        dt.date(2018, 1, 1),
        "P3Y",
    )
    assert (second.creation_raw, second.creation_precision) == ("2017-08", oc.DatePrecision.MONTH)
    assert first.oci is not None
    assert all(link.oci and link.oci.startswith("020") for link in links)  # Crossref-DOI based
    obs = first.to_observation(direction=Direction.INBOUND, observed=NOW)
    assert obs.direction is Direction.INBOUND
    assert obs.citing.identifiers == (DOI("10.5555/cite.a"),)
    assert obs.citing.date == dt.date(2018, 1, 1)
    assert obs.cited is not None
    assert obs.cited.identifiers == (DOI(JD),)
    assert obs.state is ResolutionState.VERIFIED_EXACT
    assert obs.method is Method.DOI
    assert obs.source == "opencitations"
    # An upper-case DOI in the body is normalised in the observation.
    upper = links[4].to_observation(direction=Direction.INBOUND, observed=NOW)
    assert upper.citing.identifiers == (DOI("10.5555/cite.e"),)


def test_coci_references() -> None:
    links = oc.parse_links(body("coci-v1-references.json"))
    assert len(links) == 4
    assert {link.citing for link in links} == {(f"doi:{JD}",)}
    assert sum(1 for link in links if link.journal_sc) == 1
    assert links[0].cited_identifiers == (DOI("10.5555/ref.1"),)
    assert links[-1].cited == ("doi:10.5555/ref.4",)
    assert {link.creation_precision for link in links} == {oc.DatePrecision.DAY}


def test_index_v2_dump_sample_rows() -> None:
    text = body("index-v2-dump-citations-sample.csv").decode()
    links = [oc.link_from_row(row) for row in csv.DictReader(io.StringIO(text))]
    assert len(links) == 4
    first = links[0]
    assert first.oci == "0610001-0620002"  # "oci:" prefix removed
    assert first.citing == ("omid:br/0610001",)
    assert first.citing_identifiers == ()  # OMIDs only: no citeledger scheme
    assert first.timespan_parts == (88, 2, 0)
    assert links[2].creation_precision is oc.DatePrecision.YEAR
    assert links[3].creation_raw == "2018-04"
    assert links[3].creation_precision is oc.DatePrecision.MONTH
    assert (links[1].journal_sc, links[2].author_sc) == (True, True)
    obs = first.to_observation(direction=Direction.INBOUND, observed=NOW)
    assert obs.resolution is None  # the cited work has no identifier citeledger models


def test_meta_dump_sample_rows() -> None:
    text = body("meta-dump-sample.csv").decode()
    papers = [oc.paper_from_meta_row(row) for row in csv.DictReader(io.StringIO(text))]
    assert len(papers) == 3
    first = papers[0]
    assert first.title == "Counting Citations With Provenance"
    assert set(first.identifiers) == {DOI("10.5555/ledger.2024.017"), OpenAlexId("W4390000017")}
    assert [a.family for a in first.authors] == ["De La Cruz Ortega", "Wójcik"]
    assert first.authors[1].orcid == "0000-0002-1825-0097"
    assert first.venue == "Journal Of Scholarly Metrics"  # the [omid ...] ids are stripped
    assert (first.volume, first.issue, first.pages, first.year, first.date) == (
        "9",
        "2",
        "101-118",
        2024,
        None,  # a month-precision date is a year, not a made-up day
    )
    assert papers[1].date == dt.date(2015, 1, 20)
    assert papers[1].issue is None
    assert papers[2].work_type is WorkType.CHAPTER
    assert papers[2].venue == "Methods In Counting"
    assert papers[2].authors[0].family == "O’Brien"


# --------------------------------------------------------------------------- edge over HTTP


def make_source(httpserver: HTTPServer, **kw: object) -> oc.OpenCitationsSource:
    transport = RequestsTransport(
        policy=RetryPolicy(max_attempts=2, backoff_base=0.01), sleep=lambda _: None
    )
    return oc.OpenCitationsSource(
        base_url=httpserver.url_for("/"),
        transport=transport,
        now=lambda: NOW,
        **kw,  # type: ignore[arg-type]
    )


def test_citations_over_http_v1(httpserver: HTTPServer) -> None:
    httpserver.expect_request(f"/citations/{JD}").respond_with_data(
        body("coci-v1-citations.json"), content_type="application/json"
    )
    paged = make_source(httpserver, version="v1").citations(JD)
    got = list(paged)
    assert len(got) == 6
    assert (paged.fetched, paged.total, paged.complete) == (6, 6, True)
    assert all(o.direction is Direction.INBOUND and o.observed == NOW for o in got)
    assert len({o.id for o in got}) == 6


def test_references_over_http_v2(httpserver: HTTPServer) -> None:
    httpserver.expect_request(f"/references/doi:{JD}").respond_with_data(
        body("coci-v1-references.json"), content_type="application/json"
    )
    refs = make_source(httpserver).references(JD)
    assert [r.position for r in refs] == list(range(1, 5))
    assert refs[0].identifiers == (DOI("10.5555/ref.1"),)
    assert refs[0].get_extra("position_basis") == "opencitations listing order"
    assert refs[0].asserted_by == "opencitations"


def test_citation_count_over_http(httpserver: HTTPServer) -> None:
    # Shape from the OpenCitations API documentation (no recording exists).
    httpserver.expect_request(f"/citation-count/doi:{JD}").respond_with_json([{"count": "20"}])
    (m,) = make_source(httpserver, api_key="t0ken").citation_counts(JD)
    assert (m.value, m.source, m.kind, m.observed) == (
        20,
        "opencitations",
        MeasurementKind.CITED_BY,
        NOW,
    )
    assert m.subject == DOI(JD)
    ((req, _),) = httpserver.log
    assert req.headers["authorization"] == "t0ken"


def test_failure_is_kept_in_paged(httpserver: HTTPServer) -> None:
    httpserver.expect_request(f"/citations/doi:{JD}").respond_with_data("oops", status=503)
    paged = make_source(httpserver).citations(JD)
    assert list(paged) == []
    assert isinstance(paged.error, ServerError)
    assert paged.error.attempt == 2
    assert paged.complete is False


def test_unsupported_capabilities_are_not_implemented(httpserver: HTTPServer) -> None:
    src = make_source(httpserver)
    assert_protocols(src, ReferenceSource, CitationSource, CountSource)
