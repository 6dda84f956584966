"""The exception tree of citeledger.

Every error citeledger raises on purpose derives from :class:`CiteledgerError`; leaves also
derive from the nearest builtin so callers who know nothing of citeledger still catch them::

    CiteledgerError
    ├── InvalidIdentifier (ValueError)        text is not a valid identifier of the scheme
    ├── ModelError (ValueError)               a model value breaks an invariant
    │   ├── NaiveDatetimeError                a datetime without a timezone
    │   └── IncompatibleMeasurements (TypeError)
    │                                         two sources' counts combined as one number
    ├── DeserializationError (ValueError)     JSON / dicts that do not fit the model;
    │                                         ``.problems`` lists every field that is wrong
    ├── ParseError (ValueError)               a payload (JSON, XML, CSV) cannot be read
    │   └── UnsafeXMLError                    XML with entities / DTDs we refuse to resolve
    ├── UnsupportedCapability (NotImplementedError)
    │                                         a source was asked for what it cannot do
    ├── SourceNotFound (LookupError)          no source registered under that name
    ├── InvalidArgument (ValueError)          an argument outside what is accepted
    │   └── InvalidSource (TypeError)         neither a Source nor a registered name
    ├── WorkerLost (RuntimeError)             a worker process of resolve_many died
    └── SourceError (OSError)                 talking to a source failed (after retries)
        ├── TransportError                    connection refused / reset, DNS, timeout
        │   ├── SourceTimeout                 connect or read timeout
        │   │   └── DeadlineExceeded          total deadline of an attempt / a call
        │   ├── HostNotFound                  DNS: the name does not resolve (not retried)
        │   ├── ConnectionRefused             nothing listens on the port
        │   ├── TLSError                      TLS handshake / verification (not retried)
        │   └── RedirectRefused               redirect off-host, to a non-HTTP scheme or a
        │                                     private / link-local address
        ├── HTTPStatusError                   an error status the source answered with
        │   ├── NotFoundError                 404 / "Resource not found."
        │   ├── BadRequestError               400 / validation failures
        │   ├── RateLimitError                429 after the retry budget
        │   ├── QuotaExceededError            403 / quota used up: never retried
        │   └── ServerError                   5xx after the retry budget
        ├── InvalidResponseError              200 with an HTML page, an empty body,
        │   │                                 truncated JSON or invalid XML
        │   └── ResponseTooLarge              body (decompressed) past the size cap
        ├── PagingStopped                     a listing stopped by a paging bound
        │                                     (repeated cursor / page, page bound, ...)
        └── SourceCrashed                     a source raised something that is not a
                                              citeledger error, or answered a wrong type
                                              (contained by the ledger, per facet)

Source errors carry ``source``, ``url`` (with any API key redacted) and ``attempt``, and
pickle cleanly so they cross process boundaries (Dask, multiprocessing).

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "BadRequestError",
    "CiteledgerError",
    "ConnectionRefused",
    "DeadlineExceeded",
    "DeserializationError",
    "HTTPStatusError",
    "HostNotFound",
    "IncompatibleMeasurements",
    "InvalidArgument",
    "InvalidIdentifier",
    "InvalidResponseError",
    "InvalidSource",
    "ModelError",
    "NaiveDatetimeError",
    "NotFoundError",
    "PagingStopped",
    "ParseError",
    "QuotaExceededError",
    "RateLimitError",
    "RedirectRefused",
    "ResponseTooLarge",
    "ServerError",
    "SourceCrashed",
    "SourceError",
    "SourceNotFound",
    "SourceTimeout",
    "TLSError",
    "TransportError",
    "UnsafeXMLError",
    "UnsupportedCapability",
    "WorkerLost",
]


class CiteledgerError(Exception):
    """Root of every error citeledger raises on purpose."""


class InvalidIdentifier(CiteledgerError, ValueError):
    """Text that is not a valid identifier (of the requested scheme).

    Attributes:
        text: The offending input, as given.
        reason: A human explanation of what is wrong.
        scheme: The scheme that was attempted, when one was.
    """

    def __init__(self, text: str, reason: str, scheme: str | None = None) -> None:
        self.text = text
        self.reason = reason
        self.scheme = scheme
        shown = text if len(text) <= 80 else text[:77] + "..."
        where = f" as {scheme}" if scheme else ""
        super().__init__(f"invalid identifier{where}: {shown!r}: {reason}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.text, self.reason, self.scheme))


class ModelError(CiteledgerError, ValueError):
    """A model value that breaks one of the model's invariants."""


