"""The inbound check: each citing work's own reference list, resolved against the paper.

A source that lists C as citing P asserts a link; this module checks it the way the ledger
checks outbound references. For each citing work C (in the order the inbound phase listed
them: sources in the order given, each source's listing order; at most ``check_cap`` works):

1. **Fetch C's reference list once** (per build, whichever sources listed C), from the first
   source that has it in order: a :class:`~citeledger.sources.FullTextSource` the caller
   supplies (JATS / GROBID TEI), then every :class:`~citeledger.sources.ReferenceSource` that
   keeps the printed list (Crossref deposited references with their keys, Semantic Scholar
   references). Sources whose lists are identifiers only
   (:class:`~citeledger.sources.ReferenceOrderSource` with ``references_in_order = False``:
   OpenAlex ``referenced_works``, OpenCitations) are asked last and only as an identifier hint:
   they never make a check.
2. **Resolve every entry** with the build's :class:`~citeledger.Resolver` rules against a small
   catalog of P and its known versions (:func:`inbound_catalog`; the catalog indexes arXiv
   versions, the DataCite arXiv DOI and the relations of P as one work).
3. **One observation per entry pointing to P** (verified exact, verified fuzzy or metadata
   mismatch), with the entry's position as reference number, the entry itself (raw text, key)
   and the check time in :class:`~citeledger.model.InboundCheck`. No entry pointing to P:
   one ``unresolved`` observation, "no resolver link". No list: one observation with no
   resolution and a typed :class:`~citeledger.model.NotChecked` reason.

The pure part is :func:`inbound_catalog` and :func:`check_entries`; :class:`_InboundChecker` is
the edge (source calls, reports, progress).

Cost: at most one reference-list fetch per citing work and per source tried, memoised per
build (a second listing source of the same work costs nothing); requests are paced by each
source's transport (``min_interval``). A paper with 500 citing works costs 500 reference-list
requests when the first source asked has every list (Crossref: one ``/works/{doi}`` each;
Semantic Scholar: one ``/references`` page per 1,000 entries), plus one per work for each
source that had to be tried before it.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from attrs import frozen

from citeledger.errors import (
    CiteledgerError,
    InvalidIdentifier,
    NotFoundError,
    SourceError,
    UnsupportedCapability,
)
from citeledger.ledger._calls import _crash
from citeledger.ledger.record import Outcome, SourceReport
from citeledger.model import (
    CheckStatus,
    InboundCheck,
    Method,
    NotChecked,
    Observation,
    Paper,
    Reference,
    Resolution,
    ResolutionState,
    replace,
)
from citeledger.resolve import Resolver
from citeledger.sources._protocols import (
    Capability,
    FullTextSource,
    ReferenceOrderSource,
    ReferenceSource,
    Source,
)

if TYPE_CHECKING:
    import datetime as dt
    from collections.abc import Callable, Iterable, Sequence

    from citeledger.identifiers import Identifier
    from citeledger.ledger._calls import _Caller

__all__ = [
    "POINTING_STATES",
    "EntryOutcome",
    "check_entries",
    "checked_observations",
    "inbound_catalog",
]

#: The states of an entry that points to the paper (a mismatch names it by identifier).
POINTING_STATES = frozenset(
    {
        ResolutionState.VERIFIED_EXACT,
        ResolutionState.VERIFIED_FUZZY,
        ResolutionState.METADATA_MISMATCH,
    }
)

#: The order in which a citing work's identifiers are offered to a reference source.
_SCHEME_ORDER = ("doi", "arxiv", "s2", "corpusid", "pmid", "pmcid", "openalex")


@frozen(kw_only=True)
class EntryOutcome:
    """One entry of a citing work's reference list that points to the paper."""

    reference: Reference
    resolution: Resolution


def inbound_catalog(paper: Paper) -> tuple[Paper, ...]:
    """The small catalog the entries are resolved against: the paper and its known versions.

    One :class:`~citeledger.model.Paper` suffices: the catalog files it under every identifier
    it carries with arXiv versions (``2104.07857v2``) and the DataCite arXiv DOI
    (``10.48550/arXiv.2104.07857``) as one work, and under each relation's identifier (the
    published version of a preprint and back), so an entry naming any of them finds it.

    >>> inbound_catalog(Paper(title="T", identifiers=["arXiv:2104.07857"]))[0].title
    'T'
    """
    return (paper,) if paper.identifiers or paper.title else ()


def check_entries(resolver: Resolver, refs: Iterable[Reference]) -> tuple[EntryOutcome, ...]:
    """The entries of one reference list that ``resolver`` links to a work of its catalog.

    Pure: ``resolver`` is built over :func:`inbound_catalog` (no providers), so every target
    is the paper. An entry that cannot be resolved (the resolver raises) points nowhere.

    >>> r = Resolver([Paper(title="Deep nets", year=2018, identifiers=["arXiv:1801.00001"])])
    >>> hit = check_entries(r, [Reference(position=3, identifiers=["arXiv:1801.00001v2"])])
    >>> [(e.reference.position, e.resolution.state.value) for e in hit]
    [(3, 'verified_exact')]
    """
    out: list[EntryOutcome] = []
    for ref in refs:
        if ref.unreadable:
            continue
        try:
            res = resolver.resolve(ref)
        except Exception:  # noqa: S112 - one bad entry must not cost the others
            continue
        if res.state in POINTING_STATES and res.target is not None:
            out.append(EntryOutcome(reference=ref, resolution=res))
    return tuple(out)


