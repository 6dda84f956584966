"""The HTTP transport over real sockets: retries, Retry-After, budgets, pacing, redaction, errors."""

from __future__ import annotations

import datetime as dt
import email.utils
import json
import logging
import pickle
import random
import socket
import threading
import time
import traceback
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from pytest_httpserver import HTTPServer
from werkzeug import Request as WRequest
from werkzeug import Response as WResponse

import citeledger as cl
from citeledger.errors import (
    BadRequestError,
    HTTPStatusError,
    InvalidResponseError,
    NotFoundError,
    QuotaExceededError,
    RateLimitError,
    ServerError,
    SourceError,
    SourceTimeout,
    TransportError,
)
from citeledger.sources._common import decode_json, decode_xml
from citeledger.sources._transport import (
    REDACTED,
    Request,
    RequestsTransport,
    Response,
    RetryPolicy,
    Transport,
    default_user_agent,
    error_for_status,
    parse_retry_after,
    raise_for_status,
    redact_url,
    scrub,
)
from tests.conftest import FakeTime

SECRET = "sk-live-0123456789abcdef"


@pytest.fixture
def fake() -> FakeTime:
    # These tests read absolute times; the clock starts at 1000.0.
    return FakeTime(1000.0)


def transport(fake: FakeTime, **policy: Any) -> RequestsTransport:
    options: dict[str, Any] = {"backoff_base": 0.5, "jitter": False, "max_attempts": 4}
    options.update(policy)
    return RequestsTransport(
        policy=RetryPolicy(**options),
        sleep=fake.sleep,
        clock=fake.clock,
        user_agent="citeledger-tests/1",
    )


# --------------------------------------------------------------------------- values


def test_request_repr_and_redacted_url_hide_api_keys() -> None:
    r = Request(
        url="https://api.openalex.org/works",
        params={"filter": "cites:W1", "api_key": SECRET, "page": None},
        headers={"x-api-key": SECRET, "Accept": "application/json"},
    )
    assert SECRET not in repr(r)
    assert SECRET not in r.redacted_url()
    assert r.redacted_url() == "https://api.openalex.org/works?filter=cites%3AW1&api_key=REDACTED"
    assert "application/json" in repr(r)  # ordinary headers stay visible
    assert r.secret_values() == (SECRET, SECRET)
    assert SECRET in r.full_url  # the real URL still carries it (it is what gets sent)
    assert ("page", "None") not in r.params  # None values are dropped


def test_declared_secret_params_and_headers_are_redacted_case_insensitively() -> None:
    r = Request(
        url="https://h/x?sig=abc",
        params=[("Token2", SECRET)],
        headers=[("X-Secret", SECRET)],
        secret_params={"token2", "sig"},
        secret_headers={"x-secret"},
    )
    assert r.redacted_url() == "https://h/x?sig=REDACTED&Token2=REDACTED"
    assert SECRET not in repr(r)


def test_redact_url_keeps_everything_else_byte_for_byte() -> None:
    url = "https://api.openalex.org/works?filter=doi%3A10.1%2Fa&API_KEY=k1&mailto=a%40b.org#frag"
    assert redact_url(url) == (
        "https://api.openalex.org/works?filter=doi%3A10.1%2Fa&API_KEY=REDACTED&mailto=a%40b.org#frag"
    )
    assert redact_url("https://x/y") == "https://x/y"


def test_scrub_removes_raw_and_encoded_forms() -> None:
    assert scrub("key a/b+c and a%2Fb%2Bc", ["a/b+c"]) == "key REDACTED and REDACTED"
    assert scrub("nothing", ["", "zzz"]) == "nothing"


def test_response_headers_are_case_insensitive() -> None:
    r = Response(
        status=200, headers={"Retry-After": "3", "Content-Type": "application/json; charset=utf-8"}
    )
    assert r.header("retry-after") == "3"
    assert r.header("RETRY-AFTER") == "3"
    assert r.content_type == "application/json"
    assert r.header("missing") is None
    assert "bytes>" in repr(Response(status=200, body=b"x" * 10))


