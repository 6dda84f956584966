"""Text and title normalisation primitives shared by the model, the parser and the resolver.

Everything here is pure and deterministic. Two folds live here, each with its own job:

* :func:`normalize_text` / :func:`normalize_title`: the comparison form the resolver, the
  catalog and the scoring use (markup, entities, diacritics, special Latin letters, case and
  punctuation never change an outcome). :mod:`citeledger.resolve.normalize` builds on them.
* :func:`key_text`: the lighter fold of stable keys (``Paper.key``'s title part): combining
  marks and case dropped, runs of non-word characters read as one space. Its output is stored
  in records and orders catalog ties, so it is kept as it is rather than merged into the first.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache
from typing import Final

__all__ = ["key_text", "normalize_text", "normalize_title", "strip_accents", "strip_marks"]

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

# normalize_text of ASCII text without markup ("<") or entities ("&"), as a byte table: letters
# lower-cased (ASCII casefold), every other character but a digit a space. For such text
# strip_accents is the identity and ``[\W_]+`` matches exactly the runs of ASCII characters
# that are not letters or digits, so splitting the translated text gives the same words (a
# Hypothesis test checks it). ``bytes.translate`` takes no lookups: several times faster than the
# pattern or ``str.translate``. (Bytes 128-255 never occur in ASCII text; they map to
# themselves.)
_ASCII_FOLD_BYTES: Final = bytes(
    ord(chr(c).lower()) if chr(c).isalnum() else ord(" ") for c in range(128)
) + bytes(range(128, 256))


def ascii_words(text: str) -> list[str] | None:
    """The words of ``normalize_text(text)`` for ASCII text without markup or entities, else None.

    One byte-table fold and a split (see ``_ASCII_FOLD_BYTES``), for the callers that want the
    words themselves (the catalog's title index) as well as for :func:`normalize_text`.

    >>> ascii_words("Deep Residual-Learning (2016)"), ascii_words("Über")
    (['deep', 'residual', 'learning', '2016'], None)
    """
    if text.isascii() and "<" not in text and "&" not in text:
        return text.encode().translate(_ASCII_FOLD_BYTES).decode().split()
    return None


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
    words = ascii_words(text)
    if words is not None:
        return " ".join(words)
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


def strip_marks(text: str) -> str:
    """Drop combining marks only (NFKD), folding no letters: ``Author.family_key``'s form.

    >>> strip_marks("Erdős Łukasiewicz")
    'Erdos Łukasiewicz'
    """
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


_KEY_NON_WORD_RE: Final = re.compile(r"[^\w]+")


def key_text(text: str | None) -> str:
    """The fold of stable keys: no combining marks, case-folded, non-word runs as one space.

    >>> key_text("Über-Graphs: a  Survey_1")
    'uber graphs a survey_1'
    >>> key_text(None)
    ''
    """
    folded = strip_marks(text or "").casefold()
    return " ".join(_KEY_NON_WORD_RE.sub(" ", folded).split())
