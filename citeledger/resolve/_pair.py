"""Pairwise verification: a reference (or a record) against one paper.

:func:`~citeledger.resolve.resolver.verify` resolves a reference as if the catalog held only one
paper. :class:`_OnePaper` proposes what a one-paper catalog would, and :func:`pair_route`
decides the common cases, the identifier route with agreeing metadata and the fuzzy route with
that paper as the only candidate, without the resolver's provider machinery (no pool, no
candidate selection, no ordering of one candidate) and with the evidence and the reason
rendered when read. Every other case (metadata that disagree with the identifier's record, no
title, a doubtful parse) goes through
:meth:`~citeledger.resolve.Resolver.resolve`. A property test checks that both give the same
result as ``Resolver([paper]).resolve(ref)``.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Final

from rapidfuzz import fuzz

from citeledger.identifiers import version_of, work_key
from citeledger.model import Evidence, Paper, Reference, Resolution, ResolutionState
from citeledger.model._observation import _Deferred
from citeledger.resolve._results import (
    _exact_verified,
    _fuzzy_verified,
    _listed,
    _then_compared,
    _trusted_resolution,
)
from citeledger.resolve._rules import (
    _describe,
    _ident_evidence,
    _malformed_evidence,
    _malformed_reason,
    _Scored,
    best_failures,
    exact_problems,
)
from citeledger.resolve._select import fails_whatever_fields, scored_candidate
from citeledger.resolve._verifykeys import PairKeys, pair_keys
from citeledger.resolve.catalog import locator_key
from citeledger.resolve.scoring import ReferenceFeatures, TitlePart, compare, title_part

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from citeledger.identifiers import Identifier
    from citeledger.resolve._config import ResolverConfig

__all__ = ["pair_route"]

# The catalog's default score_cutoff for candidate titles (Catalog.scored_candidates).
_BLOCK_CUTOFF: Final = 50.0
_NOT_FOUND: Final = "valid identifier not in catalog; tried the fuzzy route"
_NO_CANDIDATE: Final = "no candidate shares the title's distinctive words"


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

    __slots__ = ("memo", "paper")

    def __init__(self, paper: Paper) -> None:
        self.paper = paper
        #: The paper's keys (work keys, normalised title, name keys), kept with the paper
        #: (:func:`~citeledger.resolve._verifykeys.pair_keys`): a paper verified again reuses them.
        self.memo = pair_keys(paper)

    def by_identifier(self, ident: Identifier) -> list[Paper]:
        return [self.paper] if self.holds(work_key(ident)) else []

    def keys(self) -> Sequence[str]:
        """The work keys of the paper's identifiers, in order."""
        return self.memo.keys

    def holds(self, key: str, version: str | None = None) -> bool:
        """Whether an identifier of work key ``key`` finds the paper (:meth:`by_identifier`).

        ``version``: ``version_of(key)``, if known.
        """
        memo = self.memo
        if key in memo.keys:
            return True
        paper = self.paper
        if paper.related and key in memo.related(paper):
            return True
        return (version_of(key) if version is None else version) in memo.version_set()

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
        theirs = self.memo.title(self.paper)  # the paper's normalised title, made once
        if not title or not theirs:
            return []
        if title == theirs:
            # One title (most pairs): it shares every content token, if it has any, and both
            # RapidFuzz scores of a string against itself are 100.
            return [(100.0, self.paper, theirs)] if feats.tokens else []
        # A shared content token: the reference's tokens are content words, so any word of the
        # paper's title among them is one (``title_tokens(theirs)`` would drop only others).
        if set(feats.tokens).isdisjoint(theirs.split()):
            return []
        sort_score = fuzz.token_sort_ratio(title, theirs, processor=None)
        if sort_score < _BLOCK_CUTOFF:
            return []
        # title_similarity(title, theirs), reusing the token_sort_ratio half.
        return [(float(max(sort_score, fuzz.ratio(title, theirs))), self.paper, theirs)]


