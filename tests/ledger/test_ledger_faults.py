"""Bad input and faults: the record is still built, every disagreement is visible with its source,
and nothing fetched is lost. Fake in-memory sources throughout."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

import citeledger as cl
from citeledger.errors import (
    IncompatibleMeasurements,
    NaiveDatetimeError,
    NotFoundError,
    ServerError,
    SourceTimeout,
    UnsupportedCapability,
)
from citeledger.model import Event
from citeledger.sources import Paged
from tests.ledger.conftest import inbound

NOW = dt.datetime(2026, 8, 8, 6, 32, tzinfo=dt.UTC)
PID = "arXiv:2104.07857"
PAPER = cl.Paper(
    identifiers=["arXiv:2104.07857v1"],
    title="ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme Scale Deep Learning",
    authors=["Samyam Rajbhandari", "Olatunji Ruwase", "Jeff Rasley"],
    year=2021,
    date="2021-04-16",
)
CITED = cl.Paper(identifiers=["arXiv:2104.07857"], title=PAPER.title, year=2021)
ALL = frozenset(cl.Capability)


def citing(n: int, **kw: Any) -> cl.Paper:
    base: dict[str, Any] = {
        "title": f"Citing paper number {n}",
        "year": 2022,
        "identifiers": [f"doi:10.1234/c{n}"],
    }
    base.update(kw)
    return cl.Paper(**base)


def obs(src: str, paper: cl.Paper, pos: int = 1, state: str = "verified_exact") -> cl.Observation:
    return inbound(src, paper, CITED, observed=NOW, position=pos, state=state)


@attrs.define(kw_only=True)
class Fake:
    """An in-memory source; every behaviour is a constructor argument (all but ``name`` by keyword)."""

    name: str = attrs.field(kw_only=False)
    _paper: cl.Paper | None = PAPER
    _citations: list[cl.Observation] | None = None
    _total: int | None = None
    _fail_after_pages: int | None = None
    _page: int = 2
    _events: cl.NoticeCheck | Exception | None = None
    _counts: list[cl.Measurement] | Exception | None = None
    _references: list[cl.Reference] | Exception | None = None
    capabilities: frozenset[cl.Capability] = ALL
    _paper_error: Exception | None = None
    calls: list[str] = attrs.field(init=False, factory=list)

    def paper(self, identifier: Any) -> cl.Paper | None:
        self.calls.append("paper")
        if self._paper_error:
            raise self._paper_error
        return self._paper

    def references(self, identifier: Any) -> list[cl.Reference]:
        if isinstance(self._references, Exception):
            raise self._references
        if self._references is None:
            raise UnsupportedCapability(self.name, "references")
        return self._references

    def citations(self, identifier: Any) -> Paged[cl.Observation]:
        items, size, fail = self._citations or [], self._page, self._fail_after_pages
        total = self._total

        def pages() -> Iterator[tuple[list[cl.Observation], int | None]]:
            for i, start in enumerate(range(0, len(items), size)):
                if fail is not None and i >= fail:
                    raise SourceTimeout(
                        "read timed out", source=self.name, url="http://fake/cites", attempt=3
                    )
                yield items[start : start + size], total

        return Paged(pages())

    def events(self, identifier: Any) -> cl.NoticeCheck:
        if isinstance(self._events, Exception):
            raise self._events
        if self._events is None:
            return cl.NoticeCheck.none_found(sources=[self.name], checked=NOW)
        return self._events

    def citation_counts(self, identifier: Any) -> list[cl.Measurement]:
        if isinstance(self._counts, Exception):
            raise self._counts
        return list(self._counts or [])

    def search(self, query: Any, *, limit: int = 10) -> list[cl.Paper]:
        return []


def test_malformed_paper_id_still_builds_a_record() -> None:
    src = Fake("a")
    rec = cl.build_record("arXiv:99999.zzz", [src], now=NOW)
    assert rec.requested == "arXiv:99999.zzz"
    assert src.calls == []  # no source asked about garbage
    for cov in rec.coverage:
        assert cov.state is cl.CoverageState.UNAVAILABLE
        assert cov.reason is not None
        assert "malformed" in cov.reason
    assert rec.reports[0].outcome is cl.Outcome.SKIPPED
    text = rec.render("text")
    assert "arXiv:99999.zzz" in text
    assert "malformed" in text
    assert cl.CitationRecord.from_json(rec.to_json()) == rec


def test_unknown_to_every_source() -> None:
    a = Fake(
        "a", paper=None, citations=[], total=0, counts=NotFoundError("nope", source="a", status=404)
    )
    b = Fake(
        "b",
        paper_error=NotFoundError("Resource not found.", source="b", status=404),
        capabilities=frozenset({cl.Capability.PAPER}),
    )
    rec = cl.build_record(PID, [a, b], now=NOW)
    assert rec.paper.identifiers == (cl.parse_identifier(PID),)
    outcomes = {(r.source, r.capability): r.outcome for r in rec.reports if r.subject is None}
    assert outcomes["a", cl.Capability.PAPER] is cl.Outcome.NOT_FOUND
    assert outcomes["b", cl.Capability.PAPER] is cl.Outcome.NOT_FOUND
    assert outcomes["b", cl.Capability.CITATIONS] is cl.Outcome.UNSUPPORTED
    ext = rec.coverage_of(cl.Facet.EXTERNAL_CITATION_MEASUREMENTS)
    assert ext.state is cl.CoverageState.UNAVAILABLE
    assert ext.reason
    assert "a citation_counts: not found" in ext.reason
    assert "What could not be measured" in rec.render("text")


def test_known_to_only_some_sources_keeps_what_the_others_gave() -> None:
    a = Fake("a", citations=[obs("a", citing(1))], total=1)
    b = Fake("b", paper=None, citations=[], total=0)
    rec = cl.build_record(PID, [b, a], now=NOW)
    assert rec.paper.title == PAPER.title
    assert [d.source for d in rec.paper_descriptions] == ["a"]
    assert len(rec.inbound) == 1
    assert str(rec.paper.identifiers[0]) == "arxiv:2104.07857v1"  # the source's versioned form


def test_timeout_mid_paging_keeps_fetched_and_says_partial() -> None:
    items = [obs("a", citing(i)) for i in range(6)]
    src = Fake("a", citations=items, total=6, fail_after_pages=2, page=2)
    rec = cl.build_record(PID, [src], now=NOW)
    # Nothing fetched is lost (the ids differ: the check gave each observation its own state).
    assert [o.citing.key for o in rec.inbound] == [o.citing.key for o in items[:4]]
    cov = rec.coverage_of(cl.Facet.INBOUND_ITEMIZATION)
    assert (cov.measured, cov.total, cov.state) == (4, 6, cl.CoverageState.PARTIAL)
    assert cov.reason is not None
    assert "SourceTimeout" in cov.reason
    assert "after 4" in cov.reason
    (rep,) = [r for r in rec.reports if r.capability == "citations"]
    assert (rep.outcome, rep.fetched, rep.total, rep.error_type) == (
        cl.Outcome.PARTIAL,
        4,
        6,
        "SourceTimeout",
    )


def test_plain_iterator_raising_mid_way() -> None:
    class Raising(Fake):
        def citations(self, identifier: Any) -> Iterator[cl.Observation]:  # type: ignore[override]
            yield obs(self.name, citing(1))
            raise ServerError("boom", source=self.name, status=503)

    rec = cl.build_record(PID, [Raising("r")], now=NOW)
    assert len(rec.inbound) == 1
    cov = rec.coverage_of(cl.Facet.INBOUND_ITEMIZATION)
    assert cov.state is cl.CoverageState.PARTIAL
    assert cov.total is None
    assert cov.reason is not None
    assert "ServerError" in cov.reason


def test_page_cap_is_disclosed() -> None:
    src = Fake("a", citations=[obs("a", citing(i)) for i in range(5)], total=5)
    rec = cl.build_record(PID, [src], now=NOW, inbound_cap=3)
    cov = rec.coverage_of(cl.Facet.INBOUND_ITEMIZATION)
    assert (cov.measured, cov.total) == (3, 5)
    assert cov.note == "under the disclosed page cap of 3"
    assert cov.reason is not None
    assert "disclosed page cap of 3" in cov.reason
    assert rec.reports[[r.capability for r in rec.reports].index(cl.Capability.CITATIONS)].capped
    assert "Citing papers itemized under the disclosed page cap." in rec.render("text")
    # a cap that is not reached does not mark the listing capped
    rec2 = cl.build_record(PID, [src], now=NOW, inbound_cap=5)
    assert rec2.coverage_of(cl.Facet.INBOUND_ITEMIZATION).state is cl.CoverageState.COMPLETE


def test_contradictory_retraction_status_is_visible_with_sources() -> None:
    retraction = Event(kind="retraction", source="rw", date="2023-01-10", subject=PID)
    a = Fake(
        "rw",
        citations=[
            obs("rw", citing(1, year=2024, date="2024-03-01")),
            obs("rw", citing(2, year=2022, date="2022-05-01")),
        ],
        total=2,
        events=cl.NoticeCheck.found([retraction], sources=["rw"], checked=NOW),
    )
    b = Fake("crossref", events=cl.NoticeCheck.none_found(sources=["crossref"], checked=NOW))
    rec = cl.build_record(PID, [a, b], now=NOW)
    (dis,) = [d for d in rec.disagreements if d.topic == "retraction status"]
    assert {(c.source, c.value) for c in dis.claims} == {
        ("rw", "retraction found"),
        ("crossref", "no event found"),
    }
    after = {rec.inbound[i].citing.title: rec.notices[i].after_retraction for i in range(2)}
    assert after == {"Citing paper number 1": True, "Citing paper number 2": False}
    text = rec.render("text")
    assert "Disagreements between sources" in text
    assert "rw: retraction found" in text
    assert "This citation was made after the cited work's retraction." in text


def test_counts_disagree_are_never_combined() -> None:
    a = Fake("openalex", counts=[cl.Measurement(value=57, source="openalex", observed=NOW)])
    b = Fake(
        "semanticscholar", counts=[cl.Measurement(value=61, source="semanticscholar", observed=NOW)]
    )
    rec = cl.build_record(PID, [a, b], now=NOW)
    assert sorted(m.value for m in rec.measurements) == [57, 61]
    (dis,) = [d for d in rec.disagreements if d.topic == "cited_by count"]
    assert [(c.source, c.value) for c in dis.claims] == [
        ("openalex", "57"),
        ("semanticscholar", "61"),
    ]
    assert rec.coverage_of(cl.Facet.EXTERNAL_CITATION_MEASUREMENTS).measured == 2
    with pytest.raises(IncompatibleMeasurements):
        _ = rec.measurements[0] + rec.measurements[1]


def test_event_source_error_is_never_clean() -> None:
    src = Fake(
        "a",
        citations=[obs("a", citing(1))],
        total=1,
        events=ServerError("down", source="a", status=500),
    )
    rec = cl.build_record(PID, [src], now=NOW)
    (n,) = rec.notices
    assert n.check.status is cl.NoticeStatus.UNAVAILABLE
    assert n.after_retraction is None
    cov = rec.coverage_of(cl.Facet.STANDING_NOTICES)
    assert cov.state is cl.CoverageState.UNAVAILABLE
    assert cov.measured == 0
    # one source errors, another answers: "none found" names only the one that answered
    ok = Fake("b", events=cl.NoticeCheck.none_found(sources=["b"], checked=NOW))
    rec2 = cl.build_record(PID, [src, ok], now=NOW)
    (n2,) = rec2.notices
    assert n2.check.status is cl.NoticeStatus.NONE_FOUND
    assert n2.check.sources == ("b",)
    (wn,) = rec2.work_notices
    assert [c.status for c in wn.checks] == [
        cl.NoticeStatus.UNAVAILABLE,
        cl.NoticeStatus.NONE_FOUND,
    ]


def test_unsupported_capabilities_are_reported_not_raised() -> None:
    src = Fake("meta", capabilities=frozenset({cl.Capability.PAPER}))
    rec = cl.build_record(PID, [src], now=NOW)
    assert rec.coverage_of(cl.Facet.REFERENCE_RESOLUTION).state is cl.CoverageState.UNAVAILABLE
    assert rec.coverage_of(cl.Facet.INBOUND_ITEMIZATION).state is cl.CoverageState.UNAVAILABLE
    assert (
        rec.coverage_of(cl.Facet.EXTERNAL_CITATION_MEASUREMENTS).state
        is cl.CoverageState.UNAVAILABLE
    )
    assert {r.outcome for r in rec.reports if r.capability != "paper"} == {cl.Outcome.UNSUPPORTED}


def test_reference_errors_and_partial_reference_lists() -> None:
    refs = [
        cl.Reference(
            position=1,
            title="Attention is all you need",
            identifiers=["arXiv:1706.03762"],
            year=2017,
        )
    ]
    a = Fake("a", references=refs)
    b = Fake("b", references=ServerError("refs down", source="b", status=502))
    rec = cl.build_record(PID, [a, b], now=NOW)
    cov = rec.coverage_of(cl.Facet.REFERENCE_RESOLUTION)
    assert (cov.measured, cov.total, cov.state) == (1, 1, cl.CoverageState.PARTIAL)
    assert cov.reason is not None
    assert "b references: error" in cov.reason
    assert rec.outbound[0].state is cl.ResolutionState.UNRESOLVED  # empty catalog, no network


def test_duplicates_two_sources_two_states_and_preprint_grouping() -> None:
    preprint = citing(
        1,
        identifiers=["arXiv:2201.11990"],
        related=[{"kind": "preprint_of", "identifier": "doi:10.1234/pub", "source": "crossref"}],
    )
    published = citing(
        1, identifiers=["doi:10.1234/pub"], title="Citing paper number 1 (published)"
    )
    a = Fake("a", citations=[obs("a", preprint, 5), obs("a", published, 5)], total=2)
    b = Fake("b", citations=[obs("b", preprint, 5, state="unresolved")], total=1)
    rec = cl.build_record(PID, [a, b], now=NOW)
    assert len(rec.inbound) == 3
    assert len({o.id for o in rec.inbound}) == 3
    (work,) = rec.citing_works
    assert len(work.observations) == 3
    assert "preprint and published version" in work.grouping[0]
    assert "crossref" in work.grouping[0]
    assert work.sources == ("a", "b")


def test_self_citation_flagged() -> None:
    own = citing(1, authors=["S. Rajbhandari", "A. Stranger"])
    other = citing(2, authors=["Someone Else"])
    unknown = citing(3)
    rec = cl.build_record(
        PID,
        [Fake("a", citations=[obs("a", own), obs("a", other), obs("a", unknown)], total=3)],
        now=NOW,
    )
    flags = [w.self_citation for w in rec.citing_works]
    assert flags == [True, False, None]
    assert rec.self_citations[0].shared_authors == ("S. Rajbhandari",)
    assert "Self-citation (shared authors: S. Rajbhandari)" in rec.render("text")


def test_citing_totals_disagree_between_sources() -> None:
    a = Fake("a", citations=[obs("a", citing(1))], total=10)
    b = Fake("b", citations=[obs("b", citing(1))], total=12)
    rec = cl.build_record(PID, [a, b], now=NOW)
    (dis,) = [d for d in rec.disagreements if d.topic == "citing-paper total"]
    assert [(c.source, c.value) for c in dis.claims] == [("a", "10"), ("b", "12")]
    assert rec.citing_total == 12  # the largest single source's total; never 22


def test_now_must_be_aware() -> None:
    with pytest.raises(NaiveDatetimeError):
        cl.build_record(PID, [Fake("a")], now=dt.datetime(2026, 1, 1))  # noqa: DTZ001


def test_default_now_is_current_utc() -> None:
    before = dt.datetime.now(dt.UTC)
    rec = cl.build_record(PID, [Fake("a")])
    assert before <= rec.built <= dt.datetime.now(dt.UTC)


def test_registry_is_accepted() -> None:
    reg = cl.SourceRegistry(
        [Fake("a", citations=[obs("a", citing(1))], total=1)], load_entry_points=False
    )
    rec = cl.build_record(PID, reg, now=NOW)
    assert len(rec.inbound) == 1
