"""Per-scheme normalisers: messy text (URLs, labels, entities, punctuation) to a canonical value.

Each ``_<scheme>_value`` takes what people paste and returns the canonical string or raises
:class:`~citeledger.errors.InvalidIdentifier` with the precise reason. Pure, linear time.

.. versionadded:: 0.2.0
   Split out of ``citeledger/identifiers.py``; import from :mod:`citeledger.identifiers`.
"""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING, Final
from urllib.parse import unquote

from citeledger.errors import InvalidIdentifier

if TYPE_CHECKING:
    from collections.abc import Callable

from citeledger.identifiers._schemes import _ARXIV_DOI_PREFIX, ARXIV_ARCHIVES, Scheme

# Only the entities that occur in scraped DOIs; html.unescape would also turn "&lt" (no ';')
# into '<', which could mutilate a suffix that legitimately contains '&'.
_ENTITY_RE: Final = re.compile(r"&(lt|gt|amp|quot|apos|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")
_NAMED_ENTITIES: Final = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}
_PERCENT_RE: Final = re.compile(r"%[0-9A-Fa-f]{2}")
_OPENERS: Final = "([{<"
_CLOSERS: Final = ")]}>"
_PAIRS: Final = {")": "(", "]": "[", "}": "{", ">": "<"}
_TRAILING_PUNCT: Final = ".,;:!?\"'`\u201d\u2019"
_TRAILING_STRIPPABLE: Final = _TRAILING_PUNCT + _CLOSERS + " \t\r\n\f\v\u00a0"
_LEADING_JUNK: Final = "([{<\"'`\u201c\u2018"


def _entity(match: re.Match[str]) -> str:
    name = match.group(1)
    if name in _NAMED_ENTITIES:
        return _NAMED_ENTITIES[name]
    # "#x41" is hexadecimal: "0x41" in base 0 (int("#x41", 0) raises; ruff's FURB166 "fix"
    # of int(name[2:], 16) produced exactly that, so the prefix is rebuilt instead).
    code = int("0" + name[1:], 0) if name[1] in "xX" else int(name[1:])
    # A surrogate code point is no character: kept as written, never a lone surrogate.
    valid = 0 < code < 0x110000 and not 0xD800 <= code <= 0xDFFF
    return chr(code) if valid else match.group(0)


def _trim_trailing(s: str) -> str:
    """Drop trailing sentence punctuation, and closing brackets only when unbalanced.

    SICI DOIs such as ``10.1002/(SICI)1097-4636(199709)36:4<543::AID-JBM14>3.0.CO;2-D``
    legitimately contain brackets, so a ``)`` is only removed when it has no partner.
    """
    # Fast path in C: usually nothing, or one '.', is trailing. Only the trailing run of
    # punctuation and closers is walked, once, with bracket counts kept up to date: linear.
    floor = len(s.rstrip(_TRAILING_STRIPPABLE))
    end = len(s)
    counts: dict[str, int] | None = None
    while end > floor:
        last = s[end - 1]
        if last in _CLOSERS:
            if counts is None:
                counts = {c: s.count(c, 0, end) for c in "()[]{}<>"}
            if counts[last] <= counts[_PAIRS[last]]:
                break
            counts[last] -= 1
        end -= 1
    return s[:end]


def _clean(text: str) -> str:
    """Whitespace, HTML entities, percent-encoding and surrounding punctuation."""
    s = text.strip()
    if "&" in s:
        s = _ENTITY_RE.sub(_entity, s)
    if "%" in s and _PERCENT_RE.search(s):
        # Escapes that are not UTF-8 ("%ff%fe") are left as they are: decoding them with
        # replacement characters would make up a DOI nobody registered.
        with contextlib.suppress(UnicodeDecodeError):
            s = unquote(s, errors="strict")
    s = s.strip()
    # No identifier starts with an opening bracket or a quote ("(doi:10...)", "<https://...>").
    i = 0
    while i < len(s) and (s[i] in _LEADING_JUNK or s[i].isspace()):
        i += 1
    return _trim_trailing(s[i:])


def _after_host(s: str, hosts: tuple[str, ...]) -> str | None:
    """The rest of ``s`` after ``[http[s]://][www.]<host>`` for one of ``hosts``, else None."""
    low = s.lower()
    off = 0
    for scheme in ("https://", "http://"):
        if low.startswith(scheme):
            off = len(scheme)
            break
    if low.startswith("www.", off):
        off += 4
    for host in hosts:
        if low.startswith(host, off):
            return s[off + len(host) :]
    return None