class NaiveDatetimeError(ModelError):
    """A datetime without timezone where an aware UTC time is required."""


class IncompatibleMeasurements(ModelError, TypeError):
    """Counts from different sources (or of different things) combined as one number.

    The ledger's rule: an external citation count names its source and date and is never
    combined with another source's count.
    """


class DeserializationError(CiteledgerError, ValueError):
    """Input data that does not fit the model.

    Attributes:
        problems: One human-readable line per wrong field (path: what is wrong).
    """

    def __init__(self, message: str, problems: tuple[str, ...] = ()) -> None:
        self.problems = tuple(problems)
        text = message if not problems else message + ":\n  " + "\n  ".join(problems)
        super().__init__(text)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.args[0].split(":\n", 1)[0], self.problems))


class ParseError(CiteledgerError, ValueError):
    """A payload (JSON, XML, CSV) that cannot be read into the model."""


class UnsafeXMLError(ParseError):
    """XML that declares entities or a DTD; citeledger never resolves them."""


class UnsupportedCapability(CiteledgerError, NotImplementedError):
    """A source asked for a capability it does not have.

    Attributes:
        source: The source's name.
        capability: The capability asked for (``"references"``, ``"citations"``, ...).
    """

    def __init__(self, source: str, capability: str) -> None:
        self.source = source
        self.capability = capability
        super().__init__(f"source {source!r} does not support {capability!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.source, self.capability))


class SourceNotFound(CiteledgerError, LookupError):
    """No source is registered under the requested name."""


class WorkerLost(CiteledgerError, RuntimeError):
    """A worker process of :meth:`~citeledger.Resolver.resolve_many` died before it reported.

    Killed, out of memory, or crashed in native code: its references have no results, so the
    batch fails as a whole instead of waiting for them forever. ``exitcode`` is the process's
    exit code (negative: the signal that ended it).
    """

    def __init__(self, message: str, *, exitcode: int | None = None) -> None:
        super().__init__(message)
        self.exitcode = exitcode

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_worker_lost, (str(self), self.exitcode))


def _rebuild_worker_lost(message: str, exitcode: int | None) -> WorkerLost:
    return WorkerLost(message, exitcode=exitcode)


