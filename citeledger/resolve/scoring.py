"""Field-by-field comparison of a reference with a candidate paper.

Scores follow RapidFuzz's shape: 0-100, computed on explicitly normalised strings
(:mod:`citeledger.resolve.normalize`), scorers take a keyword-only ``score_cutoff``. Each field's
outcome is an :class:`~citeledger.model.Evidence` value; :func:`compare` folds them into a
:class:`Comparison` that the resolver's decision rules read.

Nothing in this module depends on a :class:`~citeledger.resolve.ResolverConfig` threshold, so
raising a threshold can only change decisions, never the scores they are made on.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from attrs import Factory, field, frozen
from rapidfuzz import fuzz, process

from citeledger.identifiers import PREPRINT_DOI_PREFIXES, Identifier, work_key
from citeledger.model import Agreement, Evidence, Paper, Reference
from citeledger.resolve.names import NAME_SIMILARITY, NameKey, name_keys
from citeledger.resolve.names import family_names_agree as _same_person
from citeledger.resolve.names import initials_fit as _initials_fit
from citeledger.resolve.normalize import (
    is_generic_title,
    normalize_code,
    normalize_title,
    title_tokens,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

from citeledger.resolve._notices import notice_kind
from citeledger.resolve._title_rules import (
    _LABEL_DROPPED,
    lenient_title_similarity,
    title_similarity,
    title_word_conflict,
    without_session_label,
)
from citeledger.resolve._venues import VenueKind, compare_venue, same_journal, venue_kind

__all__ = [
    "AUTHOR_WEIGHTS",
    "AuthorIndex",
    "Comparison",
    "FieldOutcome",
    "ReferenceFeatures",
    "TitleBounds",
    "TitlePart",
    "VenueKind",
    "author_index",
    "compare",
    "compare_authors",
    "compare_venue",
    "compare_year",
    "family_closeness",
    "field_points_bound",
    "is_preprint",
    "lenient_title_similarity",
    "notice_kind",
    "same_journal",
    "title_bounds",
    "title_part",
    "title_similarity",
    "title_word_conflict",
    "venue_kind",
    "without_session_label",
    "year_agreement",
]


def _weights(agree: float, partial: float, disagree: float) -> dict[Agreement, float]:
    # How one field's agreement moves the ranking score (MISSING moves nothing).
    return {
        Agreement.AGREE: agree,
        Agreement.PARTIAL: partial,
        Agreement.DISAGREE: disagree,
        Agreement.MISSING: 0.0,
    }


#: How each field's agreement moves a candidate's ranking score (title similarity plus these).
#: Disagreements weigh more than agreements: one wrong year says more than one right one.
AUTHOR_WEIGHTS: Final = _weights(6.0, 3.0, -20.0)
_YEAR_WEIGHTS: Final = _weights(4.0, 1.0, -20.0)
_EXACT_FIELD_WEIGHTS: Final = _weights(2.0, 0.0, -4.0)
_VENUE_WEIGHTS: Final = _weights(1.0, 0.0, 0.0)


class AuthorIndex(NamedTuple):
    """What :func:`compare_authors` looks up in one side's author list (built once per list).

    A catalog keeps one per candidate paper, so comparing a reference's authors with a
    candidate's costs a few set look-ups per reference author instead of a rule per pair of
    names; the outcome is the pairwise rule's
    (:func:`~citeledger.resolve.names.family_names_agree`), exactly.
    """

    families: frozenset[str]
    families_gt1: frozenset[str]  # the family names longer than one letter
    tokens: frozenset[str]  # every name token of every author


def author_index(keys: Sequence[NameKey]) -> AuthorIndex:
    """The :class:`AuthorIndex` of an author list's :func:`name_keys`."""
    families = frozenset(k.family for k in keys)
    return AuthorIndex(
        families=families,
        families_gt1=frozenset(f for f in families if len(f) > 1),
        tokens=frozenset().union(*(k.tokens for k in keys)),
    )


