"""Comparing two normalised titles: similarity, partial and lenient forms, word conflicts.

Part of :mod:`~citeledger.resolve.scoring`, which re-exports these names.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final, NamedTuple

from rapidfuzz import fuzz, process

from citeledger.resolve.normalize import (
    STOPWORDS,
)


def title_similarity(a: str, b: str, *, score_cutoff: float = 0.0) -> float:
    """Similarity (0-100) of two *normalised* titles: best of ``ratio`` and ``token_sort_ratio``.

    Returns 0 below ``score_cutoff`` (as RapidFuzz scorers do).

    >>> title_similarity("deep residual learning", "residual learning deep")
    100.0
    """
    if not a or not b:
        return 0.0
    score = max(
        fuzz.ratio(a, b, score_cutoff=score_cutoff),
        fuzz.token_sort_ratio(a, b, score_cutoff=score_cutoff),
    )
    return float(score)


# Session and track labels that one record of a proceedings paper carries in its title and the
# other does not (DBLP "The BUCKY object-relational benchmark (Experience Paper)", ACM "The
# BUCKY object-relational benchmark"): two-word labels anywhere in a normalised title, one-word
# ones only at its end ("Honey, I shrunk the DBMS: ... and beyond (Panel)").
_SESSION_LABEL_RE: Final = re.compile(
    r"\b(?:(?:experience|industrial|research|short|invited|vision|demo) paper"
    r"|(?:tutorial|panel|demonstration|demo|poster|industrial) session"
    r"|demonstration description|extended abstract|invited talk|keynote address)\b"
    r"|\s(?:panel|tutorial|demonstration|demo|poster)$"
)

# Every label above holds one of these words (a title holding none has no label).
_LABEL_WORDS: Final = (
    "paper",
    "session",
    "description",
    "abstract",
    "talk",
    "address",
    "panel",
    "tutorial",
    "demo",
    "poster",
)


#: What a title match found only without a session label loses (see :func:`compare`).
_LABEL_DROPPED: Final = 5.0
#: A one-word label ends a title of at least this many words before it ("... beyond panel"),
#: not a short title ("the expert panel").
_MIN_WORDS_BEFORE_LABEL: Final = 4


def without_session_label(title: str) -> str:
    """A normalised title without a proceedings session label ("experience paper", "panel").

    Returns ``title`` itself when it holds none.

    >>> without_session_label("the bucky object relational benchmark experience paper")
    'the bucky object relational benchmark'
    >>> without_session_label("data access tutorial session the good the bad")
    'data access the good the bad'
    """
    for word in _LABEL_WORDS:  # a quick test first: the search costs several of these
        if word in title:
            break
    else:
        return title
    m = _SESSION_LABEL_RE.search(title)
    if m is None:
        return title
    if (
        m.start() > 0
        and title[m.start()] == " "
        and title.count(" ", 0, m.start()) < (_MIN_WORDS_BEFORE_LABEL - 1)
    ):
        return title  # "the expert panel": a short title's last word
    return " ".join(_SESSION_LABEL_RE.sub(" ", title).split())


def lenient_title_similarity(a: str, b: str) -> float:
    """Title similarity that forgives a missing subtitle or truncation (for identifier checks).

    Used only to decide whether metadata *clearly disagree* with an identifier's record: the
    better of :func:`title_similarity` and how well the shorter title matches the *start* of the
    longer one (at least 10 characters), since references drop subtitles and truncate titles.
    Shared words elsewhere ("endoscopic sphincterotomy ...") do not count.

    >>> lenient_title_similarity("zero infinity", "zero infinity breaking the gpu memory wall")
    100.0
    """
    if not a or not b:
        return 0.0
    score = title_similarity(a, b)
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) >= 10:
        score = max(score, float(fuzz.ratio(short, long[: len(short)])))
    return score


# Multi-letter Roman numerals, as in "Part II" or "Constructing optimal witnesses. II"; single
# letters ("x ray", "vitamin d", "part i") are too ambiguous to read as numbers.
_ROMAN: Final = {"ii": "2", "iii": "3", "iv": "4", "vi": "6", "vii": "7", "viii": "8", "ix": "9"}


_ORDINAL: Final = re.compile(r"^(\d+)(?:st|nd|rd|th)$")


@lru_cache(maxsize=1 << 14)
def _title_words(normalized: str) -> frozenset[str]:
    # Cached: a candidate's title is read again for every reference it is the best of.
    out: set[str] = set()
    for word in normalized.split():
        if word in STOPWORDS:
            continue
        # Only a word that starts with a digit and ends like an ordinal can be one (the test
        # costs less than the match).
        ordinal = (
            _ORDINAL.match(word) if word[0].isdecimal() and word.endswith(_ORDINAL_ENDS) else None
        )
        tok = ordinal.group(1) if ordinal else _ROMAN.get(word, word)
        if len(tok) > 1 or tok.isdigit():
            out.add(tok)
    return frozenset(out)


_ORDINAL_ENDS: Final = ("st", "nd", "rd", "th")


class _Spelt(NamedTuple):
    # A title's words that are not numbers, as :func:`_word_found` searches them: each after a
    # newline in one string (a word starts with ``w`` when "\n" + ``w`` is in it; words hold no
    # whitespace), and those of 3+ letters as a tuple for ``str.startswith``.
    joined: str
    long: tuple[str, ...]
    words: list[str]


def _spelt(words: frozenset[str]) -> _Spelt:
    spelt = [w for w in words if not w.isdigit()]
    return _Spelt("\n" + "\n".join(spelt), tuple(w for w in spelt if len(w) >= 3), spelt)


def _word_found(word: str, others: frozenset[str], spelt: _Spelt) -> bool:
    # ``spelt``: ``others`` without the numbers (:func:`_spelt`).
    if word.isdigit():
        return word in others  # 2011 vs 2012, part 2 vs part 3: numbers must be equal
    # A misspelling, British/American spelling (RapidFuzz ``ratio`` of at least 75, against
    # every word in one call), or an abbreviation ("eval" ~ "evaluation": one word begins the
    # other, both of 3+ letters).
    if process.extractOne(word, spelt.words, scorer=fuzz.ratio, processor=None, score_cutoff=75.0):
        return True
    return len(word) >= 3 and ("\n" + word in spelt.joined or word.startswith(spelt.long))


def _unfound(words: frozenset[str], others: frozenset[str]) -> list[str]:
    # The words of ``words`` not found among ``others`` (:func:`_word_found`), sorted.
    if not words:
        return []
    spelt = _spelt(others)
    return sorted(w for w in words if not _word_found(w, others, spelt))


def title_word_conflict(a: str, b: str) -> str | None:
    """Why two *normalised* titles name different works despite a high similarity, or None.

    Two cases are conflicts: each title has a content word the other lacks (a *substituted*
    word, e.g. "Ball-Milled Aluminum-Borax Powder Blends" vs "Ball-Milled Cu-Mg/B2O3 Powder
    Blends": a series of papers), or the only difference is a number (a part, edition or year:
    "Constructing optimal entanglement witnesses. II" vs "... witnesses"). Words that are
    misspelt (RapidFuzz ``ratio`` ≥ 75), abbreviated (a prefix of 3+ letters) or only on one
    side (a dropped subtitle, a truncation) are not conflicts.

    >>> title_word_conflict(
    ...     "response ball milled aluminum borax", "response ball milled cu mg b2o3"
    ... )
    "words on both sides: 'aluminum', 'borax' vs 'b2o3', 'cu', 'mg'"
    >>> title_word_conflict("optimal entanglement witnesses ii", "optimal entanglement witnesses")
    "number on one side: '2'"
    >>> title_word_conflict("deep residual lerning", "deep residual learning for image recognition")
    """
    if a == b:
        return None
    wa, wb = _title_words(a), _title_words(b)
    only_a = wa - wb
    only_b = wb - wa
    if not only_a and not only_b:
        return None
    ua = _unfound(only_a, wb)
    ub = _unfound(only_b, wa)
    if ua and ub:
        return (
            "words on both sides: "
            + ", ".join(repr(w) for w in ua)
            + " vs "
            + ", ".join(repr(w) for w in ub)
        )
    extra = ua or ub
    if extra and all(w.isdigit() for w in extra):
        return "number on one side: " + ", ".join(repr(w) for w in extra)
    return None
