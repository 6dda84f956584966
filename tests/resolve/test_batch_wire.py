"""What ``resolve_many``'s worker processes send back: every field of every result, unchanged.

A worker turns each result into plain tuples (``_to_wire_result``) - a compared candidate's
evidence sent unrendered, as the candidate and its comparison's outcomes - and the parent
rebuilds them (``_resolution_from_wire``), rendering that evidence when it is read. These tests
compare the rebuilt results field by field with the results resolved here, over references
that end in every state.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import citeledger as cl
from citeledger.model import Resolution, ResolutionState, replace
from citeledger.model._observation import _Deferred
from citeledger.resolve import _batch
from citeledger.resolve._results import (
    _EVIDENCE_SLOT,
    _evidence_tuples,
    _exact_shown,
    _then_compared,
)
from citeledger.resolve.scoring import (
    _evidence_tuple,
)
from tests.resolve.test_resolver import CATALOG, KNUTH, ZERO, _every_state, _ref

# Fewer authors than the catalog's record names: the evidence's two sides differ.
_SOME = ["S. Rajbhandari", "O. Ruwase", "J. Rasley"]


def _references() -> list[cl.Reference | cl.Paper | str]:
    """``_every_state()``, plus references whose evidence has more than one part.

    And references whose authors' evidence differs on its two sides, by both fast paths (the
    worker sends the authors' outcome without its values), as a reference, a paper and a string.
    """
    return [
        *_every_state(),
        # An identifier not in the catalog, then the fuzzy route: evidence before the fields.
        cl.Reference(
            title=KNUTH.title, authors="Knuth", year=1968, identifiers=["10.9999/not.there"]
        ),
        # Fields that disagree or are missing on one side (year, pages, venue).
        replace(_ref(KNUTH, ids=False), year=1975, volume="9", first_page="77", venue="Nature"),
        *(replace(_ref(p), venue=None, year=None) for p in CATALOG),
        replace(_ref(ZERO), authors=_SOME),
        replace(_ref(ZERO, ids=False), authors=_SOME),
        cl.Paper(title=ZERO.title, authors=_SOME, year=2021),
        (
            "Rajbhandari S, Ruwase O, Rasley J. ZeRO-Infinity: breaking the GPU memory wall for "
            "extreme scale deep learning. In: SC21; 2021."
        ),
    ]


def _fields(res: Resolution) -> tuple[Any, ...]:
    """Every field of a result (papers by identity, evidence rendered)."""
    return (
        res.state,
        res.method,
        None if res.target is None else id(res.target),
        res.score,
        res.evidence,
        res.reason,
        tuple(id(p) for p in res.alternatives),
    )


@pytest.fixture(scope="module")
def resolver() -> cl.Resolver:
    return cl.Resolver(CATALOG)


def test_the_references_take_both_fast_paths_and_end_in_every_state(
    resolver: cl.Resolver,
) -> None:
    # Otherwise the tests below would not exercise what the worker reads without rendering.
    out = [resolver.resolve(r) for r in _references()]
    # (the slots read before the evidence, which reading renders)
    makers = {getattr(_EVIDENCE_SLOT.__get__(r, Resolution), "make", None) for r in out}
    assert {_then_compared, _exact_shown} <= makers
    assert {r.state for r in out} == set(ResolutionState)
    # Each such evidence travels unrendered; some of it with authors that differ on its two
    # sides (which the parent makes again), by each path and from each kind of item.
    index = _batch._paper_index(resolver)
    differ = set()
    for ref, res in zip(_references(), out, strict=True):
        raw = _EVIDENCE_SLOT.__get__(res, Resolution)
        wire = _batch._evidence_wire(raw, index)
        if getattr(raw, "make", None) in {_then_compared, _exact_shown}:
            assert type(wire) is tuple
            authors = [e for e in res.evidence if e.field == "authors"]
            if authors and authors[0].left != authors[0].right:
                differ.add((raw.make, type(ref)))
        else:
            assert type(wire) is list
    assert {m for m, _ in differ} == {_then_compared, _exact_shown}
    assert {t for _, t in differ} == {cl.Reference, cl.Paper, str}


@pytest.mark.parametrize("position", range(len(_references())))
def test_a_result_sent_back_by_a_worker_equals_the_one_resolved_here(
    resolver: cl.Resolver, position: int
) -> None:
    ref = _references()[position]
    index = _batch._paper_index(resolver)
    # Sent before its evidence or reason is read (as a worker does), through pickle.
    wire = pickle.loads(pickle.dumps(_batch._to_wire_result(resolver.resolve(ref), index)))
    back = _batch._resolution_from_wire(wire, resolver.catalog, ref)
    expected = resolver.resolve(ref)
    assert _fields(back) == _fields(expected)
    assert back == expected
    assert type(back.score) is type(expected.score)
    # The evidence's values keep their types too (a score stays a float or None).
    assert [tuple(map(type, _evidence_tuple(e))) for e in back.evidence] == [
        tuple(map(type, _evidence_tuple(e))) for e in expected.evidence
    ]


def test_evidence_tuples_equal_the_rendered_evidence(resolver: cl.Resolver) -> None:
    for ref in _references():
        res = resolver.resolve(ref)
        raw = _EVIDENCE_SLOT.__get__(res, Resolution)
        tuples = _evidence_tuples(raw)
        assert tuples == [_evidence_tuple(e) for e in res.evidence], ref
        # Reading the slot did not render the result's own evidence.
        assert type(raw) is not _Deferred or _evidence_tuples(raw) == tuples


def test_resolve_many_with_workers_equals_resolve(resolver: cl.Resolver) -> None:
    refs = _references() * 3
    expected = [_fields(resolver.resolve(r)) for r in refs]
    assert [_fields(r) for r in resolver.resolve_many(refs, workers=2)] == expected