def family_closeness(
    left: Sequence[NameKey], indexes: Iterable[AuthorIndex]
) -> tuple[frozenset[str], ...]:
    """For each name of ``left``, the long family names of ``indexes`` fuzzily equal to its own.

    The fuzzy clause of :func:`~citeledger.resolve.names.family_names_agree` (RapidFuzz ``ratio``
    of at least :data:`~citeledger.resolve.names.NAME_SIMILARITY` between family names of 4+
    letters), computed for one reference's authors against every candidate of it in one
    :func:`rapidfuzz.process.cdist` call instead of a call per pair of names. Pass the result to
    :func:`compare_authors` as ``close`` together with any of ``indexes``.
    """
    pool = list({f for ix in indexes for f in ix.families if len(f) >= 4})
    rows = [i for i, k in enumerate(left) if len(k.family) >= 4]
    out = [_NO_FAMILIES] * len(left)
    if not pool or not rows:
        return tuple(out)
    matrix = process.cdist(
        [left[i].family for i in rows],
        pool,
        scorer=fuzz.ratio,
        processor=None,
        score_cutoff=NAME_SIMILARITY,
    )
    for row, i in enumerate(rows):
        hits = matrix[row].nonzero()[0]
        if len(hits):
            out[i] = frozenset(pool[j] for j in hits)
    return tuple(out)


_NO_FAMILIES: Final[frozenset[str]] = frozenset()


def _found(a: NameKey, right: Sequence[NameKey], index: AuthorIndex, close: frozenset[str]) -> bool:
    """Whether some name of ``right`` is the same person as ``a`` (``family_names_agree``).

    Each clause of the pairwise rule is tested against the whole list at once: equal family
    names, ``a``'s family among the other names' tokens or theirs among ``a``'s, one name's
    tokens within the other's (only when two tokens are shared at all), then the fuzzy family
    comparison (``close``: the families :func:`family_closeness` found close to ``a``'s).
    """
    family = a.family
    if family in index.families or (len(family) > 1 and family in index.tokens):
        return True
    ta = a.tokens
    if not ta.isdisjoint(index.families_gt1):
        return True
    if len(ta & index.tokens) >= 2 and any(
        (len(ta) >= 2 and ta <= b.tokens) or (len(b.tokens) >= 2 and b.tokens <= ta) for b in right
    ):
        return True
    # The fuzzy clause: ``close`` holds only family names of 4+ letters.
    return not close.isdisjoint(index.families)


def compare_authors(
    left: Sequence[NameKey],
    right: Sequence[NameKey],
    *,
    index: AuthorIndex | None = None,
    close: Sequence[frozenset[str]] | None = None,
) -> tuple[Agreement, float]:
    """Agreement of two author lists by family name and first initial (accent-insensitive).

    AGREE: the first listed author is found on the other side with a compatible initial and at
    least half the names match. PARTIAL: some names match. DISAGREE: none does. MISSING: a side
    has no names. The score is the percentage of the left names found on the right. Two names
    are one person by :mod:`citeledger.resolve.names` with ``Strictness.INITIALS``.
    ``index`` and ``close``: ``right``'s :func:`author_index` and the :func:`family_closeness`
    of ``left`` against a set of indexes that includes it, when the caller compares one
    reference with many candidates; the rule is then tested list against list.
    """
    if not left or not right:
        return Agreement.MISSING, 0.0
    matched = 0
    first_ok = False
    same = _same_person
    # The right side's family names for the pairwise rule: an equal one (the common case) is
    # found before the rule is applied.
    families = {b.family for b in right} if index is None or close is None else _NO_FAMILIES
    for i, a in enumerate(left):
        if index is not None and close is not None:
            if not _found(a, right, index, close[i]):
                continue
        # Otherwise (a one-off comparison) the rule pair by pair.
        elif a.family not in families and not any(same(a, b) for b in right):
            continue
        matched += 1
        if i == 0:
            # The first author is found when some same person on the right has a compatible
            # initial, not only the first one ("Wang Y" among "Xiaogang Wang", "Yu Wang").
            first_ok = any(_same_person(a, b) and _initials_fit(a, b) for b in right)
    score = 100.0 * matched / len(left)
    if matched == 0:
        return Agreement.DISAGREE, 0.0
    if first_ok and 2 * matched >= len(left):
        return Agreement.AGREE, score
    return Agreement.PARTIAL, score


