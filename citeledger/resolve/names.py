"""Whether two author records name one person: the one author matcher of citeledger.

Every part of citeledger that asks "is this the same author?" reads names with one parser,
:func:`name_key` (a :class:`NameKey`: normalised family name, first initial, name words, given
names), and compares two keys with one comparison, :func:`names_agree`. What differs between
its users is only how much the names must say, a :class:`Strictness` passed explicitly:

* :attr:`Strictness.INITIALS`, for references, which abbreviate given names to initials and
  misspell or reorder names: the family names must agree, allowing for noise (equal, a family
  name found among the other name's words as in "Li Wei" / "Wei Li" or a compound name, a name of
  two or more words all found in the other, or RapidFuzz ``ratio`` ≥ :data:`NAME_SIMILARITY` for
  names of 4+ letters). Given names are not compared person by person: the list-level rule
  (:func:`~citeledger.resolve.scoring.compare_authors`) asks only that the first author's
  initials fit (:func:`initials_fit`). A reference's authors score a candidate's with it.
* :attr:`Strictness.FULL_NAMES`, for the ledger's self-citation check: the same family name
  (accent-, case- and punctuation-insensitive) **and** given names that do not conflict,
  compared name by name (a full given name against a full given name, or an initial against the
  name it begins). The family name and first initial alone never decide: "Yang He" is not
  "Yuxiong He" (both "Y. He"), because their given names conflict; an initial agrees with a full
  name only where the record gives no more than the initial ("S. Rajbhandari" and "Samyam
  Rajbhandari"). A record with no given name at all is not known to be anyone.

On :class:`~citeledger.model.Author` records, :func:`same_person` puts the ORCID iD first under
either policy: when both records carry one, the iDs decide (equal is one person, different is
two, whatever the names say); otherwise the names do, by the policy asked for. Names that say no
author is known ("Anonymous", "N/A") name nobody and agree with no one; a group author ("The ATLAS
Collaboration") is known by its name, not by the word "collaboration" every group shares.

.. versionadded:: 0.2.0
.. versionchanged:: 0.2.0
   One parser and one comparison for both uses (the resolver's initials-level rule moved here
   from :mod:`~citeledger.resolve.scoring`); :class:`Strictness` names the policy.
"""

from __future__ import annotations

import enum
from functools import lru_cache
from typing import TYPE_CHECKING, Final, NamedTuple

from rapidfuzz import fuzz

from citeledger.model import Author
from citeledger.resolve.normalize import STOPWORDS, normalize_text

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "NAME_SIMILARITY",
    "NameKey",
    "PersonMatch",
    "Strictness",
    "family_names_agree",
    "given_names_agree",
    "initials_fit",
    "name_key",
    "name_keys",
    "names_agree",
    "same_person",
    "shared_authors",
]

#: Family names at least this similar (RapidFuzz ``ratio``) count as the same name under
#: :attr:`Strictness.INITIALS`: absorbs OCR and transliteration noise ("Güting" read as
#: "gfiting"). A constant, not a threshold.
NAME_SIMILARITY: Final = 80.0

# How many of a reference's authors are compared ("et al." lists rarely go further).
_MAX_AUTHORS: Final = 10


class Strictness(enum.StrEnum):
    """How much two names must say to be one person (the policy of :func:`names_agree`)."""

    #: Names as references print them: family names agree, allowing for misspelling, order and
    #: compound names; given names are at most initials and are checked by the list-level rule.
    INITIALS = "initials"
    #: Names as a paper's own author list gives them: equal family names and given names that
    #: do not conflict, name by name.
    FULL_NAMES = "full_names"


class PersonMatch(enum.StrEnum):
    """By what two author records were found to name one person."""

    #: Both carry the same ORCID iD.
    ORCID = "orcid"
    #: Family names equal and given names agreeing (no ORCID on at least one side).
    FULL_NAME = "full_name"
    #: Family names agreeing under :attr:`Strictness.INITIALS` (no ORCID on at least one side).
    #:
    #: .. versionadded:: 0.2.0
    FAMILY_NAME = "family_name"


class NameKey(NamedTuple):
    """Comparison key of one author: the one parsed form every author comparison reads.

    A named tuple rather than an attrs value: one is built per author of every compared
    candidate, and tuple construction is several times cheaper.

    Attributes:
        family: Normalised family name without spaces ("vanderberg"); a group author's name
            words ("atlas").
        initial: First letter of the given names ("" when none is given).
        tokens: Words of two or more letters of the whole name.
        given: Normalised given names in order, one initial per letter for run-together
            Vancouver initials ("SA" is ``("s", "a")``); a group author's name words.
    """

    family: str
    initial: str
    tokens: frozenset[str]
    given: tuple[str, ...]


