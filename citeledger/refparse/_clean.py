"""Cleaning a reference string, and texts with too little to parse.

PDF line-break repairs, lost spaces and dashes, and cutting identifiers, URLs and link-out noise
out of the working text; recognising texts with too little to parse (``Ibid.``, personal
communications, symbol soup).

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re
from typing import Final

from citeledger.errors import InvalidIdentifier
from citeledger.identifiers import (
    ArxivId,
    Identifier,
    normalize_arxiv,
)
from citeledger.refparse._chars import _CJK, _L, _LOS, _U, _UPS

# A hyphen at a PDF line end between two lower-case letters splits one word ("Endo-\nscopic");
# any other hyphen before a line break is a real one ("COVID-\n19", "ZeRO-\nInfinity").
_SPLIT_WORD_RE: Final = re.compile(rf"[-\u00ad\u2010](?<={_L}.)[ \t]*\r?\n\s*(?={_L})")
# Which line-break hyphens between lower-case letters are real: measured on the PMC strings
# (gold titles keep "cell-mediated", "non-haemolytic", join "experi-ence"), this keeps 91 % right
# against 77 % for "always join".
_KEEP_HYPHEN_LEFT: Final = frozenset(
    """non anti self well high low long short real ten two three four five six one first second
    third half full quasi semi alpha beta gamma delta kappa cross whole wild double single all
    large small time cell dose age sex case open cost risk state dna rna protein gene drug health
    life community population hospital""".split()  # noqa: SIM905 - a word list reads best as text
)
_KEEP_HYPHEN_RIGHT: Final = frozenset(
    """based induced dependent associated mediated related specific binding containing derived
    enriched regulated like free term time scale wide type year years old level resistant
    sensitive positive negative deficient expressing producing activated linked treated infected
    controlled directed driven rich rate dose site fold life being by up in on off out to analysis
    series making seeking reported defined""".split()  # noqa: SIM905 - a word list reads best as text
)
# Bound prefixes that a line break splits from the rest of one word ("under-standing").
_JOIN_HYPHEN_LEFT: Final = frozenset({"trans", "under", "inter", "circum", "over", "counter"})
_STUMP_SUFFIX_RE: Final = re.compile(r"[aeiouy][^aeiouy](?:ated|ating|ized|izing|ised|ising)")
_HYPHEN_BREAK_RE: Final = re.compile(r"([-\u2010])(?<=\w.)[ \t]*\r?\n\s*(?=\w)")
# Cheap test for a hyphen at a line end before _SPLIT_WORD_RE and _HYPHEN_BREAK_RE are run.
_HYPHEN_NL_RE: Final = re.compile(r"[-\u00ad\u2010][ \t]*[\r\n]")
_SPACE_COMMA_RE: Final = re.compile(r"\s+(?=[,;])")
# Characters lost in an encoding or a PDF extraction, put back by _clean_text in this order: a
# substring that the text holds wherever the pattern can match ("" where none is worth testing),
# the pattern, and what replaces each match. A search is much cheaper than a substitution with a
# template, and most strings have nothing to repair, so the pattern is searched first.
_LOST_CHARACTERS: Final[tuple[tuple[str, re.Pattern[str], str], ...]] = (
    # Crossref deposits often carry "?" for an en dash that was lost in an encoding ("193?202").
    ("?", re.compile(r"\?(?<=\d\?)(?=\d)"), "–"),
    # "Math.87, 507", "Vaněk, J.,Rev. Geophys.,1A", "&Vaněk", "A,34", "Koster:Phys": a lost space
    # after punctuation.
    # One leading character class (not an alternation of classes) lets the regex engine skip to
    # candidate characters instead of trying every position.
    (
        "",
        re.compile(
            rf"[,;&.:](?! )(?:(?<=[,;&])(?=[{_UPS}{_LOS}])|(?<={_L}{_L}\.)(?=\d)"
            rf"|(?<=[{_UPS}{_LOS}.],)(?=\d)"
            # "Koster:Phys. Rev." (but not "10.1002:AB" or "http://").
            rf"|(?<={_L}:)(?={_U}{_L}))"
        ),
        r"\g<0> ",
    ),
    # "system.Journal" (a lost space after a full stop between two words).
    (".", re.compile(rf"\.(?<={_L}{_L}{_L}\.)(?={_U}{_L})"), ". "),
    # "E. R. Peterson andM. R. Murray", "J. C. Slater andG. F. Koster:": the space lost after
    # "and".
    (" and", re.compile(rf"and(?<= and)(?={_U}\.)"), "and "),
)

# Identifier text, URLs and link-out labels: read by find_identifiers, then cut from the text.
# One pattern per kind, each run only when a cheap substring test says it can match (a single
# alternation without a literal prefix would be tried at every position of every string).
_URL_RE: Final = re.compile(r"(?:https?://|www\.)\S+")
_URL_LABEL_RE: Final = re.compile(
    r"(?:Available\s+(?:from|at|online)|Retrieved\s+from|URL|Online)\s*:?\s*$|"
    r"(?:Available\s+(?:from|at|online)|Retrieved\s+from)\s*:?\s*(?=[.;,]|$)"
)
# A DOI split by a PDF line break ("doi:10.1016/j. gaitpost.2004.05.005") continues after a
# space when the first part ends with "." or "-" or "/" and the next token has no space.
_DOI_RE: Final = re.compile(
    r"\(?\b(?:doi|DOI|Doi)\s*[:.]?\s*(?:https?://\S+|10\.\s?\d{3,9}\s?/\s?\S+"
    r"(?:(?<=[./-])\s[\w.()/-]*\d[\w.()/-]*)?|10\.\S+)"
    r"|(?<![\w.])10\.\d{3,9}/\S+(?:(?<=[./-])\s[\w.()/-]*\d[\w.()/-]*)?"
    # A dangling label, or one followed by a fragment that is not a DOI ("doi: 008-1639-7").
    r"|\(?\b(?:doi|DOI|Doi)\s*:\s*(?:(?!10\.)[\w./()-]*\d[\w./()-]*)?\)?(?=\s|$)"
)
_ARXIV_RE: Final = re.compile(
    r"\(?\b(?:arXiv|ArXiv|ARXIV|arxiv)\s*(?:preprint|e-prints?)?\s*:?\s*"
    r"(?:arXiv\s*:\s*)?(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?"
    r"(?:\s*\[[\w.\- ]{1,20}\])?\)?"
)
# "CoRR abs/1910.02054": an arXiv id that find_identifiers leaves alone (_extract_arxiv_corr).
_CORR_RE: Final = re.compile(
    r"\bCoRR\s*,?\s*(?:vol\.?\s*)?(?:abs/)?(\d{4}\.\d{4,5}|[a-z-]+/\d{7})(?:v\d+)?"
)

# Noise that a literal marker announces, cut by _strip_noise after the identifiers, in this
# order: the marker (in the text wherever the pattern can match) and the pattern.
_MARKED_NOISE: Final[tuple[tuple[str, re.Pattern[str]], ...]] = (
    (
        "PM",
        re.compile(r"\b(?:PMID|PMCID|PMC\s?ID|PubMed\s?ID)\s*:?\s*(?:PMC)?\d+|\bPMC\d{4,}\b"),
    ),
    # "ISBN", "ISSN": the marker "IS" is a looser test than the two words, and as cheap.
    (
        "IS",
        re.compile(
            r"\bISBN(?:-1[03])?\s*:?\s*[\dXx][\dXx -]{8,16}[\dXx]|\bISSN\s*:?\s*\d{4}-?\d{3}[\dXx]"
        ),
    ),
    (
        "[",
        re.compile(
            r"\[\s*(?:Internet|cited[^\]]{0,40}|Epub[^\]]{0,40}|PubMed[^\]]{0,30}|PMC free article"
            r"|CrossRef|Crossref|Google Scholar|Ref list|INSPIRE|Abstract|Article|Free Full Text"
            r"|Medline|MEDLINE|CAS|Web of Science|Full Text|Link|DOI|SPIRES)\s*\]"
        ),
    ),
    (
        "ccessed",
        re.compile(
            r"\b[Aa]ccessed(?:\s+on)?\s*:?\s*(?:\d{1,2}\s+[A-Z][a-z]+\.?\s+\d{4}"
            r"|[A-Z][a-z]+\.?\s+\d{1,2},?\s+\d{4}|\d{4}-\d{2}-\d{2})"
        ),
    ),
    # The running footer of OSA journals (Optics Express) that PDF extraction leaves in a
    # reference: "#143936 - $15.00 USD Received 14 Mar 2011; revised 28 Apr 2011; accepted 28 Apr
    # 2011; published 9 May 2011 (C) 2011 OSA 9 May 2011 / Vol. 19, No. 10 / OPTICS EXPRESS 9513".
    (
        "USD",
        re.compile(
            r"#\d{4,7}\s*-\s*\$\s?\d+\.\d\d\s+USD\s+Received\b.{0,120}?published\s+\d{1,2}\s+[A-Z][a-z]+\s+"
            r"\d{4}(?:\s*\([Cc]\)\s*\d{4}\s+OSA)?"
            r"(?:\s*\d{1,2}\s+[A-Z][a-z]+\s+\d{4}\s*/\s*Vol\.\s*\d+,\s*No\.\s*\d+\s*/"
            r"\s*[A-Z ]+\s\d+)?"
        ),
    ),
)
# Brackets that the cuts left empty: "(doi: 10.1/x)" -> "( )".
_EMPTY_BRACKETS_RE: Final = re.compile(r"\(\s*[.,;:]?\s*\)|\[\s*[.,;:]?\s*\]")


# Text without any of these cannot hold an identifier: find_identifiers only starts reading at
# one of them (its anchors: "10.", "doi", "arxiv", "pmid"/"pmc", "corpus", OpenAlex / Semantic
# Scholar / PubMed URLs, "/" + digit for old arXiv ids). About nine strings in ten have none, and
# the substring tests cost a tenth of the scan. tests/test_parse_properties.py checks the list
# against identifiers._find._ANCHOR_RE so that a new anchor there cannot be missed here.
_SLASH_DIGIT_RE: Final = re.compile(r"/[0-9]")


def _may_hold_identifier(text: str) -> bool:
    """False only when :func:`~citeledger.identifiers.find_identifiers` surely finds nothing."""
    i = text.find("10.")
    while i >= 0:
        # The scanner reads a bare "10." only after a non-word character other than "."
        # ("2010." is a year).
        if i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_."):
            return True
        i = text.find("10.", i + 1)
    low = text.lower()
    if (
        "doi" in low
        or "arxiv" in low
        or "pmi" in low
        or "pmc" in low
        or "corpus" in low
        or "openalex.org/" in low
        or "semanticscholar.org/" in low
        or "ncbi.nlm.nih.gov/" in low
    ):
        return True
    return "/" in text and _SLASH_DIGIT_RE.search(text) is not None


# Where a _DOI_RE match can start: at a label or a bare "10." (or at a "(" just before them).
_DOI_HINT_RE: Final = re.compile(r"doi|DOI|Doi|10\.")


def _sub_doi(s: str) -> str:
    """``_DOI_RE.sub(" ", s)``, trying the pattern only where a match can start.

    The pattern has no literal prefix (its branches open with an optional "(" or a look-behind),
    so ``sub`` would try it at every position; the hint regex has one.
    """
    out: list[str] = []
    last = pos = 0
    n = len(s)
    while pos < n:
        h = _DOI_HINT_RE.search(s, pos)
        if h is None:
            break
        i = h.start()
        m = _DOI_RE.match(s, i - 1) if i > pos and s[i - 1] == "(" else None
        if m is None:
            m = _DOI_RE.match(s, i)
        if m is None:
            pos = i + 1
            continue
        out.append(s[last : m.start()])
        out.append(" ")
        last = pos = m.end()
    if not out:
        return s
    out.append(s[last:])
    return "".join(out)


def _strip_noise(s: str, low: str, *, corr: bool) -> str:
    """Cut identifiers, URLs, link-out labels and the brackets they leave empty out of the text.

    ``low`` is the text lower-cased. ``corr``: the text holds a ``CoRR`` arXiv id
    (:func:`_extract_arxiv_corr`); the id is cut and "CoRR" is left as the venue.
    """
    if "http" in low or "www." in low:
        s = _URL_RE.sub(" ", s)
        s = _URL_LABEL_RE.sub(" ", s)
    # A bare DOI needs a slash, a labelled one the label; "2010." alone is neither. The pattern
    # has no literal prefix, so each avoided search saves a scan of every position.
    if "doi" in low or ("10." in s and "/" in s):
        s = _sub_doi(s)
    if "arxiv" in low:
        s = _ARXIV_RE.sub(" ", s)
    for marker, pattern in _MARKED_NOISE:
        if marker in s:
            s = pattern.sub(" ", s)
    if corr and "CoRR" in s:
        s = _CORR_RE.sub(" CoRR ", s)
    if "(" in s or "[" in s:
        s = _EMPTY_BRACKETS_RE.sub(" ", s)
    return s


_LEADING_LABEL_RE: Final = re.compile(
    r"^\s*(?:\[\s*[A-Za-z]{0,4}\d{1,4}[a-z]?\s*\]|\(\s*\d{1,4}\s*\)|\d{1,4}\s*[.)]\s+|\d{1,3}(?=[A-Z][a-z])"
    r"|[*•·–—-]\s+)"
)

# --------------------------------------------------------------------------- "too little" texts

_BACKREF_RE: Final = re.compile(
    r"^\W*(?:ibid|ibidem|id|idem|op\.?\s*cit|loc\.?\s*cit|ebenda|ebd)\b", re.IGNORECASE
)
_NONREF_RE: Final = re.compile(
    r"^\W*(?:personal\s+communications?|pers\.\s*comm\.?|unpublished(?:\s+(?:data|results|"
    r"observations?|work|manuscript))?|data\s+not\s+shown|in\s+preparation|submitted(?:\s+for\s+"
    r"publication)?|in\s+press|forthcoming|manuscript\s+in\s+preparation|see\s+above|"
    r"see\s+(?:note|ref(?:erence)?)\s*\d*|n\.?\s*d\.?)\W*$",
    re.IGNORECASE,
)
_NONREF_ANY_RE: Final = re.compile(
    r"\b(?:personal\s+communications?|pers\.\s*comm\b|unpublished\s+(?:data|results|"
    r"observations?)|data\s+not\s+shown)",
    re.IGNORECASE,
)
_SYMBOL_RE: Final = re.compile(r"[^\w\s]|_")
# ASCII letters, digits and whitespace (as ``str.isspace`` and ``\s`` read it): deleted by
# bytes.translate, what is left is what _SYMBOL_RE counts.
_ASCII_WORD_SPACE: Final = (
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"
)


def _mostly_symbols(s: str) -> bool:
    """Whether more than half of the non-space characters of ``s`` are symbols (``_SYMBOL_RE``)."""
    limit = 0.5 * (len(s) - s.count(" "))
    # ASCII symbols counted in one C loop (no match objects); every non-ASCII character is
    # counted as a possible symbol, so the regex only runs when that bound is not enough.
    ascii_part = s.encode("ascii", "ignore")
    bound = len(ascii_part.translate(None, _ASCII_WORD_SPACE)) + len(s) - len(ascii_part)
    if bound <= limit:
        return False
    return len(_SYMBOL_RE.findall(s)) > limit


_WORD_RE: Final = re.compile(rf"[{_UPS}{_LOS}]{{2,}}|[{_CJK}]")


def _line_break_hyphen(m: re.Match[str]) -> str:
    """Return "" to join a word split at a line end, or "-" to keep a real hyphen."""
    text, i, j = m.string, m.start(), m.end()
    a = i
    while a > 0 and text[a - 1].isalpha():
        a -= 1
    b = j
    while b < len(text) and text[b].isalpha():
        b += 1
    left, right = text[a:i].lower(), text[j:b].lower()
    if left in _KEEP_HYPHEN_LEFT or right in _KEEP_HYPHEN_RIGHT:
        return "-"
    # A left part ending in "o", "i" or "u" ("neuro-", "commu-", "condi-"), or a bound prefix
    # ("trans-", "under-"), is a piece of one word, not a word of a compound: join it even
    # before a participle ("commu-nicating", "trans-porting").
    if left.endswith(("o", "i", "u")) or left in _JOIN_HYPHEN_LEFT:
        return ""
    # "accel-erated", "discrim-inating": a Latinate ending on a one-syllable stump is the end
    # of a longer word, never a word of its own.
    if _STUMP_SUFFIX_RE.fullmatch(right) is not None:
        return ""
    # Two long parts are two words ("ischemia-reperfusion", "cognitive-behavioral"), and so is
    # a word before a long participle ("paraffin-embedded", "pore-forming").
    if len(left) >= 4 and len(right) >= 6 and right.endswith(("ed", "ing")):
        return "-"
    if len(left) >= 7 and len(right) >= 9:
        return "-"
    return ""


def _clean_text(text: str) -> str:
    """Whitespace, PDF line breaks, lost dashes; returns one line."""
    if ("\n" in text or "\r" in text) and _HYPHEN_NL_RE.search(text) is not None:
        text = _SPLIT_WORD_RE.sub(_line_break_hyphen, text)
        text = _HYPHEN_BREAK_RE.sub(r"\1", text)
    if "\u00ad" in text:
        text = text.replace("\u00ad", "")
    text = " ".join(text.split())
    if " ," in text or " ;" in text:
        text = _SPACE_COMMA_RE.sub("", text)
    for needle, pattern, replacement in _LOST_CHARACTERS:
        if needle in text and pattern.search(text) is not None:
            text = pattern.sub(replacement, text)
    return text


def _extract_arxiv_corr(work: str, found: list[Identifier]) -> bool:
    """Take ``CoRR abs/1910.02054``-style ids that :func:`find_identifiers` leaves alone."""
    hit = False
    for m in _CORR_RE.finditer(work):
        try:
            ident: ArxivId = normalize_arxiv(m.group(1))
        except InvalidIdentifier:
            continue
        hit = True
        if ident not in found:
            found.append(ident)
    return hit
