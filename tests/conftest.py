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

#: ``../shared`` beside the checkout (CI lays it there); ``CITELEDGER_SHARED`` points elsewhere
#: (``CITELEDGER_SHARED=/nonexistent`` runs the suite as a bare clone would).
SHARED = Path(
    os.environ.get("CITELEDGER_SHARED") or Path(__file__).resolve().parents[1].parent / "shared"
)
SOURCES = SHARED / "data" / "sources"
MATCHING = SHARED / "data" / "matching-dev"

#: Whether ``../shared/data`` (the large real corpora and recordings) is laid beside the checkout.
HAVE_SHARED = (SHARED / "data").is_dir()
_SHARED_REASON = "../shared is absent (real recordings and corpora; see CITELEDGER_SHARED)"

#: The one marker for tests that read ``../shared``: skipped, with one reason, when it is absent.
#: Everything else runs on a bare clone from the hand-written payloads in ``tests/fixtures/``.
requires_shared = pytest.mark.shared_data

#: Hand-written payloads in the recorded shapes (``tests/fixtures/<source>/``), shipped with the tests.
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def fixture_bytes(source: str, name: str) -> bytes:
    """The bytes of ``tests/fixtures/<source>/<name>``."""
    return (FIXTURES / source / name).read_bytes()


@pytest.fixture
def shared_data() -> Path:
    """Path of ``../shared/data``; skips the test when it is absent."""
    path = SHARED / "data"
    if not path.is_dir():
        pytest.skip(_SHARED_REASON)
    return path


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--live", action="store_true", default=False, help="run tests marked live (real network)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_shared = pytest.mark.skip(reason=_SHARED_REASON)
    skip_live = pytest.mark.skip(reason="needs --live (talks to real services)")
    live = config.getoption("--live")
    for item in items:
        if not HAVE_SHARED and "shared_data" in item.keywords:
            item.add_marker(skip_shared)
        if not live and "live" in item.keywords:
            item.add_marker(skip_live)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line for every skip, grouped by reason, instead of one line per skipped test."""
    skipped = terminalreporter.stats.get("skipped", [])
    if not skipped:
        return
    reasons: dict[str, int] = {}
    for report in skipped:
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reason = reason.removeprefix("Skipped: ")
        reasons[reason] = reasons.get(reason, 0) + 1
    summary = "; ".join(f"{n} {reason}" for reason, n in sorted(reasons.items()))
    terminalreporter.write_line(f"skipped: {summary}")


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