@lru_cache(maxsize=1 << 17)
def _name_key_of(family_raw: str | None, given_raw: str | None, raw: str | None) -> NameKey | None:
    # Cached on the name's parts: family and given names repeat across a catalog, and a candidate
    # compared for many references would otherwise be normalised again each time.
    if family_raw:
        # The common case, from the family name's and the given names' own cached forms (a
        # catalog's pairs of names are too many to cache, its family and given names are not).
        family, family_words, family_tokens = _family_part(family_raw)
        if family and family not in _GROUP_WORDS and family_words[-1] not in _PLACEHOLDER_ENDS:
            given_part = _given_part(given_raw) if given_raw else ("", _NO_TOKENS, ())
            return NameKey(
                family=family,
                initial=given_part[0][:1],
                tokens=given_part[1] | family_tokens,
                given=given_part[2],
            )
    return _name_key_general(family_raw, given_raw, raw)


def _name_key_general(
    family_raw: str | None, given_raw: str | None, raw: str | None
) -> NameKey | None:
    # The rule for every name: display names without parts, placeholders and group authors
    # included (``_name_key_of`` builds the common case from cached parts, identically: a
    # property test compares the two).
    given = normalize_text(given_raw) if given_raw else ""
    if family_raw:
        family_text = normalize_text(family_raw)
        family = family_text.replace(" ", "")
        given_words = given.split()
        raw_tokens = [*given_words, *family_text.split()]
    else:
        # A display name without parts: the family name is its last word, the given names the
        # words before it.
        raw_tokens = normalize_text(raw or "").split()
        family = raw_tokens[-1] if raw_tokens else ""
        given_words = raw_tokens[:-1]
    if not family or " ".join(raw_tokens) in _PLACEHOLDER_NAMES:
        return None
    if family in _GROUP_WORDS:
        # A group author ("ATLAS Collaboration", "The International HapMap Consortium"): its
        # name is what tells it apart, not the word "collaboration" every group shares (a CMS
        # paper must not find ATLAS's paper of the same title an author match).
        name = [t for t in raw_tokens if t not in _GROUP_WORDS and t not in STOPWORDS]
        if name:
            return NameKey(
                family="".join(name), initial="", tokens=frozenset(name), given=tuple(name)
            )
    # Vancouver initials run together ("Rajbhandari SA"): one initial per letter. (``isupper``
    # first: dots and spaces are not cased, and most given names are not all capitals.)
    if family_raw and given_raw and given_raw.isupper() and "-" not in given_raw:
        compact = given_raw.replace(".", "").replace(" ", "")
        if len(compact) <= 4:
            given_words = list(given.replace(" ", ""))
    return NameKey(
        family=family,
        initial=given[:1],
        tokens=frozenset(t for t in raw_tokens if len(t) > 1),
        given=tuple(given_words),
    )


_NO_TOKENS: Final[frozenset[str]] = frozenset()


@lru_cache(maxsize=1 << 16)
def _family_part(family_raw: str) -> tuple[str, tuple[str, ...], frozenset[str]]:
    # A family name's key (no spaces), its words and its tokens (words of two or more letters).
    words = tuple(normalize_text(family_raw).split())
    return "".join(words), words, frozenset(t for t in words if len(t) > 1)


@lru_cache(maxsize=1 << 12)
def _given_part(given_raw: str) -> tuple[str, frozenset[str], tuple[str, ...]]:
    # Given names (with a family name beside them): normalised text, tokens, and the given names
    # as ``NameKey.given`` holds them (run-together Vancouver initials one per letter).
    given = normalize_text(given_raw)
    words = given.split()
    tokens = frozenset(t for t in words if len(t) > 1)
    if given_raw.isupper() and "-" not in given_raw:
        compact = given_raw.replace(".", "").replace(" ", "")
        if len(compact) <= 4:
            return given, tokens, tuple(given.replace(" ", ""))
    return given, tokens, tuple(words)


