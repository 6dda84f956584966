"""Works and their parts: :class:`Author`, :class:`Relation`, :class:`Paper`, :class:`Reference`."""

from __future__ import annotations

import datetime as dt  # noqa: TC003 - cattrs resolves the field annotations at run time
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, cast

import attrs
from attrs import field, frozen

from citeledger._text import key_text, strip_marks
from citeledger.errors import CiteledgerError, ModelError
from citeledger.identifiers import Identifier, MalformedFragment, Scheme, work_key
from citeledger.model._convert import (
    _bounded_year,
    _extra,
    _identifier,
    _identifiers,
    _iterable,
    _opt_date,
    _opt_float,
    _opt_position,
    _opt_str,
    _strs,
    _text,
    _year,
    _year_value,
)
from citeledger.model._enums import RelationKind, WorkType
from citeledger.refparse import (
    ParsedReference,
    is_et_al_only,
    parse_reference,
    split_author_string,
    split_name,
)

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
        raw = parts.raw
        if raw is None or raw.isascii():
            # ``split_name`` gives None or non-empty parts with whitespace collapsed, which the
            # converters return unchanged unless they hold a character to replace (never in
            # ASCII): the same Author without them (a Hypothesis test checks it).
            return cls._from_clean(parts.family, parts.given, raw)
        return cls(family=parts.family, given=parts.given, raw=raw)

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
    out: list[Author] = []
    for v in _iterable(values, "authors"):
        if type(v) is str:
            author = _named(v)
            if author is not None:
                out.append(author)
        elif not (isinstance(v, str) and is_et_al_only(v)):
            out.append(_author(v))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _named(text: str) -> Author | None:
    """An author name string in a list as :func:`_authors` converts it: None for "et al.".

    Cached on the string: names recur across a catalog ("J. Smith"), and an :class:`Author` is
    immutable, so papers naming one person the same way share one object (parsed once, kept
    once, and nothing new for the garbage collector to walk). Only ``str`` itself is cached (a
    subclass takes the uncached path).
    """
    return None if is_et_al_only(text) else Author.from_string(text)


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
    if values is None or (type(values) is tuple and not values):
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


_PAGE_RANGE_RE = re.compile(r"\s*[-–—]\s*")


def first_page_of(pages: str | None) -> str | None:
    """The first page of a page range ("1" of "1-14"), as :attr:`Paper.first_page` reads it."""
    if not pages:
        return None
    return _PAGE_RANGE_RE.split(pages, maxsplit=1)[0] or None


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
        return first_page_of(self.pages)

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


def _text_key(value: str | None) -> tuple[int, str]:
    # A text that may be missing, as a sort key: None before every string (never compared).
    return (0, "") if value is None else (1, value)


def paper_order_key(paper: Paper) -> tuple[object, ...]:
    """A sort key of every field of ``paper``, read field by field (nothing is formatted).

    Two papers have equal keys exactly when they are equal, so sorting by it orders any papers
    the same way whatever order they come in. The resolver breaks its last ties between
    candidates with it (equal rank, key, title and year: two records of one work, say), where it
    used to sort by ``repr``, which formats every field of both papers and leaves out the
    abstract. Fields in declaration order; a missing value sorts before any value; identifiers
    in their own order (scheme, then value).

    >>> a, b = Paper(title="A", venue="Nature"), Paper(title="A")
    >>> sorted([a, b], key=paper_order_key) == [b, a]
    True
    """
    return (
        paper.identifiers,
        _text_key(paper.title),
        tuple(
            (
                _text_key(a.family),
                _text_key(a.given),
                _text_key(a.raw),
                _text_key(a.orcid),
                a.affiliations,
            )
            for a in paper.authors
        ),
        (0, 0) if paper.year is None else (1, paper.year),
        (0, 0) if paper.date is None else (1, paper.date.toordinal()),
        _text_key(paper.venue),
        _text_key(paper.volume),
        _text_key(paper.issue),
        _text_key(paper.pages),
        _text_key(None if paper.work_type is None else paper.work_type.value),
        paper.areas,
        _text_key(paper.abstract),
        tuple((r.kind.value, r.identifier, _text_key(r.source)) for r in paper.related),
        _text_key(paper.source),
    )


#: The fields a reference takes from the paper it cites (:meth:`Reference.from_paper`, and the
#: resolver's converter-free copy of it): a paper's fields that a reference has too.
_FROM_PAPER = ("title", "authors", "year", "venue", "volume", "issue", "first_page", "identifiers")


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
                [
                    Author._from_clean(a.family, a.given, a.raw)  # noqa: SLF001 - this module's
                    for a in parsed.authors
                ]
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
        """A reference that cites ``paper`` with all of its fields.

        Its title, authors, year, venue, volume, issue, first page and identifiers.
        """
        return cls(position=position, **{name: getattr(paper, name) for name in _FROM_PAPER})

    def get_extra(self, name: str) -> str | None:
        """The raw value kept under ``name`` in :attr:`extra`, if any."""
        for k, v in self.extra:
            if k == name:
                return v
        return None
