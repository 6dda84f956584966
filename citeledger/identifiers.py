"""Scholarly identifiers: parse what people paste, keep one canonical form.

Seven schemes are modelled, one frozen class each: :class:`DOI`, :class:`ArxivId`, :class:`PMID`,
:class:`PMCID`, :class:`OpenAlexId` (works only), :class:`S2PaperId` and :class:`CorpusId`. Every
instance holds its *canonical* value (constructing one from a non-canonical string raises
:class:`~citeledger.errors.InvalidIdentifier`), so two equal identifiers always compare equal and
``parse_identifier(str(x)) == x``.

Messy text goes through :func:`parse_identifier` (one identifier, raises on failure),
:func:`normalize_doi` / :func:`normalize_arxiv` (one scheme) or :func:`find_identifiers` (free text:
every identifier plus the identifier-looking fragments that are malformed, with a reason).

Everything here is pure: no I/O, no module-level mutable state, and no regular expression with
nested quantifiers, so every function runs in time linear in its input.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import contextlib
import re
from enum import StrEnum
from functools import partial
from typing import TYPE_CHECKING, ClassVar, Final, TypeAlias, TypeVar
from urllib.parse import unquote

import attrs

from citeledger.errors import InvalidIdentifier

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "ARXIV_ARCHIVES",
    "DOI",
    "IDENTIFIER_TYPES",
    "MAX_MALFORMED",
    "PMCID",
    "PMID",
    "PREPRINT_DOI_PREFIXES",
    "ArxivId",
    "CorpusId",
    "FoundIdentifiers",
    "Identifier",
    "MalformedFragment",
    "OpenAlexId",
    "S2PaperId",
    "Scheme",
    "find_identifiers",
    "normalize_arxiv",
    "normalize_doi",
    "parse_identifier",
    "same_work",
    "version_key",
    "version_of",
    "work_key",
]


class Scheme(StrEnum):
    """The identifier schemes citeledger understands; the value is the ``str()`` prefix."""

    DOI = "doi"
    ARXIV = "arxiv"
    PMID = "pmid"
    PMCID = "pmcid"
    OPENALEX = "openalex"
    S2 = "s2"
    CORPUSID = "corpusid"


#: Every arXiv archive that has issued old-style ``archive/YYMMNNN`` ids, current and retired
#: (arXiv "Understanding the arXiv identifier" and the archive list in its category taxonomy).
ARXIV_ARCHIVES: Final = frozenset(
    {
        "acc-phys",
        "adap-org",
        "alg-geom",
        "ao-sci",
        "astro-ph",
        "atom-ph",
        "bayes-an",
        "chao-dyn",
        "chem-ph",
        "cmp-lg",
        "comp-gas",
        "cond-mat",
        "cs",
        "dg-ga",
        "funct-an",
        "gr-qc",
        "hep-ex",
        "hep-lat",
        "hep-ph",
        "hep-th",
        "math",
        "math-ph",
        "mtrl-th",
        "nlin",
        "nucl-ex",
        "nucl-th",
        "patt-sol",
        "physics",
        "plasm-ph",
        "q-alg",
        "q-bio",
        "q-fin",
        "quant-ph",
        "solv-int",
        "stat",
        "supr-con",
    }
)

_ARXIV_DOI_PREFIX: Final = "10.48550/arxiv."

# --------------------------------------------------------------------------------------------
# The identifier classes
# --------------------------------------------------------------------------------------------


class _IdentifierBase:
    """Shared behaviour: ``str()``, ordering by ``(scheme, value)`` across all schemes."""

    __slots__ = ()
    scheme: ClassVar[Scheme]
    value: str

    def __str__(self) -> str:
        return f"{self.scheme}:{self.value}"

    def _sort_key(self) -> tuple[str, str]:
        return (self.scheme.value, self.value)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, _IdentifierBase):
            return NotImplemented
        return self._sort_key() < other._sort_key()

    def __le__(self, other: object) -> bool:
        if not isinstance(other, _IdentifierBase):
            return NotImplemented
        return self._sort_key() <= other._sort_key()

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, _IdentifierBase):
            return NotImplemented
        return self._sort_key() > other._sort_key()

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, _IdentifierBase):
            return NotImplemented
        return self._sort_key() >= other._sort_key()


def _canonical_validator(
    scheme: Scheme, normalize: Callable[[str], str]
) -> Callable[[object, attrs.Attribute[str], str], None]:
    """Build an attrs validator: the value must be a fixed point of the scheme's normaliser."""

    def check(_instance: object, _attribute: attrs.Attribute[str], value: str) -> None:
        if not isinstance(value, str):
            raise InvalidIdentifier(repr(value), "the value must be a string", scheme.value)
        canonical = normalize(value)  # raises InvalidIdentifier with the precise reason
        if canonical != value:
            raise InvalidIdentifier(
                value,
                f"not in canonical form (expected {canonical!r}); "
                "use parse_identifier() to canonicalise messy text",
                scheme.value,
            )

    return check


def _doi_check(value: str) -> str:
    return _doi_value(value)


def _arxiv_check(value: str) -> str:
    return _arxiv_value(value)


def _pmid_check(value: str) -> str:
    return _pmid_value(value)


def _pmcid_check(value: str) -> str:
    return _pmcid_value(value)


def _openalex_check(value: str) -> str:
    return _openalex_value(value)


def _s2_check(value: str) -> str:
    return _s2_value(value)


def _corpusid_check(value: str) -> str:
    return _corpusid_value(value)


