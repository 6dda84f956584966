"""The HTTP edge of every source: requests, responses, retries, pacing and error mapping.

Adapters build a :class:`Request` (pure), hand it to a :class:`Transport` and parse the
:class:`Response` body (pure). :class:`RequestsTransport` is the default transport: it wraps a
:class:`requests.Session` the caller may pass in (a ``requests_cache.CachedSession`` works
unchanged) and adds what users of pyalex, habanero, arxiv.py and semanticscholar ask for:

* a connect and a read timeout on every request;
* bounded retries with exponential backoff and jitter on connection errors, timeouts and the
  statuses 429, 500, 502, 503 and 504; ``Retry-After`` honoured in both its seconds and HTTP-date
  forms, all waiting capped by :attr:`RetryPolicy.max_total_wait`;
* quotas that are used up (403, or a quota message) reported at once, never retried;
* pacing: at least ``min_interval`` seconds between two requests of one transport;
* API keys (``secret_params`` / ``secret_headers``) never shown in a repr, a log line or an
  exception message, whatever the status;
* a total deadline per attempt and per call (a server dripping one byte a second, in its body
  or in its status line and headers, cannot hold a call), and a cap on the response size
  counted after decompression (no gzip bomb);
* redirects followed only within the request's own host (or the hosts of
  :attr:`RetryPolicy.redirect_hosts`, credentials stripped), never to a non-HTTP scheme or a
  private, loopback or link-local address;
* connection failures named by cause (host not found, refused, TLS, timeout); what cannot
  succeed by retrying (name resolution, TLS verification, a refused redirect, an oversized
  body) is never retried.

Every bound, its default and how to change it: ``docs/explanation/reliability.md``.

Every failure becomes a :class:`~citeledger.errors.SourceError` subclass carrying the source's
name, the redacted URL, the attempt number, the status and a short detail.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import collections
import contextlib
import datetime as dt
import email.utils
import ipaddress
import json
import logging
import random
import re
import socket
import ssl
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, Self, runtime_checkable
from urllib.parse import parse_qsl, unquote_plus, urlencode, urljoin, urlsplit, urlunsplit

import attrs
import requests
import requests.adapters
import urllib3.exceptions
from attrs import field, frozen

from citeledger.errors import (
    BadRequestError,
    ConnectionRefused,
    DeadlineExceeded,
    HostNotFound,
    HTTPStatusError,
    NotFoundError,
    QuotaExceededError,
    RateLimitError,
    RedirectRefused,
    ResponseTooLarge,
    ServerError,
    SourceError,
    SourceTimeout,
    TLSError,
    TransportError,
)

__all__ = [
    "DEFAULT_SECRET_HEADERS",
    "DEFAULT_SECRET_PARAMS",
    "MAX_RESPONSE_BYTES",
    "REDACTED",
    "Request",
    "RequestsTransport",
    "Response",
    "RetryPolicy",
    "Transport",
    "default_user_agent",
    "error_for_status",
    "parse_retry_after",
    "raise_for_status",
    "redact_url",
    "scrub",
]

_log = logging.getLogger("citeledger.sources")

#: What a secret value is replaced with.
REDACTED = "REDACTED"
#: Query parameters always treated as secret, whatever a request declares.
DEFAULT_SECRET_PARAMS = frozenset({"api_key", "apikey", "api-key", "access_token", "token"})
#: Headers always treated as secret (compared case-insensitively).
DEFAULT_SECRET_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "cookie", "x-api-key", "crossref-plus-api-token"}
)

#: Longest detail (what the source said) kept in an error.
_DETAIL_MAX = 200

#: Default cap on one response body, after decompression (64 MiB: a Crossref page of 1,000
#: works with their references is a few MB).
MAX_RESPONSE_BYTES = 64 * 1024 * 1024

#: Bytes asked of the socket per read while streaming a body.
_CHUNK = 64 * 1024


# --------------------------------------------------------------------------- values


def _pairs(
    value: Mapping[str, object] | Iterable[tuple[str, object]] | None,
) -> tuple[tuple[str, str], ...]:
    """Accept a mapping or pairs; drop None values; stringify the rest."""
    if value is None:
        return ()
    items = value.items() if isinstance(value, Mapping) else value
    return tuple((str(k), str(v)) for k, v in items if v is not None)


def _names(value: Iterable[str] | str | None) -> frozenset[str]:
    if value is None:
        return frozenset()
    if isinstance(value, str):
        return frozenset({value})
    return frozenset(value)


def redact_url(url: str, secret_params: Iterable[str] = ()) -> str:
    """Return ``url`` with the values of secret query parameters replaced by ``REDACTED``.

    Parameter names in :data:`DEFAULT_SECRET_PARAMS` are always redacted; names compare
    case-insensitively. Everything else is kept byte for byte.

    >>> redact_url("https://api.openalex.org/works?api_key=s3cr3t&mailto=a%40b.org")
    'https://api.openalex.org/works?api_key=REDACTED&mailto=a%40b.org'
    >>> redact_url("https://h/x?k=1&sig=abc#f", {"sig"})
    'https://h/x?k=1&sig=REDACTED#f'
    """
    secret = {n.lower() for n in (*DEFAULT_SECRET_PARAMS, *secret_params)}
    base, hash_, fragment = url.partition("#")
    path, q, query = base.partition("?")
    if not q:
        return url
    tokens = []
    for token in query.split("&"):
        name, eq, _ = token.partition("=")
        if eq and unquote_plus(name).lower() in secret:
            tokens.append(f"{name}={REDACTED}")
        else:
            tokens.append(token)
    return f"{path}?{'&'.join(tokens)}{hash_}{fragment}"


def scrub(text: str, secrets: Iterable[str]) -> str:
    """Replace every occurrence of each secret value (raw and URL-encoded) in ``text``.

    >>> scrub("GET /w?api_key=a%2Fb failed", ["a/b"])
    'GET /w?api_key=REDACTED failed'
    """
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        encoded = urlencode({"": secret})[1:]
        for form in {secret, encoded, encoded.replace("+", "%20")}:
            text = text.replace(form, REDACTED)
    return text


@frozen(kw_only=True, repr=False)
class Request:
    """One HTTP request to a source, as a value (built by an adapter's pure half).

    Args:
        method: HTTP method.
        url: Absolute URL, without the query parameters given in ``params``.
        params: Query parameters (a mapping or pairs; None values are dropped).
        headers: Extra headers (a mapping or pairs).
        secret_params: Names of parameters whose values are secret (API keys).
        secret_headers: Names of headers whose values are secret.
        json_body: A JSON document to send as the body (``POST`` batch lookups).

    The repr and :meth:`redacted_url` never show secret values.

    >>> r = Request(url="https://api.openalex.org/works", params={"api_key": "k", "page": 2})
    >>> r.redacted_url()
    'https://api.openalex.org/works?api_key=REDACTED&page=2'
    >>> "k'" in repr(r)
    False
    """

    method: str = "GET"
    url: str
    params: tuple[tuple[str, str], ...] = field(default=(), converter=_pairs)
    headers: tuple[tuple[str, str], ...] = field(default=(), converter=_pairs)
    secret_params: frozenset[str] = field(default=frozenset(), converter=_names)
    secret_headers: frozenset[str] = field(default=frozenset(), converter=_names)
    json_body: str | None = None

    def _secret_param(self, name: str) -> bool:
        lowered = name.lower()
        return lowered in DEFAULT_SECRET_PARAMS or lowered in {
            n.lower() for n in self.secret_params
        }

    def _secret_header(self, name: str) -> bool:
        lowered = name.lower()
        return lowered in DEFAULT_SECRET_HEADERS or lowered in {
            n.lower() for n in self.secret_headers
        }

    @property
    def full_url(self) -> str:
        """The URL with its query string (secrets included: never log this)."""
        if not self.params:
            return self.url
        sep = "&" if "?" in self.url else "?"
        return f"{self.url}{sep}{urlencode(self.params)}"

    def redacted_url(self) -> str:
        """The URL with its query string, secret values replaced by ``REDACTED``."""
        return redact_url(self.full_url, self.secret_params)

    def secret_values(self) -> tuple[str, ...]:
        """The secret values this request carries (to scrub them from any text)."""
        values = [v for k, v in self.params if self._secret_param(k)]
        for k, v in self.headers:
            if self._secret_header(k):
                values.append(v)
                scheme, _, token = v.partition(" ")
                if token and scheme.isalpha():  # "Bearer <token>": the token alone is secret too
                    values.append(token.strip())
        return tuple(v for v in values if v)

    def header(self, name: str) -> str | None:
        """The value of header ``name`` (case-insensitive), if set."""
        lowered = name.lower()
        for k, v in self.headers:
            if k.lower() == lowered:
                return v
        return None

    def with_params(self, **params: object) -> Request:
        """A copy with ``params`` set (replacing same-named ones; None removes)."""
        kept = [(k, v) for k, v in self.params if k not in params]
        kept += [(k, str(v)) for k, v in params.items() if v is not None]
        return attrs.evolve(self, params=tuple(kept))

    def __repr__(self) -> str:
        headers = tuple((k, REDACTED if self._secret_header(k) else v) for k, v in self.headers)
        body = "" if self.json_body is None else f", json_body=<{len(self.json_body)} chars>"
        url = self.redacted_url()
        return f"Request(method={self.method!r}, url={url!r}, headers={headers!r}{body})"


def _lower_headers(value: Mapping[str, str] | Iterable[tuple[str, str]] | None) -> dict[str, str]:
    if value is None:
        return {}
    items = value.items() if isinstance(value, Mapping) else value
    return {str(k).lower(): str(v) for k, v in items}


def _strings(value: Iterable[str]) -> tuple[str, ...]:
    return tuple(value)


@frozen(kw_only=True)
class Response:
    """A source's answer (after any retries).

    Args:
        status: HTTP status code.
        headers: Response headers; keys are stored lower-cased, use :meth:`header`.
        body: The raw body bytes.
        url: The requested URL with secrets redacted.
        attempt: Which attempt produced this answer (1-based).
        elapsed: Seconds from the first attempt's start to this answer, waits included.
        secrets: The secret values the request carried, so any error detail made from this
            response (a 2xx HTML page echoing the request) can be scrubbed; never shown.

    .. versionchanged:: 0.1.0
       ``secrets``.
    """

    status: int
    headers: Mapping[str, str] = field(factory=dict, converter=_lower_headers, hash=False)
    body: bytes = field(default=b"", repr=lambda b: f"<{len(b)} bytes>")
    url: str = ""
    attempt: int = 1
    elapsed: float = 0.0
    secrets: tuple[str, ...] = field(default=(), repr=False, eq=False, converter=_strings)

    def header(self, name: str) -> str | None:
        """The value of header ``name`` (case-insensitive), or None."""
        return self.headers.get(name.lower())

    @property
    def content_type(self) -> str:
        """The media type without parameters, lower-cased ("" when absent)."""
        return (self.header("content-type") or "").split(";", 1)[0].strip().lower()

    @property
    def ok(self) -> bool:
        """Whether the status is 2xx."""
        return 200 <= self.status < 300


@runtime_checkable
class Transport(Protocol):
    """**Protocol**: sends a :class:`Request` and returns the final :class:`Response`.

    Implementations retry as their policy says and raise a
    :class:`~citeledger.errors.SourceError` subclass when the request finally fails (an error
    status included): a returned response always has a 2xx (or 3xx) status.
    """

    def send(self, request: Request, *, source: str) -> Response:
        """Send ``request`` on behalf of the source named ``source``."""
        ...


def _host_names(value: Iterable[str]) -> frozenset[str]:
    return frozenset(h.lower() for h in ([value] if isinstance(value, str) else value))


@frozen(kw_only=True)
class RetryPolicy:
    """How a transport retries and how long it waits.

    Args:
        max_attempts: Attempts in total, the first included (1 = never retry).
        backoff_base: First backoff delay in seconds; doubled on each retry.
        backoff_max: Longest single backoff delay.
        jitter: Spread each backoff delay over its upper half at random, so many clients that
            failed together do not retry together.
        retry_statuses: Statuses worth retrying.
        max_total_wait: Cap on the seconds spent waiting between attempts of one request; a
            ``Retry-After`` longer than what is left ends the retries at once.
        connect_timeout: Seconds to wait for a connection.
        read_timeout: Seconds to wait for each read from the socket.
        attempt_deadline: Seconds one attempt may take in total, the status line, headers,
            redirects and the whole body included (a server dripping bytes is cut off here; a
            watchdog thread shuts down the connection of an attempt blocked past it).
        call_deadline: Seconds one :meth:`~RequestsTransport.send` may take in total, every
            attempt and wait included.
        max_response_bytes: Largest body kept, counted after decompression; a larger one is a
            :class:`~citeledger.errors.ResponseTooLarge` (never retried).
        max_redirects: Most redirects followed in one attempt.
        redirect_hosts: Hosts other than the request's own that redirects may lead to (exact,
            lower-case names); every credential header and parameter and the contact address
            are stripped on such a hop. Empty by default: redirects stay on the request's host.

    .. versionchanged:: 0.1.0
       ``attempt_deadline``, ``call_deadline``, ``max_response_bytes``, ``max_redirects``,
       ``redirect_hosts``.
    """

    max_attempts: int = field(default=4, validator=attrs.validators.ge(1))
    backoff_base: float = field(default=0.5, validator=attrs.validators.ge(0))
    backoff_max: float = field(default=30.0, validator=attrs.validators.ge(0))
    jitter: bool = True
    retry_statuses: frozenset[int] = field(
        default=frozenset({429, 500, 502, 503, 504}), converter=frozenset
    )
    max_total_wait: float = field(default=60.0, validator=attrs.validators.ge(0))
    connect_timeout: float = field(default=5.0, validator=attrs.validators.gt(0))
    read_timeout: float = field(default=30.0, validator=attrs.validators.gt(0))
    attempt_deadline: float = field(default=120.0, validator=attrs.validators.gt(0))
    call_deadline: float = field(default=300.0, validator=attrs.validators.gt(0))
    max_response_bytes: int = field(default=MAX_RESPONSE_BYTES, validator=attrs.validators.ge(1))
    max_redirects: int = field(default=5, validator=attrs.validators.ge(0))
    redirect_hosts: frozenset[str] = field(default=frozenset(), converter=_host_names)

    def backoff(self, attempt: int, rng: random.Random | None = None) -> float:
        """The delay after failed attempt number ``attempt`` (1-based), before jitter is capped.

        >>> RetryPolicy(jitter=False).backoff(3)
        2.0
        """
        delay = min(self.backoff_max, self.backoff_base * 2.0 ** (attempt - 1))
        if self.jitter:
            # "Equal jitter": half the delay is kept, half is random, so a retry never comes
            # immediately yet clients that failed together spread out.
            delay = delay / 2 + (rng or random.Random()).uniform(0, delay / 2)
        return delay


# --------------------------------------------------------------------------- error mapping

_QUOTA_RE = re.compile(
    r"\bquota\b|daily limit|usage limit|limit exceeded for the day"
    r"|credits? (?:exhausted|exceeded|used up)",
    re.IGNORECASE,
)
_TITLE_RE = re.compile(rb"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)
_SUMMARY_RE = re.compile(rb"<summary[^>]*>(.*?)</summary>", re.IGNORECASE | re.DOTALL)


def _json_message(data: Any) -> str | None:
    """Find the human message in the JSON error shapes the recorded sources use."""
    if isinstance(data, str):
        return data
    if isinstance(data, list):
        parts = [m for m in (_json_message(x) for x in data[:3]) if m]
        return "; ".join(parts) or None
    if not isinstance(data, dict):
        return None
    # Crossref problems: {"type": "cursor-invalid", "value": ..., "message": "Cursor ... invalid"}
    if isinstance(data.get("type"), str) and isinstance(data.get("message"), str):
        return f"{data['type']}: {data['message']}"
    # Semantic Scholar {"error": ...} / AWS {"message": ...}; Crossref {"message": [{"message"}]}
    for key in ("error", "message", "detail", "description"):
        if key in data:
            found = _json_message(data[key])
            if found:
                return found
    return None


def _detail(body: bytes, content_type: str = "") -> str:
    """A short human detail from an error body, whatever its shape."""
    text = body.strip()
    if not text:
        return "empty body"
    if text[:1] in (b"{", b"[") or "json" in content_type:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):  # an error body nested absurdly deep is no detail
            pass
        else:
            message = _json_message(data)
            if message:
                return _shorten(message)
    if text[:1] == b"<":
        # arXiv's Atom error feed says what is wrong in <summary>; HTML pages in <title>.
        for pattern in (_SUMMARY_RE, _TITLE_RE):
            m = pattern.search(text[:20000])
            if m:
                return _shorten(m.group(1).decode("utf-8", "replace"))
    return _shorten(text.decode("utf-8", "replace"))


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _DETAIL_MAX else text[: _DETAIL_MAX - 3] + "..."


def error_for_status(
    response: Response,
    *,
    source: str,
    secrets: Iterable[str] = (),
) -> HTTPStatusError | None:
    """The typed error an error status stands for, or None for a success status.

    404/410 -> NotFoundError; 400/422 -> BadRequestError; 403 or a quota message ->
    QuotaExceededError; 429 -> RateLimitError; 5xx -> ServerError; any other 4xx ->
    HTTPStatusError.

    >>> error_for_status(Response(status=404, body=b"Resource not found."), source="crossref")
    NotFoundError('not found')
    """
    status = response.status
    if status < 400:
        return None
    detail = scrub(_detail(response.body, response.content_type), secrets)
    kwargs: dict[str, Any] = {
        "source": source,
        "url": response.url,
        "attempt": response.attempt,
        "status": status,
        "detail": detail,
    }
    if status == 403 or (status in (429, 402) and _QUOTA_RE.search(detail)):
        return QuotaExceededError("quota exceeded or access forbidden", **kwargs)
    if status in (404, 410):
        return NotFoundError("not found", **kwargs)
    if status in (400, 422):
        return BadRequestError("bad request", **kwargs)
    if status == 429:
        return RateLimitError("rate limited", **kwargs)
    if status >= 500:
        return ServerError("server error", **kwargs)
    return HTTPStatusError(f"HTTP {status}", **kwargs)


def raise_for_status(response: Response, *, source: str, secrets: Iterable[str] = ()) -> None:
    """Raise the typed error for an error status (see :func:`error_for_status`).

    Raises:
        HTTPStatusError: a subclass matching the status.
    """
    error = error_for_status(response, source=source, secrets=secrets)
    if error is not None:
        raise error


def parse_retry_after(value: str | None, *, now: dt.datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or HTTP-date), or None.

    RFC 9110 section 10.2.3 allows both forms. A date in the past means "now" (0).

    >>> parse_retry_after("7")
    7.0
    >>> when = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    >>> parse_retry_after("Thu, 01 Jan 2026 00:00:30 GMT", now=when)
    30.0
    >>> parse_retry_after("soon") is None
    True
    """
    if value is None:
        return None
    text = value.strip()
    # str.isdigit() accepts "²" and other non-ASCII digits that float() refuses.
    if text.isascii() and text.isdigit():
        return float(text)  # 5,000 digits is inf, not an error: longer than any wait budget
    date: dt.datetime
    try:
        date = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if date.tzinfo is None:  # "-0000" zones parse naive; HTTP-dates are always GMT
        date = date.replace(tzinfo=dt.UTC)
    current = now if now is not None else dt.datetime.now(dt.UTC)
    return max(0.0, (date - current).total_seconds())