#: Author "names" that say no author is known: they name nobody, so two of them must not agree
#: (two anonymous editorials are not by one person) and one must not disagree with a real name.
_PLACEHOLDER_NAMES: Final = frozenset(
    (
        "anonymous",
        "anon",
        "anonym",
        "anonymous author",
        "anonymous authors",
        "no authors listed",
        "no author listed",
        "no author",
        "unknown",
        "unknown author",
        "n a",  # "N/A" (a bare "Na" is a family name: Na JI)
        "various",
        "various authors",
        "author",
        "authors",
        "staff",
        "editor",
        "editors",
        "the editors",
    )
)

#: The last words of the placeholder names (a name ending otherwise is none of them).
_PLACEHOLDER_ENDS: Final = frozenset(name.split()[-1] for name in _PLACEHOLDER_NAMES)

#: Last words of group authors' names (collaborations, consortia, study groups).
_GROUP_WORDS: Final = frozenset(
    (
        "collaboration",
        "collaborations",
        "collaborators",
        "collaborative",
        "consortium",
        "consortia",
        "group",
        "investigators",
        "team",
        "network",
        "committee",
        "initiative",
        "alliance",
    )
)


def name_key(author: Author) -> NameKey | None:
    """The comparison key of ``author``, or None when the name has no usable part.

    The raw display name is only read when there is no family name.

    >>> key = name_key(Author(family="van der Berg", given="J. R."))
    >>> key.family, key.initial, sorted(key.tokens), key.given
    ('vanderberg', 'j', ['berg', 'der', 'van'], ('j', 'r'))
    >>> name_key(Author(raw="Georg Kaser")).given
    ('georg',)
    >>> name_key(Author(family="Rajbhandari", given="SA")).given
    ('s', 'a')
    >>> name_key(Author(raw="Anonymous"))
    """
    family = author.family
    return _name_key_of(family, author.given, None if family else author.raw)


def name_keys(authors: Sequence[Author], limit: int = _MAX_AUTHORS) -> tuple[NameKey, ...]:
    """Comparison keys of the first ``limit`` authors (names without a usable part are skipped)."""
    out: list[NameKey] = []
    key_of = _name_key_of
    for author in authors[: limit * 2]:
        family = author.family
        key = key_of(family, author.given, None if family else author.raw)
        if key is not None:
            out.append(key)
            if len(out) >= limit:
                break
    return tuple(out)


def family_names_agree(a: NameKey, b: NameKey) -> bool:
    """Whether the family names of ``a`` and ``b`` agree under :attr:`Strictness.INITIALS`.

    The resolver's list-level comparison calls this directly (it is on its hot path); it is
    exactly what :func:`names_agree` does for :attr:`Strictness.INITIALS`.

    >>> li, wei = name_key(Author(family="Li", given="Wei")), name_key(Author(raw="Li Wei"))
    >>> family_names_agree(li, wei)
    True
    """
    if a.family == b.family:
        return True
    # Order confusions ("Li Wei" vs "Wei Li") and compound names: a family name equal to any
    # token of the other full name.
    if (len(a.family) > 1 and a.family in b.tokens) or (len(b.family) > 1 and b.family in a.tokens):
        return True
    # A name of two or more words all found in the other ("fox development team" in "corporate
    # fox development team microsoft").
    ta, tb = a.tokens, b.tokens
    if (len(ta) >= 2 and ta <= tb) or (len(tb) >= 2 and tb <= ta):
        return True
    if min(len(a.family), len(b.family)) >= 4:
        return fuzz.ratio(a.family, b.family, score_cutoff=NAME_SIMILARITY) > 0
    return False


def given_names_agree(a: NameKey, b: NameKey) -> bool:
    """Whether the given names of ``a`` and ``b`` agree under :attr:`Strictness.FULL_NAMES`.

    Both must be known; compared name by name, a full name must equal a full name and an initial
    must begin the other name; the same letters hyphenated or not ("Yu-Xiong", "Yuxiong") agree.

    >>> he = name_key(Author(family="He", given="Yuxiong"))
    >>> given_names_agree(name_key(Author(family="He", given="Yang")), he)
    False
    >>> given_names_agree(name_key(Author(family="He", given="Yu-Xiong")), he)
    True
    """
    ga, gb = a.given, b.given
    if not ga or not gb:
        return False
    joined = "".join(ga)
    if len(joined) > 1 and joined == "".join(gb):
        return True  # "Yu-Xiong" and "Yuxiong"
    for t, u in zip(ga, gb, strict=False):
        if t != u and not ((len(t) == 1 and u.startswith(t)) or (len(u) == 1 and t.startswith(u))):
            return False  # "Yang" and "Yuxiong": two people, though both are "Y."
    return True