def compare_year(left: int | None, right: int | None, *, tolerance: int = 1) -> Agreement:
    """AGREE when equal, PARTIAL within ``tolerance`` (preprint vs published), else DISAGREE.

    >>> compare_year(2020, 2021)
    <Agreement.PARTIAL: 'partial'>
    """
    if left is None or right is None:
        return Agreement.MISSING
    gap = abs(left - right)
    if gap == 0:
        return Agreement.AGREE
    return Agreement.PARTIAL if gap <= tolerance else Agreement.DISAGREE


_norm_code: Final = normalize_code


def _code_agreement(left_code: str, right: str | None) -> Agreement:
    # ``left_code`` is already normalised (ReferenceFeatures); the candidate's value is not.
    b = _norm_code(right)
    if not left_code or not b:
        return Agreement.MISSING
    return Agreement.AGREE if left_code == b else Agreement.DISAGREE


@frozen(kw_only=True)
class ReferenceFeatures:
    """A reference's fields, normalised once for comparing with many candidates."""

    title: str
    generic: bool
    authors: tuple[NameKey, ...]
    year: int | None
    volume: str | None
    first_page: str | None
    venue: str | None
    # The volume and first page as compared (alphanumerics, case-folded), once per reference.
    volume_code: str = field(
        init=False, default=Factory(lambda self: _norm_code(self.volume), takes_self=True)
    )
    page_code: str = field(
        init=False, default=Factory(lambda self: _norm_code(self.first_page), takes_self=True)
    )

    # The reference names a preprint (an arXiv id, a preprint server's DOI, a preprint venue).
    preprint: bool = False
    # The title's content tokens (title_tokens), for blocking.
    tokens: tuple[str, ...] = field(
        init=False, default=Factory(lambda self: tuple(title_tokens(self.title)), takes_self=True)
    )

    @classmethod
    def of(cls, ref: Reference | Paper, keys: Sequence[str] | None = None) -> ReferenceFeatures:
        """Features of ``ref`` (a paper: of the reference citing it with all its fields).

        ``keys``: the work keys of ``ref``'s identifiers, in order, if already computed.
        """
        # Built like the constructor would (a test checks equality with it), with the title's
        # tokens computed once for both ``generic`` and ``tokens``: this runs once per resolved
        # reference and once per ``verify`` pair.
        title = normalize_title(ref.title)
        tokens, generic = _title_facts(title)
        obj = object.__new__(cls)
        setattr_ = object.__setattr__
        setattr_(obj, "title", title)
        setattr_(obj, "generic", generic)
        setattr_(obj, "authors", name_keys(ref.authors))
        setattr_(obj, "year", ref.year)
        first_page = ref.first_page  # a paper computes it from its pages
        setattr_(obj, "volume", ref.volume)
        setattr_(obj, "first_page", first_page)
        setattr_(obj, "venue", ref.venue)
        setattr_(obj, "volume_code", _norm_code(ref.volume))
        setattr_(obj, "page_code", _norm_code(first_page))
        setattr_(
            obj,
            "preprint",
            is_preprint(ref.identifiers, ref.venue)
            if keys is None
            else any(k.startswith(_PREPRINT_KEYS) for k in keys)
            or venue_kind(ref.venue) is VenueKind.PREPRINT,
        )
        setattr_(obj, "tokens", tokens)
        return obj


