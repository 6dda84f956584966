"""The typed data model of citeledger.

Every value is a frozen, slotted, keyword-only attrs class with tuple fields. ``__init__`` stays
dumb: converters tidy what users naturally pass (lists, plain strings, ISO times), validators check
invariants, and foreign formats (Crossref JSON, JATS XML, ...) go through the source adapters, never
through the model.

The ledger vocabulary follows the paper citation record (``pith.paper-citation-record.v1``): a
:class:`Resolution` has one of six :class:`ResolutionState` values; an :class:`Observation` is one
sighting of a citation by one source; a :class:`NoticeCheck` distinguishes "events found", "none
found in the named sources as of T" and "unavailable"; a :class:`Measurement` is one source's dated
count and is never combined with another source's.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
import enum
import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import attrs
from attrs import field, frozen

from citeledger._text import key_text, strip_marks
from citeledger.errors import (
    CiteledgerError,
    IncompatibleMeasurements,
    ModelError,
    NaiveDatetimeError,
)
from citeledger.identifiers import (
    IDENTIFIER_TYPES,
    Identifier,
    MalformedFragment,
    Scheme,
    parse_identifier,
    work_key,
)
from citeledger.refparse import (
    ParsedReference,
    is_et_al_only,
    parse_reference,
    split_author_string,
    split_name,
)

__all__ = [
    "OBSERVATION_NAMESPACE",
    "Agreement",
    "Author",
    "CheckStatus",
    "Coverage",
    "CoverageState",
    "Direction",
    "Event",
    "EventKind",
    "Evidence",
    "Facet",
    "InboundCheck",
    "Measurement",
    "MeasurementKind",
    "Method",
    "NotChecked",
    "NoticeCheck",
    "NoticeStatus",
    "Observation",
    "Paper",
    "Reference",
    "Relation",
    "RelationKind",
    "Resolution",
    "ResolutionState",
    "WorkType",
    "replace",
    "utc",
]

#: Namespace of the deterministic observation ids (UUIDv5).
OBSERVATION_NAMESPACE = uuid.UUID("6b1c3f0e-5d0a-5c55-9d5e-6369746c6564")


# --------------------------------------------------------------------------- enums


class ResolutionState(enum.StrEnum):
    """The six states of a reference resolution, as in the ledger's reference table."""

    #: A valid identifier found in the catalog, and the metadata agree.
    VERIFIED_EXACT = "verified_exact"
    #: No usable identifier; the best fuzzy candidate passed every threshold, clearly ahead.
    VERIFIED_FUZZY = "verified_fuzzy"
    #: No candidate, below threshold, or ambiguous between look-alikes.
    UNRESOLVED = "unresolved"
    #: Too little could be parsed out of the reference to try.
    PARSE_UNCERTAIN = "parse_uncertain"
    #: An identifier-looking fragment is malformed and no other route verified the reference.
    MALFORMED_IDENTIFIER = "malformed_identifier"
    #: A valid identifier found in the catalog whose metadata clearly disagree.
    METADATA_MISMATCH = "metadata_mismatch"

    @property
    def verified(self) -> bool:
        """Whether this state claims a match."""
        return self in (ResolutionState.VERIFIED_EXACT, ResolutionState.VERIFIED_FUZZY)

    @property
    def label(self) -> str:
        """Human label as printed in the ledger ("verified exact")."""
        return self.value.replace("_", " ")


class Method(enum.StrEnum):
    """How a resolution was reached: by which identifier scheme, fuzzily, or not at all."""

    DOI = "doi"
    ARXIV_ID = "arxiv_id"
    PMID = "pmid"
    PMCID = "pmcid"
    OPENALEX = "openalex"
    S2 = "s2"
    CORPUSID = "corpusid"
    FUZZY_TITLE = "fuzzy_title"
    #: No title: the journal, volume and first page found the work, the year or the authors
    #: confirmed it (references as physics and chemistry print them, "Phys. Rev. 47, 777").
    JOURNAL_VOLUME_PAGE = "journal_volume_page"
    NO_RESOLVER_LINK = "no_resolver_link"

    @classmethod
    def for_scheme(cls, scheme: Scheme | str) -> Method:
        """The method of resolving by an identifier of ``scheme``."""
        return _SCHEME_METHOD[Scheme(scheme)]

    @property
    def label(self) -> str:
        """Human label as printed in the ledger ("arxiv_id", "no resolver link")."""
        return "no resolver link" if self is Method.NO_RESOLVER_LINK else self.value


_SCHEME_METHOD = {
    Scheme.DOI: Method.DOI,
    Scheme.ARXIV: Method.ARXIV_ID,
    Scheme.PMID: Method.PMID,
    Scheme.PMCID: Method.PMCID,
    Scheme.OPENALEX: Method.OPENALEX,
    Scheme.S2: Method.S2,
    Scheme.CORPUSID: Method.CORPUSID,
}


class Agreement(enum.StrEnum):
    """How one field of a reference agrees with a candidate's."""

    AGREE = "agree"
    PARTIAL = "partial"
    DISAGREE = "disagree"
    MISSING = "missing"


class WorkType(enum.StrEnum):
    """Kind of work, coarse enough to compare across sources."""

    ARTICLE = "article"
    PREPRINT = "preprint"
    PROCEEDINGS_ARTICLE = "proceedings_article"
    BOOK = "book"
    CHAPTER = "chapter"
    DATASET = "dataset"
    THESIS = "thesis"
    REPORT = "report"
    SOFTWARE = "software"
    NOTICE = "notice"
    OTHER = "other"


class RelationKind(enum.StrEnum):
    """A link from one work to another, as sources assert it."""

    PREPRINT_OF = "preprint_of"
    HAS_PREPRINT = "has_preprint"
    VERSION_OF = "version_of"
    HAS_VERSION = "has_version"
    SAME_AS = "same_as"


class Direction(enum.StrEnum):
    """Which way an observation points relative to the record's paper."""

    INBOUND = "inbound"
    OUTBOUND = "outbound"


class CheckStatus(enum.StrEnum):
    """Whose word an inbound observation's state is: our check, no check, or the source's.

    .. versionadded:: 0.2.0
    """

    #: The citing work's own reference list was read and every entry resolved against the
    #: paper's small catalog: the state is citeledger's (the resolver's same rules as outbound).
    CHECKED = "checked"
    #: The citing work's reference list could not be had (see :class:`NotChecked`): the source
    #: lists the work as citing, nothing more is claimed (no resolution).
    NOT_CHECKED = "not_checked"
    #: Checking was switched off (``check_inbound=False``): the state is the listing source's.
    ASSERTED = "asserted"


