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

This module holds :class:`RequestsTransport` and re-exports the rest, which lives in private
modules by concern: the request and response values and redaction (``_wire``), the retry
policy, status mapping and redirect rules (``_policy``), the deadline watchdog (``_watchdog``)
and the size-capped body read with its failure naming (``_reading``).

Every failure becomes a :class:`~citeledger.errors.SourceError` subclass carrying the source's
name, the redacted URL, the attempt number, the status and a short detail.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import collections
import datetime as dt
import logging
import random
import threading
import time
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import urljoin, urlsplit

import requests

from citeledger.errors import QuotaExceededError, RedirectRefused, SourceError
from citeledger.sources import _policy, _wire
from citeledger.sources._policy import (
    RetryPolicy,
    error_for_status,
    parse_retry_after,
    raise_for_status,
    redirect_refusal,
    shorten,
    strip_credentials,
)
from citeledger.sources._reading import Fatal, deadline_error, read_body, request_error
from citeledger.sources._watchdog import Watchdog, watch_adapters
from citeledger.sources._wire import (
    Request,
    Response,
    Transport,
    redact_query_secrets,
    redact_url,
    scrub,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

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

# Re-bound, not only imported, so that the reference documents them on this module's page.
#: What a secret value is replaced with.
REDACTED = _wire.REDACTED
#: Query parameters always treated as secret, whatever a request declares.
DEFAULT_SECRET_PARAMS = _wire.DEFAULT_SECRET_PARAMS
#: Headers always treated as secret (compared case-insensitively).
DEFAULT_SECRET_HEADERS = _wire.DEFAULT_SECRET_HEADERS
#: Default cap on one response body, after decompression (64 MiB: a Crossref page of 1,000
#: works with their references is a few MB).
MAX_RESPONSE_BYTES = _policy.MAX_RESPONSE_BYTES

_log = logging.getLogger("citeledger.sources")

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
        redacted = redact_query_secrets(message)
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
            except Fatal as fatal:
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
                    error.detail = shorten(
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
            Fatal: wrapping an error retrying cannot cure.
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
            watch_adapters(self.session)
            watch = Watchdog(remaining)
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
                    raise request_error(exc, where, secrets) from None
                try:
                    location = raw.headers.get("location") if raw.is_redirect else None
                    if location is None:
                        body = read_body(
                            raw,
                            cap=policy.max_response_bytes,
                            clock=self._clock,
                            attempt_end=attempt_end,
                            where=where,
                            secrets=secrets,
                            deadline=lambda: self._deadline(where, attempt_end >= call_end),
                        )
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
            refusal = redirect_refusal(target, origin, hops, policy)
            if refusal:
                detail = scrub(redact_url(target, request.secret_params), secrets)
                error = RedirectRefused(refusal, detail=shorten(detail), **where)
                raise Fatal(error)
            if urlsplit(target).hostname != origin.hostname:
                target, headers = strip_credentials(target, headers, request)
            if raw.status_code == 303 or (raw.status_code in (301, 302) and method == "POST"):
                method, data = "GET", None  # RFC 9110 15.4: 303 (and, by usage, 301/302) -> GET
            url, params = target, None

    def _deadline(self, where: dict[str, Any], whole_call: bool) -> Exception:
        return deadline_error(self.policy, where, whole_call=whole_call)