@frozen(kw_only=True)
class _Fetched:
    """What reading one citing work's reference list came to."""

    #: The list, when read.
    refs: tuple[Reference, ...] | None
    source: str | None = None
    checked: dt.datetime | None = None
    not_checked: NotChecked | None = None
    reason: str | None = None


def checked_observations(
    obs: Observation, fetched: _Fetched, outcomes: Sequence[EntryOutcome]
) -> list[Observation]:
    """The observations one listed citation becomes once its citing work's list was read."""
    if fetched.refs is None:
        check = InboundCheck(
            status=CheckStatus.NOT_CHECKED, not_checked=fetched.not_checked, reason=fetched.reason
        )
        # The listing's own reference number, if it gave one, is kept: it is the source's word.
        return [replace(obs, resolution=None, check=check)]
    check = InboundCheck(
        status=CheckStatus.CHECKED,
        source=fetched.source,
        checked=fetched.checked,
        entries=len(fetched.refs),
        reason=fetched.reason,
    )
    if not outcomes:
        reason = (
            f"{obs.source} lists the work as citing, but no entry of its {len(fetched.refs):,}-"
            f"entry reference list ({fetched.source}) resolves to the paper"
        )
        res = Resolution(
            state=ResolutionState.UNRESOLVED, method=Method.NO_RESOLVER_LINK, reason=reason
        )
        return [replace(obs, resolution=res, check=check)]
    return [
        replace(
            obs,
            position=o.reference.position,
            reference=o.reference,
            resolution=o.resolution,
            check=check,
        )
        for o in outcomes
    ]


def _ordered_sources(srcs: Sequence[Source]) -> tuple[list[Source], list[Source], list[Source]]:
    """(full-text sources, reference sources keeping the printed list, identifier-only ones)."""
    full: list[Source] = []
    ordered: list[Source] = []
    hints: list[Source] = []
    for src in srcs:
        if isinstance(src, FullTextSource):
            full.append(src)
        elif isinstance(src, ReferenceSource) and Capability.REFERENCES in src.capabilities:
            if isinstance(src, ReferenceOrderSource) and not src.references_in_order:
                hints.append(src)
            else:
                ordered.append(src)
    return full, ordered, hints


def _identifiers(paper: Paper) -> list[Identifier]:
    """The citing work's identifiers, in the order offered to a reference source."""
    rank = {s: i for i, s in enumerate(_SCHEME_ORDER)}
    return sorted(paper.identifiers, key=lambda i: rank.get(str(i.scheme), len(rank)))