def test_retry_policy_backoff_is_exponential_capped_and_jittered() -> None:
    policy = RetryPolicy(backoff_base=0.5, backoff_max=3.0, jitter=False)
    assert [policy.backoff(n) for n in range(1, 6)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    jittered = RetryPolicy(backoff_base=1.0, backoff_max=30.0, jitter=True)
    rng = random.Random(7)
    for attempt in range(1, 6):
        full = min(30.0, 2.0 ** (attempt - 1))
        for _ in range(50):
            delay = jittered.backoff(attempt, rng)
            assert full / 2 <= delay <= full
    with pytest.raises(ValueError):
        RetryPolicy(max_attempts=0)


def test_parse_retry_after_both_forms() -> None:
    now = dt.datetime(2026, 3, 1, 12, 0, 0, tzinfo=dt.UTC)
    assert parse_retry_after("120", now=now) == 120.0
    date = email.utils.format_datetime(now + dt.timedelta(seconds=45), usegmt=True)
    assert parse_retry_after(date, now=now) == 45.0
    past = email.utils.format_datetime(now - dt.timedelta(seconds=45), usegmt=True)
    assert parse_retry_after(past, now=now) == 0.0
    assert parse_retry_after("later", now=now) is None
    assert parse_retry_after(None) is None


def test_default_user_agent_names_citeledger_version_and_contact() -> None:
    ua = default_user_agent("me@example.org")
    assert ua == f"citeledger/{cl.__version__} (+mailto:me@example.org)"
    assert default_user_agent() == f"citeledger/{cl.__version__}"


# --------------------------------------------------------------------------- error mapping


@pytest.mark.parametrize(
    ("status", "body", "kind", "detail"),
    [
        (404, b"Resource not found.", NotFoundError, "Resource not found."),
        (
            404,
            b"<!doctype html><html><head><title>404 Not Found</title></head><body>x</body></html>",
            NotFoundError,
            "404 Not Found",
        ),
        (
            400,
            (
                b'{"status":"failed","message-type":"validation-failure","message":[{"type":'
                b'"parameter-not-allowed","value":"query.*","message":"This route does not support field query parameters"}]}'
            ),
            BadRequestError,
            "parameter-not-allowed: This route does not support field query parameters",
        ),
        (
            400,
            b'{"error":"Unrecognized or unsupported fields: [unknown]"}\n',
            BadRequestError,
            "Unrecognized",
        ),
        (403, b'{"message":"Forbidden"}', QuotaExceededError, "Forbidden"),
        (429, b'{"message":"Daily quota exceeded"}', QuotaExceededError, "Daily quota exceeded"),
        (
            429,
            b'{"message":"Too Many Requests. Please wait and try again or apply for a key for higher rate limits.","code":"429"}',
            RateLimitError,
            "Too Many Requests",
        ),
        (
            504,
            b'{"message": "Endpoint request timed out"}',
            ServerError,
            "Endpoint request timed out",
        ),
        (418, b"", HTTPStatusError, "empty body"),
    ],
)
def test_error_for_status_maps_every_recorded_shape(
    status: int, body: bytes, kind: type[HTTPStatusError], detail: str
) -> None:
    response = Response(status=status, body=body, url="https://x/y?api_key=REDACTED", attempt=2)
    error = error_for_status(response, source="s")
    assert type(error) is kind
    assert error is not None
    assert detail in error.detail
    assert (error.source, error.status, error.attempt, error.url) == (
        "s",
        status,
        2,
        "https://x/y?api_key=REDACTED",
    )
    with pytest.raises(kind):
        raise_for_status(response, source="s")
    clone = pickle.loads(pickle.dumps(error))
    assert type(clone) is kind
    assert (clone.source, clone.url, clone.attempt, clone.status, clone.detail) == (
        error.source,
        error.url,
        error.attempt,
        error.status,
        error.detail,
    )
    assert str(clone) == str(error)


def test_error_for_status_success_is_none_and_detail_is_scrubbed() -> None:
    assert error_for_status(Response(status=200), source="s") is None
    err = error_for_status(
        Response(status=500, body=f"bad key {SECRET}".encode()), source="s", secrets=[SECRET]
    )
    assert err is not None
    assert SECRET not in err.detail
    assert REDACTED in err.detail


def test_long_error_details_are_shortened() -> None:
    err = error_for_status(Response(status=500, body=b"x" * 5000), source="s")
    assert err is not None
    assert len(err.detail) == 200
    assert err.detail.endswith("...")


# --------------------------------------------------------------------------- over real sockets


def test_success_sends_user_agent_timeouts_and_params(
    httpserver: HTTPServer, fake: FakeTime
) -> None:
    httpserver.expect_request(
        "/works", query_string={"rows": "2", "mailto": "a@b.org"}
    ).respond_with_json({"ok": True}, headers={"X-Rate-Limit-Limit": "50"})
    t = RequestsTransport(
        user_agent=default_user_agent("a@b.org"), sleep=fake.sleep, clock=fake.clock
    )
    resp = t.send(
        Request(url=httpserver.url_for("/works"), params={"rows": 2, "mailto": "a@b.org"}),
        source="crossref",
    )
    assert resp.status == 200
    assert resp.attempt == 1
    assert json.loads(resp.body) == {"ok": True}
    assert resp.header("x-rate-limit-limit") == "50"
    assert resp.url.endswith("/works?rows=2&mailto=a%40b.org")
    ((req, _),) = httpserver.log
    assert req.headers["User-Agent"] == f"citeledger/{cl.__version__} (+mailto:a@b.org)"
    assert fake.sleeps == []
    assert isinstance(t, Transport)


def test_json_body_is_posted(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/batch", method="POST", json={"ids": ["a", "b"]}).respond_with_json(
        [None, {}]
    )
    resp = transport(fake).send(
        Request(method="POST", url=httpserver.url_for("/batch"), json_body='{"ids": ["a", "b"]}'),
        source="s2",
    )
    assert json.loads(resp.body) == [None, {}]
    ((req, _),) = httpserver.log
    assert req.headers["Content-Type"] == "application/json"


def test_503_then_success_retries_once_after_backoff(
    httpserver: HTTPServer, fake: FakeTime
) -> None:
    httpserver.expect_oneshot_request("/w").respond_with_data("busy", status=503)
    httpserver.expect_request("/w").respond_with_json({"n": 1})
    resp = transport(fake).send(Request(url=httpserver.url_for("/w")), source="openalex")
    assert resp.status == 200
    assert resp.attempt == 2
    assert fake.sleeps == [0.5]
    assert resp.elapsed == pytest.approx(0.5)
    assert len(httpserver.log) == 2


def test_429_with_retry_after_seconds_is_honoured(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_oneshot_request("/w").respond_with_data(
        "slow down", status=429, headers={"Retry-After": "7"}
    )
    httpserver.expect_request("/w").respond_with_data("ok")
    resp = transport(fake).send(Request(url=httpserver.url_for("/w")), source="openalex")
    assert (resp.status, resp.attempt, resp.body) == (200, 2, b"ok")
    assert fake.sleeps == [7.0]


def test_429_with_retry_after_http_date_is_honoured(httpserver: HTTPServer, fake: FakeTime) -> None:
    now = dt.datetime(2026, 3, 1, 12, 0, 0, tzinfo=dt.UTC)
    date = email.utils.format_datetime(now + dt.timedelta(seconds=12), usegmt=True)
    httpserver.expect_oneshot_request("/w").respond_with_data(
        "", status=429, headers={"Retry-After": date}
    )
    httpserver.expect_request("/w").respond_with_data("ok")
    t = RequestsTransport(
        policy=RetryPolicy(jitter=False), sleep=fake.sleep, clock=fake.clock, now=lambda: now
    )
    resp = t.send(Request(url=httpserver.url_for("/w")), source="openalex")
    assert resp.attempt == 2
    assert fake.sleeps == [12.0]


def test_429_without_retry_after_backs_off_then_raises_rate_limit(
    httpserver: HTTPServer, fake: FakeTime
) -> None:
    body = b'{"message":"Too Many Requests. Please wait and try again.","code":"429"}'
    httpserver.expect_request("/p").respond_with_data(
        body, status=429, content_type="application/json"
    )
    with pytest.raises(RateLimitError) as info:
        transport(fake, max_attempts=3).send(
            Request(url=httpserver.url_for("/p")), source="semanticscholar"
        )
    err = info.value
    assert (err.attempt, err.status, err.source) == (3, 429, "semanticscholar")
    assert "Too Many Requests" in err.detail
    assert fake.sleeps == [0.5, 1.0]
    assert len(httpserver.log) == 3


def test_retry_after_beyond_the_wait_budget_stops_at_once(
    httpserver: HTTPServer, fake: FakeTime
) -> None:
    httpserver.expect_request("/w").respond_with_data(
        "", status=429, headers={"Retry-After": "3600"}
    )
    with pytest.raises(RateLimitError) as info:
        transport(fake, max_total_wait=60).send(
            Request(url=httpserver.url_for("/w")), source="openalex"
        )
    assert info.value.attempt == 1
    assert "Retry-After 3600s exceeds" in info.value.detail
    assert fake.sleeps == []
    assert len(httpserver.log) == 1


def test_total_wait_is_capped(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/w").respond_with_data("down", status=503)
    with pytest.raises(ServerError) as info:
        transport(fake, max_attempts=10, backoff_base=0.4, max_total_wait=1.0).send(
            Request(url=httpserver.url_for("/w")), source="crossref"
        )
    assert fake.sleeps == [0.4, 0.6]  # the second wait is cut to what is left of the budget
    assert sum(fake.sleeps) <= 1.0
    assert info.value.attempt == 3
    assert len(httpserver.log) == 3


@pytest.mark.parametrize(
    ("status", "body", "kind"),
    [
        (403, b'{"message":"Forbidden"}', QuotaExceededError),
        (
            429,
            b'{"error":"You have exceeded your daily limit of 100000 requests"}',
            QuotaExceededError,
        ),
        (404, b"Resource not found.", NotFoundError),
        (400, b'{"error":"bad"}', BadRequestError),
    ],
)
def test_non_retryable_statuses_are_not_retried(
    httpserver: HTTPServer, fake: FakeTime, status: int, body: bytes, kind: type[SourceError]
) -> None:
    httpserver.expect_request("/w").respond_with_data(body, status=status)
    with pytest.raises(kind) as info:
        transport(fake).send(Request(url=httpserver.url_for("/w")), source="x")
    assert info.value.attempt == 1
    assert len(httpserver.log) == 1
    assert fake.sleeps == []


@pytest.mark.slow
def test_response_slower_than_read_timeout(httpserver: HTTPServer, fake: FakeTime) -> None:
    done: list[int] = []

    def slow(_: WRequest) -> WResponse:
        time.sleep(0.6)
        done.append(1)
        return WResponse("late")

    httpserver.expect_request("/slow").respond_with_handler(slow)
    started = time.monotonic()
    with pytest.raises(SourceTimeout) as info:
        transport(fake, max_attempts=2, read_timeout=0.15, connect_timeout=0.5).send(
            Request(url=httpserver.url_for("/slow")), source="arxiv"
        )
    took = time.monotonic() - started
    assert info.value.attempt == 2
    assert info.value.status is None
    assert "ReadTimeout" in info.value.detail
    assert isinstance(info.value, TimeoutError)
    assert fake.sleeps == [0.5]
    # Two attempts bounded by the read timeout (the single-threaded server answers the first
    # request late, delaying the second one's handling, hence the slack).
    assert took < 2.5
    # Let the server finish the abandoned requests so they do not leak into the next test.
    deadline = time.monotonic() + 3
    while len(done) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(done) == 2


class RawServer:
    """A TCP server that misbehaves on purpose, one behaviour per connection."""

    def __init__(self, behaviour: str) -> None:
        self.behaviour = behaviour
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/w?api_key={SECRET}"

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            self.connections += 1
            try:
                conn.settimeout(1.0)
                conn.recv(65536)
                if self.behaviour == "reset":
                    # SO_LINGER 0: close() sends RST instead of FIN ("connection reset by peer").
                    conn.setsockopt(
                        socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00"
                    )
                elif self.behaviour == "short":
                    conn.sendall(
                        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                        b'{"items": ['
                    )
            except OSError:
                pass
            finally:
                conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.sock.close()


@pytest.fixture
def raw_server(request: pytest.FixtureRequest) -> Iterator[RawServer]:
    server = RawServer(request.param)
    yield server
    server.close()


@pytest.mark.parametrize("raw_server", ["reset"], indirect=True)
def test_connection_reset_is_retried_then_transport_error(
    raw_server: RawServer, fake: FakeTime
) -> None:
    with pytest.raises(TransportError) as info:
        transport(fake, max_attempts=3).send(
            Request(url=raw_server.url, secret_params={"api_key"}), source="crossref"
        )
    err = info.value
    assert not isinstance(err, SourceTimeout)
    assert err.attempt == 3
    assert raw_server.connections == 3
    assert fake.sleeps == [0.5, 1.0]
    assert SECRET not in str(err)
    assert SECRET not in err.detail
    assert "api_key=REDACTED" in err.url


@pytest.mark.parametrize("raw_server", ["short"], indirect=True)
def test_body_cut_short_by_the_server_is_a_retried_transport_error(
    raw_server: RawServer, fake: FakeTime
) -> None:
    with pytest.raises(TransportError) as info:
        transport(fake, max_attempts=2).send(Request(url=raw_server.url), source="crossref")
    assert info.value.attempt == 2
    assert raw_server.connections == 2
    assert SECRET not in str(info.value)


@pytest.mark.slow
def test_connection_refused_is_bounded(fake: FakeTime) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again below: nothing listens there
    started = time.monotonic()
    with pytest.raises(TransportError) as info:
        transport(fake, max_attempts=2).send(
            Request(url=f"http://127.0.0.1:{port}/w", params={"api_key": SECRET}), source="openalex"
        )
    assert info.value.attempt == 2
    assert time.monotonic() - started < 5
    assert SECRET not in str(info.value)
    assert SECRET not in "".join(traceback.format_exception(info.value))


def test_unusable_url_is_not_retried(fake: FakeTime) -> None:
    with pytest.raises(TransportError) as info:
        transport(fake).send(Request(url="notaurl"), source="x")
    assert info.value.attempt == 1
    assert fake.sleeps == []


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"status":"ok","message":{"items":[{"DOI":"10.1', "truncated or invalid JSON"),
        (
            b"<!DOCTYPE html><html><head><title>Service Unavailable</title></head></html>",
            "HTML page",
        ),
        (b"", "empty body"),
    ],
)
def test_unusable_200_bodies_become_invalid_response(
    httpserver: HTTPServer, fake: FakeTime, body: bytes, message: str
) -> None:
    httpserver.expect_request("/w").respond_with_data(
        body, status=200, content_type="application/json"
    )
    resp = transport(fake).send(Request(url=httpserver.url_for("/w")), source="crossref")
    with pytest.raises(InvalidResponseError) as info:
        decode_json(resp, source="crossref")
    assert message in info.value.message
    assert (info.value.status, info.value.attempt, info.value.source) == (200, 1, "crossref")
    assert info.value.url == resp.url
    assert len(httpserver.log) == 1  # not retried: a bad body is not transient


def test_invalid_xml_200_becomes_invalid_response(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/api/query").respond_with_data(
        b"<feed><entry>", content_type="application/atom+xml"
    )
    resp = transport(fake).send(Request(url=httpserver.url_for("/api/query")), source="arxiv")
    with pytest.raises(InvalidResponseError) as info:
        decode_xml(resp, source="arxiv")
    assert info.value.message == "invalid XML"
    assert "not well-formed" in info.value.detail


def test_pacing_waits_min_interval_between_requests(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/q").respond_with_data("ok")
    t = RequestsTransport(min_interval=3.0, sleep=fake.sleep, clock=fake.clock)
    for _ in range(3):
        t.send(Request(url=httpserver.url_for("/q")), source="arxiv")
    assert fake.sleeps == [3.0, 3.0]
    fake.now += 10  # a request long after the previous one does not wait
    t.send(Request(url=httpserver.url_for("/q")), source="arxiv")
    assert fake.sleeps == [3.0, 3.0]


def test_pacing_counts_real_time_already_spent(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/q").respond_with_data("ok")
    t = RequestsTransport(min_interval=3.0, sleep=fake.sleep, clock=fake.clock)
    t.send(Request(url=httpserver.url_for("/q")), source="arxiv")
    fake.now += 1.25
    t.send(Request(url=httpserver.url_for("/q")), source="arxiv")
    assert fake.sleeps == [1.75]


def test_requests_cache_session_just_works(httpserver: HTTPServer, fake: FakeTime) -> None:
    requests_cache = pytest.importorskip("requests_cache")
    httpserver.expect_request("/works/10.1/x").respond_with_json({"n": 1})
    session = requests_cache.CachedSession(backend="memory")
    t = RequestsTransport(session, min_interval=3.0, sleep=fake.sleep, clock=fake.clock)
    bodies = [
        t.send(Request(url=httpserver.url_for("/works/10.1/x")), source="crossref").body
        for _ in range(3)
    ]
    assert bodies == [b'{"n":1}\n'] * 3 or all(json.loads(b) == {"n": 1} for b in bodies)
    assert len(httpserver.log) == 1  # the second and third came from the cache
    # The second request still paced (it could not know it would be a cache hit); the third did
    # not wait, because a cached answer never reached the source.
    assert fake.sleeps == [3.0]
    session.close()


def test_api_key_never_in_repr_log_or_exception(
    httpserver: HTTPServer, fake: FakeTime, caplog: pytest.LogCaptureFixture
) -> None:
    httpserver.expect_request("/works").respond_with_data(
        f"internal error for key {SECRET}", status=500
    )
    caplog.set_level(logging.DEBUG)  # urllib3 logs every request line at DEBUG
    t = transport(fake, max_attempts=2)
    request = Request(
        url=httpserver.url_for("/works"), params={"api_key": SECRET, "filter": "cites:W1"}
    )
    with pytest.raises(ServerError) as info:
        t.send(request, source="openalex")
    err = info.value
    texts = [
        repr(request),
        repr(t),
        str(err),
        repr(err),
        err.url,
        err.detail,
        "".join(traceback.format_exception(err)),
        pickle.dumps(err).decode("latin-1"),
        # Every client-side record (citeledger and urllib3); the test server's own access log
        # ("werkzeug") legitimately shows what it received.
        *(r.getMessage() for r in caplog.records if r.name != "werkzeug"),
    ]
    for text in texts:
        assert SECRET not in text
    assert any("attempt 1 of" in r.getMessage() for r in caplog.records)  # retries are logged
    assert any(
        r.name.startswith("urllib3") and "api_key=REDACTED" in r.getMessage()
        for r in caplog.records
    )
    assert "api_key=REDACTED" in err.url
    assert SECRET in httpserver.log[0][0].url  # ...while the server did receive the key


def test_errors_carry_redacted_url_and_pickle(httpserver: HTTPServer, fake: FakeTime) -> None:
    httpserver.expect_request("/works").respond_with_data("Resource not found.", status=404)
    with pytest.raises(NotFoundError) as info:
        transport(fake).send(
            Request(url=httpserver.url_for("/works"), params={"api_key": SECRET}), source="openalex"
        )
    clone = pickle.loads(pickle.dumps(info.value))
    assert isinstance(clone, NotFoundError)
    assert clone.url == info.value.url
    assert clone.url.endswith("/works?api_key=REDACTED")
    assert clone.detail == "Resource not found."


def test_owned_session_is_closed(fake: FakeTime) -> None:
    with RequestsTransport(sleep=fake.sleep, clock=fake.clock) as t:
        assert isinstance(t.session, requests.Session)
    shared = requests.Session()
    RequestsTransport(shared).close()
    assert shared.adapters  # a session passed in is left open for its owner
    shared.close()
