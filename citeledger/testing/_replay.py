"""ReplayTransport: a Transport answering from recorded responses (like httpx's MockTransport).

.. versionadded:: 0.2.0
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from citeledger.sources._transport import Request, Response, raise_for_status

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["ReplayTransport", "UnexpectedRequest"]


class UnexpectedRequest(AssertionError):
    """A :class:`ReplayTransport` was sent a request it has no recorded answer for.

    Deliberately outside the :class:`~citeledger.errors.CiteledgerError` tree: no adapter,
    pager or ledger catch can turn it into a recorded source failure, so the test fails loudly.

    Args:
        request: The request (its repr hides secrets).
        known: The recorded keys, for the message.
    """

    def __init__(self, request: Request, known: tuple[str, ...]) -> None:
        self.request = request
        listed = "; ".join(known) or "none"
        super().__init__(
            f"no recorded answer for {request.method} {request.redacted_url()} (recorded: {listed})"
        )


def _body(body: bytes | str | Any) -> bytes:
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode("utf-8")
    return json.dumps(body).encode("utf-8")


class ReplayTransport:
    """A :class:`~citeledger.sources._transport.Transport` replaying recorded answers.

    Each answer is keyed by method and URL (without the query string), optionally with the
    query parameters it needs: a recorded entry matches a request carrying at least those
    parameters (others, such as ``mailto`` or ``rows``, are ignored), and the most specific
    match wins. A request nothing matches raises :class:`UnexpectedRequest` (unless a
    ``fallback`` is given). An error status is raised as the
    :class:`~citeledger.errors.SourceError` a real transport would raise. Every request sent
    is kept in :attr:`requests`.

    Args:
        fallback: Answer every unmatched request with this (body, or a full ``Response``).

    >>> from citeledger.sources._transport import Request
    >>> t = ReplayTransport().add("https://api.example.org/works/1", {"id": 1})
    >>> t.add("https://api.example.org/works", {"page": 2}, params={"cursor": "next"})
    ReplayTransport(2 recorded, 0 sent)
    >>> t.send(Request(url="https://api.example.org/works/1"), source="demo").body
    b'{"id": 1}'
    >>> t.send(
    ...     Request(url="https://api.example.org/works", params={"cursor": "next", "rows": 5}),
    ...     source="demo",
    ... ).body
    b'{"page": 2}'
    >>> t.send(Request(url="https://api.example.org/nope"), source="demo")
    Traceback (most recent call last):
    ...
    citeledger.testing._replay.UnexpectedRequest: no recorded answer for GET https://api.example.org/nope (recorded: ...)
    >>> [r.url for r in t.requests]
    ['https://api.example.org/works/1', 'https://api.example.org/works', 'https://api.example.org/nope']

    .. versionadded:: 0.2.0
    """  # noqa: E501

    def __init__(self, *, fallback: bytes | str | Response | Any = None) -> None:
        self._answers: list[tuple[str, str, tuple[tuple[str, str], ...], Response]] = []
        self._fallback = (
            None
            if fallback is None
            else fallback
            if isinstance(fallback, Response)
            else Response(status=200, body=_body(fallback))
        )
        #: Every request sent, in order (matched or not).
        self.requests: list[Request] = []

    def add(
        self,
        url: str,
        body: bytes | str | Any = b"",
        *,
        method: str = "GET",
        params: Mapping[str, object] | None = None,
        status: int = 200,
        headers: Mapping[str, str] | None = None,
    ) -> ReplayTransport:
        """Record an answer; returns the transport, so calls chain.

        Args:
            url: The request URL without its query string.
            body: Bytes, text, or a JSON-able value (dumped to JSON).
            method: The HTTP method.
            params: Query parameters a request must carry to get this answer.
            status: The HTTP status (an error status is raised as a real transport would).
            headers: Response headers (``content-type``, ``retry-after``, ...).
        """
        wanted = tuple(sorted((k, str(v)) for k, v in (params or {}).items()))
        response = Response(status=status, headers=headers or {}, body=_body(body))
        self._answers.append((method.upper(), url, wanted, response))
        return self

    def _match(self, request: Request) -> Response | None:
        sent = set(request.params)
        best: tuple[int, Response] | None = None
        for method, url, wanted, response in self._answers:
            if method != request.method.upper() or url != request.url:
                continue
            if not set(wanted) <= sent:
                continue
            if best is None or len(wanted) > best[0]:
                best = (len(wanted), response)
        return None if best is None else best[1]

    def send(self, request: Request, *, source: str) -> Response:
        """The recorded answer to ``request``, as the final response of a real transport.

        Raises:
            UnexpectedRequest: nothing recorded matches (and there is no fallback).
            SourceError: the recorded status is an error status.
        """
        self.requests.append(request)
        found = self._match(request) or self._fallback
        if found is None:
            known = tuple(f"{m} {u}" + (f" {dict(p)}" if p else "") for m, u, p, _ in self._answers)
            raise UnexpectedRequest(request, known)
        response = Response(
            status=found.status,
            headers=found.headers,
            body=found.body,
            url=request.redacted_url(),
        )
        raise_for_status(response, source=source, secrets=request.secret_values())
        return response

    def __repr__(self) -> str:
        return f"ReplayTransport({len(self._answers)} recorded, {len(self.requests)} sent)"