@lru_cache(maxsize=1 << 16)
def _title_facts(title: str) -> tuple[tuple[str, ...], bool]:
    # A normalised title's content tokens and whether it is generic, for ReferenceFeatures.of
    # (cached on the title as normalize_title is: a title recurs across references and pairs).
    tokens = tuple(title_tokens(title))
    return tokens, is_generic_title(title, tokens) if title else True


#: One field's outcome inside a :class:`Comparison`: (field, agreement, score, left, right).
#: ``left`` and ``right`` are the compared values as :func:`compare` had them (author lists as
#: their :class:`NameKey` tuples, years as ints); :attr:`Comparison.fields` renders them.
FieldOutcome = tuple[str, Agreement, float | None, Any, Any]


@frozen(kw_only=True)
class Comparison:
    """The outcome of comparing a reference with one candidate.

    Attributes:
        title: Title similarity 0-100 (None when the reference has no title).
        prefix_title: When both titles have at least 25 characters, the best of the title
            similarity and how well the shorter title matches the start of the longer (a
            dropped subtitle, a truncation) or its end (dropped leading words: an italic taxon
            lost from the metadata, a group author read into the title); else None. On the
            identifier route (``lenient_title``) it is the lenient similarity itself, which
            already reads a start match and is used only to order several records of one
            identifier.
        rank: Ranking score: title similarity moved by each field's agreement. Only for ordering
            candidates and measuring the margin between them; not a probability.
        corroborations: How many fields other than the title agree.
        hard: Names of fields that clearly disagree (author lists share no name, year beyond the
            tolerance, volume and first page both different).
        outcomes: Per-field outcomes (:data:`FieldOutcome`), kept raw: most candidates are
            compared, ranked and dropped, so their evidence is rendered only when a decision
            reports it (:attr:`fields`, :attr:`evidence`).
    """

    title: float | None
    prefix_title: float | None
    rank: float
    corroborations: int
    hard: tuple[str, ...]
    outcomes: tuple[FieldOutcome, ...]

    def agreement(self, name: str) -> Agreement | None:
        """The agreement of field ``name`` ("title", "authors", ...), None if not compared."""
        for outcome in self.outcomes:
            if outcome[0] == name:
                return outcome[1]
        return None

    @property
    def fields(self) -> tuple[dict[str, Any], ...]:
        """Per-field outcomes, as keyword arguments of :class:`~citeledger.model.Evidence`."""
        return tuple(_render(o) for o in self.outcomes)

    @property
    def evidence(self) -> tuple[Evidence, ...]:
        """One :class:`~citeledger.model.Evidence` per compared field."""
        return tuple(_outcome_evidence(o) for o in self.outcomes)


def _families(keys: tuple[NameKey, ...]) -> str | None:
    return _short(", ".join(map(_family, keys)))


# A NameKey's family name (its first field), as a C-level getter for ``map``.
_family: Final = itemgetter(0)


def _shown(outcome: FieldOutcome) -> FieldOutcome:
    # The outcome with its compared values as evidence shows them (strings, shortened).
    name, agreement, score, left, right = outcome
    if name in {"title", "venue"}:
        left, right = _short(left), _short(right)
    elif name == "authors":
        left, right = _families(left), _families(right)
    elif name == "year":
        left, right = str(left), None if right is None else str(right)
    return name, agreement, score, left, right


def _render(outcome: FieldOutcome) -> dict[str, Any]:
    name, agreement, score, left, right = _shown(outcome)
    out: dict[str, Any] = {"field": name, "agreement": agreement, "left": left, "right": right}
    if score is not None:
        out["score"] = score
    return out


def _outcome_evidence(outcome: FieldOutcome) -> Evidence:
    # The evidence of a reported decision, without the intermediate dict of ``_render`` (a test
    # checks both agree).
    name, agreement, score, left, right = _shown(outcome)
    return _trusted_evidence(field=name, agreement=agreement, score=score, left=left, right=right)


