"""Comparing venues: journal abbreviations (ISO 4, initials), venue agreement and kinds.

Part of :mod:`~citeledger.resolve.scoring`, which re-exports these names.
"""

from __future__ import annotations

import enum
from functools import lru_cache
from typing import Final

from rapidfuzz import fuzz

from citeledger.model import Agreement
from citeledger.resolve.journals import content_words, ltwa_contradicts, same_journal_key
from citeledger.resolve.normalize import (
    STOPWORDS,
    normalize_text,
)


def _acronym_or_abbreviation(short: list[str], long: list[str], *, whole: bool = False) -> bool:
    # "vldb" ~ "very large data bases"; "j magn magn mater" ~ "journal of magnetism and ...".
    # ``whole``: every content word of ``long`` must be abbreviated, none skipped ("nature" is
    # not "nature genetics", "brain res" not "brain research bulletin").
    if len(short) == 1 and len(short[0]) >= 2 and len(long) >= 2:
        initials = "".join(t[0] for t in long if t not in STOPWORDS)
        if short[0] == initials:
            return True
    # (whole: the words come from _journal_words, where a single letter is a section, "A")
    content = [t for t in long if t not in STOPWORDS or (whole and len(t) == 1)]
    if not short or len(short) > len(content):
        return False
    j = 0
    for tok in short:
        while j < len(content):
            word = content[j]
            if word.startswith(tok) or (
                # An ISO 4 contraction keeps the word's first letter and some later ones in
                # order: "natl" national, "mater" materials, "biochem" biochemistry.
                len(tok) >= 3 and tok[0] == word[0] and _is_subsequence(tok, word)
            ):
                j += 1
                break
            if 2 <= len(tok) <= len(content) - j and tok == "".join(
                w[0] for w in content[j : j + len(tok)]
            ):
                j += len(tok)  # initials of several words: "usa" united states (of) america
                break
            if whole:
                return False
            j += 1
        else:
            return False
    return not whole or j == len(content)


def _is_subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)


def _journal_words(name: str) -> list[str]:
    # Content words of a normalised journal name (runs of single letters joined: initials).
    return [word for word, _ in content_words(name.split())]


@lru_cache(maxsize=1 << 16)
def same_journal(left: str | None, right: str | None) -> bool:
    """Whether two venue names name the same journal: equal, or one abbreviates all of the other.

    Stricter than :func:`compare_venue`, which also lets a name agree with a longer one that
    contains it (right for corroborating a title, wrong for telling journals apart):

    >>> same_journal(
    ...     "Proc Natl Acad Sci USA",
    ...     "Proceedings of the National Academy of Sciences of the United States of America",
    ... )
    True
    >>> same_journal("Nature", "Nature Genetics"), same_journal("J Phys", "Journal of Physiology")
    (False, True)

    The ISO 4 forms come first (:mod:`citeledger.resolve.journals`, from the LTWA): equal forms
    are the same journal ("Proc. Natl. Acad. Sci. U.S.A" and "Proceedings of the National
    Academy of Sciences", "N Engl J Med" and "New England Journal of Medicine"); forms the
    LTWA knows word for word that clash are two journals (:func:`~citeledger.resolve.journals
    .ltwa_contradicts`: "J Chem Phys" is not the "Journal of Physical Chemistry"); otherwise the
    hand rule of initials and contractions below decides ("JBC").
    """
    a, b = normalize_text(left or ""), normalize_text(right or "")
    if not a or not b:
        return False
    if same_journal_key(a, b):
        return True
    if ltwa_contradicts(a, b):
        return False
    ta, tb = _journal_words(a), _journal_words(b)
    if ta == tb:
        return True
    short, long = (ta, tb) if len(a) <= len(b) else (tb, ta)
    return _acronym_or_abbreviation(short, long, whole=True)


@lru_cache(maxsize=1 << 16)
def compare_venue(left: str | None, right: str | None) -> tuple[Agreement, float]:
    """Venue agreement: fuzzy token-set similarity, acronyms and dotted abbreviations.

    Results are cached on the pair of names (a catalog names few venues, each many times).

    >>> compare_venue("Proc. VLDB", "Proceedings of VLDB")[0]
    <Agreement.AGREE: 'agree'>
    """
    a, b = normalize_text(left or ""), normalize_text(right or "")
    if not a or not b:
        return Agreement.MISSING, 0.0
    score = float(fuzz.token_set_ratio(a, b))
    if score >= 85.0:
        return Agreement.AGREE, score
    ta, tb = a.split(), b.split()
    short, long = (ta, tb) if len(a) <= len(b) else (tb, ta)
    if _acronym_or_abbreviation(short, long):
        return Agreement.AGREE, max(score, 85.0)
    return Agreement.DISAGREE, score


