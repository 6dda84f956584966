"""``Resolver.resolve_many`` over several processes, and what every batch shares.

Batches are claimed from a shared counter by the children and the parent alike; results travel
back as plain tuples (:func:`_to_wire_result`) and are rebuilt against the parent's catalog. A
provider that raises costs one reference (:func:`_contained`); a bad item is one
``PARSE_UNCERTAIN`` result (:func:`_bad_item`).
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import pickle
import queue as queue_module
from typing import TYPE_CHECKING, Any, Final, cast

from citeledger._progress import progress_callback
from citeledger.errors import WorkerLost
from citeledger.model import (
    Evidence,
    Paper,
    Reference,
    Resolution,
    ResolutionState,  # the model's own validator
)
from citeledger.model._observation import _Deferred
from citeledger.resolve._gc import _no_tick, paused_collector
from citeledger.resolve._items import _as_reference
from citeledger.resolve._results import (
    _AGREEMENTS,
    _EVIDENCE_SLOT,
    _METHODS,
    _REASON_SLOT,
    _STATES,
    _compared_fields,
    _evidence_tuples,
    _exact_shown,
    _then_compared,
    _trusted_resolution,
)
from citeledger.resolve.catalog import (
    Catalog,
    ScoredCandidate,
    _shown_repr,
)
from citeledger.resolve.names import name_keys
from citeledger.resolve.scoring import (
    EvidenceTuple,
    FieldOutcome,
    ReferenceFeatures,
    _trusted_evidence,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from citeledger.identifiers import Identifier
    from citeledger.resolve._rules import _Scored
    from citeledger.resolve.names import NameKey
    from citeledger.resolve.resolver import ProgressCallback, Resolver


# Messages a child sends besides (batch number, results): it has finished; it failed.
_CHILD_DONE: Final = -1
_CHILD_FAILED: Final = -2
# Batch sizes of resolve_many with several processes (see _guided_ranges).
_MIN_BATCH: Final = 25
_MAX_BATCH: Final = 1000
# How often (seconds) the parent looks at its children while it waits for their results.
_POLL: Final = 0.5


def _claim(counter: Any, n: int, check: Callable[[], None] | None = None) -> int | None:
    """The next unclaimed batch number, or None when all are claimed.

    ``check`` runs whenever the counter's lock is not free within ``_POLL`` seconds: a child
    killed while holding it would otherwise block the parent forever (``check`` raises
    :class:`WorkerLost` then).
    """
    lock = counter.get_lock()
    while not lock.acquire(timeout=_POLL):
        if check is not None:
            check()
    try:
        k = int(counter.value)
        if k >= n:
            return None
        counter.value = k + 1
        return k
    finally:
        lock.release()


def _child_main(
    *,
    resolver: Resolver,
    items: Sequence[Reference | Paper | str],
    index: dict[int, int] | None,
    ranges: list[tuple[int, int]],
    counter: Any,
    queue: Any,
    acyclic: bool,
) -> None:
    """A ``resolve_many`` child: claim batches, resolve them, send plain tuples back.

    ``acyclic``: only the library's own code resolves (:func:`paused_collector`), so nothing
    here makes a reference cycle: the child, which ends with the batch, never collects (its
    young collections walked everything it had kept since the last one: 3.6 % of its time at
    200k papers). Otherwise it collects as the parent would.
    """
    try:
        if index is None:
            index = _paper_index(resolver)
        with contextlib.ExitStack() as stack:
            if acyclic:
                gc.disable()  # (already, when forked from the parent's paused collector)
                tick = _no_tick
            else:
                gc.enable()  # forked from a parent that paused it: pause it on this child's terms
                tick = stack.enter_context(paused_collector(freeze=False))
            while (k := _claim(counter, len(ranges))) is not None:
                a, b = ranges[k]
                wire = []
                for res in resolver._resolve_chunk(items[a:b]):  # noqa: SLF001
                    wire.append(_to_wire_result(res, index))
                    tick()
                queue.put((k, wire))
        queue.put((_CHILD_DONE, None))
    except BaseException as exc:
        try:
            pickle.dumps(exc)
        except Exception:
            exc = RuntimeError(f"resolve_many worker failed: {exc!r}")
        queue.put((_CHILD_FAILED, exc))
    finally:
        queue.close()
        queue.join_thread()


def _guided_ranges(total: int, workers: int, chunk: int | None = None) -> list[tuple[int, int]]:
    """Batches for the pool: large first, shrinking towards the end (guided scheduling).

    Each batch is about a ``4 * workers``-th of what is left (at most 1,000 references, at
    least 25), so the workers finish at nearly the same time: with equal batches the last one
    leaves the other workers idle for a whole batch. ``chunk``: batches of that many
    references instead (``resolve_many(chunk_size=...)``; the last one may be shorter).

    >>> [b - a for a, b in _guided_ranges(5000, 2)][:3], len(_guided_ranges(5000, 2))
    ([625, 546, 478], 33)
    >>> _guided_ranges(7, 2, 3)
    [(0, 3), (3, 6), (6, 7)]
    """
    if chunk is not None:
        return [(a, min(total, a + chunk)) for a in range(0, total, chunk)]
    out: list[tuple[int, int]] = []
    start = 0
    while start < total:
        size = max(_MIN_BATCH, min(_MAX_BATCH, (total - start) // (4 * workers)))
        end = min(total, start + size)
        out.append((start, end))
        start = end
    return out


def _progress(progress: ProgressCallback | bool | None, total: int) -> ProgressCallback | None:
    if progress is None or progress is False:
        return None
    if progress is True:
        # The package-wide helper: tqdm when installed, drawn only on a terminal.
        advance, close = progress_callback(progress, total=total, desc="resolving")
        seen = 0

        def update(done: int, _total: int) -> None:
            nonlocal seen
            advance(done - seen)
            seen = done
            if done >= _total:
                close()

        return update
    return progress


# A paper travelling back from a worker: its catalog index (int) when it is a catalog paper (the
# parent holds the same catalog), else the paper itself. Evidence travels as plain tuples. Pickling
# whole Resolution values costs more than resolving them.
_Wire = int | Paper
_EvidenceWire = EvidenceTuple


def _paper_index(resolver: Resolver) -> dict[int, int]:
    if resolver.catalog is None:
        return {}
    return {id(p): i for i, p in enumerate(resolver.catalog._papers)}  # noqa: SLF001


def _resolvable(item: object) -> bool:
    return isinstance(item, (Reference, Paper, str))


class _ProviderFailed(Exception):
    """A candidate provider raised; carries its error out of one reference's resolution."""

    def __init__(self, provider: object, error: Exception) -> None:
        super().__init__(error)
        self.provider = provider
        self.error = error


