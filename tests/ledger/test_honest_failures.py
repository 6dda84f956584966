"""Honest failures (issue 14): a count nobody measured is None, and the record says so first."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

import citeledger as cl
from citeledger.errors import HostNotFound
from citeledger.ledger import RecordStatus
from citeledger.sources.sample import ZERO, ZERO_INFINITY, SampleSource
from citeledger.testing import FakeSource

NOW = dt.datetime(2026, 8, 8, tzinfo=dt.UTC)


class Down:
    """A source whose every call fails as with no network."""

    name = "openalex"
    capabilities = frozenset(cl.Capability)

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        raise HostNotFound("host not found", source=self.name, url="https://api.openalex.org/x")

    paper = references = citations = events = citation_counts = search = _fail


def test_nothing_measured_when_every_source_is_down() -> None:
    rec = cl.build_record(ZERO_INFINITY, [Down()], now=NOW)
    assert rec.citing_total is None
    assert "host not found" in (rec.citing_total_reason or "")
    assert rec.status is RecordStatus.NOTHING_MEASURED
    assert rec.measured_nothing
    for fmt in ("text", "markdown", "html"):
        out = rec.render(fmt)
        assert "Nothing could be measured" in out.splitlines()[0 if fmt != "html" else 1]
        assert "not measured (" in out
        assert "cited by 0" not in out.lower()
    assert rec.render("text").startswith("Nothing could be measured for arXiv:2104.07857")


def test_no_sources_at_all_is_nothing_measured() -> None:
    rec = cl.build_record(ZERO, [], now=NOW)
    assert rec.status is RecordStatus.NOTHING_MEASURED
    assert rec.citing_total is None
    assert "no source was given" in (rec.status_note or "")


def test_malformed_id_is_nothing_measured() -> None:
    rec = cl.build_record("doi:nonsense", [SampleSource()], now=NOW)
    assert rec.status is RecordStatus.NOTHING_MEASURED
    assert rec.citing_total is None


@pytest.mark.parametrize("pid", [ZERO, ZERO_INFINITY])
def test_a_healthy_record_is_ok_and_opens_as_before(pid: str) -> None:
    rec = cl.build_record(pid, [SampleSource()], now=NOW)
    assert rec.status is RecordStatus.OK
    assert not rec.measured_nothing
    assert rec.status_note is None
    assert isinstance(rec.citing_total, int)
    assert rec.citing_total_reason is None
    assert rec.render("text").startswith("Paper Citation Record")


def test_one_source_down_is_partial_and_the_count_stays_measured() -> None:
    rec = cl.build_record(ZERO_INFINITY, [SampleSource(), Down()], now=NOW)
    assert rec.status is RecordStatus.PARTIAL
    assert isinstance(rec.citing_total, int)
    assert rec.citing_total > 0
    assert rec.status_note is None


def test_a_source_that_lists_nothing_is_a_measured_zero() -> None:
    target = cl.Paper(identifiers=["doi:10.1234/t"], title="T")
    fake = FakeSource(papers=[target], citations={"doi:10.1234/t": []})
    rec = cl.build_record("doi:10.1234/t", [fake], now=NOW)
    assert rec.citing_total == 0
    assert rec.status is RecordStatus.OK


def test_a_source_without_citations_leaves_the_count_unmeasured() -> None:
    target = cl.Paper(identifiers=["doi:10.1234/t"], title="T")
    rec = cl.build_record("doi:10.1234/t", [FakeSource(papers=[target])], now=NOW)
    assert rec.status is RecordStatus.OK  # asked what it offers; nothing failed
    assert rec.citing_total is None
    assert "not measured (no named source can list citing papers)" in rec.render("text")