#: One :class:`~citeledger.model.Evidence` as plain values: (field, agreement's value, score,
#: left, right, note), as ``resolve_many``'s worker processes send it.
EvidenceTuple = tuple[str, str, float | None, str | None, str | None, str | None]


def _evidence_tuple(ev: Evidence) -> EvidenceTuple:
    """An :class:`~citeledger.model.Evidence` value as an :data:`EvidenceTuple`."""
    return ev.field, ev.agreement._value_, ev.score, ev.left, ev.right, ev.note


def _trusted_evidence(
    *,
    field: str,
    agreement: Agreement,
    score: float | None = None,
    left: str | None = None,
    right: str | None = None,
    note: str | None = None,
) -> Evidence:
    """``Evidence(...)`` for fields that :func:`compare` built already typed.

    ``compare`` produces an :class:`~citeledger.model.Agreement`, a float score within 0-100 (or
    None) and strings, which ``Evidence``'s converters would return unchanged; skipping them (the
    way unpickling does, setting the slots directly) saves most of the construction cost. The
    public constructor still converts and validates everything else.
    """
    # Slot by slot, as unpickling does (no keyword dictionary, no loop: half the cost of a
    # generic helper; every reported field of every result that is read is built here).
    obj: Evidence = _new(Evidence)
    _set(obj, "field", field)
    _set(obj, "agreement", agreement)
    _set(obj, "score", score)
    _set(obj, "left", left)
    _set(obj, "right", right)
    _set(obj, "note", note)
    return obj


_new: Final = object.__new__
_set: Final = object.__setattr__


def _short(text: str | None, size: int = 120) -> str | None:
    if text is None:
        return None
    return text if len(text) <= size else text[: size - 1] + "…"


_AGREE: Final = Agreement.AGREE
_PARTIAL: Final = Agreement.PARTIAL
_DISAGREE: Final = Agreement.DISAGREE
_MISSING: Final = Agreement.MISSING


_PREPRINT_KEYS: Final = ("arxiv:", *PREPRINT_DOI_PREFIXES)


def is_preprint(identifiers: Sequence[Identifier], venue: str | None = None) -> bool:
    """Whether a record names a preprint: an arXiv id, a preprint server's DOI or venue.

    Preprint servers and repositories are those of
    :data:`~citeledger.identifiers.PREPRINT_DOI_PREFIXES` (arXiv, bioRxiv/medRxiv, SSRN,
    Research Square, ...), and venues :func:`venue_kind` reads as a preprint.

    >>> from citeledger.identifiers import parse_identifier
    >>> is_preprint([parse_identifier("arXiv:1304.3343v2")]), is_preprint([], "Nature")
    (True, False)
    """
    for ident in identifiers:
        # work_key reads an arXiv DataCite DOI as its arXiv id ("arxiv:...").
        if work_key(ident).startswith(_PREPRINT_KEYS):
            return True
    return venue_kind(venue) is VenueKind.PREPRINT


def _preprint_then_published(
    ref: ReferenceFeatures, paper: Paper, gap: int, tolerance: int
) -> bool:
    # Exactly one side is a preprint, and the other side's year is later, within the tolerance
    # (``gap``: the paper's year minus the reference's).
    if ref.preprint:
        return 0 < gap <= tolerance and not is_preprint(paper.identifiers, paper.venue)
    return 0 < -gap <= tolerance and is_preprint(paper.identifiers, paper.venue)


class TitlePart(NamedTuple):
    """The title's share of a :class:`Comparison` (:func:`title_part`)."""

    title: float  # the title similarity as compared (session labels read)
    prefix: float | None  # Comparison.prefix_title
    points: float  # what the title adds to Comparison.rank


