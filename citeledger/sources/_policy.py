"""How a transport retries and where it may go (pure, no I/O).

The retry policy, the mapping of error statuses to typed errors, ``Retry-After`` and the rules
for following a redirect.

Re-exported by :mod:`citeledger.sources._transport`, the documented home.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
import email.utils
import ipaddress
import json
import random
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import attrs
from attrs import field, frozen

from citeledger.errors import (
    BadRequestError,
    HTTPStatusError,
    NotFoundError,
    QuotaExceededError,
    RateLimitError,
    ServerError,
)
from citeledger.sources._wire import Response, scrub

if TYPE_CHECKING:
    from collections.abc import Iterable

    from citeledger.sources._wire import Request

__all__ = [
    "MAX_RESPONSE_BYTES",
    "RetryPolicy",
    "error_detail",
    "error_for_status",
    "parse_retry_after",
    "raise_for_status",
    "redirect_refusal",
    "shorten",
    "strip_credentials",
]

#: Longest detail (what the source said) kept in an error.
_DETAIL_MAX = 200

#: Default cap on one response body, after decompression (64 MiB: a Crossref page of 1,000
#: works with their references is a few MB).
MAX_RESPONSE_BYTES = 64 * 1024 * 1024


# --------------------------------------------------------------------------- retries


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


def error_detail(body: bytes, content_type: str = "") -> str:
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
                return shorten(message)
    if text[:1] == b"<":
        # arXiv's Atom error feed says what is wrong in <summary>; HTML pages in <title>.
        for pattern in (_SUMMARY_RE, _TITLE_RE):
            m = pattern.search(text[:20000])
            if m:
                return shorten(m.group(1).decode("utf-8", "replace"))
    return shorten(text.decode("utf-8", "replace"))


def shorten(text: str) -> str:
    """``text`` on one line, cut to the longest detail an error keeps."""
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
    detail = scrub(error_detail(response.body, response.content_type), secrets)
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


# --------------------------------------------------------------------------- redirects

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


def redirect_refusal(target: str, origin: Any, hops: int, policy: RetryPolicy) -> str | None:
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


def strip_credentials(
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
