"""Hostile servers against the HTTP edge: bounded in pages, bytes and time; no key leaves."""

from __future__ import annotations

import gzip
import json
import logging
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest
import requests
import urllib3.exceptions

from citeledger.errors import (
    DeadlineExceeded,
    HostNotFound,
    InvalidResponseError,
    PagingStopped,
    RedirectRefused,
    ResponseTooLarge,
    TLSError,
    TransportError,
)
from citeledger.sources._common import decode_json
from citeledger.sources._paging import PageBounds, PageStop
from citeledger.sources._policy import strip_credentials as _strip_credentials
from citeledger.sources._transport import (
    Request,
    RequestsTransport,
    parse_retry_after,
)
from citeledger.sources.crossref import CrossrefSource
from citeledger.testing._hostile import (
    FaultServer,
    crossref_page,
    drip_body,
    drip_headers,
    fast,
    reply,
)

SECRET = "sk-hostile-0123456789"


# --------------------------------------------------------------------------- paging


def test_endless_cursor_stops_at_the_repeat_and_keeps_the_first_page(
    fault_server: FaultServer,
) -> None:
    fault_server.routes["/works"] = lambda h: reply(h, crossref_page(5, 0, "same", None))
    src = CrossrefSource(base_url=fault_server.url, policy=fast(), min_interval=0)
    started = time.monotonic()
    paged = src.works(query="x", rows=5)
    got = list(paged)
    assert [p.title for p in got] == [f"Work {i}" for i in range(5)]  # nothing fetched lost
    assert isinstance(paged.error, PagingStopped)
    assert paged.error.reason == PageStop.REPEATED_PAGE
    assert not paged.complete
    assert len(fault_server.log) == 2  # the first page and its repeat, no more
    assert time.monotonic() - started < 5


def test_new_items_under_a_repeated_cursor_stop_on_the_cursor(fault_server: FaultServer) -> None:
    calls = {"n": 0}

    def handler(h: BaseHTTPRequestHandler) -> None:
        calls["n"] += 1
        reply(h, crossref_page(5, 5 * calls["n"], "c1", None))

    fault_server.routes["/works"] = handler
    src = CrossrefSource(base_url=fault_server.url, policy=fast(), min_interval=0)
    paged = src.works(query="x", rows=5)
    got = list(paged)
    assert len(got) == 5
    assert isinstance(paged.error, PagingStopped)
    assert paged.error.reason == PageStop.REPEATED_CURSOR
    assert len(fault_server.log) == 2


def test_the_page_bound_stops_an_endless_listing_of_new_items(fault_server: FaultServer) -> None:
    calls = {"n": 0}

    def handler(h: BaseHTTPRequestHandler) -> None:
        calls["n"] += 1
        reply(h, crossref_page(5, 5 * calls["n"], f"c{calls['n']}", None))

    fault_server.routes["/works"] = handler
    src = CrossrefSource(base_url=fault_server.url, policy=fast(), min_interval=0)
    src.page_bounds = PageBounds(max_pages=4)
    paged = src.works(query="x", rows=5)
    got = list(paged)
    assert len(got) == 20  # four pages, all kept
    assert isinstance(paged.error, PagingStopped)
    assert paged.error.reason == PageStop.PAGE_BOUND
    assert "stopped by PagingStopped (page bound)" in paged.describe()
    assert len(fault_server.log) == 4


# --------------------------------------------------------------------------- time and bytes


def test_a_drip_is_cut_off_by_the_attempt_deadline(fault_server: FaultServer) -> None:
    fault_server.routes["/drip"] = drip_body
    transport = RequestsTransport(policy=fast(attempt_deadline=0.5, call_deadline=5.0))
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded) as info:
        transport.send(Request(url=fault_server.url + "/drip"), source="x")
    elapsed = time.monotonic() - started
    assert info.value.attempt == 2  # a slow attempt is retried once, then reported
    assert len(fault_server.log) == 2
    assert elapsed < 2.5  # two attempts of 0.5 s, not 2 x 10 s