def title_part(
    left: str, right: str, title_score: float | None = None, *, lenient: bool = False
) -> TitlePart:
    """How :func:`compare` scores two normalised titles (``left`` non-empty).

    ``title_score``: :func:`title_similarity` of the two, if already computed (ignored with
    ``lenient``, which scores by :func:`lenient_title_similarity`).
    """
    prefix: float | None = None
    if title_score is not None and not lenient:
        title = title_score
    elif left and left == right:  # either similarity of a title with itself
        title = 100.0
    else:
        title = (lenient_title_similarity if lenient else title_similarity)(left, right)
    if title < 90.0 and right and not lenient:
        # A session label on one side only ("... benchmark experience paper"): the titles
        # are compared without it.
        bare_left, bare_right = without_session_label(left), without_session_label(right)
        if bare_left is not left or bare_right is not right:
            # Below the same similarity with the label by the resolver's default margin: a
            # record carrying the reference's own label leads a work's other record (Google
            # Scholar holds both), and a label dropped plus a changed word ("dbms" for
            # "database") stays under the threshold.
            bare = title_similarity(bare_left, bare_right) - _LABEL_DROPPED
            title = max(title, bare)
    n_left, n_right = len(left), len(right)
    if n_left >= _PREFIX_MIN_LENGTH and n_right >= _PREFIX_MIN_LENGTH:
        if lenient:
            prefix = title  # the lenient similarity already reads a start match
        # How well the shorter title matches the start of the longer (a dropped subtitle,
        # a truncation) or its end (dropped leading words: metadata that lost an italic
        # taxon, "Staphylococcus aureus subvert autophagy ..." recorded as "subvert
        # autophagy ...", or a group author read into the title), starting from the title
        # similarity (``title``, whichever way it was computed).
        elif left == right:  # one title (most verify pairs): a string against itself is 100
            prefix = max(title, 100.0)
        else:
            short, long = (left, right) if n_left <= n_right else (right, left)
            n = len(short)
            head = float(fuzz.ratio(short, long[:n]))
            tail = float(fuzz.ratio(short, long[-n:])) if n < len(long) else head
            prefix = max(title, head, tail)
    # A dropped subtitle ranks a little below a full match, well above an unrelated title.
    points = title if prefix is None else max(title, prefix - _PREFIX_PENALTY)
    return TitlePart(title, prefix, points)


# Both titles need this many characters for the prefix similarity; a prefix match ranks this
# much below a full one.
_PREFIX_MIN_LENGTH: Final = 25
_PREFIX_PENALTY: Final = 10.0


class TitleBounds(NamedTuple):
    """Upper bounds on a :class:`TitlePart`'s values (:func:`title_bounds`)."""

    title: float
    prefix: float | None  # None: the prefix similarity is not computed for these titles
    points: float


def title_bounds(
    left: str, right: str, title_score: float, *, labelled: bool, ratio: float | None = None
) -> TitleBounds:
    """Upper bounds on ``title_part(left, right, title_score)``, without computing it.

    The title similarity rises above ``title_score`` only by a session label on one side (to at
    most ``100 - 5``). The prefix similarity matches the shorter title against a slice of the
    longer as long as itself, so their longest common subsequence is at most that of the whole
    titles: with ``ratio``, the plain ``fuzz.ratio`` of the two titles, the prefix similarity is
    at most ``ratio * (short + long) / (2 * short)`` (lengths in characters); without it, 100.
    ``labelled``: whether ``left`` holds a session label (``without_session_label(left) is not
    left``), known once per reference. A test checks the bounds on random titles.
    """
    title = title_score
    if title_score < 90.0 and right and (labelled or without_session_label(right) is not right):
        title = max(title, 100.0 - _LABEL_DROPPED)
    n_left, n_right = len(left), len(right)
    if n_left < _PREFIX_MIN_LENGTH or n_right < _PREFIX_MIN_LENGTH:
        return TitleBounds(title, None, title)
    short = min(n_left, n_right)
    prefix = (
        100.0 if ratio is None else min(100.0, ratio * (n_left + n_right) / (2 * short) + _ROUNDING)
    )
    prefix = max(prefix, title)
    return TitleBounds(title, prefix, max(title, prefix - _PREFIX_PENALTY))


