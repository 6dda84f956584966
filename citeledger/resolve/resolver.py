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

import gc
import multiprocessing
import pickle
import queue as queue_module
import re
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from operator import itemgetter
from typing import Any, ClassVar, Final

import attrs
from attrs import field, frozen
from rapidfuzz import fuzz

from citeledger._progress import progress_callback
from citeledger.errors import InvalidArgument, ModelError, WorkerLost
from citeledger.identifiers import (
    PREPRINT_DOI_PREFIXES,
    Identifier,
    version_key,
    version_of,
    work_key,
)
from citeledger.model import (
    Agreement,
    Evidence,
    Method,
    Paper,
    Reference,
    Resolution,
    ResolutionState,
    _non_negative,  # the model's own validator
)
from citeledger.resolve.catalog import (
    CandidateProvider,
    Catalog,
    _shown_repr,
    locator_key,
)
from citeledger.resolve.normalize import is_generic_title, normalize_title, title_tokens
from citeledger.resolve.scoring import (
    Comparison,
    NameKey,
    ReferenceFeatures,
    VenueKind,
    _trusted_evidence,
    compare,
    compare_authors,
    name_keys,
    notice_kind,
    same_journal,
    title_similarity,
    title_word_conflict,
    venue_kind,
    without_session_label,
)

__all__ = ["ProgressCallback", "Resolver", "ResolverConfig", "verify"]

#: ``progress(done, total)``, called as batches finish.
ProgressCallback = Callable[[int, int], object]