# --------------------------------------------------------------------------- the transport


def default_user_agent(mailto: str | None = None) -> str:
    """``citeledger/<version>``, with ``(+mailto:...)`` when a contact address is given.

    Crossref and OpenAlex route requests that name a contact to their "polite pool"; a
    User-Agent naming the client and its version is what every API's etiquette asks for.
    """
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        ver = version("citeledger")
    except PackageNotFoundError:  # a source tree that is not installed
        ver = "0.0.0+unknown"
    return f"citeledger/{ver}" + (f" (+mailto:{mailto})" if mailto else "")


_URL_LOG_RE = re.compile(
    r"([?&](?:" + "|".join(re.escape(n) for n in sorted(DEFAULT_SECRET_PARAMS)) + r")=)[^&\s\"']+",
    re.IGNORECASE,
)


class _RedactQueryFilter(logging.Filter):
    """Redacts API keys from urllib3's DEBUG request lines ("GET /works?api_key=... HTTP/1.1").

    It knows the always-secret parameter names, and the secret values of the requests in
    flight (a request's own ``secret_params``): urllib3's logger is process-wide, so the
    values a call registers are held only while that call runs.
    """

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._active: collections.Counter[str] = collections.Counter()

    def hold(self, secrets: Iterable[str]) -> None:
        """Register secret values of a call starting."""
        with self._lock:
            self._active.update(s for s in secrets if s)

    def release(self, secrets: Iterable[str]) -> None:
        """Forget the secret values of a call that ended."""
        with self._lock:
            self._active.subtract(s for s in secrets if s)
            self._active += collections.Counter()  # drop counts at zero

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = _URL_LOG_RE.sub(rf"\1{REDACTED}", message)
        with self._lock:
            active = tuple(self._active)
        if active:
            redacted = scrub(redacted, active)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True


