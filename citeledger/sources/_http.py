"""The HTTP edge every web adapter holds: one object, not a mixin or copied plumbing.

An adapter's pure half builds :class:`~citeledger.sources._transport.Request` values and parses
bytes; its edge is an :class:`HttpEdge` holding what every web adapter needs around that: the
injected :class:`~citeledger.sources._transport.Transport`, the base URL, the secret (an API key
or token, never shown), headers added to every request, the repr that redacts the secret, and
the few ways an answer is read (JSON, XML or bytes through a parser), each turning an unusable
body into :class:`~citeledger.errors.InvalidResponseError`. The edge only calls the
``Transport`` protocol.

Every web adapter derives from :class:`HttpSource`, which holds the rest once: the keyword
options each constructor takes to reach its service (:class:`EdgeOptions`, with ``mailto``
:class:`ContactOptions`, taken by a :class:`ContactSource`), the edge built from them,
``transport`` (an :class:`EdgeTransport` attribute reading and writing the edge's) and
``with_transport()`` (:meth:`HttpEdge.clone_onto`), so an adapter satisfies
:class:`~citeledger.sources.TransportBound` and the ledger can share one request memo per build.

>>> edge = HttpEdge.build(
...     "demo", transport=None, session=None, policy=None, min_interval=0.0, api_key="s3cret"
... )
>>> edge.describe("DemoSource", base_url="https://example.org")
"DemoSource(base_url='https://example.org', api_key=REDACTED)"

.. versionadded:: 0.2.0
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self, TypedDict, TypeVar, overload

import attrs
from attrs import field, frozen

from citeledger.errors import ParseError
from citeledger.sources._common import decode_json, decode_xml, invalid_response, make_transport

if TYPE_CHECKING:
    from collections.abc import Callable

    import requests
    from lxml import etree

    from citeledger.sources._transport import Request, Response, RetryPolicy, Transport

__all__ = [
    "ContactOptions",
    "ContactSource",
    "EdgeOptions",
    "EdgeTransport",
    "HttpEdge",
    "HttpSource",
]

_T = TypeVar("_T")
_Owner = TypeVar("_Owner", bound="_HasEdge")


@frozen(kw_only=True)
class HttpEdge:
    """What a web adapter sends through: transport, base URL, secret and answer decoding.

    Args:
        source: The adapter's name, carried by every request and error ("crossref").
        transport: Where requests go.
        base_url: The service root the adapter's request builders are given (None: theirs).
        api_key: The adapter's secret (API key, token); never in a repr. How it is sent is the
            adapter's business: a request builder's argument or a ``secret_headers`` entry.
        secret_headers: Headers added to every request, their values redacted in logs and
            errors (``Crossref-Plus-API-Token``).

    .. versionadded:: 0.2.0
    """

    source: str
    transport: Transport
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    secret_headers: tuple[tuple[str, str], ...] = field(default=(), repr=False)

    @classmethod
    def build(
        cls,
        source: str,
        *,
        transport: Transport | None,
        session: requests.Session | None,
        policy: RetryPolicy | None,
        min_interval: float,
        mailto: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        secret_headers: tuple[tuple[str, str], ...] = (),
    ) -> HttpEdge:
        """The edge of an adapter given its constructor options.

        ``transport`` is used as is; without one a
        :class:`~citeledger.sources._transport.RequestsTransport` is built over ``session``
        with ``policy``, ``min_interval`` and a User-Agent naming ``mailto``.
        """
        return cls(
            source=source,
            transport=make_transport(
                transport, session=session, policy=policy, min_interval=min_interval, mailto=mailto
            ),
            base_url=base_url,
            api_key=api_key,
            secret_headers=secret_headers,
        )

    def with_transport(self, transport: Transport) -> HttpEdge:
        """This edge sending through ``transport`` (everything else kept)."""
        return attrs.evolve(self, transport=transport)

    def clone_onto(self, owner: _Owner, transport: Transport) -> _Owner:
        """A shallow copy of the adapter ``owner`` whose edge sends through ``transport``.

        The body of every adapter's ``with_transport()``.
        """
        clone = copy.copy(owner)
        clone._http = self.with_transport(transport)  # noqa: SLF001 - the edge owns _http
        return clone

    def describe(self, kind: str, **shown: object) -> str:
        """``Kind(k=v, ..., api_key=REDACTED)``: an adapter's repr, the secret never shown."""
        parts = [f"{name}={value!r}" for name, value in shown.items()]
        if self.api_key:
            parts.append("api_key=REDACTED")
        return f"{kind}({', '.join(parts)})"

    # -- sending

    def send(self, request: Request) -> Response:
        """Send ``request`` (with the secret headers) through the transport.

        Raises:
            SourceError: the request failed after the transport's retries.
        """
        if self.secret_headers:
            request = attrs.evolve(
                request,
                headers=(*request.headers, *self.secret_headers),
                secret_headers=request.secret_headers | {k for k, _ in self.secret_headers},
            )
        return self.transport.send(request, source=self.source)

    def json(self, request: Request) -> tuple[Response, Any]:
        """Send ``request``; the response and its JSON document.

        Raises:
            InvalidResponseError: the body is empty, an HTML page, or not (complete) JSON.
        """
        response = self.send(request)
        return response, decode_json(response, source=self.source)

    def json_as(self, request: Request, parse: Callable[[Any], _T], what: str) -> _T:
        """Send ``request`` and ``parse`` its JSON document.

        Raises:
            InvalidResponseError: the body is not (complete) JSON, or ``parse`` raised a
                :class:`~citeledger.errors.ParseError` ("not <what>", its message as the detail).
        """
        response, data = self.json(request)
        try:
            return parse(data)
        except ParseError as exc:
            raise invalid_response(
                response, f"not {what}", source=self.source, detail=str(exc)
            ) from None

    def xml(self, request: Request) -> tuple[Response, etree._Element]:
        """Send ``request``; the response and its XML root, parsed by the one XML guard.

        Raises:
            InvalidResponseError: the body is empty, HTML, not well-formed or unsafe XML.
        """
        response = self.send(request)
        return response, decode_xml(response, source=self.source)

    def read(self, response: Response, parser: Callable[[bytes], _T]) -> _T:
        """``parser(response.body)``, a :class:`~citeledger.errors.ParseError` made typed.

        Raises:
            InvalidResponseError: the parser could not read the body ("unusable response
                body", the parse error's start as the detail).
        """
        try:
            return parser(response.body)
        except ParseError as exc:
            raise invalid_response(
                response, "unusable response body", source=self.source, detail=str(exc)[:200]
            ) from None

    def get(self, request: Request, parser: Callable[[bytes], _T]) -> _T:
        """Send ``request`` and :meth:`read` the answer with ``parser``."""
        return self.read(self.send(request), parser)


