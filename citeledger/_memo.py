"""Per-build memos: one request per (source, request) and one call per (source, capability, id).

:func:`~citeledger.build_record` asks each source for several capabilities about the same work
(the paper, its references, its events, its counts). Crossref and OpenAlex answer all of them
from the same ``/works/{id}`` document, so without a memo one record fetched that document four
or five times. Two memos live exactly as long as one ``build_record`` call (no module-level
state, nothing shared between builds or threads):

* :class:`MemoTransport` wraps a source's transport: the same request (method, URL, query,
  headers, body) is sent once; its response, or its failure, is replayed. Bodies are kept up to
  a byte budget, so paging through 10,000 citing works does not hold every page.
* :class:`CallMemo` remembers each (source, method, arguments) call's outcome, for sources
  that do not send through a transport (the sample, in-memory and dump sources).

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citeledger.errors import SourceError

if TYPE_CHECKING:
    from citeledger.sources._transport import Request, Response, Transport

__all__ = ["MEMO_BYTES", "CallMemo", "MemoTransport"]

#: Response bytes one build keeps for replay (per source); larger responses are not kept.
MEMO_BYTES = 32 * 1024 * 1024

_RequestKey = tuple[str, str, tuple[tuple[str, str], ...], tuple[tuple[str, str], ...], str | None]


def _request_key(request: Request) -> _RequestKey:
    return (request.method, request.url, request.params, request.headers, request.json_body)


class MemoTransport:
    """A transport that sends each distinct request once and replays the outcome.

    A failure (a :class:`~citeledger.errors.SourceError` after the inner transport's retries)
    is replayed too: asking again within one build would only repeat the retries and the wait.

    Args:
        inner: The source's own transport (pacing, retries and secrets stay its business).
        budget: Response bytes to keep; a response that does not fit is passed through unkept.
    """

    def __init__(self, inner: Transport, *, budget: int = MEMO_BYTES) -> None:
        self.inner = inner
        self.budget = budget
        self.kept = 0
        #: Requests actually sent through ``inner``.
        self.sent = 0
        #: Requests answered from the memo.
        self.replayed = 0
        self._responses: dict[_RequestKey, Response] = {}
        self._failures: dict[_RequestKey, SourceError] = {}

    def __repr__(self) -> str:
        return f"<MemoTransport sent={self.sent} replayed={self.replayed} over {self.inner!r}>"

    def send(self, request: Request, *, source: str) -> Response:
        """Send ``request`` through the inner transport unless it was sent in this build."""
        key = _request_key(request)
        if key in self._responses:
            self.replayed += 1
            return self._responses[key]
        if key in self._failures:
            self.replayed += 1
            raise self._failures[key].with_traceback(None)
        self.sent += 1
        try:
            response = self.inner.send(request, source=source)
        except SourceError as exc:
            self._failures[key] = exc
            raise
        size = len(response.body)
        if self.kept + size <= self.budget:
            self._responses[key] = response
            self.kept += size
        return response


class CallMemo:
    """Outcomes of source calls in one build, keyed by (source, method, arguments)."""

    def __init__(self) -> None:
        self._outcomes: dict[tuple[int, str, str], Any] = {}
        self.hits = 0

    @staticmethod
    def key(
        source: object, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[int, str, str]:
        """The memo key: the source object, the method and the arguments as text."""
        text = repr([str(a) for a in args]) + repr(sorted((k, str(v)) for k, v in kwargs.items()))
        return (id(source), method, text)

    def get(self, key: tuple[int, str, str]) -> Any:
        """The stored outcome, or None."""
        found = self._outcomes.get(key)
        if found is not None:
            self.hits += 1
        return found

    def put(self, key: tuple[int, str, str], outcome: Any) -> None:
        """Store an outcome (never None)."""
        self._outcomes[key] = outcome
