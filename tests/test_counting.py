"""Counting right (issue 12): observation ids, one citing work per work, self-citation, counts.

Each test is built from the case the issue reports.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

import citeledger as cl
from citeledger.model import replace
from citeledger.sources.sample import ZERO_INFINITY, SampleSource
from citeledger.testing import FakeSource

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
NOW = dt.datetime(2026, 8, 8, tzinfo=dt.UTC)


def _seed_pair() -> list[cl.Observation]:
    """The seed's two observations of one citing paper at reference 234, in two states."""
    inbound = list(SampleSource().citations(ZERO_INFINITY))
    pair = [o for o in inbound if o.position == 234]
    assert len(pair) == 2
    assert {o.state for o in pair} == {
        cl.ResolutionState.VERIFIED_EXACT,
        cl.ResolutionState.UNRESOLVED,
    }
    return pair


def test_the_seed_pair_reported_by_one_source_gets_two_ids() -> None:
    # The sample keeps the seed's two link tables; one source reporting both is the collision.
    pair = [replace(o, source="paper_references") for o in _seed_pair()]
    assert pair[0].id != pair[1].id
    # Still deterministic: the same observation built again has the same id.
    again = [replace(o, source="paper_references") for o in _seed_pair()]
    assert [o.id for o in again] == [o.id for o in pair]
    # When it was seen is not part of the identity.
    later = replace(pair[0], observed=pair[0].observed + dt.timedelta(days=30))
    assert later.id == pair[0].id


def test_a_record_keeps_both_observations_of_the_seed_pair_from_one_source() -> None:
    if SEEDS.is_dir():
        seed = next(SEEDS.glob("000_*.txt")).read_text(encoding="utf-8")
        assert seed.count("Reference 234") == 2
    pair = [replace(o, source="links") for o in _seed_pair()]
    fake = FakeSource(name="links", citations={str(ZERO_INFINITY): pair})
    record = cl.build_record(ZERO_INFINITY, [fake], now=NOW)
    assert len(record.inbound) == 2
    assert len({o.id for o in record.inbound}) == 2
    # Two observations of one citing work.
    assert len(record.citing_works) == 1
    assert len(record.citing_works[0].observations) == 2


@pytest.mark.parametrize("state", ["metadata_mismatch", "unresolved"])
def test_state_or_method_changes_the_id(state: str) -> None:
    one = _seed_pair()[0]
    assert one.resolution is not None
    other = replace(one, resolution=replace(one.resolution, state=state))
    assert other.id != one.id
    method = replace(one, resolution=replace(one.resolution, method="doi"))
    assert method.id != one.id