def _asked(provider: object, ask: Callable[[], Iterable[Paper]]) -> list[Paper]:
    """What a provider answers, as a list; anything it raises becomes :class:`_ProviderFailed`."""
    try:
        return list(ask())
    except Exception as exc:  # a plug-in provider may raise anything (not KeyboardInterrupt)
        raise _ProviderFailed(provider, exc) from exc


def _contained(
    resolver: Resolver,
    ref: Reference | Paper | str,
    feats: ReferenceFeatures | None = None,
    hits: list[ScoredCandidate] | None = None,
) -> Resolution:
    """``resolver.resolve(ref)``; a candidate provider that raises costs this reference only.

    The reference is UNRESOLVED with the provider's error as the reason, and the batch goes
    on. Errors of the resolver itself still propagate. ``feats``: the reference's features,
    if the batch engine has made them (``ref`` is then a :class:`Reference`); ``hits``: its
    title hits in the first provider, if found already.
    """
    try:
        if feats is not None and isinstance(ref, Reference):
            return resolver._resolve(ref, feats, hits)  # noqa: SLF001 - the engine's own path
        return resolver.resolve(ref)
    except _ProviderFailed as failed:
        exc = failed.error
        name = type(failed.provider).__name__
        return Resolution(
            state=ResolutionState.UNRESOLVED,
            reason=f"candidate provider {name} failed: {type(exc).__name__}: "
            f"{_shown_repr(str(exc))}",
        )


