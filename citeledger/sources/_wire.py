"""Requests and responses as values, and keeping secrets out of them (no I/O here).

An adapter's pure half builds a :class:`Request`; a :class:`Transport` sends it and returns a
:class:`Response`. Re-exported by :mod:`citeledger.sources._transport`, the documented home.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Protocol, runtime_checkable
from urllib.parse import unquote_plus, urlencode

import attrs
from attrs import field, frozen

__all__ = [
    "DEFAULT_SECRET_HEADERS",
    "DEFAULT_SECRET_PARAMS",
    "REDACTED",
    "Request",
    "Response",
    "Transport",
    "filter_params",
    "query_params",
    "redact_query_secrets",
    "redact_url",
    "scrub",
]

#: What a secret value is replaced with.
REDACTED = "REDACTED"
#: Query parameters always treated as secret, whatever a request declares.
DEFAULT_SECRET_PARAMS = frozenset({"api_key", "apikey", "api-key", "access_token", "token"})
#: Headers always treated as secret (compared case-insensitively).
DEFAULT_SECRET_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "cookie", "x-api-key", "crossref-plus-api-token"}
)


_URL_LOG_RE = re.compile(
    r"([?&](?:" + "|".join(re.escape(n) for n in sorted(DEFAULT_SECRET_PARAMS)) + r")=)[^&\s\"']+",
    re.IGNORECASE,
)


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


def redact_query_secrets(text: str) -> str:
    """Redact the always-secret query parameters wherever a URL stands in free ``text``.

    >>> redact_query_secrets("GET /works?mailto=a&api_key=s3cr3t HTTP/1.1")
    'GET /works?mailto=a&api_key=REDACTED HTTP/1.1'
    """
    return _URL_LOG_RE.sub(rf"\1{REDACTED}", text)


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


def query_params(*pairs: tuple[str, object], keep_empty: bool = False) -> list[tuple[str, object]]:
    """The ``(name, value)`` query parameters that are given, in order.

    A value is given when it is truthy; with ``keep_empty`` (paging positions, where ``0`` and
    ``""`` are values), when it is not None.

    >>> query_params(("query", "x"), ("sort", None), ("order", ""))
    [('query', 'x')]
    >>> query_params(("cursor", ""), ("offset", 0), ("page", None), keep_empty=True)
    [('cursor', ''), ('offset', 0)]
    """
    return [(name, value) for name, value in pairs if (value is not None if keep_empty else value)]


def filter_params(
    filters: Mapping[str, object] | Iterable[tuple[str, object]] | None,
) -> list[tuple[str, object]]:
    """``filter=name:value,...`` as a query parameter, or none when no filters are given.

    >>> filter_params({"cites": "W1", "type": "article"})
    [('filter', 'cites:W1,type:article')]
    """
    if not filters:
        return []
    items = filters.items() if isinstance(filters, Mapping) else filters
    return [("filter", ",".join(f"{k}:{v}" for k, v in items))]


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