def _strip_query(s: str) -> str:
    """Drop a URL query string or fragment (``?utm_source=...``, ``#page=3``)."""
    for sep in ("?", "#"):
        cut = s.find(sep)
        if cut >= 0:
            s = s[:cut]
    return s


def _label_re(*words: str) -> re.Pattern[str]:
    r"""``^word\\s*:?\\s*`` for any of the words (case-insensitive); each alternative is flat."""
    alternatives = "|".join(re.escape(w) for w in words)
    return re.compile(rf"(?:{alternatives})[ \t]*:?[ \t]*", re.IGNORECASE)


# --------------------------------------------------------------------------------------------
# Per-scheme normalisers: cleaned text -> canonical value, or InvalidIdentifier with a reason
# --------------------------------------------------------------------------------------------

_DOI_HOSTS: Final = ("doi.org/", "dx.doi.org/", "hdl.handle.net/", "doi.wiley.com/")
# A bare DOI needing no cleaning: ends in a letter or digit, printable ASCII, no spaces.
_FAST_DOI_RE: Final = re.compile(r"10\.[0-9]{4,9}(?:\.[0-9]+)*/[\x21-\x7e]*[A-Za-z0-9]")
_PRINTABLE_ASCII_RE: Final = re.compile(r"[\x21-\x7e]+")
_DOI_LABEL_RE: Final = re.compile(r"(?:urn:|info:)?doi(?:[ \t]*:[ \t]*|[ \t]+|/)", re.IGNORECASE)

# Publisher conventions strong enough to call a DOI malformed. Evidence: in ../shared/data every
# one of 1,737 Springer "10.1007/BF..." DOIs has exactly 8 digits after BF; the 4 with 7 digits
# are the truncated publisher-asserted DOI crossref-overall-2k:1894 (gold 10.1007/bf02293557).
# Kluwer's 10.1023 "A"/"B" suffixes always have a colon ("10.1023/A:1006047319921"); its absence
# is the malformed DOI crossref-overall-2k:1459.
# (prefix, applies, valid, reason): a rule applies to a lowercased DOI that starts with its
# prefix and fully matches ``applies``, and refuses it unless it fully matches ``valid``. Every
# ``applies`` pattern starts with its prefix (a test checks it), so a DOI with none of the
# prefixes, nearly every DOI, is let through without a regular expression.
_DOI_PUBLISHER_RULES: Final = (
    (
        "10.1007/bf",
        re.compile(r"10\.1007/bf[0-9]*"),
        re.compile(r"10\.1007/bf[0-9]{8}"),
        "Springer 10.1007/BF DOIs have exactly 8 digits after 'BF' (truncated?)",
    ),
    (
        "10.1023/",
        re.compile(r"10\.1023/[ab][0-9]+"),
        re.compile(r"(?!)"),
        "Kluwer 10.1023 DOIs have a colon after the 'A'/'B' (10.1023/A:...)",
    ),
)


def _doi_value(text: str) -> str:
    # Fast path for an already clean bare DOI (most id fields): the same result as the full
    # path below, which tests check against each other.
    if _FAST_DOI_RE.fullmatch(text) and "%" not in text and "&" not in text:
        return _doi_publisher_rules(text, text.lower())
    return _doi_value_slow(text)


_DOI_RULE_PREFIXES: Final = tuple(rule[0] for rule in _DOI_PUBLISHER_RULES)


def _doi_publisher_rules(original: str, value: str) -> str:
    if not value.startswith(_DOI_RULE_PREFIXES):
        return value  # no rule applies (each applies within its prefix only)
    for _, applies, valid, reason in _DOI_PUBLISHER_RULES:
        if applies.fullmatch(value) and not valid.fullmatch(value):
            raise InvalidIdentifier(original, reason, "doi")
    return value


def _doi_value_slow(text: str) -> str:
    original = text
    s = _clean(text)
    for _ in range(4):  # "doi: https://doi.org/10...." nests a label and a URL
        before = s
        rest = _after_host(s, _DOI_HOSTS)
        if rest is not None:
            s = _strip_query(rest) if "?" in rest else rest
        m = _DOI_LABEL_RE.match(s)
        if m:
            s = s[m.end() :]
        s = _trim_trailing(s.strip())
        if s == before:
            break
    if not s:
        raise InvalidIdentifier(original, "empty DOI", "doi")
    _check_doi_shape(original, s)
    return _doi_publisher_rules(original, s.lower())