class VenueKind(enum.StrEnum):
    """What kind of publication a venue name says it is (:func:`venue_kind`)."""

    JOURNAL = "journal"
    CONFERENCE = "conference"
    PREPRINT = "preprint"


_PREPRINT_WORDS: Final = frozenset(
    [
        "arxiv",
        "biorxiv",
        "medrxiv",
        "chemrxiv",
        "psyarxiv",
        "socarxiv",
        "techrxiv",
        "engrxiv",
        "eartharxiv",
        "ssrn",
        "authorea",
        "preprint",
        "preprints",
        "corr",
        "zenodo",
        "figshare",
    ]
)
_PREPRINT_PHRASES: Final = (
    "research square",
    "working paper",
    "technical report",
    "tech report",
    "tech rep",
)
_JOURNAL_WORDS: Final = frozenset(
    [
        "journal",
        "journals",
        "j",
        "jour",
        "transactions",
        "trans",
        "letters",
        "lett",
        "record",
        "records",
        "rec",
        "review",
        "reviews",
        "magazine",
        "bulletin",
        "bull",
        "quarterly",
        "annals",
        "acta",
        "surveys",
        "zeitschrift",
        "endowment",
        "endow",
        "pvldb",
    ]
)
_MEETING_WORDS: Final = frozenset(
    [
        "conference",
        "conferences",
        "conf",
        "symposium",
        "symposia",
        "symp",
        "workshop",
        "workshops",
        "congress",
        "colloquium",
        "meeting",
    ]
)
# Conferences usually cited by acronym alone ("VLDB 2002", "SIGMOD"): widely known names only.
_CONFERENCE_NAMES: Final = frozenset(
    [
        "vldb",
        "sigmod",
        "pods",
        "icde",
        "edbt",
        "icdt",
        "cikm",
        "kdd",
        "sigkdd",
        "sigir",
        "wsdm",
        "icml",
        "neurips",
        "nips",
        "iclr",
        "aaai",
        "ijcai",
        "acl",
        "emnlp",
        "naacl",
        "cvpr",
        "iccv",
        "eccv",
        "sosp",
        "osdi",
        "nsdi",
        "sigcomm",
        "podc",
        "stoc",
        "focs",
        "soda",
        "icalp",
        "popl",
        "pldi",
        "oopsla",
        "icse",
    ]
)


@lru_cache(maxsize=4096)
def venue_kind(venue: str | None) -> VenueKind | None:
    """A journal, conference proceedings or preprint server, when the name says so; else None.

    Preprint servers and report series first (``arXiv``, ``SSRN``, "Research Square", "technical
    report"); then journal words ("Journal", "J.", "Transactions", "Letters", "Record",
    "Review", ...) and meeting words ("Conference", "Symposium", "Workshop", ...) or a well-known
    conference acronym alone ("VLDB", "SIGMOD"; ACM's "Very Large Data Bases"). A name with both
    journal and meeting words ("J. Phys.: Conference Series") and a bare "Proceedings" (*Proc
    Natl Acad Sci*, *Mayo Clin Proc*) say nothing.

    >>> venue_kind("The VLDB Journal"), venue_kind("VLDB"), venue_kind("arXiv preprint")
    (<VenueKind.JOURNAL: 'journal'>, <VenueKind.CONFERENCE: 'conference'>, \
<VenueKind.PREPRINT: 'preprint'>)
    >>> venue_kind("Proc Natl Acad Sci USA") is None
    True
    """
    if not venue:
        return None
    text = normalize_text(venue)
    words = set(text.split())
    padded = f" {text} "
    if words & _PREPRINT_WORDS or any(f" {p} " in padded for p in _PREPRINT_PHRASES):
        return VenueKind.PREPRINT
    journal = bool(words & _JOURNAL_WORDS)
    meeting = bool(words & _MEETING_WORDS)
    if journal and meeting:
        return None
    if journal:
        return VenueKind.JOURNAL
    if meeting or words & _CONFERENCE_NAMES or " very large data bases " in padded:
        return VenueKind.CONFERENCE
    return None
