"""String normalisation shared by the resolver, the catalog and the reference parser.

Everything here is pure and deterministic. Comparisons in citeledger are made on normalised
strings so that case, Unicode normal form (NFC/NFD), diacritics, markup, whitespace and
punctuation never change an outcome.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING, Final

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

# Letters that NFKD does not decompose into a base letter plus combining marks.
_FOLD: Final = str.maketrans(
    {
        "ß": "ss",
        "ẞ": "SS",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "ø": "o",
        "Ø": "O",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "Ð": "D",
        "þ": "th",
        "Þ": "TH",
        "ı": "i",
        "ſ": "s",
        # Typographic look-alikes that NFKD keeps distinct.
        "‐": "-",
        "‑": "-",
        "‒": "-",
        "–": "-",
        "—": "-",
        "−": "-",
        "‘": "'",
        "’": "'",
        "“": '"',
        "”": '"',
    }
)

# JATS / Crossref titles carry inline markup (<i>, <sub>, <scp>, MathML); the words inside count,
# the tags do not. Formatting inside a word goes without a trace ("CO<sub>2</sub>" is "CO2", as
# a reference printed from a PDF has it); any other tag separates words.
_INLINE_TAG_RE: Final = re.compile(
    r"</?(?:[A-Za-z][\w.-]*:)?(?:sub|sup|i|b|u|em|strong|italic|bold|sc|scp|small|span|tt|"
    r"underline|overline|strike|inf|mi|mn|mo|msub|msup|mrow)(?:\s[^<>]*)?/?>",
    re.IGNORECASE,
)
_TAG_RE: Final = re.compile(r"</?[A-Za-z][A-Za-z0-9:_-]*(?:\s[^<>]*)?/?>")
_NON_WORD_RE: Final = re.compile(r"[\W_]+")


def strip_accents(text: str) -> str:
    """Remove diacritics and fold special Latin letters (ß, æ, ø, ł, ...) to ASCII look-alikes.

    Non-Latin scripts are kept as they are (only their combining marks go).

    >>> strip_accents("Erdős–Rényi, Łukasiewicz, Straße")
    'Erdos-Renyi, Lukasiewicz, Strasse'
    """
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).translate(_FOLD)


@lru_cache(maxsize=65536)
def normalize_text(text: str) -> str:
    """Case-, accent-, markup- and punctuation-insensitive form of any text.

    Letters and digits of every script are kept; everything else becomes one space.

    >>> normalize_text("  <i>Über</i>-Graphs:  A  Survey! ")
    'uber graphs a survey'
    """
    if "<" in text:
        text = _TAG_RE.sub(" ", _INLINE_TAG_RE.sub("", text))
    if "&" in text:
        text = html.unescape(text)
    text = strip_accents(text).casefold()
    return " ".join(_NON_WORD_RE.sub(" ", text).split())


def normalize_title(text: str | None) -> str:
    """Normalised title used for every title comparison and for blocking.

    Same as :func:`normalize_text`; a trailing period or a bracketed "[Chinese]"-style language
    note is not special-cased, it is just punctuation and a word.

    >>> normalize_title(
    ...     "ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme Scale Deep Learning."
    ... )
    'zero infinity breaking the gpu memory wall for extreme scale deep learning'
    >>> normalize_title(None)
    ''
    """
    if not text:
        return ""
    return normalize_text(text)


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