def _bad_item(position: int, item: object) -> Resolution:
    """The result for a batch item that is not a reference at all."""
    return Resolution(
        state=ResolutionState.PARSE_UNCERTAIN,
        reason=f"item {position} is a {type(item).__name__}, not a reference: {_shown_repr(item)}",
    )


def _stop_children(children: Sequence[Any], queue: Any) -> None:
    """End the children still running and close the results queue (on any way out)."""
    for child in children:
        if child.is_alive():
            child.terminate()
        child.join()
    queue.close()


def _to_wire(paper: Paper | None, index: dict[int, int]) -> _Wire | None:
    if paper is None:
        return None
    i = index.get(id(paper))
    return paper if i is None else i


def _from_wire(value: _Wire | None, catalog: Catalog | None) -> Paper | None:
    if value is None or isinstance(value, Paper):
        return value
    if catalog is None:  # pragma: no cover - ints are only sent when a catalog exists
        raise RuntimeError("a worker sent a catalog index but there is no catalog")
    return catalog[value]


def _to_wire_result(res: Resolution, index: dict[int, int]) -> tuple[Any, ...]:
    """A resolution as plain tuples, its papers as catalog indexes where possible.

    Its evidence and reason are read from their slots, rendered or not, and the result itself,
    about to be dropped, keeps nothing made here. Evidence the resolver deferred as a candidate's
    compared fields travels unrendered (:func:`_evidence_wire`); any other evidence as plain
    tuples (:func:`_evidence_tuples`).
    """
    reason = _REASON_SLOT.__get__(res, Resolution)
    return (
        res.state._value_,  # the plain value (``.value`` is a slower property)
        None if res.method is None else res.method._value_,
        _to_wire(res.target, index),
        res.score,
        _evidence_wire(_EVIDENCE_SLOT.__get__(res, Resolution), index),
        reason.value() if type(reason) is _Deferred else reason,
        [_to_wire(p, index) for p in res.alternatives],
    )


# Deferred evidence of a compared candidate, as a worker sends it: ("compared", the evidence
# before the fields as tuples, the candidate, its field outcomes) or ("exact", the same, then
# the identifier and the note of :func:`_exact_shown`).
_ComparedWire = tuple[Any, ...]


def _evidence_wire(
    value: Sequence[Evidence] | _Deferred, index: dict[int, int]
) -> list[_EvidenceWire] | _ComparedWire:
    """A result's evidence as a worker sends it: the fields of a compared candidate unrendered.

    The evidence of :func:`_then_compared` and :func:`_exact_shown` (nearly every verified
    result) is not rendered here: the candidate travels as its catalog index and its
    comparison's field outcomes as they are, the authors' (name keys, costly to pickle) without
    their values, and the parent renders them when the evidence is first read
    (:func:`_compared_from_wire`). Rendering them here cost a worker a twelfth of its time at
    200k papers (0.56 of 6.5 CPU-s), for evidence most callers never read. Keep in step with
    those two functions (a test compares every state's evidence).
    """
    if type(value) is _Deferred:
        make, args = value.make, value.args
        if make is _then_compared:
            before, scored = cast("tuple[Sequence[Evidence] | _Deferred, _Scored]", args)
            return (
                "compared",
                _evidence_tuples(before),
                _to_wire(scored.paper, index),
                _outcomes_wire(scored.comparison.outcomes),
            )
        if make is _exact_shown:
            before, ident, chosen, note = cast(
                "tuple[Sequence[Evidence] | _Deferred, Identifier, _Scored, str]", args
            )
            return (
                "exact",
                _evidence_tuples(before),
                _to_wire(chosen.paper, index),
                _outcomes_wire(chosen.comparison.outcomes),
                ident,
                note,
            )
    return _evidence_tuples(value)


