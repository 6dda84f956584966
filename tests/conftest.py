"""Shared test configuration: hypothesis profiles, the ../shared data path, the network guard."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis profiles: "ci" is derandomised with enough examples to matter; "fuzz" is a long local
# run (HYPOTHESIS_PROFILE=fuzz pytest); FAST=1 gives a quick "dev" loop.
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=200,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile("fast", max_examples=10, deadline=None)
settings.register_profile(
    "fuzz", max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
_default_profile = "ci" if os.environ.get("CI") else "dev"
if os.environ.get("FAST"):
    _default_profile = "fast"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", _default_profile))

#: ``../shared`` beside the checkout (CI lays it there).
SHARED = Path(__file__).resolve().parents[1].parent / "shared"
SOURCES = SHARED / "data" / "sources"
MATCHING = SHARED / "data" / "matching-dev"

#: Skip a test when ``../shared/data`` is absent.
requires_shared = pytest.mark.skipif(
    not (SHARED / "data").is_dir(), reason="../shared/data is not present beside the checkout"
)

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def shared_data() -> Path:
    """Path of ``../shared/data``; skips the test when it is absent."""
    path = SHARED / "data"
    if not path.is_dir():
        pytest.skip("../shared/data is not present beside the checkout")
    return path


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--live", action="store_true", default=False, help="run tests marked live (real network)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--live"):
        return
    skip_live = pytest.mark.skip(reason="needs --live (talks to real services)")
    for item in items:
        if "live" in item.keywords:
            item.add_marker(skip_live)


_LOCAL_HOSTS = {"127.0.0.1", "::1", "localhost", "0.0.0.0", ""}  # loopback only


@pytest.fixture(autouse=True)
def _no_internet(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail any connection to a non-loopback address (tests may use servers they start)."""
    if "live" in request.keywords:
        yield
        return
    real_connect = socket.socket.connect

    def guarded_connect(self: socket.socket, address: Any) -> Any:
        host = address[0] if isinstance(address, tuple) else address
        if isinstance(host, str) and host not in _LOCAL_HOSTS and not host.startswith("127."):
            msg = f"test tried to reach the network: {address!r}"
            raise RuntimeError(msg)
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    yield


class FakeTime:
    """A clock that only moves when the transport sleeps; records every sleep (rounded to µs)."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(round(seconds, 6))
        self.now += seconds


@pytest.fixture
def fake() -> FakeTime:
    """A fresh :class:`FakeTime` at 0 for the adapters' retry and pacing tests."""
    return FakeTime()
