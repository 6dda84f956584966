"""The numeric tail of a reference: year, volume, issue and pages.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re
from typing import Final

from citeledger.refparse._chars import _LOS, _UPS, _YEAR

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
    rf"(?P<p>\()\s*(?P<y1>{_YEAR})[a-z]?\s*\)"
    rf"|(?<![\d\-–—:/])(?<!pp\.\s)(?<!p\.\s)(?P<y2>{_YEAR})[a-z]?(?![\d\-–—/:])(?!\s*[-–—:]\s*\d)"
)
_MONTH: Final = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
_MONTH_RE: Final = re.compile(rf"\b{_MONTH}(?:\s*\d{{1,2}}(?![\d:(]))?(?:\s*[-–]\s*{_MONTH})?")
# "S." / "S " is German "Seite"; "S119" glued to its number is a supplement page (kept whole).
_LABEL_PAGES_RE: Final = re.compile(
    rf"(?<!\w)(?:(?:pp|p|pages?|pg|С)\.?\s*|[Ss](?:\.\s*|\s+))(?P<fp>{_PAGE})"
    rf"(?:{_RANGE_DASH}(?P<lp>{_PAGE}))?"
)
# A year in parentheses ends physics and Nature references ("Soc. Sci. Med. 43, 1601 (1996)"):
# it is the year even when a page number before it looks like one.
_PAREN_YEAR_RE: Final = re.compile(rf"\(\s*(?P<y1>{_YEAR})[a-z]?\s*\)")
_YEARLIKE_RE: Final = re.compile(_YEAR)
# A labelled volume and issue ("vol. 12", "Т. 5", "no. 3", "Heft 2"), read in this order after
# labelled pages: the _Tail field each sets, and the pattern, whose one group is the value.
_LABELLED_FIELDS: Final[tuple[tuple[str, re.Pattern[str]], ...]] = (
    ("volume", re.compile(r"(?<!\w)(?:[Vv]ol(?:ume)?s?|v|Т|t|Bd|Jg)\.?\s*(?P<v>\d+[A-Za-z]?)")),
    (
        "issue",
        re.compile(
            r"(?<!\w)(?:[Nn]o|[Nn]r|[Ii]ssue|[Ii]ss|№|[Nn]°|[Hh]eft|[Вв]ып)\.?\s*(?P<i>\d+[A-Za-z]?(?:[-–/]\d+)?)"
        ),
    ),
)
_ATOM_RE: Final = re.compile(
    rf"\((?P<paren>[^()]{{0,24}})\)|(?P<num>{_PAGE}(?:{_RANGE_DASH}{_PAGE})?)|(?P<colon>:)"
)
_RANGE_SPLIT_RE: Final = re.compile(_RANGE_DASH)
_YEAR_BEFORE_RE: Final = re.compile(rf"(?<![\w./-])({_YEAR})[a-z]?\s?[;,]\s?$")
_OWN_YEAR_RE: Final = re.compile(rf"\(\s*{_YEAR}[a-z]?\s*\)[\s.,;]*")
# A year as a second reference gives it ("(2009).", "2009.", "2009;"), not digits inside a token
# ("gaitpost.2004.05.005", left by a DOI that a line break split).
_SECOND_YEAR_RE: Final = re.compile(rf"(?<![\w./-]){_YEAR}[a-z]?\)?(?=[.,;:]?(?:\s|$))")
# A volume/pages block inside the text ("463:963-967", "2007;25(1):35-56", "92, 2802-2810"),
# when stray text follows the citation (see _inner_citation).
# The pattern opens with a digit (then looks behind), so that a search skips to digits.
_INNER_CITE_RE: Final = re.compile(
    r"\d(?<![\w.(/-]\d)\d{0,3}[A-Z]?(?:\s?\([^()]{1,15}\))?"
    r"(?:\s?:\s?[A-Za-z]{0,2}\d{1,6}(?:\s?[-–]\s?[A-Za-z]{0,2}\d{1,6})?"
    r"|,\s?[A-Za-z]?\d{1,6}\s?[-–]\s?[A-Za-z]?\d{1,6})(?=[.,;]?(?:\s|$))"
)


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


def _cut(work: str, m: re.Match[str]) -> str:
    """``work`` with what ``m`` matched replaced by a separator (``" ; "``)."""
    return f"{work[: m.start()]} ; {work[m.end() :]}"


def _parse_tail(text: str) -> _Tail:
    tail = _Tail()
    if not text:
        return tail
    work = text
    m = _PAREN_YEAR_RE.search(work) if "(" in work else None
    if m is None:
        m = _TAIL_YEAR_RE.search(work)
    if m is not None:
        tail.year = int(m.group("y1") or m.group("y2"))
        work = _cut(work, m)
    if _has_alpha(work):
        work = _MONTH_RE.sub(" ", work)
        lp = _LABEL_PAGES_RE.search(work)
        if lp is not None:
            _set_pages(tail, lp.group("fp"), lp.group("lp"))
            work = _cut(work, lp)
        for field, pattern in _LABELLED_FIELDS:
            label = pattern.search(work)
            if label is not None:
                setattr(tail, field, label.group(1))
                work = _cut(work, label)
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
            if (
                vol is not None
                and tail.year is None
                and tail.issue is None
                and _YEARLIKE_RE.fullmatch(vol) is not None
            ):
                # "NAACL-HLT. 2019:4171-86": a conference cited by year, not volume, and pages.
                tail.year = int(vol)
                vol = None
            if vol is not None and tail.volume is None:
                tail.volume = vol
            rest = atoms[i + 1 : i + 4]
            if (
                len(rest) == 3
                and rest[0][0] == "num"
                and rest[1][0] == "colon"
                and rest[2][0] == "num"
                and not _RANGE_SPLIT_RE.search(rest[0][1])
                and _RANGE_SPLIT_RE.search(rest[2][1])
            ):
                # ACM: "40(2):5:1-60" is volume (issue), article number 5, pages 1-60.
                after = [rest[2]]
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


_ANY_YEAR_RE: Final = re.compile(r"(?<![\d\-–/.])((?:1[6-9]\d\d|20\d\d))(?![\d\-–/])")
