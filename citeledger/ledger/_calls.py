"""How the builder asks sources: a :class:`_Caller` per build, a source as the resolver sees it.

Every call's outcome becomes a :class:`~citeledger.ledger.SourceReport`; nothing a source does
(failing, raising any exception, answering a wrong type, lacking a capability, stopping
mid-paging, never returning) escapes as an exception or holds the build: each call runs in a
worker thread the builder stops waiting for at the source deadline (:data:`SOURCE_DEADLINE`).
``KeyboardInterrupt`` and ``SystemExit`` still propagate. What a source can be asked is read from
the capability protocols of :mod:`citeledger.sources._protocols` with ``isinstance``, never from
method names looked up as strings.
"""

from __future__ import annotations

import contextvars
import threading
from typing import TYPE_CHECKING, Any, TypeVar

from citeledger._memo import CallMemo, MemoTransport
from citeledger._text import key_text
from citeledger.errors import (
    CiteledgerError,
    DeadlineExceeded,
    NotFoundError,
    SourceCrashed,
    SourceError,
    UnsupportedCapability,
)
from citeledger.identifiers import work_key
from citeledger.ledger.record import Outcome, SourceReport
from citeledger.sources import Capability, Paged, SearchResults, Source, UnreadableItem
from citeledger.sources._protocols import (
    PaperSource,
    ProvenanceSource,
    SearchSource,
    TransportBound,
)
from citeledger.sources._transport import Transport

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from citeledger.identifiers import Identifier
    from citeledger.model import Paper, Reference

T = TypeVar("T")

#: What :meth:`_Caller.call` returns: (answered, value, the report of a failed call).
CallOutcome = tuple[bool, Any, SourceReport | None]

#: Seconds the builder waits for one source call, and again for draining one listing, before
#: abandoning it (``build_record(source_deadline=...)``; None waits forever). Longer than the
#: HTTP transport's own per-call deadline (300 s), which bounds the adapters first.
SOURCE_DEADLINE = 600.0


def _bounded(fn: Callable[[], T], deadline: float | None, *, source: str, what: str) -> T:
    """``fn()`` in a daemon worker thread; :class:`DeadlineExceeded` when it outlives ``deadline``.

    A thread cannot be killed: an abandoned call keeps running in the background until it
    returns on its own (HTTP adapters are bounded by the transport's deadlines); its result is
    dropped. What ``fn`` raises is raised here, ``KeyboardInterrupt`` and ``SystemExit`` included.
    """
    if deadline is None:
        return fn()
    box: dict[str, Any] = {}
    done = threading.Event()
    context = contextvars.copy_context()

    def run() -> None:
        try:
            box["value"] = context.run(fn)
        except BaseException as exc:
            box["error"] = exc
        finally:
            done.set()

    worker = threading.Thread(target=run, name=f"citeledger {source} {what}", daemon=True)
    worker.start()
    if not done.wait(deadline):
        msg = f"no answer within the source deadline of {deadline:g} s; the call was abandoned"
        raise DeadlineExceeded(msg, source=source)
    if "error" in box:
        raise box["error"]
    value: T = box["value"]
    return value


def _crash(exc: Exception, source: str) -> SourceCrashed:
    """A source's stray exception as a :class:`SourceCrashed` (its class name kept)."""
    text = str(exc) or repr(exc)
    return SourceCrashed(
        f"{type(exc).__name__}: {text}", source=source, cause_type=type(exc).__name__
    )


def _error_type(exc: BaseException) -> str:
    """The class name a report shows: what the source raised, for a contained crash."""
    if isinstance(exc, SourceCrashed) and exc.cause_type:
        return exc.cause_type
    return type(exc).__name__


def _error_text(exc: BaseException) -> str:
    if isinstance(exc, SourceCrashed):
        return exc.message.partition(": ")[2] or exc.message
    return exc.message if isinstance(exc, SourceError) else str(exc)


def _name(src: object) -> str:
    """The source's name (a class name for an object that is not a :class:`Source`)."""
    return src.name if isinstance(src, Source) else type(src).__name__


def _capabilities(src: object) -> frozenset[Capability] | None:
    """What the source declares it offers; None for an object that is not a :class:`Source`."""
    return src.capabilities if isinstance(src, Source) else None