def initials_fit(a: NameKey, b: NameKey) -> bool:
    """Whether the first initials of ``a`` and ``b`` do not conflict (one may be unknown).

    Under :attr:`Strictness.INITIALS` the list-level rule asks this of the first author only.
    The name order may be confused ("Wei Li" / "Li Wei"): each initial is then the other's
    family name's.
    """
    ai, bi = a.initial, b.initial
    return not (ai and bi and ai != bi) or (
        # The name order confused ("Wei Li" / "Li Wei"): each initial is the other's family
        # name's.
        a.family != b.family and ai == b.family[:1] and bi == a.family[:1]
    )


def names_agree(a: NameKey, b: NameKey, *, strictness: Strictness) -> bool:
    """Whether ``a`` and ``b`` name one person, by the names alone, under ``strictness``.

    >>> yang, yuxiong = Author(family="He", given="Yang"), Author(family="He", given="Yuxiong")
    >>> names_agree(name_key(yang), name_key(yuxiong), strictness=Strictness.INITIALS)
    True
    >>> names_agree(name_key(yang), name_key(yuxiong), strictness=Strictness.FULL_NAMES)
    False
    """
    if strictness is Strictness.INITIALS:
        return family_names_agree(a, b)
    return a.family == b.family and given_names_agree(a, b)


def same_person(
    a: Author, b: Author, *, strictness: Strictness = Strictness.FULL_NAMES
) -> PersonMatch | None:
    """How ``a`` and ``b`` are found to name one person, or None when they are not (or unknown).

    Args:
        a: One author record.
        b: The other.
        strictness: What the names must say when the ORCID iDs do not decide (see the module's
            documentation); the ledger's self-citation check uses the default.

    >>> same_person(Author(family="He", given="Yang"), Author(family="He", given="Yuxiong"))
    >>> same_person(Author(family="He", given="Y."), Author(family="He", given="Yuxiong")).value
    'full_name'
    >>> same_person(Author(family="He"), Author(family="He", given="Yuxiong"))
    >>> same_person(Author(family="He", given="Yuxiong"), Author(raw="Yuxiong He")).value
    'full_name'
    >>> same_person(
    ...     Author(family="Smith", given="J. R."), Author(family="Smith", given="John Robert")
    ... ).value
    'full_name'
    >>> same_person(
    ...     Author(family="Rasley", given="Jeff", orcid="0000-0002-1825-0097"),
    ...     Author(family="Rasley", given="Jeff", orcid="0000-0001-5109-3700"),
    ... )
    >>> same_person(
    ...     Author(family="He", given="Yang"),
    ...     Author(family="He", given="Yuxiong"),
    ...     strictness=Strictness.INITIALS,
    ... ).value
    'family_name'

    .. versionchanged:: 0.2.0
       ``strictness``.
    """
    if a.orcid and b.orcid:
        return PersonMatch.ORCID if a.orcid == b.orcid else None
    if strictness is Strictness.FULL_NAMES:
        # A name given only as one display string is read by the author grammar ("Rajbhandari,
        # Samyam", "Rajbhandari SA"): full names must agree part for part.
        a, b = _with_parts(a), _with_parts(b)
    ka, kb = name_key(a), name_key(b)
    if ka is None or kb is None or not names_agree(ka, kb, strictness=strictness):
        return None
    return PersonMatch.FULL_NAME if strictness is Strictness.FULL_NAMES else PersonMatch.FAMILY_NAME


def _with_parts(author: Author) -> Author:
    # ``author`` with its family and given names read from its display name when it has none.
    if author.family or not author.raw:
        return author
    parsed = Author.from_string(author.raw)
    return parsed if parsed.family else author


def shared_authors(left: Sequence[Author], right: Sequence[Author]) -> tuple[Author, ...]:
    """The authors of ``right`` who are one person with some author of ``left``, in order.

    Compared by :func:`same_person` with :attr:`Strictness.FULL_NAMES`.

    >>> paper = [Author(family="Rajbhandari", given="Samyam"), Author(family="He", given="Yuxiong")]
    >>> citing = [Author(family="He", given="Yang"), Author(raw="Samyam Rajbhandari")]
    >>> [a.name for a in shared_authors(paper, citing)]
    ['Samyam Rajbhandari']
    """
    return tuple(b for b in right if any(same_person(a, b) is not None for a in left))