@attrs.frozen(order=False)  # ordering across schemes comes from _IdentifierBase
class DOI(_IdentifierBase):
    """A Digital Object Identifier, canonically lower-case ``10.<registrant>/<suffix>``.

    DOIs are case-insensitive (DOI Handbook 2.4), so the canonical value is lower-cased. Build one
    from messy text with :func:`normalize_doi` or :func:`parse_identifier`.

    Attributes:
        value: The canonical DOI, e.g. ``"10.1038/nature12373"``.

    Example:
        >>> normalize_doi("https://doi.org/10.1038/NATURE12373.")
        DOI(value='10.1038/nature12373')

    .. versionadded:: 0.1.0
    """

    scheme: ClassVar[Scheme] = Scheme.DOI
    value: str = attrs.field(validator=_canonical_validator(Scheme.DOI, _doi_check))

    @property
    def prefix(self) -> str:
        """The ``10.<registrant>`` part."""
        return self.value.partition("/")[0]

    @property
    def suffix(self) -> str:
        """Everything after the first ``/``."""
        return self.value.partition("/")[2]

    def as_arxiv(self) -> ArxivId | None:
        """The arXiv id this arXiv DataCite DOI (``10.48550/arXiv.<id>``) names, else ``None``.

        >>> normalize_doi("10.48550/arXiv.2104.07857").as_arxiv()
        ArxivId(value='2104.07857')
        """
        if not self.value.startswith(_ARXIV_DOI_PREFIX):
            return None
        try:
            return _make(ArxivId, _arxiv_value(self.value[len(_ARXIV_DOI_PREFIX) :]))
        except InvalidIdentifier:
            return None


@attrs.frozen(order=False)  # ordering across schemes comes from _IdentifierBase
class ArxivId(_IdentifierBase):
    """An arXiv identifier, new style (``2104.07857``) or old style (``hep-th/9901001``).

    Canonical value: new style ``YYMM.NNNN`` (0704-1412) or ``YYMM.NNNNN`` (1501 on); old style
    ``archive/YYMMNNN`` or ``archive.SUBJ/YYMMNNN`` with the archive lower-case and a two-letter
    subject class upper-case (``math.GT/0309136``); an optional ``vN`` version (N >= 1, no leading
    zero). The subject class of an old-style id is kept (it is part of what was written), but
    :func:`work_key` drops it, since arXiv resolves ``math.GT/0309136`` and ``math/0309136`` to the
    same paper.

    Attributes:
        value: The canonical id, e.g. ``"2104.07857v2"``.

    Example:
        >>> x = normalize_arxiv("https://arxiv.org/pdf/2104.07857v2.pdf")
        >>> x.base, x.version
        ('2104.07857', 2)

    .. versionadded:: 0.1.0
    """

    scheme: ClassVar[Scheme] = Scheme.ARXIV
    value: str = attrs.field(validator=_canonical_validator(Scheme.ARXIV, _arxiv_check))

    @property
    def base(self) -> str:
        """The value without its version (``"2104.07857"``)."""
        return _split_arxiv_version(self.value)[0]

    @property
    def version(self) -> int | None:
        """The version number, or ``None`` when the id names no version."""
        return _split_arxiv_version(self.value)[1]

    @property
    def is_old_style(self) -> bool:
        """Whether this is a pre-2007 ``archive/YYMMNNN`` id."""
        return "/" in self.value

    @property
    def work_base(self) -> str:
        """The base without an old-style subject class (``math/0309136``): one key per paper."""
        base = self.base
        head, slash, tail = base.partition("/")
        if not slash:
            return base
        return f"{head.partition('.')[0]}/{tail}"

    def with_version(self, version: int) -> ArxivId:
        """This id with the given version (>= 1).

        Raises:
            InvalidIdentifier: when ``version`` is below 1.
        """
        if isinstance(version, bool) or version < 1:
            raise InvalidIdentifier(f"{self.base}v{version}", "version must be >= 1", "arxiv")
        return ArxivId(f"{self.base}v{version}")

    def unversioned(self) -> ArxivId:
        """This id without a version."""
        return self if self.version is None else ArxivId(self.base)

    def as_doi(self) -> DOI:
        """ArXiv's DataCite DOI for this paper, ``10.48550/arxiv.<base>`` (no version).

        >>> ArxivId("2104.07857v1").as_doi()
        DOI(value='10.48550/arxiv.2104.07857')
        """
        return DOI(_ARXIV_DOI_PREFIX + self.work_base.lower())


@attrs.frozen(order=False)  # ordering across schemes comes from _IdentifierBase
class PMID(_IdentifierBase):
    """A PubMed id: 1-8 digits without leading zeros (PMIDs are below 100,000,000).

    .. versionadded:: 0.1.0
    """

    scheme: ClassVar[Scheme] = Scheme.PMID
    value: str = attrs.field(validator=_canonical_validator(Scheme.PMID, _pmid_check))


@attrs.frozen(order=False)  # ordering across schemes comes from _IdentifierBase
class PMCID(_IdentifierBase):
    """A PubMed Central id, canonically ``PMC`` followed by digits (``"PMC3531190"``).

    .. versionadded:: 0.1.0
    """

    scheme: ClassVar[Scheme] = Scheme.PMCID
    value: str = attrs.field(validator=_canonical_validator(Scheme.PMCID, _pmcid_check))


@attrs.frozen(order=False)  # ordering across schemes comes from _IdentifierBase
class OpenAlexId(_IdentifierBase):
    """An OpenAlex *work* id, canonically ``W`` followed by digits (``"W2741809807"``).

    Only works are modelled; author, source, institution ... ids (``A…``, ``S…``, ``I…``) are
    rejected with a reason rather than being mistaken for works.

    .. versionadded:: 0.1.0
    """

    scheme: ClassVar[Scheme] = Scheme.OPENALEX
    value: str = attrs.field(validator=_canonical_validator(Scheme.OPENALEX, _openalex_check))


@attrs.frozen(order=False)  # ordering across schemes comes from _IdentifierBase
class S2PaperId(_IdentifierBase):
    """A Semantic Scholar paper id: the 40 lower-case hex digits of its SHA.

    .. versionadded:: 0.1.0
    """

    scheme: ClassVar[Scheme] = Scheme.S2
    value: str = attrs.field(validator=_canonical_validator(Scheme.S2, _s2_check))


