"""The ledger reads what a source offers from the capability protocols, stubs or not."""

from __future__ import annotations

import datetime as dt
from typing import Any

import citeledger as cl
from citeledger.errors import UnsupportedCapability
from citeledger.ledger import Outcome

NOW = dt.datetime(2026, 1, 2, tzinfo=dt.UTC)
ALL = frozenset(cl.Capability)


class PaperOnly:
    """Declares every capability but implements only ``paper`` (no stubs at all)."""

    name = "bare"
    capabilities = ALL

    def paper(self, identifier: Any) -> cl.Paper:
        return cl.Paper(identifiers=[identifier], title="A paper")


class Stubbed(PaperOnly):
    """The same, with the old-style stubs that raise ``UnsupportedCapability``."""

    name = "stubbed"

    def citations(self, identifier: Any) -> Any:
        raise UnsupportedCapability(self.name, cl.Capability.CITATIONS)

    def citation_counts(self, identifier: Any) -> Any:
        raise UnsupportedCapability(self.name, cl.Capability.CITATION_COUNTS)

    def cited_by_year(self, identifier: Any) -> Any:
        raise UnsupportedCapability(self.name, "cited_by_year")


def _outcomes(record: cl.CitationRecord, source: str) -> dict[str, Outcome]:
    return {r.capability: r.outcome for r in record.reports if r.source == source}


def test_a_missing_method_and_a_stub_are_both_unsupported() -> None:
    record = cl.build_record("doi:10.1234/x", [PaperOnly(), Stubbed()], now=NOW)
    bare, stubbed = _outcomes(record, "bare"), _outcomes(record, "stubbed")
    for outcomes in (bare, stubbed):
        assert outcomes["paper"] is Outcome.OK
        assert outcomes["references"] is Outcome.UNSUPPORTED
        assert outcomes["citations"] is Outcome.UNSUPPORTED
        assert outcomes["citation_counts"] is Outcome.UNSUPPORTED
    # A page hook is asked only of a source that has it; its stub reports under its name.
    assert "cited_by_year" not in bare
    assert stubbed["cited_by_year"] is Outcome.UNSUPPORTED
    assert record.coverage_of(cl.Facet.INBOUND_ITEMIZATION).state is cl.CoverageState.UNAVAILABLE