def _check_doi_shape(original: str, s: str) -> None:
    """Raise with a precise reason unless ``s`` is ``10.<digits>[.<digits>...]/<suffix>``."""
    if not s.startswith("10."):
        raise InvalidIdentifier(original, "a DOI starts with '10.'", "doi")
    n = len(s)
    i = j = 3
    while j < n and "0" <= s[j] <= "9":
        j += 1
    if j == i:
        raise InvalidIdentifier(original, "no registrant code after '10.'", "doi")
    if not 4 <= j - i <= 9:
        raise InvalidIdentifier(
            original, f"registrant code '{s[i:j]}' must have 4 to 9 digits", "doi"
        )
    while j + 1 < n and s[j] == "." and "0" <= s[j + 1] <= "9":
        j += 1
        while j < n and "0" <= s[j] <= "9":
            j += 1
    if j == n:
        raise InvalidIdentifier(original, f"prefix {s!r} has no '/' and no suffix", "doi")
    if s[j] != "/":
        reason = (
            "the '/' between prefix and suffix is missing (replaced by '.'?)"
            if s[j] == "."
            else f"expected '/' after the prefix {s[:j]!r}, found {s[j]!r}"
        )
        raise InvalidIdentifier(original, reason, "doi")
    suffix = s[j + 1 :]
    if not suffix:
        raise InvalidIdentifier(original, "empty suffix after the '/'", "doi")
    if suffix.isascii() and _PRINTABLE_ASCII_RE.fullmatch(suffix):
        return  # the common case, checked in C
    for c in suffix:
        if c.isspace() or not c.isprintable():
            raise InvalidIdentifier(
                original, f"the suffix contains the character {c!r} (a DOI has no spaces)", "doi"
            )


_ARXIV_HOSTS: Final = ("arxiv.org/", "export.arxiv.org/")
_ARXIV_PATHS: Final = ("abs/", "pdf/", "html/", "format/", "ps/")
_ARXIV_LABEL_RE: Final = _label_re("arxiv")
# A trailing category tag as printed in listings: "2104.07857 [cs.LG]".
_ARXIV_TAG_RE: Final = re.compile(r"\[[A-Za-z-]{1,20}(?:\.[A-Za-z-]{1,20})?\]")
_ARXIV_NEW_RE: Final = re.compile(r"([0-9]{2})([0-9]{2})\.([0-9]+)(?:[vV]([0-9]+))?")
_ARXIV_OLD_RE: Final = re.compile(
    r"([A-Za-z-]+)(?:\.([A-Za-z-]+))?/([0-9]{2})([0-9]{2})([0-9]+)(?:[vV]([0-9]+))?"
)
_ARXIV_SUBJECT_RE: Final = re.compile(r"[A-Za-z]{2}|[a-z]+(?:-[a-z]+)?")


def _arxiv_version(original: str, digits: str | None) -> str:
    if digits is None:
        return ""
    if digits.startswith("0"):
        raise InvalidIdentifier(
            original, f"version 'v{digits}' must be >= 1 without leading zeros", "arxiv"
        )
    return f"v{digits}"


def _arxiv_value(text: str) -> str:
    original = text
    s = _clean(text)
    if s.endswith("]"):
        tag_at = s.rfind("[")
        if tag_at >= 0 and _ARXIV_TAG_RE.fullmatch(s, tag_at):
            s = _trim_trailing(s[:tag_at])
    rest = _after_host(s, _ARXIV_HOSTS)
    if rest is not None:
        rest = _strip_query(rest)
        low = rest.lower()
        for path in _ARXIV_PATHS:
            if low.startswith(path):
                rest = rest[len(path) :]
                break
        s = rest.rstrip("/")
    else:
        doi_at = s.lower().find(_ARXIV_DOI_PREFIX)
        if doi_at >= 0:  # arXiv's DataCite DOI, in any of its DOI surface forms
            s = s[doi_at + len(_ARXIV_DOI_PREFIX) :]
        else:
            lm = _ARXIV_LABEL_RE.match(s)
            if lm:
                s = s[lm.end() :]
    s = s.strip()
    if s.lower().endswith(".pdf"):  # ".../pdf/2104.07857v2.pdf" as copied from a reader
        s = s[:-4]
    if not s:
        raise InvalidIdentifier(original, "empty arXiv id", "arxiv")
    m = _ARXIV_NEW_RE.fullmatch(s)
    if m:
        yy, mm, number, version = m.groups()
        return f"{yy}{mm}.{_check_arxiv_new(original, yy, mm, number)}" + _arxiv_version(
            original, version
        )
    m = _ARXIV_OLD_RE.fullmatch(s)
    if m:
        archive, subject, yy, mm, number, version = m.groups()
        return _check_arxiv_old(
            original, archive=archive, subject=subject, yy=yy, mm=mm, number=number
        ) + _arxiv_version(original, version)
    if "/" in s:
        reason = "an old-style arXiv id is archive/YYMMNNN (e.g. hep-th/9901001)"
    elif "." in s and s.partition(".")[0].isdigit():
        reason = "a new-style arXiv id is YYMM.NNNNN (e.g. 2104.07857)"
    else:
        reason = "not an arXiv id (YYMM.NNNNN or archive/YYMMNNN)"
    raise InvalidIdentifier(original, reason, "arxiv")