def test_the_call_deadline_bounds_every_attempt_together(fault_server: FaultServer) -> None:
    fault_server.routes["/drip"] = drip_body
    policy = fast(max_attempts=10, attempt_deadline=5.0, call_deadline=0.6)
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded, match="call deadline"):
        RequestsTransport(policy=policy).send(Request(url=fault_server.url + "/drip"), source="x")
    assert time.monotonic() - started < 2
    assert len(fault_server.log) == 1  # the call's time is spent: no second attempt


def _watchdogs() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "citeledger-watchdog"]


def _settles_to(baseline: int, within: float = 3.0) -> int:
    """``threading.active_count()`` once it is back to ``baseline`` (or after ``within`` s)."""
    end = time.monotonic() + within
    while threading.active_count() > baseline and time.monotonic() < end:
        time.sleep(0.05)
    return threading.active_count()


def _session(kind: str) -> requests.Session | None:
    if kind == "own":
        return None
    if kind == "requests":
        return requests.Session()
    import requests_cache  # noqa: PLC0415

    return requests_cache.CachedSession(backend="memory")


@pytest.mark.parametrize("kind", ["own", "requests", "cached"])
def test_dripped_headers_are_cut_off_by_the_attempt_deadline(
    fault_server: FaultServer, kind: str
) -> None:
    starts: list[float] = []

    def handler(h: BaseHTTPRequestHandler) -> None:
        starts.append(time.monotonic())
        drip_headers(h, interval=0.2)

    fault_server.routes["/drip"] = handler
    fault_server.routes["/ok"] = lambda h: reply(h, b'{"ok": 1}')
    baseline = threading.active_count()
    session = _session(kind)
    policy = fast(attempt_deadline=0.5, call_deadline=5.0, read_timeout=1.0)
    transport = RequestsTransport(session, policy=policy)
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded, match="attempt deadline") as info:
        transport.send(Request(url=fault_server.url + "/drip"), source="x")
    ended = time.monotonic()
    assert info.value.attempt == 2  # counted: one retry, then reported
    assert len(fault_server.log) == 2
    assert len(starts) == 2
    # each attempt ends near its 0.5 s deadline, not after the ~16 s the headers take
    assert starts[1] - started < 1.0
    assert ended - starts[1] < 1.0
    assert ended - started < 2.0
    assert not _watchdogs()  # always cancelled
    # the same transport (and the caller's session) still works: a fresh connection
    response = transport.send(Request(url=fault_server.url + "/ok"), source="x")
    assert response.body == b'{"ok": 1}'
    assert response.attempt == 1
    transport.close()
    if session is not None:
        session.close()
    assert not _watchdogs()
    assert _settles_to(baseline) == baseline  # no thread leaked


def test_dripped_headers_past_the_call_deadline_stop_the_retries(
    fault_server: FaultServer,
) -> None:
    fault_server.routes["/drip"] = lambda h: drip_headers(h, interval=0.2)
    policy = fast(max_attempts=10, attempt_deadline=5.0, call_deadline=0.6, read_timeout=1.0)
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded, match="call deadline") as info:
        RequestsTransport(policy=policy).send(Request(url=fault_server.url + "/drip"), source="x")
    assert time.monotonic() - started < 1.2
    assert info.value.attempt == 1
    assert len(fault_server.log) == 1  # the call's time is spent: no second attempt
    assert not _watchdogs()


def test_headers_dripped_within_the_deadline_are_read(fault_server: FaultServer) -> None:
    fault_server.routes["/slow"] = lambda h: drip_headers(h, interval=0.002, body=b'{"a": 1}')
    baseline = threading.active_count()
    transport = RequestsTransport(policy=fast(attempt_deadline=3.0, call_deadline=5.0))
    for _ in range(3):
        response = transport.send(Request(url=fault_server.url + "/slow"), source="x")
        assert response.body == b'{"a": 1}'
        assert response.attempt == 1
    transport.close()
    assert not _watchdogs()
    assert _settles_to(baseline) == baseline