class _HasEdge(Protocol):
    """An adapter holding an :class:`HttpEdge` as ``_http``."""

    _http: HttpEdge


class EdgeTransport:
    """An adapter's ``transport`` attribute: its edge's transport, settable.

    Reading gives ``adapter._http.transport``; assigning replaces the edge with one sending
    through the new transport (the edge itself is frozen), so ``adapter.transport`` and
    ``with_transport()`` make the adapter a :class:`~citeledger.sources.TransportBound`.
    """

    @overload
    def __get__(self, obj: None, objtype: type[Any] | None = None) -> EdgeTransport: ...

    @overload
    def __get__(self, obj: _HasEdge, objtype: type[Any] | None = None) -> Transport: ...

    def __get__(self, obj: _HasEdge | None, objtype: type[Any] | None = None) -> object:
        if obj is None:
            return self
        return obj._http.transport  # noqa: SLF001 - the edge owns _http

    def __set__(self, obj: _HasEdge, value: Transport) -> None:
        obj._http = obj._http.with_transport(value)  # noqa: SLF001 - the edge owns _http


class EdgeOptions(TypedDict, total=False):
    """The keyword options every web adapter's constructor takes to reach its service.

    Each adapter documents them among its own arguments and gives its own ``min_interval``
    default; none is required.

    The keys:

    * ``base_url``: Replaces the service root.
    * ``api_key``: The service's secret (API key, token), never shown.
    * ``transport``: Send through this transport (then ``session``, ``policy`` and
      ``min_interval`` are not used).
    * ``session``: A :class:`requests.Session` (or ``requests_cache.CachedSession``) for the
      default transport.
    * ``policy``: Retry policy of the default transport.
    * ``min_interval``: Seconds between requests of the default transport.
    """

    base_url: str | None
    api_key: str | None
    transport: Transport | None
    session: requests.Session | None
    policy: RetryPolicy | None
    min_interval: float