def _install_log_redaction() -> _RedactQueryFilter:
    logger = logging.getLogger("urllib3.connectionpool")
    for f in logger.filters:
        if isinstance(f, _RedactQueryFilter):
            return f
    installed = _RedactQueryFilter()
    logger.addFilter(installed)
    return installed


# Errors that will not get better by retrying: the request itself is unusable.
_FATAL_REQUEST_ERRORS: tuple[type[Exception], ...] = (
    requests.exceptions.InvalidURL,
    requests.exceptions.MissingSchema,
    requests.exceptions.InvalidSchema,
    requests.exceptions.URLRequired,
    requests.exceptions.InvalidHeader,
)


# --------------------------------------------------------------------------- the watchdog

#: Seconds between two tries of a fired watchdog to cut a connection still being opened.
_WATCH_POLL = 0.05

#: The watchdog of each thread with an attempt in flight, by thread id: the instrumented pools
#: hand it each connection they give that thread.
_WATCHES: dict[int, _Watchdog] = {}
_WATCHES_LOCK = threading.Lock()


class _Watchdog:
    """Cuts the connection of one attempt when the attempt's deadline passes.

    The read timeout applies per read, so a server dripping its status line and headers one
    byte at a time holds ``session.send`` for as long as it likes. The watchdog is a helper
    thread that waits until the deadline, then shuts down the socket of the connection the
    attempt's thread took from the pool (the blocked read returns at once); the attempt then
    reports :class:`~citeledger.errors.DeadlineExceeded`. A connection still being opened when
    the deadline passes is cut as soon as it has a socket.

    :meth:`cancel` stops and joins the thread: call it in a ``finally``.
    """

    def __init__(self, seconds: float) -> None:
        self.fired = False
        self._ident = threading.get_ident()
        self._conns: list[Any] = []
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(max(seconds, 0.0),), name="citeledger-watchdog", daemon=True
        )
        with _WATCHES_LOCK:
            _WATCHES[self._ident] = self
        self._thread.start()

    def track(self, conn: Any) -> None:
        """Note a connection the attempt's thread took; cut it now if the deadline passed."""
        with self._lock:
            self._conns.append(conn)
            fired = self.fired
        if fired:
            _shut(conn)

    def _run(self, seconds: float) -> None:
        if self._done.wait(seconds):
            return
        with self._lock:
            self.fired = True
        while True:
            with self._lock:
                conns = list(self._conns)
            for conn in conns:
                _shut(conn)
            if self._done.wait(_WATCH_POLL):
                return

    def cancel(self) -> None:
        """Stop the watchdog and wait for its thread to end."""
        with _WATCHES_LOCK:
            if _WATCHES.get(self._ident) is self:
                del _WATCHES[self._ident]
        self._done.set()
        self._thread.join()