def pair_route(
    cfg: ResolverConfig,
    ref: Reference | Paper,
    feats: ReferenceFeatures,
    one: _OnePaper,
    memo: PairKeys | None = None,
) -> Resolution | None:
    """``Resolver(providers=[one]).resolve(ref)`` in the common cases, else None.

    ``ref`` may be a paper, read as the reference citing it with all its fields
    (:meth:`~citeledger.model.Reference.from_paper`: no parse, no malformed fragment), which
    is then not built. ``memo``: its :func:`~citeledger.resolve._verifykeys.pair_keys`, if at
    hand.

    An identifier of the reference that the paper holds, with metadata that agree: the
    identifier route's ``VERIFIED_EXACT`` (one record under the identifier: it is not shared;
    metadata that disagree are left to the resolver). Otherwise the fuzzy route, when the
    reference has a title (and a confident parse). With one paper there is at most one
    candidate: no rival, no runner-up, no series, so the decision is
    :func:`~citeledger.resolve._rules.best_failures` of that candidate (what
    :func:`~citeledger.resolve._rules.fuzzy_decision` reduces to).
    """
    idents = ref.identifiers
    if idents:
        mine = pair_keys(ref) if memo is None else memo
        # Without related links the paper holds a key only if the key or its version key is
        # among its work and version keys: most pairs share none, found without a loop.
        found = one.memo.version_set()
        if (
            one.paper.related
            or not found.isdisjoint(mine.keys)
            or not found.isdisjoint(mine.versions)
        ):
            for position, (key, version) in enumerate(zip(mine.keys, mine.versions, strict=True)):
                if one.holds(key, version):
                    return _exact_pair(cfg, feats, one, idents[:position], idents[position])
    cited = ref if isinstance(ref, Reference) else None
    if not feats.title or (
        cited is not None
        and cited.parse_confidence is not None
        and cited.parse_confidence < cfg.min_parse_confidence
    ):
        return None
    hit = one.scored(feats)
    best: _Scored | _LaterScored | None = None
    if hit:
        sim, _, title = hit[0]
        # As the resolver's candidate selection compares one candidate (``_select.compared``).
        theirs = one.memo
        parts = title_part(feats.title, title, sim)
        if fails_whatever_fields(cfg, feats, parts, one.paper):
            # Unresolved whatever the other fields say, with a score of 0: they are compared
            # only if the evidence or the reason is read.
            best = _LaterScored(
                one.paper,
                partial(_compared, cfg, feats, one, title=title, sim=sim, parts=parts),
            )
            return _unresolved(cfg, feats, ref, cited, best)
        best = _compared(cfg, feats, one, title=title, sim=sim, parts=parts)
        # Whether it fails is all the decision needs; the failures are listed when the reason
        # is read.
        failures, later, note = best_failures(
            cfg,
            feats,
            ref,
            best,
            quick=True,
            versions=(mine.versions, theirs.versions) if idents else None,
        )
        if not failures and not later:
            return _fuzzy_verified(
                best, _Deferred(_route_evidence, ref), idents or None, None, note
            )
    return _unresolved(cfg, feats, ref, cited, best)


class _LaterScored:
    """The one candidate, compared (:func:`_compared`) when first needed.

    When the title and the year decide
    (:func:`~citeledger.resolve._select.fails_whatever_fields`), the comparison of the other
    fields is read only by the result's evidence and reason, which are rendered when read.
    """

    __slots__ = ("compare", "made", "paper")

    def __init__(self, paper: Paper, compare: Callable[[], _Scored]) -> None:
        self.paper = paper
        #: :func:`_compared` with its arguments bound.
        self.compare = compare
        self.made: _Scored | None = None

    def get(self) -> _Scored:
        """The candidate compared (once)."""
        made = self.made
        if made is None:
            made = self.made = self.compare()
        return made