def _score_range(_: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not 0.0 <= value <= 100.0:
        raise ValueError(f"{attribute.name} must be within 0-100, got {value}")


def _unit_range(_: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{attribute.name} must be within 0-1, got {value}")


@frozen(kw_only=True)
class ResolverConfig:
    """Thresholds and tolerances of the resolver.

    Every ``min_*`` field is a *threshold*: raising it never adds a verified match (the property
    tests check this). The ``*_tolerance`` fields and ``candidate_limit`` are not thresholds.
    Defaults were tuned on the development half of the matching data (``docs/resolver.md``),
    favouring precision: a wrong verified match is the worst outcome a ledger can have.

    Args:
        min_title_similarity: Fuzzy route: title similarity (0-100, RapidFuzz ``ratio`` /
            ``token_sort_ratio`` on normalised titles) the best candidate needs.
        min_generic_title_similarity: The same for short or generic titles ("Editorial",
            "Reply", fewer than three content words).
        min_corroborations: Fields other than the title that must agree (authors, exact year,
            volume, first page, venue).
        min_generic_corroborations: The same for short or generic titles.
        min_title_similarity_alone: A non-generic title this similar verifies without
            corroborating fields (still with no disagreeing field and a clear lead).
        min_prefix_title_similarity: A title that matches the *start* or the *end* of the
            candidate's (or the other way round: a dropped subtitle, a truncated title, dropped
            leading words) this well, with at least 25 characters, passes the title test when
            ``min_prefix_corroborations`` fields agree.
        min_prefix_corroborations: Corroborating fields needed for such a partial match.
        min_margin: How far (ranking points) the best candidate must lead the best candidate of
            another work. Look-alikes closer than this stay ``UNRESOLVED``.
        min_exact_title_similarity: Identifier route: a lenient title similarity below this is a
            clear disagreement (``METADATA_MISMATCH``).
        min_parse_confidence: Parsed strings below this confidence are ``PARSE_UNCERTAIN``
            unless an identifier resolves them.
        year_tolerance: Fuzzy route: years this far apart are compatible (preprint/published).
        preprint_year_tolerance: Fuzzy route: when exactly one side is a preprint (an arXiv id,
            a preprint server's DOI or venue), the published side may be this many years later
            (publication often takes two or three years). Not for generic titles.
        exact_year_tolerance: Identifier route: years further apart than this clearly disagree.
        candidate_limit: How many title candidates each provider proposes.

    .. versionadded:: 0.1.0
    """

    #: Names of the fields where higher means stricter.
    THRESHOLDS: ClassVar[tuple[str, ...]] = (
        "min_corroborations",
        "min_exact_title_similarity",
        "min_generic_corroborations",
        "min_generic_title_similarity",
        "min_margin",
        "min_parse_confidence",
        "min_prefix_corroborations",
        "min_prefix_title_similarity",
        "min_title_similarity",
        "min_title_similarity_alone",
    )

    min_title_similarity: float = field(default=90.0, validator=_score_range)
    min_generic_title_similarity: float = field(default=97.0, validator=_score_range)
    min_corroborations: int = field(default=1, validator=_non_negative)
    min_generic_corroborations: int = field(default=2, validator=_non_negative)
    min_title_similarity_alone: float = field(default=100.0, validator=_score_range)
    min_prefix_title_similarity: float = field(default=95.0, validator=_score_range)
    min_prefix_corroborations: int = field(default=3, validator=_non_negative)
    min_margin: float = field(default=5.0, validator=_score_range)
    min_exact_title_similarity: float = field(default=70.0, validator=_score_range)
    min_parse_confidence: float = field(default=0.3, validator=_unit_range)
    year_tolerance: int = field(default=1, validator=_non_negative)
    preprint_year_tolerance: int = field(default=3, validator=_non_negative)
    exact_year_tolerance: int = field(default=2, validator=_non_negative)
    candidate_limit: int = field(default=10, validator=_non_negative)


# Candidates further than this below the best title similarity are not scored in full: with the
# bounded field weights of ``scoring`` they cannot come within any sensible margin of the best.
_TITLE_WINDOW: Final = 30.0
_MAX_SCORED: Final = 12
# The catalog's default score_cutoff for candidate titles (Catalog.scored_candidates).
_BLOCK_CUTOFF: Final = 50.0
# Two catalog records whose titles are at least this similar (and long, with no substituted word)
# may be one work recorded twice (see ``_duplicate_record``). A constant of the catalog's
# description, not a threshold of the decision.
_DUPLICATE_TITLE: Final = 95.0
_DUPLICATE_MIN_LENGTH: Final = 25
# With an agreeing volume and first page, a title at least this similar identifies the article
# (see ``_fuzzy_decision``). A constant, not a threshold of the configuration.
_ARTICLE_TITLE: Final = 95.0
# A title shared with this many other works names a series (see ``_fuzzy_decision``).
_SERIES_OTHERS: Final = 2
# resolve_many(workers=1) freezes the collector's objects for batches at least this long.
_FREEZE_MIN: Final = 100


@frozen
class _Scored:
    paper: Paper
    comparison: Comparison
    title: str = ""  # the paper's normalised title


#: Parse confidence of a string the parser read as a title-less style (refparse gives 0.85).
_CONFIDENT_TITLE_LESS: Final = 0.8


def _tie_key(paper: Paper) -> tuple[str, str, int]:
    return (paper.key, paper.title or "", paper.year or 0)


def _same_work(a: Paper, b: Paper) -> bool:
    if a is b or a == b:
        return True
    if not a.identifiers or not b.identifiers:
        return False
    return not {version_key(i) for i in a.identifiers}.isdisjoint(
        [version_key(i) for i in b.identifiers]
    )


def _duplicate_record(a: _Scored, b: _Scored) -> bool:
    """Two catalog records that describe one work, one perhaps with fewer fields.

    The same normalised title, or titles that differ only by a typo (similarity at least
    ``_DUPLICATE_TITLE``, both at least 25 characters, and no substituted word or number between
    them: :func:`~citeledger.resolve.scoring.title_word_conflict`); no conflicting year, no
    conflicting identifier, and author lists that agree (or one is empty). Catalogs built from
    scraped sources (Google Scholar) hold such duplicates ("… for mobile data access" and "… for
    mobile data acess", same authors); they are not the look-alikes the margin rule protects
    against.
    """
    pa, pb = a.paper, b.paper
    ta, tb = _one_title(a, b)
    if not ta or not tb:
        return False
    if pa.year is not None and pb.year is not None and pa.year != pb.year:
        return False
    for ia in pa.identifiers:
        if any(ib.scheme == ia.scheme and work_key(ib) != work_key(ia) for ib in pb.identifiers):
            return False
    ka, kb = name_keys(pa.authors), name_keys(pb.authors)
    if ka and kb:
        agreement = compare_authors(ka, kb)[0]
        # Scraped records of one work list its authors in different orders and lengths ("rw
        # moore, a jagatheesan" / "a rajasekar, a jagatheesan"): with the same long title and
        # no year on either side to tell versions apart, one shared author is enough.
        undated = pa.year is None and pb.year is None
        if ta == tb and undated and not is_generic_title(ta):
            return agreement in (Agreement.AGREE, Agreement.PARTIAL)
        return agreement is Agreement.AGREE
    return True


def _shared_identifier(ident: Identifier, scored: Sequence[_Scored]) -> list[_Scored]:
    """The records holding ``ident`` itself when they are different works, else ``[]``.

    Two catalog records under one identifier that are not one work's duplicate records
    (:func:`_duplicate_record`): a catalog merging sources that disagree, or a DOI reused.
    """
    key = work_key(ident)
    holding = [s for s in scored if any(work_key(i) == key for i in s.paper.identifiers)]
    if len(holding) < 2:
        return []
    first = holding[0]
    if all(_same_work(first.paper, s.paper) and first.paper == s.paper for s in holding[1:]):
        return []
    if all(_duplicate_record(first, s) for s in holding[1:]):
        return []
    return holding


def _compared_nothing(comp: Comparison) -> bool:
    """Whether a comparison found no field on both sides (a bare identifier)."""
    return comp.title is None and all(o[1] is Agreement.MISSING for o in comp.outcomes)


def _one_title(a: _Scored, b: _Scored) -> tuple[str, str]:
    """The two normalised titles if they are one title (equal, or a typo apart), else ``""``s.

    A typo apart: both at least 25 characters, similarity at least ``_DUPLICATE_TITLE`` and no
    substituted word or number (:func:`~citeledger.resolve.scoring.title_word_conflict`).
    """
    ta = a.title or normalize_title(a.paper.title)
    tb = b.title or normalize_title(b.paper.title)
    if not ta or not tb:
        return "", ""
    if (
        ta != tb
        and without_session_label(ta) != without_session_label(tb)
        and (
            min(len(ta), len(tb)) < _DUPLICATE_MIN_LENGTH
            or title_similarity(ta, tb) < _DUPLICATE_TITLE
            or title_word_conflict(ta, tb) is not None
        )
    ):
        return "", ""
    return ta, tb


def _other_version(feats: ReferenceFeatures, best: _Scored, rival: _Scored) -> str:
    """Why ``rival`` is another publication of ``best``'s work that the reference cannot cite.

    ``""`` unless the two records carry one title (:func:`_one_title`) and agreeing author lists
    (the conference paper and its journal version), and the reference's venue kind and year
    rule the rival out (:func:`_other_publication`).
    """
    why = _other_publication(feats, rival.paper)
    if not why or not _one_title(best, rival)[0]:
        return ""
    ka, kb = name_keys(best.paper.authors), name_keys(rival.paper.authors)
    if not ka or not kb or compare_authors(ka, kb)[0] is not Agreement.AGREE:
        return ""
    return why


def _order(items: list[_Scored]) -> list[_Scored]:
    """Best rank first; ties by the papers' keys, then their full repr (never insertion order).

    Keys are computed only inside groups of equal rank, which are rare and small, and the repr
    only among papers whose keys are equal too (formatting a paper costs more than comparing
    it): the order is the one of sorting by ``(*key, repr)``, without formatting the papers
    that the key alone tells apart.
    """
    if len(items) < 2:  # nothing to order
        return items
    items.sort(key=_neg_rank)
    i = 0
    while i < len(items) - 1:
        j = i + 1
        while j < len(items) and items[j].comparison.rank == items[i].comparison.rank:
            j += 1
        if j - i > 1:
            keyed = [(_tie_key(s.paper), s) for s in items[i:j]]
            keyed.sort(key=itemgetter(0))
            if len({k for k, _ in keyed}) < len(keyed):
                keyed.sort(key=lambda ks: (ks[0], repr(ks[1].paper)))
            items[i:j] = [s for _, s in keyed]
        i = j
    return items


def _neg_rank(item: _Scored) -> float:
    return -item.comparison.rank


def _ident_evidence(ident: Identifier, paper: Paper | None, note: str) -> Evidence:
    if paper is None:
        return Evidence(
            field=ident.scheme.value, agreement=Agreement.MISSING, left=str(ident), note=note
        )
    key = work_key(ident)
    match = next((i for i in paper.identifiers if work_key(i) == key), None)
    if match is None:
        base = version_of(key)
        match = next((i for i in paper.identifiers if version_key(i) == base), None)
    return Evidence(
        field=ident.scheme.value,
        agreement=Agreement.AGREE,
        left=str(ident),
        right=str(match) if match is not None else None,
        note=note,
    )


def _malformed_evidence(ref: Reference) -> list[Evidence]:
    return [
        Evidence(
            field=frag.scheme.value,
            agreement=Agreement.DISAGREE,
            left=frag.text,
            note=f"malformed {frag.scheme.value}: {frag.reason}",
        )
        for frag in ref.malformed
    ]


def _malformed_reason(ref: Reference) -> str:
    parts = [
        f"malformed {frag.scheme.value} {frag.text!r} ({frag.reason})" for frag in ref.malformed
    ]
    return "; ".join(parts)


def _describe(paper: Paper) -> str:
    title = paper.title or "(untitled)"
    title = title if len(title) <= 60 else title[:59] + "…"
    year = f", {paper.year}" if paper.year else ""
    return f"{title!r}{year} [{paper.key}]"


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

    def _by_identifier(self, ident: Identifier) -> list[Paper]:
        found: list[Paper] = []
        for provider in self.providers:
            for paper in _asked(provider, partial(provider.by_identifier, ident)):
                if not any(paper is p or paper == p for p in found):
                    found.append(paper)
        return found

    def _candidates(self, feats: ReferenceFeatures, ref: Reference) -> list[_Scored]:
        limit = self.config.candidate_limit
        # (title similarity, paper, its normalised title, its author keys if known)
        pool: list[tuple[float, Paper, str, tuple[NameKey, ...] | None]] = []
        for provider in self.providers:
            if isinstance(provider, Catalog):
                hits = provider.scored_candidates(
                    feats.title, limit=limit, ordered=False, tokens=feats.tokens
                )
                # The title similarity is at least this word-order-free one, and plain ``ratio``
                # does not beat it by tens of points, so candidates this far behind the best do
                # not come within the title window below; skipping them saves normalising their
                # titles. (A bound on scores only: no threshold is involved.)
                floor = hits[0][0] - _TITLE_WINDOW if hits else 0.0
                for score, pid in hits:
                    if score < floor:
                        break
                    title = provider.title_of(pid)
                    # ``score`` is already the token_sort_ratio half of title_similarity (the
                    # catalog computed it on the same normalised titles); add the ratio half.
                    sim = float(fuzz.ratio(feats.title, title)) if title else 0.0
                    pool.append((max(sim, score), provider[pid], title, provider.author_keys(pid)))
            elif isinstance(provider, _OnePaper):
                # verify(): the same proposal and score as below, from the features at hand.
                pool.extend(
                    (sim, paper, title, None) for sim, paper, title in provider.scored(feats)
                )
            else:
                for paper in _asked(provider, partial(provider.candidates, ref, limit=limit)):
                    title = normalize_title(paper.title)
                    pool.append((title_similarity(feats.title, title), paper, title, None))
        if not pool:
            return []
        if len(self.providers) > 1:
            unique: list[tuple[float, Paper, str, tuple[NameKey, ...] | None]] = []
            for item in pool:
                if not any(item[1] == u[1] for u in unique):
                    unique.append(item)
            pool = unique
        pool.sort(key=lambda t: -t[0])  # ties at the cut are all kept below
        top = pool[0][0]
        floor = top - _TITLE_WINDOW
        kept = [t for t in pool if t[0] >= floor]
        if len(kept) > _MAX_SCORED:
            edge = kept[_MAX_SCORED - 1][0]
            kept = [t for t in kept if t[0] >= edge]
        # Generic titles recur (columns, editorials, "treasurer's message"): a year off by one
        # is another instance, not a preprint, so their years must agree exactly.
        tol = 0 if feats.generic else self.config.year_tolerance
        preprint_tol = 0 if feats.generic else self.config.preprint_year_tolerance
        scored = [
            _Scored(
                paper,
                compare(
                    feats,
                    paper,
                    paper_title=title,
                    title_score=sim,
                    paper_authors=keys,
                    year_tolerance=tol,
                    preprint_year_tolerance=preprint_tol,
                ),
                title,
            )
            for sim, paper, title, keys in kept
        ]
        return _order(scored)

    # ----------------------------------------------------------------------------- routes

    def _exact_problems(self, comp: Comparison) -> list[str]:
        cfg = self.config
        problems: list[str] = []
        # The title agreement is MISSING exactly when the candidate has no title.
        title_agreement = comp.agreement("title")
        if (
            comp.title is not None
            and title_agreement is not None
            and title_agreement is not Agreement.MISSING
            and comp.title < cfg.min_exact_title_similarity
        ):
            problems.append("title")
        if "year" in comp.hard:
            problems.append("year")
        if "authors" in comp.hard and (comp.title is None or comp.title < 90.0):
            problems.append("authors")
        if "volume+first_page" in comp.hard:
            problems.append("volume+first_page")
        return problems

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

    def _locator_decision(
        self, feats: ReferenceFeatures, candidates: list[_Scored]
    ) -> tuple[bool, str, _Scored | None, _Scored | None]:
        """(verified, reason, best, rival) of the journal/volume/page route.

        A candidate (same volume and first page) verifies when its journal agrees, nothing
        clearly disagrees (author lists sharing no name, a year beyond the tolerance), the
        exact year or the authors confirm it, and no other work in that journal, volume and
        page could be the one cited (two letters on one page: neither is claimed).
        """
        where = f"volume {feats.volume!r}, first page {feats.first_page!r}"
        if not candidates:
            return False, f"no catalog record has {where}", None, None
        # The same journal (scoring.same_journal: equal names, or one abbreviating all of the
        # other), stricter than the venue agreement that corroborates a title: "Nature" and
        # "Nature Genetics" both have a volume 76 with a page 4350.
        journal = [
            c
            for c in candidates
            if not c.comparison.hard and same_journal(feats.venue, c.paper.venue)
        ]
        if not journal:
            best = candidates[0]
            comp = best.comparison
            problems = [f"disagreeing {', '.join(comp.hard)}"] if comp.hard else []
            if not same_journal(feats.venue, best.paper.venue):
                problems.insert(0, f"journal {best.paper.venue!r} is not {feats.venue!r}")
            return (
                False,
                f"{_describe(best.paper)} has {where} but {'; '.join(problems)}",
                best,
                None,
            )
        confirmed = [c for c in journal if _locator_confirmed(c.comparison, c.paper)]
        if not confirmed:
            best = journal[0]
            return (
                False,
                (
                    f"{_describe(best.paper)} has {where} in {feats.venue!r}, but neither the year "
                    "nor the authors confirm it"
                ),
                best,
                None,
            )
        best = confirmed[0]
        rival = next(
            (
                c
                for c in journal
                if c is not best
                and not _same_work(c.paper, best.paper)
                and not _duplicate_record(best, c)
            ),
            None,
        )
        if rival is not None:
            return (
                False,
                (
                    f"ambiguous: {_describe(best.paper)} and {_describe(rival.paper)} both have "
                    f"{where} in {feats.venue!r}"
                ),
                best,
                rival,
            )
        agreed = [o[0] for o in best.comparison.outcomes if o[1] is Agreement.AGREE]
        bare = "; the record has no year or authors to check" if _unconfirmable(best.paper) else ""
        return (
            True,
            (
                f"no title; the journal, volume and first page identify {_describe(best.paper)} "
                f"({', '.join(agreed)} agree{bare})"
            ),
            best,
            None,
        )

    def _fuzzy_decision(
        self, feats: ReferenceFeatures, ref: Reference, candidates: list[_Scored]
    ) -> tuple[bool, str, _Scored | None, _Scored | None]:
        """(verified, reason, best, runner-up of another work)."""
        cfg = self.config
        if not candidates:
            return False, "no candidate shares the title's distinctive words", None, None
        best = candidates[0]
        # The rival: the best candidate of another work (a duplicate record of the best is the
        # same work); it is reported with the result. The runner-up the margin is measured
        # against is the best rival the reference could cite: another publication of the best's
        # work (the same title and authors: the journal version, another year, of the conference
        # paper the reference names) is a record the reference cannot be (the rule below refuses
        # it as a best candidate), so it is no look-alike.
        # A notice (a correction, a retraction notice, a comment) and the work it is about are
        # two works, but one cannot be the other's look-alike for this reference either: the
        # reference cites a notice of its own kind or none (``notice_kind``).
        notice = notice_kind(ref.title)
        others = (
            c
            for c in candidates[1:]
            if not _same_work(c.paper, best.paper)
            and not _duplicate_record(best, c)
            and notice_kind(c.paper.title) == notice
        )
        rival = next(others, None)
        runner = rival
        while runner is not None and _other_version(feats, best, runner):
            runner = next(others, None)
        comp = best.comparison
        title = comp.title or 0.0
        failures: list[str] = []
        need_title = cfg.min_generic_title_similarity if feats.generic else cfg.min_title_similarity
        need_corr = cfg.min_generic_corroborations if feats.generic else cfg.min_corroborations
        conflict = _identifier_conflict(ref, best.paper)
        if conflict:
            need_corr += 1
        prefix_ok = (
            not feats.generic
            and comp.prefix_title is not None
            and comp.prefix_title >= cfg.min_prefix_title_similarity
            and comp.corroborations >= cfg.min_prefix_corroborations
        )
        title_ok = title >= need_title or prefix_ok
        # A substituted word or a differing part number: a sibling paper, not a variant spelling.
        # (Only worth computing when the title passes; otherwise the candidate fails anyway.)
        words = title_word_conflict(feats.title, best.title) if best.title and title_ok else None
        if words is not None:
            need_corr += 1
        alone = (
            not feats.generic
            and title >= cfg.min_title_similarity_alone
            and not conflict
            and words is None
        )
        if not title_ok:
            failures.append(f"title similarity {title:.1f} below {need_title:g}")
        hard = list(comp.hard)
        note = ""
        # A near-identical title in the same volume at the same first page is the article: an
        # author list that disagrees is then a reading error (a PDF string that starts mid-list,
        # "H, Nakashima Y (2006) ...", OCR damage, "HuVman DL", "Kamin´skiKamin´ski M"). Not for
        # short or generic titles (several replies titled "Deux oreilles" share a page of Notes
        # and Queries) nor against another identifier of the same scheme.
        if (
            "authors" in hard
            and not feats.generic
            and not conflict
            and title >= _ARTICLE_TITLE
            and comp.agreement("volume") is Agreement.AGREE
            and comp.agreement("first_page") is Agreement.AGREE
        ):
            hard.remove("authors")
            note = (
                "the author lists disagree, but the title, volume and first page identify the "
                "article"
            )
        if hard:
            failures.append("disagreeing " + ", ".join(hard))
        page = _other_page(ref, best.paper, comp)
        if page:
            failures.append(page)
        if words is not None:
            # With a substituted title word, a differing volume or page is the other paper's.
            codes = [
                name
                for name in ("volume", "first_page")
                if comp.agreement(name) is Agreement.DISAGREE
            ]
            if codes:
                failures.append(f"titles differ ({words}) and so do {', '.join(codes)}")
        if comp.corroborations < need_corr and not alone:
            what = "short/generic title" if feats.generic else "title"
            failures.append(
                f"{what} corroborated by {comp.corroborations} field(s), {need_corr} needed"
                + (" (candidate has a different identifier of the same scheme)" if conflict else "")
                + (f" (titles differ: {words})" if words else "")
            )
        # A title that two or more other dated works in the catalog also carry names a series
        # (a column, an editorial, "reminiscences on influential papers"), not a paper. Issues
        # of a series share title, editor and venue, and a catalog rarely holds every issue, so
        # the year must agree exactly *and* a volume or first page must agree. (One other work
        # with the same title is usually the conference and journal version of one paper, which
        # the margin rule handles; undated records are usually duplicates.)
        series = [
            c
            for c in candidates[1:]
            if best.title
            and c.title == best.title
            and c.paper.year is not None
            and not _same_work(c.paper, best.paper)
        ]
        if len(series) >= _SERIES_OTHERS:
            agreed = {o[0] for o in comp.outcomes if o[1] is Agreement.AGREE}
            if "year" not in agreed or not agreed & {"volume", "first_page"}:
                failures.append(
                    f"the title recurs ({_describe(series[0].paper)}, …): a series needs the "
                    "same year and an agreeing volume or first page"
                )
        # A conference paper and its journal version (a year or more later, often extended) are
        # two publications of one work: a reference names one of them, and a verified match to
        # the other would put the wrong publication in the ledger. Preprint servers are no kind
        # here (preprint vs published, year +-1, is the same work); a shared DOI still verifies
        # through the identifier route.
        other = _other_publication(feats, best.paper)
        if other:
            failures.append(other)
        theirs = notice_kind(best.paper.title)
        if theirs != notice:
            failures.append(
                f"the candidate is a {theirs} notice about the work, not the work"
                if notice is None
                else f"the reference cites a {notice} notice, the candidate is "
                + (f"a {theirs} notice" if theirs else "the work")
            )
        if failures:
            return (
                False,
                f"best candidate {_describe(best.paper)}: " + "; ".join(failures),
                best,
                rival,
            )
        if runner is not None:
            lead = comp.rank - runner.comparison.rank
            if lead < cfg.min_margin:
                return (
                    False,
                    (
                        f"ambiguous: {_describe(best.paper)} leads {_describe(runner.paper)} by "
                        f"{lead:.1f}, {cfg.min_margin:g} needed"
                    ),
                    best,
                    runner,
                )
        if rival is not None and rival is not runner:
            why = _other_version(feats, best, rival)
            note = "; ".join(filter(None, [note, f"the runner-up is {why}"]))
        return True, note, best, rival

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
        if isinstance(ref, str):
            ref = Reference.from_string(ref)
        elif isinstance(ref, Paper):
            ref = _reference_from_paper(ref)
        elif not isinstance(ref, Reference):
            raise ModelError(
                f"cannot resolve a {type(ref).__name__}: pass a Reference, a Paper or a "
                "reference string"
            )
        cfg = self.config
        feats = ReferenceFeatures.of(ref)
        evidence: list[Evidence] = []

        # 1. identifier route
        mismatch: tuple[Identifier, _Scored, list[str]] | None = None
        for ident in ref.identifiers:
            hits = self._by_identifier(ident)
            if not hits:
                evidence.append(
                    _ident_evidence(
                        ident, None, "valid identifier not in catalog; tried the fuzzy route"
                    )
                )
                continue
            scored = _order(
                [
                    _Scored(
                        p,
                        compare(
                            feats, p, lenient_title=True, year_tolerance=cfg.exact_year_tolerance
                        ),
                    )
                    for p in hits
                ]
            )
            agreeing = [s for s in scored if not self._exact_problems(s.comparison)]
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
                chosen = agreeing[0]
                key = work_key(ident)
                direct = any(work_key(i) == key for i in chosen.paper.identifiers)
                versioned = not direct and any(
                    version_key(i) == version_of(key) for i in chosen.paper.identifiers
                )
                note = (
                    "found in catalog"
                    if direct
                    else "found via another version of the DOI"
                    if versioned
                    else "found via a related version (preprint/published link)"
                )
                comp = chosen.comparison
                return _trusted_resolution(
                    state=ResolutionState.VERIFIED_EXACT,
                    method=Method.for_scheme(ident.scheme),
                    target=chosen.paper,
                    score=_agreement_score(comp, identifier=True),
                    evidence=(
                        *evidence,
                        _ident_evidence(ident, chosen.paper, note),
                        *comp.evidence,
                    ),
                    reason=f"{ident} {note}{told}; metadata agree",
                    alternatives=tuple(s.paper for s in agreeing[1:]),
                )
            if mismatch is None:
                mismatch = (ident, scored[0], self._exact_problems(scored[0].comparison))

        if mismatch is not None:
            ident, chosen, problems = mismatch
            fuzzy_alt: tuple[Paper, ...] = ()
            extra = ""
            if feats.title:
                ok, _, best, _ = self._fuzzy_decision(feats, ref, self._candidates(feats, ref))
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
            extra: Sequence[Evidence] = (),
        ) -> Resolution:
            if ref.malformed:
                state = ResolutionState.MALFORMED_IDENTIFIER
                reason = f"{_malformed_reason(ref)}; {reason}"
            return _trusted_resolution(
                state=state,
                method=None,
                reason=reason,
                evidence=(*evidence, *extra),
                alternatives=tuple(alternatives),
            )

        # 2. is there anything to match on?
        not_found = ", ".join(str(i) for i in ref.identifiers) if ref.identifiers else ""
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
                ok, reason, best, runner = self._locator_decision(feats, self._locate(feats))
                prefix = f"{not_found} not in catalog; " if ref.identifiers else ""
                if ok and best is not None:
                    comp = best.comparison
                    return _trusted_resolution(
                        state=ResolutionState.VERIFIED_FUZZY,
                        method=Method.JOURNAL_VOLUME_PAGE,
                        target=best.paper,
                        score=_agreement_score(comp),
                        evidence=(*evidence, *comp.evidence),
                        reason=prefix + reason,
                        alternatives=(),
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
                    () if best is None else best.comparison.evidence,
                )
            if ref.identifiers:
                return fail(
                    ResolutionState.UNRESOLVED,
                    f"{not_found} not in catalog and no title to match on",
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
        candidates = self._candidates(feats, ref)
        ok, reason, best, runner = self._fuzzy_decision(feats, ref, candidates)
        if ok and best is not None:
            comp = best.comparison
            lead = (
                "no other candidate"
                if runner is None
                else (
                    f"leads {_describe(runner.paper)} by {comp.rank - runner.comparison.rank:.1f}"
                )
            )
            prefix = f"{not_found} not in catalog; " if ref.identifiers else ""
            return _trusted_resolution(
                state=ResolutionState.VERIFIED_FUZZY,
                method=Method.FUZZY_TITLE,
                target=best.paper,
                score=_agreement_score(comp),
                evidence=(*evidence, *comp.evidence),
                reason=f"{prefix}title similarity {comp.title or 0.0:.1f} with "
                f"{comp.corroborations} corroborating field(s); {lead}"
                + (f"; {reason}" if reason else ""),
                alternatives=() if runner is None else (runner.paper,),
            )
        if ref.identifiers:
            reason = f"{not_found} not in catalog; {reason}"
        alternatives = [c.paper for c in (best, runner) if c is not None]
        return fail(
            ResolutionState.UNRESOLVED,
            reason,
            alternatives,
            () if best is None else best.comparison.evidence,
        )

    # ----------------------------------------------------------------------------- batches

    def resolve_many(
        self,
        refs: Iterable[Reference | Paper | str],
        *,
        workers: int = 1,
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
            progress: ``progress(done, total)`` called as batches finish; ``True`` shows a tqdm
                bar when tqdm is installed, only on a terminal; ``None`` for none.

        While a batch of 100 or more runs (and with children), the objects that existed before
        it are frozen out of the garbage collector (:func:`gc.freeze`), so collections do not
        walk the catalog; they are unfrozen afterwards unless the caller had frozen objects
        already.

        Raises:
            WorkerLost: A child process died (killed, out of memory) before reporting its
                batch; the other children are stopped. An exception raised in a child is
                raised here.
            ModelError: ``refs`` is a string or not iterable (a bad *item* is a
                ``PARSE_UNCERTAIN`` result instead).
            InvalidArgument: ``workers`` is not a whole number of at least 1.
        """
        valid: object = workers
        if isinstance(valid, bool) or not isinstance(valid, int) or valid < 1:
            raise InvalidArgument(f"workers must be a whole number >= 1, got {workers!r}")
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
        if workers <= 1 or total <= _MIN_BATCH or multiprocessing.current_process().daemon:
            out: list[Resolution] = []
            step = max(1, min(1000, total // 100 or 1))
            # The results kept here survive into the collector's oldest generation, so a long
            # batch triggers full collections, each walking every object of the catalog (millions:
            # about a fifth of the single-process time at 200k papers). Freezing the objects that
            # exist now takes the catalog out of those walks; undone below (see the pool path).
            freeze = total >= _FREEZE_MIN and gc.get_freeze_count() == 0
            if freeze:
                gc.freeze()
            try:
                for i, ref in enumerate(items, 1):
                    out.append(bad[i - 1] if i - 1 in bad else _contained(self, ref))
                    if report is not None and (i % step == 0 or i == total):
                        report(i, total)
            finally:
                if freeze:
                    gc.unfreeze()
            return out
        return self._resolve_in_processes(items, bad, workers, report)

    def _resolve_in_processes(
        self,
        items: list[Reference | Paper | str],
        bad: dict[int, Resolution],
        workers: int,
        report: ProgressCallback | None,
    ) -> list[Resolution]:
        """``resolve_many`` with ``workers`` processes: this one and ``workers - 1`` children.

        Batches (:func:`_guided_ranges`) are claimed from a shared counter, by the children and
        by this process alike, so the work balances itself and this process, instead of waiting,
        resolves batches too (children send plain tuples back, which are rebuilt here: about a
        tenth of the cost of resolving them). A child that dies raises :class:`WorkerLost`
        rather than leaving the batch waiting; an exception in a child is raised here.
        """
        total = len(items)
        ranges = _guided_ranges(total, workers)
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        # (typeshed types a context chosen at run time as BaseContext, which lacks Process)
        ctx: Any = multiprocessing.get_context(method)
        # Under fork the children inherit the resolver, the references and the paper -> catalog
        # index map built here once; under spawn each child unpickles them once and builds its
        # own map (object ids differ between processes).
        index = _paper_index(self) if method == "fork" else None
        counter = ctx.Value("q", 0)  # the next batch to claim (with its own lock)
        queue: Any = ctx.Queue()
        children = [
            ctx.Process(
                target=_child_main,
                kwargs={
                    "resolver": self,
                    "items": items,
                    "index": index,
                    "ranges": ranges,
                    "counter": counter,
                    "queue": queue,
                },
                name=f"citeledger-resolve-{k + 1}",
                daemon=True,
            )
            for k in range(min(workers, len(ranges)) - 1)
        ]
        done: dict[int, list[Resolution]] = {}
        finished = 0
        count = 0
        catalog = self.catalog

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
                bad.get(start + j) or _resolution_from_wire(item, catalog)
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

        # Freezing moves every object that exists now (the catalog: millions of objects) out of
        # the collector's reach, so a child's garbage collections do not walk - and, through
        # copy-on-write, copy - the inherited catalog (Python docs: gc.freeze). Undone below,
        # unless the caller had frozen objects already (then theirs is left as it was).
        freeze = gc.get_freeze_count() == 0
        if freeze:
            gc.freeze()
        try:
            for child in children:
                child.start()
            while (k := _claim(counter, len(ranges), check)) is not None:
                a, b = ranges[k]
                done[k] = [bad.get(i) or _contained(self, items[i]) for i in range(a, b)]
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
        finally:
            for child in children:
                if child.is_alive():
                    child.terminate()
                child.join()
            queue.close()
            if freeze:
                gc.unfreeze()
        results: list[Resolution] = []
        for k in range(len(ranges)):
            results.extend(done[k])
        return results


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
) -> None:
    """A ``resolve_many`` child: claim batches, resolve them, send plain tuples back."""
    try:
        if index is None:
            index = _paper_index(resolver)
        while (k := _claim(counter, len(ranges))) is not None:
            a, b = ranges[k]
            queue.put(
                (k, [_to_wire_result(_contained(resolver, ref), index) for ref in items[a:b]])
            )
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


def _guided_ranges(total: int, workers: int) -> list[tuple[int, int]]:
    """Batches for the pool: large first, shrinking towards the end (guided scheduling).

    Each batch is about a ``4 * workers``-th of what is left (at most 1,000 references, at
    least 25), so the workers finish at nearly the same time: with equal batches the last one
    leaves the other workers idle for a whole batch.

    >>> [b - a for a, b in _guided_ranges(5000, 2)][:3], len(_guided_ranges(5000, 2))
    ([625, 546, 478], 33)
    """
    out: list[tuple[int, int]] = []
    start = 0
    while start < total:
        size = max(_MIN_BATCH, min(_MAX_BATCH, (total - start) // (4 * workers)))
        end = min(total, start + size)
        out.append((start, end))
        start = end
    return out


def _page_number(text: str | None) -> int | None:
    digits = "".join(c for c in text or "" if c.isdigit())
    return int(digits) if digits and len(digits) <= 7 else None


def _other_page(ref: Reference, paper: Paper, comp: Comparison) -> str:
    """Why a same-titled candidate in the reference's volume is another work, or ``""``.

    Guidelines and statements printed twice, an executive summary next to the full text, parts
    I and II: one journal volume holds several works of one title, on different pages. When the
    volume agrees and the first page does not (and the cited page does not fall inside the
    candidate's page range, a pinpoint citation), the candidate is the other printing, and the
    title alone must not verify it.
    """
    if (
        comp.agreement("volume") is not Agreement.AGREE
        or comp.agreement("first_page") is not Agreement.DISAGREE
    ):
        return ""
    cited = _page_number(ref.first_page)
    pages = re.split(r"\s*[-–—]\s*", paper.pages or "", maxsplit=1)
    lo = _page_number(pages[0])
    if cited is not None and cited == lo:
        return ""  # "i38" and "38", "e1002" and "1002": one page, printed two ways
    mine, theirs = (ref.first_page or "").lower(), (paper.first_page or "").lower()
    if mine and theirs and (mine.startswith(theirs) or theirs.startswith(mine)):
        return ""  # an article number cut short in the string ("W00A" for "W00A12")
    hi = _page_number(pages[1]) if len(pages) > 1 else None
    if cited is not None and lo is not None and hi is not None and lo <= cited <= hi:
        return ""
    return (
        f"first page {ref.first_page!r} is not the candidate's {paper.first_page!r} in the same "
        "volume: another work of that title there (a second printing, a summary, another part)"
    )


def _unconfirmable(paper: Paper) -> bool:
    """A record with neither a year nor an author: nothing but its locator can be checked."""
    return paper.year is None and not paper.authors


def _locator_confirmed(comp: Comparison, paper: Paper) -> bool:
    # The exact year, or the authors (the first one found, with a compatible initial, or at
    # least some names), confirm a journal/volume/page match. A record that has neither (thin
    # catalogs: a DOI list with journal, volume and page) is taken on its journal, volume and
    # first page: nothing in it can disagree, and the rival rule still refuses a shared page.
    if _unconfirmable(paper):
        return True
    return any(
        (name == "year" and agreement is Agreement.AGREE)
        or (name == "authors" and agreement in (Agreement.AGREE, Agreement.PARTIAL))
        for name, agreement, *_ in comp.outcomes
    )


#: What one compared field adds to :func:`_agreement_score` (the title adds its similarity).
_FIELD_POINTS: Final = {Agreement.AGREE: 100.0, Agreement.PARTIAL: 50.0, Agreement.DISAGREE: 0.0}


def _agreement_score(comp: Comparison, *, identifier: bool = False) -> float:
    """``Resolution.score``, the same on every route: how much of the evidence agrees, 0-100.

    The mean over the fields both sides have (:class:`Agreement` other than MISSING) of each
    field's points: the title its similarity (0-100), any other field 100 when it agrees, 50
    when it partly agrees, 0 when it disagrees; a matching identifier counts as one more field
    at 100. 100 means every field compared agrees exactly; a typo in the title or a year one
    off lowers it on every route alike. The decision does not use it (see docs/resolver.md).
    """
    points = [100.0] if identifier else []
    for name, agreement, score, *_ in comp.outcomes:
        if agreement is Agreement.MISSING:
            continue
        if name == "title" and score is not None:
            points.append(max(0.0, min(100.0, score)))
        else:
            points.append(_FIELD_POINTS[agreement])
    return round(sum(points) / len(points), 1) if points else 0.0


def _other_publication(feats: ReferenceFeatures, paper: Paper) -> str:
    """Why ``paper`` is another publication of the work the reference cites, or ``""``.

    One side's venue is a journal and the other's conference proceedings, and both years are
    known and differ: a conference paper and its journal version (see ``_fuzzy_decision``).
    """
    if feats.year is None or paper.year is None or paper.year == feats.year:
        return ""
    mine, theirs = venue_kind(feats.venue), venue_kind(paper.venue)
    if {mine, theirs} != {VenueKind.JOURNAL, VenueKind.CONFERENCE}:
        return ""
    return (
        f"another publication of the work: {feats.venue!r} ({mine}, {feats.year}) "
        f"vs {paper.venue!r} ({theirs}, {paper.year})"
    )


def _identifier_conflict(ref: Reference, paper: Paper) -> bool:
    """The reference names an identifier of a scheme the paper also has, for another work.

    Versions of one deposit (:func:`~citeledger.identifiers.version_key`) are one work, and
    a preprint-server or repository DOI never conflicts with another DOI: a preprint and its
    published version legitimately carry two.
    """
    for ident in ref.identifiers:
        mine = version_key(ident)
        if mine.startswith(PREPRINT_DOI_PREFIXES):
            continue
        scheme = ident.scheme
        # The paper's own identifiers of that scheme, its preprint DOIs aside: a bioRxiv DOI
        # beside the journal DOI does not make another journal DOI compatible.
        theirs = [
            k
            for k in (version_key(i) for i in paper.identifiers if i.scheme is scheme)
            if not k.startswith(PREPRINT_DOI_PREFIXES)
        ]
        if theirs and mine not in theirs:
            return True
    return False


# Reference fields that Reference.from_paper fills from a paper; the others keep their defaults.
_FROM_PAPER: Final = ("title", "authors", "year", "venue", "volume", "issue", "first_page")
_REFERENCE_REST: Final = tuple(
    (a.name, getattr(Reference(), a.name))
    for a in attrs.fields(Reference)
    if a.name not in _FROM_PAPER and a.name != "identifiers"
)


def _reference_from_paper(paper: Paper) -> Reference:
    """``Reference.from_paper(paper)`` without running converters on already-converted values.

    A paper's title, authors, venue, volume, issue and identifiers went through the same
    converters as a reference's, its year is an int and its first page is a whitespace-normalised
    string, so the converters would return them unchanged (a test checks equality with
    ``Reference.from_paper``). ``verify`` and ``resolve(paper)`` build one per call.
    """
    obj: Reference = object.__new__(Reference)
    setattr_ = object.__setattr__
    for name, value in _REFERENCE_REST:
        setattr_(obj, name, value)
    for name in _FROM_PAPER:
        setattr_(obj, name, getattr(paper, name))
    setattr_(obj, "identifiers", paper.identifiers)
    return obj


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
_EvidenceWire = tuple[str, str, float | None, str | None, str | None, str | None]


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


def _contained(resolver: Resolver, ref: Reference | Paper | str) -> Resolution:
    """``resolver.resolve(ref)``; a candidate provider that raises costs this reference only.

    The reference is UNRESOLVED with the provider's error as the reason, and the batch goes
    on. Errors of the resolver itself still propagate.
    """
    try:
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
    """A resolution as plain tuples, its papers as catalog indexes where possible."""
    evidence: list[_EvidenceWire] = [
        (e.field, e.agreement.value, e.score, e.left, e.right, e.note) for e in res.evidence
    ]
    return (
        res.state.value,
        None if res.method is None else res.method.value,
        _to_wire(res.target, index),
        res.score,
        evidence,
        res.reason,
        [_to_wire(p, index) for p in res.alternatives],
    )


_STATES: Final = {s.value: s for s in ResolutionState}
_METHODS: Final = {m.value: m for m in Method}
_AGREEMENTS: Final = {a.value: a for a in Agreement}


def _trusted_resolution(
    *,
    state: ResolutionState,
    method: Method | None,
    target: Paper | None = None,
    score: float = 0.0,
    evidence: tuple[Evidence, ...],
    reason: str,
    alternatives: tuple[Paper, ...],
) -> Resolution:
    """``Resolution(...)`` for values the resolver built already typed.

    The state and method are enums, the score a float clamped to 0-100, the rest tuples, so the
    converters would return them unchanged; skipping them saves most of the construction cost.
    The public constructor still converts and validates.
    """
    obj = object.__new__(Resolution)
    setattr_ = object.__setattr__
    setattr_(obj, "state", state)
    setattr_(obj, "method", method)
    setattr_(obj, "target", target)
    setattr_(obj, "score", score)
    setattr_(obj, "evidence", evidence)
    setattr_(obj, "reason", reason)
    setattr_(obj, "alternatives", alternatives)
    return obj


def _resolution_from_wire(item: tuple[Any, ...], catalog: Catalog | None) -> Resolution:
    state, method, target, score, evidence, reason, alternatives = item
    agreements = _AGREEMENTS
    return _trusted_resolution(
        state=_STATES[state],
        method=None if method is None else _METHODS[method],
        target=_from_wire(target, catalog),
        score=score,
        evidence=tuple(
            _trusted_evidence(
                field=f, agreement=agreements[a], score=sc, left=le, right=ri, note=no
            )
            for f, a, sc, le, ri, no in evidence
        ),
        reason=reason,
        alternatives=tuple(
            p for p in (_from_wire(a, catalog) for a in alternatives) if p is not None
        ),
    )


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
    resolver = Resolver(
        config=config if config is not None else _DEFAULT_CONFIG, providers=(_OnePaper(paper),)
    )
    return resolver.resolve(ref_or_paper)


_DEFAULT_CONFIG: Final = ResolverConfig()


class _OnePaper:
    """What a one-paper :class:`Catalog` would propose, without building its indexes.

    ``verify`` is called once per pair, so the catalog's dictionaries and posting arrays would be
    built and thrown away each time. The rules are the catalog's, restricted to one paper
    (a property test checks ``verify`` against ``Resolver([paper])``):

    * identifiers: the same work key among the paper's identifiers, else among its ``related``
      identifiers, else the same version key;
    * titles: the paper is a candidate when it shares a content token with the reference's title
      (with one paper no token is too frequent) and their ``token_sort_ratio`` is at least 50.
    """

    __slots__ = ("_keys", "paper")

    def __init__(self, paper: Paper) -> None:
        self.paper = paper
        # The paper's work keys, computed on the first lookup (most pairs have one identifier
        # each side; a reference with several looks them up once).
        self._keys: list[str] | None = None

    def by_identifier(self, ident: Identifier) -> list[Paper]:
        paper = self.paper
        keys = self._keys
        if keys is None:
            keys = self._keys = [work_key(i) for i in paper.identifiers]
        key = work_key(ident)
        if key in keys:
            return [paper]
        if paper.related and any(work_key(r.identifier) == key for r in paper.related):
            return [paper]
        base = version_of(key)
        if any(k == base or version_of(k) == base for k in keys):
            return [paper]
        return []

    def by_locator(self, volume: str | None, first_page: str | None) -> list[Paper]:
        """The paper if it has this volume and first page (as :meth:`Catalog.by_locator`)."""
        paper = self.paper
        key = locator_key(volume, first_page)
        if key is None or not paper.volume or not paper.pages:
            return []
        return [paper] if locator_key(paper.volume, paper.first_page) == key else []

    def candidates(self, ref: Reference, *, limit: int) -> list[Paper]:  # noqa: ARG002
        # ``limit`` is part of the provider protocol; one paper is within any limit (the catalog
        # keeps everything for a limit of 0 too).
        return [paper for _, paper, _ in self.scored(ReferenceFeatures.of(ref))]

    def scored(self, feats: ReferenceFeatures) -> list[tuple[float, Paper, str]]:
        """``(title similarity, paper, its normalised title)`` if the paper is a candidate."""
        title = feats.title
        theirs = normalize_title(self.paper.title)
        if not title or not theirs:
            return []
        if set(feats.tokens).isdisjoint(title_tokens(theirs)):
            return []
        sort_score = fuzz.token_sort_ratio(title, theirs, processor=None)
        if sort_score < _BLOCK_CUTOFF:
            return []
        # title_similarity(title, theirs), reusing the token_sort_ratio half.
        return [(float(max(sort_score, fuzz.ratio(title, theirs))), self.paper, theirs)]