class NotChecked(enum.StrEnum):
    """Why a citing work's reference list was not read.

    .. versionadded:: 0.2.0
    """

    #: No source offers the citing work's reference list in order, by any of its identifiers.
    NO_SOURCE = "no_source"
    #: A source that has the list failed to send it (after the transport's retries).
    FETCH_FAILED = "fetch_failed"
    #: The citing work lies beyond the disclosed check cap.
    CAP = "cap"

    @property
    def label(self) -> str:
        """Human label ("no source has the reference list")."""
        return _NOT_CHECKED_LABELS[self]


_NOT_CHECKED_LABELS = {
    NotChecked.NO_SOURCE: "no source has the reference list",
    NotChecked.FETCH_FAILED: "reference list fetch failed",
    NotChecked.CAP: "beyond the disclosed check cap",
}


class EventKind(enum.StrEnum):
    """Source-reported events about a work."""

    RETRACTION = "retraction"
    CORRECTION = "correction"
    EXPRESSION_OF_CONCERN = "expression_of_concern"
    WITHDRAWAL = "withdrawal"
    ERRATUM = "erratum"
    REINSTATEMENT = "reinstatement"
    ADDENDUM = "addendum"
    OTHER = "other"


class NoticeStatus(enum.StrEnum):
    """Outcome of checking sources for events about a work."""

    EVENTS_FOUND = "events_found"
    #: None found in the named sources as of the check time: not the same as unavailable.
    NONE_FOUND = "none_found"
    UNAVAILABLE = "unavailable"


class MeasurementKind(enum.StrEnum):
    """What a measurement counts."""

    CITED_BY = "cited_by"
    REFERENCES = "references"
    INFLUENTIAL_CITED_BY = "influential_cited_by"


class Facet(enum.StrEnum):
    """The facets of a citation record's coverage vector."""

    REFERENCE_RESOLUTION = "reference_resolution"
    STANDING_NOTICES = "standing_notices"
    INBOUND_ITEMIZATION = "inbound_itemization"
    #: Citing works whose own reference list was read and checked (``.. versionadded:: 0.2.0``).
    INBOUND_RESOLUTION = "inbound_resolution"
    EXTERNAL_CITATION_MEASUREMENTS = "external_citation_measurements"


class CoverageState(enum.StrEnum):
    """How completely a facet was measured."""

    COMPLETE = "complete"
    PARTIAL = "partial"
    UNAVAILABLE = "unavailable"
    NOTHING_TO_MEASURE = "nothing_to_measure"


# --------------------------------------------------------------------------- converters


def utc(value: dt.datetime | str) -> dt.datetime:
    """Return ``value`` as an aware UTC datetime; reject naive ones.

    Accepts an aware :class:`datetime.datetime` or an ISO-8601 string with an offset (``Z`` too).

    >>> utc("2026-08-08T06:32:00.761636+00:00").isoformat()
    '2026-08-08T06:32:00.761636+00:00'

    Raises:
        NaiveDatetimeError: the value has no timezone.
    """
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value.strip())
        except ValueError as exc:
            raise ModelError(f"not an ISO-8601 time: {value!r}") from exc
    if not isinstance(value, dt.datetime):
        raise ModelError(f"expected a datetime, got {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise NaiveDatetimeError(
            f"naive datetime {value.isoformat()} has no timezone; pass an aware UTC time "
            "(e.g. datetime.now(timezone.utc))"
        )
    return value.astimezone(dt.UTC)


def _opt_utc(value: dt.datetime | str | None) -> dt.datetime | None:
    return None if value is None else utc(value)


def _opt_date(value: dt.date | str | None) -> dt.date | None:
    if value is None or value == "":
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    text = str(value).strip()
    try:
        return dt.date.fromisoformat(text[:10])
    except ValueError as exc:
        raise ModelError(f"not an ISO-8601 date: {value!r}") from exc


def _identifier(value: Identifier | str) -> Identifier:
    if isinstance(value, IDENTIFIER_TYPES):
        return value
    if isinstance(value, str):
        return parse_identifier(value)
    raise ModelError(f"expected an identifier or a string, got {type(value).__name__}")


def _opt_identifier(value: Identifier | str | None) -> Identifier | None:
    return None if value is None else _identifier(value)


def _identifiers(
    values: Iterable[Identifier | str] | Identifier | str | None,
) -> tuple[Identifier, ...]:
    if values is None:
        return ()
    if type(values) is tuple and all(type(v) in IDENTIFIER_TYPES for v in values):
        # Fast path (the parser passes typed tuples): nothing to convert, only duplicates to drop.
        typed = cast("tuple[Identifier, ...]", values)
        if len(set(typed)) == len(typed):
            return typed
    items: Iterable[Identifier | str]
    if isinstance(values, (str, *IDENTIFIER_TYPES)):
        items = [cast("Identifier | str", values)]
    else:
        items = cast("Iterable[Identifier | str]", _iterable(values, "identifiers"))
    out: list[Identifier] = []
    for v in items:
        ident = _identifier(v)
        if ident not in out:
            out.append(ident)
    return tuple(out)


def _iterable(values: object, what: str) -> Iterable[Any]:
    """``values`` when it is a collection of items; a clear error for a number, bytes, ..."""
    # bytes iterate as ints and a dict as its keys: both silently read the wrong thing.
    if isinstance(values, bytes | bytearray | Mapping) or not isinstance(values, Iterable):
        raise ModelError(f"{what}: expected a list, got {type(values).__name__}")
    return values


def _strs(values: Iterable[str] | str | None) -> tuple[str, ...]:
    if values is None or (type(values) is tuple and not values):
        return ()
    if isinstance(values, str):
        return (values,)
    return tuple(_text(v, "a list item") for v in _iterable(values, "strings"))