class SourceError(CiteledgerError, OSError):
    """Talking to a source failed, after the transport's retries.

    Attributes:
        source: The source's name (``"crossref"``).
        url: The URL requested, with API keys redacted.
        attempt: How many attempts were made (1-based).
        status: The HTTP status of the last answer, when there was one.
        detail: What the source said, shortened.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str = "",
        url: str = "",
        attempt: int = 1,
        status: int | None = None,
        detail: str = "",
    ) -> None:
        self.message = message
        self.source = source
        self.url = url
        self.attempt = attempt
        self.status = status
        self.detail = detail
        super().__init__(message)

    def __str__(self) -> str:
        parts = [self.message]
        if self.source:
            parts.append(f"source={self.source}")
        if self.status is not None:
            parts.append(f"status={self.status}")
        if self.url:
            parts.append(f"url={self.url}")
        parts.append(f"attempt={self.attempt}")
        if self.detail:
            parts.append(f"detail={self.detail!r}")
        return " ".join(parts)

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _rebuild_source_error,
            (
                type(self),
                self.message,
                {
                    "source": self.source,
                    "url": self.url,
                    "attempt": self.attempt,
                    "status": self.status,
                    "detail": self.detail,
                },
            ),
        )


def _rebuild_source_error(
    cls: type[SourceError], message: str, kwargs: dict[str, Any]
) -> SourceError:
    return cls(message, **kwargs)


class TransportError(SourceError):
    """The request did not get an HTTP answer (refused, reset, DNS, timeout)."""


class SourceTimeout(TransportError, TimeoutError):
    """A connect or read timeout."""


class HTTPStatusError(SourceError):
    """The source answered with an error status."""


class NotFoundError(HTTPStatusError):
    """The source does not know the requested thing (404, "Resource not found.")."""


class BadRequestError(HTTPStatusError):
    """The source rejected the request as malformed (400, validation failure)."""


class RateLimitError(HTTPStatusError):
    """Still rate limited (429) after the retry budget was spent."""


class QuotaExceededError(HTTPStatusError):
    """The quota is used up (403 or a quota message); retrying would not help."""


class ServerError(HTTPStatusError):
    """The source kept failing with 5xx after the retry budget was spent."""


class InvalidResponseError(SourceError):
    """A success status whose body is unusable: HTML page, empty, truncated, invalid XML."""


class PagingStopped(SourceError):
    """A paged listing stopped by one of its bounds before the source said it was done.

    The source repeated a cursor or a page, announced a next offset past its own total, sent a
    page with nothing new, or the listing reached the hard page bound. What was fetched before
    is kept; the listing is partial and :attr:`reason` says why.

    .. versionadded:: 0.1.0
    """

    @property
    def reason(self) -> str:
        """The bound that stopped paging (the message): a ``PageStop`` value.

        ``"repeated cursor"``, ``"repeated page"``, ``"page with no new items"``, ``"offset
        past the announced total"``, ``"next offset inside the page just read"`` or ``"page
        bound"``.
        """
        return self.message


class ResponseTooLarge(InvalidResponseError):
    """A response body (after decompression) grew past the transport's size cap.

    .. versionadded:: 0.1.0
    """


class DeadlineExceeded(SourceTimeout):
    """An attempt or a whole call ran past its total deadline (a server dripping bytes).

    .. versionadded:: 0.1.0
    """


class SourceCrashed(SourceError):
    """A source raised an exception outside the error tree, or answered a wrong type.

    The ledger contains it per facet (a plug-in's ``KeyError``, a ``Paged`` whose pages raise
    a ``RuntimeError``, ``citations()`` returning None): the call is reported failed with
    :attr:`cause_type` and the other sources' answers are kept.

    Attributes:
        cause_type: The class name of what the source raised (``"RuntimeError"``), or
            ``"WrongType"`` for an answer of the wrong type.

    .. versionadded:: 0.2.0
    """

    def __init__(self, message: str, *, cause_type: str = "", **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.cause_type = cause_type

    def __reduce__(self) -> tuple[Any, ...]:
        rebuild, (cls, message, kwargs) = super().__reduce__()
        return rebuild, (cls, message, {**kwargs, "cause_type": self.cause_type})


class InvalidArgument(CiteledgerError, ValueError):
    """An argument outside what the function accepts (``resolve_many(workers=0)``).

    .. versionadded:: 0.2.0
    """


class InvalidSource(InvalidArgument, TypeError):
    """Something given as a source that is neither a Source nor a registered source name.

    .. versionadded:: 0.2.0
    """


class HostNotFound(TransportError):
    """The host name does not resolve (DNS): never retried.

    .. versionadded:: 0.1.0
    """


class ConnectionRefused(TransportError):
    """The host refused the connection (nothing listens on the port).

    .. versionadded:: 0.1.0
    """


class TLSError(TransportError):
    """The TLS handshake or certificate verification failed: never retried.

    .. versionadded:: 0.1.0
    """


class RedirectRefused(TransportError):
    """A redirect the transport will not follow.

    To another host (not in the allow-list), to a non-HTTP scheme, to a private, loopback or
    link-local address, or more hops than the limit.

    .. versionadded:: 0.1.0
    """