def test_a_gzip_bomb_is_refused_at_the_cap(fault_server: FaultServer) -> None:
    bomb = gzip.compress(b"\0" * (16 * 1024 * 1024), compresslevel=9)

    def handler(h: BaseHTTPRequestHandler) -> None:
        reply(h, bomb, headers={"Content-Encoding": "gzip"})

    fault_server.routes["/bomb"] = handler
    transport = RequestsTransport(policy=fast(max_response_bytes=1024 * 1024))
    started = time.monotonic()
    with pytest.raises(ResponseTooLarge) as info:
        transport.send(Request(url=fault_server.url + "/bomb"), source="x")
    assert info.value.attempt == 1  # never retried
    assert len(fault_server.log) == 1
    assert time.monotonic() - started < 3


def test_gzip_bodies_within_the_cap_arrive_whole(fault_server: FaultServer) -> None:
    body = json.dumps({"n": list(range(5000))}).encode()

    def handler(h: BaseHTTPRequestHandler) -> None:
        reply(h, gzip.compress(body), headers={"Content-Encoding": "gzip"})

    fault_server.routes["/ok"] = handler
    response = RequestsTransport(policy=fast()).send(
        Request(url=fault_server.url + "/ok"), source="x"
    )
    assert response.body == body


def test_a_declared_length_past_the_cap_is_refused_before_reading(
    fault_server: FaultServer,
) -> None:
    fault_server.routes["/big"] = lambda h: reply(h, b"x" * 5000)
    with pytest.raises(ResponseTooLarge):
        RequestsTransport(policy=fast(max_response_bytes=1000)).send(
            Request(url=fault_server.url + "/big"), source="x"
        )


def test_huge_headers_are_a_typed_transport_error(fault_server: FaultServer) -> None:
    def handler(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        for i in range(200):
            h.send_header(f"X-Junk-{i}", "y" * 1000)
        h.end_headers()

    fault_server.routes["/headers"] = handler
    with pytest.raises(TransportError) as info:
        RequestsTransport(policy=fast(max_attempts=1)).send(
            Request(url=fault_server.url + "/headers"), source="x"
        )
    assert info.value.attempt == 1


# --------------------------------------------------------------------------- redirects and keys


@pytest.mark.parametrize(
    "location",
    [
        "http://169.254.169.254/latest/meta-data/",
        "http://example.org/steal",
        "file:///etc/passwd",
        "ftp://127.0.0.1/x",
    ],
)
def test_redirects_off_the_host_are_refused_and_carry_nothing(
    fault_server: FaultServer, location: str
) -> None:
    fault_server.routes["/w"] = lambda h: reply(h, b"", status=302, headers={"Location": location})
    request = Request(
        url=fault_server.url + "/w",
        params={"api_key": SECRET},
        headers={"x-api-key": SECRET, "Crossref-Plus-API-Token": f"Bearer {SECRET}"},
    )
    with pytest.raises(RedirectRefused) as info:
        RequestsTransport(policy=fast()).send(request, source="x")
    assert info.value.attempt == 1  # never retried
    assert len(fault_server.log) == 1
    assert SECRET not in str(info.value)


def test_redirects_on_the_host_are_followed_with_a_bound(fault_server: FaultServer) -> None:
    fault_server.routes["/a"] = lambda h: reply(h, b"", status=301, headers={"Location": "/b"})
    fault_server.routes["/b"] = lambda h: reply(h, b'{"ok": 1}')
    fault_server.routes["/loop"] = lambda h: reply(
        h, b"", status=302, headers={"Location": "/loop"}
    )
    transport = RequestsTransport(policy=fast(max_redirects=3))
    assert transport.send(Request(url=fault_server.url + "/a"), source="x").body == b'{"ok": 1}'
    with pytest.raises(RedirectRefused, match="more than 3 redirects"):
        transport.send(Request(url=fault_server.url + "/loop"), source="x")


def test_an_allow_listed_private_host_is_still_refused(fault_server: FaultServer) -> None:
    fault_server.routes["/w"] = lambda h: reply(
        h, b"", status=302, headers={"Location": "http://169.254.169.254/x"}
    )
    policy = fast(redirect_hosts={"169.254.169.254"})
    with pytest.raises(RedirectRefused, match="private"):
        RequestsTransport(policy=policy).send(Request(url=fault_server.url + "/w"), source="x")


def test_a_cross_host_hop_strips_every_credential_and_the_contact() -> None:
    request = Request(
        url="https://api.crossref.org/works",
        headers={"x-api-key": SECRET, "X-Custom-Token": SECRET},
        secret_headers={"X-Custom-Token"},
        secret_params={"sig"},
    )
    headers = {
        "User-Agent": "citeledger/1 (+mailto:me@example.org)",
        "x-api-key": SECRET,
        "X-Custom-Token": SECRET,
        "Crossref-Plus-API-Token": "Bearer t",
        "Accept": "application/json",
    }
    url, kept = _strip_credentials(
        f"https://mirror.example.org/w?api_key={SECRET}&sig={SECRET}&mailto=me%40example.org&q=1",
        headers,
        request,
    )
    assert url == "https://mirror.example.org/w?q=1"
    assert kept == {"User-Agent": "citeledger/1", "Accept": "application/json"}


def test_secrets_echoed_in_a_200_page_never_reach_the_error(fault_server: FaultServer) -> None:
    page = f"<html><head><title>Hello {SECRET}</title></head></html>".encode()
    fault_server.routes["/w"] = lambda h: reply(h, page, content_type="text/html")
    request = Request(url=fault_server.url + "/w", params={"token": SECRET})
    response = RequestsTransport(policy=fast()).send(request, source="opencitations")
    with pytest.raises(InvalidResponseError) as info:
        decode_json(response, source="opencitations")
    import pickle  # noqa: PLC0415

    for text in (str(info.value), repr(info.value), info.value.detail, repr(response)):
        assert SECRET not in text
    assert SECRET.encode() not in pickle.dumps(info.value)


def test_custom_secret_params_never_reach_urllib3_debug_lines(
    fault_server: FaultServer, caplog: pytest.LogCaptureFixture
) -> None:
    fault_server.routes["/w"] = lambda h: reply(h, b"{}")
    caplog.set_level(logging.DEBUG, logger="urllib3")
    request = Request(url=fault_server.url + "/w", params={"sig": SECRET}, secret_params={"sig"})
    RequestsTransport(policy=fast()).send(request, source="x")
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("urllib3")]
    assert any("/w?sig=" in line for line in lines)
    assert not any(SECRET in line for line in lines)