def _compared(
    cfg: ResolverConfig,
    feats: ReferenceFeatures,
    one: _OnePaper,
    *,
    title: str,
    sim: float,
    parts: TitlePart,
) -> _Scored:
    # The paper compared as the fuzzy route compares its candidates (its name keys are read only
    # when the reference has authors).
    paper = one.paper
    authors = one.memo.authors(paper) if feats.authors else ()
    return scored_candidate(cfg, feats, paper, title, sim, keys=(authors, None), parts=parts)


def _scored(best: _Scored | _LaterScored) -> _Scored:
    return best.get() if isinstance(best, _LaterScored) else best


def _unresolved(
    cfg: ResolverConfig,
    feats: ReferenceFeatures,
    ref: Reference | Paper,
    cited: Reference | None,
    best: _Scored | _LaterScored | None,
) -> Resolution:
    # UNRESOLVED (MALFORMED_IDENTIFIER with a malformed fragment), naming the candidate if any.
    return _trusted_resolution(
        state=ResolutionState.MALFORMED_IDENTIFIER
        if cited is not None and cited.malformed
        else ResolutionState.UNRESOLVED,
        method=None,
        evidence=_Deferred(_route_evidence, ref, best),
        reason=_Deferred(_failed_reason, cfg, feats, ref, best),
        alternatives=() if best is None else (best.paper,),
    )


def _not_found(idents: Sequence[Identifier]) -> tuple[Evidence, ...]:
    """Evidence that each of ``idents`` was looked up and not found."""
    return tuple(_ident_evidence(i, None, _NOT_FOUND) for i in idents)


def _route_evidence(
    ref: Reference | Paper, best: _Scored | _LaterScored | None = None
) -> tuple[Evidence, ...]:
    # What the resolver notes before the fuzzy route (each identifier not found, each
    # malformed fragment), then the fields of the candidate compared, if any, comparing them
    # now if they were not.
    before = (
        *_not_found(ref.identifiers),
        *(_malformed_evidence(ref) if isinstance(ref, Reference) else ()),
    )
    return before if best is None else _then_compared(before, _scored(best))


def _failed_reason(
    cfg: ResolverConfig,
    feats: ReferenceFeatures,
    ref: Reference | Paper,
    found: _Scored | _LaterScored | None,
) -> str:
    # The reason of an UNRESOLVED (or MALFORMED_IDENTIFIER) result, as the resolver words it
    # (``fuzzy_decision``'s reason with one candidate: its failures, then the later ones).
    if found is None:
        reason = _NO_CANDIDATE
    else:
        best = _scored(found)
        failures, later, _ = best_failures(cfg, feats, ref, best)
        reason = f"best candidate {_describe(best.paper)}: " + "; ".join([*failures, *later])
    if ref.identifiers:
        reason = f"{_listed(ref.identifiers)} not in catalog; {reason}"
    if isinstance(ref, Reference) and ref.malformed:
        reason = f"{_malformed_reason(ref)}; {reason}"
    return reason


def _exact_pair(
    cfg: ResolverConfig,
    feats: ReferenceFeatures,
    one: _OnePaper,
    missing: tuple[Identifier, ...],
    ident: Identifier,
) -> Resolution | None:
    # The identifier route for ``ident``, which the paper holds (``missing``: the reference's
    # identifiers before it, not found): VERIFIED_EXACT if the metadata agree, else None.
    paper = one.paper
    theirs = one.memo
    comp = compare(
        feats,
        paper,
        # (Each read only when the reference has the field.)
        paper_title=theirs.title(paper) if feats.title else None,
        paper_authors=theirs.authors(paper) if feats.authors else None,
        lenient_title=True,
        year_tolerance=cfg.exact_year_tolerance,
    )
    if exact_problems(cfg, comp):
        return None
    found = _Scored(paper, comp)
    return _exact_verified(ident, found, _Deferred(_not_found, missing), "", (), keys=one.keys())
