"""Journal names as keys: ISO 4 abbreviations from the LTWA, so a name and its abbreviation meet.

A journal is cited under many names: "Proceedings of the National Academy of Sciences",
"Proc. Natl. Acad. Sci. U.S.A.", "PNAS"; "Physical Review Letters" and "Phys Rev Lett". ISO 4
abbreviations (used by NLM, most publishers and CASSI) are made word by word from the ISSN
International Centre's *List of Title Word Abbreviations* (LTWA). :func:`journal_key` applies
that list to every word of a name (a word already in abbreviated form stays as it is), so a full
name and its ISO 4 abbreviation give the same key. The list ships as package data
(``ltwa.tsv``, about 19,000 patterns, rebuilt from the LTWA of 2021-07-02 by
``benchmarks/build_journal_abbreviations.py``; its header names the source).

Why data and not hand-written rules: the LTWA knows contractions and phrases no prefix or
initials rule can ("N Engl" New England, "N Y" New York, "Natl" national, "U S A" for "of
the United States of America") and tells word orders apart that the hand rule's subsequence
test lets through; it is one regeneration away from current instead of a growing exception
list, and it is the list the abbreviations people print were made from.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Final, NamedTuple

from citeledger.resolve.normalize import STOPWORDS, normalize_text

__all__ = ["JournalKey", "content_words", "journal_key", "ltwa_contradicts", "same_journal_key"]

#: Trailing words that only say where a journal is published (PNAS is cited with and without
#: "U.S.A."); dropped from a key's end when the other key lacks them.
_PLACE_QUALIFIERS: Final = frozenset({"usa", "us", "uk"})
_LONGEST_PHRASE: Final = 5


class _Table(NamedTuple):
    exact: dict[str, str]
    major: frozenset[str]
    prefixes: dict[str, str]
    phrases: dict[tuple[str, ...], tuple[str, ...]]
    abbreviations: frozenset[str]


@cache
def _table() -> _Table:
    # Read once per process; the file is immutable package data.
    text = resources.files("citeledger.resolve").joinpath("ltwa.tsv").read_text(encoding="utf-8")
    exact: dict[str, str] = {}
    major: set[str] = set()
    prefixes: dict[str, str] = {}
    phrases: dict[tuple[str, ...], tuple[str, ...]] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        pattern, abbr, english = line.split("\t")
        if " " in pattern:
            phrases[tuple(pattern.rstrip("-").split())] = tuple(abbr.split())
        elif pattern.endswith("-"):
            prefixes[pattern[:-1]] = abbr
        else:
            exact[pattern] = abbr
            if english == "1":
                major.add(pattern)
    abbreviations = frozenset(
        w
        for a in (*exact.values(), *prefixes.values(), *(" ".join(p) for p in phrases.values()))
        for w in a.split()
    )
    return _Table(exact, frozenset(major), prefixes, phrases, abbreviations)


def _abbreviate(word: str, table: _Table) -> tuple[str, bool]:
    # (the word's ISO 4 form, whether the LTWA knows the word or the form)
    # An English word is abbreviated ("journal" -> "j", though "journal" abbreviates
    # "journalism"); another language's word spelled like an abbreviation is left alone
    # ("environ", French, "env"; also ISO 4 for "environmental").
    if word in table.major:
        return table.exact[word], True
    if word in table.abbreviations:
        return word, True
    if word in table.exact:
        return table.exact[word], True
    if word.endswith("s") and word[:-1] in table.exact:  # a plural: "letters", "annals"
        return table.exact[word[:-1]], True
    for end in range(len(word), 2, -1):
        abbr = table.prefixes.get(word[:end])
        if abbr is not None:
            return abbr, True
    return word, False


class JournalKey(NamedTuple):
    """A journal name in ISO 4 form: its words, and whether the LTWA knew every one."""

    words: tuple[str, ...]
    known: bool


def journal_key(name: str | None) -> JournalKey:
    """The ISO 4 form of a journal name, word by word, for comparing names.

    Case, accents, punctuation, function words and disambiguating years are ignored; runs of
    single letters join ("U.S.A." reads as "usa"), so does an LTWA phrase's abbreviation
    ("New England" -> "n engl").

    >>> journal_key("Proceedings of the National Academy of Sciences").words
    ('proc', 'natl', 'acad', 'sci')
    >>> journal_key("Phys. Rev. Lett.").words == journal_key("Physical Review Letters").words
    True
    >>> journal_key("N Engl J Med").words == journal_key("The New England J. of Medicine").words
    True
    """
    table = _table()
    tokens = normalize_text(name or "").split()
    # LTWA phrases first ("united states of america" -> "u s a"), longest first.
    expanded: list[str] = []
    i = 0
    while i < len(tokens):
        for size in range(min(_LONGEST_PHRASE, len(tokens) - i), 1, -1):
            abbr = table.phrases.get(tuple(tokens[i : i + size]))
            if abbr is not None:
                expanded.extend(abbr)
                i += size
                break
        else:
            expanded.append(tokens[i])
            i += 1
    words: list[str] = []
    known = True
    for tok, initials in content_words(expanded):
        if initials:
            words.append(tok)
            continue
        form, knows = _abbreviate(tok, table)
        words.append(form)
        known = known and knows
    return JournalKey(tuple(words), known)


def content_words(tokens: list[str]) -> list[tuple[str, bool]]:
    """A journal name's content words, each with whether it is a run of initials.

    Function words and disambiguating years ("Spine (Phila Pa 1976)") are dropped; runs of
    single letters join into one word ("u s a" -> "usa", so "U.S.A." and "USA" read alike).

    >>> content_words("proc natl acad sci u s a 1976".split())[-2:]
    [('sci', False), ('usa', True)]
    """
    out: list[tuple[str, bool]] = []
    letters = ""
    for tok in tokens:
        if tok.isdigit():
            continue
        if len(tok) == 1:
            letters += tok
            continue
        if letters:
            out.append((letters, True))
            letters = ""
        if tok not in STOPWORDS:
            out.append((tok, False))
    if letters:
        out.append((letters, True))
    return out


def _without_place(words: tuple[str, ...]) -> tuple[str, ...]:
    return words[:-1] if len(words) > 1 and words[-1] in _PLACE_QUALIFIERS else words


def same_journal_key(left: str | None, right: str | None) -> bool:
    """Whether two names have the same ISO 4 form (a trailing "USA" may be left out).

    >>> same_journal_key(
    ...     "Proc. Natl. Acad. Sci. U.S.A", "Proceedings of the National Academy of Sciences"
    ... )
    True
    >>> same_journal_key("Nature", "Nature Genetics"), same_journal_key("Phys Rev", "Physiol Rev")
    (False, False)
    """
    a, b = journal_key(left).words, journal_key(right).words
    if not a or not b:
        return False
    return a == b or _without_place(a) == _without_place(b)


def ltwa_contradicts(left: str | None, right: str | None) -> bool:
    """Whether the LTWA knows every word of both names and their ISO 4 forms clash.

    Clash: as many words on each side, and at some place two forms neither of which begins the
    other ("Phys Rev B" and "Physical Review A"; "Appl Opt" and "Applied Optics" agree). A form
    that begins the other is let through, since people shorten beyond ISO 4 ("Ann Rev Immunol"
    for *Annu Rev Immunol*): the hand rule of :func:`~citeledger.resolve.scoring.same_journal`
    judges those.

    >>> ltwa_contradicts("J Chem Phys", "Journal of Physical Chemistry")
    True
    >>> ltwa_contradicts("Ann Rev Immunol", "Annual Review of Immunology")
    False
    >>> ltwa_contradicts("JBC", "Journal of Biological Chemistry")  # "jbc" is no LTWA word
    False
    """
    a, b = journal_key(left), journal_key(right)
    if not (a.known and b.known):
        return False
    wa, wb = _without_place(a.words), _without_place(b.words)
    if not wa or len(wa) != len(wb):
        return False
    return any(
        x != y and not (x.startswith(y) or y.startswith(x)) for x, y in zip(wa, wb, strict=True)
    )