@attrs.frozen(order=False)  # ordering across schemes comes from _IdentifierBase
class CorpusId(_IdentifierBase):
    """A Semantic Scholar CorpusId: digits without leading zeros.

    .. versionadded:: 0.1.0
    """

    scheme: ClassVar[Scheme] = Scheme.CORPUSID
    value: str = attrs.field(validator=_canonical_validator(Scheme.CORPUSID, _corpusid_check))


Identifier: TypeAlias = DOI | ArxivId | PMID | PMCID | OpenAlexId | S2PaperId | CorpusId
"""Any one of the seven identifier classes."""

IDENTIFIER_TYPES: Final[tuple[type[Identifier], ...]] = (
    DOI,
    ArxivId,
    PMID,
    PMCID,
    OpenAlexId,
    S2PaperId,
    CorpusId,
)

_I = TypeVar("_I", bound=_IdentifierBase)
_CLASS_BY_SCHEME: Final[dict[Scheme, type[Identifier]]] = {t.scheme: t for t in IDENTIFIER_TYPES}


def _make(cls: type[_I], value: str) -> _I:
    """Build an identifier from a normaliser's output without re-running the normaliser.

    The normalisers build canonical values (the attrs validator re-checks values that users
    pass in); the one way their output could still change on a second pass is a value that
    decodes again ("%2541" -> "%41" -> "A", "&amp;lt;" -> "&lt;" -> "<"), so those go through
    the validating constructor.
    """
    if "%" in value or "&" in value:
        validating: Callable[[str], _I] = cls  # the attrs __init__ takes the value
        return validating(value)
    ident = object.__new__(cls)
    object.__setattr__(ident, "value", value)
    return ident


