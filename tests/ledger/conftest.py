"""Tests of citeledger.ledger (building and rendering the citation record); shared fixtures and data paths live in tests/conftest.py."""

from __future__ import annotations

import datetime as dt

import citeledger as cl


def inbound(
    source: str,
    citing: cl.Paper,
    cited: cl.Paper,
    *,
    observed: dt.datetime,
    position: int = 1,
    state: str = "verified_exact",
) -> cl.Observation:
    """``source`` says ``citing`` cites ``cited`` (resolved by DOI, unless ``state`` is unresolved)."""
    target = None if state == "unresolved" else cited
    return cl.Observation(
        direction="inbound",
        citing=citing,
        cited=cited,
        position=position,
        resolution=cl.Resolution(state=state, method="doi", target=target),
        source=source,
        observed=observed,
    )
