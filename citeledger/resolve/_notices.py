"""Notices about a work (corrections, retractions, comments, replies, reviews) by their titles.

Part of :mod:`~citeledger.resolve.scoring`, which re-exports these names.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

# Titles of notices *about* a work: corrections, retraction notices, expressions of concern,
# comments and replies. A notice is another work than the one it is about, although its title
# carries that work's title whole. Matched on the raw title, whose punctuation tells "Correction:
# …" (a notice) from "Correction for unreliability of …" (research).
_NOTICE_RE: Final = re.compile(
    r"""^\W*(?:
        (?P<correction>
            (?:author(?:'?s)?\s+|publisher(?:'?s)?\s+)?(?:correction|erratum|errata|corrigendum
            |addendum)s?\s*(?:to|for|on|in|of)?\s*(?:the\s+(?:article|paper)\s*)?[:\-\u2013\u2014]
          | (?:erratum|errata|corrigendum|corrigenda|addendum)\b
        )
      | (?P<retraction>
            (?:notice\s+of\s+)?retraction(?:\s+(?:note|notice|statement))?\s*
            (?:to|of|for)?\s*[:\-\u2013\u2014]
          | retraction\s+(?:note|notice|statement)\b
        )
      | (?P<concern>(?:editorial\s+)?expression\s+of\s+concern\b)
      | (?P<supplement>
            (?:replication\s+)?data\s+(?:from|for)\s*:
          | (?:supplementary|supplemental|supporting)\s+(?:material|materials|data|information
            |file|files|figures?|tables?)\s+(?:for|to|from)\b
        )
      | (?P<comment>comments?\s+(?:on|to)\b)
      | (?P<reply>
            (?:reply|replies)\s+to\b
          | (?:the\s+)?authors?(?:'?s?)?\s+reply\b
          | response\s+to\s+(?:the\s+)?(?:comments?|letter|criticism|critique|commentary)\b
        )
    )""",
    re.IGNORECASE | re.VERBOSE,
)


# A review of a book, titled after the book: "Book review: …", JSTOR's "Reviewed Work(s): …",
# or the book's title followed by its author and pages ("… Transformations. By John H. Staib.
# Pp. xii, 336. 1969.").
_REVIEW_RE: Final = re.compile(
    r"^\W*(?:book\s+reviews?|reviewed\s+works?(?:\s*\(s\))?|review\s+of)\s*[:\-\u2013\u2014]"
    r"|(?:\.\s+|\s+)By\s+[A-Z][\w.'\u2019 -]{1,80}?[.,]\s+"
    r"(?:Pp?\.|\d+\s*pp\b|[xvil]+\s*[+,]\s*\d+\s*pp)",
    re.IGNORECASE,
)


# What ASCII text must start with (case-folded, after its leading non-word characters) for
# _NOTICE_RE to match: the first word of each of its alternatives, or a prefix of it.
_NOTICE_STARTS: Final = (
    "author",
    "publisher",
    "correction",
    "errat",
    "corrigend",
    "addend",
    "notice",
    "retraction",
    "editorial",
    "expression",
    "replication",
    "data",
    "supplement",
    "supporting",
    "comment",
    "repl",
    "the",
    "response",
)
# The ASCII characters ``\W`` matches.
_ASCII_NON_WORD: Final = "".join(
    chr(c) for c in range(128) if not (chr(c).isalnum() or chr(c) == "_")
)


@lru_cache(maxsize=1 << 16)
def notice_kind(title: str | None) -> str | None:
    """The kind of notice a title names ("correction", "retraction", ...), or None for a work.

    A correction, retraction notice, expression of concern, comment or reply — or a dataset or
    supplement deposited for an article ("Data from: …", Dryad's form; "Supporting information
    for …"), or a book review titled after the book ("… By John H. Staib. Pp. xii, 336.") —
    carries the title of the work it is about, but is not that work: a reference to the one
    never verifies to the other.

    >>> notice_kind("Erratum to: Molecular mechanisms of early brain injury")
    'correction'
    >>> notice_kind("Retraction Note: Exosomes mediate stromal mobilization")
    'retraction'
    >>> notice_kind("Data from: Range-wide genetic structure of the wolverine")
    'supplement'
    >>> notice_kind("Linear Algebra. By John H. Staib. Pp. xii, 336. 1969.")
    'review'
    >>> notice_kind("Correction for unreliability of multifactor measures") is None
    True
    >>> notice_kind("Response to thermal exposure of ball-milled powder blends") is None
    True
    """
    if not title:
        return None
    # Most titles are no notice: for ASCII text, substring tests rule each pattern out before
    # it runs (a test checks the result against the patterns alone).
    low = title.lower() if title.isascii() else None
    m = (
        None
        if low is not None and not low.lstrip(_ASCII_NON_WORD).startswith(_NOTICE_STARTS)
        else _NOTICE_RE.match(title)
    )
    if m is None:
        if low is not None and "review" not in low and "by" not in low:
            return None
        return "review" if _REVIEW_RE.search(title) else None
    return next(name for name, value in m.groupdict().items() if value)
