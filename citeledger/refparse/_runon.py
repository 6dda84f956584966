"""Two references run together in one string.

PDF extraction joins an entry with the next one when a column or page breaks between them
(GROBID's PMC strings: ``Roff DA (1992) The evolution of life histories: theory and analysis.
Chapman & Hall, New York Saino N, Incagli M, Martinelli R, Ambrosini R, Møller AP (2001)
Immunity, growth and begging behaviour of nestling barn swallows Hirundo rustica in relation
to hatching order. J Avian Biol 32:263-270``). Read as one reference, the first entry's authors
and year go with a title that runs on through the second entry's names, and with the second
entry's journal, volume and pages: a reference that exists nowhere.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re
from typing import Final

from citeledger.refparse._authors import _read_authors
from citeledger.refparse._chars import _YEAR
from citeledger.refparse._names import _CAP_PARTICLE, _PARTICLE
from citeledger.refparse._tail import _parse_tail, _tail_start

#: The year that follows an author list in author-year styles: "(2001)", "(1982b)".
_PAREN_YEAR_RE: Final = re.compile(rf"\({_YEAR}[a-z]?\)")
#: Where an author list can start: a capital, or a lower-case particle, after a space.
_NAME_START_RE: Final = re.compile(r"(?<= )(?:[A-Z]|(?:van|von|de|der|da|du|le|ter|ten)\s[A-Z])")
#: How an author list ends before its year: initials ("AP", "S. C.") or "et al".
_NAMES_END_RE: Final = re.compile(r"(?:\b[A-Z]{1,3}\.?|\bal\.?),?\s?$")
#: A title starts after the second entry's year (not ":", "," or "and others").
_TITLE_AFTER_RE: Final = re.compile(r"\.?\s?[A-Z0-9\"'“‘]")
#: A word that links a title to names it mentions: "by", "of", "to", "and", "&".
_LINK_WORD_RE: Final = re.compile(
    r"(?:\b(?:by|of|to|and|on|in|for|with|from|versus|vs\.?|than|und|et)|&)\s$"
)
#: The author-year styles that run entries together in the PMC strings name family first
#: ("Saino N, Incagli M", "Goodenough, O. R., and Dawkins, R."); the given-first grammars
#: also read a publisher's place as a name ("Chicago Press, Chicago Van Trump JE").
_FAMILY_FIRST: Final = frozenset({"vancouver", "family_initials"})
#: A family name of several words starts with a particle ("Van Den Brink", "de Moraes").
_PARTICLE_RE: Final = re.compile(rf"{_PARTICLE}\s|{_CAP_PARTICLE}\s")
#: How far before its year a second author list may start (about six names).
_MAX_NAMES_CHARS: Final = 200
#: The first entry must have some text of its own (a title) before the second starts.
_MIN_FIRST_CHARS: Final = 20


def _second_start(s: str, lo: int, hi: int) -> int | None:
    """Where a second reference starts in ``s[lo:hi]``: an author list and its year.

    The author grammars must read names from there that end right before a parenthesised year
    (``Saino N, Incagli M, ... (2001)``, ``van Duinen, H., Yu, W. S., and Gandevia, S. C.
    (2009)``, ``Canny MJ (1993)``). Only years in parentheses are looked at: "2001." also ends
    titles and venues, and a title rarely holds names with a year in brackets.
    """
    for ym in _PAREN_YEAR_RE.finditer(s, lo + _MIN_FIRST_CHARS, hi):
        year_at = ym.start()
        if _NAMES_END_RE.search(s, max(0, year_at - 8), year_at) is None:
            continue  # "410-424 (2005)", "Nature (2005)": the year of a venue or pages
        if _TITLE_AFTER_RE.match(s, ym.end()) is None:
            continue  # "... by Smith JA (2005): why we were right": a title that cites
        first = max(lo + _MIN_FIRST_CHARS, year_at - _MAX_NAMES_CHARS)
        for sm in _NAME_START_RE.finditer(s, first, year_at):
            start = sm.start()
            names = _read_authors(s[start:])
            if (
                names is None
                or names.grammar not in _FAMILY_FIRST
                or s[start + names.end : year_at].strip(" ,.")
            ):
                continue
            family = names.authors[0][0]
            if " " in family and _PARTICLE_RE.match(family) is None:
                continue  # "New York Saino N": the publisher's place before the first name
            if _LINK_WORD_RE.search(s, max(0, start - 8), start) is not None:
                break  # "a reply to Smith J, Jones K (2005)": names the title mentions
            return start
    return None


def _has_locator(s: str) -> bool:
    """Whether ``s`` ends in a volume and a first page (an entry complete on its own)."""
    stripped = s.rstrip(" .,;")
    start = _tail_start(stripped, 0)
    if start >= len(stripped):
        return False
    tail = _parse_tail(stripped[start:])
    return bool(tail.volume and tail.first_page)


def _later_reference(s: str, lo: int) -> int | None:
    """Start of the entry to read when ``s`` holds two, or None to read ``s`` as one.

    ``lo`` is where the first entry's title starts (after its authors and year). The second
    entry is read when the text before it has no volume and first page of its own (a book, a
    thesis, a report: ``... Chapman & Hall, New York``) and the text from it ends in volume
    and pages: the numbers at the end are the second entry's. When both entries have their own
    numbers, neither is more the string's than the other, and the string is read as before.
    """
    start = _second_start(s, lo, len(s))
    if start is None:
        return None
    if _has_locator(s[:start]) or not _has_locator(s[start:]):
        return None
    return start
