"""Tests of citeledger.sources (adapters, transport, registry, testing helpers); shared fixtures and data paths live in tests/conftest.py."""

from __future__ import annotations

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

if TYPE_CHECKING:
    from collections.abc import Callable

    from pytest_httpserver import HTTPServer

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