class _Caller:
    """Calls sources for one build: records every outcome, memoizes, reports progress.

    ``call()`` returns ``(answered, value, failure)``; ``failure`` is the report of a failed
    or unsupported call. The same (source, method, arguments) is asked once per build: a repeat
    returns the first outcome without a new report (nothing is asked, so nothing new happened).
    """

    def __init__(
        self,
        reports: list[SourceReport],
        advance: Callable[[int], None],
        *,
        deadline: float | None = SOURCE_DEADLINE,
    ) -> None:
        self.reports = reports
        self.memo = CallMemo()
        self.advance = advance
        self.deadline = deadline

    def call(
        self,
        src: Source,
        capability: Capability | None,
        method: str,
        fn: Callable[..., Any] | None,
        *args: Any,
        subject: str | None = None,
        memo: bool = True,
        **kwargs: Any,
    ) -> CallOutcome:
        """Call ``fn(*args, **kwargs)``, the ``method`` of ``src``; record what happened.

        ``fn`` is None when ``src`` lacks the capability's protocol (the call site tests it
        with ``isinstance``): the call is reported unsupported, as is a source whose
        ``capabilities`` do not include ``capability`` or whose method raises
        :class:`~citeledger.errors.UnsupportedCapability`. ``capability`` None: an optional
        method no capability gates; its outcome is reported under the method's name.
        """
        key = CallMemo.key(src, method, args, kwargs) if memo else None
        if key is not None:
            found = self.memo.get(key)
            if found is not None:
                ok, value, failure = found
                return ok, value, failure
        outcome = self._call(src, capability, method, fn, args, kwargs, subject)
        self.advance(1)
        if key is not None:
            self.memo.put(key, outcome)
        return outcome

    def _fail(self, report: SourceReport) -> CallOutcome:
        self.reports.append(report)
        return False, None, report

    def _call(  # noqa: PLR0917 - private; mirrors call()'s parts
        self,
        src: Source,
        capability: Capability | None,
        method: str,
        fn: Callable[..., Any] | None,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        subject: str | None,
    ) -> CallOutcome:
        name = _name(src)
        caps = _capabilities(src)
        # Page hooks are not gated by ``capabilities``; their method name is their Capability.
        label = capability if capability is not None else Capability(method)
        unsupported = SourceReport(
            source=name, capability=label, outcome=Outcome.UNSUPPORTED, subject=subject
        )
        gated = capability is not None and caps is not None and capability not in caps
        if gated or fn is None:
            return self._fail(unsupported)
        call = fn
        try:
            value = _bounded(lambda: call(*args, **kwargs), self.deadline, source=name, what=label)
        except UnsupportedCapability:
            return self._fail(unsupported)
        except SourceError as exc:
            return self._fail(
                SourceReport(
                    source=name,
                    capability=label,
                    outcome=Outcome.NOT_FOUND if _not_found(exc) else Outcome.ERROR,
                    error=_error_text(exc),
                    error_type=_error_type(exc),
                    subject=subject,
                )
            )
        except Exception as exc:
            # A payload the adapter could not read (ParseError, ...) or a plug-in's own bug
            # (KeyError, RuntimeError, ...) is that source's failure, named by its class.
            return self._fail(
                SourceReport(
                    source=name,
                    capability=label,
                    outcome=Outcome.ERROR,
                    error=str(exc) or repr(exc),
                    error_type=type(exc).__name__,
                    subject=subject,
                )
            )
        return True, value, None

    def guarded(self, src: Source, what: str, fn: Callable[[], T]) -> T:
        """``fn()`` (a direct call of ``src``) under the source deadline, contained.

        For call sites that read a source's answer themselves (the inbound check): what the
        source raises outside the error tree comes back as :class:`SourceCrashed`, and a call
        outliving the deadline as ``DeadlineExceeded``, both :class:`SourceError`.
        ``KeyboardInterrupt`` and ``SystemExit`` propagate.
        """
        try:
            return _bounded(fn, self.deadline, source=_name(src), what=what)
        except CiteledgerError:
            raise
        except Exception as exc:
            raise _crash(exc, _name(src)) from exc

    def wrong_type(
        self, src: Source, capability: str, value: object, expected: str, subject: str | None
    ) -> SourceReport:
        """Report a call that answered ``value`` where ``expected`` belongs (a failed call)."""
        report = SourceReport(
            source=_name(src),
            capability=capability,
            outcome=Outcome.ERROR,
            error=f"answered {_type_label(value)}, not {expected}",
            error_type="WrongType",
            subject=subject,
        )
        self.reports.append(report)
        return report

    def drain(
        self, src: Source, it: Iterable[T], cap: int | None
    ) -> tuple[list[T], bool, SourceError | None, bool]:
        """:func:`_iterate` under the source deadline; what arrived before it is kept."""
        items: list[T] = []
        stop = threading.Event()
        try:
            return _bounded(
                lambda: _iterate(it, cap, self.advance, items=items, stop=stop),
                self.deadline,
                source=_name(src),
                what="listing",
            )
        except DeadlineExceeded as exc:
            stop.set()
            kept = list(items)
            return kept, False, exc, False


def _type_label(value: object) -> str:
    """``"None"`` or "a str" / "a dict": what a wrong answer was."""
    return "None" if value is None else f"a {type(value).__name__}"


def _not_found(exc: SourceError) -> bool:
    """A 404 or a :class:`~citeledger.errors.NotFoundError`: the source does not know the work."""
    return isinstance(exc, NotFoundError) or getattr(exc, "status", None) == 404


