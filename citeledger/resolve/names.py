"""Whether two author records name one person: the person-level author matcher.

One rule, for every part of citeledger that asks "is this the same author?" about two
:class:`~citeledger.model.Author` records (the ledger's self-citation check uses it; the
resolver's list-level comparison, :func:`~citeledger.resolve.scoring.compare_authors`, scores
reference author lists against candidates and may build on it):

1. When both records carry an ORCID iD, the iDs decide: equal is one person, different is two,
   whatever the names say.
2. Otherwise the full names must agree: the same family name (accent-, case- and
   punctuation-insensitive) **and** given names that do not conflict, compared name by name (a
   full given name against a full given name, or an initial against the name it begins). The
   family name and first initial alone never decide: "Yang He" is not "Yuxiong He" (both "Y.
   He"), because their given names conflict; an initial agrees with a full name only where
   the record gives no more than the initial ("S. Rajbhandari" and "Samyam Rajbhandari"). A
   record with no given name at all is not known to be anyone.

.. versionadded:: 0.2.0
"""

from __future__ import annotations

import enum
import re
from typing import TYPE_CHECKING, Final

from citeledger._text import normalize_text
from citeledger.model import Author

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["PersonMatch", "same_person", "shared_authors"]


class PersonMatch(enum.StrEnum):
    """By what two author records were found to name one person."""

    #: Both carry the same ORCID iD.
    ORCID = "orcid"
    #: Family names equal and given names agreeing (no ORCID on at least one side).
    FULL_NAME = "full_name"


_GIVEN_SPLIT_RE: Final = re.compile(r"[\s.\-‐‑]+")


def _parts(author: Author) -> tuple[str, tuple[str, ...]]:
    """(normalised family name, normalised given-name tokens) of ``author``."""
    family, given = author.family, author.given
    if not family and author.raw:
        parsed = Author.from_string(author.raw)
        family, given = parsed.family, parsed.given
    fam = normalize_text(family or "").replace(" ", "")
    text = (given or "").strip()
    compact = text.replace(".", "").replace(" ", "")
    if compact and compact.isupper() and len(compact) <= 4 and "-" not in compact:
        # Vancouver initials run together ("Rajbhandari SA"): one initial per letter.
        return fam, tuple(normalize_text(ch) for ch in compact)
    return fam, tuple(t for t in (normalize_text(p) for p in _GIVEN_SPLIT_RE.split(text)) if t)


def same_person(a: Author, b: Author) -> PersonMatch | None:
    """How ``a`` and ``b`` are found to name one person, or None when they are not (or unknown).

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
    """
    if a.orcid and b.orcid:
        return PersonMatch.ORCID if a.orcid == b.orcid else None
    fam_a, given_a = _parts(a)
    fam_b, given_b = _parts(b)
    if not fam_a or fam_a != fam_b or not given_a or not given_b:
        return None
    if len("".join(given_a)) > 1 and "".join(given_a) == "".join(given_b):
        return PersonMatch.FULL_NAME  # "Yu-Xiong" and "Yuxiong"
    for t, u in zip(given_a, given_b, strict=False):
        if t != u and not ((len(t) == 1 and u.startswith(t)) or (len(u) == 1 and t.startswith(u))):
            return None  # "Yang" and "Yuxiong": two people, though both are "Y."
    return PersonMatch.FULL_NAME


def shared_authors(left: Sequence[Author], right: Sequence[Author]) -> tuple[Author, ...]:
    """The authors of ``right`` who are one person with some author of ``left``, in order.

    >>> paper = [Author(family="Rajbhandari", given="Samyam"), Author(family="He", given="Yuxiong")]
    >>> citing = [Author(family="He", given="Yang"), Author(raw="Samyam Rajbhandari")]
    >>> [a.name for a in shared_authors(paper, citing)]
    ['Samyam Rajbhandari']
    """
    return tuple(b for b in right if any(same_person(a, b) is not None for a in left))
