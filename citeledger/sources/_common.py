"""Helpers shared by the source adapters: body decoding with typed errors, identifiers, clocks.

Decoding a response body is where "HTTP 200 but unusable" is caught: an empty body, an HTML
page where JSON was expected, truncated JSON, or XML that is not well-formed (or declares
entities) each become :class:`~citeledger.errors.InvalidResponseError` carrying the source, the
redacted URL, the attempt and the status, so a pager can record it and keep what it already has.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import contextlib
import datetime as dt
import inspect
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar

from citeledger.errors import (
    CiteledgerError,
    InvalidResponseError,
    NotFoundError,
    ParseError,
    UnsafeXMLError,
)
from citeledger.formats._xml import safe_xml
from citeledger.identifiers import IDENTIFIER_TYPES, Identifier, parse_identifier
from citeledger.model import (
    Event,
    EventKind,
    Measurement,
    MeasurementKind,
    NoticeCheck,
    NoticeStatus,
    Paper,
)
from citeledger.sources import UnreadableItem, describe_unreadable
from citeledger.sources._policy import error_detail
from citeledger.sources._transport import (
    RequestsTransport,
    Response,
    RetryPolicy,
    Transport,
    default_user_agent,
    scrub,
)

if TYPE_CHECKING:
    import requests
    from lxml import etree

__all__ = [
    "Clock",
    "WorkRecord",
    "as_identifier",
    "cited_by_count",
    "decode_json",
    "decode_xml",
    "invalid_response",
    "join_url",
    "json_document",
    "json_int",
    "json_number",
    "json_text",
    "load_json",
    "load_named_json",
    "make_transport",
    "notice_check",
    "paper_or_none",
    "payload_shape",
    "read_each",
    "refuse_unreadable",
    "require_object",
    "utc_now",
    "with_first",
]

#: A callable returning the current aware UTC time (injectable for tests).
Clock = Callable[[], dt.datetime]


def utc_now() -> dt.datetime:
    """The current time, aware, in UTC."""
    return dt.datetime.now(dt.UTC)


def as_identifier(value: Identifier | str) -> Identifier:
    """A parsed identifier from an identifier or a string ``parse_identifier`` accepts.

    >>> str(as_identifier("https://doi.org/10.7717/PEERJ.4375"))
    'doi:10.7717/peerj.4375'

    Raises:
        InvalidIdentifier: the string is not an identifier.
    """
    if isinstance(value, IDENTIFIER_TYPES):
        return value
    return parse_identifier(str(value))


def invalid_response(
    response: Response, message: str, *, source: str, detail: str = ""
) -> InvalidResponseError:
    """An :class:`InvalidResponseError` about ``response``, secrets the request carried scrubbed.

    A 200 HTML page or wrong-shaped JSON may echo the request (its API key): the detail made
    from it is scrubbed exactly as error statuses are.
    """
    return InvalidResponseError(
        message,
        source=source,
        url=response.url,
        attempt=response.attempt,
        status=response.status,
        detail=scrub(detail, response.secrets),
    )


def _looks_like_html(body: bytes) -> bool:
    head = body[:512].lstrip().lower()
    return head.startswith((b"<!doctype html", b"<html")) or b"<html" in head


def _document_body(response: Response, kind: str, *, source: str) -> bytes:
    """``response``'s body, refused when it is empty or an HTML page where ``kind`` was expected.

    Raises:
        InvalidResponseError: the body is empty or an HTML page.
    """
    body = response.body
    if not body.strip():
        raise invalid_response(response, f"empty body where {kind} was expected", source=source)
    if _looks_like_html(body):
        raise invalid_response(
            response,
            f"HTML page where {kind} was expected",
            source=source,
            detail=error_detail(body, "text/html"),
        )
    return body


def decode_json(response: Response, *, source: str) -> Any:
    """The JSON document in ``response``'s body.

    Raises:
        InvalidResponseError: the body is empty, an HTML page, or not (complete) JSON.

    >>> decode_json(Response(status=200, body=b'{"a": 1}'), source="x")
    {'a': 1}
    >>> decode_json(Response(status=200, body=b'{"a": '), source="x")
    Traceback (most recent call last):
    ...
    citeledger.errors.InvalidResponseError: truncated or invalid JSON source=x status=200 attempt=1 detail='Expecting value: line 1 column 7 (char 6)'
    """  # noqa: E501
    body = _document_body(response, "JSON", source=source)
    try:
        return json.loads(body)
    except RecursionError:
        raise invalid_response(
            response, "truncated or invalid JSON", source=source, detail="nested too deeply"
        ) from None
    except (ValueError, UnicodeDecodeError) as exc:
        # Keep the position: "char 1023 of 1024" is how a truncated body shows.
        raise invalid_response(
            response, "truncated or invalid JSON", source=source, detail=str(exc)
        ) from None


def decode_xml(response: Response, *, source: str) -> etree._Element:
    """The XML root element of ``response``'s body, parsed by :func:`safe_xml`.

    Raises:
        InvalidResponseError: the body is empty, an HTML page, not well-formed XML, or XML
            declaring entities (the underlying :class:`~citeledger.errors.UnsafeXMLError` is
            chained as the cause).
    """
    body = _document_body(response, "XML", source=source)
    try:
        return safe_xml(body, source=source)
    except UnsafeXMLError as exc:
        raise invalid_response(
            response, "unsafe XML refused", source=source, detail=str(exc)
        ) from exc
    except ParseError as exc:
        raise invalid_response(
            response, "invalid XML", source=source, detail=str(exc)[:200]
        ) from None


def load_json(body: bytes | str, *, source: str) -> Any:
    """``json.loads(body)`` whose every failure is a :class:`~citeledger.errors.ParseError`.

    Besides invalid and truncated JSON that covers bytes that are not UTF-8, nesting deeper
    than the decoder's recursion limit (``[[[[...``) and integers longer than Python's
    4,300-digit conversion limit: each would otherwise leak a builtin exception.

    >>> load_json(b'{"a": [1]}', source="x")
    {'a': [1]}
    >>> load_json(b"[" * 100_000, source="x")
    Traceback (most recent call last):
    ...
    citeledger.errors.ParseError: x: not JSON: nested too deeply
    """
    try:
        return json.loads(body)
    except RecursionError:
        raise ParseError(f"{source}: not JSON: nested too deeply") from None
    except (ValueError, TypeError) as exc:  # JSONDecodeError, UnicodeDecodeError, int limit
        raise ParseError(f"{source}: not JSON: {exc}") from None


def json_document(body: bytes | Mapping[str, Any], *, source: str) -> Any:
    """``body`` as is when already decoded (a mapping), else :func:`load_json` of it.

    >>> json_document({"a": 1}, source="x"), json_document(b'{"a": 1}', source="x")
    ({'a': 1}, {'a': 1})
    """
    if isinstance(body, Mapping):
        return body
    return load_json(body, source=source)


def load_named_json(body: bytes, *, source: str, what: str) -> Any:
    """``json.loads(body)``, a failure a :class:`~citeledger.errors.ParseError` naming ``what``.

    The message shows the body's first 60 characters (Semantic Scholar, OpenCitations).

    >>> load_named_json(b"<html>", source="x", what="paper")
    Traceback (most recent call last):
    ...
    citeledger.errors.ParseError: x paper: not JSON (Expecting value: ...): '<html>'
    """
    try:
        return json.loads(body)
    except RecursionError:
        raise ParseError(f"{source} {what}: not JSON (nested too deeply)") from None
    except (ValueError, TypeError) as exc:  # also bytes that are not UTF-8, over-long ints
        shown = body[:60].decode("utf-8", "replace")
        raise ParseError(f"{source} {what}: not JSON ({exc}): {shown!r}") from exc


@contextlib.contextmanager
def payload_shape(source: str, what: str) -> Iterator[None]:
    """Turn a record of unexpected shape into a :class:`~citeledger.errors.ParseError`.

    The parsers read each field defensively, but a source can put a number where a list
    belongs in places nobody thought of; reading such a record must fail as a typed error of
    that record (so list parsers skip it and keep the others), never as a ``TypeError`` or
    ``AttributeError`` from deep inside. The original exception is chained as the cause.

    >>> with payload_shape("x", "work"):
    ...     len(5)
    Traceback (most recent call last):
    ...
    citeledger.errors.ParseError: x: work of unexpected shape (TypeError: object of type 'int' has no len())
    """  # noqa: E501
    try:
        yield
    except ParseError:
        raise
    except (CiteledgerError, TypeError, AttributeError, KeyError, IndexError, ValueError) as exc:
        raise ParseError(
            f"{source}: {what} of unexpected shape ({type(exc).__name__}: {exc})"
        ) from exc


def notice_check(
    events: Sequence[Event],
    skipped: Sequence[UnreadableItem],
    *,
    what: str,
    sources: tuple[str, ...],
    checked: dt.datetime,
    subject: Identifier | None,
) -> NoticeCheck:
    """The check for ``events`` read from notices of which ``skipped`` could not be read.

    With every notice read: events found, or none found as of ``checked``. An unreadable notice
    may be the retraction, so it never becomes "none found" nor an events-found check that
    reads as "not retracted": unless a retraction was read (then it is certain, and the check
    is events found with a ``reason`` naming the unreadable notices), the check is
    *unavailable*, keeping the events that were read and saying what could not be.

    >>> bad = UnreadableItem(source="x", what="update", index=1, reason="not an object")
    >>> now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    >>> check = notice_check([], [bad], what="updates", sources=("x",), checked=now, subject=None)
    >>> check.status.value, check.reason
    ('unavailable', 'updates could not be read: 1 unreadable (x update at index 1: not an object)')
    """
    if not skipped:
        if events:
            return NoticeCheck.found(events, sources=sources, checked=checked, subject=subject)
        return NoticeCheck.none_found(sources=sources, checked=checked, subject=subject)
    reason = f"{what} could not be read: {describe_unreadable(skipped)}"
    if any(e.kind is EventKind.RETRACTION for e in events):
        status = NoticeStatus.EVENTS_FOUND
    else:
        status = NoticeStatus.UNAVAILABLE
        if events:
            kinds = ", ".join(dict.fromkeys(e.kind.value.replace("_", " ") for e in events))
            reason += f"; no retraction among those read ({kinds})"
    return NoticeCheck(
        status=status,
        events=tuple(events),
        sources=sources,
        checked=checked,
        subject=subject,
        reason=reason,
    )


def cited_by_count(
    count: int | None, *, source: str, clock: Clock, subject: Identifier | None
) -> list[Measurement]:
    """A work record's cited-by ``count`` as one measurement dated by ``clock`` (``[]`` for None).

    The clock is read only when there is a count.

    >>> now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    >>> [m.value for m in cited_by_count(57, source="x", clock=lambda: now, subject=None)]
    [57]
    >>> cited_by_count(None, source="x", clock=lambda: now, subject=None)
    []
    """
    if count is None:
        return []
    return [
        Measurement(
            value=count,
            source=source,
            observed=clock(),
            kind=MeasurementKind.CITED_BY,
            subject=subject,
        )
    ]


_T = TypeVar("_T")
_A = TypeVar("_A")
_P = ParamSpec("_P")


class WorkRecord(Protocol):
    """A source's full record of a work, holding the work's paper."""

    @property
    def paper(self) -> Paper: ...


def paper_or_none(
    work: Callable[[Identifier | str], WorkRecord], identifier: Identifier | str
) -> Paper | None:
    """The paper of ``work(identifier)``, or None when the source does not know the work.

    The body of :meth:`~citeledger.sources.PaperSource.paper` for an adapter that reads a full
    record (its ``work()``): only a 404 (:class:`~citeledger.errors.NotFoundError`) is None,
    every other failure raises.
    """
    try:
        return work(identifier).paper
    except NotFoundError:
        return None


def with_first(
    fn: Callable[Concatenate[_A, _P], _T], first: _A, *, name: str, doc: str
) -> Callable[_P, _T]:
    """``fn`` with its first argument fixed: a named, documented function of the others.

    For public functions that differ only in that argument (a request builder per endpoint):
    the signature and body are written once, in ``fn``; each public name binds its value. The
    result shows ``fn``'s other parameters as its signature and checks like it.

    >>> def greet(greeting: str, name: str, *, end: str = "!") -> str:
    ...     return f"{greeting}, {name}{end}"
    >>> hello = with_first(greet, "Hello", name="hello", doc="Say hello.")
    >>> hello("you"), hello.__name__, str(inspect.signature(hello))
    ('Hello, you!', 'hello', "(name: 'str', *, end: 'str' = '!') -> 'str'")
    """

    def bound(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        return fn(first, *args, **kwargs)

    signature = inspect.signature(fn)
    rest = list(signature.parameters.values())[1:]
    bound.__dict__["__signature__"] = signature.replace(parameters=rest)
    bound.__name__ = bound.__qualname__ = name
    bound.__doc__ = doc
    bound.__module__ = fn.__module__
    return bound


def require_object(value: object, what: str) -> Mapping[str, Any]:
    """``value`` if it is a JSON object, else a :class:`ParseError` naming ``what`` it was.

    >>> require_object(5, "crossref: work-list item")
    Traceback (most recent call last):
    ...
    citeledger.errors.ParseError: crossref: work-list item is of type int, not an object
    """
    if not isinstance(value, Mapping):
        raise ParseError(f"{what} is of type {type(value).__name__}, not an object")
    return value


def json_int(value: object) -> int | None:
    """``value`` where a JSON payload holds an integer (``isinstance(value, int)``), else None.

    >>> json_int(3), json_int("3"), json_int(None)
    (3, None, None)
    """
    return value if isinstance(value, int) else None


def json_number(value: object) -> float | None:
    """``value`` as a float where a JSON payload holds a number, else None.

    >>> json_number(2), json_number(0.5), json_number("2")
    (2.0, 0.5, None)
    """
    return float(value) if isinstance(value, int | float) else None


def json_text(value: object) -> str | None:
    """``value`` where a JSON payload holds a non-empty string, else None.

    >>> json_text("AoE"), json_text(""), json_text(7)
    ('AoE', None, None)
    """
    return value if isinstance(value, str) and value else None


def read_each(
    items: Iterable[Any], parse: Callable[[Any], _T], *, source: str, what: str
) -> tuple[list[_T], list[UnreadableItem]]:
    """Parse each item of a list payload: the readable ones in order, and the others recorded.

    An item whose ``parse`` raises :class:`ParseError` costs the list nothing else: it becomes
    an :class:`UnreadableItem` (``source``, ``what``, its index, the error as the reason, an
    excerpt), the way every list parser keeps the rest of a page.

    >>> rows, skipped = read_each(
    ...     [{"a": 1}, 5], lambda v: require_object(v, "row"), source="s", what="row"
    ... )
    >>> rows, [(u.index, u.reason) for u in skipped]
    ([{'a': 1}], [(1, 'row is of type int, not an object')])
    """
    out: list[_T] = []
    skipped: list[UnreadableItem] = []
    for index, item in enumerate(items):
        try:
            out.append(parse(item))
        except ParseError as exc:
            skipped.append(UnreadableItem.of(source, what, index, exc, item))
    return out, skipped


def refuse_unreadable(skipped: Sequence[UnreadableItem], what: str, lenient: str) -> None:
    """The strict form of a lenient parser: raise for the first item it could not read.

    ``what`` names the item ("openretractions: update"), ``lenient`` the parser that keeps the
    others instead.

    Raises:
        ParseError: ``skipped`` is not empty.
    """
    if skipped:
        first = skipped[0]
        raise ParseError(
            f"{what} {first.index} cannot be read ({first.reason}); {lenient}() keeps the others"
        )


def join_url(base: str, path: str) -> str:
    """``base`` (a service root, maybe with a path prefix) joined with ``path``.

    >>> join_url("http://127.0.0.1:8080/", "/works")
    'http://127.0.0.1:8080/works'
    """
    return base.rstrip("/") + "/" + path.lstrip("/")


def make_transport(
    transport: Transport | None,
    *,
    session: requests.Session | None = None,
    policy: RetryPolicy | None = None,
    min_interval: float = 0.0,
    mailto: str | None = None,
    user_agent: str | None = None,
) -> Transport:
    """The injected transport, or a :class:`RequestsTransport` built from the options."""
    if transport is not None:
        return transport
    return RequestsTransport(
        session,
        policy=policy,
        min_interval=min_interval,
        user_agent=user_agent or default_user_agent(mailto),
    )