class _InboundChecker:
    """Reads citing works' reference lists for one build: once per work, reported, counted."""

    def __init__(
        self,
        srcs: Sequence[Source],
        caller: _Caller,
        *,
        paper: Paper,
        resolver: Resolver | None,
        clock: Callable[[], dt.datetime],
    ) -> None:
        self.full, self.ordered, self.hints = _ordered_sources(srcs)
        self.caller = caller
        self.paper = paper
        base = resolver.config if resolver is not None else None
        self.resolver = Resolver(inbound_catalog(paper), config=base)
        self.clock = clock
        self._seen: dict[str, tuple[_Fetched, tuple[EntryOutcome, ...]]] = {}

    def __call__(self, citing: Paper) -> tuple[_Fetched, tuple[EntryOutcome, ...]]:
        """C's list read (or why not) and its entries pointing to the paper; memoised by work."""
        key = citing.key
        if key not in self._seen:
            fetched = self._fetch(citing)
            outcomes = check_entries(self.resolver, fetched.refs or ())
            self._seen[key] = (fetched, outcomes)
            self.caller.advance(1)
        return self._seen[key]

    def _report(self, src: Source, ident: Identifier, outcome: Outcome, **kw: object) -> None:
        self.caller.reports.append(
            SourceReport(
                source=src.name,
                capability="inbound_check",
                outcome=outcome,
                subject=str(ident),
                **kw,  # type: ignore[arg-type]
            )
        )

    def _fetch(self, citing: Paper) -> _Fetched:
        ids = _identifiers(citing)
        failures: list[str] = []
        empty: list[str] = []
        for src in self.full:
            assert isinstance(src, FullTextSource)
            for ident in ids:
                try:
                    refs = self.caller.guarded(
                        src, "inbound_check", partial(src.full_text_references, ident)
                    )
                    if refs is not None and not _is_reference_list(refs):
                        raise _crash(TypeError(f"answered {type(refs).__name__}"), src.name)
                except CiteledgerError as exc:
                    failures.append(f"{src.name}: {type(exc).__name__}: {exc}")
                    self._report(src, ident, Outcome.ERROR, error=str(exc))
                    break
                if refs is not None:
                    self._report(src, ident, Outcome.OK, fetched=len(refs), total=len(refs))
                    return _Fetched(refs=tuple(refs), source=src.name, checked=self.clock())
        for src in self.ordered:
            got = self._from_reference_source(src, ids, failures, empty)
            if got is not None:
                return got
        hint = self._hint(ids)
        if failures:
            return _Fetched(
                refs=None,
                not_checked=NotChecked.FETCH_FAILED,
                reason="; ".join([*failures, *empty, *hint]),
            )
        if not ids:
            why = ["the citing work has no identifier to look its reference list up by"]
        elif not (self.full or self.ordered):
            why = ["no source offers reference lists in order"]
        else:
            why = [f"{', '.join(s.name for s in (*self.full, *self.ordered))} had no list"]
        return _Fetched(
            refs=None, not_checked=NotChecked.NO_SOURCE, reason="; ".join([*why, *empty, *hint])
        )

    def _from_reference_source(
        self, src: Source, ids: Sequence[Identifier], failures: list[str], empty: list[str]
    ) -> _Fetched | None:
        assert isinstance(src, ReferenceSource)
        for ident in ids:
            try:
                refs = self.caller.guarded(src, "inbound_check", partial(src.references, ident))
                if not _is_reference_list(refs):
                    raise _crash(TypeError(f"answered {type(refs).__name__}"), src.name)
            except (InvalidIdentifier, UnsupportedCapability):
                continue  # not an identifier this source looks works up by: no request sent
            except NotFoundError:
                self._report(src, ident, Outcome.NOT_FOUND)
                continue
            except SourceError as exc:
                failures.append(f"{src.name}: {type(exc).__name__} ({exc.message})")
                self._report(
                    src, ident, Outcome.ERROR, error=exc.message, error_type=type(exc).__name__
                )
                return None
            except CiteledgerError as exc:
                failures.append(f"{src.name}: {type(exc).__name__} ({exc})")
                self._report(
                    src, ident, Outcome.ERROR, error=str(exc), error_type=type(exc).__name__
                )
                return None
            readable = [r for r in refs if not r.unreadable]
            self._report(src, ident, Outcome.OK, fetched=len(readable), total=len(refs))
            if not refs:
                empty.append(f"{src.name} has no reference list for {ident}")
                return None
            return _Fetched(refs=tuple(refs), source=src.name, checked=self.clock())
        return None

    def _hint(self, ids: Sequence[Identifier]) -> list[str]:
        """What identifier-only lists say: a hint in the reason, never a check."""
        out: list[str] = []
        for src in self.hints:
            assert isinstance(src, ReferenceSource)
            for ident in ids:
                try:
                    refs = self.caller.guarded(src, "inbound_check", partial(src.references, ident))
                    if not _is_reference_list(refs):
                        break
                except (InvalidIdentifier, UnsupportedCapability):
                    continue  # no request sent
                except CiteledgerError:
                    break  # one request per hint source at most
                hit = any(
                    self.resolver.resolve(Reference(identifiers=r.identifiers)).state
                    in POINTING_STATES
                    for r in refs
                    if r.identifiers
                )
                out.append(
                    f"{src.name}'s identifier list ({len(refs):,} ids, not the printed list) "
                    + ("names the paper" if hit else "does not name the paper")
                )
                break
        return out


def _is_reference_list(value: object) -> bool:
    """A list (or tuple) of references: anything else is a source's wrong answer."""
    return isinstance(value, list | tuple) and all(isinstance(r, Reference) for r in value)


def check_phase(
    observations: Sequence[Observation],
    srcs: Sequence[Source],
    caller: _Caller,
    *,
    paper: Paper,
    resolver: Resolver | None,
    enabled: bool,
    cap: int | None,
    clock: Callable[[], dt.datetime],
) -> list[Observation]:
    """Every listed inbound observation checked (or marked not checked, or as asserted).

    Observations a source already gives as checked (the embedded sample's stored checks) are
    kept as they are.
    """
    checker = _InboundChecker(srcs, caller, paper=paper, resolver=resolver, clock=clock)
    out: list[Observation] = []
    order: dict[str, int] = {}
    for obs in observations:
        if obs.check is not None:
            out.append(obs)
            continue
        if not enabled:
            asserted = InboundCheck(status=CheckStatus.ASSERTED, source=obs.source)
            out.append(replace(obs, check=asserted))
            continue
        rank = order.setdefault(obs.citing.key, len(order))
        if cap is not None and rank >= cap:
            fetched = _Fetched(
                refs=None,
                not_checked=NotChecked.CAP,
                reason=f"only the first {cap:,} citing works are checked",
            )
            out.extend(checked_observations(obs, fetched, ()))
            continue
        fetched, outcomes = checker(obs.citing)
        out.extend(checked_observations(obs, fetched, outcomes))
    return _unique(out)


def _unique(observations: Iterable[Observation]) -> list[Observation]:
    seen: set[str] = set()
    out: list[Observation] = []
    for obs in observations:
        if obs.id not in seen:
            seen.add(obs.id)
            out.append(obs)
    return out
