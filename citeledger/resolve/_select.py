"""Which of a reference's candidates to compare in full, and comparing them.

:func:`compared` is the resolver's candidate selection for the fuzzy route: from the candidates
in the title window (best title first), it compares only those that can change the decision
(see its docstring and ``docs/resolver.md``). The decision rules themselves live in
:mod:`~citeledger.resolve._rules`.
"""

from __future__ import annotations

import math
from itertools import compress
from operator import itemgetter, not_
from typing import TYPE_CHECKING, Final, NamedTuple

from attrs import frozen
from rapidfuzz import fuzz

from citeledger.model import Agreement, Paper, Reference
from citeledger.resolve._rules import (
    _SERIES_OTHERS,
    _order,
    _Scored,
    _series_member,
    best_failures,
    ranked,
)
from citeledger.resolve.catalog import Catalog
from citeledger.resolve.scoring import (
    ReferenceFeatures,
    TitleBounds,
    _year_agreement_of_year,
    compare,
    family_closeness,
    field_points_bound,
    title_bounds,
    title_part,
    without_session_label,
    year_agreement,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    import numpy as np
    import numpy.typing as npt

    from citeledger.resolve._config import ResolverConfig
    from citeledger.resolve.catalog import ScoredCandidate
    from citeledger.resolve.names import NameKey
    from citeledger.resolve.scoring import AuthorIndex, TitlePart

__all__ = [
    "ManyPool",
    "PoolItem",
    "compared",
    "fails_whatever_fields",
    "many_pool",
    "scored_candidate",
    "year_tolerances",
]

#: A candidate before comparison: (title similarity, paper, its normalised title, the catalog
#: that keeps its author keys and its id there, or None and 0, and the plain ``fuzz.ratio`` of
#: the titles if computed). With one catalog as the only provider, the paper may be None (a
#: record the catalog has not built yet, or any candidate of a pool of many): it is built when
#: read, for the few candidates compared or ordered.
PoolItem = tuple[float, Paper | None, str, Catalog | None, int, float | None]

# A pool item's (similarity, normalised title, ratio): what its title bounds read.
_bound_key: Final = itemgetter(0, 2, 5)
_catalog_of_item: Final = itemgetter(3)
_pid_of_item: Final = itemgetter(4)
_first: Final = itemgetter(0)
_second: Final = itemgetter(1)

# With this many candidates or more, the fuzzy family-name comparisons are made in one call.
_BATCH_AUTHORS: Final = 3
# With this many candidates or more, their bounds are computed once per distinct title, year
# and year agreement (a generic title recorded over and over: many candidates, few values).
_MANY = 16
# Candidates that cannot matter to a decision are not compared; the tests turn this off to
# check the decisions against comparing every candidate.
_PRUNE = True


@frozen(eq=False)  # (arrays: equal by identity, a pool is made for one reference)
class ManyPool:
    """The candidates in the title window of many hits of one catalog, held column by column.

    What :func:`compared` reads as ``kept`` when one catalog, the only provider, has many hits
    for a reference (a title recorded over and over: "editorial", a column, a work reprinted):
    the same candidates in the same order as the list of :data:`PoolItem` the candidate stage
    would build (best title similarity first, equal ones in the order of the hits), but as
    columns, so that :func:`compared` reads their bounds, years and order once per distinct
    title and year rather than once per candidate. ``pool[i]`` is candidate ``i`` as a
    :data:`PoolItem` (no paper: :func:`compared` builds the few it compares or orders).

    Attributes:
        catalog: The catalog that proposed them all.
        sims: Each candidate's title similarity.
        pids: Each candidate's id in the catalog.
        tids: Each candidate's title, as an index into ``titles``.
        titles: The distinct normalised titles, one string each.
        ratios: Each distinct title's plain ``fuzz.ratio`` with the reference's title.
    """

    catalog: Catalog
    sims: npt.NDArray[np.float64]
    pids: npt.NDArray[np.intp]
    tids: npt.NDArray[np.intp]
    titles: list[str]
    ratios: list[float]

    def __len__(self) -> int:
        return len(self.sims)

    def __getitem__(self, i: int) -> PoolItem:
        # (as plain Python values: compared() reads only the few it compares or orders)
        tid = int(self.tids[i])
        sim, pid = float(self.sims[i]), int(self.pids[i])
        return (sim, None, self.titles[tid], self.catalog, pid, self.ratios[tid])

    def items(self) -> list[PoolItem]:
        """Every candidate as a :data:`PoolItem`, in order."""
        titles, ratios, catalog = self.titles, self.ratios, self.catalog
        return [
            (sim, None, titles[tid], catalog, pid, ratios[tid])
            for sim, pid, tid in zip(
                self.sims.tolist(), self.pids.tolist(), self.tids.tolist(), strict=True
            )
        ]

    def with_title(self, title: str) -> list[int]:
        """The candidates whose normalised title is ``title``, in order."""
        import numpy as np  # noqa: PLC0415 - imported when first needed (it is a large import)

        try:
            tid = self.titles.index(title)
        except ValueError:
            return []
        found: list[int] = np.flatnonzero(self.tids == tid).tolist()
        return found


def many_pool(
    catalog: Catalog,
    left: str,
    hits: Sequence[ScoredCandidate],
    *,
    window: float,
    most: int,
) -> ManyPool | list[PoolItem]:
    """The candidates the fuzzy route keeps of many title ``hits`` of ``catalog``, alone.

    ``left``: the reference's normalised title; ``hits``: ``(token_sort_ratio, id)`` pairs,
    none more than ``window`` below the first. The candidate stage's rule, column by column:
    each candidate's similarity is the best of its hit's score and the plain ``fuzz.ratio`` of
    the titles (computed once per distinct title); best first, equal ones in the order of the
    hits (a stable sort); those within ``window`` of the best; and, beyond ``most`` of them,
    those at or above the ``most``-th similarity. A :class:`ManyPool` of them, or the list of
    :data:`PoolItem` when fewer than :data:`_MANY` are left (the few-candidates path reads
    that). Empty ``hits`` give an empty list.
    """
    import numpy as np  # noqa: PLC0415 - imported when first needed (it is a large import)

    if not hits:
        return []
    n = len(hits)
    scores = np.fromiter(map(_first, hits), dtype=np.float64, count=n)
    pid_list = list(map(_second, hits))
    pids = np.asarray(pid_list, dtype=np.intp)
    column = catalog._normalized  # noqa: SLF001 - the catalog's normalised titles
    hit_titles = list(map(column.__getitem__, pid_list))
    # one string per distinct title, in the order first met
    titles = list(dict.fromkeys(hit_titles))
    tid_of = {title: k for k, title in enumerate(titles)}
    tids = np.fromiter(map(tid_of.__getitem__, hit_titles), dtype=np.intp, count=n)
    ratio_of = fuzz.ratio
    ratios = [float(ratio_of(left, title)) if title else 0.0 for title in titles]
    sims = np.maximum(np.asarray(ratios, dtype=np.float64)[tids], scores)
    order = np.argsort(-sims, kind="stable")
    sims = sims[order]
    floor = sims[0] - window
    keep = int(np.count_nonzero(sims >= floor))  # a prefix: the similarities are sorted
    if keep > most:
        keep = int(np.count_nonzero(sims[:keep] >= sims[most - 1]))
    order = order[:keep]
    pool = ManyPool(catalog, sims[:keep], pids[order], tids[order], titles, ratios)
    return pool if keep >= _MANY else pool.items()


def year_tolerances(cfg: ResolverConfig, feats: ReferenceFeatures) -> tuple[int, int]:
    """The year tolerances a fuzzy comparison uses: (years apart, preprint years apart).

    Generic titles recur (columns, editorials, "treasurer's message"): a year off by one is
    another instance, not a preprint, so their years must agree exactly.
    """
    if feats.generic:
        return 0, 0
    return cfg.year_tolerance, cfg.preprint_year_tolerance


def scored_candidate(
    cfg: ResolverConfig,
    feats: ReferenceFeatures,
    paper: Paper,
    title: str,
    sim: float,
    *,
    keys: tuple[Sequence[NameKey], AuthorIndex | None] | None = None,
    close: Sequence[frozenset[str]] | None = None,
    parts: TitlePart | None = None,
) -> _Scored:
    """One title candidate compared as the fuzzy route compares it.

    ``title``: its normalised title; ``sim``: its title similarity; ``keys``: its author keys
    and (for ``close``, the list-against-list author rule) their index, when a catalog keeps
    them; ``parts``: ``title_part(feats.title, title, sim)``, if computed.
    """
    tol, preprint_tol = year_tolerances(cfg, feats)
    return _Scored(
        paper,
        compare(
            feats,
            paper,
            paper_title=title,
            title_score=sim,
            title_parts=title_part(feats.title, title, sim) if parts is None else parts,
            paper_authors=None if keys is None else keys[0],
            paper_author_index=None if keys is None else keys[1],
            author_closeness=close,
            year_tolerance=tol,
            preprint_year_tolerance=preprint_tol,
        ),
        title,
    )


def fails_whatever_fields(
    cfg: ResolverConfig, feats: ReferenceFeatures, parts: TitlePart, paper: Paper
) -> bool:
    """Whether a candidate fails whatever its authors, locator and venue compare to.

    ``parts``: :func:`~citeledger.resolve.scoring.title_part` of the reference's and the
    candidate's titles. Two of :func:`~citeledger.resolve._rules.best_failures`' rules read
    only the title and the year: a title below its threshold with no prefix similarity that
    corroborating fields could make count, and years that disagree (a hard disagreement that
    no rule lifts). Keep in step with it (a test checks that such a candidate fails).
    """
    if feats.generic:
        if parts.title < cfg.min_generic_title_similarity:
            return True
    elif parts.title < cfg.min_title_similarity and (
        parts.prefix is None or parts.prefix < cfg.min_prefix_title_similarity
    ):
        return True
    year, theirs = feats.year, paper.year
    if year is None or theirs is None:
        return False
    tolerance, preprint_tolerance = year_tolerances(cfg, feats)
    if abs(theirs - year) <= tolerance:
        return False  # the years agree, or partly (compare_year)
    return (
        year_agreement(feats, paper, tolerance=tolerance, preprint_tolerance=preprint_tolerance)
        is Agreement.DISAGREE
    )


def compared(
    cfg: ResolverConfig,
    feats: ReferenceFeatures,
    ref: Reference,
    kept: list[PoolItem] | ManyPool,
) -> list[_Scored]:
    """The candidates of ``kept`` that can matter to the decision, compared.

    Comparing every candidate is exact but slow when a title has many look-alikes. A
    candidate's rank is at most its title's points plus what its other fields can add: the
    title's points are bounded from the similarities the candidate stage computed
    (:func:`~citeledger.resolve.scoring.title_bounds`), the other fields by
    :func:`~citeledger.resolve.scoring.field_points_bound`, with the year's own agreement
    once a candidate is not ruled out without it. Some candidates fail whatever the others
    are (a disagreeing year, a title below the threshold that no prefix rescues: see
    :func:`~citeledger.resolve._rules.best_failures`): they are *hopeless*. So:

    1. the candidates that might pass are compared while their bound is within
       ``min_margin`` of the best rank found so far; if there are none, or the best of them
       fails anyway, no candidate can be verified: the decision is ``UNRESOLVED``, and the
       compared candidates (or, with none, the one of best bound) are enough for its reason;
    2. otherwise every other candidate whose bound comes within the margin of the best is
       compared too, and up to two more with the best's own title (the series rule counts
       them).

    The candidates returned are those whose bound comes within the margin of the best rank
    (plus the series' two), a set that does not depend on the order of comparing. Deciding
    on them gives the state and target of deciding on every candidate, and a verified
    result's score and evidence (a test checks it); an ``UNRESOLVED`` reason may name
    another failing candidate, and a verified one a runner-up beyond the margin or none.

    ``kept``: the candidates, best title first: a list, or a :class:`ManyPool` (very many hits
    of one catalog alone).
    """
    tol, preprint_tol = year_tolerances(cfg, feats)
    left = feats.title
    margin = cfg.min_margin
    need_title = cfg.min_generic_title_similarity if feats.generic else cfg.min_title_similarity
    need_prefix = math.inf if feats.generic else cfg.min_prefix_title_similarity
    n = len(kept)
    # (bound, hopeless) once computed
    fine: list[tuple[float, bool] | None] = [None] * n
    done: dict[int, _Scored] = {}

    def paper_of(i: int) -> Paper:
        # The candidate's paper, built by its catalog if not built yet (a pool of many).
        _, paper, _, catalog, pid, _ = kept[i]
        if paper is None:
            assert catalog is not None
            paper = catalog[pid]
        return paper

    # With many candidates: each one's refined bound and whether it is hopeless, all computed
    # at once (by _many_bounds or _column_bounds).
    reach: list[float] = []
    lost: list[bool] = []

    def refine(i: int) -> tuple[float, bool]:
        # The bound with the year's own agreement; hopeless: fails whatever the others.
        have = fine[i]
        if have is None and reach:
            have = fine[i] = (reach[i], lost[i])
        if have is None:
            year = None
            if feats.year is not None:
                _, _, _, catalog, pid, _ = kept[i]
                if catalog is not None:
                    # from the catalog's year column (a record not built yet stays unbuilt)
                    # unless the preprint rule reads the paper itself
                    year = _year_agreement_of_year(
                        feats, catalog.year_of(pid), tolerance=tol, preprint_tolerance=preprint_tol
                    )
                if year is None:
                    year = year_agreement(
                        feats, paper_of(i), tolerance=tol, preprint_tolerance=preprint_tol
                    )
            hopeless = year is Agreement.DISAGREE or weak[i]
            have = fine[i] = (bounds[i].points + field_points_bound(feats, year), hopeless)
        return have

    def one(i: int, close: Sequence[frozenset[str]] | None = None) -> float:
        sim, _, title, catalog, pid, _ = kept[i]
        paper = paper_of(i)
        # The candidate's author keys, kept by the catalog; their index only for ``close``
        # (the list-against-list rule reads both, the pairwise rule the keys alone).
        keys = (
            None
            if catalog is None
            else catalog.authors_of(pid)
            if close is not None
            else (catalog.author_keys(pid), None)
        )
        scored = done[i] = scored_candidate(
            cfg,
            feats,
            paper,
            title,
            sim,
            keys=keys,
            close=None if catalog is None else close,
        )
        return scored.comparison.rank

    def closeness(among: Sequence[int]) -> Sequence[frozenset[str]] | None:
        # The fuzzy family-name clause of the author rule, for the reference's authors
        # against these candidates at once (one RapidFuzz call, not one per pair of names).
        if not feats.authors or len(among) < _BATCH_AUTHORS:
            return None
        where = [(kept[i][3], kept[i][4]) for i in among]
        return family_closeness(
            feats.authors, (c.authors_of(pid)[1] for c, pid in where if c is not None)
        )

    if n == 1 or not _PRUNE:  # one candidate (verify), or the reference behaviour
        close = closeness(range(n))
        for i in range(n):
            one(i, close)
        return list(done.values())

    labelled = without_session_label(left) is not left
    most = field_points_bound(feats)
    # Step 1 goes through ``order`` (every candidate) or, with many candidates, ``live`` (those
    # that are neither weak nor hopeless, in the same order): the others are skipped either way.
    live: list[int] | None = None
    if n < _MANY:
        assert isinstance(kept, list)  # (a ManyPool holds more)
        bounds = [
            title_bounds(left, title, sim, labelled=labelled, ratio=ratio)
            for sim, _, title, _, _, ratio in kept
        ]
        rough = [b.points + most for b in bounds]
        # A title below the threshold that no prefix can rescue fails whatever the year (read
        # first: the year's agreement costs more).
        weak = [
            b.title < need_title and (b.prefix is None or b.prefix < need_prefix) for b in bounds
        ]
        order = sorted(range(n), key=rough.__getitem__, reverse=True)
    else:
        # (not read: every refined bound is known, and no live candidate is weak)
        bounds, weak = [], []
        order = []  # (not needed: ``live`` and ``reaching`` order what is read)
        needs = _Needs(paper_of, tol, preprint_tol, most, need_title, need_prefix, labelled)
        if isinstance(kept, ManyPool):
            rough_at, reach_at, lost_at = _column_bounds(feats, kept, needs)
            rough, reach[:], lost[:] = rough_at.tolist(), reach_at.tolist(), lost_at.tolist()
            live = _by_rough(rough_at, ~lost_at)

            def reaching(floor: float) -> list[int]:
                return _by_rough(rough_at, reach_at >= floor)

        else:
            rough, refined = _many_bounds(feats, kept, needs)
            reach[:], lost[:] = map(_first, refined), map(_second, refined)
            # Sorting a subset stably by rough bound keeps the order it has in ``order``.
            live = sorted(compress(range(n), map(not_, lost)), key=rough.__getitem__, reverse=True)

            def reaching(floor: float) -> list[int]:
                return sorted(
                    compress(range(n), map(floor.__le__, reach)),
                    key=rough.__getitem__,
                    reverse=True,
                )

    # 1. the candidates that might pass
    best = -math.inf
    for i in order if live is None else live:
        if rough[i] < best - margin:
            break  # every later bound is lower still
        if live is None and weak[i]:
            continue  # hopeless (refine would say so)
        bound, hopeless = refine(i)
        if not hopeless and bound >= best - margin:
            best = max(best, one(i))
    if not done:
        if live is None:
            tied = [i for i in order if rough[i] == rough[order[0]]]
        else:  # the same: those of the highest rough bound, in order
            highest = max(rough)
            tied = [i for i, bound in enumerate(rough) if bound == highest]
        one(ranked(tied, rough.__getitem__, paper_of)[0])
        return list(done.values())
    chosen = [s for i, s in done.items() if refine(i)[0] >= best - margin]
    failures, later, _ = best_failures(cfg, feats, ref, _order(list(chosen))[0])
    if failures or later:
        return chosen

    # 2. everything that could outrank the best or come within the margin of it
    floor = best - margin
    more = []
    # (with many candidates, only those whose refined bound reaches the floor: the others are
    # skipped either way, and a rough bound is never below the refined one)
    for i in order if live is None else reaching(floor):
        if rough[i] < floor:
            break
        if i not in done and refine(i)[0] >= floor:
            more.append(i)
    close = closeness(more)
    for i in more:
        best = max(best, one(i, close))
    picked = {i for i in done if refine(i)[0] >= best - margin}
    chosen = [done[i] for i in picked]
    # The series rule counts the other dated works carrying the best's title: two or more
    # (whichever) make a series, so up to two more are compared if the catalog has them.
    top = _order(list(chosen))[0]
    have = sum(1 for s in chosen if s is not top and _series_member(top, s.paper, s.title))
    if have < _SERIES_OTHERS and top.title:
        issues = [
            i
            for i in (
                kept.with_title(top.title)
                if isinstance(kept, ManyPool)
                else [i for i in range(n) if kept[i][2] == top.title]
            )
            if i not in picked
        ]
        for i in ranked(issues, rough.__getitem__, paper_of):
            if have >= _SERIES_OTHERS:
                break
            if i not in done:
                one(i)
            chosen.append(done[i])
            have += _series_member(top, paper_of(i), kept[i][2])
    return chosen


class _Needs(NamedTuple):
    """What the bounds of many candidates read besides them: :func:`compared`'s values."""

    paper_of: Callable[[int], Paper]  # candidate i's paper, built if need be
    tol: int  # the year tolerances (year_tolerances)
    preprint_tol: int
    most: float  # field_points_bound(feats)
    need_title: float  # the title similarity a candidate needs, and its prefix similarity
    need_prefix: float
    labelled: bool  # whether the reference's title holds a session label


def _many_bounds(
    feats: ReferenceFeatures, kept: list[PoolItem], needs: _Needs
) -> tuple[list[float], list[tuple[float, bool]]]:
    """:func:`compared`'s rough bounds and refined (bound, hopeless) for many candidates.

    Many candidates come from a generic title recorded over and over: few distinct titles and
    years among them. So each value is computed once per class of candidates with the same
    title (similarity, title, ratio) and year, by the same expressions as one by one; the years
    are read from the catalog's column (not from the papers) when one catalog proposed them all.
    """
    paper_of, tol, preprint_tol, most, need_title, need_prefix, labelled = needs
    n = len(kept)
    titles = list(map(_bound_key, kept))
    agreement_of: dict[object, Agreement | None]
    if feats.year is None:  # no year's agreement: every class is a title's
        seconds: Sequence[object] = [None] * n
        agreement_of = {None: None}
    else:
        catalogs = set(map(_catalog_of_item, kept))
        catalog = catalogs.pop() if len(catalogs) == 1 else None
        years = (
            [paper_of(i).year or 0 for i in range(n)]
            if catalog is None
            else catalog.years_of(map(_pid_of_item, kept))
        )
        per_year = {
            year: _year_agreement_of_year(
                feats, year or None, tolerance=tol, preprint_tolerance=preprint_tol
            )
            for year in set(years)
        }
        if None in per_year.values():  # the preprint rule reads these papers: by agreement
            agreements = [
                year_agreement(feats, paper_of(i), tolerance=tol, preprint_tolerance=preprint_tol)
                if per_year[year] is None
                else per_year[year]
                for i, year in enumerate(years)
            ]
            seconds = agreements
            agreement_of = {a: a for a in agreements}
        else:
            seconds = years
            agreement_of = dict(per_year)
    classes = list(zip(titles, seconds, strict=True))
    per_title: dict[tuple[float, str, float | None], TitleBounds] = {}
    per_class: dict[object, tuple[float, tuple[float, bool]]] = {}
    for cls in set(classes):
        key, second = cls
        b = per_title.get(key)
        if b is None:
            b = per_title[key] = title_bounds(
                feats.title, key[1], key[0], labelled=labelled, ratio=key[2]
            )
        weak = b.title < need_title and (b.prefix is None or b.prefix < need_prefix)
        year = agreement_of[second]
        per_class[cls] = (
            b.points + most,
            (b.points + field_points_bound(feats, year), year is Agreement.DISAGREE or weak),
        )
    info = list(map(per_class.__getitem__, classes))
    return list(map(_first, info)), list(map(_second, info))


def _column_bounds(
    feats: ReferenceFeatures, kept: ManyPool, needs: _Needs
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    """:func:`_many_bounds` for a :class:`ManyPool`, as arrays: rough, refined bounds, hopeless.

    Each title's bounds are computed once, each year's agreement once, and both spread to the
    candidates by their title and year indexes; only the papers that the preprint rule reads
    are read. The years come from the catalog's year column.
    """
    paper_of, tol, preprint_tol, most, need_title, need_prefix, labelled = needs
    import numpy as np  # noqa: PLC0415 - imported when first needed (it is a large import)

    n = len(kept)
    # The title classes (similarity, title, ratio), and each candidate's (an index into them).
    sim_of = _similarity_per_title(kept)
    if sim_of is not None:
        keys = list(zip(sim_of.tolist(), kept.titles, kept.ratios, strict=True))
        of_class = kept.tids
    else:  # (not met: the two halves of a similarity are the title's) class by class
        per_item = [
            (sim, kept.titles[t], kept.ratios[t])
            for sim, t in zip(kept.sims.tolist(), kept.tids.tolist(), strict=True)
        ]
        index = {key: k for k, key in enumerate(dict.fromkeys(per_item))}
        keys = list(index)
        of_class = np.fromiter(map(index.__getitem__, per_item), dtype=np.intp, count=n)
    bounds = [
        title_bounds(feats.title, title, sim, labelled=labelled, ratio=ratio)
        for sim, title, ratio in keys
    ]
    points = np.array([b.points for b in bounds], dtype=np.float64)
    weak = np.array(
        [b.title < need_title and (b.prefix is None or b.prefix < need_prefix) for b in bounds],
        dtype=np.bool_,
    )
    rough = (points + most)[of_class]
    if feats.year is None:  # no year's agreement: every class is a title's
        return rough, (points + field_points_bound(feats, None))[of_class], weak[of_class]
    years = kept.catalog.years_at(kept.pids)
    distinct, of_year = np.unique(years, return_inverse=True)
    per_year = [
        _year_agreement_of_year(feats, year or None, tolerance=tol, preprint_tolerance=preprint_tol)
        for year in distinct.tolist()
    ]
    # Each candidate's year agreement as an index into _AGREEMENTS.
    codes = np.array([0 if a is None else _AGREEMENT_CODE[a] for a in per_year], dtype=np.intp)[
        of_year.reshape(-1)
    ]
    if None in per_year:  # the preprint rule reads these papers
        unknown = np.array([a is None for a in per_year], dtype=np.bool_)
        for i in np.flatnonzero(unknown[of_year.reshape(-1)]).tolist():
            codes[i] = _AGREEMENT_CODE[
                year_agreement(feats, paper_of(i), tolerance=tol, preprint_tolerance=preprint_tol)
            ]
    per_code = np.array([field_points_bound(feats, a) for a in _AGREEMENTS], dtype=np.float64)
    reach = points[of_class] + per_code[codes]
    lost = (codes == _AGREEMENT_CODE[Agreement.DISAGREE]) | weak[of_class]
    return rough, reach, lost


def _by_rough(rough: npt.NDArray[np.float64], among: npt.NDArray[np.bool_]) -> list[int]:
    """The candidates ``among`` by ``rough`` bound, highest first, equal ones in order.

    The order ``sorted(candidates, key=rough.__getitem__, reverse=True)`` gives (a stable
    sort, reversed or not, keeps equal ones in order).
    """
    import numpy as np  # noqa: PLC0415 - imported when first needed (it is a large import)

    chosen = np.flatnonzero(among)
    ordered: list[int] = chosen[np.argsort(-rough[chosen], kind="stable")].tolist()
    return ordered


# Year agreements as small integers, for the arrays of _column_bounds.
_AGREEMENTS: Final = tuple(Agreement)
_AGREEMENT_CODE: Final = {a: k for k, a in enumerate(_AGREEMENTS)}


def _similarity_per_title(pool: ManyPool) -> npt.NDArray[np.float64] | None:
    """Each distinct title's similarity, or None if two candidates of one title differ in it.

    They should not: both halves of a similarity are computed from the title alone.
    """
    import numpy as np  # noqa: PLC0415 - imported when first needed (it is a large import)

    per_title = np.zeros(len(pool.titles))
    per_title[pool.tids] = pool.sims
    return per_title if np.array_equal(per_title[pool.tids], pool.sims) else None
