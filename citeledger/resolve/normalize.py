"""String normalisation shared by the resolver, the catalog and the reference parser.

:func:`normalize_text`, :func:`normalize_title` and :func:`strip_accents` live in
:mod:`citeledger._text` (the model uses them too) and are re-exported here. Everything here is
pure and deterministic. Comparisons in citeledger are made on normalised strings so that case,
Unicode normal form (NFC/NFD), diacritics, markup, whitespace and punctuation never change an
outcome.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Final

from citeledger._text import normalize_text, normalize_title, strip_accents

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "GENERIC_TITLES",
    "STOPWORDS",
    "is_generic_title",
    "normalize_code",
    "normalize_name",
    "normalize_text",
    "normalize_title",
    "strip_accents",
    "title_tokens",
]


def normalize_name(text: str | None) -> str:
    """Normalised person-name part (family name): no accents, case, spaces or punctuation.

    "O'Neil", "O Neil" and "ONeil" compare equal, as do "Müller" and "Muller".

    >>> normalize_name("García-Márquez")
    'garciamarquez'
    """
    if not text:
        return ""
    return normalize_text(text).replace(" ", "")


#: English function words that carry no identity in titles (used by blocking and scoring).
_STOPWORD_TEXT: Final = """a an and are as at be by for from has have in into is it its of on or
    over that the their this to under using via was were which with without within between towards
    toward upon new der die das und von zur zum fur des les la le et en du una uno el los las y"""
STOPWORDS: Final = frozenset(_STOPWORD_TEXT.split())

#: Titles that name a kind of text rather than a work; they need extra corroboration.
GENERIC_TITLES: Final = frozenset(
    {
        "introduction",
        "editorial",
        "preface",
        "foreword",
        "reply",
        "response",
        "comment",
        "comments",
        "correspondence",
        "letter",
        "letter to the editor",
        "letters",
        "erratum",
        "errata",
        "corrigendum",
        "correction",
        "retraction",
        "retraction notice",
        "expression of concern",
        "discussion",
        "conclusion",
        "conclusions",
        "summary",
        "abstract",
        "abstracts",
        "index",
        "contents",
        "table of contents",
        "front matter",
        "back matter",
        "book review",
        "book reviews",
        "review",
        "reviews",
        "news",
        "obituary",
        "in memoriam",
        "acknowledgments",
        "acknowledgements",
        "announcement",
        "announcements",
        "reply to comment",
        "authors reply",
        "the authors reply",
        "response to comment",
        "commentary",
        "overview",
        "untitled",
        "title",
        "none",
        "n a",
        "proceedings",
        "poster",
        "posters",
        "keynote",
        "invited talk",
        "panel",
    }
)


def title_tokens(normalized: str) -> list[str]:
    """Content tokens of a normalised title: stopwords and one-letter tokens dropped.

    >>> title_tokens("the art of computer programming a")
    ['art', 'computer', 'programming']
    """
    return [t for t in normalized.split() if len(t) > 1 and t not in STOPWORDS]


def is_generic_title(normalized: str, tokens: Sequence[str] | None = None) -> bool:
    """Whether a normalised title is too short or generic to identify a work on its own.

    Generic: a listed kind-of-text title ("editorial", "reply"), or fewer than three content
    tokens, or fewer than 12 letters in all. ``tokens``: the title's :func:`title_tokens`, if the
    caller has them already.

    >>> is_generic_title("editorial")
    True
    >>> is_generic_title("attention is all you need")
    False
    """
    if normalized in GENERIC_TITLES:
        return True
    content = title_tokens(normalized) if tokens is None else tokens
    return len(content) < 3 or len(normalized.replace(" ", "")) < 12


_NON_ALNUM: Final = re.compile(r"[^0-9a-z]+")
# A label before a number: "Vol. 12", "vol 12", "pp. 101", "p101", "No. 3" name 12, 101 and 3.
_CODE_LABEL: Final = re.compile(r"^(?:volume|vol|v|pages|page|pp|p|number|no|nr)\.?\s*(?=\d)")


def normalize_code(value: str | None) -> str:
    """A volume, issue or page as compared: alphanumerics, case-folded, labels dropped.

    >>> normalize_code("Vol. 12"), normalize_code("pp. 7A"), normalize_code("Suppl 2")
    ('12', '7a', 'suppl2')
    """
    if not value:
        return ""
    if value.isdigit() and value.isascii():  # most volumes and pages: nothing to remove
        return value
    if not value.isascii():  # full-width digits and letters ("２２") read as ASCII ones
        value = unicodedata.normalize("NFKC", value)
    return _NON_ALNUM.sub("", _CODE_LABEL.sub("", value.strip().casefold()))
