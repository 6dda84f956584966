"""Two different works under one DOI (issue 13, point 7) and resolve_many's arguments (issue 14)."""

from __future__ import annotations

import pytest

import citeledger as cl
from citeledger.errors import InvalidArgument

DOI = "doi:10.1234/shared"
FOLDING = cl.Paper(
    identifiers=[DOI], title="Deep learning of protein folding", authors=["Ann Smith"], year=2019
)
TRADE = cl.Paper(
    identifiers=[DOI], title="A history of medieval trade routes", authors=["Bob Jones"], year=2003
)


@pytest.fixture
def resolver() -> cl.Resolver:
    return cl.Resolver([FOLDING, TRADE])


def test_a_bare_identifier_proves_nothing_when_two_works_share_it(resolver: cl.Resolver) -> None:
    res = resolver.resolve(cl.Reference(identifiers=[DOI]))
    assert res.state is cl.ResolutionState.UNRESOLVED
    assert not res.state.verified
    assert res.target is None
    assert "metadata agree" not in res.reason
    assert "held by 2 different works" in res.reason
    assert "no metadata to tell them apart" in res.reason
    assert {p.title for p in res.alternatives} == {FOLDING.title, TRADE.title}


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"title": FOLDING.title}, FOLDING),
        ({"title": TRADE.title, "year": 2003}, TRADE),
        ({"authors": ["A. Smith"], "year": 2019}, FOLDING),
    ],
)
def test_metadata_that_fit_one_of_them_decide(
    resolver: cl.Resolver, fields: dict[str, object], expected: cl.Paper
) -> None:
    res = resolver.resolve(cl.Reference(identifiers=[DOI], **fields))  # type: ignore[arg-type]
    assert res.state is cl.ResolutionState.VERIFIED_EXACT
    assert res.target is not None
    assert res.target.title == expected.title
    assert "one of 2 different works holding it" in res.reason


def test_metadata_fitting_neither_is_a_mismatch(resolver: cl.Resolver) -> None:
    ref = cl.Reference(identifiers=[DOI], title="Quantum error correction with surface codes")
    res = resolver.resolve(ref)
    assert res.state is cl.ResolutionState.METADATA_MISMATCH


def test_metadata_fitting_both_say_so() -> None:
    early = cl.Paper(identifiers=[DOI], title="Graph neural networks", year=2018)
    late = cl.Paper(identifiers=[DOI], title="Graph neural networks", year=2024)
    res = cl.Resolver([early, late]).resolve(
        cl.Reference(identifiers=[DOI], title="Graph neural networks")
    )
    assert res.state is cl.ResolutionState.UNRESOLVED
    assert "agree with more than one" in res.reason
    assert len(res.alternatives) == 2


def test_one_work_held_twice_still_verifies() -> None:
    twice = cl.Resolver([FOLDING, FOLDING])
    res = twice.resolve(cl.Reference(identifiers=[DOI]))
    assert res.state is cl.ResolutionState.VERIFIED_EXACT
    assert "different works" not in res.reason


def test_resolve_many_agrees_with_resolve(resolver: cl.Resolver) -> None:
    refs = [cl.Reference(identifiers=[DOI]), cl.Reference(identifiers=[DOI], title=TRADE.title)]
    states = [r.state for r in resolver.resolve_many(refs)]
    assert states == [cl.ResolutionState.UNRESOLVED, cl.ResolutionState.VERIFIED_EXACT]


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_resolve_many_refuses_impossible_worker_counts(
    resolver: cl.Resolver, workers: object
) -> None:
    with pytest.raises(InvalidArgument, match="workers"):
        resolver.resolve_many([cl.Reference(title="x")], workers=workers)  # type: ignore[arg-type]
    assert issubclass(InvalidArgument, ValueError)


@pytest.mark.parametrize("chunk", [0, -1, 1.5, True, "2"])
def test_resolve_many_refuses_impossible_chunk_sizes(resolver: cl.Resolver, chunk: object) -> None:
    with pytest.raises(InvalidArgument, match="chunk_size"):
        resolver.resolve_many([cl.Reference(title="x")], workers=2, chunk_size=chunk)  # type: ignore[arg-type]