def _outcomes_wire(outcomes: Sequence[FieldOutcome]) -> list[tuple[Any, ...]]:
    # The authors' outcome without its two lists of name keys: the parent makes them again
    # from the reference and the candidate (``ReferenceFeatures.of`` and the catalog make them
    # with the same ``name_keys``). Every other outcome is plain strings, numbers and an
    # Agreement (pickled once per batch).
    return [o[:3] if o[0] == "authors" else o for o in outcomes]


def _compared_from_wire(
    wire: _ComparedWire, item: Reference | Paper | str, paper: Paper | None
) -> tuple[Evidence, ...]:
    """The evidence :func:`_evidence_wire` sent unrendered, rendered as the worker would have.

    ``item``: the reference the worker resolved, as given to ``resolve_many`` (its authors'
    name keys are made again from it); ``paper``: the candidate, rebuilt from the wire.
    """
    kind, before, _, outcomes, *rest = wire
    if paper is None:  # pragma: no cover - a compared candidate always travels
        raise RuntimeError("a worker sent compared fields without their candidate")
    ident, note = rest if kind == "exact" else (None, "")
    # The authors' outcome came without its name keys: made again as the worker made them.
    fields = [
        (*o, _reference_authors(item), name_keys(paper.authors)) if len(o) == 3 else o
        for o in outcomes
    ]
    return _compared_fields(_evidence_from_wire(before), paper, fields, ident, note)


def _reference_authors(item: Reference | Paper | str) -> tuple[NameKey, ...]:
    # The name keys ``ReferenceFeatures.of`` gave the reference ``resolve(item)`` resolved.
    return name_keys(_as_reference(item).authors)


def _evidence_from_wire(evidence: list[_EvidenceWire]) -> tuple[Evidence, ...]:
    """The evidence a worker sent as plain tuples, as :class:`Evidence` values."""
    agreements = _AGREEMENTS
    return tuple(
        _trusted_evidence(field=f, agreement=agreements[a], score=sc, left=le, right=ri, note=no)
        for f, a, sc, le, ri, no in evidence
    )


def _resolution_from_wire(
    item: tuple[Any, ...], catalog: Catalog | None, given: Reference | Paper | str
) -> Resolution:
    """The result a worker sent (:func:`_to_wire_result`) for ``given``, rebuilt here."""
    state, method, target, score, evidence, reason, alternatives = item
    if type(evidence) is tuple:
        # Rendered when first read, from the reference and the candidate (_evidence_wire).
        deferred: _Deferred | tuple[()] = _Deferred(
            _compared_from_wire, evidence, given, _from_wire(evidence[2], catalog)
        )
    else:
        # Rebuilt when first read, as the evidence of a result resolved here is rendered: this
        # process also resolves, and most results are read for their state and target only.
        deferred = _Deferred(_evidence_from_wire, evidence) if evidence else ()
    return _trusted_resolution(
        state=_STATES[state],
        method=None if method is None else _METHODS[method],
        target=_from_wire(target, catalog),
        score=score,
        evidence=deferred,
        reason=reason,
        alternatives=tuple(
            p for p in (_from_wire(a, catalog) for a in alternatives) if p is not None
        ),
    )