def _shut(conn: Any) -> None:
    """Shut down the socket of ``conn`` (both ways) so a read blocked on it returns."""
    sock = getattr(conn, "sock", None)
    if sock is None:
        return
    with contextlib.suppress(OSError, ValueError):
        # socket.socket's own shutdown: an SSLSocket's would drop its TLS object under the
        # reading thread's feet.
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


def _watch_pool(pool: Any) -> Any:
    """Make ``pool`` (a urllib3 connection pool) hand the connections it gives to the watchdog.

    Only threads with a watchdog are affected; other users of the pool see no change.
    """
    if getattr(pool, "_citeledger_watched", False) or not hasattr(pool, "_get_conn"):
        return pool
    get_conn = pool._get_conn  # noqa: SLF001

    def _get_conn(*args: Any, **kwargs: Any) -> Any:
        conn = get_conn(*args, **kwargs)
        with _WATCHES_LOCK:
            watch = _WATCHES.get(threading.get_ident())
        if watch is not None:
            watch.track(conn)
        return conn

    with contextlib.suppress(AttributeError, TypeError):
        pool._get_conn = _get_conn  # noqa: SLF001
        pool._citeledger_watched = True  # noqa: SLF001
    return pool


#: The HTTPAdapter methods that hand a request its connection pool (requests >= 2.32.2, older).
_POOL_GETTERS = ("get_connection_with_tls_context", "get_connection")


