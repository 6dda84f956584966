"""citeledger.testing: ReplayTransport, FakeSource, and the HttpEdge adapters hold."""

from __future__ import annotations

import datetime as dt

import pytest

import citeledger as cl
from citeledger.errors import InvalidResponseError, NotFoundError
from citeledger.sources import (
    CitationSource,
    EventSource,
    PaperSource,
    ReferenceSource,
    SearchSource,
    TransportBound,
)
from citeledger.sources._transport import Request
from citeledger.sources.crossref import CrossrefSource
from citeledger.sources.openalex import OpenAlexSource
from citeledger.testing import FakeSource, ReplayTransport, UnexpectedRequest

NOW = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
PAPER = cl.Paper(identifiers=["doi:10.1234/x"], title="A paper about things", year=2020)


def test_replay_matches_the_most_specific_params_and_records_requests() -> None:
    t = (
        ReplayTransport()
        .add("https://x.org/works", {"page": 1})
        .add("https://x.org/works", {"page": 2}, params={"cursor": "b"})
    )
    first = t.send(Request(url="https://x.org/works", params={"cursor": "*"}), source="s")
    second = t.send(Request(url="https://x.org/works", params={"cursor": "b"}), source="s")
    assert (first.body, second.body) == (b'{"page": 1}', b'{"page": 2}')
    assert [dict(r.params)["cursor"] for r in t.requests] == ["*", "b"]


def test_replay_refuses_an_unexpected_request_outside_the_error_tree() -> None:
    t = ReplayTransport().add("https://x.org/a", b"x")
    with pytest.raises(UnexpectedRequest, match=r"POST https://x\.org/a"):
        t.send(Request(method="POST", url="https://x.org/a"), source="s")
    assert not issubclass(UnexpectedRequest, cl.CiteledgerError)


def test_replay_raises_error_statuses_like_a_real_transport() -> None:
    t = ReplayTransport().add("https://x.org/a", b"gone", status=404)
    with pytest.raises(NotFoundError) as info:
        t.send(Request(url="https://x.org/a", params={"api_key": "s3cret"}), source="s")
    assert "s3cret" not in str(info.value)


def test_fake_source_implements_only_what_it_declares() -> None:
    fake = FakeSource(papers=[PAPER], references={"doi:10.1234/x": []})
    assert isinstance(fake, PaperSource)
    assert isinstance(fake, ReferenceSource)
    assert isinstance(fake, SearchSource)
    assert not isinstance(fake, CitationSource)
    assert not isinstance(fake, EventSource)
    assert isinstance(fake, cl.Source)
    only = FakeSource(papers=[PAPER], capabilities=[cl.Capability.PAPER])
    assert not isinstance(only, SearchSource)
    assert only.capabilities == {cl.Capability.PAPER}


def test_fake_source_answers_from_its_data() -> None:
    obs = cl.Observation(
        source="fake",
        citing=cl.Paper(identifiers=["doi:10.1234/citing"]),
        cited=PAPER,
        observed=NOW,
        direction=cl.Direction.INBOUND,
    )
    fake = FakeSource(papers=[PAPER], citations={"10.1234/X": [obs]}, events={}, now=NOW)
    assert isinstance(fake, PaperSource)
    assert isinstance(fake, CitationSource)
    assert isinstance(fake, EventSource)
    assert isinstance(fake, SearchSource)
    assert fake.paper("doi:10.1234/x") == PAPER
    assert fake.paper("doi:10.1234/other") is None
    assert list(fake.citations("https://doi.org/10.1234/x")) == [obs]
    assert fake.events("doi:10.1234/x").status is cl.NoticeStatus.NONE_FOUND
    assert fake.search("about things") == [PAPER]
    assert isinstance(fake, FakeSource)
    assert [c[0] for c in fake.calls] == ["paper", "paper", "citations", "events", "search"]


def test_fake_source_in_the_ledger_reports_what_it_lacks_as_unsupported() -> None:
    rec = cl.build_record("doi:10.1234/x", [FakeSource(papers=[PAPER])], now=NOW)
    assert rec.paper.title == PAPER.title
    lacking = {r.capability for r in rec.reports if r.outcome.value == "unsupported"}
    assert {"references", "citations"} <= {str(c) for c in lacking}


def test_http_edge_with_transport_copies_and_keeps_the_secret_hidden() -> None:
    first = ReplayTransport()
    src = OpenAlexSource(api_key="s3cret", transport=first)
    assert isinstance(src, TransportBound)
    other = ReplayTransport(fallback={"id": "https://openalex.org/W1", "title": "T"})
    clone = src.with_transport(other)
    assert (src.transport, clone.transport) == (first, other)
    assert "s3cret" not in repr(clone)
    assert repr(clone) == repr(src)
    assert clone.paper("openalex:W1") is not None
    assert dict(other.requests[0].params)["api_key"] == "s3cret"
    assert first.requests == []


def test_http_edge_sends_the_crossref_token_as_a_secret_header() -> None:
    t = ReplayTransport(fallback=b"not json")
    src = CrossrefSource(api_key="tok", transport=t)
    with pytest.raises(InvalidResponseError):
        src.paper("10.1234/x")
    sent = t.requests[0]
    assert sent.header("Crossref-Plus-API-Token") == "Bearer tok"
    assert "tok" not in repr(sent)