# --------------------------------------------------------------------------------------------
# Cleaning shared by every scheme
# --------------------------------------------------------------------------------------------

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
_DOI_PUBLISHER_RULES: Final = (
    (
        re.compile(r"10\.1007/bf[0-9]*"),
        re.compile(r"10\.1007/bf[0-9]{8}"),
        "Springer 10.1007/BF DOIs have exactly 8 digits after 'BF' (truncated?)",
    ),
    (
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


def _doi_publisher_rules(original: str, value: str) -> str:
    for applies, valid, reason in _DOI_PUBLISHER_RULES:
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


_PMID_HOSTS: Final = ("pubmed.ncbi.nlm.nih.gov/", "ncbi.nlm.nih.gov/pubmed/")
_PMID_LABEL_RE: Final = _label_re("pmid", "pubmed")


def _pmid_value(text: str) -> str:
    original = text
    s = _clean(text)
    rest = _after_host(s, _PMID_HOSTS)
    if rest is not None:
        s = _strip_query(rest).rstrip("/")
    else:
        m = _PMID_LABEL_RE.match(s)
        if m:
            s = s[m.end() :]
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
    s = _clean(text)
    rest = _after_host(s, _PMCID_HOSTS)
    if rest is not None:
        s = _strip_query(rest).rstrip("/")
    else:
        m = _PMCID_LABEL_RE.match(s)
        if m:
            s = s[m.end() :]
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
    s = _clean(text)
    rest = _after_host(s, _OPENALEX_HOSTS)
    if rest is not None:
        s = _strip_query(rest).rstrip("/")
    else:
        m = _OPENALEX_LABEL_RE.match(s)
        if m:
            s = s[m.end() :]
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
    s = _clean(text)
    rest = _after_host(s, _CORPUSID_HOSTS)
    if rest is not None:
        s = _strip_query(rest).rstrip("/")
    else:
        m = _CORPUSID_LABEL_RE.match(s)
        if m:
            s = s[m.end() :]
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

# --------------------------------------------------------------------------------------------
# Public parsing API
# --------------------------------------------------------------------------------------------


def normalize_doi(text: str) -> DOI:
    """Parse a DOI from messy text: bare, ``doi:``-prefixed or as a doi.org URL.

    Strips whitespace, ``doi:`` / ``DOI`` / ``https://doi.org/`` / ``http://dx.doi.org/``
    prefixes, trailing sentence punctuation (a ``)`` only when unbalanced), percent-encoding and
    the HTML entities ``&lt; &gt; &amp; &quot;``; then lower-cases.

    Raises:
        InvalidIdentifier: with the reason, when the text is no DOI.

    Example:
        >>> normalize_doi("doi: 10.1002/(SICI)1097-4636(199709)36:4<543::AID-JBM14>3.0.CO;2-D.")
        DOI(value='10.1002/(sici)1097-4636(199709)36:4<543::aid-jbm14>3.0.co;2-d')

    .. versionadded:: 0.1.0
    """
    if not isinstance(text, str):
        raise InvalidIdentifier(repr(text), "an identifier must be given as a string", None)
    return _make(DOI, _doi_value(text))


def normalize_arxiv(text: str) -> ArxivId:
    """Parse an arXiv id from messy text: bare, ``arXiv:``-prefixed, abs/pdf URLs, DataCite DOI.

    Raises:
        InvalidIdentifier: with the reason (month 13, too early, wrong digit count, ...).

    Example:
        >>> normalize_arxiv("arXiv:2104.07857v2 [cs.LG]")
        ArxivId(value='2104.07857v2')
        >>> normalize_arxiv("arXiv:1913.01234")
        Traceback (most recent call last):
        ...
        citeledger.errors.InvalidIdentifier: invalid identifier as arxiv: 'arXiv:1913.01234': month 13 is not a month (01-12)

    .. versionadded:: 0.1.0
    """  # noqa: E501
    if not isinstance(text, str):
        raise InvalidIdentifier(repr(text), "an identifier must be given as a string", None)
    return _make(ArxivId, _arxiv_value(text))


def _detect_scheme(s: str) -> Scheme | None:
    """Pick the scheme of a cleaned string from its prefix, URL host or shape."""
    low = s.lower()
    if low.startswith("10.") or _after_host(s, _DOI_HOSTS) is not None or _DOI_LABEL_RE.match(s):
        return Scheme.DOI
    if _after_host(s, _ARXIV_HOSTS) is not None or low.startswith("arxiv"):
        return Scheme.ARXIV
    if _after_host(s, _CORPUSID_HOSTS) is not None or _CORPUSID_LABEL_RE.match(s):
        return Scheme.CORPUSID
    if _after_host(s, _PMCID_HOSTS) is not None or low.startswith("pmc"):
        return Scheme.PMCID
    if _after_host(s, _PMID_HOSTS) is not None or low.startswith(("pmid", "pubmed")):
        return Scheme.PMID
    if _after_host(s, _OPENALEX_HOSTS) is not None or low.startswith("openalex"):
        return Scheme.OPENALEX
    if _after_host(s, _S2_HOSTS) is not None or low.startswith("s2") or _HEX40_RE.fullmatch(s):
        return Scheme.S2
    if low[:1] == "w" and low[1:].isdigit():
        return Scheme.OPENALEX
    # A listing's trailing category tag ("2104.07857 [cs.LG]") does not change the scheme.
    bare = _ARXIV_TAG_RE.sub("", s).rstrip() if s.endswith("]") else s
    if _ARXIV_NEW_RE.fullmatch(bare) or (
        "/" in bare and bare.partition("/")[0].partition(".")[0].lower() in ARXIV_ARCHIVES
    ):
        return Scheme.ARXIV
    return None


def parse_identifier(text: str, scheme: str | Scheme | None = None) -> Identifier:
    """Parse one identifier from what a user pasted.

    Accepts bare values, prefixed forms (``doi:``, ``DOI``, ``arXiv:``, ``PMID:``, ``PMCID:``,
    ``CorpusId:``, ``openalex:``, ``s2:``, and every ``str()`` of an identifier), URL forms
    (doi.org, dx.doi.org, arxiv.org abs/pdf, openalex.org, api.openalex.org/works,
    semanticscholar.org/paper/<slug>/<sha>, api.semanticscholar.org/CorpusID:<n>,
    pubmed.ncbi.nlm.nih.gov/<n>, ncbi PMC article URLs), percent-encoding, surrounding whitespace
    and trailing sentence punctuation.

    A bare number is rejected without a ``scheme``: it could be a PMID or a CorpusId, and guessing
    would silently name the wrong paper. Pass ``scheme="pmid"`` or write ``PMID:123``.

    Args:
        text: The text to parse.
        scheme: Parse only this scheme (``"doi"``, ``Scheme.ARXIV``, ...); None detects it.

    Raises:
        InvalidIdentifier: with a human reason when the text is not an identifier (of ``scheme``).

    Example:
        >>> parse_identifier("https://arxiv.org/abs/hep-th/9901001v1")
        ArxivId(value='hep-th/9901001v1')
        >>> str(parse_identifier("12345", scheme="pmid"))
        'pmid:12345'

    .. versionadded:: 0.1.0
    """
    if not isinstance(text, str):
        raise InvalidIdentifier(repr(text), "an identifier must be given as a string", None)
    if not isinstance(text, str):
        raise InvalidIdentifier(repr(text), "an identifier must be given as a string", None)
    if scheme is not None:
        try:
            sch = Scheme(str(scheme).lower())
        except ValueError:
            known = ", ".join(s.value for s in Scheme)
            raise InvalidIdentifier(
                text, f"unknown scheme {scheme!r} (known: {known})", str(scheme)
            ) from None
        return _make(_CLASS_BY_SCHEME[sch], _NORMALIZERS[sch](text))
    if _FAST_DOI_RE.fullmatch(text):  # the common case: a clean bare DOI
        return _make(DOI, _doi_value(text))
    cleaned = _clean(text)
    if not cleaned:
        raise InvalidIdentifier(text, "empty identifier", None)
    detected = _detect_scheme(cleaned)
    if detected is None:
        if cleaned.isdigit():
            raise InvalidIdentifier(
                text,
                "a bare number is ambiguous (PMID or CorpusId?): prefix it "
                "('PMID:', 'CorpusId:') or pass scheme=",
                None,
            )
        raise InvalidIdentifier(text, "not recognised as any supported identifier", None)
    return _make(_CLASS_BY_SCHEME[detected], _NORMALIZERS[detected](text))


def work_key(x: Identifier) -> str:
    """A string naming the *work* an identifier points at.

    All versions of an arXiv paper, its old-style subject-class variants and its arXiv DataCite
    DOI share ``"arxiv:<base>"``; every other identifier is its own key, ``str(x)``.

    >>> work_key(normalize_doi("10.48550/arXiv.2104.07857"))
    'arxiv:2104.07857'

    .. versionadded:: 0.1.0
    """
    # Called for every identifier a catalog indexes and several times per resolved reference:
    # the common case, a plain DOI, is answered first.
    if type(x) is DOI and not x.value.startswith(_ARXIV_DOI_PREFIX):
        return "doi:" + x.value
    if isinstance(x, ArxivId):
        return f"arxiv:{x.work_base}"
    if isinstance(x, DOI):
        arxiv = x.as_arxiv()
        if arxiv is not None:
            return f"arxiv:{arxiv.work_base}"
    return str(x)


# DOI registrants that mint one DOI per *version* of a deposit, with the version as a suffix
# of the concept DOI. Only these suffix conventions are folded; opaque version DOIs (Zenodo's
# numeric ones, Columbia's) are linked only by the metadata's own relations (Paper.related).
_VERSIONED_DOI: Final = (
    # figshare: 10.6084/m9.figshare.123456.v2 (concept DOI without ".vN")
    (re.compile(r"^(doi:10\.6084/.+)\.v\d+$"), r"\1"),
    # Preprints.org: 10.20944/preprints202001.0001.v1
    (re.compile(r"^(doi:10\.20944/.+)\.v\d+$"), r"\1"),
    # Research Square 10.21203/rs.2.18406/v1, Authorea 10.22541/au.1234.5678/v2
    (re.compile(r"^(doi:10\.2(?:1203|2541)/.+)/v\d+$"), r"\1"),
    # OSF preprint servers: 10.31219/osf.io/abcde_v2
    (re.compile(r"^(doi:10\.312\d\d/.+)_v\d+$"), r"\1"),
    # Springer living reference works: 10.1007/978-3-319-76887-8_61-1 is version 1 of entry _61
    (re.compile(r"^(doi:10\.1007/978-[\dx-]+_\d+)-\d+$"), r"\1"),
    # BSI standards: 10.3403/30276345u is the undated form of 10.3403/30276345
    (re.compile(r"^(doi:10\.3403/\d+)u$"), r"\1"),
)

# The registrants above ("10.6084", ...; OSF's servers are 10.31200-10.31299): a work key's
# registrant is looked up in a set, which costs less than ``startswith`` over a hundred prefixes.
_VERSIONED_REGISTRANTS: Final = frozenset(
    ("10.6084", "10.20944", "10.21203", "10.22541", "10.1007", "10.3403")
) | frozenset(f"10.312{d:02d}" for d in range(100))

#: DOI prefixes of preprint servers and repositories: a paper's DOI there and its published DOI
#: are two DOIs of one work, so they never count as conflicting identifiers.
PREPRINT_DOI_PREFIXES: Final = (
    "doi:10.48550/",  # arXiv (already one work key with the arXiv id)
    "doi:10.1101/",  # bioRxiv, medRxiv
    "doi:10.2139/",  # SSRN
    "doi:10.21203/",  # Research Square
    "doi:10.20944/",  # Preprints.org
    "doi:10.22541/",  # Authorea
    "doi:10.26434/",  # ChemRxiv
    "doi:10.31219/",  # OSF Preprints
    "doi:10.31234/",  # PsyArXiv
    "doi:10.31235/",  # SocArXiv
    "doi:10.5281/",  # Zenodo
    "doi:10.6084/",  # figshare
)


def version_key(ident: Identifier) -> str:
    """The work key with a registrant's *version* suffix removed (same as ``work_key`` otherwise).

    Registrants that mint a DOI per version append the version to the concept DOI; those
    suffixes name versions of one work, like arXiv's ``v2``:

    >>> from citeledger.identifiers import normalize_doi
    >>> version_key(normalize_doi("10.6084/m9.figshare.5107054.v2"))
    'doi:10.6084/m9.figshare.5107054'
    >>> version_key(normalize_doi("10.21203/rs.2.18406/v1"))
    'doi:10.21203/rs.2.18406'
    >>> version_key(normalize_doi("10.1000/abc.v1"))  # other registrants: left alone
    'doi:10.1000/abc.v1'
    """
    return version_of(work_key(ident))


def version_of(key: str) -> str:
    """:func:`version_key` of an identifier whose work key is ``key`` (computed already).

    >>> version_of("doi:10.6084/m9.figshare.5107054.v2")
    'doi:10.6084/m9.figshare.5107054'
    """
    if key.startswith("doi:10.") and key[4 : key.find("/")] in _VERSIONED_REGISTRANTS:
        for pattern, repl in _VERSIONED_DOI:
            if pattern.match(key):
                return pattern.sub(repl, key)
    return key


def same_work(a: Identifier, b: Identifier) -> bool:
    """Whether two identifiers name the same work.

    True when they are equal, when both are versions of one arXiv paper, or when one is the
    arXiv DataCite DOI of the other. An explicit equivalence: the values are never rewritten.

    >>> same_work(normalize_arxiv("2104.07857v2"), normalize_doi("10.48550/arXiv.2104.07857"))
    True

    .. versionadded:: 0.1.0
    """
    return a == b or work_key(a) == work_key(b)


# --------------------------------------------------------------------------------------------
# Free-text extraction
# --------------------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class MalformedFragment:
    """Identifier-looking text that is not a valid identifier.

    Attributes:
        text: The fragment as it appears in the input (line breaks included).
        scheme: The scheme it looks like.
        reason: What is wrong, for people.
        start: Offset of the fragment in the input.
        end: Offset just past the fragment.

    .. versionadded:: 0.1.0
    """

    text: str
    scheme: Scheme
    reason: str
    start: int
    end: int


@attrs.frozen(kw_only=True)
class FoundIdentifiers:
    """What :func:`find_identifiers` found in a text.

    Attributes:
        identifiers: Valid identifiers in order of first appearance, without duplicates.
        malformed: Identifier-looking fragments that failed to parse, in order, with reasons.
        malformed_truncated: True when more than :data:`MAX_MALFORMED` fragments were seen and
            only the first ones are in ``malformed``.

    .. versionadded:: 0.1.0
    """

    identifiers: tuple[Identifier, ...] = ()
    malformed: tuple[MalformedFragment, ...] = ()
    malformed_truncated: bool = False


# One flat alternation of literal anchors (spelled with character classes rather than
# re.IGNORECASE, which measured twice as fast); boundaries are checked by hand, and each handler
# then scans forward. The loop resumes after whatever a handler consumed, so every character is
# looked at a bounded number of times whatever the input: no backtracking across the text.
_ANCHOR_RE: Final = re.compile(
    r"10\."
    r"|[dD][oO][iI]"
    r"|[aA][rR][xX][iI][vV]"
    r"|[pP][mM][iIcC]"
    r"|[cC][oO][rR][pP][uU][sS]"
    r"|[oO]pen[aA]lex\.org/"
    r"|[sS]emantic[sS]cholar\.org/"
    r"|ncbi\.nlm\.nih\.gov/"
    r"|/[0-9]"
)
_CORPUS_LABEL_RE: Final = re.compile(r"corpus[ _]?id(?!\w)", re.IGNORECASE)
_URL_HEAD_CHARS: Final = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.:/"
)
_ARCHIVE_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-")


def _is_word(c: str) -> bool:
    return c.isalnum() or c == "_"


_SPACE: Final = frozenset(" \t\r\n\f\v\u00a0")
# Characters that end a DOI suffix in running text (a DOI itself has none of these).
_DOI_STOP: Final = frozenset(' \t\r\n\f\v\u00a0"')
_TOKEN_STOP: Final = frozenset(' \t\r\n\f\v\u00a0"<>')
_URL_SCHEMES: Final = ("http://", "https://")
_GAP_RE: Final = re.compile(r"[ \t\r\n\f\v\u00a0]{1,12}")
# After a label: optional spaces, an optional colon, then a short gap (line breaks included).
_AFTER_LABEL_RE: Final = re.compile(r"[ \t\u00a0]{0,3}(:)?[ \t\r\n\f\v\u00a0]{0,12}")
_NUMBER_AFTER_LABEL_RE: Final = re.compile(
    r"[ \t\u00a0]{0,3}(:)?[ \t\r\n\f\v\u00a0]{0,12}([0-9]{0,17})"
)
_PMC_AFTER_LABEL_RE: Final = re.compile(
    r"[ \t\u00a0]{0,3}(:)?[ \t\r\n\f\v\u00a0]{0,12}(?:[pP][mM][cC])?([0-9]{0,17})"
)
# The registrant after "10.": digits with optional dotted sub-parts; '.' separates the repeats,
# so the match cannot backtrack.
_REGISTRANT_RE: Final = re.compile(r"([0-9]*)(?:\.[0-9]+)*")
# A token after a label or in a URL. Bounded: a label repeated without spaces ("doi:doi:...")
# is scanned from each occurrence, and an unbounded token would make that quadratic in the
# text's length. Real DOIs and URLs are far shorter than 1,024 characters.
_TOKEN_RE: Final = re.compile(r'[^\s"<>]{1,1024}')
# The longest arXiv id ("cond-mat.stat-mech/0512345v12") is far shorter than 64 characters.
_ARXIV_TOKEN_RE: Final = re.compile(r"[\w./-]{1,64}")
_HAS_DIGIT_RE: Final = re.compile(r"[0-9]")
#: At most this many malformed fragments are reported per text (a real reference has a few);
#: the cap bounds the output of adversarial input, and ``malformed_truncated`` says it was hit.
MAX_MALFORMED: Final = 1000


class _Scanner:
    """One pass over a text; collects identifiers and malformed fragments."""

    __slots__ = ("found", "malformed", "memo", "seen", "text", "truncated")

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: list[Identifier] = []
        self.seen: set[Identifier] = set()
        self.malformed: list[MalformedFragment] = []
        self.truncated = False
        # Repeated candidates (a reference list pasted twice, adversarial repetition) are
        # parsed once per scan.
        self.memo: dict[tuple[str, str], Identifier | InvalidIdentifier] = {}

    def attempt(
        self, kind: str, candidate: str, make: Callable[[str], Identifier]
    ) -> Identifier | InvalidIdentifier:
        key = (kind, candidate)
        result = self.memo.get(key)
        if result is None:
            try:
                result = make(candidate)
            except InvalidIdentifier as exc:
                result = exc
            self.memo[key] = result
        return result

    def add(self, ident: Identifier) -> None:
        if ident not in self.seen:
            self.seen.add(ident)
            self.found.append(ident)

    def bad(self, start: int, end: int, scheme: Scheme, reason: str) -> None:
        if len(self.malformed) >= MAX_MALFORMED:
            self.truncated = True
            return
        self.malformed.append(
            MalformedFragment(
                text=self.text[start:end], scheme=scheme, reason=reason, start=start, end=end
            )
        )

    def token_end(self, i: int) -> int:
        m = _TOKEN_RE.match(self.text, i)
        return m.end() if m else i

    def skip_space(self, i: int) -> tuple[int, bool]:
        """Skip at most a dozen whitespace characters; report whether a line break was seen."""
        m = _GAP_RE.match(self.text, i)
        if m is None:
            return i, False
        gap = m.group()
        return m.end(), "\n" in gap or "\r" in gap

    def line_break_join(self, i: int) -> int:
        """Past a whitespace gap containing a line break (PDF extraction), else ``i``."""
        j, newline = self.skip_space(i)
        return j if newline and j < len(self.text) and self.text[j] not in _SPACE else i

    # -- DOI ------------------------------------------------------------------------------
    def scan_doi(self, start: int, *, labelled: bool, label_start: int) -> int:
        text, n = self.text, len(self.text)
        frag_start = label_start if labelled else start
        i = start + 3
        # "(doi:10. \n1126/science.1082244)": the registrant moved to the next line.
        joined = self.line_break_join(i)
        if joined != i and text[joined].isdigit():
            i = joined
        pieces = [text[start : start + 3]]
        rm = _REGISTRANT_RE.match(text, i)
        j = rm.end() if rm else i
        ndigits = len(rm.group(1)) if rm else 0
        if ndigits < 4:
            if labelled:
                self.bad(frag_start, j, Scheme.DOI, "no valid registrant code after '10.'")
            return j
        pieces.append(text[i:j])
        if j < n and text[j] == "/":
            j += 1
        elif text[j : j + 3].lower() == "%2f":
            j += 3
        else:
            if j + 1 < n and text[j] == "." and text[j + 1].isalpha():
                end = len(_trim_trailing(text[: self.token_end(j)]))
                self.bad(
                    frag_start,
                    end,
                    Scheme.DOI,
                    "the '/' between prefix and suffix is missing (replaced by '.'?)",
                )
                return max(end, j)
            if labelled:
                self.bad(frag_start, j, Scheme.DOI, "DOI prefix with no '/' and no suffix")
            return j
        pieces.append("/")
        # "doi:10.1037/ \n1040-3590.17.3.379": the suffix moved to the next line.
        joined = self.line_break_join(j)
        if joined != j and text[joined] not in _DOI_STOP:
            j = joined
        while True:
            k = j
            while k < n and text[k] not in _DOI_STOP:
                # "10.1002/mar.10063https://doi.org/...": a URL glued to the DOI ends it;
                # "</a>" ends a DOI scraped from HTML.
                if k > j and (
                    (text[k] in "hH" and text[k : k + 8].lower().startswith(_URL_SCHEMES))
                    or (text[k] == "<" and text[k + 1 : k + 2] == "/")
                ):
                    break
                k += 1
            pieces.append(text[j:k])
            j = k
            # "...(1996)17:12<714::AID-\nMICR10>...": a DOI broken after a hyphen; the hyphen
            # is kept (typesetters break DOIs at their own hyphens, they do not add one).
            # "doi:10.1016/j. \ngaitpost.2004.05.005": broken after a '.', joined only when
            # the next line goes on in lower case (a new sentence or reference would not).
            if k < n and k > 0 and text[k - 1] in "-." and text[k] in _SPACE:
                joined = self.line_break_join(k)
                if joined != k and (
                    text[joined].islower() or (text[k - 1] == "-" and text[joined].isalnum())
                ):
                    j = joined
                    continue
            break
        raw = "".join(pieces)
        candidate = _trim_trailing(raw)
        end = j - (len(raw) - len(candidate))
        if candidate.endswith("/"):
            self.bad(frag_start, end, Scheme.DOI, "empty suffix after the '/'")
            return j
        result = self.attempt("doi", candidate, normalize_doi)
        if isinstance(result, InvalidIdentifier):
            self.bad(frag_start, end, Scheme.DOI, result.reason)
        else:
            self.add(result)
        return j

    def scan_doi_label(self, start: int, end: int) -> int:
        text, n = self.text, len(self.text)
        if text[end : end + 5].lower() == ".org/":
            return end  # a doi.org URL: the "10." anchor right after handles the DOI
        lm = _AFTER_LABEL_RE.match(text, end)
        colon = lm is not None and lm.group(1) is not None
        k = lm.end() if lm else end
        if text[k : k + 3] == "10.":
            return self.scan_doi(k, labelled=True, label_start=start)
        if not colon:
            return end  # "Doi K, ..." is a surname, not a label
        tok_end = self.token_end(k)
        token = text[k:tok_end]
        low = token.lower()
        if low.startswith(("http", "doi", "dx.doi", "www.")):
            return k  # a URL or a repeated label: the anchors inside handle it
        if not _trim_trailing(token):
            self.bad(start, min(k, n), Scheme.DOI, "'doi:' label with no DOI after it")
            return k
        self.bad(start, tok_end, Scheme.DOI, f"'doi:' label followed by {token!r}, not '10.'")
        return tok_end

    # -- arXiv ----------------------------------------------------------------------------
    def arxiv_token_end(self, i: int) -> int:
        m = _ARXIV_TOKEN_RE.match(self.text, i)
        return m.end() if m else i

    def scan_arxiv_token(self, frag_start: int, k: int) -> int:
        text = self.text
        tok_end = self.arxiv_token_end(k)
        token = _trim_trailing(text[k:tok_end])
        if not _HAS_DIGIT_RE.search(token):
            return max(k, tok_end) if token else k
        end = k + len(token)
        # ".../pdf/2104.07857v2.pdf" keeps its ".pdf"; the normaliser handles it.
        result = self.attempt("arxiv", token, normalize_arxiv)
        if isinstance(result, InvalidIdentifier):
            self.bad(frag_start, end, Scheme.ARXIV, result.reason)
        else:
            self.add(result)
        return tok_end

    def scan_arxiv_label(self, start: int, end: int) -> int:
        text, n = self.text, len(self.text)
        if text[end : end + 5].lower() == ".org/":
            k = end + 5
            low = text[k : k + 8].lower()
            for path in _ARXIV_PATHS:
                if low.startswith(path):
                    return self.scan_arxiv_token(start, k + len(path))
            return k
        lm = _AFTER_LABEL_RE.match(text, end)
        k = lm.end() if lm else end
        if k == end:
            return end  # "arXiv.", "arXiv,": not a label
        if k < n and (text[k].isdigit() or text[k].isalpha()):
            return self.scan_arxiv_token(start, k)
        return k

    # -- numeric labels -------------------------------------------------------------------
    def scan_number_label(self, start: int, end: int, scheme: Scheme) -> int:
        text = self.text
        pattern = _PMC_AFTER_LABEL_RE if scheme is Scheme.PMCID else _NUMBER_AFTER_LABEL_RE
        lm = pattern.match(text, end)
        if lm is None:  # cannot happen: every part of the pattern is optional
            return end
        colon = lm.group(1) is not None
        k, j = lm.span(2)
        if j == k:
            if colon:
                self.bad(start, self.token_end(k), scheme, f"'{text[start:end]}:' without a number")
            return k
        result = self.attempt(scheme.value, text[k:j], partial(parse_identifier, scheme=scheme))
        if isinstance(result, InvalidIdentifier):
            self.bad(start, j, scheme, result.reason)
        else:
            self.add(result)
        return j

    def scan_url(self, start: int, floor: int) -> int:
        text = self.text
        # Walk back over "https://www." / "api." / "pubmed." so the whole URL is parsed.
        head = start
        while head > floor and start - head < 16 and text[head - 1] in _URL_HEAD_CHARS:
            head -= 1
        tok_end = self.token_end(start)
        token = _trim_trailing(text[head:tok_end])
        result = self.attempt("url", token, parse_identifier)
        if not isinstance(result, InvalidIdentifier):
            self.add(result)
        elif result.scheme is not None:  # an identifier URL gone wrong, not just any ncbi page
            self.bad(head, head + len(token), _exc_scheme(result), result.reason)
        return tok_end

    def old_arxiv_start(self, slash: int, floor: int) -> int | None:
        """Start of ``archive[.SUBJ]`` ending at ``slash``, when it names an arXiv archive."""
        text = self.text
        i = slash
        while i > floor and slash - i < 24 and text[i - 1] in _ARCHIVE_CHARS:
            i -= 1
        if i > 0 and (_is_word(text[i - 1]) or text[i - 1] in "./-"):
            return None
        while i < slash and text[i] in ".-":
            i += 1
        if text[i:slash].partition(".")[0].lower() in ARXIV_ARCHIVES:
            return i
        return None

    def run(self) -> FoundIdentifiers:
        text = self.text
        n = len(text)
        pos = 0
        while True:
            m = _ANCHOR_RE.search(text, pos)
            if m is None:
                break
            start, end = m.start(), m.end()
            before = text[start - 1] if start else " "
            after = text[end] if end < n else " "
            first = text[start]
            # A declined anchor resumes one character on: anchors may overlap ("org/10.").
            nxt = start + 1
            if first == "1":
                if not (_is_word(before) or before == "."):
                    nxt = self.scan_doi(start, labelled=False, label_start=start)
            elif first in "dD":
                if not (_is_word(before) or before == "/") and not (
                    _is_word(after) or after == "-"
                ):
                    nxt = self.scan_doi_label(start, end)
            elif first in "aA":
                if not _is_word(before) and not (_is_word(after) or after == "-"):
                    nxt = self.scan_arxiv_label(start, end)
            elif first in "pP":
                if not (_is_word(before) or before == "/"):
                    nxt = self.scan_pm(start, end)
            elif first in "cC":
                lm = _CORPUS_LABEL_RE.match(text, start)
                if lm and not (_is_word(before) or before == "/"):
                    nxt = self.scan_number_label(start, lm.end(), Scheme.CORPUSID)
            elif first == "/":
                arch = self.old_arxiv_start(start, pos)
                if arch is not None:
                    nxt = self.scan_arxiv_token(arch, arch)
            else:
                nxt = self.scan_url(start, pos)
            pos = max(nxt, start + 1)
        return FoundIdentifiers(
            identifiers=tuple(self.found),
            malformed=tuple(self.malformed),
            malformed_truncated=self.truncated,
        )

    def scan_pm(self, start: int, end: int) -> int:
        """``PMID``, ``PMCID`` labels and bare ``PMC123``."""
        text, n = self.text, len(self.text)
        low = text[start : start + 5].lower()
        if low.startswith("pmid") and not (start + 4 < n and _is_word(text[start + 4])):
            return self.scan_number_label(start, start + 4, Scheme.PMID)
        if low == "pmcid" and not (start + 5 < n and _is_word(text[start + 5])):
            return self.scan_number_label(start, start + 5, Scheme.PMCID)
        if low.startswith("pmc") and start + 3 < n and text[start + 3].isdigit():
            return self.scan_number_label(start, start + 3, Scheme.PMCID)
        return end


def _exc_scheme(exc: InvalidIdentifier) -> Scheme:
    """The scheme an :class:`InvalidIdentifier` was about, defaulting to DOI."""
    try:
        return Scheme(exc.scheme) if exc.scheme else Scheme.DOI
    except ValueError:
        return Scheme.DOI


def find_identifiers(text: str) -> FoundIdentifiers:
    """Every identifier in a free-text reference string, plus malformed look-alikes.

    Finds DOIs (bare ``10.…/…``, after ``doi:``/``DOI``, in doi.org URLs), arXiv ids after
    ``arXiv:`` or in arxiv.org URLs, bare old-style arXiv ids (``hep-th/9901001``: the archive
    name makes them unmistakable; bare new-style ``YYMM.NNNNN`` is *not* taken, since a
    decimal number looks the same), ``PMID:``, ``PMCID:``/``PMC…``, ``CorpusId:`` and
    OpenAlex / Semantic Scholar / PubMed URLs.

    PDF line breaks are repaired only where the identifier would otherwise be incomplete: a
    whitespace gap containing a line break right after ``10.`` or after the ``/``, after a
    ``-`` inside the suffix (the hyphen is kept), or after a ``.`` inside the suffix when the
    next line goes on in lower case (``10.1016/j.`` / ``gaitpost.2004.05.005``). A DOI is never
    joined across a plain space.

    Reported as malformed (with a reason): a ``doi:`` label followed by something that is not a
    DOI (or nothing), ``10.<registrant>`` without a ``/``, a ``/`` replaced by a ``.``
    (``10.1016.j.cell.2009.01.002``), an empty suffix, known-truncated publisher DOIs, and
    labelled arXiv ids that are impossible (month 13, truncated, too early).

    Runs in linear time.

    Example:
        >>> found = find_identifiers("Nature 1999. doi:10.1038/1234 [arXiv:1913.01234]")
        >>> [str(x) for x in found.identifiers]
        ['doi:10.1038/1234']
        >>> [(f.text, f.reason) for f in found.malformed]
        [('arXiv:1913.01234', 'month 13 is not a month (01-12)')]

    .. versionadded:: 0.1.0
    """
    if not isinstance(text, str):
        raise InvalidIdentifier(repr(text), "the text to search must be a string", None)
    return _Scanner(text).run()