def _wrong_item(source: str, what: str, index: int, item: object) -> UnreadableItem:
    """An item of the wrong type in a source's answer (a str where an observation belongs)."""
    got = "None" if item is None else f"a {type(item).__name__}"
    return UnreadableItem.of(source, what, index, f"{got}, not a {what}", item)


def _wrong_items(
    source: str, what: str, items: Sequence[object], kind: type
) -> tuple[UnreadableItem, ...]:
    return tuple(
        _wrong_item(source, what, i, item)
        for i, item in enumerate(items)
        if not isinstance(item, kind)
    )


def _with_memo_transport(src: Source) -> Source:
    """The source sending through a fresh per-build :class:`MemoTransport`, when it can."""
    if not isinstance(src, TransportBound) or not isinstance(src.transport, Transport):
        return src
    try:
        copied: object = src.with_transport(MemoTransport(src.transport))
    except Exception:  # a broken optional hook must not cost the record
        return src
    return copied if isinstance(copied, Source) else src


def _provenance(src: Source, ident: Identifier, capability: Capability) -> tuple[str, ...]:
    """The tables or endpoints behind ``capability`` when the source names them, else its name."""
    if isinstance(src, ProvenanceSource):
        try:
            names = src.provenance(ident, capability)
        except Exception:  # a broken optional hook must not cost the record
            names = ()
        if names:
            return tuple(str(n) for n in names)
    return (src.name,)


class _SourceCandidates:
    """A source as a resolver candidate provider (identifier lookups and searches).

    Errors are recorded, never raised: a source that fails leaves the reference to the others.
    """

    def __init__(self, src: Source, caller: _Caller) -> None:
        self._src = src
        self._caller = caller
        self._seen: dict[str, list[Paper]] = {}

    def by_identifier(self, ident: Identifier) -> list[Paper]:
        key = f"id:{work_key(ident)}"
        if key not in self._seen:
            src = self._src
            fn = src.paper if isinstance(src, PaperSource) else None
            ok, paper, _ = self._caller.call(
                src, Capability.PAPER, "paper", fn, ident, subject=str(ident)
            )
            self._seen[key] = [paper] if ok and paper is not None else []
        return self._seen[key]

    def candidates(self, ref: Reference, *, limit: int) -> list[Paper]:
        if not ref.title:
            return []
        key = f"q:{key_text(ref.title)}"
        if key not in self._seen:
            subject = ref.title[:60]
            src = self._src
            fn = src.search if isinstance(src, SearchSource) else None
            ok, found, _ = self._caller.call(
                src, Capability.SEARCH, "search", fn, ref, limit=limit, subject=subject
            )
            self._seen[key] = list(found or []) if ok else []
            unread = _search_skipped(found) if ok else ()
            if unread:
                # Candidates the source sent but could not read: one may have been the match,
                # so the search is reported partial (the readable candidates are still used).
                self._caller.reports.append(
                    SourceReport(
                        source=_name(src),
                        capability=Capability.SEARCH,
                        outcome=Outcome.PARTIAL,
                        fetched=len(self._seen[key]),
                        total=len(self._seen[key]) + len(unread),
                        subject=subject,
                        unreadable=unread,
                    )
                )
        return self._seen[key]


def _search_skipped(found: object) -> tuple[UnreadableItem, ...]:
    """The unreadable results a search answer carries (a plain list carries none)."""
    if not isinstance(found, SearchResults):
        return ()
    return tuple(found.skipped)


def _iterate(
    it: Iterable[T],
    cap: int | None,
    advance: Callable[[int], None],
    *,
    items: list[T] | None = None,
    stop: threading.Event | None = None,
) -> tuple[list[T], bool, SourceError | None, bool]:
    """Drain ``it`` up to ``cap``; returns (items, capped, error, complete).

    Anything the listing raises ends the drain as its error (a stray exception becomes a
    :class:`~citeledger.errors.SourceCrashed`); what came before is kept. ``items`` receives
    the items as they arrive and ``stop`` ends the drain early (an abandoned listing).
    """
    items = [] if items is None else items
    error: SourceError | None = None
    capped = False
    complete = False
    name = "source"
    try:
        iterator = iter(it)
    except Exception as exc:
        return items, False, _crash(exc, name), False
    while True:
        if stop is not None and stop.is_set():
            break
        if cap is not None and len(items) >= cap:
            # Peek: only a further item means the cap actually cut the listing.
            try:
                next(iterator)
            except StopIteration:
                complete = True
            except SourceError as exc:
                error = exc
            except Exception as exc:
                error = _crash(exc, name)
            else:
                capped = True
            break
        try:
            items.append(next(iterator))
        except StopIteration:
            complete = True
            break
        except SourceError as exc:  # a plain iterator that raises mid-way
            error = exc
            break
        except Exception as exc:
            error = _crash(exc, name)
            break
        advance(1)
    if isinstance(it, Paged):
        error = error or it.error
        complete = complete and it.error is None
    return list(items), capped, error, complete