# --------------------------------------------------------------------------- honest failures


class _RaisingSession(requests.Session):
    def __init__(self, exc: Exception) -> None:
        super().__init__()
        self.exc = exc
        self.calls = 0

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        self.calls += 1
        raise self.exc


def test_a_host_that_does_not_resolve_is_named_and_not_retried() -> None:
    reason = urllib3.exceptions.NameResolutionError(
        "api.example.invalid",
        None,  # type: ignore[arg-type]
        socket.gaierror(-2, "Name or service not known"),
    )
    exc = requests.exceptions.ConnectionError(
        urllib3.exceptions.MaxRetryError(None, "/w", reason=reason)  # type: ignore[arg-type]
    )
    session = _RaisingSession(exc)
    transport = RequestsTransport(session, policy=fast(max_attempts=4))
    with pytest.raises(HostNotFound, match="host not found") as info:
        transport.send(Request(url="https://api.example.invalid/w"), source="x")
    assert session.calls == 1
    assert info.value.attempt == 1


def test_tls_verification_failure_is_named_and_not_retried() -> None:
    inner = ssl_error = __import__("ssl").SSLCertVerificationError(1, "certificate verify failed")
    exc = requests.exceptions.SSLError(urllib3.exceptions.SSLError(ssl_error))
    exc.__context__ = inner
    session = _RaisingSession(exc)
    with pytest.raises(TLSError, match="verification"):
        RequestsTransport(session, policy=fast(max_attempts=4)).send(
            Request(url="https://h.example/w"), source="x"
        )
    assert session.calls == 1


@pytest.mark.parametrize(
    "value", ["\u00b2", "\u0663", "9" * 5000, "Thu, 01 Jan 99999 00:00:00 GMT"]
)
def test_retry_after_never_crashes(value: str) -> None:
    result = parse_retry_after(value)
    assert result is None or result >= 0
