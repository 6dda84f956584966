"""The per-work notice outcome combined from several sources keeps what the others said."""

from __future__ import annotations

import datetime as dt

import citeledger as cl
from citeledger.model import Event, EventKind, NoticeCheck, NoticeStatus

T = dt.datetime(2026, 8, 8, 6, 32, tzinfo=dt.UTC)
DOI = cl.normalize_doi("10.1000/xyz")


def test_none_found_names_its_sources_and_keeps_the_unavailable_one_in_its_reason() -> None:
    checks = [
        NoticeCheck.none_found(sources=["crossref"], checked=T, subject=DOI),
        NoticeCheck.unavailable("HTTP 503 after 4 attempts", sources=["openretractions"]),
    ]
    out = NoticeCheck.combine(checks, DOI)
    assert out.status is NoticeStatus.NONE_FOUND
    assert out.sources == ("crossref",)  # "none found in the named sources": only crossref
    assert out.reason == "openretractions unavailable: HTTP 503 after 4 attempts"
    # the ledger sentence is the seed's; the reason travels in the record's JSON
    assert out.describe().startswith("No event found in the named queried sources as of")
    assert cl.loads(cl.dumps(out), NoticeCheck) == out


def test_events_found_keeps_its_own_note_and_the_unavailable_sources() -> None:
    retraction = Event(kind=EventKind.RETRACTION, source="crossref", date=dt.date(2024, 1, 2))
    found = cl.model.replace(
        NoticeCheck.found([retraction], sources=["crossref"], checked=T, subject=DOI),
        reason="1 unreadable notice",
    )
    checks = [found, NoticeCheck.unavailable("timeout", sources=["retractionwatch"])]
    out = NoticeCheck.combine(checks, DOI)
    assert out.status is NoticeStatus.EVENTS_FOUND
    assert out.reason == "1 unreadable notice; retractionwatch unavailable: timeout"


def test_a_single_clean_check_has_no_reason() -> None:
    out = NoticeCheck.combine([NoticeCheck.none_found(sources=["crossref"], checked=T)], DOI)
    assert out.reason is None
