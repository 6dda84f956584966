"""Plug-in containment: nothing a source does aborts or holds the record (issue 13, point 5)."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

import citeledger as cl
from citeledger.errors import InvalidArgument, InvalidSource, SourceNotFound
from citeledger.ledger import Outcome
from citeledger.model import CoverageState, Facet
from citeledger.sources import Paged
from citeledger.sources.sample import ZERO, SampleSource
from citeledger.testing import FakeSource

NOW = dt.datetime(2026, 8, 8, tzinfo=dt.UTC)
PID = "doi:10.1234/target"
CITED = cl.Paper(identifiers=[PID], title="The target paper", year=2020)


def obs(n: int, src: str = "good") -> cl.Observation:
    return cl.Observation(
        direction="inbound",
        citing=cl.Paper(identifiers=[f"doi:10.1234/c{n}"], title=f"Citing {n}", year=2022),
        cited=CITED,
        source=src,
        observed=NOW,
    )


GOOD = [obs(1), obs(2)]


def good() -> FakeSource:
    return FakeSource(name="good", papers=[CITED], citations={PID: GOOD})


class Plugin:
    """A bespoke plug-in: each method answers or raises what it is given."""

    def __init__(self, name: str = "plugin", **answers: Any) -> None:
        self.name = name
        self.capabilities = frozenset(cl.Capability)
        self.answers = answers

    def _answer(self, method: str) -> Any:
        value = self.answers.get(method)
        if isinstance(value, BaseException):
            raise value
        if callable(value):
            return value()
        return value

    def paper(self, identifier: Any) -> Any:
        return self._answer("paper")

    def references(self, identifier: Any) -> Any:
        return self._answer("references") if "references" in self.answers else []

    def citations(self, identifier: Any) -> Any:
        return self._answer("citations") if "citations" in self.answers else Paged(iter([]))

    def events(self, identifier: Any) -> Any:
        if "events" in self.answers:
            return self._answer("events")
        return cl.NoticeCheck.none_found(sources=[self.name], checked=NOW)

    def citation_counts(self, identifier: Any) -> Any:
        return self._answer("citation_counts") if "citation_counts" in self.answers else []

    def search(self, query: Any, *, limit: int = 10) -> Any:
        return []


def report(rec: cl.CitationRecord, source: str, capability: str) -> Any:
    found = [r for r in rec.reports if r.source == source and r.capability == capability]
    assert found, f"no {source} {capability} report in {rec.reports}"
    return found[-1]


@pytest.mark.parametrize(
    "exc", [RuntimeError("boom"), KeyError("id"), ValueError("bad"), ZeroDivisionError(), OSError()]
)
def test_any_exception_from_a_listing_is_contained(exc: Exception) -> None:
    rec = cl.build_record(PID, [Plugin(citations=exc), good()], now=NOW)
    assert len(rec.inbound) == 2  # what the other source gave is kept
    r = report(rec, "plugin", "citations")
    assert r.outcome is Outcome.ERROR
    assert r.error_type == type(exc).__name__
    inbound = rec.coverage_of(Facet.INBOUND_ITEMIZATION)
    assert inbound.state is not CoverageState.COMPLETE
    assert "plugin" in (inbound.reason or "")
    assert type(exc).__name__ in (inbound.reason or "")


@pytest.mark.parametrize("method", ["paper", "references", "events", "citation_counts"])
def test_exception_in_every_other_facet_is_contained(method: str) -> None:
    answers: dict[str, Any] = {method: RuntimeError("x")}
    rec = cl.build_record(PID, [Plugin("plugin", **answers), good()], now=NOW)
    assert len(rec.inbound) == 2
    failed = [r for r in rec.reports if r.source == "plugin" and r.error_type == "RuntimeError"]
    assert failed
    assert failed[0].outcome is Outcome.ERROR


def test_paged_failing_after_its_first_page_keeps_the_first_page() -> None:
    def pages() -> Iterator[tuple[list[cl.Observation], int | None]]:
        yield [obs(10, "plugin"), obs(11, "plugin")], 6
        raise RuntimeError("page 2 exploded")

    rec = cl.build_record(PID, [Plugin(citations=lambda: Paged(pages()))], now=NOW)
    assert len(rec.inbound) == 2
    r = report(rec, "plugin", "citations")
    assert r.outcome is Outcome.PARTIAL
    assert (r.fetched, r.total, r.error_type) == (2, 6, "RuntimeError")
    assert "page 2 exploded" in (r.error or "")
    assert rec.coverage_of(Facet.INBOUND_ITEMIZATION).state is CoverageState.PARTIAL


def test_plain_generator_raising_a_key_error_mid_way() -> None:
    def gen() -> Iterator[cl.Observation]:
        yield obs(20, "plugin")
        raise KeyError("next")

    rec = cl.build_record(PID, [Plugin(citations=gen)], now=NOW)
    assert len(rec.inbound) == 1
    assert report(rec, "plugin", "citations").error_type == "KeyError"


def test_wrong_item_types_are_unreadable_not_observations() -> None:
    items: list[Any] = [obs(30, "plugin"), "a string", {"a": 1}, None, 7]
    rec = cl.build_record(PID, [Plugin(citations=lambda: iter(items))], now=NOW)
    assert len(rec.inbound) == 1
    r = report(rec, "plugin", "citations")
    assert r.outcome is Outcome.PARTIAL
    assert len(r.unreadable) == 4
    assert {u.index for u in r.unreadable} == {1, 2, 3, 4}
    assert "a str, not a citing-paper observation" in r.unreadable[0].reason
    assert rec.coverage_of(Facet.INBOUND_ITEMIZATION).state is CoverageState.PARTIAL


@pytest.mark.parametrize("answer", [None, "notalist", {"items": []}, 5])
def test_citations_returning_no_listing_is_an_error_not_complete(answer: object) -> None:
    rec = cl.build_record(PID, [Plugin(citations=lambda: answer)], now=NOW)
    r = report(rec, "plugin", "citations")
    assert r.outcome is Outcome.ERROR
    assert r.error_type in {"WrongType", "TypeError"}
    assert rec.coverage_of(Facet.INBOUND_ITEMIZATION).state is CoverageState.UNAVAILABLE
    assert rec.citing_total is None


def test_wrong_types_in_the_other_facets() -> None:
    ref = cl.Reference(position=1, title="A referenced work", year=2019)
    plugin = Plugin(
        paper={"title": "a dict"},
        references=lambda: [ref, "not a reference", None],
        events="clean",
        citation_counts=None,
    )
    rec = cl.build_record(PID, [plugin, good()], now=NOW)
    assert report(rec, "plugin", "paper").error_type == "WrongType"
    refs = report(rec, "plugin", "references")
    assert refs.outcome is Outcome.PARTIAL
    assert (refs.fetched, refs.total, len(refs.unreadable)) == (1, 3, 2)
    assert len(rec.outbound) == 1
    assert report(rec, "plugin", "citation_counts").error_type == "WrongType"
    assert any(r.error_type == "WrongType" for r in rec.reports if r.capability == "events")
    assert rec.paper.title == CITED.title


def test_references_as_a_string_is_one_error_not_one_entry_per_character() -> None:
    rec = cl.build_record(PID, [Plugin(references=lambda: "notalist")], now=NOW)
    assert rec.outbound_total == 0
    assert report(rec, "plugin", "references").error_type == "WrongType"


def build_then_release(
    release: threading.Event, sources: list[Any], *, deadline: float
) -> tuple[cl.CitationRecord, float]:
    """Build with ``source_deadline=deadline``, then set ``release`` so no hung call outlives
    the test; the record and the seconds the build took."""
    try:
        start = time.monotonic()
        rec = cl.build_record(PID, sources, now=NOW, source_deadline=deadline)
        return rec, time.monotonic() - start
    finally:
        release.set()


def test_a_source_that_never_returns_is_abandoned_at_the_deadline() -> None:
    release = threading.Event()

    def hang() -> Any:
        release.wait(30)
        return GOOD

    rec, took = build_then_release(release, [Plugin(citations=hang), good()], deadline=0.3)
    assert took < 3
    assert len(rec.inbound) == 2
    r = report(rec, "plugin", "citations")
    assert (r.outcome, r.error_type) == (Outcome.ERROR, "DeadlineExceeded")
    assert "0.3 s" in (r.error or "")


def test_a_listing_that_hangs_after_its_first_page_keeps_that_page() -> None:
    release = threading.Event()

    def pages() -> Iterator[tuple[list[cl.Observation], int | None]]:
        yield [obs(40, "plugin"), obs(41, "plugin")], 10
        release.wait(30)
        yield [obs(42, "plugin")], 10

    rec, took = build_then_release(
        release, [Plugin(citations=lambda: Paged(pages()))], deadline=0.3
    )
    assert took < 3
    assert len(rec.inbound) == 2
    r = report(rec, "plugin", "citations")
    assert (r.outcome, r.error_type, r.fetched) == (Outcome.PARTIAL, "DeadlineExceeded", 2)


def test_every_facet_hanging_is_bounded_per_call() -> None:
    release = threading.Event()

    def hang() -> Any:
        release.wait(30)

    plugin = Plugin(paper=hang, references=hang, citations=hang, citation_counts=hang)
    rec, took = build_then_release(release, [plugin, good()], deadline=0.2)
    assert took < 4  # four calls, each abandoned at 0.2 s
    timed_out = {r.capability for r in rec.reports if r.error_type == "DeadlineExceeded"}
    assert {"paper", "references", "citations", "citation_counts"} <= timed_out
    assert len(rec.inbound) == 2


@pytest.mark.parametrize("exc", [KeyboardInterrupt(), SystemExit(3)])
def test_interrupts_still_propagate(exc: BaseException) -> None:
    with pytest.raises(type(exc)):
        cl.build_record(PID, [Plugin(paper=exc)], now=NOW)


def test_interrupts_propagate_without_a_deadline_too() -> None:
    with pytest.raises(KeyboardInterrupt):
        cl.build_record(PID, [Plugin(citations=KeyboardInterrupt())], now=NOW, source_deadline=None)


def test_no_deadline_runs_inline_and_still_contains() -> None:
    rec = cl.build_record(
        PID, [Plugin(citations=RuntimeError("x")), good()], now=NOW, source_deadline=None
    )
    assert len(rec.inbound) == 2
    assert report(rec, "plugin", "citations").error_type == "RuntimeError"


@pytest.mark.parametrize("bad", [0, -1.0, float("nan")])
def test_source_deadline_must_be_positive(bad: float) -> None:
    with pytest.raises(InvalidArgument):
        cl.build_record(PID, [good()], source_deadline=bad)


def test_source_names_are_loaded_from_the_registry() -> None:
    by_name = cl.build_record(ZERO, ["sample"], now=NOW)
    by_object = cl.build_record(ZERO, [SampleSource()], now=NOW)
    assert by_name.inbound
    assert len(by_name.inbound) == len(by_object.inbound)
    assert {r.source for r in by_name.reports} == {"sample"}
    assert len(cl.build_record(ZERO, "sample", now=NOW).inbound) == len(by_object.inbound)


def test_unknown_source_name_is_refused() -> None:
    with pytest.raises(SourceNotFound, match="nope"):
        cl.build_record(ZERO, ["nope"], now=NOW)


@pytest.mark.parametrize("bad", [[42], [object()], [None], 42])
def test_anything_else_as_a_source_is_refused(bad: object) -> None:
    with pytest.raises(InvalidSource):
        cl.build_record(ZERO, bad, now=NOW)  # type: ignore[arg-type]