# Slack for the floating-point arithmetic of a bound (scores are rounded to far less).
_ROUNDING: Final = 1e-6


def year_agreement(
    ref: ReferenceFeatures, paper: Paper, *, tolerance: int, preprint_tolerance: int
) -> Agreement:
    """The year's agreement as :func:`compare` reads it (``ref.year`` not None).

    :func:`compare_year` with ``tolerance``, and PARTIAL for a preprint and its later
    publication within ``preprint_tolerance`` (see :func:`compare`).
    """
    year = ref.year
    agreement = compare_year(year, paper.year, tolerance=tolerance)
    if (
        agreement is _DISAGREE
        and preprint_tolerance
        and year is not None
        and paper.year is not None
        and _preprint_then_published(ref, paper, paper.year - year, preprint_tolerance)
    ):
        agreement = _PARTIAL
    return agreement


def _year_agreement_of_year(
    ref: ReferenceFeatures, year: int | None, *, tolerance: int, preprint_tolerance: int
) -> Agreement | None:
    """:func:`year_agreement` of any paper of this ``year``, or None if it depends on the paper.

    The same agreement for every paper of the year, except a year that the preprint rule may
    move from DISAGREE to PARTIAL (one side a preprint, the other published later within
    ``preprint_tolerance``): that reads the paper's identifiers and venue, so None.
    """
    agreement = compare_year(ref.year, year, tolerance=tolerance)
    if agreement is _DISAGREE and preprint_tolerance and ref.year is not None and year is not None:
        gap = year - ref.year
        if 0 < (gap if ref.preprint else -gap) <= preprint_tolerance:
            return None
    return agreement


def field_points_bound(ref: ReferenceFeatures, year: Agreement | None = None) -> float:
    """The most the fields other than the title can add to a :class:`Comparison`'s rank.

    Each field the reference has adds at most its AGREE weight (a missing field adds nothing,
    a disagreeing one subtracts): a candidate's rank is at most its title points plus this.
    ``year``: the candidate's :func:`year_agreement`, if known; its own weight is then used.
    """
    bound = 0.0
    if ref.authors:
        bound += AUTHOR_WEIGHTS[_AGREE]
    if ref.year is not None:
        bound += _YEAR_WEIGHTS[_AGREE if year is None else year]
    if ref.volume is not None:
        bound += _EXACT_FIELD_WEIGHTS[_AGREE]
    if ref.first_page is not None:
        bound += _EXACT_FIELD_WEIGHTS[_AGREE]
    if ref.venue:
        bound += _VENUE_WEIGHTS[_AGREE]
    return bound