def _check_month(original: str, mm: str) -> None:
    if not 1 <= int(mm) <= 12:
        raise InvalidIdentifier(original, f"month {mm} is not a month (01-12)", "arxiv")


def _check_arxiv_new(original: str, yy: str, mm: str, number: str) -> str:
    _check_month(original, mm)
    yymm = yy + mm
    if yymm < "0704":
        raise InvalidIdentifier(
            original, f"new-style arXiv ids start in April 2007 (0704); {yymm} is earlier", "arxiv"
        )
    want = 4 if yymm <= "1412" else 5
    if len(number) != want:
        raise InvalidIdentifier(
            original,
            f"arXiv ids of {yymm} have {want} digits after the dot, this one has "
            f"{len(number)}" + (" (truncated?)" if len(number) < want else ""),
            "arxiv",
        )
    if int(number) == 0:
        raise InvalidIdentifier(original, "arXiv sequence numbers start at 1", "arxiv")
    return number


def _check_arxiv_old(
    original: str, *, archive: str, subject: str | None, yy: str, mm: str, number: str
) -> str:
    arch = archive.lower()
    if arch not in ARXIV_ARCHIVES:
        raise InvalidIdentifier(original, f"unknown arXiv archive {archive!r}", "arxiv")
    _check_month(original, mm)
    # Old-style ids ran from August 1991 (hep-th) to March 2007.
    yymm = ("19" if yy >= "91" else "20") + yy + mm
    if not "199108" <= yymm <= "200703":
        raise InvalidIdentifier(
            original,
            f"old-style arXiv ids run from 9108 to 0703; {yy}{mm} is outside that range",
            "arxiv",
        )
    if len(number) != 3:
        raise InvalidIdentifier(
            original,
            f"old-style arXiv ids have 3 digits after YYMM, this one has {len(number)}"
            + (" (truncated?)" if len(number) < 3 else ""),
            "arxiv",
        )
    if number == "000":
        raise InvalidIdentifier(original, "arXiv sequence numbers start at 001", "arxiv")
    if subject is None:
        return f"{arch}/{yy}{mm}{number}"
    if not _ARXIV_SUBJECT_RE.fullmatch(subject):
        raise InvalidIdentifier(original, f"invalid subject class {subject!r}", "arxiv")
    subj = subject.upper() if len(subject) == 2 else subject.lower()
    return f"{arch}.{subj}/{yy}{mm}{number}"


def _split_arxiv_version(value: str) -> tuple[str, int | None]:
    head, v, tail = value.rpartition("v")
    if v and tail.isdigit() and head[-1:].isdigit():
        return head, int(tail)
    return value, None


_DIGITS_RE: Final = re.compile(r"[0-9]+")


def _digits(original: str, s: str, scheme: str, what: str, max_len: int) -> str:
    if not _DIGITS_RE.fullmatch(s):
        raise InvalidIdentifier(original, f"{what} is made of digits only", scheme)
    v = s.lstrip("0")
    if not v:
        raise InvalidIdentifier(original, f"{what} cannot be zero", scheme)
    if len(v) > max_len:
        raise InvalidIdentifier(original, f"{what} has at most {max_len} digits", scheme)
    return v


def _past_host_or_label(s: str, hosts: tuple[str, ...], label: re.Pattern[str]) -> str:
    """What follows a known host (query and trailing slash dropped) or a leading label."""
    rest = _after_host(s, hosts)
    if rest is not None:
        return _strip_query(rest).rstrip("/")
    m = label.match(s)
    return s[m.end() :] if m else s


