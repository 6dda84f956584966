"""A candidate provider that raises costs one reference, never the batch."""

from __future__ import annotations

from citeledger.identifiers import Identifier
from citeledger.model import Paper, Reference, ResolutionState
from citeledger.resolve import Resolver


class _Flaky:
    """Raises for the one reference whose title says so; knows nothing otherwise."""

    def __init__(self) -> None:
        self.calls = 0

    def by_identifier(self, ident: Identifier) -> list[Paper]:
        return []

    def candidates(self, ref: Reference, *, limit: int) -> list[Paper]:
        self.calls += 1
        if ref.title and "boom" in ref.title:
            raise RuntimeError("provider down")
        return []


def test_one_failing_reference_of_a_thousand_keeps_the_other_999() -> None:
    provider = _Flaky()
    refs = [Reference(title=f"an ordinary title number {i}", year=2020) for i in range(999)]
    refs.insert(500, Reference(title="boom goes the provider", year=2020))
    results = Resolver(providers=[provider]).resolve_many(refs, workers=1)
    assert len(results) == 1000
    failed = results[500]
    assert failed.state is ResolutionState.UNRESOLVED
    assert failed.reason is not None
    assert "_Flaky failed: RuntimeError" in failed.reason
    assert "provider down" in failed.reason
    assert all("failed" not in (r.reason or "") for i, r in enumerate(results) if i != 500)
    assert provider.calls == 1000