class ContactOptions(EdgeOptions, total=False):
    """:class:`EdgeOptions` and ``mailto``, a contact address put in the User-Agent."""

    mailto: str | None


class HttpSource:
    """The base of a web adapter: the edge it sends through, built from its :class:`EdgeOptions`.

    A subclass sets ``name`` and calls :meth:`_connect` from its constructor with the options it
    was given; an adapter that also takes ``mailto`` derives from :class:`ContactSource`.
    """

    #: Short stable name ("crossref"), carried by every request and error.
    name: str
    #: The option names the constructor takes besides its own arguments.
    _accepts: ClassVar[frozenset[str]] = EdgeOptions.__optional_keys__
    transport = EdgeTransport()
    _http: HttpEdge

    def _connect(
        self,
        options: EdgeOptions,
        *,
        base_url: str | None,
        min_interval: float,
        mailto: str | None = None,
        secret_headers: tuple[tuple[str, str], ...] = (),
    ) -> None:
        """Build the edge from the constructor's ``options`` and the adapter's own defaults.

        Raises:
            TypeError: an option the adapter does not take, as Python says it of a keyword.
        """
        unknown = sorted(options.keys() - self._accepts)
        if unknown:
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                f"{unknown[0]!r}"
            )
        self._http = HttpEdge.build(
            self.name,
            transport=options.get("transport"),
            session=options.get("session"),
            policy=options.get("policy"),
            min_interval=options.get("min_interval", min_interval),
            mailto=mailto,
            base_url=base_url,
            api_key=options.get("api_key"),
            secret_headers=secret_headers,
        )

    def with_transport(self, transport: Transport) -> Self:
        """A copy of this source sending through ``transport`` (settings and secrets kept)."""
        return self._http.clone_onto(self, transport)


class ContactSource(HttpSource):
    """A web adapter with a service root of its own that also takes ``mailto``.

    A subclass sets ``_default_base_url`` and calls :meth:`_reach` from its constructor, which
    keeps the contact address as :attr:`mailto` and builds the edge on the given root or the
    default one (:attr:`base_url`).
    """

    _accepts = ContactOptions.__optional_keys__
    #: The service root when the constructor is given no ``base_url``.
    _default_base_url: ClassVar[str]
    #: The contact address the constructor was given (``mailto``), if any.
    mailto: str | None

    def _reach(
        self,
        options: ContactOptions,
        *,
        min_interval: float,
        secret_headers: tuple[tuple[str, str], ...] = (),
    ) -> None:
        """:meth:`_connect` on the adapter's root, ``mailto`` kept and put in the User-Agent.

        Raises:
            TypeError: an option the adapter does not take, as Python says it of a keyword.
        """
        self.mailto = options.get("mailto")
        self._connect(
            options,
            base_url=options.get("base_url") or self._default_base_url,
            min_interval=min_interval,
            mailto=self.mailto,
            secret_headers=secret_headers,
        )

    @property
    def base_url(self) -> str:
        """The API root requests go to."""
        return self._http.base_url or self._default_base_url
