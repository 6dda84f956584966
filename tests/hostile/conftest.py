"""The loopback fault server (``citeledger.testing._hostile``, shared with the harness) per test."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from citeledger.testing._hostile import FaultServer

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture
def fault_server() -> Iterator[FaultServer]:
    """A fresh loopback fault server per test."""
    server = FaultServer()
    yield server
    server.close()
