"""Who cites the paper: each source's listing of citing papers drained, then merged.

:func:`_inbound_phase` asks every source for its listing (:func:`_listing`: the citing-paper
observations up to the disclosed page cap, the counts that rode with them, what the source
announced and why a listing is partial) and keeps the very same observation once across pages
and sources. Totals are compared across sources, never added into one figure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from attrs import frozen

from citeledger.ledger._calls import (
    _error_text,
    _error_type,
    _not_found,
    _provenance,
    _wrong_item,
)
from citeledger.ledger.record import Claim, Outcome, SourceReport
from citeledger.model import Measurement, Observation
from citeledger.page import CountedCitation
from citeledger.sources import Capability, Paged, UnreadableItem, describe_unreadable
from citeledger.sources._protocols import CitationSource, CountedCitationSource

if TYPE_CHECKING:
    import datetime as dt
    from collections.abc import Callable, Sequence

    from citeledger.identifiers import Identifier
    from citeledger.ledger._calls import _Caller
    from citeledger.sources import Source

__all__: list[str] = []


@frozen(kw_only=True)
class _Listing:
    """One source's listing of citing papers, drained (up to the disclosed page cap)."""

    observations: tuple[Observation, ...]
    #: (citing work key, its own count) pairs that rode with the listing.
    counts: tuple[tuple[str, Measurement], ...]
    names: tuple[str, ...]
    #: What there was to measure at this source, when it can be told.
    total: int | None
    announced: int | None
    reasons: tuple[str, ...]


def _listing(
    src: Source,
    ident: Identifier,
    caller: _Caller,
    *,
    cap: int | None,
) -> _Listing | None:
    """Ask one source who cites the paper; None when it was not measured at all."""
    # A source that offers each citing work's own count is asked for that listing instead.
    fn: Callable[..., Any] | None
    if isinstance(src, CountedCitationSource):
        method, fn = "citations_with_counts", src.citations_with_counts
    else:
        method, fn = "citations", src.citations if isinstance(src, CitationSource) else None
    ok, it, _ = caller.call(src, Capability.CITATIONS, method, fn, ident, memo=False)
    if not ok:
        return None
    if it is None or isinstance(it, (str, bytes, dict)):
        # "Nothing to list" is an empty listing; None is no answer, never "complete".
        caller.wrong_type(src, "citations", it, "a listing of citing papers", None)
        return None
    raw, capped, error, complete = caller.drain(src, it, cap)
    announced = it.total if isinstance(it, Paged) else None
    if announced is not None and not isinstance(announced, int):
        announced = None
    unread = tuple(it.skipped) if isinstance(it, Paged) else ()
    items: list[Observation] = []
    counts: list[tuple[str, Measurement]] = []
    wrong: list[UnreadableItem] = []
    for i, item in enumerate(raw):
        if isinstance(item, CountedCitation):
            items.append(item.observation)
            counts.extend((item.observation.citing.key, m) for m in item.cited_by)
        elif isinstance(item, Observation):
            items.append(item)
        else:
            wrong.append(_wrong_item(src.name, "citing-paper observation", i, item))
    unread = (*unread, *wrong)
    fetched = len(items)
    if error is not None and fetched == 0:
        # Nothing came before the failure: the listing was not measured at all. A 404 on the
        # first page means the source does not know the work, not "partial, 0 received".
        caller.reports.append(
            SourceReport(
                source=src.name,
                capability="citations",
                outcome=Outcome.NOT_FOUND if _not_found(error) else Outcome.ERROR,
                error=_error_text(error),
                error_type=_error_type(error),
                unreadable=unread,
            )
        )
        return None
    # Unreadable items were sent, so they count toward what there is to measure.
    sent = fetched + len(unread)
    total = announced if announced is not None else (sent if complete and not capped else None)
    if total is not None and total < sent:
        total = sent
    outcome = (
        Outcome.OK if complete and error is None and not capped and not unread else Outcome.PARTIAL
    )
    caller.reports.append(
        SourceReport(
            source=src.name,
            capability="citations",
            outcome=outcome,
            fetched=fetched,
            total=announced,
            capped=capped,
            error=(_error_text(error) if error is not None else None),
            error_type=(_error_type(error) if error is not None else None),
            unreadable=unread,
        )
    )
    reasons: list[str] = []
    if unread:
        reasons.append(
            f"{src.name}: citing-paper items received but not itemized: "
            + describe_unreadable(unread)
        )
    if capped:
        reasons.append(f"{src.name}: stopped at the disclosed page cap of {cap:,}")
    if error is not None:
        reasons.append(
            f"{src.name}: paging stopped after {fetched:,} by "
            f"{_error_type(error)} ({_error_text(error)})"
        )
    elif not capped and announced is not None and sent < announced:
        reasons.append(
            f"{src.name} itemizes {fetched:,} of the {announced:,} citing papers it counts"
        )
    return _Listing(
        observations=tuple(items),
        counts=tuple(counts),
        names=_provenance(src, ident, Capability.CITATIONS),
        total=total,
        announced=announced,
        reasons=tuple(reasons),
    )


@frozen(kw_only=True)
class _InboundPhase:
    """Who cites the paper: every source's listing, the very same observation kept once."""

    observations: tuple[Observation, ...]
    names: tuple[tuple[str, ...], ...]
    reasons: tuple[str, ...]
    #: The sum of the sources' totals; None when one source's total cannot be told.
    total: int | None
    #: What each source announced (compared, never added, across sources).
    announced: tuple[Claim, ...]
    counts: tuple[tuple[str, Measurement], ...]


def _inbound_phase(
    ident: Identifier,
    srcs: Sequence[Source],
    caller: _Caller,
    *,
    cap: int | None,
    built: dt.datetime,
) -> _InboundPhase:
    listings = [(src, _listing(src, ident, caller, cap=cap)) for src in srcs]
    listed = [(src, listing) for src, listing in listings if listing is not None]
    inbound: list[Observation] = []
    seen: set[Observation] = set()
    reasons: list[str] = []
    for src, listing in listed:
        repeated = 0
        for obs in listing.observations:
            if obs in seen:
                repeated += 1  # the very same observation again (paging overlap): kept once
                continue
            seen.add(obs)
            inbound.append(obs)
        reasons.extend(listing.reasons)
        if repeated:
            reasons.append(f"{src.name}: {repeated:,} repeated observations kept once")
    known = [listing.total for _, listing in listed if listing.total is not None]
    return _InboundPhase(
        observations=tuple(inbound),
        names=tuple(listing.names for _, listing in listed),
        reasons=tuple(reasons),
        total=sum(known) if len(known) == len(listed) else None,  # None: one total unknown
        announced=tuple(
            Claim(source=src.name, value=f"{listing.announced:,}", observed=built)
            for src, listing in listed
            if listing.announced is not None
        ),
        counts=tuple(count for _, listing in listed for count in listing.counts),
    )