_PMID_HOSTS: Final = ("pubmed.ncbi.nlm.nih.gov/", "ncbi.nlm.nih.gov/pubmed/")
_PMID_LABEL_RE: Final = _label_re("pmid", "pubmed")


def _pmid_value(text: str) -> str:
    original = text
    s = _past_host_or_label(_clean(text), _PMID_HOSTS, _PMID_LABEL_RE)
    return _digits(original, s, "pmid", "a PMID", 8)


_PMCID_HOSTS: Final = (
    "ncbi.nlm.nih.gov/pmc/articles/",
    "pmc.ncbi.nlm.nih.gov/articles/",
    "europepmc.org/articles/",
    "europepmc.org/article/pmc/",
)
_PMCID_LABEL_RE: Final = _label_re("pmcid")


def _pmcid_value(text: str) -> str:
    original = text
    s = _past_host_or_label(_clean(text), _PMCID_HOSTS, _PMCID_LABEL_RE)
    if s[:3].lower() == "pmc":
        s = s[3:]
    return "PMC" + _digits(original, s, "pmcid", "a PMCID after 'PMC'", 9)


_OPENALEX_HOSTS: Final = ("openalex.org/works/", "api.openalex.org/works/", "openalex.org/")
_OPENALEX_LABEL_RE: Final = _label_re("openalex")
_OPENALEX_ENTITIES: Final = {
    "a": "author",
    "s": "source",
    "i": "institution",
    "p": "publisher",
    "f": "funder",
    "c": "concept",
    "t": "topic",
    "k": "keyword",
}


def _openalex_value(text: str) -> str:
    original = text
    s = _past_host_or_label(_clean(text), _OPENALEX_HOSTS, _OPENALEX_LABEL_RE)
    head = s[:1].lower()
    if head in _OPENALEX_ENTITIES and _DIGITS_RE.fullmatch(s[1:]):
        raise InvalidIdentifier(
            original,
            f"an OpenAlex {_OPENALEX_ENTITIES[head]} id; only work ids (W...) are supported",
            "openalex",
        )
    if head != "w":
        raise InvalidIdentifier(
            original, "an OpenAlex work id is 'W' followed by digits", "openalex"
        )
    return "W" + _digits(original, s[1:], "openalex", "an OpenAlex work id after 'W'", 12)


_S2_HOSTS: Final = (
    "semanticscholar.org/paper/",
    "api.semanticscholar.org/graph/v1/paper/",
    "api.semanticscholar.org/v1/paper/",
)
_S2_LABEL_RE: Final = _label_re("s2", "s2paperid", "paperid")
_HEX40_RE: Final = re.compile(r"[0-9a-fA-F]{40}")


def _s2_value(text: str) -> str:
    original = text
    s = _clean(text)
    rest = _after_host(s, _S2_HOSTS)
    if rest is not None:
        # https://www.semanticscholar.org/paper/<title-slug>/<sha>: the sha is the last segment.
        s = _strip_query(rest).rstrip("/").rpartition("/")[2]
    else:
        m = _S2_LABEL_RE.match(s)
        if m:
            s = s[m.end() :]
    if not _HEX40_RE.fullmatch(s):
        raise InvalidIdentifier(
            original, "a Semantic Scholar paper id is 40 hexadecimal digits", "s2"
        )
    return s.lower()


_CORPUSID_HOSTS: Final = (
    "api.semanticscholar.org/corpusid:",
    "api.semanticscholar.org/graph/v1/paper/corpusid:",
    "semanticscholar.org/paper/corpusid:",
    "semanticscholar.org/corpusid:",
)
_CORPUSID_LABEL_RE: Final = _label_re("corpusid", "corpus id", "corpus_id")


def _corpusid_value(text: str) -> str:
    original = text
    s = _past_host_or_label(_clean(text), _CORPUSID_HOSTS, _CORPUSID_LABEL_RE)
    return _digits(original, s, "corpusid", "a CorpusId", 12)


_NORMALIZERS: Final[dict[Scheme, Callable[[str], str]]] = {
    Scheme.DOI: _doi_value,
    Scheme.ARXIV: _arxiv_value,
    Scheme.PMID: _pmid_value,
    Scheme.PMCID: _pmcid_value,
    Scheme.OPENALEX: _openalex_value,
    Scheme.S2: _s2_value,
    Scheme.CORPUSID: _corpusid_value,
}