def resolve_in_processes(
    resolver: Resolver,
    items: list[Reference | Paper | str],
    bad: dict[int, Resolution],
    *,
    workers: int,
    report: ProgressCallback | None,
    tick: Callable[[], None],
    chunk: int | None = None,
    acyclic: bool = False,
) -> list[Resolution]:
    """``resolve_many`` with ``workers`` processes: this one and ``workers - 1`` children.

    Batches (:func:`_guided_ranges`) are claimed from a shared counter, by the children and
    by this process alike, so the work balances itself and this process, instead of waiting,
    resolves batches too (children send plain tuples back, which are rebuilt here: about a
    tenth of the cost of resolving them). A child that dies raises :class:`WorkerLost`
    rather than leaving the batch waiting; an exception in a child is raised here.

    The caller has paused the collector and frozen the heap (:func:`paused_collector` with
    ``freeze=True``; ``tick``: its per-item tick) *before* calling: the objects made here (the
    index map, the queue, the children) could otherwise set off a full collection over the
    whole catalog first (a second at 200k papers, measured), and the children are forked from
    a frozen heap, so their collections do not walk - and, through copy-on-write, copy - the
    inherited catalog (Python docs: gc.freeze). ``acyclic``: the caller's batch makes no
    reference cycles (no plug-in provider), so the children collect nothing either.
    """
    total = len(items)
    ranges = _guided_ranges(total, workers, chunk)
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    # (typeshed types a context chosen at run time as BaseContext, which lacks Process)
    ctx: Any = multiprocessing.get_context(method)
    # Under fork the children inherit the resolver, the references and the paper -> catalog
    # index map built here once; under spawn each child unpickles them once and builds its
    # own map (object ids differ between processes).
    index = _paper_index(resolver) if method == "fork" else None
    counter = ctx.Value("q", 0)  # the next batch to claim (with its own lock)
    queue: Any = ctx.Queue()
    children = [
        ctx.Process(
            target=_child_main,
            kwargs={
                "resolver": resolver,
                "items": items,
                "index": index,
                "ranges": ranges,
                "counter": counter,
                "queue": queue,
                "acyclic": acyclic,
            },
            name=f"citeledger-resolve-{k + 1}",
            daemon=True,
        )
        for k in range(min(workers, len(ranges)) - 1)
    ]
    done: dict[int, list[Resolution]] = {}
    finished = 0
    count = 0
    catalog = resolver.catalog

    def receive(message: tuple[int, Any]) -> None:
        nonlocal finished, count
        k, payload = message
        if k == _CHILD_DONE:
            finished += 1
            return
        if k == _CHILD_FAILED:
            raise payload
        start = ranges[k][0]
        done[k] = [
            bad.get(start + j) or _resolution_from_wire(item, catalog, items[start + j])
            for j, item in enumerate(payload)
        ]
        count += len(payload)
        if report is not None:
            report(count, total)

    def check() -> None:
        lost = [c for c in children if c.exitcode not in (None, 0)]
        if lost:
            raise WorkerLost(
                f"resolve_many: worker process {lost[0].name} died (exit code "
                f"{lost[0].exitcode}) before reporting its references",
                exitcode=lost[0].exitcode,
            )
        # Every child gone, nothing left to read, and not every one said it was done: the
        # missing results will never come (a child flushes its queue before it exits).
        gone = all(c.exitcode is not None for c in children)
        if gone and finished < len(children) and queue.empty():
            raise WorkerLost(
                "resolve_many: a worker process exited without reporting its references",
                exitcode=0,
            )

    with contextlib.ExitStack() as stack:
        stack.callback(_stop_children, children, queue)
        for child in children:
            child.start()
        while (k := _claim(counter, len(ranges), check)) is not None:
            a, b = ranges[k]
            part = []
            for i, res in enumerate(resolver._resolve_chunk(items[a:b]), a):  # noqa: SLF001
                part.append(bad.get(i) or res)
                tick()
            done[k] = part
            count += b - a
            if report is not None:
                report(count, total)
            while not queue.empty():
                receive(queue.get())
        while finished < len(children):
            try:
                receive(queue.get(timeout=_POLL))
            except queue_module.Empty:
                check()
    results: list[Resolution] = []
    for k in range(len(ranges)):
        results.extend(done[k])
    return results
