"""Reading one response, and naming what went wrong on the wire.

The body is read within the size cap and the attempt's deadline; the low-level failures of
``requests`` and urllib3 become typed errors, secrets scrubbed.

Used by :class:`~citeledger.sources._transport.RequestsTransport`.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import socket
import ssl
import zlib
from typing import TYPE_CHECKING, Any

import requests
import urllib3.exceptions

from citeledger.errors import (
    ConnectionRefused,
    DeadlineExceeded,
    HostNotFound,
    ResponseTooLarge,
    SourceError,
    SourceTimeout,
    TLSError,
    TransportError,
)
from citeledger.sources._policy import shorten
from citeledger.sources._wire import redact_query_secrets, scrub

if TYPE_CHECKING:
    from collections.abc import Callable

    from citeledger.sources._policy import RetryPolicy

__all__ = ["Fatal", "deadline_error", "read_body", "request_error"]

#: Bytes asked of the socket per read while streaming a body.
_CHUNK = 64 * 1024

_ZLIB_CODINGS = frozenset({"gzip", "x-gzip", "deflate"})


class Fatal(Exception):
    """Carries a :class:`SourceError` that retrying cannot cure out of an attempt."""

    def __init__(self, error: SourceError) -> None:
        super().__init__(error)
        self.error = error


def _too_large(cap: int, where: dict[str, Any]) -> ResponseTooLarge:
    return ResponseTooLarge(
        "response too large", detail=f"body exceeds max_response_bytes={cap:,}", **where
    )


# Errors that will not get better by retrying: the request itself is unusable.
_FATAL_REQUEST_ERRORS: tuple[type[Exception], ...] = (
    requests.exceptions.InvalidURL,
    requests.exceptions.MissingSchema,
    requests.exceptions.InvalidSchema,
    requests.exceptions.URLRequired,
    requests.exceptions.InvalidHeader,
)


def deadline_error(policy: RetryPolicy, where: dict[str, Any], *, whole_call: bool) -> Exception:
    """The error for a deadline passed: the call's is :class:`Fatal` (no attempt follows)."""
    if whole_call:
        error = DeadlineExceeded(f"call deadline of {policy.call_deadline:g}s passed", **where)
        return Fatal(error)  # the call's time is spent: no further attempt
    return DeadlineExceeded(f"attempt deadline of {policy.attempt_deadline:g}s passed", **where)


def request_error(
    exc: requests.exceptions.RequestException, where: dict[str, Any], secrets: tuple[str, ...]
) -> Exception:
    """The typed error (or :class:`Fatal`) for what ``session.request`` raised."""
    if isinstance(exc, requests.exceptions.Timeout):
        return _transport_error(SourceTimeout, "timed out", exc, where, secrets)
    if isinstance(exc, _FATAL_REQUEST_ERRORS):
        error = _transport_error(TransportError, "unusable request", exc, where, secrets)
        return Fatal(error)
    return _connection_error(exc, where, secrets)


def read_body(
    raw: requests.Response,
    *,
    cap: int,
    clock: Callable[[], float],
    attempt_end: float,
    where: dict[str, Any],
    secrets: tuple[str, ...],
    deadline: Callable[[], Exception],
) -> bytes:
    """The body of ``raw``, decompressed, within ``cap`` bytes and the attempt's deadline.

    ``deadline`` makes the error raised once ``clock()`` passes ``attempt_end``.
    """
    stream = raw.raw
    if getattr(raw, "_content", False) is not False or not hasattr(stream, "read1"):
        body = raw.content  # already read (a cache's answer) or not a urllib3 stream
        if len(body) > cap:
            raise Fatal(_too_large(cap, where))
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
        raise Fatal(_too_large(cap, where))
    out = bytearray()
    try:
        while True:
            if clock() > attempt_end:
                raise deadline()
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
                raise Fatal(_too_large(cap, where))
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
        raise _transport_error(TransportError, "connection failed", exc, where, secrets) from None
    if len(out) > cap:
        raise Fatal(_too_large(cap, where))
    return bytes(out)


# --------------------------------------------------------------------------- failures named


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
    """The typed error naming why a connection failed; causes retrying cannot cure are Fatal."""
    chain = _chain(exc)
    if any(isinstance(e, ssl.SSLCertVerificationError) for e in chain):
        error = _transport_error(
            TLSError, "TLS certificate verification failed", exc, where, secrets
        )
        return Fatal(error)
    if isinstance(exc, requests.exceptions.SSLError):
        return _transport_error(TLSError, "TLS handshake failed", exc, where, secrets)
    if any(isinstance(e, (socket.gaierror, urllib3.exceptions.NameResolutionError)) for e in chain):
        error = _transport_error(HostNotFound, "host not found", exc, where, secrets)
        return Fatal(error)
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
    detail = redact_query_secrets(scrub(f"{type(exc).__name__}: {exc}", secrets))
    return kind(message, detail=shorten(detail), **where)
