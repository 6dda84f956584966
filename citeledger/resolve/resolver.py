"""The resolver: identifier route, fuzzy route, and the six ledger states.

Decision rules (``docs/resolver.md`` has the long form):

1. Every valid identifier of the reference is looked up (arXiv versions, arXiv DataCite DOIs and
   papers' ``related`` links alias one work). Found, and the metadata do not clearly disagree ->
   ``VERIFIED_EXACT`` (method = the identifier's scheme). Found, but the title is clearly
   different or the year far off -> ``METADATA_MISMATCH`` with the identifier's work as target
   and the disagreeing fields in the evidence. Not found -> noted in the evidence; go on.
2. No title to match on (or a string parse below ``min_parse_confidence``) -> ``PARSE_UNCERTAIN``
   (``UNRESOLVED`` if a valid identifier was simply not in the catalog).
3. Fuzzy: candidates from the providers are compared field by field. The best one must pass the
   title threshold, have enough corroborating fields, no clearly disagreeing field, and lead the
   best candidate of *another* work by ``min_margin`` -> ``VERIFIED_FUZZY``; else ``UNRESOLVED``
   with the reason (and look-alikes named in ``alternatives``).
4. A malformed identifier-looking fragment with no verified route -> ``MALFORMED_IDENTIFIER``.

Every threshold is a lower bound applied to scores that do not depend on the configuration, and
the runner-up is chosen without looking at thresholds, so raising any threshold can only remove
verified matches, never add one.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import contextlib
import multiprocessing
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from itertools import repeat
from operator import itemgetter
from typing import TYPE_CHECKING, Final

from rapidfuzz import fuzz

from citeledger.errors import ModelError
from citeledger.model import (
    Evidence,
    Method,
    Paper,
    Reference,
    Resolution,
    ResolutionState,  # the model's own validator
)
from citeledger.model._observation import _Deferred
from citeledger.resolve._batch import (
    _MIN_BATCH,
    _asked,
    _bad_item,
    _contained,
    _progress,
    _resolvable,
    resolve_in_processes,
)
from citeledger.resolve._config import ResolverConfig, _whole_at_least
from citeledger.resolve._gc import paused_collector
from citeledger.resolve._items import _as_reference, _reference_from_paper, _staged
from citeledger.resolve._pair import _OnePaper, pair_route
from citeledger.resolve._results import (
    _exact_verified,
    _fuzzy_verified,
    _listed,
    _then_compared,
    _trusted_resolution,
    _verified,
)
from citeledger.resolve._rules import (
    _CONFIDENT_TITLE_LESS,
    _agreement_score,
    _compared_nothing,
    _describe,
    _ident_evidence,
    _malformed_evidence,
    _malformed_reason,
    _order,
    _same_work,
    _Scored,
    _shared_identifier,
    exact_problems,
    fuzzy_decision,
    locator_decision,
)
from citeledger.resolve._select import PoolItem, compared, many_pool
from citeledger.resolve._verifykeys import pair_keys
from citeledger.resolve.catalog import (
    CandidateProvider,
    Catalog,
    ScoredCandidate,
    _shown_repr,
)
from citeledger.resolve.normalize import normalize_title
from citeledger.resolve.scoring import (
    ReferenceFeatures,
    compare,
    title_similarity,
)

if TYPE_CHECKING:
    from citeledger.identifiers import Identifier
    from citeledger.resolve.names import NameKey

__all__ = ["ProgressCallback", "Resolver", "ResolverConfig", "verify", "verify_many"]

#: ``progress(done, total)``, called as batches finish.
ProgressCallback = Callable[[int, int], object]


# Candidates further than this below the best title similarity are not scored in full: with the
# bounded field weights of ``scoring`` they cannot come within any sensible margin of the best.
_TITLE_WINDOW: Final = 30.0
_MAX_SCORED: Final = 12
# With this many title hits or more, the candidate stage works column by column (the tests
# check it against the one-by-one path).
_MANY_HITS = 16
# With this many title hits or more of one catalog alone, the candidates are kept as columns
# (_select.ManyPool) and their bounds computed with NumPy: below it, NumPy's per-call cost is
# more than it saves (measured at a million papers: 64-127 hits break even, 512 and more take
# two thirds of the time). The tests move it to check both paths against each other.
_COLUMN_HITS = 128
_first: Final = itemgetter(0)
_second: Final = itemgetter(1)

# The catalog's default score_cutoff for candidate titles (Catalog.scored_candidates).
_BLOCK_CUTOFF: Final = 50.0
# resolve_many(workers=1) freezes the collector's objects for batches at least this long.
_FREEZE_MIN: Final = 100
# The batch engine (Resolver._resolve_chunk) takes references this many at a time through each
# stage. At a million papers (benchmarks/resolve_ab.py, both sizes resolving at the same time)
# 1,000 beat 256 by 0-15 % and 256 beat 64 by 6 %; 4,000 was no better than 1,000. It is also
# resolve_many's largest batch, so a child's batch is one stage.
_STAGE = 1000


def _minus_first(item: PoolItem) -> float:
    # The sort key of a pool sorted best first, ascending (for bisection).
    return -item[0]


class Resolver:
    """Resolves references to papers of a catalog (and of other candidate providers).

    Args:
        papers: Any iterable of papers to build the in-memory :class:`Catalog` from (streamed),
            or a catalog already built (for instance by :meth:`Catalog.from_records`).
        config: Thresholds; see :class:`ResolverConfig`.
        providers: More candidate providers, consulted after the catalog.

    Example:
        >>> import citeledger as cl
        >>> paper = cl.Paper(
        ...     title="ZeRO-Infinity: breaking the GPU memory wall for extreme scale deep learning",
        ...     authors=["Samyam Rajbhandari", "Olatunji Ruwase"],
        ...     year=2021,
        ...     identifiers=["arXiv:2104.07857"],
        ... )
        >>> resolver = cl.Resolver([paper])
        >>> resolver.resolve(cl.Reference(identifiers=["arXiv:2104.07857v2"])).state
        <ResolutionState.VERIFIED_EXACT: 'verified_exact'>
        >>> ref = cl.Reference(
        ...     title="Zero-infinity: Breaking the GPU Memory Wall for Extreme-Scale Deep Learning",
        ...     authors="Rajbhandari S, Ruwase O",
        ...     year=2021,
        ... )
        >>> resolver.resolve(ref).state
        <ResolutionState.VERIFIED_FUZZY: 'verified_fuzzy'>

    .. versionadded:: 0.1.0
    """

    def __init__(
        self,
        papers: Iterable[Paper] | Catalog | None = None,
        *,
        config: ResolverConfig | None = None,
        providers: Iterable[CandidateProvider] = (),
    ) -> None:
        self.config = config if config is not None else ResolverConfig()
        self.catalog: Catalog | None = (
            papers
            if isinstance(papers, Catalog)
            else Catalog(papers)
            if papers is not None
            else None
        )
        provs: list[CandidateProvider] = [] if self.catalog is None else [self.catalog]
        provs.extend(providers)
        self.providers: tuple[CandidateProvider, ...] = tuple(provs)

    def __repr__(self) -> str:
        return f"<Resolver providers={len(self.providers)} config={self.config!r}>"

    # ----------------------------------------------------------------------------- lookup

    def _by_identifier(self, ident: Identifier, feats: ReferenceFeatures) -> list[_Scored]:
        # The papers holding ``ident``, compared with the reference as the identifier route
        # compares them, best first. A catalog's papers are compared with the normalised title
        # and author keys it keeps (not recomputed per reference).
        year_tolerance = self.config.exact_year_tolerance
        found: list[_Scored] = []
        pairs: list[tuple[Paper, str | None, tuple[NameKey, ...] | None]]
        for provider in self.providers:
            if isinstance(provider, Catalog):
                titles = provider._normalized  # noqa: SLF001 - the catalog's title column
                pairs = [
                    (
                        provider[pid],
                        titles[pid],
                        provider.author_keys(pid) if feats.authors else None,
                    )
                    for pid in provider.ids_by_identifier(ident)
                ]
            else:
                pairs = [
                    (paper, None, None)
                    for paper in _asked(provider, partial(provider.by_identifier, ident))
                ]
            for paper, title, keys in pairs:
                if not any(paper is s.paper or paper == s.paper for s in found):
                    found.append(
                        _Scored(
                            paper,
                            compare(
                                feats,
                                paper,
                                paper_title=title,
                                paper_authors=keys,
                                lenient_title=True,
                                year_tolerance=year_tolerance,
                            ),
                        )
                    )
        return _order(found)

    def _candidates(
        self,
        feats: ReferenceFeatures,
        ref: Reference,
        hits: list[ScoredCandidate] | None = None,
    ) -> list[_Scored]:
        # ``hits``: the first provider's title hits (a catalog's ``scored_candidates`` as
        # called below), if the batch engine has found them already.
        limit = self.config.candidate_limit
        first = self.providers[0] if hits is not None else None
        # (title similarity, paper, its normalised title, the catalog and id that keep its
        # author keys, if any)
        pool: list[PoolItem] = []
        for provider in self.providers:
            if isinstance(provider, Catalog):
                if hits is None or provider is not first:
                    hits = self._title_hits(provider, feats)
                # The title similarity is at least this word-order-free one, and plain ``ratio``
                # does not beat it by tens of points, so candidates this far behind the best do
                # not come within the title window below; skipping them saves normalising their
                # titles. (A bound on scores only: no threshold is involved.)
                floor = hits[0][0] - _TITLE_WINDOW if hits else 0.0
                # The catalog's columns read directly (``title_of``, ``provider[pid]``): a
                # catalog of a million papers puts a dozen hits or more here per reference.
                titles = provider._normalized  # noqa: SLF001
                papers = provider._papers  # noqa: SLF001 - None for a record not yet built
                left = feats.title
                ratio_of = fuzz.ratio
                # With no other provider (whose candidates are told apart from these by
                # comparing papers), a record not built yet (``Catalog.from_records``) stays
                # unbuilt in the pool (None): compared() builds the few it compares or orders,
                # not every hit.
                alone = len(self.providers) == 1
                if len(hits) < _MANY_HITS:
                    for score, pid in hits:
                        if score < floor:
                            break
                        title = titles[pid]
                        # ``score`` is already the token_sort_ratio half of title_similarity
                        # (the catalog computed it on the same normalised titles); add the
                        # ratio half.
                        ratio = float(ratio_of(left, title)) if title else 0.0
                        paper = papers[pid] if alone else papers[pid] or provider[pid]
                        pool.append((max(ratio, score), paper, title, provider, pid, ratio))
                    continue
                # Many hits (a generic title recorded over and over): the same items, read
                # column by column, with one string per distinct title (the later steps hash and
                # compare them) and its ratio computed once. With no other provider, the pool
                # holds no paper at all (None), built or not: compared() reads ``catalog[pid]``
                # for the few it compares or orders.
                if min(map(_first, hits)) < floor:  # (the window usually keeps every hit)
                    cut = next(k for k, hit in enumerate(hits) if hit[0] < floor)
                    hits = hits[:cut]
                if alone and len(hits) >= _COLUMN_HITS:
                    # The pool is these hits alone: the candidates kept of them (sorted, in the
                    # window, at most _MAX_SCORED but ties) found column by column, and compared
                    # a title and year at a time (many_pool, compared()).
                    kept_many = many_pool(
                        provider, left, hits, window=_TITLE_WINDOW, most=_MAX_SCORED
                    )
                    return _order(compared(self.config, feats, ref, kept_many))
                pids = list(map(_second, hits))
                hit_titles = list(map(titles.__getitem__, pids))
                same = dict(zip(hit_titles, hit_titles, strict=True))
                hit_titles = list(map(same.__getitem__, hit_titles))
                ratios = {t: float(ratio_of(left, t)) if t else 0.0 for t in same}
                hit_ratios = list(map(ratios.__getitem__, hit_titles))
                pool.extend(
                    zip(
                        map(max, hit_ratios, map(_first, hits)),
                        repeat(None, len(pids))
                        if alone
                        else [papers[pid] or provider[pid] for pid in pids],
                        hit_titles,
                        repeat(provider, len(pids)),
                        pids,
                        hit_ratios,
                        strict=True,
                    )
                )
            elif isinstance(provider, _OnePaper):
                # verify(): the same proposal and score as below, from the features at hand.
                pool.extend(
                    (sim, paper, title, None, 0, None)
                    for sim, paper, title in provider.scored(feats)
                )
            else:
                for paper in _asked(provider, partial(provider.candidates, ref, limit=limit)):
                    title = normalize_title(paper.title)
                    pool.append((title_similarity(feats.title, title), paper, title, None, 0, None))
        if not pool:
            return []
        if len(self.providers) > 1:
            unique: list[PoolItem] = []
            for item in pool:
                if not any(item[1] == u[1] for u in unique):
                    unique.append(item)
            pool = unique
        # Best first; equal similarities keep their order (a stable sort, reversed or not).
        pool.sort(key=_first, reverse=True)  # ties at the cut are all kept below
        top = pool[0][0]
        floor = top - _TITLE_WINDOW
        # Those at or above the floor, then those at or above the edge: prefixes of the sorted
        # pool, found by bisection.
        kept = pool[: bisect_right(pool, -floor, key=_minus_first)]
        if len(kept) > _MAX_SCORED:
            edge = kept[_MAX_SCORED - 1][0]
            kept = kept[: bisect_right(kept, -edge, key=_minus_first)]
        return _order(compared(self.config, feats, ref, kept))

    def _resolve_chunk(self, part: Sequence[Reference | Paper | str]) -> list[Resolution]:
        """The batch engine: ``[_contained(self, ref) for ref in part]``, stage by stage.

        ``resolve`` runs each reference through every stage before the next reference. Here,
        ``_STAGE`` references at a time: their features first, then the title hits of those
        that can only take the fuzzy route (a title, no identifier, a parse confident enough),
        then the decisions. The title lookups run back to back, with the title index's code
        and the postings they share still in the processor's caches: 1.11-1.24x the refs per
        CPU-second of one at a time at a million papers (``docs/resolver.md``); staging the
        comparisons as well gained nothing, so they stay with the decisions. Each stage is
        the one ``resolve`` runs, on the same values, so the results are the same (a
        Hypothesis test checks them item by item, at any stage and chunk size); an item an
        early stage cannot take (it raises there) is resolved as ``resolve`` would, on its
        own.
        """
        out: list[Resolution] = []
        for a in range(0, len(part), _STAGE):
            stage = part[a : a + _STAGE]
            staged = list(map(_staged, stage))
            hits = self._staged_hits(staged)
            out.extend(
                _contained(self, item) if s is None else _contained(self, s[0], s[1], h)
                for item, s, h in zip(stage, staged, hits, strict=True)
            )
        return out

    def _title_hits(self, catalog: Catalog, feats: ReferenceFeatures) -> list[ScoredCandidate]:
        """The catalog's title hits for the fuzzy route (unordered, within the title window)."""
        return catalog.scored_candidates(
            feats.title,
            limit=self.config.candidate_limit,
            ordered=False,
            tokens=feats.tokens,
            window=_TITLE_WINDOW,
        )

    def _staged_hits(
        self, staged: Sequence[tuple[Reference, ReferenceFeatures] | None]
    ) -> list[list[ScoredCandidate] | None]:
        """The first provider's title hits for the references bound for the fuzzy route.

        None for the others (a reference with an identifier may be decided by it, and then no
        title is looked up), and for all when the first provider is not a catalog. Which
        references are looked up here is a guess at the route only: hits are read by the fuzzy
        route alone, and a reference that reaches it without them looks its title up then.
        """
        catalog = self.providers[0] if self.providers else None
        if not isinstance(catalog, Catalog):
            return [None] * len(staged)
        least = self.config.min_parse_confidence
        out: list[list[ScoredCandidate] | None] = []
        for item in staged:
            hits = None
            if item is not None:
                ref, f = item
                if (
                    f.title
                    and not ref.identifiers
                    and (ref.parse_confidence is None or ref.parse_confidence >= least)
                ):
                    with contextlib.suppress(Exception):  # raised again by the lazy path
                        hits = self._title_hits(catalog, f)
            out.append(hits)
        return out

    # ----------------------------------------------------------------------------- routes

    def _locate(self, feats: ReferenceFeatures) -> list[_Scored]:
        """Candidates with the reference's volume and first page, compared and ordered."""
        pool: list[Paper] = []
        for provider in self.providers:
            if isinstance(provider, (Catalog, _OnePaper)):
                found = provider.by_locator(feats.volume, feats.first_page)
            else:  # sources' lookups and searches have no volume/page index
                continue
            for paper in found:
                if not any(paper is p or paper == p for p in pool):
                    pool.append(paper)
        cfg = self.config
        return _order(
            [
                _Scored(
                    p,
                    compare(
                        feats,
                        p,
                        year_tolerance=cfg.year_tolerance,
                        preprint_year_tolerance=cfg.preprint_year_tolerance,
                    ),
                )
                for p in pool
            ]
        )

    def resolve(self, ref: Reference | Paper | str) -> Resolution:
        """Resolve one reference.

        Args:
            ref: A :class:`~citeledger.model.Reference`; a :class:`~citeledger.model.Paper`
                (cited with all its fields); or a reference string (parsed with
                :meth:`~citeledger.model.Reference.from_string`).

        Returns:
            A :class:`~citeledger.model.Resolution` in one of the six states, never raising for
            an expected outcome such as "no match".

        Raises:
            ModelError: ``ref`` is none of the above (``resolve_many`` turns this into a
                ``PARSE_UNCERTAIN`` result for that item and keeps every other item).
        """
        ref = _as_reference(ref)
        return self._resolve(ref, ReferenceFeatures.of(ref))

    def _resolve(
        self,
        ref: Reference,
        feats: ReferenceFeatures,
        hits: list[ScoredCandidate] | None = None,
    ) -> Resolution:
        # resolve(ref), given the reference's features (and, from the batch engine, the first
        # provider's title hits, for a reference that can only take the fuzzy route).
        cfg = self.config
        evidence: list[Evidence] = []

        # 1. identifier route
        mismatch: tuple[Identifier, _Scored, list[str]] | None = None
        for ident in ref.identifiers:
            scored = self._by_identifier(ident, feats)
            if not scored:
                evidence.append(
                    _ident_evidence(
                        ident, None, "valid identifier not in catalog; tried the fuzzy route"
                    )
                )
                continue
            agreeing = [s for s in scored if not exact_problems(self.config, s.comparison)]
            shared = _shared_identifier(ident, scored)
            told = ""
            if shared:
                # Different works under one identifier: the identifier proves nothing by
                # itself; only metadata that agree with exactly one of them decide.
                fits = [s for s in shared if any(s is a for a in agreeing)]
                if len(fits) > 1:
                    return _trusted_resolution(
                        state=ResolutionState.UNRESOLVED,
                        method=None,
                        evidence=(
                            *evidence,
                            *(_ident_evidence(ident, s.paper, "one of the records") for s in fits),
                        ),
                        reason=f"{ident} is held by {len(shared)} different works in the catalog "
                        f"({'; '.join(_describe(s.paper) for s in shared)}); "
                        + (
                            "the reference has no metadata to tell them apart"
                            if _compared_nothing(fits[0].comparison)
                            else "the reference's metadata agree with more than one"
                        ),
                        alternatives=tuple(s.paper for s in fits),
                    )
                if fits:
                    agreeing = [fits[0], *(s for s in agreeing if s is not fits[0])]
                    told = (
                        f" (one of {len(shared)} different works holding it; the metadata "
                        "agree with this one only)"
                    )
            if agreeing:
                # Rendered when read (most results of a batch are read for state and target).
                return _exact_verified(
                    ident, agreeing[0], evidence, told, tuple(s.paper for s in agreeing[1:])
                )
            if mismatch is None:
                mismatch = (ident, scored[0], exact_problems(self.config, scored[0].comparison))

        if mismatch is not None:
            ident, chosen, problems = mismatch
            fuzzy_alt: tuple[Paper, ...] = ()
            extra = ""
            if feats.title:
                ok, _, best, _ = fuzzy_decision(
                    self.config, feats, ref, self._candidates(feats, ref)
                )
                if ok and best is not None and not _same_work(best.paper, chosen.paper):
                    fuzzy_alt = (best.paper,)
                    extra = f"; the metadata match {_describe(best.paper)} instead"
            return _trusted_resolution(
                state=ResolutionState.METADATA_MISMATCH,
                method=Method.for_scheme(ident.scheme),
                target=chosen.paper,
                score=_agreement_score(chosen.comparison, identifier=True),
                evidence=(
                    *evidence,
                    _ident_evidence(ident, chosen.paper, "found in catalog; metadata disagree"),
                    *chosen.comparison.evidence,
                    *_malformed_evidence(ref),
                ),
                reason=f"{ident} is in the catalog but these fields disagree: "
                f"{', '.join(problems)}{extra}",
                alternatives=fuzzy_alt,
            )

        evidence.extend(_malformed_evidence(ref))

        def fail(
            state: ResolutionState,
            reason: str,
            alternatives: Sequence[Paper] = (),
            compared: _Scored | None = None,
        ) -> Resolution:
            # ``compared``: the candidate whose field comparison the evidence shows, rendered
            # when the evidence is first read.
            if ref.malformed:
                state = ResolutionState.MALFORMED_IDENTIFIER
                reason = f"{_malformed_reason(ref)}; {reason}"
            kept = tuple(evidence)
            return _trusted_resolution(
                state=state,
                method=None,
                reason=reason,
                evidence=kept if compared is None else _Deferred(_then_compared, kept, compared),
                alternatives=tuple(alternatives),
            )

        # 2. is there anything to match on?
        if not feats.title:
            if (
                feats.venue
                and feats.volume_code
                and feats.page_code
                and (
                    ref.parse_confidence is None or ref.parse_confidence >= cfg.min_parse_confidence
                )
            ):
                # 2b. no title: the journal, volume and first page route
                ok, reason, best, runner = locator_decision(feats, self._locate(feats))
                prefix = f"{_listed(ref.identifiers)} not in catalog; " if ref.identifiers else ""
                if ok and best is not None:
                    return _verified(
                        Method.JOURNAL_VOLUME_PAGE, best, evidence, prefix + reason, None
                    )
                # A structured reference without a title was looked up and not found. A string
                # in which the parser found no title may have been misread (a title taken for
                # the journal), so it stays PARSE_UNCERTAIN unless it names an identifier or
                # the parser read a title-less style with confidence (authors, journal,
                # volume, first page and year: "E. Garfield, Science 178, 471 (1972).").
                misread = (
                    ref.raw is not None
                    and not ref.identifiers
                    and (
                        ref.parse_confidence is None
                        or ref.parse_confidence < _CONFIDENT_TITLE_LESS
                        or ref.parse_doubt is not None
                    )
                )
                return fail(
                    ResolutionState.PARSE_UNCERTAIN if misread else ResolutionState.UNRESOLVED,
                    f"{prefix}no title"
                    + (" found in the string" if misread else "")
                    + f"; {reason}",
                    [c.paper for c in (best, runner) if c is not None],
                    best,
                )
            if ref.identifiers:
                return fail(
                    ResolutionState.UNRESOLVED,
                    f"{_listed(ref.identifiers)} not in catalog and no title to match on",
                )
            why = ref.parse_doubt
            return fail(
                ResolutionState.PARSE_UNCERTAIN,
                "no identifier and no title to match on" + (f" ({why})" if why else ""),
            )
        if ref.parse_confidence is not None and ref.parse_confidence < cfg.min_parse_confidence:
            why = ref.parse_doubt
            return fail(
                ResolutionState.PARSE_UNCERTAIN,
                f"parse confidence {ref.parse_confidence:.2f} below {cfg.min_parse_confidence:g}"
                + (f" ({why})" if why else ""),
            )

        # 3. fuzzy route
        candidates = self._candidates(feats, ref, hits)
        ok, reason, best, runner = fuzzy_decision(self.config, feats, ref, candidates)
        if ok and best is not None:
            return _fuzzy_verified(best, evidence, ref.identifiers or None, runner, reason)
        if ref.identifiers:
            reason = f"{_listed(ref.identifiers)} not in catalog; {reason}"
        alternatives = [c.paper for c in (best, runner) if c is not None]
        return fail(
            ResolutionState.UNRESOLVED,
            reason,
            alternatives,
            best,
        )

    # ----------------------------------------------------------------------------- batches

    def resolve_many(
        self,
        refs: Iterable[Reference | Paper | str],
        *,
        workers: int = 1,
        chunk_size: int | None = None,
        progress: ProgressCallback | bool | None = None,
    ) -> list[Resolution]:
        """Resolve many references; results in the same order as ``refs``.

        A bad item (neither a reference, a paper nor a string) gets a ``PARSE_UNCERTAIN``
        result saying what it was; every other item is resolved as usual.

        Args:
            refs: References, papers or reference strings to resolve.
            workers: Processes to use: this one and ``workers - 1`` children, which claim
                batches from a shared counter (large batches first, smaller towards the end).
                The resolver and the references reach each child once (inherited by ``fork``
                where available, else pickled once per child). Inside a daemonic process (a
                pool or Dask worker), which may not have children, everything runs in it.
            chunk_size: References a process claims at a time when ``workers`` > 1, and how
                often ``progress`` is called. ``None`` (the default): batches of about an
                eighth of what is left per worker (at most 1,000, at least 25), shrinking
                towards the end so the processes finish together; with fewer references than
                one such batch, no child is started. Results never depend on it.
            progress: ``progress(done, total)`` called as batches finish; ``True`` shows a tqdm
                bar when tqdm is installed, only on a terminal; ``None`` for none.

        While the batch runs, automatic garbage collection is paused (resolving makes no
        reference cycles; the youngest generation is still collected every few thousand
        items), and for a batch of 100 or more (or with children) the objects that existed
        before it are frozen out of the collector (:func:`gc.freeze`), so collections do not
        walk the catalog. Both are undone afterwards; a caller's own disabled collector or
        freeze is left as it was.

        Raises:
            WorkerLost: A child process died (killed, out of memory) before reporting its
                batch; the other children are stopped. An exception raised in a child is
                raised here.
            ModelError: ``refs`` is a string or not iterable (a bad *item* is a
                ``PARSE_UNCERTAIN`` result instead).
            InvalidArgument: ``workers`` or ``chunk_size`` is not a whole number of at
                least 1 (an ``int`` or a NumPy integer; not a bool).
        """
        workers = _whole_at_least(workers, 1, "workers")
        if chunk_size is not None:
            chunk_size = _whole_at_least(chunk_size, 1, "chunk_size", or_none=True)
        if isinstance(refs, str | bytes) or not isinstance(refs, Iterable):
            raise ModelError(
                "resolve_many takes an iterable of references, papers or reference strings, "
                f"not a {type(refs).__name__} (one string: use resolve())"
            )
        given = list(refs)
        total = len(given)
        bad = {i: _bad_item(i, ref) for i, ref in enumerate(given) if not _resolvable(ref)}
        items: list[Reference | Paper | str] = [
            Reference() if i in bad else ref for i, ref in enumerate(given)
        ]
        report = _progress(progress, total)
        # One batch's worth needs no children (nor the catalog index map built for them); a
        # daemonic process (a multiprocessing pool worker, a Dask worker) may not start any:
        # resolve in this process; the results are the same.
        batch = _MIN_BATCH if chunk_size is None else chunk_size
        alone = workers <= 1 or total <= batch or multiprocessing.current_process().daemon
        # The collector is paused while the batch runs (see paused_collector), before anything
        # else is built; the objects that exist now (the catalog) are also frozen out of its
        # walks (always with children: they are forked from the frozen heap). Undone below.
        acyclic = all(isinstance(p, (Catalog, _OnePaper)) for p in self.providers)
        with paused_collector(freeze=not alone or total >= _FREEZE_MIN, acyclic=acyclic) as tick:
            if not alone:
                return resolve_in_processes(
                    self,
                    items,
                    bad,
                    workers=workers,
                    report=report,
                    tick=tick,
                    chunk=chunk_size,
                    acyclic=acyclic,
                )
            out: list[Resolution] = []
            step = max(1, min(1000, total // 100 or 1)) if chunk_size is None else chunk_size
            for a in range(0, total, _STAGE):
                for i, res in enumerate(self._resolve_chunk(items[a : a + _STAGE]), a + 1):
                    out.append(bad.get(i - 1) or res)
                    tick()
                    if report is not None and (i % step == 0 or i == total):
                        report(i, total)
            return out


def verify(
    ref_or_paper: Reference | Paper, paper: Paper, *, config: ResolverConfig | None = None
) -> Resolution:
    """Resolve ``ref_or_paper`` as if the catalog held only ``paper``.

    Pairwise verification: is this reference (or this other record) the same work as ``paper``?
    ``VERIFIED_*`` means yes; ``METADATA_MISMATCH`` means a shared identifier with disagreeing
    metadata; ``UNRESOLVED`` means not shown to be the same.

    >>> import citeledger as cl
    >>> a = cl.Paper(
    ...     title="Local cloning of entangled qubits", authors=["Sujit K. Choudhary"], year=2007
    ... )
    >>> b = cl.Paper(
    ...     title="Local Cloning of Entangled Qubits", authors=["S. K. Choudhary"], year=2007
    ... )
    >>> cl.verify(a, b).state
    <ResolutionState.VERIFIED_FUZZY: 'verified_fuzzy'>

    Raises:
        ModelError: ``paper`` is not a :class:`~citeledger.model.Paper`.

    .. versionadded:: 0.1.0
    """
    if not isinstance(paper, Paper):
        raise ModelError(f"verify compares with a Paper, not a {type(paper).__name__}")
    return _verify_pair(config if config is not None else _DEFAULT_CONFIG, ref_or_paper, paper)


def _verify_pair(cfg: ResolverConfig, given: Reference | Paper, paper: Paper) -> Resolution:
    # verify(given, paper): the common cases directly (_pair.pair_route), anything else
    # through a resolver of that one paper.
    one = _OnePaper(paper)
    if not isinstance(given, (Paper, Reference)):  # a reference string, as resolve() takes it
        return Resolver(config=cfg, providers=(one,)).resolve(given)
    # A paper is read as the reference citing it (the same features; built only if needed).
    # Its keys are kept from its second call while it lives (_verifykeys.pair_keys); a record
    # verified against itself is one call.
    memo = one.memo if given is paper else pair_keys(given)
    feats = memo.feats(given)
    done = pair_route(cfg, given, feats, one, memo)
    if done is not None:
        return done
    ref = _reference_from_paper(given) if isinstance(given, Paper) else given
    # The same module's resolver, given the features already computed.
    return Resolver(config=cfg, providers=(one,))._resolve(ref, feats)  # noqa: SLF001


_DEFAULT_CONFIG: Final = ResolverConfig()


def verify_many(
    pairs: Iterable[tuple[Reference | Paper, Paper]], *, config: ResolverConfig | None = None
) -> list[Resolution]:
    """:func:`verify` for many pairs, in order: ``[verify(a, b) for a, b in pairs]``.

    A pair costs its comparison and decision only (see :func:`verify`). A pair that is not
    ``(reference or paper, paper)`` gets a ``PARSE_UNCERTAIN`` result saying what it was; every
    other pair is verified as usual.

    >>> import citeledger as cl
    >>> from citeledger.resolve.resolver import verify_many
    >>> a = cl.Paper(title="Local cloning of entangled qubits", year=2007)
    >>> [r.state.value for r in verify_many([(a, a), (a, "not a paper")])]
    ['verified_fuzzy', 'parse_uncertain']

    Raises:
        ModelError: ``pairs`` is a string or not iterable.

    .. versionadded:: 0.2.0
    """
    given: object = pairs  # checked as what a caller may really pass
    if isinstance(given, str | bytes) or not isinstance(given, Iterable):
        raise ModelError(f"verify_many takes an iterable of pairs, not a {type(given).__name__}")
    cfg = config if config is not None else _DEFAULT_CONFIG
    out: list[Resolution] = []
    for position, item in enumerate(given):
        pair: object = item
        if not (
            isinstance(pair, tuple)
            and len(pair) == 2
            and isinstance(pair[0], Reference | Paper)
            and isinstance(pair[1], Paper)
        ):
            out.append(
                Resolution(
                    state=ResolutionState.PARSE_UNCERTAIN,
                    reason=f"pair {position} is not (a reference or paper, a paper): "
                    f"{_shown_repr(pair)}",
                )
            )
            continue
        ref, paper = pair
        out.append(_verify_pair(cfg, ref, paper))
    return out
