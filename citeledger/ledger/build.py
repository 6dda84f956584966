"""Building a :class:`~citeledger.ledger.CitationRecord`: :func:`build_record` and its phases.

:func:`build_record` composes any set of sources into one record for one paper. The build runs
in phases, each a function returning a small frozen result: the paper (:func:`_paper_phase`),
its references resolved (:func:`_outbound_phase`), who cites it
(:func:`citeledger.ledger._listings._inbound_phase`), each citing work's own reference list
checked (:func:`citeledger.ledger._inbound.check_phase`), the paper-page facts sources offer
(:func:`_page_phase`), distinct citing works (:func:`_citing_phase`), external measurements
(:func:`_measurement_phase`), standing notices one hop out
(:func:`citeledger.ledger._notices._notice_phase`) and the coverage vector
(:func:`_coverage_phase`). Sources that
fail, lack a capability or stop paging early never abort the record: the coverage vector says
what was measured, and :attr:`CitationRecord.reports` keeps every source call's outcome.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

import attrs
from attrs import frozen

from citeledger._progress import Progress, progress_callback
from citeledger.errors import InvalidArgument, InvalidIdentifier, InvalidSource
from citeledger.identifiers import Identifier, parse_identifier
from citeledger.ledger._calls import (
    SOURCE_DEADLINE,
    _Caller,
    _provenance,
    _SourceCandidates,
    _with_memo_transport,
    _wrong_items,
)
from citeledger.ledger._citing import (
    _derived_area_profiles,
    _group_citing,
)
from citeledger.ledger._coverage import (
    _inbound_coverage,
    _inbound_resolution_coverage,
    _measurement_coverage,
    _notice_coverage,
    _ref_coverage,
    _unreadable_references,
)
from citeledger.ledger._disagreements import (
    _citing_count_disagreement,
    _measurement_disagreements,
    _paper_disagreements,
)
from citeledger.ledger._inbound import check_phase
from citeledger.ledger._listings import _inbound_phase, _InboundPhase
from citeledger.ledger._notices import _notice_phase, _NoticePhase
from citeledger.ledger._papers import _merge_papers
from citeledger.ledger.record import (
    CitationRecord,
    Claim,
    Disagreement,
    Outcome,
    SourceIdentity,
    SourceReport,
)
from citeledger.model import (
    Coverage,
    CoverageState,
    Direction,
    Facet,
    Measurement,
    Observation,
    Paper,
    Reference,
    utc,
)
from citeledger.page import AreaProfile, CitedByYear
from citeledger.resolve import Resolver
from citeledger.sources import (
    Capability,
    Source,
    SourceRegistry,
    load_source,
)
from citeledger.sources._protocols import (
    AreaProfileSource,
    CitedByYearSource,
    CitingCountsSource,
    CountSource,
    ObservationIdSource,
    PaperSource,
    ReferenceSource,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from citeledger.page import CitingWork

__all__ = ["build_record"]


def build_record(
    paper_id: Identifier | str,
    sources: Iterable[Source | str] | SourceRegistry | Source | str,
    *,
    resolver: Resolver | None = None,
    now: dt.datetime | str | None = None,
    inbound_cap: int | None = None,
    network: bool = False,
    progress: Progress = None,
    check_inbound: bool = True,
    check_cap: int | None = None,
    source_deadline: float | None = SOURCE_DEADLINE,
) -> CitationRecord:
    """Compose what ``sources`` say about one paper into a :class:`CitationRecord`.

    Nothing a source does aborts the record: a failure (any exception but ``KeyboardInterrupt``
    and ``SystemExit``), an answer of the wrong type, a missing capability, an error while
    paging, a call past the source deadline or an unknown paper becomes a :class:`SourceReport`
    and a coverage entry that says what could not be measured and why. Everything fetched is
    kept.

    Within one call each distinct request is sent once (sources that offer
    ``with_transport()`` send through a per-build memo), and each (source, capability,
    identifier) is asked once; nothing is remembered between calls.

    Args:
        paper_id: The paper (an identifier or any string :func:`~citeledger.parse_identifier`
            accepts). A malformed id still gives a record, which says so.
        sources: Source instances or registered source names (``"sample"``, ``"openalex"``,
            loaded with :func:`~citeledger.load_source`), or a
            :class:`~citeledger.SourceRegistry`; asked in order.
        resolver: Resolves the paper's references (a :class:`~citeledger.Resolver` over your
            catalog). Default: an empty catalog, so nothing verifies without ``network``.
        now: The record's "as of" time (aware); default the current UTC time.
        inbound_cap: Itemize at most this many inbound observations per source (the disclosed
            page cap).
        network: Also resolve references against candidates from the sources' identifier lookups
            and searches (verified by the resolver's same rules).
        progress: ``None`` (quiet), ``True`` (a tqdm bar when interactive) or ``fn(done, total)``;
            ``done`` counts source calls, references resolved, inbound observations
            received and citing works checked; ``total`` is None (how many citing papers there
            are is only known once the sources have been paged).
        check_inbound: Check each citing work's own reference list (see
            :mod:`citeledger.ledger._inbound`): fetch it once, resolve every entry against the
            paper and its versions, and record the entry's reference number, state and method.
            ``False``: take each listing source's word (every inbound check says "as asserted
            by <source>").
        check_cap: Check at most this many distinct citing works (in listing order: sources
            in the order given, then each source's order); the others are "not checked"
            (beyond the cap), disclosed in the inbound resolution coverage row.
        source_deadline: Seconds to wait for one source call, and again for draining one
            listing, before abandoning it (reported as ``DeadlineExceeded``; what a listing
            gave before is kept). Each call runs in a worker thread, which cannot be killed: an
            abandoned call runs on in the background until it returns. HTTP adapters are
            bounded sooner by their transport's own deadlines. None: wait forever, in this
            thread.

    Returns:
        The record.

    Raises:
        SourceNotFound: a source name that is not registered.
        InvalidSource: something in ``sources`` that is neither a source nor a name.
        InvalidArgument: a negative ``inbound_cap`` or a ``source_deadline`` that is not
            positive.

    .. versionadded:: 0.1.0
    .. versionchanged:: 0.1.0
       ``progress``; one request per distinct request and one call per (source, capability,
       identifier) within a build.
    .. versionchanged:: 0.2.0
       Inbound citations are checked against each citing work's reference list
       (``check_inbound``, ``check_cap``).
    """
    built = utc(now) if now is not None else dt.datetime.now(dt.UTC)
    if inbound_cap is not None and inbound_cap < 0:
        raise InvalidArgument("inbound_cap must be >= 0")
    if check_cap is not None and check_cap < 0:
        raise InvalidArgument("check_cap must be >= 0")
    if source_deadline is not None and not source_deadline > 0:
        raise InvalidArgument(f"source_deadline must be > 0 seconds, got {source_deadline!r}")
    given = _as_sources(sources)
    requested = paper_id if isinstance(paper_id, str) else str(paper_id)
    try:
        ident = parse_identifier(paper_id) if isinstance(paper_id, str) else paper_id
    except InvalidIdentifier as exc:
        return _malformed_record(
            requested, exc, srcs=given, built=built, cap=inbound_cap, network=network
        )
    advance, close = progress_callback(progress, total=None, desc="building record")
    try:
        return _build(
            ident,
            requested,
            [_with_memo_transport(s) for s in given],
            resolver=resolver,
            built=built,
            inbound_cap=inbound_cap,
            network=network,
            advance=advance,
            check_inbound=check_inbound,
            check_cap=check_cap,
            clock=(lambda: built) if now is not None else (lambda: dt.datetime.now(dt.UTC)),
            deadline=source_deadline,
        )
    finally:
        close()


def _as_sources(sources: Iterable[Source | str] | SourceRegistry | Source | str) -> list[Source]:
    """The sources to ask: names loaded from the registry, anything else refused."""
    if isinstance(sources, SourceRegistry):
        return [sources.load(n) for n in sources.names()]
    if isinstance(sources, str):
        sources = [sources]
    elif isinstance(sources, Source) and not isinstance(sources, (list, tuple)):
        return [sources]
    try:
        given = list(sources)
    except TypeError:
        msg = f"sources must be sources or registered source names, got {sources!r}"
        raise InvalidSource(msg) from None
    registry: SourceRegistry | None = None
    out: list[Source] = []
    for item in given:
        if isinstance(item, str):
            registry = registry if registry is not None else SourceRegistry()
            out.append(load_source(item, registry=registry))
        elif isinstance(item, Source):
            out.append(item)
        else:
            msg = (
                f"{item!r} is not a source (no name and capabilities) nor a registered source name"
            )
            raise InvalidSource(msg)
    return out


# ============================================================================ the phases


@frozen(kw_only=True)
class _PaperPhase:
    """The paper: each source's description, their merge, and what they disagree on."""

    descriptions: tuple[Paper, ...]
    paper: Paper
    #: The paper as it is cited in outbound observations (identifiers, title, year, date).
    light: Paper
    disagreements: tuple[Disagreement, ...]


def _paper_phase(ident: Identifier, srcs: Sequence[Source], caller: _Caller) -> _PaperPhase:
    descriptions: list[Paper] = []
    for src in srcs:
        fn = src.paper if isinstance(src, PaperSource) else None
        ok, p, _ = caller.call(src, Capability.PAPER, "paper", fn, ident)
        if ok and p is not None and not isinstance(p, Paper):
            caller.wrong_type(src, "paper", p, "a Paper", None)
        elif ok and p is None:
            caller.reports.append(
                SourceReport(source=src.name, capability="paper", outcome=Outcome.NOT_FOUND)
            )
        elif ok and p is not None:
            desc = p if p.source else attrs.evolve(p, source=src.name)
            descriptions.append(desc)
            caller.reports.append(
                SourceReport(source=src.name, capability="paper", outcome=Outcome.OK, fetched=1)
            )
    paper = _merge_papers(ident, descriptions)
    light = Paper(
        identifiers=paper.identifiers, title=paper.title, year=paper.year, date=paper.date
    )
    return _PaperPhase(
        descriptions=tuple(descriptions),
        paper=paper,
        light=light,
        disagreements=tuple(_paper_disagreements(descriptions, str(ident))),
    )


@frozen(kw_only=True)
class _OutboundPhase:
    """The paper's reference lists, each reference resolved into an outbound observation."""

    ref_lists: tuple[tuple[Source, tuple[Reference, ...]], ...]
    #: Per listing source, the tables or endpoints that answered.
    names: tuple[tuple[str, ...], ...]
    observations: tuple[Observation, ...]
    total: int
    resolve_failures: tuple[str, ...]


def _outbound_phase(
    ident: Identifier,
    srcs: Sequence[Source],
    caller: _Caller,
    *,
    light: Paper,
    resolver: Resolver | None,
    network: bool,
    built: dt.datetime,
) -> _OutboundPhase:
    ref_lists: list[tuple[Source, tuple[Reference, ...]]] = []
    names: list[tuple[str, ...]] = []
    for src in srcs:
        fn = src.references if isinstance(src, ReferenceSource) else None
        ok, got, _ = caller.call(src, Capability.REFERENCES, "references", fn, ident)
        if ok and not isinstance(got, (list, tuple)):
            caller.wrong_type(src, "references", got, "a list of references", None)
        elif ok:
            refs = tuple(r for r in got if isinstance(r, Reference))
            wrong = _wrong_items(src.name, "reference", got, Reference)
            ref_lists.append((src, refs))
            names.append(_provenance(src, ident, Capability.REFERENCES))
            unread = (*_unreadable_references(src.name, refs), *wrong)
            caller.reports.append(
                SourceReport(
                    source=src.name,
                    capability="references",
                    outcome=Outcome.PARTIAL if unread else Outcome.OK,
                    fetched=len(refs) - len(unread) + len(wrong),
                    total=len(refs) + len(wrong),
                    unreadable=unread,
                )
            )
    base = resolver if resolver is not None else Resolver([])
    if network:
        providers = [_SourceCandidates(s, caller) for s in srcs]
        active = Resolver(None, config=base.config, providers=(*base.providers, *providers))
    else:
        active = base
    outbound: list[Observation] = []
    total = 0
    failures: list[str] = []
    for src, refs in ref_lists:
        total += len(refs)
        for ref in refs:
            try:
                res = active.resolve(ref)
            except Exception as exc:  # one bad reference must not cost the others
                failures.append(f"reference {ref.position}: {type(exc).__name__}: {exc}")
                continue
            finally:
                caller.advance(1)
            outbound.append(
                Observation(
                    direction=Direction.OUTBOUND,
                    citing=light,
                    cited=res.target,
                    position=ref.position,
                    reference=ref,
                    resolution=res,
                    source=src.name,
                    observed=built,
                )
            )
    return _OutboundPhase(
        ref_lists=tuple(ref_lists),
        names=tuple(names),
        observations=tuple(outbound),
        total=total,
        resolve_failures=tuple(failures),
    )


@frozen(kw_only=True)
class _PagePhase:
    """The paper-page facts sources offer beside their listings."""

    source_ids: tuple[SourceIdentity, ...]
    counts: tuple[tuple[str, Measurement], ...]
    cited_by_year: tuple[CitedByYear, ...]
    area_profiles: tuple[AreaProfile, ...]
    #: Sources that offered their own area profile.
    profiled: frozenset[str]


def _page_phase(ident: Identifier, srcs: Sequence[Source], caller: _Caller) -> _PagePhase:
    """Ask every source offering them for the optional paper-page facts.

    Asked of every source (a source may offer a per-year series without itemizing citing
    papers); no capability gates them, so their outcomes are reported under the method's name.
    """
    source_ids: list[SourceIdentity] = []
    counts: list[tuple[str, Measurement]] = []
    cited_by_year: list[CitedByYear] = []
    profiles: list[AreaProfile] = []
    profiled: set[str] = set()

    def ask(src: Source, method: str, fn: Callable[..., Any], kind: type, label: str) -> Any:
        """The answer when the source gave one of ``kind`` (else reported wrong), or None."""
        ok, got, _ = caller.call(src, None, method, fn, ident)
        if ok and got is not None and not isinstance(got, kind):
            caller.wrong_type(src, method, got, label, None)
            return None
        return got if ok else None

    for src in srcs:
        if isinstance(src, ObservationIdSource):
            ids = ask(src, "observation_ids", src.observation_ids, dict, "a dict")
            if ids:
                source_ids.extend(
                    SourceIdentity(observation=k, source=src.name, source_id=v)
                    for k, v in ids.items()
                )
        if isinstance(src, CitingCountsSource):
            by_key = ask(src, "citing_counts", src.citing_counts, dict, "a dict")
            if by_key:
                counts.extend(by_key.items())
        if isinstance(src, CitedByYearSource):
            series = ask(src, "cited_by_year", src.cited_by_year, CitedByYear, "a CitedByYear")
            if series:
                cited_by_year.append(series)
        if isinstance(src, AreaProfileSource):
            profile = ask(src, "area_profile", src.area_profile, AreaProfile, "an AreaProfile")
            if profile:
                profiles.append(profile)
                profiled.add(src.name)
    return _PagePhase(
        source_ids=tuple(source_ids),
        counts=tuple(counts),
        cited_by_year=tuple(cited_by_year),
        area_profiles=tuple(profiles),
        profiled=frozenset(profiled),
    )


@frozen(kw_only=True)
class _CitingPhase:
    """Distinct citing works, the area profiles, and what the inbound sources disagree on."""

    works: tuple[CitingWork, ...]
    area_profiles: tuple[AreaProfile, ...]
    disagreements: tuple[Disagreement, ...]


def _citing_phase(
    paper: _PaperPhase, inbound: _InboundPhase, page: _PagePhase, subject: str
) -> _CitingPhase:
    disagreements: list[Disagreement] = []
    if len({c.value for c in inbound.announced}) > 1:
        disagreements.append(
            Disagreement(topic="citing-paper total", subject=subject, claims=inbound.announced)
        )
    cby_totals = [
        Claim(source=c.source, value=f"{c.total:,}", observed=c.observed)
        for c in page.cited_by_year
    ]
    if len({c.value for c in cby_totals}) > 1:
        disagreements.append(
            Disagreement(topic="cited-by per year total", subject=subject, claims=tuple(cby_totals))
        )
    counts: dict[str, list[Measurement]] = {}
    for key, m in (*inbound.counts, *page.counts):
        counts.setdefault(key, []).append(m)
    works = _group_citing(paper.paper, inbound.observations, counts)
    for w in works:
        dis = _citing_count_disagreement(w)
        if dis is not None:
            disagreements.append(dis)
    derived = _derived_area_profiles(
        works, paper.descriptions, inbound.observations, offered=set(page.profiled)
    )
    return _CitingPhase(
        works=tuple(works),
        area_profiles=(*page.area_profiles, *derived),
        disagreements=tuple(disagreements),
    )


@frozen(kw_only=True)
class _MeasurementPhase:
    """External citation counts, each naming its source, and the sources that failed."""

    measurements: tuple[Measurement, ...]
    failures: tuple[str, ...]
    disagreements: tuple[Disagreement, ...]


def _measurement_phase(
    ident: Identifier, srcs: Sequence[Source], caller: _Caller
) -> _MeasurementPhase:
    measurements: list[Measurement] = []
    failures: list[str] = []
    for src in srcs:
        fn = src.citation_counts if isinstance(src, CountSource) else None
        ok, ms, failure = caller.call(src, Capability.CITATION_COUNTS, "citation_counts", fn, ident)
        if ok and not isinstance(ms, (list, tuple)):
            failure = caller.wrong_type(src, "citation_counts", ms, "a list of measurements", None)
            failures.append(failure.describe())
        elif ok:
            got = [m for m in ms if isinstance(m, Measurement)]
            if len(got) < len(ms):
                bad = next(m for m in ms if not isinstance(m, Measurement))
                failures.append(
                    caller.wrong_type(src, "citation_counts", bad, "a Measurement", None).describe()
                )
            measurements.extend(got)
            caller.reports.append(
                SourceReport(
                    source=src.name,
                    capability="citation_counts",
                    outcome=Outcome.OK,
                    fetched=len(got),
                )
            )
        elif failure is not None and failure.outcome in (Outcome.ERROR, Outcome.NOT_FOUND):
            failures.append(failure.describe())
    return _MeasurementPhase(
        measurements=tuple(measurements),
        failures=tuple(failures),
        disagreements=tuple(_measurement_disagreements(measurements, str(ident))),
    )


def _coverage_phase(
    *,
    outbound: _OutboundPhase,
    inbound: _InboundPhase,
    checked: Sequence[Observation],
    check_inbound: bool,
    check_cap: int | None,
    measured: _MeasurementPhase,
    notices: _NoticePhase,
    reports: Sequence[SourceReport],
    cap: int | None,
    built: dt.datetime,
) -> tuple[Coverage, ...]:
    return (
        _ref_coverage(
            outbound=outbound.observations,
            total=outbound.total,
            ref_lists=outbound.ref_lists,
            names=outbound.names,
            reports=reports,
            resolve_failures=outbound.resolve_failures,
            built=built,
        ),
        _notice_coverage(notices.notices, reports, notices.any_source),
        _inbound_coverage(
            inbound=inbound.observations,
            total=inbound.total,
            names=inbound.names,
            reports=reports,
            reasons=inbound.reasons,
            cap=cap,
        ),
        _inbound_resolution_coverage(checked, enabled=check_inbound, cap=check_cap),
        _measurement_coverage(measured.measurements, measured.failures, reports),
    )


def _build(
    ident: Identifier,
    requested: str,
    srcs: list[Source],
    *,
    resolver: Resolver | None,
    built: dt.datetime,
    inbound_cap: int | None,
    network: bool,
    advance: Callable[[int], None],
    check_inbound: bool,
    check_cap: int | None,
    clock: Callable[[], dt.datetime],
    deadline: float | None,
) -> CitationRecord:
    reports: list[SourceReport] = []
    caller = _Caller(reports, advance, deadline=deadline)
    subject = str(ident)
    paper = _paper_phase(ident, srcs, caller)
    outbound = _outbound_phase(
        ident, srcs, caller, light=paper.light, resolver=resolver, network=network, built=built
    )
    inbound = _inbound_phase(ident, srcs, caller, cap=inbound_cap, built=built)
    checked = tuple(
        check_phase(
            inbound.observations,
            srcs,
            caller,
            paper=paper.paper,
            resolver=resolver,
            enabled=check_inbound,
            cap=check_cap,
            clock=clock,
        )
    )
    page = _page_phase(ident, srcs, caller)
    citing = _citing_phase(paper, attrs.evolve(inbound, observations=checked), page, subject)
    measured = _measurement_phase(ident, srcs, caller)
    notices = _notice_phase(
        srcs,
        caller,
        paper=paper.paper,
        observations=(*outbound.observations, *checked),
    )
    coverage = _coverage_phase(
        outbound=outbound,
        inbound=inbound,
        checked=checked,
        check_inbound=check_inbound,
        check_cap=check_cap,
        measured=measured,
        notices=notices,
        reports=reports,
        cap=inbound_cap,
        built=built,
    )
    return CitationRecord(
        requested=requested,
        paper=paper.paper,
        built=built,
        paper_descriptions=paper.descriptions,
        coverage=coverage,
        outbound=outbound.observations,
        outbound_total=outbound.total,
        inbound=checked,
        citing_works=citing.works,
        notices=notices.notices,
        work_notices=notices.work_notices,
        measurements=measured.measurements,
        disagreements=(
            *paper.disagreements,
            *citing.disagreements,
            *measured.disagreements,
            *notices.disagreements,
        ),
        reports=tuple(reports),
        cited_by_year=page.cited_by_year,
        area_profiles=citing.area_profiles,
        source_ids=page.source_ids,
        inbound_cap=inbound_cap,
        network=network,
    )


def _malformed_record(
    requested: str,
    exc: InvalidIdentifier,
    *,
    srcs: Sequence[Source],
    built: dt.datetime,
    cap: int | None,
    network: bool,
) -> CitationRecord:
    reason = f"the paper id is malformed ({exc.reason}); no source was asked"
    reports = [
        SourceReport(
            source=s.name,
            capability="paper",
            outcome=Outcome.SKIPPED,
            error=reason,
            error_type=type(exc).__name__,
        )
        for s in srcs
    ]
    coverage = tuple(
        Coverage(facet=f, measured=0, total=None, state=CoverageState.UNAVAILABLE, reason=reason)
        for f in Facet
    )
    return CitationRecord(
        requested=requested,
        paper=Paper(),
        built=built,
        coverage=coverage,
        reports=tuple(reports),
        inbound_cap=cap,
        network=network,
    )