def compare(
    ref: ReferenceFeatures,
    paper: Paper,
    *,
    paper_title: str | None = None,
    title_score: float | None = None,
    paper_authors: Sequence[NameKey] | None = None,
    paper_author_index: AuthorIndex | None = None,
    author_closeness: Sequence[frozenset[str]] | None = None,
    year_tolerance: int = 1,
    preprint_year_tolerance: int = 0,
    lenient_title: bool = False,
    title_parts: TitlePart | None = None,
) -> Comparison:
    """Compare a reference's features with ``paper``, field by field.

    Args:
        ref: The reference's features (:meth:`ReferenceFeatures.of`).
        paper: The candidate.
        paper_title: The candidate's normalised title, if already known.
        title_score: The title similarity (:func:`title_similarity`), if already computed;
            the prefix similarity starts from it too.
        paper_authors: The candidate's :func:`name_keys`, if already known (a catalog keeps
            them per paper).
        paper_author_index: Their :func:`author_index`, if already known (idem).
        author_closeness: The reference authors' :func:`family_closeness` against a set of
            candidates' indexes that includes ``paper_author_index``, if computed.
        year_tolerance: Years this far apart count as PARTIAL, not DISAGREE.
        preprint_year_tolerance: When exactly one side is a preprint (:func:`is_preprint`) and
            the other side's year is later by at most this much, the years count as PARTIAL:
            a preprint is published a year or more after it is posted.
        lenient_title: Use :func:`lenient_title_similarity` (identifier route).
        title_parts: :func:`title_part` of the two titles, if already computed (not with
            ``lenient_title``).
    """
    # This runs for every candidate that survives the title window (two or three per fuzzy
    # reference): outcomes are kept as plain tuples and rendered only when reported.
    outcomes: list[FieldOutcome] = []
    hard: list[str] = []
    corroborations = 0
    rank = 0.0

    title: float | None = None
    prefix: float | None = None
    left_title = ref.title
    if left_title:
        right = paper_title if paper_title is not None else normalize_title(paper.title)
        part = (
            title_parts
            if title_parts is not None and not lenient_title
            else title_part(left_title, right, title_score, lenient=lenient_title)
        )
        title, prefix = part.title, part.prefix
        rank += part.points
        agreement = (
            _MISSING
            if not right
            else _AGREE
            if title >= 90.0
            else _PARTIAL
            if title >= 70.0
            else _DISAGREE
        )
        outcomes.append(("title", agreement, title, left_title, right))

    if ref.authors:
        right_keys = name_keys(paper.authors) if paper_authors is None else paper_authors
        agreement, score = compare_authors(
            ref.authors, right_keys, index=paper_author_index, close=author_closeness
        )
        rank += AUTHOR_WEIGHTS[agreement]
        if agreement is _AGREE or agreement is _PARTIAL:
            corroborations += 1
        elif agreement is _DISAGREE:
            hard.append("authors")
        outcomes.append(("authors", agreement, score, ref.authors, right_keys))

    if ref.year is not None:
        agreement = year_agreement(
            ref, paper, tolerance=year_tolerance, preprint_tolerance=preprint_year_tolerance
        )
        rank += _YEAR_WEIGHTS[agreement]
        if agreement is _AGREE:
            corroborations += 1
        elif agreement is _DISAGREE:
            hard.append("year")
        outcomes.append(("year", agreement, None, ref.year, paper.year))

    code_disagree = 0
    for name, left, left_code in (
        ("volume", ref.volume, ref.volume_code),
        ("first_page", ref.first_page, ref.page_code),
    ):
        if left is None:
            continue
        # Paper.first_page is computed from the page range; only read it when needed.
        right_value = paper.volume if name == "volume" else paper.first_page
        agreement = _code_agreement(left_code, right_value)
        rank += _EXACT_FIELD_WEIGHTS[agreement]
        if agreement is _AGREE:
            corroborations += 1
        elif agreement is _DISAGREE:
            code_disagree += 1
        outcomes.append((name, agreement, None, left, right_value))
    if code_disagree == 2:
        hard.append("volume+first_page")

    if ref.venue:
        agreement, score = compare_venue(ref.venue, paper.venue)
        rank += _VENUE_WEIGHTS[agreement]
        if agreement is _AGREE:
            corroborations += 1
        outcomes.append(
            (
                "venue",
                agreement,
                score if agreement is not _MISSING else None,
                ref.venue,
                paper.venue,
            )
        )

    # Built slot by slot (as _trusted_evidence is, without a keyword dictionary): the values are
    # already what the class holds, and this runs for every compared candidate.
    comp: Comparison = object.__new__(Comparison)
    setattr_ = object.__setattr__
    setattr_(comp, "title", title)
    setattr_(comp, "prefix_title", prefix)
    setattr_(comp, "rank", rank)
    setattr_(comp, "corroborations", corroborations)
    setattr_(comp, "hard", tuple(hard))
    setattr_(comp, "outcomes", tuple(outcomes))
    return comp
