r"""Free-text reference strings -> :class:`~citeledger.model.Reference`.

The parser is a deterministic, regex-and-token heuristic tuned on real reference strings
(Crossref deposits, PMC strings extracted from PDFs, arXiv-era ML references). It reads a string
in four passes, each linear in the length of the text:

1. **Clean**: repair PDF line breaks (``Endo-\nscopic`` -> ``Endoscopic``; a real hyphen as in
   ``COVID-\n19`` or ``ZeRO-\nInfinity`` is kept), collapse whitespace, and cut identifiers,
   URLs and link-out noise (``[PubMed]``, ``[INSPIRE]``) out of the working text after
   :func:`~citeledger.identifiers.find_identifiers` has read them from the original.
2. **Authors**: a small grammar per name order tried at the start of the string: Vancouver
   (``Cotton PB, Lehman G, et al.``), family-comma-initials (APA, Nature, Springer LNCS:
   ``Bean, R. A., & Northup, J. C.``), initials-first (IEEE, physics, ACM:
   ``A. B. Smith, C. D. Jones, and E. F. Li``), full given names (ACM, Chicago), Chinese /
   Japanese / Korean names (``张三, 李四, 等.``) and Cyrillic (GOST ``Иванов И. И.``); inside a
   list also group authors (``…, Berger K, German Stroke Registers Study Group:``), family names
   without initials and PDF line numbers. The list is accepted only when something that ends an
   author list follows it (a year, a colon, a quote, a full stop before the title). Where the
   grammars stop early (``Bergman JJGHM``, ``Milev P Ho B-C``, ``von, G. A.``), the text up to
   the next year, ``et al.``, colon or full stop after initials is still read as names when
   every item of it looks like one.
3. **Tail**: the run of numeric tokens at the end (``2005;100:38-42``, ``521, 436–444 (2015)``,
   ``vol. 5, no. 3, pp. 1–9``, ``Т. 5, № 3. С. 10–20``) gives year, volume, issue and pages.
4. **Title / venue**: what lies between is split at a quoted title, ``In:``, ``//``, a
   ``[J]``-style type marker, or the first sentence break after which only a venue-like text
   follows. When stray text follows the numbers (a DOI cut in two, a running head), the title
   and venue end before the first volume/pages block.

Nothing here raises on a string: text with too little to work with (``Ibid.``, a lone URL,
``[12]``, garbage) gives a reference with ``parse_confidence`` below 0.3, no title, the
original ``raw``, and ``("parse_uncertain_reason", why)`` in ``extra`` so the resolver can
report :attr:`~citeledger.model.ResolutionState.PARSE_UNCERTAIN` with the reason.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from citeledger.errors import InvalidIdentifier
from citeledger.identifiers import (
    ArxivId,
    Identifier,
    MalformedFragment,
    find_identifiers,
    normalize_arxiv,
)
from citeledger.model import Author, Reference

__all__ = ["UNCERTAIN_REASON_KEY", "parse_reference"]

#: Key in :attr:`Reference.extra` that carries why a parse is uncertain.
UNCERTAIN_REASON_KEY: Final = "parse_uncertain_reason"

#: Longest text read as one reference; longer input is a text block, not a reference.
_MAX_REFERENCE_CHARS: Final = 3000
#: How much of an over-long text is still scanned for identifiers (keeps the time bounded).
_MAX_SCAN_CHARS: Final = 20000

# --------------------------------------------------------------------------- character classes


def _char_class(predicate: str) -> str:
    """Ranges of Latin, Greek and Cyrillic letters with ``str.isupper``/``islower``.

    The :mod:`re` module has no Unicode property classes, so the classes are built once at
    import from the BMP blocks that personal names in references use.
    """
    blocks = ((0x41, 0x24F), (0x370, 0x52F), (0x1E00, 0x1EFF))
    chars = [
        chr(c)
        for lo, hi in blocks
        for c in range(lo, hi + 1)
        if getattr(chr(c), predicate)() and chr(c).isalpha()
    ]
    out: list[str] = []
    i = 0
    while i < len(chars):
        j = i
        while j + 1 < len(chars) and ord(chars[j + 1]) == ord(chars[j]) + 1:
            j += 1
        out.append(chars[i] if i == j else f"{chars[i]}-{chars[j]}")
        i = j + 1
    return "".join(out)


_UPS: Final = _char_class("isupper")
_LOS: Final = _char_class("islower")
_U: Final = f"[{_UPS}]"
_L: Final = f"[{_LOS}]"
_A: Final = f"[{_UPS}{_LOS}]"
# CJK ideographs, kana and Hangul syllables (names and titles in these scripts have no case).
_CJK: Final = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"

# --------------------------------------------------------------------------- cleaning

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
_SPACE_COMMA_RE: Final = re.compile(r"\s+(?=[,;])")
# Crossref deposits often carry "?" for an en dash that was lost in an encoding ("193?202").
_QMARK_DASH_RE: Final = re.compile(r"\?(?<=\d\?)(?=\d)")
# "Math.87, 507", "Vaněk, J.,Rev. Geophys.,1A", "&Vaněk", "A,34", "Koster:Phys": a lost space
# after punctuation.
# One leading character class (not an alternation of classes) lets the regex engine skip to
# candidate characters instead of trying every position.
_GLUED_RE: Final = re.compile(
    rf"[,;&.:](?! )(?:(?<=[,;&])(?=[{_UPS}{_LOS}])|(?<={_L}{_L}\.)(?=\d)"
    rf"|(?<=[{_UPS}{_LOS}.],)(?=\d)"
    # "Koster:Phys. Rev." (but not "10.1002:AB" or "http://").
    rf"|(?<={_L}:)(?={_U}{_L}))"
)
# "system.Journal" (a lost space after a full stop between two words).
_GLUED_STOP_RE: Final = re.compile(rf"\.(?<={_L}{_L}{_L}\.)(?={_U}{_L})")
# "E. R. Peterson andM. R. Murray", "J. C. Slater andG. F. Koster:": the space lost after "and".
_GLUED_AND_RE: Final = re.compile(rf"and(?<= and)(?={_U}\.)")
# Cheap test for a hyphen at a line end before the two substitutions above are run.
_HYPHEN_NL_RE: Final = re.compile(r"[-\u00ad\u2010][ \t]*[\r\n]")

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
_PM_RE: Final = re.compile(
    r"\b(?:PMID|PMCID|PMC\s?ID|PubMed\s?ID)\s*:?\s*(?:PMC)?\d+|\bPMC\d{4,}\b"
)
_ISXN_RE: Final = re.compile(
    r"\bISBN(?:-1[03])?\s*:?\s*[\dXx][\dXx -]{8,16}[\dXx]|\bISSN\s*:?\s*\d{4}-?\d{3}[\dXx]"
)
_LINKOUT_RE: Final = re.compile(
    r"\[\s*(?:Internet|cited[^\]]{0,40}|Epub[^\]]{0,40}|PubMed[^\]]{0,30}|PMC free article"
    r"|CrossRef|Crossref|Google Scholar|Ref list|INSPIRE|Abstract|Article|Free Full Text"
    r"|Medline|MEDLINE|CAS|Web of Science|Full Text|Link|DOI|SPIRES)\s*\]"
)
_ACCESSED_RE: Final = re.compile(
    r"\b[Aa]ccessed(?:\s+on)?\s*:?\s*(?:\d{1,2}\s+[A-Z][a-z]+\.?\s+\d{4}"
    r"|[A-Z][a-z]+\.?\s+\d{1,2},?\s+\d{4}|\d{4}-\d{2}-\d{2})"
)


# Text without any of these cannot hold an identifier: find_identifiers only starts reading at
# one of them (its anchors: "10.", "doi", "arxiv", "pmid"/"pmc", "corpus", OpenAlex / Semantic
# Scholar / PubMed URLs, "/" + digit for old arXiv ids). About nine strings in ten have none, and
# the substring tests cost a tenth of the scan. tests/test_parse_properties.py checks the list
# against identifiers._ANCHOR_RE so that a new anchor there cannot be missed here.
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


def _strip_noise(s: str, low: str) -> str:
    """Cut identifiers, URLs and link-out labels out of the working text (``low``: lower-cased)."""
    if "http" in low or "www." in low:
        s = _URL_RE.sub(" ", s)
        s = _URL_LABEL_RE.sub(" ", s)
    # A bare DOI needs a slash, a labelled one the label; "2010." alone is neither. The pattern
    # has no literal prefix, so each avoided search saves a scan of every position.
    if "doi" in low or ("10." in s and "/" in s):
        s = _sub_doi(s)
    if "arxiv" in low:
        s = _ARXIV_RE.sub(" ", s)
    if "PM" in s:
        s = _PM_RE.sub(" ", s)
    if "ISBN" in s or "ISSN" in s:
        s = _ISXN_RE.sub(" ", s)
    if "[" in s:
        s = _LINKOUT_RE.sub(" ", s)
    if "ccessed" in s:
        s = _ACCESSED_RE.sub(" ", s)
    return s


_CORR_RE: Final = re.compile(
    r"\bCoRR\s*,?\s*(?:vol\.?\s*)?(?:abs/)?(\d{4}\.\d{4,5}|[a-z-]+/\d{7})(?:v\d+)?"
)
_EMPTY_BRACKETS_RE: Final = re.compile(r"\(\s*[.,;:]?\s*\)|\[\s*[.,;:]?\s*\]")
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

# --------------------------------------------------------------------------- authors

_PARTICLE: Final = (
    r"(?:van|von|der|den|de|del|della|dei|degli|dos|das|da|di|du|la|le|les|ter|ten|zu|zur|"
    r"al|el|bin|ibn|y|e|st\.?|vander|vanden|op|'t|van't|van’t)"
)
# Possessive quantifiers (Python 3.11): a name word is never followed by a letter in any item
# pattern, so giving back letters can never make a match succeed; it only cost time.
_FAM_WORD2: Final = rf"(?:{_U}['’]?|{_L}{{1,3}}{_U}){_A}++(?:['’]{_A}++)*+(?:-{_A}++)*+"
# "Ortiz de Montellano", "Van der Merwe", "Rodriguez y Baena", "San José", "van't Veer".
_FAMILY: Final = (
    rf"(?:{_PARTICLE}\s+){{0,3}}{_FAM_WORD2}"
    rf"(?:\s+(?!(?:and|et|und)\b)(?:{_PARTICLE}\s+){{0,2}}{_FAM_WORD2}){{0,2}}"
)
_INI_DOT: Final = rf"{_U}{_L}?\.(?:\s?-?\s?{_U}{_L}?\.){{0,3}}"
_INI_RUN: Final = rf"{_U}(?:-?{_U}){{0,3}}(?!{_A}|['’])"
_INI_SPACED: Final = rf"{_U}(?:\s{_U}){{1,3}}(?=\s*[,;(]|\s+\d{{4}})"
_SUFFIX: Final = r"(?:Jr|Sr|2nd|3rd|4th|II|III|IV)"
_NAME_END: Final = rf"(?![{_UPS}{_LOS}'’])"

_V_ITEM_RE: Final = re.compile(
    rf"(?P<fam>{_FAMILY})(?:\s(?:Jr|Sr)\.?)?\s(?P<ini>{_INI_DOT}|{_INI_SPACED}|{_INI_RUN})"
    rf"(?:,?\s{_SUFFIX}\.?{_NAME_END})?"
)
# The commonest Vancouver name, "Lehman G" / "Cotton PB" before ", " "." ":" "(" or the end, in a
# regex three to four times cheaper than _V_ITEM_RE. Tried first; where it matches, _V_ITEM_RE
# gives the same groups (the look-aheads refuse everything that would let it read more: dotted,
# spaced or hyphenated initials, a suffix, a second family word; tests check the agreement).
_V_SIMPLE_RE: Final = re.compile(
    rf"(?P<fam>{_U}{_L}++) (?P<ini>{_U}{{1,3}})(?![{_UPS}{_LOS}'’.\-])(?! {_U})"
    r"(?!,? (?:Jr|Sr|2nd|3rd|4th|II|III|IV))"
)
_FCI_ITEM_RE: Final = re.compile(
    rf"(?P<fam>{_FAMILY}),\s?(?P<ini>{_INI_DOT}|{_U}{{1,3}}(?=\s*(?:[,;&:(]|and\b)))"
    rf"(?:,?\s{_SUFFIX}\.?{_NAME_END})?"
)
# After initials a capitalised particle is still a particle ("S. De Landtsheer", "J. Van Dyke"),
# and particles may join family words ("N. Kerlero de Rosbo").
_CAP_PARTICLE: Final = r"(?:Van|Von|De|Del|Della|Der|Den|Da|Di|Du|Dos|Das|La|Le|Ter|Ten|Zu)"
_IF_FAMILY: Final = (
    rf"(?:(?:{_PARTICLE}|{_CAP_PARTICLE})\s+){{0,3}}{_FAM_WORD2}"
    rf"(?:\s+(?:{_PARTICLE}\s+){{1,2}}{_FAM_WORD2})?"
)
_IF_ITEM_RE: Final = re.compile(
    rf"(?P<ini>{_INI_DOT})\s?(?P<fam>{_IF_FAMILY}){_NAME_END}"
    rf"(?:,?\s{_SUFFIX}\.?{_NAME_END})?"
)
# Initials without dots, run together or spaced ("JM Cavanaugh", "C P Bean and J D Livingston").
_IFN_ITEM_RE: Final = re.compile(
    rf"(?P<ini>{_U}(?:\s{_U}){{1,2}}(?=\s{_U}{_L})|{_U}{{1,3}})\s"
    rf"(?P<fam>(?:{_PARTICLE}\s+){{0,3}}{_FAM_WORD2}){_NAME_END}"
)
_GIVEN: Final = rf"{_U}{_L}++(?:-{_U}?{_L}++)?+"
_GF_ITEM_RE: Final = re.compile(
    rf"(?P<ini>{_GIVEN}(?:\s(?:{_U}\.|{_GIVEN})){{0,2}})\s"
    rf"(?P<fam>(?:{_PARTICLE}\s+){{0,3}}{_FAM_WORD2}){_NAME_END}"
)
_FCG_ITEM_RE: Final = re.compile(
    rf"(?P<fam>{_FAMILY}),\s(?P<ini>{_GIVEN}(?:\s(?:{_U}\.|{_GIVEN}))?){_NAME_END}"
)
_CJK_ITEM_RE: Final = re.compile(
    rf"(?P<fam>[{_CJK}]{{2,4}}(?:\s[{_CJK}]{{1,3}})?)(?![{_CJK}])(?P<ini>)"
)

_SEP_RE: Final = re.compile(
    r"\s*(?:,\s*(?:and\s+|&\s*|(?:\.\.\.|…)\s*(?:&\s*|and\s+)?)?|;\s*|\s+and\s+|&\s*|\s+&\s*)"
)
_CJK_SEP_RE: Final = re.compile(r"\s*[,，、;；]\s*")
_ETAL_RE: Final = re.compile(
    r"\s*,?\s*(?:et\.?\s*al\b\.?|and\s+others\b|и\s+др\.?|u\.\s*a\.|等(?:人)?|ほか|他)",
    re.IGNORECASE,
)
_ETAL_FIRST: Final = "eEaAиИuU等ほ他"
# Capitals that cannot start "In press" / "N.d." (re.IGNORECASE would also fold "İ" to "i").
_PLAIN_CAPS: Final = frozenset("ABCDEFGHJKLMOPQRSTUVWXYZ")
_YEAR_AFTER_RE: Final = re.compile(
    r"\s*[.,;:]?\s*(?P<open>\(|\[)?\s*"
    r"(?P<year>(?:1[5-9]\d\d|20\d\d)(?:[a-z]|/\d{2,4})?|n\.\s?d\.|in press)"
    r"(?(open)\s*[)\]]|(?![\d/]))\s*[.,:;]?",
    re.IGNORECASE,
)
_QUOTE_RE: Final = re.compile(r"\s*[.,:]?\s*([\"“”‘«„'])")
_COLON_RE: Final = re.compile(r"\s*:\s")
_STOP_RE: Final = re.compile(r"\s*[.。．]\s*")
_EDS_RE: Final = re.compile(
    r"\s*,?\s*[(\[]\s*(?:eds?|hrsg|coords?)\b\.?\s*[)\]]|\s*,\s*eds?\.(?=\s)", re.IGNORECASE
)

_QUOTE_CLOSE: Final = {'"': '"', "“": "”", "”": "”", "‘": "’", "«": "»", "„": "“", "'": "'"}

# Grammar names, in order of preference when two accept the same text equally well.
_GRAMMARS: Final = (
    ("vancouver", _V_ITEM_RE),
    ("family_initials", _FCI_ITEM_RE),
    ("initials_family", _IF_ITEM_RE),
    ("initials_family_nodot", _IFN_ITEM_RE),
    ("cjk", _CJK_ITEM_RE),
    ("given_family", _GF_ITEM_RE),
    ("family_given", _FCG_ITEM_RE),
)
# Full-name grammars match ordinary title words too, so they need a year or "et al." after them.
_ALSO_INITIALS_FIRST: Final = frozenset({"family_initials", "family_given"})
_CORPORATE_WORDS: Final = frozenset(
    """Organization Organisation Association Society Institute Committee Council Group Agency
    Department Ministry Office Commission Board Foundation Consortium Centre Center University
    Bureau Service Services Administration Federation Union Network Collaboration Program
    Programme Panel Team Project Authority Corporation Company Inc Ltd Academy College Trust
    Survey Initiative Alliance Forum Working Party Nations Bank Fund""".split()  # noqa: SIM905 - a word list reads best as text
)
# Grammars whose lists may hold a group author, a bare family name or layout debris.
_LIST_EXTRAS: Final = frozenset({"vancouver", "family_initials"})
_GROUP_WORDS: Final = frozenset(
    """Group Groups Consortium Investigators Collaborators Collaboration Collaborative Committee
    Council Team Network Society Association Registry Registers Trialists Study Panel Force
    Board Foundation Initiative Organization Organisation Institute Alliance Program Programme
    Project Centre Center""".split()  # noqa: SIM905 - a word list reads best as text
)
_CAP_WORD: Final = rf"(?:{_U}[{_UPS}{_LOS}\d'’.-]*+)"
_GROUP_ITEM_RE: Final = re.compile(
    rf"{_CAP_WORD}(?:\s(?:(?:of|for|the|and|on|in|de|du|des|der|für|von|y|&)\s){{0,2}}{_CAP_WORD})"
    r"{0,15}+(?=\s*(?:[:.;(]|\d{4}|$))"
)
_BARE_FAMILY_RE: Final = re.compile(rf"{_FAMILY}{_NAME_END}")
_PAREN_YEAR_RE: Final = re.compile(r",?\s*\(\s*(?:1[5-9]\d\d|20\d\d)")
# A line or reference number left in the text by the PDF layout: "Wetzel P, \n12. \nMcCallum RW".
_LAYOUT_NUM_RE: Final = re.compile(r"\d{1,3}\.\s")
_COMMA_ENDS: Final = frozenset({"initials_family", "initials_family_nodot", "family_initials"})
_NEEDS_STRONG_END: Final = frozenset({"given_family", "family_given"})

# Names the grammars could not read (_more_names): looser pieces, used only on text that ends
# like an author list.
_R_FAM: Final = (
    rf"(?:(?:{_PARTICLE}|{_CAP_PARTICLE})\s+){{0,3}}"
    rf"(?:{_U}[^\s,;:()\[\]]*|{_L}{{1,4}}['’-]{_U}[^\s,;:()\[\]]*)"
)
_R_INI: Final = rf"(?:{_U}{{1,5}}(?:-{_U}{{1,2}})?|{_U}\.?(?:\s?-?{_U}\.?){{0,3}})"
_R_SUFFIX: Final = r"(?:,?\s(?:Jr|Sr|2nd|3rd|II|III|IV)\.?)?"
_RESCUE_NAME_RE: Final = re.compile(
    rf"(?P<fam>{_R_FAM}(?:\s{_R_FAM})?)\s(?P<ini>{_R_INI}){_R_SUFFIX}"
    rf"(?:\s(?P<fam3>{_R_FAM})\s(?P<ini3>{_U}{{1,5}}(?:-{_U}{{1,2}})?))?"
    rf"|(?P<ini2>{_U}\.(?:\s?-?{_U}\.){{0,3}})\s?(?P<fam2>{_R_FAM})"
)
_RESCUE_INI_RE: Final = re.compile(rf"{_U}\.?(?:\s?-?{_U}\.?){{0,3}}|{_U}{{1,3}}")
# A family name alone, or a particle the PDF split from its name ("von, G. A.").
_RESCUE_FAMILY_RE: Final = re.compile(rf"{_R_FAM}(?:\s{_R_FAM})?(?:\s{_PARTICLE})?|{_PARTICLE}")
_RESCUE_ETAL_RE: Final = re.compile(r"et\.?\s?als?\.?")
_RESCUE_SEP_RE: Final = re.compile(r"\s*[,;]\s*(?:and\s+|&\s*)?|\s+(?:and|&)\s+")
_RESCUE_SMALL_WORDS: Final = frozenset(
    "the of for and on in de del der des du van von y la le da di dos das sive".split()  # noqa: SIM905 - a word list reads best as text
)
# Where an author list ends: a year, "et al." before a capital, a colon, or a full stop after
# initials ("Chao EY. Quantification").
_RESCUE_END_RE: Final = re.compile(
    r"\s*\(\s*(?P<y1>1[5-9]\d\d|20\d\d)[a-z]?\s*\)\s*[.,:;]?\s+"
    r"|[.,]\s+(?P<y2>1[5-9]\d\d|20\d\d)[a-z]?\s*[.,:;]\s+"
    r"|(?P<etal>,?\s*\bet\.?\s?als?\b\.?\s*[,:.]?\s+)(?=[A-Z\"“‘(\d])"
    r"|(?P<colon>\s?:\s+)"
    r"|(?P<stop>(?:(?<=[A-Z])|(?<=Jr))\.\s+)(?=[A-Z])"
)
_RESCUE_STOP_AFTER_RE: Final = re.compile(
    rf"(?:^|\s)(?!and\s)[^\s,;]*{_L}\s{_U}{{1,5}}(?:\sJr)?\.$|{_U}\.\s?{_U}{_L}+\.$"
)
# After a full stop, another name means the list goes on: "Potter, D.", "Thames HD,", "D.".
_RESCUE_NEXT_NAME_RE: Final = re.compile(rf"{_U}\.|{_R_FAM},?\s(?:{_U}{{1,3}}[,.:;]|{_U}\.)")

# --------------------------------------------------------------------------- tail

_TAIL_LABELS: Final = frozenset(
    {
        "vol",
        "vols",
        "volume",
        "v",
        "no",
        "nos",
        "nr",
        "n",
        "n°",
        "№",
        "issue",
        "iss",
        "pp",
        "p",
        "pages",
        "page",
        "pg",
        "suppl",
        "supplement",
        "supp",
        "pt",
        "part",
        "art",
        "article",
        "s",
        "т",
        "с",
        "вып",
        "bd",
        "heft",
        "jg",
        "jan",
        "feb",
        "mar",
        "apr",
        "may",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "spring",
        "summer",
        "autumn",
        "fall",
        "winter",
        "epub",
        "e",
        "a",
        "b",
        "c",
        "d",
        "&",
        "and",
        "-",
        "–",
        "—",
        "in",
        "press",
        "print",
        "ahead",
        "of",
        "ed",
        "edn",
        "discussion",
        "author",
        "reply",
    }
)
# Words of the tail that still need a number somewhere after them to count as tail.
# Words that may sit inside a numeric token ("23(Suppl):111", "75(Pt 5)", "27(Special").
_TAIL_WORDS: Final = frozenset({"suppl", "pt", "special", "spec", "issue", "sup", "part"})
_LABEL_NEEDS_NUMBER: Final = frozenset(
    {"part", "pt", "no", "nos", "vol", "vols", "volume", "issue", "iss", "pp", "p", "pages", "page"}
    | {"suppl", "supplement", "art", "article", "s", "т", "с", "№", "v", "nr", "n", "bd", "heft"}
)
_WEAK_TAIL: Final = frozenset({"a", "b", "c", "d", "e", "&", "and", "in", "of", "ed", "edn"})
_TOKEN_RE: Final = re.compile(r"\S+")
_DIGIT_RE: Final = re.compile(r"\d")
_EDGE_PUNCT: Final = "()[]{}.,;:"
_LETTER_RUN_RE: Final = re.compile(rf"[{_UPS}{_LOS}]{{2,}}")

_RANGE_DASH: Final = r"\s*[-–—‐‑−]+\s*"
_PAGE: Final = r"[A-Za-z]{0,2}\d+[A-Za-z]?"
_TAIL_YEAR_RE: Final = re.compile(
    r"(?P<p>\()\s*(?P<y1>(?:1[5-9]\d\d|20\d\d))[a-z]?\s*\)"
    r"|(?<![\d\-–—:/])(?<!pp\.\s)(?<!p\.\s)(?P<y2>1[5-9]\d\d|20\d\d)[a-z]?(?![\d\-–—/:])(?!\s*[-–—:]\s*\d)"
)
_MONTH_RE: Final = re.compile(
    r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
    r"(?:\s*\d{1,2}(?![\d:(]))?(?:\s*[-–]\s*(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?)?",
)
_LABEL_PAGES_RE: Final = re.compile(
    rf"(?<!\w)(?:pp|p|pages?|pg|С|S|s)\.?\s*(?P<fp>{_PAGE})(?:{_RANGE_DASH}(?P<lp>{_PAGE}))?"
)
_LABEL_VOL_RE: Final = re.compile(
    r"(?<!\w)(?:[Vv]ol(?:ume)?s?|v|Т|t|Bd|Jg)\.?\s*(?P<v>\d+[A-Za-z]?)"
)
_LABEL_ISS_RE: Final = re.compile(
    r"(?<!\w)(?:[Nn]o|[Nn]r|[Ii]ssue|[Ii]ss|№|[Nn]°|[Hh]eft|[Вв]ып)\.?\s*(?P<i>\d+[A-Za-z]?(?:[-–/]\d+)?)"
)
_ATOM_RE: Final = re.compile(
    rf"\((?P<paren>[^()]{{0,24}})\)|(?P<num>{_PAGE}(?:{_RANGE_DASH}{_PAGE})?)|(?P<colon>:)"
)
_RANGE_SPLIT_RE: Final = re.compile(_RANGE_DASH)
_YEAR_BEFORE_RE: Final = re.compile(r"(?<![\w./-])(1[5-9]\d\d|20\d\d)[a-z]?\s?[;,]\s?$")
_OWN_YEAR_RE: Final = re.compile(r"\(\s*(?:1[5-9]\d\d|20\d\d)[a-z]?\s*\)[\s.,;]*")
# A year as a second reference gives it ("(2009).", "2009.", "2009;"), not digits inside a token
# ("gaitpost.2004.05.005", left by a DOI that a line break split).
_SECOND_YEAR_RE: Final = re.compile(
    r"(?<![\w./-])(?:1[5-9]\d\d|20\d\d)[a-z]?\)?(?=[.,;:]?(?:\s|$))"
)
# A volume/pages block inside the text ("463:963-967", "2007;25(1):35-56", "92, 2802-2810"),
# when stray text follows the citation (see _inner_citation).
# The pattern opens with a digit (then looks behind), so that a search skips to digits.
_INNER_CITE_RE: Final = re.compile(
    r"\d(?<![\w.(/-]\d)\d{0,3}[A-Z]?(?:\s?\([^()]{1,15}\))?"
    r"(?:\s?:\s?[A-Za-z]{0,2}\d{1,6}(?:\s?[-–]\s?[A-Za-z]{0,2}\d{1,6})?"
    r"|,\s?[A-Za-z]?\d{1,6}\s?[-–]\s?[A-Za-z]?\d{1,6})(?=[.,;]?(?:\s|$))"
)

# --------------------------------------------------------------------------- title / venue

_IN_RE: Final = re.compile(r"(?:^|[.,;]\s+|\s)(?:In|in|IN)\s*:\s+|[.,]\s+In\s+(?=[A-Z0-9])|\s//\s?")
_TYPE_MARK_RE: Final = re.compile(
    r"\s?\[(?:J|M|C|D|R|P|S|N|Z|EB/OL|J/OL|M/OL|C/OL|A|G|K)\]\s*[.．]?"
)
# The stop first, then the look-behind: a leading character class lets the engine skip ahead.
_SENTENCE_RE: Final = re.compile(r"([.?!。．])(?<=[^\s.].)\s+(?=\S)")
_VENUE_WORD_RE: Final = re.compile(
    rf"(?:{_U}[{_UPS}{_LOS}'’&\-]*\.?|[{_LOS}]{{1,2}}{_U}{_A}*\.?|\d+\w*\.?|[&/\-–+]|"
    rf"(?:of|the|and|in|for|on|de|der|des|die|du|la|le|et|y|und|für|di|del|della|do|da|ed|eds|an|a|"
    rf"zur|zu|am|im|i|w|и|по|в|pp|[{_CJK}].*)\.?)[,:;)]?"
)
# Frequent abbreviated words of journal titles (ISO 4 / NLM style). A full stop after one of
# these does not end a title ("Proc. Natl. Acad. Sci.", "Macromol. Rapid Commun.").
_ABBREVS: Final = frozenset(
    """J Am Int Proc Natl Nat Acad Sci Phys Chem Biol Med Rev Lett Res Commun Macromol Electron
    Appl Mech Tech Technol Eng Mater Soc Trans Ann Mol Clin Exp Inst Geophys Astrophys Astron Math
    Stat Comput Syst Neurosci Psychol Psychiatr Psychiatry Econ Environ Microbiol Immunol
    Pharmacol Pharm Genet Biochem Biophys Struct Inorg Org Anal Polym Opt Nucl Atmos Oceanogr Geol
    Ecol Evol Bot Zool Agric Nutr Vet Surg Radiol Oncol Cardiol Neurol Pediatr Dermatol Endocrinol
    Gastroenterol Hepatol Nephrol Ophthalmol Otolaryngol Urol Gynecol Obstet Orthop Dent Hosp Nurs
    Educ Sociol Philos Hist Ling Anthropol Archaeol Geogr Manag Manage Bus Financ Account Mark Q
    Bull Z Zh Zeitschr Adv Curr Opin Annu Physiol Pathol Toxicol Biotechnol Bioeng Biomed
    Nanotechnol Ind Therm Sens Autom Robot Intell Inf Inform Softw Netw Theor Comp Quant Grav
    Cosmol Cryst Surf Colloid Catal Electrochem Photochem Photobiol Spectrosc Magn Reson Semicond
    Dev Mag Gaz Ital Fr Jpn Chin Russ Can Aust Br Eur Scand Ned Tijdschr Dtsch Ges Wiss Ber Abh
    Mitt Jahrb Verh Monatsh Helv Pol Rom Hung Czech Slov Afr Lat Mex Bras Braz Arg Assoc Coll Univ
    Conf Symp Ser Monogr Suppl Med Chir Sect Publ Rep Pap Mem Not Mon Arch Anat Histol Cytol
    Embryol Entomol Parasitol Virol Bacteriol Mycol Hered Horm Metab Diabetol Gerontol Rehabil
    Pract Ther Diagn Prev Epidemiol Infect Dis Pulm Respir Crit Emerg Anesth Anaesth Intensive
    Behav Cogn Dev Lang Linguist Commun Polit Govt Admin Sociol Stud Law Leg Crim Judic Fam Child
    Adolesc Soc Work Geosci Hydrol Meteorol Climatol Mineral Petrol Sediment Paleontol Geochem
    Cosmochim Planet Space Sol Terr Acoust Vib Fluids Combust Energ Energy Fuel Fuels Nucl Instrum
    Methods Meas Metrol Vac Thin Films Biomater Tissue Regen Cellul Fiz Khim Izv Dokl Vestn Usp
    Teor Mat Tr Sb Uchen Zap Sov Akad Nauk SSSR Ross Pis Zh Eksp Fiz Prikl""".split()  # noqa: SIM905 - a word list reads best as text
)
_ABBREV_WORD_RE: Final = re.compile(rf"{_U}{_L}{{0,2}}|{_A}{_L}+|{_L}{{1,3}}")
_TITLE_TRIM: Final = " \t.,;:-–—/"
_TRAILING_NOTE_RE: Final = re.compile(
    r"\s*[\[(](?:in\s+[A-Z][a-z]+|[A-Z][a-z]+\s+with\s+[A-Z][a-z]+\s+abstract|abstract|"
    r"letter|review|editorial|comment|erratum|thesis|dissertation|PhD thesis|online)[\])]\s*$",
    re.IGNORECASE,
)


# --------------------------------------------------------------------------- helpers


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


def _clean(text: str) -> str:
    """Whitespace, PDF line breaks, lost dashes; returns one line."""
    if ("\n" in text or "\r" in text) and _HYPHEN_NL_RE.search(text) is not None:
        text = _SPLIT_WORD_RE.sub(_line_break_hyphen, text)
        text = _HYPHEN_BREAK_RE.sub(r"\1", text)
    if "\u00ad" in text:
        text = text.replace("\u00ad", "")
    text = " ".join(text.split())
    if " ," in text or " ;" in text:
        text = _SPACE_COMMA_RE.sub("", text)
    if "?" in text:
        text = _QMARK_DASH_RE.sub("–", text)
    # A search is much cheaper than a substitution with a template; most strings have no glue.
    if _GLUED_RE.search(text) is not None:
        text = _GLUED_RE.sub(r"\g<0> ", text)
    if "." in text and _GLUED_STOP_RE.search(text) is not None:
        text = _GLUED_STOP_RE.sub(". ", text)
    if " and" in text and _GLUED_AND_RE.search(text) is not None:
        text = _GLUED_AND_RE.sub("and ", text)
    return text


def _uncertain(
    raw: str,
    position: int | None,
    reason: str,
    *,
    identifiers: tuple[Identifier, ...] = (),
    malformed: tuple[MalformedFragment, ...] = (),
    year: int | None = None,
    confidence: float = 0.05,
) -> Reference:
    return Reference(
        raw=raw,
        position=position,
        year=year,
        identifiers=identifiers,
        malformed=malformed,
        parse_confidence=confidence,
        extra=((UNCERTAIN_REASON_KEY, reason),),
    )


def _make_author(fam: str, ini: str | None, raw: str) -> Author:
    fam = fam.strip(" ,")
    # "Griswold Jr DP": the generational suffix is not part of the family name.
    if fam.endswith((" Jr", " Sr", " Jr.", " Sr.")):
        fam = fam.rsplit(" ", 1)[0]
    # The parse works on whitespace-collapsed text, so these are what Author's converters would
    # produce: build the value without running them again (about a third of the cost).
    return Author._from_clean(  # noqa: SLF001 - the model's fast path for the parser
        fam or None, (ini or "").strip(" ,") or None, raw.strip(" ,;") or None
    )


_Triple = tuple[str, str | None, str]


class _Names:
    """The outcome of one author grammar at the start of a text."""

    __slots__ = ("authors", "end", "etal", "grammar", "strength")

    def __init__(
        self,
        grammar: str,
        authors: list[_Triple],
        end: int,
        *,
        etal: bool,
        strength: int,
    ) -> None:
        self.grammar = grammar
        self.authors = authors
        self.end = end
        self.etal = etal
        self.strength = strength


def _triple(m: re.Match[str]) -> _Triple:
    """``(family, initials, raw)`` of an item match."""
    fam, ini, raw = m.group("fam", "ini", 0)
    return (fam, ini, raw)


def _odd_item(
    s: str, pos: int, item_re: re.Pattern[str], sep_re: re.Pattern[str]
) -> tuple[_Triple, int] | None:
    """A list item the grammar itself does not read, at ``pos`` after a separator.

    PDF layout debris before the name (``Wetzel P, 12. McCallum RW``), a group author inside a
    person list (``…, Berger K, German Stroke Registers Study Group: Title``), or a family name
    without initials that other names or a parenthesised year follow (``Ramos-Casals M,
    Roberto-Perez-Alvarez, Diaz-Lagares C``; ``Ravelli, A., & Van Zessen, (1998)``).
    """
    if s[pos : pos + 1].isdigit():
        lay = _LAYOUT_NUM_RE.match(s, pos)
        m = item_re.match(s, lay.end()) if lay is not None else None
        return (_triple(m), m.end()) if m is not None else None
    g = _GROUP_ITEM_RE.match(s, pos)
    if g is not None and any(w in _GROUP_WORDS for w in g.group(0).split()):
        return (g.group(0), None, g.group(0)), g.end()
    b = _BARE_FAMILY_RE.match(s, pos)
    if b is not None:
        end = b.end()
        if _PAREN_YEAR_RE.match(s, end) is not None:
            return (b.group(0), None, b.group(0)), end
        sep = sep_re.match(s, end)
        if sep is not None and item_re.match(s, sep.end()) is not None:
            return (b.group(0), None, b.group(0)), end
    return None


def _scan_names(s: str, grammar: str, item_re: re.Pattern[str]) -> _Names | None:
    simple = _V_SIMPLE_RE if grammar == "vancouver" else None
    m = (simple.match(s) if simple is not None else None) or item_re.match(s)
    if m is None:
        return None
    # ``ini`` is an empty group in the CJK grammar.
    sep_re = _CJK_SEP_RE if grammar == "cjk" else _SEP_RE
    authors = [_triple(m)]
    ends: list[int] = []
    pos = m.end()
    etal = False
    n = len(s)
    while pos < n:
        # _ETAL_RE only matches where the next letter after spaces and a comma can start it.
        e = _ETAL_RE.match(s, pos) if s[pos : pos + 3].lstrip(" ,")[:1] in _ETAL_FIRST else None
        if e is not None:
            pos = e.end()
            etal = True
            break
        sep = sep_re.match(s, pos)
        nxt: re.Match[str] | None = None
        odd: tuple[_Triple, int] | None = None
        if sep is not None and sep.end() > pos:
            q = sep.end()
            nxt = (simple.match(s, q) if simple is not None else None) or item_re.match(s, q)
            if nxt is None and grammar in _ALSO_INITIALS_FIRST:
                # Chicago / Harvard: "Altman, J.D., P.A.H. Moss, and M.M. Davis."
                nxt = _IF_ITEM_RE.match(s, sep.end())
                if nxt is None and grammar == "family_given":
                    # "Schnietz, Karen E., and Marc J. Epstein. 2005."
                    nxt = _GF_ITEM_RE.match(s, sep.end())
            if nxt is None and grammar in _LIST_EXTRAS:
                odd = _odd_item(s, sep.end(), item_re, sep_re)
        elif grammar == "vancouver" and s[pos - 1 : pos] == "." and s[pos : pos + 1] == " ":
            # "Fulton P.M. Harris R.N.": dotted initials, no comma between names.
            nxt = item_re.match(s, pos + 1)
            if nxt is not None and not nxt.group(0).endswith("."):
                nxt = None
        if nxt is not None:
            authors.append(_triple(nxt))
            item_end = nxt.end()
        elif odd is not None:
            authors.append(odd[0])
            item_end = odd[1]
        else:
            break
        ends.append(pos)
        pos = item_end
    # Editors "(eds.)" between the names and the year.
    eds = _EDS_RE.match(s, pos) if s[pos : pos + 4].lstrip(" ,")[:1] in "([eE" else None
    if eds is not None:
        pos = eds.end()
    strength = _end_strength(s, pos, grammar, etal=etal)
    if strength == 0 and not etal and len(authors) > 1 and grammar in _COMMA_ENDS:
        # "…, E. R. Peterson and M. R. Murray, J. Cell Biol. 32, 439": the last "name" was the
        # abbreviated venue; the list ends before it.
        authors.pop()
        pos = ends.pop()
        strength = _end_strength(s, pos, grammar, etal=etal)
    if strength == 0:
        return None
    if grammar in _NEEDS_STRONG_END and strength < 3 and not etal:
        return None
    return _Names(grammar, authors, pos, etal=etal, strength=strength)


def _end_strength(s: str, pos: int, grammar: str, *, etal: bool) -> int:
    """How convincingly the text at ``pos`` ends an author list (0 = it does not)."""
    if pos >= len(s):
        return 1
    if (
        s.startswith(", ", pos)
        and s[pos + 2 : pos + 3] in _PLAIN_CAPS
        and s[pos - 1] not in ".。．"
    ):
        # ", Lehman G": neither a year ("In press", "N.d."), a colon, a quote nor a full stop
        # can follow, so the checks below all fail; this is the commonest case by far.
        if etal:
            return 2
        return 1 if grammar in _COMMA_ENDS else 0
    if (s.startswith(". ", pos) and s[pos + 2 : pos + 3] in _PLAIN_CAPS) or (
        s[pos - 1] in ".。．" and s.startswith(" ", pos) and s[pos + 1 : pos + 2] in _PLAIN_CAPS
    ):
        # "Ell C. Endoscopic …", "et al. Analysis …": a full stop, then a capital that starts no
        # year, colon or quote; the full-stop rule below returns 2 for it.
        return 2
    if _YEAR_AFTER_RE.match(s, pos):
        return 3
    if _COLON_RE.match(s, pos) or _QUOTE_RE.match(s, pos):
        return 3
    prev = s[pos - 1]
    if _STOP_RE.match(s, pos) or prev in ".。．":
        rest = s[pos:].lstrip(" .,。．")
        if rest and (
            rest[0].isupper() or rest[0].isdigit() or rest[0] >= "\u3040" or rest[0] in '["“‘«'
        ):
            return 2
        if rest and rest[0].islower():
            return 1
        return 2 if etal else 0
    if etal:
        return 2
    if s.startswith(", ", pos) and grammar in _COMMA_ENDS:
        return 1
    return 0


def _name_chunks(prefix: str) -> tuple[list[_Triple], int] | None:
    """Read ``prefix`` as a list of names (see :func:`_more_names`): the names and their count.

    Every comma-separated item must read as a name (``Bergman JJGHM``, ``van Berkel A-M``,
    ``D. Potter``), a family name alone or initials alone (the halves of ``Imhof, A.``),
    ``et al``, or, for one item in four, capitalised words (``the APPROACH Investigators``,
    ``Port FCreation``); at least two items (one before a year) must be full names.
    """
    prefix = prefix.strip()
    if prefix[:4] == "and " or prefix[:2] == "& ":
        prefix = prefix.partition(" ")[2]
    chunks = _RESCUE_SEP_RE.split(prefix)
    names: list[_Triple] = []
    full = odd = 0
    pending: str | None = None
    for chunk in chunks:
        if not chunk:
            return None
        if _RESCUE_ETAL_RE.fullmatch(chunk):
            pending = None
            continue
        if _RESCUE_INI_RE.fullmatch(chunk):
            if pending is not None:
                names[-1] = (pending, chunk, f"{pending}, {chunk}")
                full += 1
                pending = None
            continue
        m = _RESCUE_NAME_RE.fullmatch(chunk)
        if m is not None:
            if m.group("fam2") is not None:
                names.append((m.group("fam2"), m.group("ini2"), chunk))
            else:
                ini = m.group("ini")
                # "Schmidt-Ullrich RK." before the title: the stop ends the list.
                run = len(ini) > 2 and ini[-1] == "." and ini[:-1].isalpha()
                names.append((m.group("fam"), ini[:-1] if run else ini, chunk))
                if m.group("fam3") is not None:
                    # "Milev P Ho B-C": two names with the comma lost between them.
                    names.append((m.group("fam3"), m.group("ini3"), chunk))
            full += 1
            pending = None
            continue
        if _RESCUE_FAMILY_RE.fullmatch(chunk):
            names.append((chunk, None, chunk))
            pending = chunk
            continue
        words = chunk.replace("(", " ").replace(")", " ").split()
        stray = sum(1 for w in words if not w[0].isupper() and w not in _RESCUE_SMALL_WORDS)
        if len(words) > 10 or stray > 1 or not any(w[0].isupper() for w in words):
            return None
        odd += 1
        pending = None
        if any(w in _GROUP_WORDS for w in words):
            names.append((chunk, None, chunk))
    if odd > max(1, len(chunks) // 4):
        return None
    return names, full


def _more_names(s: str, pos: int, *, parsed: bool) -> tuple[list[_Triple], int, int | None] | None:
    """Names that the author grammars could not read, before the title: ``(names, end, year)``.

    The grammars stop at an item they cannot read: five initials (``Bergman JJGHM``), a lost
    comma (``Milev P Ho B-C``), a lower-case particle alone (``von, G. A.``), a group
    (``the APPROACH Investigators:``), glued text (``Port FCreation:``), a full stop after the
    first name (``Johnson CR. Thames HD, ...``). What follows is then read as title. Here the
    text up to the first strong end of an author list within 300 characters (a year, ``et
    al.`` before a capital, a colon, a full stop after initials that no name follows) is taken
    for the rest of the list when every item of it reads as a name (:func:`_name_chunks`).
    """
    while s[pos : pos + 1] in (" ", ".", ",", ";"):
        pos += 1
    window = s[pos : pos + 300]
    if window[:4] != "and " and window[:2] != "& ":
        # Cheap test first: the text up to the first comma must read as a name, not title words.
        comma = window.find(", ", 0, 80)
        if comma < 0:
            return None
        words = window[:comma].split()
        if len(words) > 6 or any(
            w.islower() and w.isalpha() and len(w) > 3 and w not in _RESCUE_SMALL_WORDS
            for w in words
        ):
            return None
    for b in _RESCUE_END_RE.finditer(window):
        kind = b.lastgroup
        if kind == "stop":
            prefix = window[: b.start() + 1]
            after = window[b.end() :]
            # "Chao EY. Title", "P. J. Beek. Title": a whole name ends the list; "Hadni, J.
            # Hubsch" and "Chao EY. Potter, D." go on.
            if (
                _RESCUE_STOP_AFTER_RE.search(prefix, max(0, len(prefix) - 40)) is None
                or _RESCUE_NEXT_NAME_RE.match(after) is not None
            ):
                continue
        else:
            prefix = window[: b.start()]
        got = _name_chunks(prefix)
        if got is None:
            continue
        names, full = got
        year_text = b.group("y1") or b.group("y2")
        # One name is enough before "(2005)" or after a dangling "and" ("and Kötter R.
        # (2005)."); else two are needed ("New York, NY:" is not a list of names), and three
        # after names already read (a title may open "Vitamin D, Vitamin K: ...").
        need = 1 if b.group("y1") or window[:4] == "and " else 3 if parsed and not year_text else 2
        if full < need:
            continue
        return names, pos + b.end(), int(year_text) if year_text else None
    return None


def _authors(s: str) -> _Names | None:
    """The best-supported author list at the start of ``s``."""
    best: _Names | None = None
    first = s[:1]
    for grammar, item_re in _GRAMMARS:
        if grammar == "cjk":
            if not first or not ("\u3040" <= first <= "\u9fff" or "\uac00" <= first <= "\ud7af"):
                continue
        elif not first or not (first.isupper() or first.islower()):
            continue
        got = _scan_names(s, grammar, item_re)
        if got is None:
            continue
        if grammar in _NEEDS_STRONG_END and any(
            w in _CORPORATE_WORDS for a in got.authors for w in a[2].split()
        ):
            # "World Health Organization (2010)" is an organisation, not Given Family.
            continue
        if best is None or (got.strength, got.end) > (best.strength, best.end):
            best = got
    return best


def _is_tail_token(core: str, low: str, has_digit: bool) -> bool:
    if not core or low in _TAIL_LABELS:
        return True
    if not has_digit:
        return False
    # Numbers, ranges and article numbers ("A194-201", "e1002345", "S1-S12", "14(11"); not
    # venue words with a number glued on ("SC21", "Science133").
    return all(
        run.lower() in _TAIL_LABELS or run.lower() in _TAIL_WORDS
        for run in _LETTER_RUN_RE.findall(core)
    )


def _tail_start(s: str, lo: int) -> int:
    """Start of the run of numeric tokens at the end of ``s`` (not before ``lo``)."""
    # ``s`` is whitespace-collapsed, so tokens are separated by single spaces: walk back with
    # rfind instead of tokenising the whole text.
    start = len(s)
    seen_number = False
    right_has_digit = False
    b = len(s)
    while b > lo:
        a = s.rfind(" ", lo, b) + 1
        a = max(a, lo)
        tok = s[a:b]
        b = a - 1
        if not tok:
            continue
        core = tok.strip(_EDGE_PUNCT)
        low = core.lower().rstrip(".")
        # Digits are never edge punctuation, so an all-letter core has none.
        has_digit = not core.isalpha() and _DIGIT_RE.search(core) is not None
        if not _is_tail_token(core, low, has_digit):
            break
        if low in _WEAK_TAIL and not seen_number:
            break
        # "Tissue Eng Part A. 2008;14": a label is tail only when a number follows it.
        if low in _LABEL_NEEDS_NUMBER and not right_has_digit:
            break
        right_has_digit = has_digit
        seen_number = seen_number or has_digit
        start = a
    # The tail must carry a number; a run of labels alone is part of the venue.
    if not seen_number:
        return len(s)
    # Leading weak words ("and", "in", "a") belong to the text before.
    while start < len(s):
        m = _TOKEN_RE.match(s, start)
        if m is None:
            break
        core = m.group(0).strip(_EDGE_PUNCT).lower().rstrip(".")
        if core in _WEAK_TAIL or core in ("in", "press"):
            nxt = _TOKEN_RE.search(s, m.end())
            start = nxt.start() if nxt else len(s)
            continue
        break
    return start


class _Tail:
    __slots__ = ("first_page", "issue", "last_page", "volume", "year")

    def __init__(self) -> None:
        self.year: int | None = None
        self.volume: str | None = None
        self.issue: str | None = None
        self.first_page: str | None = None
        self.last_page: str | None = None


def _set_pages(tail: _Tail, fp: str | None, lp: str | None) -> None:
    if fp is None:
        return
    tail.first_page = fp
    if lp:
        # "383-93" is 383-393; "1081-8" is 1081-1088 (NLM elides the shared leading digits).
        if lp.isdigit() and fp.isdigit() and len(lp) < len(fp):
            lp = fp[: len(fp) - len(lp)] + lp
        tail.last_page = lp


def _has_alpha(text: str) -> bool:
    """Whether any character of ``text`` is alphabetic."""
    if text.isascii():
        # ASCII letters, and only they, change under case mapping.
        return text.lower() != text.upper()
    return any(c.isalpha() for c in text)


def _parse_tail(text: str) -> _Tail:
    tail = _Tail()
    if not text:
        return tail
    work = text
    m = _TAIL_YEAR_RE.search(work)
    if m is not None:
        tail.year = int(m.group("y1") or m.group("y2"))
        work = f"{work[: m.start()]} ; {work[m.end() :]}"
    if _has_alpha(work):
        work = _MONTH_RE.sub(" ", work)
        lp = _LABEL_PAGES_RE.search(work)
        if lp is not None:
            _set_pages(tail, lp.group("fp"), lp.group("lp"))
            work = f"{work[: lp.start()]} ; {work[lp.end() :]}"
        lv = _LABEL_VOL_RE.search(work)
        if lv is not None:
            tail.volume = lv.group("v")
            work = f"{work[: lv.start()]} ; {work[lv.end() :]}"
        li = _LABEL_ISS_RE.search(work)
        if li is not None:
            tail.issue = li.group("i")
            work = f"{work[: li.start()]} ; {work[li.end() :]}"
    # findall gives (paren, num, colon) per match; only the paren text may be empty ("()").
    atoms = [
        ("num", num) if num else ("colon", colon) if colon else ("paren", paren)
        for paren, num, colon in _ATOM_RE.findall(work)
    ]
    if not atoms:
        return tail
    # "37:383-93", "14(6):1081-8", "2:e1234": volume (issue) colon pages.
    for i, (kind, _) in enumerate(atoms):
        if kind != "colon":
            continue
        before = [a for a in atoms[:i] if a[0] != "colon"]
        after = [a for a in atoms[i + 1 :] if a[0] == "num"]
        if before and after:
            if before[-1][0] == "paren" and len(before) >= 2 and before[-2][0] == "num":
                tail.issue = tail.issue or before[-1][1].strip()
                vol = before[-2][1]
            else:
                vol = before[-1][1] if before[-1][0] == "num" else None
            if vol is not None and tail.volume is None:
                tail.volume = vol
            if tail.first_page is None:
                parts = _RANGE_SPLIT_RE.split(after[0][1], maxsplit=1)
                _set_pages(tail, parts[0], parts[1] if len(parts) > 1 else None)
            return tail
    nums = [a for a in atoms if a[0] == "num"]
    if tail.first_page is None:
        ranges = [a for a in nums if _RANGE_SPLIT_RE.search(a[1])]
        if ranges:
            parts = _RANGE_SPLIT_RE.split(ranges[-1][1], maxsplit=1)
            _set_pages(tail, parts[0], parts[1])
            nums = [a for a in nums if a is not ranges[-1]]
        elif len(nums) >= 2 or (len(nums) == 1 and tail.volume is not None):
            _set_pages(tail, nums[-1][1], None)
            nums = nums[:-1]
    if tail.volume is None and nums:
        tail.volume = nums[0][1]
        idx = atoms.index(nums[0])
        if tail.issue is None and idx + 1 < len(atoms) and atoms[idx + 1][0] == "paren":
            tail.issue = atoms[idx + 1][1].strip() or None
        elif tail.issue is None and len(nums) >= 2:
            tail.issue = nums[1][1]
    return tail


def _venue_like(text: str) -> bool:
    """Whether ``text`` reads as a journal or publisher name rather than title words."""
    if len(text) > 200:
        return False
    words = text.split()
    if not words or len(words) > 16:
        return False
    # One stray lower-case word ("Acta Psychol Sin", "Journal of applied physics") is fine.
    allowed = 1 if len(words) >= 4 else 0
    lower_words = 0
    last = len(words) - 1
    for k, w in enumerate(words):
        # "Systematic review. Br J Psychiatry": a sentence ends inside, so it is still title.
        if k < last and w.endswith(".") and len(w) > 4 and w[0].islower():
            return False
        if not _VENUE_WORD_RE.fullmatch(w):
            lower_words += 1
            if lower_words > allowed:  # later words can only make it worse
                return False
    return True


def _split_title_venue(mid: str, grammar: str | None) -> tuple[str, str]:
    """Split the text between authors/year and the numeric tail into title and venue."""
    m = _TYPE_MARK_RE.search(mid) if "[" in mid else None
    if m is not None:
        return mid[: m.start()], mid[m.end() :]
    # ``mid`` is whitespace-collapsed; test for the literal text _IN_RE needs before running it
    # (the pattern has no literal prefix, so a search tries every position).
    m = (
        _IN_RE.search(mid)
        if "n:" in mid
        or "N:" in mid
        or "n :" in mid
        or "N :" in mid
        or " In " in mid
        or " //" in mid
        else None
    )
    if m is not None and m.start() > 8:
        return mid[: m.start()], mid[m.end() :]
    candidates = []
    abbrev_stops = []
    for c in _SENTENCE_RE.finditer(mid):
        if c.end() >= len(mid):
            continue
        # "J. Biol. Chem": a full stop after an abbreviation does not end a title.
        if c.group(1) == "." and _is_abbrev_end(mid, c.start()):
            abbrev_stops.append(c)
            continue
        candidates.append(c)
    for c in candidates:
        rest = mid[c.end() :].rstrip(" .")
        if _venue_like(rest):
            return mid[: c.start() + (0 if c.group(1) in ".。．" else 1)], rest
    # No sentence break is followed by a venue. A title may end in a short word that reads
    # like an abbreviation ("... in rice meiosis I. J Cell Sci", "... phosphorylation by Src.
    # Biochem Biophys Res Commun"): such a stop ends the title when _stands_alone says so.
    tried = 0
    # A title ends within the first abbreviation stops of a reference; a text with hundreds
    # of them ("A. A. A. ...") is not read further.
    for c in abbrev_stops[:20]:
        if _stands_alone(mid, c.start(), c.end()):
            rest = mid[c.end() :].rstrip(" .")
            if _venue_like(rest):
                return mid[: c.start()], rest
            tried += 1
            if tried == 3:  # each try copies the rest: keep the time linear
                break
    # "Title, J. Algebra" (physics/mathematics style): the venue after the last comma.
    if grammar in _COMMA_ENDS or grammar == "vancouver":
        cut = mid.rfind(", ")
        if cut > 0 and _venue_like(mid[cut + 2 :]) and "." in mid[cut + 2 :]:
            return mid[:cut], mid[cut + 2 :]
    if candidates:
        c = candidates[-1]
        return mid[: c.start() + (0 if c.group(1) in ".。．" else 1)], mid[c.end() :]
    return mid, ""


def _is_abbrev_end(head: str, end: int | None = None) -> bool:
    """Whether ``head[:end]`` ends with an abbreviated word ("Biol", "J", "Natl", "pp")."""
    # Only the last word matters (the last 24 characters are read, never a copy of the whole
    # head). ``head`` is whitespace-collapsed, so words are separated by single spaces.
    if end is None:
        end = len(head)
    tail = head[max(0, end - 24) : end]
    word = tail[max(tail.rfind(" "), tail.rfind("("), tail.rfind(".")) + 1 :]
    if not word or _ABBREV_WORD_RE.fullmatch(word) is None:
        return False
    return (len(word) <= 3 and (word[0].isupper() or len(word) <= 2)) or word in _ABBREVS


def _inner_citation(
    mid: str, grammar: str | None, title: str, venue: str
) -> tuple[str, str, str] | None:
    """Title, venue and volume/pages of a citation that stray text follows.

    PDF extraction leaves text after the numbers: a DOI cut in two (``Nature. 463:963-967.
    doi:10 .1038/...``), a running head (``Journal of Informetrics, 5(1), 37-47. Towards a new
    crown indicator 481``), the end of a line of the next column (``J. Neurophysiol. 92,
    2802-2810. local primary motor cortex populations. J. Neurosci. 30, 9659-9669``). Then the
    numeric tail is not at the end, and the title and venue end before the first volume/pages
    block after which no year and no author list follows (a year or names there start a second
    reference, which is left alone). When the block lies in the venue of the plain split
    (``title``, ``venue``), that title is kept.
    """
    if not _DIGIT_RE.search(mid):
        return None
    # At most three blocks are tried, so that the time stays linear in the length of the text.
    for _, m in zip(range(3), _INNER_CITE_RE.finditer(mid), strict=False):
        after = mid[m.end() :].strip(" .,;:")
        # "21, 410-424 (2005)": a year right after the numbers belongs to them.
        own_year = _OWN_YEAR_RE.match(after)
        block = m.group(0)
        if own_year is not None:
            block = f"{block} {own_year.group(0)}"
            after = after[own_year.end() :]
        if _SECOND_YEAR_RE.search(after) is not None:
            return None
        if after[:1].isupper() and _authors(after) is not None:
            return None
        head = mid[: m.start()]
        year_before = _YEAR_BEFORE_RE.search(head, max(0, len(head) - 12))
        if year_before is not None:
            # "Cardiol Clin. 2007;25(1):35-56": the year opens the block.
            block = f"{year_before.group(1)} {block}"
            head = head[: year_before.start()]
        head = head.rstrip(" ,;:")
        venue_start = mid.rfind(venue) if venue else -1
        if 0 <= venue_start < len(head):
            # "Title. Chemistry of Life, 1994,14(2): 34-35 (Ch)": the block ends the venue.
            return title, head[venue_start:], block
        if head.count("(") > head.count(")"):
            # "... in regard to Park et al. (Int J Radiat Oncol Biol Phys 2008;70:847-852)":
            # a citation quoted inside the title.
            continue
        title, venue = _split_title_venue(head, grammar)
        if title and venue and len(title.split()) >= 3:
            return title, venue, block
    return None


def _stands_alone(head: str, end: int, rest_start: int) -> bool:
    """Whether the short word ending at ``head[end]`` can be the last word of a title.

    Yes: "rice meiosis I", "serum amyloid P", "NF-kappa B", "by Src", "the Arabian Sea" before
    "Nature" (the text from ``rest_start``). No: an initial after a name or "and" ("Meerloo
    G. J.", "Joseph F.", "and J. N."), a listed journal abbreviation ("Houston J.", "Environ.
    Pollut"), a word after another abbreviation ("J. Biol. Chem") or before one short word
    ("Fluid Dyn. Res").
    """
    start = head.rfind(" ", 0, end)
    word = head[start + 1 : end]
    if start <= 0 or not word.isalpha() or word in _ABBREVS:
        return False
    prev_start = head.rfind(" ", 0, start) + 1
    prev = head[prev_start:start]
    if prev_start == 0 or not prev or not prev[-1].isalnum():
        return False
    if len(word) == 1:
        return word.isupper() and not (
            prev.isalpha() and (prev[0].isupper() or prev in ("and", "und", "et"))
        )
    if not prev[0].isupper():
        return True
    rest = head[rest_start:].rstrip(" .")
    return " " in rest or len(rest) >= 5


def _venue_only(mid: str) -> bool:
    """A venue with no title before it ("Macromol. Rapid Commun.", "J. Cryst. Growth")."""
    if len(mid) > 80 or "." not in mid or "," in mid or not _venue_like(mid.rstrip(" .")):
        return False
    return all(
        c.group(1) == "." and _is_abbrev_end(mid, c.start())
        for c in _SENTENCE_RE.finditer(mid)
        if c.end() < len(mid)
    ) and any(_is_abbrev_end(mid, i) for i, ch in enumerate(mid) if ch == ".")


def _clean_title(title: str) -> str:
    if title.rstrip()[-1:] in ")]":
        title = _TRAILING_NOTE_RE.sub("", title)
    title = title.strip(_TITLE_TRIM)
    if len(title) >= 2 and title[0] in _QUOTE_CLOSE and title[-1] == _QUOTE_CLOSE[title[0]]:
        title = title[1:-1].strip(_TITLE_TRIM)
    return title.strip(_TITLE_TRIM + '"“”‘’«»„')


def _clean_venue(venue: str) -> str:
    if venue.rstrip()[-1:] in ")]":
        venue = _TRAILING_NOTE_RE.sub("", venue)
    venue = venue.strip(" \t.,;:-–—/")
    if venue[:3].lower() == "in ":
        venue = venue[3:]
    return venue.strip(" \t,;:")


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


# --------------------------------------------------------------------------- entry point


def parse_reference(text: str, *, position: int | None = None) -> Reference:
    """Parse one free-text reference string into a :class:`~citeledger.model.Reference`.

    Handles Vancouver/NLM, APA, Harvard, Chicago, IEEE, ACM, Nature, Springer, physics-style
    and GOST / GB/T 7714 references, PDF line breaks and hyphenation, ``et al.``, and arXiv /
    DOI / PMID identifiers anywhere in the text. Never raises on a string; runs in time linear
    in the length of the text.

    Args:
        text: The reference as printed.
        position: Its 1-based position in the citing paper's reference list.

    Returns:
        The parsed reference. ``raw`` is ``text`` unchanged; ``parse_confidence`` is in 0-1;
        when there is too little to work with it is below 0.3 and
        ``extra`` holds ``("parse_uncertain_reason", why)``.

    Example:
        >>> ref = parse_reference(
        ...     "Rajbhandari S, et al. ZeRO-Infinity: breaking the GPU memory wall for extreme "
        ...     "scale deep learning. SC21. 2021. arXiv:2104.07857",
        ...     position=56,
        ... )
        >>> ref.authors[0].family, ref.year, [str(i) for i in ref.identifiers]
        ('Rajbhandari', 2021, ['arxiv:2104.07857'])
        >>> ref.title
        'ZeRO-Infinity: breaking the GPU memory wall for extreme scale deep learning'
        >>> parse_reference("Ibid.").get_extra("parse_uncertain_reason")
        'a back-reference (Ibid., op. cit.) with no content of its own'

    .. versionadded:: 0.1.0
    """
    # Callers outside the type checker may pass bytes or None; read them as text, never raise.
    obj: object = text
    raw = obj if isinstance(obj, str) else str(obj)
    try:
        return _parse(raw, raw, position)
    except Exception as exc:  # a parser bug must not stop a batch; the reason names it
        return _uncertain(
            raw,
            position,
            f"internal parser error ({type(exc).__name__})",
            confidence=0.0,
        )


def _parse(text: str, raw: str, position: int | None) -> Reference:
    if not text or text.isspace():
        return _uncertain(raw, position, "empty reference string", confidence=0.0)
    scan = text if len(text) <= _MAX_SCAN_CHARS else text[:_MAX_SCAN_CHARS]
    if _may_hold_identifier(scan):
        found = find_identifiers(scan)
        identifiers = list(found.identifiers)
        malformed = found.malformed
    else:
        identifiers, malformed = [], ()
    if len(text) > _MAX_REFERENCE_CHARS:
        return _uncertain(
            raw,
            position,
            f"text too long for one reference ({len(text)} characters)",
            identifiers=tuple(identifiers),
            malformed=malformed,
            confidence=0.05,
        )
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    s = _clean(text)
    cleaned = s
    arxiv_venue = _extract_arxiv_corr(s, identifiers) if "CoRR" in s else False
    low = s.lower()
    if not arxiv_venue and "arxiv" in low:
        arxiv_venue = True
    s = _strip_noise(s, low)
    if arxiv_venue and "CoRR" in s:
        s = _CORR_RE.sub(" CoRR ", s)
    if "(" in s or "[" in s:
        s = _EMPTY_BRACKETS_RE.sub(" ", s)
    if s is not cleaned:
        # _clean returns collapsed text, and re.sub returns its input when nothing matched.
        s = " ".join(s.split())
    s = s.strip(" ,;")
    label = _LEADING_LABEL_RE.match(s)
    if label is not None:
        s = s[label.end() :].lstrip()
    ident_tuple = tuple(identifiers)

    # ---- too little to work with
    if _BACKREF_RE.match(s):
        return _uncertain(
            raw,
            position,
            "a back-reference (Ibid., op. cit.) with no content of its own",
            identifiers=ident_tuple,
            malformed=malformed,
        )
    if _NONREF_RE.match(s) or (len(s) < 60 and _NONREF_ANY_RE.search(s)):
        return _uncertain(
            raw,
            position,
            "a personal communication or unpublished work: nothing to look up",
            identifiers=ident_tuple,
            malformed=malformed,
        )
    words = _WORD_RE.findall(s) if len(s) < 80 or s.count(" ") < 2 else ("",) * 3
    if len(words) < 3 or s.count(" ") < 1:
        year_m = _TAIL_YEAR_RE.search(s)
        if not any(c.isalpha() for c in s):
            reason = (
                "only an identifier or URL, no bibliographic text"
                if identifiers or malformed or "http" in text or "www." in text
                else "no bibliographic text (only a number or punctuation)"
            )
        else:
            reason = f"too little text to parse ({len(words)} word{'s' if len(words) != 1 else ''})"
        return _uncertain(
            raw,
            position,
            reason,
            identifiers=ident_tuple,
            malformed=malformed,
            year=int(year_m.group("y1") or year_m.group("y2")) if year_m else None,
            confidence=0.15 if identifiers else 0.05,
        )
    if _mostly_symbols(s):
        return _uncertain(
            raw,
            position,
            "does not look like a reference (mostly non-letter characters)",
            identifiers=ident_tuple,
            malformed=malformed,
        )

    # ---- authors, then a year right after them
    names = _authors(s)
    authors: list[Author] = []
    grammar: str | None = None
    pos = 0
    year: int | None = None
    if names is not None:
        authors = [_make_author(*a) for a in names.authors]
        pos, grammar = names.end, names.grammar
    else:
        # A corporate author before "(2005)": "World Health Organization (2010) Title."
        m = _CORP_YEAR_RE.match(s)
        if m is not None and m.start("year") > 2:
            corp = s[: m.start("year")].strip(" ,.(")
            if 0 < len(corp) <= 150:
                authors = [Author(family=corp, raw=corp)]
                pos = m.start("year") - 1 if s[m.start("year") - 1] == "(" else m.start("year")
                grammar = "corporate"
    ym = _YEAR_AFTER_RE.match(s, pos) if authors else None
    if ym is not None:
        y = ym.group("year")
        if y[:1].isdigit():
            year = int(y[:4])
        pos = ym.end()
    elif grammar != "corporate":
        more = _more_names(s, pos, parsed=bool(authors))
        if more is not None:
            extra_names, pos, year = more
            authors.extend(_make_author(*a) for a in extra_names)
            ym = _YEAR_AFTER_RE.match(s, pos) if year is None else None
            if ym is not None and ym.group("year")[:1].isdigit():
                # "..., et al 2016 Title": the year after the list.
                year = int(ym.group("year")[:4])
                pos = ym.end()

    # ---- quoted title (IEEE, Chicago, physics)
    title = ""
    venue = ""
    rest_from = pos
    q = _QUOTE_RE.match(s, pos)
    if q is not None and (pos > 0 or q.start(1) == 0):
        opener = q.group(1)
        close = _QUOTE_CLOSE[opener]
        end = s.find(close, q.end(1) + 1)
        if opener == "“" and end < 0:
            end = s.find('"', q.end(1) + 1)
        # A quote that closes mid-title ('"Environment shock": a study of ...') is part of
        # the title, not around it.
        if end > q.end(1) and (
            s[end - 1 : end] in ",.?!" or s[end + 1 : end + 2] in ("", ",", ".")
        ):
            title = s[q.end(1) : end]
            rest_from = end + 1

    # ---- numeric tail and the text between
    tstart = _tail_start(s, rest_from)
    tail = _parse_tail(s[tstart:])
    mid = s[rest_from:tstart].strip(" ,;:")
    if title:
        venue = mid
    elif mid:
        if authors and (tail.volume or tail.first_page) and _venue_only(mid):
            venue = mid
        else:
            title, venue = _split_title_venue(mid, grammar)
            inner = _inner_citation(mid, grammar, title, venue)
            if inner is not None:
                title, venue, block = inner
                inner_tail = _parse_tail(block)
                if inner_tail.year is None:
                    inner_tail.year = tail.year
                tail = inner_tail
    title = _clean_title(title)
    venue = _clean_venue(venue) if venue else ""
    if not title and names is None and authors == [] and venue:
        title, venue = venue, ""

    if year is None:
        year = tail.year
    if year is None:
        m2 = _ANY_YEAR_RE.search(s, pos)
        if m2 is not None:
            year = int(m2.group(1))
    if not venue and arxiv_venue:
        venue = "arXiv" if "arxiv" in raw.lower() else "CoRR"

    # ---- confidence
    conf = 0.0
    title_words = len(title.split())
    if title_words >= 3:
        conf += 0.4
    elif title:
        conf += 0.2
    if authors:
        conf += 0.2
    if year is not None:
        conf += 0.15
    if venue:
        conf += 0.1
    if tail.volume or tail.first_page:
        conf += 0.1
    if ident_tuple:
        conf += 0.1
    if len(title) > 300:
        conf -= 0.25
    conf = max(0.0, min(1.0, conf))

    extra: tuple[tuple[str, str], ...] = ()
    if not title and not ident_tuple and not (venue and (tail.volume or tail.first_page)):
        conf = min(conf, 0.25)
        extra = ((UNCERTAIN_REASON_KEY, "no title could be found"),)
    return Reference(
        raw=raw,
        position=position,
        title=title or None,
        authors=tuple(authors),
        year=year,
        venue=venue or None,
        volume=tail.volume,
        issue=tail.issue,
        first_page=tail.first_page,
        last_page=tail.last_page,
        identifiers=ident_tuple,
        malformed=malformed,
        parse_confidence=round(conf, 3),
        extra=extra,
    )


_CORP_YEAR_RE: Final = re.compile(r"[^()]{3,150}?\(\s*(?P<year>(?:1[5-9]\d\d|20\d\d)[a-z]?)\s*\)")
_ANY_YEAR_RE: Final = re.compile(r"(?<![\d\-–/.])((?:1[6-9]\d\d|20\d\d))(?![\d\-–/])")