def _watching(getter: Callable[..., Any]) -> Callable[..., Any]:
    def _wrapped(*args: Any, **kwargs: Any) -> Any:
        return _watch_pool(getter(*args, **kwargs))

    return _wrapped


def _watch_adapters(session: requests.Session) -> None:
    """Make every HTTPAdapter of ``session`` instrument the pools it uses (see _watch_pool)."""
    adapters = getattr(session, "adapters", None)  # a duck-typed session may have none
    if not isinstance(adapters, Mapping):
        return
    for adapter in list(adapters.values()):
        if not isinstance(adapter, requests.adapters.HTTPAdapter) or getattr(
            adapter, "_citeledger_watched", False
        ):
            continue
        for name in _POOL_GETTERS:
            getter = getattr(adapter, name, None)
            if getter is None:
                continue

            setattr(adapter, name, _watching(getter))
            break
        adapter._citeledger_watched = True  # type: ignore[attr-defined]  # noqa: SLF001


class RequestsTransport:
    """The default :class:`Transport`: a :class:`requests.Session` plus retries and pacing.

    Args:
        session: The session to send through (a ``requests_cache.CachedSession`` works as is);
            a new :class:`requests.Session` owned by this transport when None.
        policy: Retries, backoff and timeouts.
        min_interval: Least seconds between the starts of two requests of this transport
            (pacing; 0 disables). Responses served from a cache do not count.
        user_agent: The User-Agent header; :func:`default_user_agent` when None.
        sleep: Sleeps that many seconds (injectable so tests do not wait).
        clock: A monotonic clock in seconds (injectable for tests).
        now: The current aware UTC time (to read HTTP-date ``Retry-After`` values).
        rng: Random source of the backoff jitter.

    >>> t = RequestsTransport(min_interval=3.0, user_agent="me/1")
    >>> t.min_interval, t.user_agent
    (3.0, 'me/1')
    """

    def __init__(
        self,
        session: requests.Session | None = None,
        *,
        policy: RetryPolicy | None = None,
        min_interval: float = 0.0,
        user_agent: str | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], dt.datetime] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self._owns_session = session is None
        self.session = session if session is not None else requests.Session()
        self.policy = policy if policy is not None else RetryPolicy()
        self.min_interval = float(min_interval)
        self.user_agent = user_agent or default_user_agent()
        self._sleep = sleep
        self._clock = clock
        self._now = now or (lambda: dt.datetime.now(dt.UTC))
        self._rng = rng or random.Random()
        self._lock = threading.Lock()
        self._last_start: float | None = None
        self._log_filter = _install_log_redaction()

    def __repr__(self) -> str:
        return (
            f"RequestsTransport(policy={self.policy!r}, min_interval={self.min_interval}, "
            f"user_agent={self.user_agent!r})"
        )

    def close(self) -> None:
        """Close the session if this transport created it."""
        if self._owns_session:
            self.session.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _pace(self) -> None:
        """Wait until ``min_interval`` has passed since the previous request started."""
        if self.min_interval <= 0:
            return
        with self._lock:
            if self._last_start is not None:
                wait = self._last_start + self.min_interval - self._clock()
                if wait > 0:
                    self._sleep(wait)
            self._last_start = self._clock()

    def _forget_start(self) -> None:
        # A response served from a cache never reached the source; do not make the next
        # request wait for it.
        with self._lock:
            self._last_start = None

    def _headers(self, request: Request) -> dict[str, str]:
        headers = {"User-Agent": self.user_agent}
        if request.json_body is not None:
            headers["Content-Type"] = "application/json"
        headers.update(dict(request.headers))
        return headers

    def send(self, request: Request, *, source: str) -> Response:
        """Send ``request``, retrying as the policy says.

        Returns:
            The final successful response.

        Raises:
            SourceTimeout: connect or read timeouts on every attempt.
            DeadlineExceeded: the call's total deadline passed (or every attempt's).
            HostNotFound: the host name does not resolve (never retried).
            TLSError: TLS verification failed (never retried).
            ConnectionRefused: refused on every attempt.
            RedirectRefused: a redirect off the host, to a non-HTTP scheme or a private
                address, or too many (never retried).
            ResponseTooLarge: the body grew past ``max_response_bytes`` (never retried).
            TransportError: connection reset on every attempt, or an unusable URL.
            QuotaExceededError: 403 or a quota message (never retried).
            RateLimitError: still 429 when the retry budget is spent.
            ServerError: still 5xx when the retry budget is spent.
            NotFoundError: 404 (not retried).
            BadRequestError: 400 (not retried).
            HTTPStatusError: other error statuses.
        """
        secrets = request.secret_values()
        self._log_filter.hold(secrets)
        try:
            return self._send(request, source=source, secrets=secrets)
        finally:
            self._log_filter.release(secrets)

    def _send(self, request: Request, *, source: str, secrets: tuple[str, ...]) -> Response:
        policy = self.policy
        shown = request.redacted_url()
        headers = self._headers(request)
        data = None if request.json_body is None else request.json_body.encode("utf-8")
        started = self._clock()
        call_end = started + policy.call_deadline
        waited = 0.0
        attempt = 0
        while True:
            attempt += 1
            self._pace()
            retry_after: float | None = None
            where = {"source": source, "url": shown, "attempt": attempt}
            error: SourceError
            try:
                status, raw_headers, body, from_cache = self._attempt(
                    request, headers, data, where=where, secrets=secrets, call_end=call_end
                )
            except _Fatal as fatal:
                raise fatal.error from None
            except SourceError as exc:
                error = exc
            else:
                if from_cache:
                    self._forget_start()
                response = Response(
                    status=status,
                    headers=raw_headers,
                    body=body,
                    url=shown,
                    attempt=attempt,
                    elapsed=self._clock() - started,
                    secrets=secrets,
                )
                status_error = error_for_status(response, source=source, secrets=secrets)
                if status_error is None:
                    return response
                if status_error.status not in policy.retry_statuses or isinstance(
                    status_error, QuotaExceededError
                ):
                    raise status_error
                error = status_error
                retry_after = parse_retry_after(response.header("retry-after"), now=self._now())
            if attempt >= policy.max_attempts:
                raise error
            left = min(policy.max_total_wait - waited, call_end - self._clock())
            if retry_after is not None:
                if retry_after > left:
                    error.detail = _shorten(
                        f"{error.detail} (Retry-After {retry_after:g}s exceeds the "
                        f"{left:g}s left of the wait budget)".strip()
                    )
                    raise error
                delay = retry_after
            else:
                delay = min(policy.backoff(attempt, self._rng), left)
                if delay <= 0 and left <= 0:
                    raise error
            _log.info(
                "%s: attempt %d of %s failed (%s); retrying in %.2fs",
                source,
                attempt,
                shown,
                error.message if error.status is None else f"HTTP {error.status}",
                delay,
            )
            if delay > 0:
                self._sleep(delay)
            waited += delay

    def _attempt(
        self,
        request: Request,
        headers: dict[str, str],
        data: bytes | None,
        *,
        where: dict[str, Any],
        secrets: tuple[str, ...],
        call_end: float,
    ) -> tuple[int, Mapping[str, str], bytes, bool]:
        """One attempt, redirects followed by hand: (status, headers, body, from cache).

        Raises:
            _Fatal: wrapping an error retrying cannot cure.
            SourceError: a failure worth retrying.
        """
        policy = self.policy
        attempt_end = min(self._clock() + policy.attempt_deadline, call_end)
        method, url = request.method, request.url
        params: list[tuple[str, str]] | None = list(request.params)
        origin = urlsplit(request.url)
        hops = 0
        while True:
            remaining = attempt_end - self._clock()
            if remaining <= 0:
                raise self._deadline(where, attempt_end >= call_end)
            timeout = (min(policy.connect_timeout, remaining), min(policy.read_timeout, remaining))
            # The watchdog bounds what the timeouts cannot: headers (and a body) dripped.
            _watch_adapters(self.session)
            watch = _Watchdog(remaining)
            try:
                try:
                    raw = self.session.request(
                        method,
                        url,
                        params=params,
                        headers=headers,
                        data=data,
                        timeout=timeout,
                        allow_redirects=False,
                        stream=True,
                    )
                except requests.exceptions.RequestException as exc:
                    if watch.fired:
                        raise self._deadline(where, attempt_end >= call_end) from None
                    raise self._request_error(exc, where, secrets) from None
                try:
                    location = raw.headers.get("location") if raw.is_redirect else None
                    if location is None:
                        body = self._read_body(raw, attempt_end, where, secrets, call_end)
                        cached = bool(getattr(raw, "from_cache", 0))
                        return raw.status_code, raw.headers, body, cached
                except SourceError:
                    if watch.fired:
                        raise self._deadline(where, attempt_end >= call_end) from None
                    raise
                finally:
                    raw.close()
            finally:
                watch.cancel()
            hops += 1
            target = urljoin(raw.url or url, location)
            refusal = _redirect_refusal(target, origin, hops, policy)
            if refusal:
                detail = scrub(redact_url(target, request.secret_params), secrets)
                error = RedirectRefused(refusal, detail=_shorten(detail), **where)
                raise _Fatal(error)
            if urlsplit(target).hostname != origin.hostname:
                target, headers = _strip_credentials(target, headers, request)
            if raw.status_code == 303 or (raw.status_code in (301, 302) and method == "POST"):
                method, data = "GET", None  # RFC 9110 15.4: 303 (and, by usage, 301/302) -> GET
            url, params = target, None

    @staticmethod
    def _request_error(
        exc: requests.exceptions.RequestException, where: dict[str, Any], secrets: tuple[str, ...]
    ) -> Exception:
        """The typed error (or _Fatal) for what ``session.request`` raised."""
        if isinstance(exc, requests.exceptions.Timeout):
            return _transport_error(SourceTimeout, "timed out", exc, where, secrets)
        if isinstance(exc, _FATAL_REQUEST_ERRORS):
            error = _transport_error(TransportError, "unusable request", exc, where, secrets)
            return _Fatal(error)
        return _connection_error(exc, where, secrets)

    def _deadline(self, where: dict[str, Any], whole_call: bool) -> Exception:
        policy = self.policy
        if whole_call:
            error = DeadlineExceeded(f"call deadline of {policy.call_deadline:g}s passed", **where)
            return _Fatal(error)  # the call's time is spent: no further attempt
        return DeadlineExceeded(f"attempt deadline of {policy.attempt_deadline:g}s passed", **where)

    def _read_body(
        self,
        raw: requests.Response,
        attempt_end: float,
        where: dict[str, Any],
        secrets: tuple[str, ...],
        call_end: float,
    ) -> bytes:
        """The body, decompressed, within the size cap and the attempt's deadline."""
        cap = self.policy.max_response_bytes
        stream = raw.raw
        if getattr(raw, "_content", False) is not False or not hasattr(stream, "read1"):
            body = raw.content  # already read (a cache's answer) or not a urllib3 stream
            if len(body) > cap:
                raise _Fatal(_too_large(cap, where))
            return body
        encoding = raw.headers.get("content-encoding", "").strip().lower()
        decoder = zlib.decompressobj(zlib.MAX_WBITS | 32) if encoding in _ZLIB_CODINGS else None
        decode_content = decoder is None and encoding not in ("", "identity")
        declared = raw.headers.get("content-length", "")
        # A declared length past the cap fails before reading (18 digits stay below 2**63).
        if (
            encoding in ("", "identity")
            and declared.isascii()
            and declared.isdigit()
            and (len(declared) > 18 or int(declared) > cap)
        ):
            raise _Fatal(_too_large(cap, where))
        out = bytearray()
        try:
            while True:
                if self._clock() > attempt_end:
                    raise self._deadline(where, attempt_end >= call_end)
                piece = stream.read1(_CHUNK, decode_content=decode_content)
                if not piece:
                    break
                if decoder is None:
                    out += piece
                else:
                    # max_length bounds what one compressed chunk may inflate to (gzip bomb).
                    out += decoder.decompress(piece, cap + 1 - len(out))
                    while decoder.unconsumed_tail and len(out) <= cap:
                        out += decoder.decompress(decoder.unconsumed_tail, cap + 1 - len(out))
                if len(out) > cap:
                    raise _Fatal(_too_large(cap, where))
            if decoder is not None:
                out += decoder.flush()
        except SourceError:  # our own deadline (a TimeoutError too): as it is
            raise
        except zlib.error as exc:
            detail = f"content-encoding {encoding}: {exc}"
            raise TransportError("undecodable body", detail=detail, **where) from None
        except (urllib3.exceptions.ReadTimeoutError, TimeoutError) as exc:
            raise _transport_error(SourceTimeout, "timed out", exc, where, secrets) from None
        except (urllib3.exceptions.HTTPError, OSError) as exc:
            raise _transport_error(
                TransportError, "connection failed", exc, where, secrets
            ) from None
        if len(out) > cap:
            raise _Fatal(_too_large(cap, where))
        return bytes(out)


