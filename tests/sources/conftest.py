"""Tests of citeledger.sources (adapters, transport, registry, testing helpers); shared fixtures and data paths live in tests/conftest.py."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

import pytest

from citeledger.errors import InvalidResponseError
from citeledger.sources import (
    CitationSource,
    CountSource,
    EventSource,
    PaperSource,
    ReferenceSource,
    SearchSource,
)
from tests.conftest import FIXTURES, SOURCES

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from pytest_httpserver import HTTPServer

#: The fixed clock of the Crossref and OpenAlex adapter tests.
NOW = dt.datetime(2026, 8, 5, 2, 28, 24, tzinfo=dt.UTC)


def recording_dirs(name: str) -> tuple[Path, Path]:
    """Where the source ``name``'s recordings are: the shared recordings, the committed fixtures."""
    return SOURCES / name, FIXTURES / name


#: The capability protocols an adapter is checked against: each present or absent, no stub.
PROTOCOLS: tuple[type, ...] = (
    PaperSource,
    ReferenceSource,
    CitationSource,
    EventSource,
    CountSource,
    SearchSource,
)


def assert_protocols(src: object, *present: type) -> None:
    """``src`` satisfies the ``present`` protocols and none of the other :data:`PROTOCOLS`."""
    for protocol in PROTOCOLS:
        assert isinstance(src, protocol) is (protocol in present), protocol


def unusable_200(
    httpserver: HTTPServer, path: str, body: bytes, content_type: str, call: Callable[[], object]
) -> InvalidResponseError:
    """Serve ``body`` with status 200 at ``path``; ``call()`` must fail on it at the first try.

    Returns the :class:`~citeledger.errors.InvalidResponseError`, for the caller's assertions.
    """
    httpserver.expect_request(path).respond_with_data(body, content_type=content_type)
    with pytest.raises(InvalidResponseError) as info:
        call()
    assert (info.value.status, info.value.attempt) == (200, 1)
    return info.value