#: A lone UTF-16 surrogate (JSON "\\ud800" decodes to one): no character, and a string holding
#: one cannot be written as UTF-8, so it becomes U+FFFD REPLACEMENT CHARACTER.
_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def _text(value: object, what: str) -> str:
    # Numbers read as text ("12" for a volume); a list, a dict or bytes would become "[...]".
    if isinstance(value, str):
        return value if value.isascii() else _SURROGATE_RE.sub("\ufffd", value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise ModelError(f"{what}: expected a string, got {type(value).__name__}")


def _opt_str(value: object) -> str | None:
    if value is None:
        return None
    text = " ".join(_text(value, "text field").split())
    return text or None


def _opt_position(value: object) -> int | None:
    position = _opt_int(value)
    if position is not None and position < 1:
        raise ModelError(f"reference positions are 1-based, got {position}")
    return position


def _count(value: object) -> int:
    """A count: an int (or digit string); never a bool, and never a truncated float."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    count = _opt_int(value)
    if count is None:
        raise ModelError("expected a count, got nothing")
    return count


def _opt_count(value: object) -> int | None:
    return None if value is None else _count(value)


def _opt_int(value: object) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ModelError("expected an integer, got a bool")
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if text.isdigit():
        return int(text)
    raise ModelError(f"expected an integer, got {value!r}")


_YEAR_RE = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d|21\d\d)(?!\d)")

#: The plausible range of a publication year, both ends included: a number outside it (10**30,
#: -5) is refused (:class:`~citeledger.errors.ModelError`), never stored. Years read out of
#: text ("(2021)", "2021a") are 1500-2199.
YEAR_RANGE: tuple[int, int] = (1000, 2199)


def _bounded_year(year: int) -> int:
    low, high = YEAR_RANGE
    if not low <= year <= high:
        shown = str(year) if abs(year) < 10**12 else f"a {len(str(abs(year)))}-digit number"
        raise ModelError(f"year: {shown} is outside the plausible range {low}-{high}")
    return year


def _year_value(value: object) -> int | None:
    """Accept 2021, "2021", "(2021)", "2021a", "c. 2021"; text with no year -> None.

    A value that is not text or a number at all (a list, bytes, a float with a fraction) is an
    error rather than a year quietly lost or truncated; a number outside :data:`YEAR_RANGE`
    too.
    """
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return _bounded_year(value)
    if isinstance(value, float):
        if value.is_integer():
            return _bounded_year(int(value))
        raise ModelError(f"year: expected a whole number, got {value!r}")
    if not isinstance(value, str):
        raise ModelError(f"year: expected a number or a string, got {type(value).__name__}")
    m = _YEAR_RE.search(value)
    return int(m.group(1)) if m else None


def _year(value: object) -> int | None:
    """A paper's year: as :func:`_year_value`, but text holding no year is refused.

    A :class:`Paper` has no place to keep unreadable text (a :class:`Reference` keeps it in
    ``extra``), so ``Paper(year="abc")`` raises instead of quietly storing None.
    """
    year = _year_value(value)
    if year is None and isinstance(value, str) and value.strip():
        words = " ".join(value.lower().replace(".", " ").split())
        if words not in NO_YEAR_WORDS:
            raise ModelError(f"year: no year in {value[:40]!r}")
    return year


#: Text that says "no year (yet)" and so gives ``Paper.year`` None; any other text without a
#: year is refused. Compared lower-cased, dots as spaces, whitespace folded.
NO_YEAR_WORDS = frozenset({"forthcoming", "in press", "n d", "nd", "no date", "undated"})


def _extra(
    value: Mapping[str, object] | Iterable[tuple[str, object]] | None,
) -> tuple[tuple[str, str], ...]:
    if value is None or (type(value) is tuple and not value):
        return ()
    items = value.items() if isinstance(value, Mapping) else _iterable(value, "extra")
    out = []
    for item in items:
        if isinstance(item, str | bytes) or not isinstance(item, Sequence) or len(item) != 2:
            raise ModelError(f"extra: expected (name, value) pairs, got {item!r}")
        out.append((str(item[0]), str(item[1])))
    return tuple(out)


# --------------------------------------------------------------------------- authors

_ORCID_URL_RE = re.compile(r"^(?:https?://)?(?:www\.)?orcid\.org/", re.IGNORECASE)


def _orcid(value: object) -> str | None:
    """Keep the bare iD: sources give "https://orcid.org/0000-..." (Crossref) or the iD alone."""
    if value is None:
        return None
    text = _opt_str(value)
    if text is None:
        return None
    return _ORCID_URL_RE.sub("", text).upper() or None


@frozen(kw_only=True)
class Author:
    """One author of a work.

    Args:
        family: Family name ("Rajbhandari"), if known.
        given: Given names or initials ("Samyam", "S."), if known.
        raw: The name exactly as the source gave it.
        orcid: ORCID iD (``0000-0002-1825-0097``) without URL, if given.
        affiliations: Affiliations as the source gives them (arXiv ``arxiv:affiliation``,
            OpenAlex institutions), verbatim.

    Use :meth:`from_string` to split a display name.
    """

    family: str | None = field(default=None, converter=_opt_str)
    given: str | None = field(default=None, converter=_opt_str)
    raw: str | None = field(default=None, converter=_opt_str)
    orcid: str | None = field(default=None, converter=_orcid)
    affiliations: tuple[str, ...] = field(default=(), converter=_strs)

    @classmethod
    def from_string(cls, name: str) -> Author:
        """Split a display name into family and given names.

        Handles "Family, Given", "Given Family", "Family GI" (Vancouver initials after the name)
        and "G. Family".

        >>> Author.from_string("Rajbhandari S")
        Author(family='Rajbhandari', given='S', raw='Rajbhandari S', orcid=None, affiliations=())
        >>> Author.from_string("Samyam Rajbhandari").family
        'Rajbhandari'
        >>> Author.from_string("Rajbhandari, Samyam").given
        'Samyam'
        """
        if not isinstance(name, str):
            msg = f"expected a name string, got {type(name).__name__}"
            raise ModelError(msg)
        parts = split_name(name)
        return cls(family=parts.family, given=parts.given, raw=parts.raw)

    @classmethod
    def _from_clean(cls, family: str | None, given: str | None, raw: str | None) -> Author:
        """Build an Author from values the converters would leave unchanged, skipping them.

        The reference parser's fast path: each value must already be ``None`` or a non-empty
        string with whitespace collapsed, so the result equals ``Author(family=..., given=...,
        raw=...)`` (tests/test_parse_properties.py checks this on real strings).
        """
        self = object.__new__(cls)
        setattr_ = object.__setattr__  # frozen: the same bypass attrs' own __init__ uses
        setattr_(self, "family", family)
        setattr_(self, "given", given)
        setattr_(self, "raw", raw)
        setattr_(self, "orcid", None)
        setattr_(self, "affiliations", ())
        return self

    @property
    def name(self) -> str:
        """A display name: the raw name when given, else "Given Family"."""
        if self.raw:
            return self.raw
        return " ".join(p for p in (self.given, self.family) if p)

    @property
    def family_key(self) -> str:
        """Lower-case, accent-free family name for comparisons ("" when unknown)."""
        base = self.family or (self.raw.split()[-1] if self.raw else "")
        return strip_marks(base).casefold()

    @property
    def initials(self) -> str:
        """Lower-case initials of the given names ("sa" for "Samyam A.")."""
        given = self.given or ""
        letters = [p[0] for p in re.split(r"[\s.\-]+", strip_marks(given)) if p]
        if (
            len(letters) == 1
            and given.replace(".", "").isupper()
            and len(given.replace(".", "")) <= 4
        ):
            letters = list(given.replace(".", "").replace(" ", ""))
        return "".join(letters).casefold()


def _author(value: Author | str | Mapping[str, Any]) -> Author:
    if isinstance(value, Author):
        return value
    if isinstance(value, str):
        return Author.from_string(value)
    if isinstance(value, Mapping):
        unknown = sorted(str(k) for k in value if k not in _AUTHOR_FIELDS)
        if unknown:
            raise ModelError(f"author: unknown field(s) {', '.join(unknown)}")
        return Author(**value)
    raise ModelError(f"expected an Author or a name, got {type(value).__name__}")


_AUTHOR_FIELDS = frozenset(a.name for a in attrs.fields(Author))


def _authors(
    values: Iterable[Author | str | Mapping[str, Any]] | Author | str | None,
) -> tuple[Author, ...]:
    """Accept a list of names/Authors, or one string "a , b , c" / "A and B".

    A trailing "et al." is dropped: it names no author.
    """
    if values is None:
        return ()
    if isinstance(values, str):
        return tuple(Author.from_string(n) for n in split_author_string(values))
    if isinstance(values, Author):
        return (values,)
    if type(values) is tuple and all(type(v) is Author for v in values):
        # Fast path (the parser passes a tuple of Authors): nothing to convert or drop.
        return cast("tuple[Author, ...]", values)
    return tuple(
        _author(v)
        for v in _iterable(values, "authors")
        if not (isinstance(v, str) and is_et_al_only(v))
    )


# --------------------------------------------------------------------------- works


@frozen(kw_only=True)
class Relation:
    """A link from a work to another, e.g. a preprint to its published version.

    Args:
        kind: What the link says.
        identifier: The other work.
        source: Who asserted it ("crossref").
    """

    kind: RelationKind = field(converter=RelationKind)
    identifier: Identifier = field(converter=_identifier)
    source: str | None = None


def _relations(values: Iterable[Relation | Mapping[str, Any]] | None) -> tuple[Relation, ...]:
    if values is None:
        return ()
    return tuple(_relation(v) for v in _iterable(values, "related"))


def _relation(value: Relation | Mapping[str, Any]) -> Relation:
    if isinstance(value, Relation):
        return value
    if not isinstance(value, Mapping):
        raise ModelError(f"related: expected a Relation, got {type(value).__name__}")
    try:
        return Relation(**value)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, CiteledgerError):
            raise
        raise ModelError(f"related: {exc}") from None


def _work_type(value: WorkType | str | None) -> WorkType | None:
    if value is None:
        return None
    try:
        return WorkType(value)
    except ValueError:
        allowed = ", ".join(repr(m.value) for m in WorkType)
        raise ModelError(f"work_type: expected one of {allowed}, got {value!r}") from None


def _title(value: object) -> str | None:
    # A title is text: a number (title=5) is a wrong shape, not the title "5".
    if value is not None and not isinstance(value, str):
        raise ModelError(f"title: expected a string, got {type(value).__name__}")
    return _opt_str(value)


_SCHEME_PRIORITY = {
    Scheme.DOI: 0,
    Scheme.ARXIV: 1,
    Scheme.PMID: 2,
    Scheme.PMCID: 3,
    Scheme.OPENALEX: 4,
    Scheme.S2: 5,
    Scheme.CORPUSID: 6,
}


@frozen(kw_only=True)
class Paper:
    """A scholarly work as one or more sources describe it.

    Args:
        identifiers: Every identifier of the work (strings are parsed).
        title: The title.
        authors: Authors, as :class:`Author` values or names (one string "A and B" is split).
        year: Publication year (strings such as "2021" are accepted).
        date: Publication or first-posted date.
        venue: Journal, proceedings or repository.
        volume: Volume.
        issue: Issue.
        pages: Page range ("1-14") or article number.
        work_type: Kind of work.
        areas: Subject areas or categories (arXiv categories, OpenAlex topics).
        abstract: The abstract.
        related: Links to other versions (preprint of, version of, ...).
        source: Which source described the work.
    """

    identifiers: tuple[Identifier, ...] = field(default=(), converter=_identifiers)
    title: str | None = field(default=None, converter=_title)
    authors: tuple[Author, ...] = field(default=(), converter=_authors)
    year: int | None = field(default=None, converter=_year)
    date: dt.date | None = field(default=None, converter=_opt_date)
    venue: str | None = field(default=None, converter=_opt_str)
    volume: str | None = field(default=None, converter=_opt_str)
    issue: str | None = field(default=None, converter=_opt_str)
    pages: str | None = field(default=None, converter=_opt_str)
    work_type: WorkType | None = field(default=None, converter=_work_type)
    areas: tuple[str, ...] = field(default=(), converter=_strs)
    abstract: str | None = field(default=None, converter=_opt_str, repr=False)
    related: tuple[Relation, ...] = field(default=(), converter=_relations)
    source: str | None = None

    @property
    def first_page(self) -> str | None:
        """The first page of :attr:`pages` ("1" of "1-14")."""
        if not self.pages:
            return None
        return re.split(r"\s*[-–—]\s*", self.pages, maxsplit=1)[0] or None

    def identifier(self, scheme: Scheme | str) -> Identifier | None:
        """The first identifier of ``scheme``, or None."""
        wanted = Scheme(scheme)
        for ident in self.identifiers:
            if ident.scheme == wanted:
                return ident
        return None

    @property
    def key(self) -> str:
        """A stable key of the work: its best identifier's work key, else title and year.

        arXiv versions and arXiv DataCite DOIs share one key.
        """
        if self.identifiers:
            best = min(self.identifiers, key=lambda i: _SCHEME_PRIORITY[i.scheme])
            return work_key(best)
        return f"title:{key_text(self.title)}|{self.year or ''}"

    @property
    def work_keys(self) -> frozenset[str]:
        """Work keys of every identifier (and related works' identifiers are not included)."""
        return frozenset(work_key(i) for i in self.identifiers)


def _opt_float(value: object) -> float | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ModelError("expected a number, got a bool")
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError) as exc:
        raise ModelError(f"expected a number, got {value!r}") from exc


def _opt_confidence(value: object) -> float | None:
    confidence = _opt_float(value)
    if confidence is not None and not 0.0 <= confidence <= 1.0:
        raise ModelError(f"parse_confidence must be within 0-1, got {confidence}")
    return confidence


def _year_input(value: int | str | None) -> int | None:
    # Strings pass through untouched here; ``Reference.__attrs_post_init__`` reads the year
    # out of them and keeps the raw text in ``extra`` so nothing is dropped. Numbers must lie
    # in YEAR_RANGE.
    if isinstance(value, int) and not isinstance(value, bool):
        return _bounded_year(value)
    return cast("int | None", value)


def _opt_raw(_: object, __: attrs.Attribute[str | None], value: object) -> None:
    # The string exactly as printed: kept as given, so never converted, only checked.
    if value is not None and not isinstance(value, str):
        raise ModelError(f"raw: expected the reference string, got {type(value).__name__}")


def _malformed(values: Iterable[MalformedFragment] | None) -> tuple[MalformedFragment, ...]:
    if values is None:
        return ()
    items = values if type(values) is tuple else tuple(_iterable(values, "malformed"))
    for item in items:
        if not isinstance(item, MalformedFragment):
            msg = f"malformed: expected MalformedFragment values, got {type(item).__name__}"
            raise ModelError(msg)
    return items


def _opt_reason(value: object) -> str | None:
    # A reason is kept as its writer worded it (an empty one still marks the entry).
    return None if value is None else _text(value, "reason")


@frozen(kw_only=True)
class Reference:
    """One entry of a citing paper's reference list, parsed or structured.

    Args:
        position: 1-based position in the citing paper's list ("Reference 56").
        raw: The reference string as printed, when there was one.
        key: The publisher's key for the entry ("ref1", "BFsrep16696_CR1").
        title: Title of the cited work.
        authors: Authors (a list, or one string "a , b , c" / "A and B").
        year: Year (strings such as "2021a" are accepted; unusable values go to ``extra``).
        venue: Journal, proceedings or series.
        volume: Volume.
        issue: Issue.
        first_page: First page or article number.
        last_page: Last page.
        identifiers: Valid identifiers found or asserted (strings are parsed).
        malformed: Identifier-looking fragments that are malformed, with the reason.
        asserted_by: Who asserted the identifier (Crossref ``doi-asserted-by``).
        parse_confidence: 0-1 confidence of the string parse (None for structured input).
        parse_doubt: Why the string parse is unsure ("no title could be found", "a
            back-reference (Ibid., op. cit.) ..."); such a reference resolves to
            :attr:`ResolutionState.PARSE_UNCERTAIN` with this reason. None when the parser had
            no doubt or there was no string.
        unreadable: Why a source could not read this entry of its reference list (it is kept
            at its position, and the ledger counts it as unreadable). None for a readable entry.
        extra: Fields that could not be used, kept raw as (name, value) pairs.

    .. versionchanged:: 0.2.0
       ``parse_doubt`` and ``unreadable`` replace the ``extra`` keys
       ``"parse_uncertain_reason"`` and ``"unreadable"``.
    """

    position: int | None = field(default=None, converter=_opt_position)
    raw: str | None = field(default=None, validator=_opt_raw)
    key: str | None = None
    title: str | None = field(default=None, converter=_title)
    authors: tuple[Author, ...] = field(default=(), converter=_authors)
    year: int | None = field(default=None, converter=_year_input)
    venue: str | None = field(default=None, converter=_opt_str)
    volume: str | None = field(default=None, converter=_opt_str)
    issue: str | None = field(default=None, converter=_opt_str)
    first_page: str | None = field(default=None, converter=_opt_str)
    last_page: str | None = field(default=None, converter=_opt_str)
    identifiers: tuple[Identifier, ...] = field(default=(), converter=_identifiers)
    malformed: tuple[MalformedFragment, ...] = field(default=(), converter=_malformed)
    asserted_by: str | None = None
    parse_confidence: float | None = field(default=None, converter=_opt_confidence)
    parse_doubt: str | None = field(default=None, converter=_opt_reason)
    unreadable: str | None = field(default=None, converter=_opt_reason)
    extra: tuple[tuple[str, str], ...] = field(default=(), converter=_extra)

    def __attrs_post_init__(self) -> None:
        # A year that cannot be read is kept raw in ``extra`` rather than dropped.
        raw_year = self.year
        if raw_year is None or type(raw_year) is int:
            return
        year = _year_value(raw_year)
        object.__setattr__(self, "year", year)
        if year is None or str(raw_year).strip() != str(year):
            object.__setattr__(self, "extra", (*self.extra, ("year", str(raw_year))))

    @classmethod
    def from_string(cls, text: str, *, position: int | None = None) -> Reference:
        """Parse a free-text reference string.

        Args:
            text: The reference as printed (any common style; PDF line breaks are fine).
            position: Its 1-based position in the citing paper's list.

        Returns:
            A reference with parsed fields, identifiers, malformed fragments, a
            ``parse_confidence`` and, when the parser is unsure, ``parse_doubt``.

        >>> ref = Reference.from_string("Smith J, Jones K. A study of things. J Foo. 2001;3:1-9.")
        >>> ref.title, ref.year, ref.first_page, ref.parse_doubt
        ('A study of things', 2001, '1', None)
        >>> Reference.from_string("Ibid.").parse_doubt
        'a back-reference (Ibid., op. cit.) with no content of its own'
        """
        return cls.from_parsed(parse_reference(text, position=position))

    @classmethod
    def from_parsed(cls, parsed: ParsedReference) -> Reference:
        """The reference that a :func:`citeledger.refparse.parse_reference` result describes."""
        return cls(
            raw=parsed.raw,
            position=parsed.position,
            title=parsed.title,
            # The parser's names are whitespace-collapsed and stripped, as Author's converters
            # would leave them: build the values without running them again.
            authors=tuple(
                Author._from_clean(a.family, a.given, a.raw)  # noqa: SLF001 - same module's fast path
                for a in parsed.authors
            ),
            year=parsed.year,
            venue=parsed.venue,
            volume=parsed.volume,
            issue=parsed.issue,
            first_page=parsed.first_page,
            last_page=parsed.last_page,
            identifiers=parsed.identifiers,
            malformed=parsed.malformed,
            parse_confidence=parsed.confidence,
            parse_doubt=parsed.doubt,
        )

    @classmethod
    def from_paper(cls, paper: Paper, *, position: int | None = None) -> Reference:
        """A reference that cites ``paper`` with all of its fields."""
        return cls(
            position=position,
            title=paper.title,
            authors=paper.authors,
            year=paper.year,
            venue=paper.venue,
            volume=paper.volume,
            issue=paper.issue,
            first_page=paper.first_page,
            identifiers=paper.identifiers,
        )

    def get_extra(self, name: str) -> str | None:
        """The raw value kept under ``name`` in :attr:`extra`, if any."""
        for k, v in self.extra:
            if k == name:
                return v
        return None


# --------------------------------------------------------------------------- resolution


def _score(value: object) -> float:
    score = _opt_float(value)
    if score is None or not 0.0 <= score <= 100.0:
        raise ModelError(f"score must be within 0-100, got {score}")
    return score


def _opt_score(value: object) -> float | None:
    return None if value is None or value == "" else _score(value)


@frozen(kw_only=True)
class Evidence:
    """How one field of a reference compares with a candidate.

    Args:
        field: The field ("title", "authors", "year", "doi", ...).
        agreement: Agree, partial, disagree or missing.
        score: A 0-100 similarity, when one was computed.
        left: The reference's value, shortened.
        right: The candidate's value, shortened.
        note: Free explanation ("identifier not in catalog", "malformed DOI: ...").
    """

    field: str
    agreement: Agreement = attrs.field(converter=Agreement)
    score: float | None = attrs.field(default=None, converter=_opt_score)
    left: str | None = None
    right: str | None = None
    note: str | None = None


def _papers(values: Iterable[Paper] | None) -> tuple[Paper, ...]:
    return () if values is None else tuple(values)


def _evidence(values: Iterable[Evidence] | None) -> tuple[Evidence, ...]:
    return () if values is None else tuple(values)


def _opt_method(value: Method | str | None) -> Method | None:
    return None if value is None else Method(value)


@frozen(kw_only=True)
class Resolution:
    """The outcome of resolving one reference.

    Args:
        state: One of the six ledger states.
        method: By which identifier scheme, fuzzily, or "no resolver link".
        target: The matched work (also set for a metadata mismatch: the identifier's work).
        score: 0-100 confidence of the decision.
        evidence: Per-field agreement.
        reason: Why this state, in words.
        alternatives: Runner-up candidates named in an ambiguous outcome.
    """

    state: ResolutionState = field(converter=ResolutionState)
    method: Method | None = field(default=None, converter=_opt_method)
    target: Paper | None = None
    score: float = field(default=0.0, converter=_score)
    evidence: tuple[Evidence, ...] = field(default=(), converter=_evidence)
    reason: str = ""
    alternatives: tuple[Paper, ...] = field(default=(), converter=_papers)

    @property
    def verified(self) -> bool:
        """Whether the state claims a match (verified exact or verified fuzzy)."""
        return self.state.verified

    def evidence_for(self, name: str) -> Evidence | None:
        """The evidence about field ``name``, if any."""
        for ev in self.evidence:
            if ev.field == name:
                return ev
        return None


# --------------------------------------------------------------------------- observations


def _opt_not_checked(value: NotChecked | str | None) -> NotChecked | None:
    return None if value is None else NotChecked(value)


@frozen(kw_only=True)
class InboundCheck:
    """How an inbound observation's state came about: citeledger's check of the citing work.

    Args:
        status: Checked (the citing work's list was read), not checked, or as asserted.
        source: Whose reference list was read (checked), or whose word the state is
            (asserted); None when nothing was read.
        checked: When the reference list was read (aware UTC); None when not checked.
        entries: How many entries the citing work's list had, when read.
        not_checked: Why the list was not read (only with ``status`` not checked).
        reason: The same in words, naming sources and errors.

    .. versionadded:: 0.2.0
    """

    status: CheckStatus = field(converter=CheckStatus)
    source: str | None = None
    checked: dt.datetime | None = field(default=None, converter=_opt_utc)
    entries: int | None = field(default=None, converter=_opt_count)
    not_checked: NotChecked | None = field(default=None, converter=_opt_not_checked)
    reason: str | None = None

    def __attrs_post_init__(self) -> None:
        if (self.status is CheckStatus.NOT_CHECKED) != (self.not_checked is not None):
            raise ModelError("a not_checked reason goes with, and only with, status not_checked")

    def describe(self) -> str:
        """One line: "checked against crossref's reference list (70 entries)", ..."""
        if self.status is CheckStatus.ASSERTED:
            return f"as asserted by {self.source or 'the source'}"
        if self.status is CheckStatus.NOT_CHECKED:
            assert self.not_checked is not None
            why = self.not_checked.label
            return f"not checked: {why}" + (f" ({self.reason})" if self.reason else "")
        n = "" if self.entries is None else f" ({self.entries:,} entries)"
        return f"checked against {self.source or 'a'} reference list{n}"


def _work_id(paper: Paper | None) -> str:
    return "" if paper is None else paper.key


def _observation_id(self: Observation) -> str:
    """UUIDv5 over source, citing work, cited work and reference position."""
    cited = _work_id(self.cited)
    if not cited and self.reference is not None:
        cited = "ref:" + (self.reference.raw or self.reference.title or "")
    name = "\x1f".join(
        (
            self.source,
            _work_id(self.citing),
            cited,
            "" if self.position is None else str(self.position),
        )
    )
    return str(uuid.uuid5(OBSERVATION_NAMESPACE, name))


@frozen(kw_only=True)
class Observation:
    """One sighting of a citation by one source.

    The id is deterministic (UUIDv5 over source, citing work, cited work and reference position),
    so the same observation seen twice has the same id, while two sources (or two states) give two
    observations.

    Args:
        direction: Inbound (someone cites the record's paper) or outbound (the paper cites).
        citing: The citing work.
        cited: The cited work, when known (None for an unresolved outbound reference).
        position: The reference number in the citing paper's list.
        reference: The reference entry as the citing paper gives it, when known.
        resolution: How the reference was resolved to the cited work.
        source: Which source reported the citation.
        observed: When it was observed (aware UTC).
        contexts: Citation contexts (sentences around the in-text citation), if given.
        intents: Citation intents (Semantic Scholar: "methodology", ...), if given.
        influential: Semantic Scholar's ``isInfluential``, if given.
        check: For an inbound observation, whether citeledger read the citing work's own
            reference list (:class:`InboundCheck`); None for one not (yet) checked.
        id: Deterministic id; computed when not given (or empty). A given id must equal the
            computed one, so a stale id cannot slip through ``attrs.evolve``.
    """

    direction: Direction = field(converter=Direction)
    citing: Paper
    cited: Paper | None = None
    position: int | None = field(default=None, converter=_opt_position)
    reference: Reference | None = None
    resolution: Resolution | None = None
    source: str
    observed: dt.datetime = field(converter=utc)
    contexts: tuple[str, ...] = field(default=(), converter=_strs)
    intents: tuple[str, ...] = field(default=(), converter=_strs)
    influential: bool | None = None
    check: InboundCheck | None = None
    id: str = field(default="", converter=str)

    def __attrs_post_init__(self) -> None:
        expected = _observation_id(self)
        if not self.id:
            object.__setattr__(self, "id", expected)
        elif self.id != expected:
            # A stale id (``attrs.evolve`` copies it) would silently merge two observations.
            raise ModelError(
                f"observation id {self.id} does not match its source, citing and cited work and "
                f"position (expected {expected}); omit id, or use citeledger.model.replace()"
            )

    @property
    def state(self) -> ResolutionState | None:
        """The resolution state, when resolved."""
        return None if self.resolution is None else self.resolution.state

    @property
    def method(self) -> Method | None:
        """The resolution method, when resolved."""
        return None if self.resolution is None else self.resolution.method


# --------------------------------------------------------------------------- events & notices


def _event_kind(value: EventKind | str) -> EventKind:
    return EventKind(value)


@frozen(kw_only=True)
class Event:
    """A source-reported event about a work: retraction, correction, ...

    Args:
        kind: What happened.
        subject: The work the event is about.
        notice: The notice's own identifier (the retraction notice DOI), if any.
        date: When the event happened (or was published).
        source: Who reported it ("crossref", "retractionwatch", "openalex").
        label: The source's own label, verbatim ("Retraction", "erratum").
        reason: A reason, if the source gives one.
    """

    kind: EventKind = field(converter=_event_kind)
    subject: Identifier | None = field(default=None, converter=_opt_identifier)
    notice: Identifier | None = field(default=None, converter=_opt_identifier)
    date: dt.date | None = field(default=None, converter=_opt_date)
    source: str
    label: str | None = None
    reason: str | None = None


def _events(values: Iterable[Event] | None) -> tuple[Event, ...]:
    return () if values is None else tuple(values)


@frozen(kw_only=True)
class NoticeCheck:
    """The outcome of asking named sources for events about one work.

    "None found in the named sources as of T" (:attr:`NoticeStatus.NONE_FOUND`) is a measurement;
    "unavailable" is the absence of one. An error is never read as clean.

    Args:
        status: Events found, none found, or unavailable.
        subject: The work checked.
        events: The events found.
        sources: The sources queried.
        checked: When (aware UTC).
        reason: Why unavailable; on a found or none-found check combined from several
            sources (the ledger's per-work outcome), what the others said — a source that
            could not be asked — which the named sources of the check do not include.
    """

    status: NoticeStatus = field(converter=NoticeStatus)
    subject: Identifier | None = field(default=None, converter=_opt_identifier)
    events: tuple[Event, ...] = field(default=(), converter=_events)
    sources: tuple[str, ...] = field(default=(), converter=_strs)
    checked: dt.datetime | None = field(default=None, converter=_opt_utc)
    reason: str | None = None

    def __attrs_post_init__(self) -> None:
        if self.status is NoticeStatus.EVENTS_FOUND and not self.events:
            raise ModelError("a NoticeCheck with status events_found needs events")
        if self.status is NoticeStatus.NONE_FOUND:
            if self.events:
                raise ModelError("a NoticeCheck with status none_found cannot carry events")
            if not self.sources or self.checked is None:
                raise ModelError("'none found' must name the queried sources and the time")
        if self.status is NoticeStatus.UNAVAILABLE and not self.reason:
            raise ModelError("an unavailable NoticeCheck needs a reason")

    @classmethod
    def found(
        cls,
        events: Iterable[Event],
        *,
        sources: Iterable[str],
        checked: dt.datetime,
        subject: Identifier | str | None = None,
    ) -> NoticeCheck:
        """Events found in the named sources."""
        return cls(
            status=NoticeStatus.EVENTS_FOUND,
            events=tuple(events),
            sources=_strs(sources),
            checked=checked,
            subject=subject,
        )

    @classmethod
    def none_found(
        cls,
        *,
        sources: Iterable[str],
        checked: dt.datetime,
        subject: Identifier | str | None = None,
    ) -> NoticeCheck:
        """No event found in the named queried sources as of ``checked``."""
        return cls(
            status=NoticeStatus.NONE_FOUND, sources=_strs(sources), checked=checked, subject=subject
        )

    @classmethod
    def unavailable(
        cls,
        reason: str,
        *,
        sources: Iterable[str] = (),
        checked: dt.datetime | None = None,
        subject: Identifier | str | None = None,
    ) -> NoticeCheck:
        """The check could not be made; says why."""
        return cls(
            status=NoticeStatus.UNAVAILABLE,
            reason=reason,
            sources=_strs(sources),
            checked=checked,
            subject=subject,
        )

    @classmethod
    def combine(cls, checks: Sequence[NoticeCheck], subject: Identifier | None) -> NoticeCheck:
        """One work's checks from several sources as one outcome (the ledger's per-work check).

        Events found in any source, else none found in the sources that answered, else
        unavailable with every reason: an error never reads as clean. The combined check names
        only the sources it rests on; what the others said (a source that could not be asked,
        a found check's own note) is kept in its ``reason``.

        Args:
            checks: Each source's own check of the work.
            subject: The work checked.

        .. versionadded:: 0.2.0
        """

        def names(group: Iterable[NoticeCheck]) -> tuple[str, ...]:
            return tuple(dict.fromkeys(s for c in group for s in c.sources))

        found = [c for c in checks if c.status is NoticeStatus.EVENTS_FOUND]
        clean = [c for c in checks if c.status is NoticeStatus.NONE_FOUND]
        notes = [c.reason for c in found if c.reason] + [
            f"{', '.join(c.sources) or 'a source'} unavailable: {c.reason}"
            for c in checks
            if c.status is NoticeStatus.UNAVAILABLE
        ]
        reason = "; ".join(dict.fromkeys(notes)) or None
        if found:
            times = [c.checked for c in found if c.checked is not None]
            return cls(
                status=NoticeStatus.EVENTS_FOUND,
                events=tuple(e for c in found for e in c.events),
                sources=names(found),
                checked=max(times) if times else None,
                subject=subject,
                reason=reason,
            )
        if clean:
            times = [c.checked for c in clean if c.checked is not None]
            return attrs.evolve(
                cls.none_found(sources=names(clean), checked=max(times), subject=subject),
                reason=reason,
            )
        reasons = "; ".join(dict.fromkeys(c.reason or "" for c in checks)) if checks else ""
        return cls.unavailable(
            reasons or "no named source can report events", sources=names(checks), subject=subject
        )

    @property
    def retracted(self) -> bool | None:
        """True if a retraction was found, False if none found, None if unavailable."""
        if self.status is NoticeStatus.UNAVAILABLE:
            return None
        return any(e.kind is EventKind.RETRACTION for e in self.events)

    def describe(self) -> str:
        """The ledger sentence for this check."""
        if self.status is NoticeStatus.UNAVAILABLE:
            return f"Unavailable: {self.reason}."
        when = self.checked.isoformat() if self.checked else "unknown time"
        if self.status is NoticeStatus.NONE_FOUND:
            return f"No event found in the named queried sources as of {when}."
        kinds = ", ".join(sorted({e.kind.value.replace("_", " ") for e in self.events}))
        return f"Events found ({kinds}) in {', '.join(self.sources)} as of {when}."


# --------------------------------------------------------------------------- measurements


def _non_negative(_: object, attribute: attrs.Attribute[int], value: int) -> None:
    if value < 0:
        raise ModelError(f"{attribute.name} must be >= 0, got {value}")


@frozen(kw_only=True, eq=True, order=False)
class Measurement:
    """One source's dated count, e.g. "57, arxiv_reference, observed 2026-08-05".

    Measurements from different sources are never combined: adding them, summing them or
    comparing them raises :class:`~citeledger.errors.IncompatibleMeasurements`. Use ``.value``
    of one measurement deliberately if you must do arithmetic.

    Args:
        value: The count.
        source: Who measured it.
        observed: When (aware UTC).
        kind: What is counted.
        subject: The work it is about.
    """

    value: int = field(converter=_count, validator=_non_negative)
    source: str
    observed: dt.datetime = field(converter=utc)
    kind: MeasurementKind = field(default=MeasurementKind.CITED_BY, converter=MeasurementKind)
    subject: Identifier | None = field(default=None, converter=_opt_identifier)

    def _refuse(self, other: object, op: str) -> IncompatibleMeasurements:
        if isinstance(other, Measurement) and other.source != self.source:
            why = f"from different sources ({self.source!r} vs {other.source!r})"
        elif isinstance(other, Measurement) and op != "compare":
            why = "to another of the same source (each count stands for one dated observation)"
        elif isinstance(other, Measurement):
            why = "of the same source about different things (kind or subject differ)"
        else:
            why = f"with a {type(other).__name__}"
        return IncompatibleMeasurements(
            f"cannot {op} a measurement {why}: external counts name their source and date and are "
            "never combined; use .value of one measurement explicitly"
        )

    def __add__(self, other: object) -> Measurement:
        raise self._refuse(other, "add")

    __radd__ = __add__

    def __sub__(self, other: object) -> Measurement:
        raise self._refuse(other, "subtract")

    __rsub__ = __sub__

    def _cmp_key(self, other: object, op: str) -> tuple[int, int]:
        if (
            not isinstance(other, Measurement)
            or other.source != self.source
            or other.kind != self.kind
            or other.subject != self.subject
        ):
            raise self._refuse(other, op)
        return self.value, other.value

    def __lt__(self, other: object) -> bool:
        a, b = self._cmp_key(other, "compare")
        return a < b

    def __le__(self, other: object) -> bool:
        a, b = self._cmp_key(other, "compare")
        return a <= b

    def __gt__(self, other: object) -> bool:
        a, b = self._cmp_key(other, "compare")
        return a > b

    def __ge__(self, other: object) -> bool:
        a, b = self._cmp_key(other, "compare")
        return a >= b

    def __int__(self) -> int:
        raise IncompatibleMeasurements(
            "a Measurement is not a bare number; use .value and keep its source and date with it"
        )

    def describe(self) -> str:
        """The ledger line ("57 · arxiv_reference, observed 2026-08-05T02:28:24.338817Z")."""
        return f"{self.value} · {self.source}, observed {self.observed.isoformat()}"


# --------------------------------------------------------------------------- coverage


@frozen(kw_only=True)
class Coverage:
    """One entry of a record's coverage vector: "measured X of Y" for one facet.

    Args:
        facet: Which facet.
        measured: How many items were measured.
        total: How many there are (None when unknown).
        sources: The named sources.
        observed: When (aware UTC).
        state: Complete, partial, unavailable or nothing to measure.
        reason: Why partial or unavailable.
        note: Disclosures such as a page cap ("under the disclosed page cap of 100").
    """

    facet: Facet = field(converter=Facet)
    measured: int = field(default=0, converter=_count, validator=_non_negative)
    total: int | None = field(default=None, converter=_opt_count)
    sources: tuple[str, ...] = field(default=(), converter=_strs)
    observed: dt.datetime | None = field(default=None, converter=_opt_utc)
    state: CoverageState = field(converter=CoverageState)
    reason: str | None = None
    note: str | None = None

    def __attrs_post_init__(self) -> None:
        if self.total is not None and self.total < 0:
            raise ModelError(f"coverage total must be >= 0, got {self.total}")
        if self.total is not None and self.measured > self.total:
            raise ModelError(f"coverage measured {self.measured} > total {self.total}")
        if (
            self.state is CoverageState.COMPLETE
            and self.total is not None
            and self.measured != self.total
        ):
            # "complete" next to "measured 3 of 5" would be a claim the numbers contradict.
            raise ModelError(
                f"a complete coverage entry must measure everything, got {self.measured} of "
                f"{self.total}"
            )
        if self.state is CoverageState.NOTHING_TO_MEASURE and (self.measured or self.total):
            raise ModelError("a nothing_to_measure coverage entry cannot count items")
        if self.state in (CoverageState.PARTIAL, CoverageState.UNAVAILABLE) and not self.reason:
            raise ModelError(f"a {self.state.value} coverage entry needs a reason")

    def describe(self) -> str:
        """The ledger line ("measured 8 of 8 inbound itemization")."""
        total = "?" if self.total is None else str(self.total)
        return f"measured {self.measured} of {total} {self.facet.value.replace('_', ' ')}"


def replace(instance: Any, **changes: Any) -> Any:
    """Return a copy of a model value with ``changes`` applied (``attrs.evolve``).

    An :class:`Observation`'s deterministic id is recomputed unless ``id`` is among the changes.
    """
    if isinstance(instance, Observation) and "id" not in changes:
        changes["id"] = ""
    return attrs.evolve(instance, **changes)