_ZLIB_CODINGS = frozenset({"gzip", "x-gzip", "deflate"})


class _Fatal(Exception):
    """Carries a :class:`SourceError` that retrying cannot cure out of an attempt."""

    def __init__(self, error: SourceError) -> None:
        super().__init__(error)
        self.error = error


def _too_large(cap: int, where: dict[str, Any]) -> ResponseTooLarge:
    return ResponseTooLarge(
        "response too large", detail=f"body exceeds max_response_bytes={cap:,}", **where
    )


_MAILTO_UA_RE = re.compile(r"\s*\(\+mailto:[^)]*\)")


def _is_private_host(host: str) -> bool:
    """Whether ``host`` is an IP literal (or localhost) no redirect may lead to."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return (
        address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_reserved
        or address.is_multicast
        or address.is_unspecified
    )


def _redirect_refusal(target: str, origin: Any, hops: int, policy: RetryPolicy) -> str | None:
    """Why a redirect to ``target`` may not be followed, or None."""
    try:
        parts = urlsplit(target)
        host = (parts.hostname or "").lower()
    except ValueError:
        return "redirect to an unreadable URL"
    if parts.scheme not in ("http", "https"):
        return f"redirect to a non-HTTP scheme ({parts.scheme or 'none'})"
    if hops > policy.max_redirects:
        return f"more than {policy.max_redirects} redirects"
    if host == (origin.hostname or "").lower():
        if origin.scheme == "https" and parts.scheme == "http":
            return "redirect from https to http"
        return None
    if host not in policy.redirect_hosts:
        return f"redirect to another host ({host or 'none'}) not in redirect_hosts"
    if _is_private_host(host):
        return f"redirect to a private, loopback or link-local address ({host})"
    return None


def _strip_credentials(
    target: str, headers: dict[str, str], request: Request
) -> tuple[str, dict[str, str]]:
    """The URL and headers for a hop to another host: no credential, no contact address."""
    kept = {
        k: v
        for k, v in headers.items()
        if not request._secret_header(k)  # noqa: SLF001
    }
    if "User-Agent" in kept:
        kept["User-Agent"] = _MAILTO_UA_RE.sub("", kept["User-Agent"])
    parts = urlsplit(target)
    query = [
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if not request._secret_param(k) and k.lower() != "mailto"  # noqa: SLF001
    ]
    return urlunsplit(parts._replace(query=urlencode(query))), kept


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and every exception behind it (``reason``, ``args``, cause, context)."""
    seen: list[BaseException] = []
    todo: list[BaseException] = [exc]
    while todo and len(seen) < 32:
        current = todo.pop()
        if any(current is s for s in seen):
            continue
        seen.append(current)
        reason = getattr(current, "reason", None)
        nested = [reason, current.__cause__, current.__context__, *current.args]
        todo.extend(e for e in nested if isinstance(e, BaseException))
    return seen


def _connection_error(exc: Exception, where: dict[str, Any], secrets: tuple[str, ...]) -> Exception:
    """The typed error naming why a connection failed; causes retrying cannot cure are _Fatal."""
    chain = _chain(exc)
    if any(isinstance(e, ssl.SSLCertVerificationError) for e in chain):
        error = _transport_error(
            TLSError, "TLS certificate verification failed", exc, where, secrets
        )
        return _Fatal(error)
    if isinstance(exc, requests.exceptions.SSLError):
        return _transport_error(TLSError, "TLS handshake failed", exc, where, secrets)
    if any(isinstance(e, (socket.gaierror, urllib3.exceptions.NameResolutionError)) for e in chain):
        error = _transport_error(HostNotFound, "host not found", exc, where, secrets)
        return _Fatal(error)
    if any(isinstance(e, ConnectionRefusedError) for e in chain):
        return _transport_error(ConnectionRefused, "connection refused", exc, where, secrets)
    return _transport_error(TransportError, "connection failed", exc, where, secrets)


def _transport_error(
    kind: type[TransportError],
    message: str,
    exc: Exception,
    where: dict[str, Any],
    secrets: tuple[str, ...],
) -> TransportError:
    """A transport error whose detail names the low-level failure, secrets scrubbed.

    requests puts the full URL (query string included) into its messages, hence both scrubs.
    """
    detail = scrub(f"{type(exc).__name__}: {exc}", secrets)
    detail = _URL_LOG_RE.sub(rf"\1{REDACTED}", detail)
    return kind(message, detail=_shorten(detail), **where)
