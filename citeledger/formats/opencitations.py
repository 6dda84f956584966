"""OpenCitations rows: the citation-link and Meta record shapes shared by the API and the dumps.

OpenCitations publishes citations as links between identifiers, each with an OCI, the citing
work's ``creation`` date (``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``), the ``timespan`` between the
two publications (an ISO 8601 duration such as ``P1Y2M``; negative when the cited work appeared
later) and two self-citation flags (``journal_sc``, ``author_sc``: ``yes``/``no``). The API
elements and the CSV dump rows use the same field names, so one pure row reader serves both
:mod:`citeledger.sources.opencitations` (the HTTP adapter) and :mod:`citeledger.formats.dumps`
(the dump readers); it lives here, below the sources, so the dump readers need no adapter.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
import enum
import re
from typing import TYPE_CHECKING, Any, Final

from attrs import frozen

from citeledger.errors import InvalidIdentifier, ParseError
from citeledger.formats._asserted import asserted_resolution
from citeledger.identifiers import Identifier, parse_identifier
from citeledger.model import (
    Author,
    Direction,
    Method,
    Observation,
    Paper,
    WorkType,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

__all__ = [
    "CitationLink",
    "DatePrecision",
    "link_from_row",
    "paper_from_meta_row",
    "parse_creation",
    "parse_timespan",
]

#: The source name rows are attributed to.
NAME: Final = "opencitations"
_TIMESPAN_RE: Final = re.compile(r"^(-)?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?$")
_CREATION_RE: Final = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")
# Prefixes OpenCitations uses in v2 id lists and dumps; a token without one is a COCI bare DOI.
_OC_PREFIXES: Final = (
    "omid:",
    "doi:",
    "pmid:",
    "pmcid:",
    "openalex:",
    "wikidata:",
    "issn:",
    "isbn:",
)


class DatePrecision(enum.StrEnum):
    """How much of a date the source gave."""

    YEAR = "year"
    MONTH = "month"
    DAY = "day"


def parse_creation(text: str | None) -> tuple[dt.date | None, DatePrecision | None]:
    """Read an OpenCitations ``creation`` value, keeping its precision.

    A year-only or month-only value is stored as the first day of that period.

    >>> parse_creation("2017-08")
    (datetime.date(2017, 8, 1), <DatePrecision.MONTH: 'month'>)
    >>> parse_creation("")
    (None, None)

    Raises:
        ParseError: a non-empty value that is no ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` date.
    """
    text = (text or "").strip()
    if not text:
        return None, None
    m = _CREATION_RE.match(text)
    if m is None:
        raise ParseError(f"opencitations: creation {text!r} is not YYYY, YYYY-MM or YYYY-MM-DD")
    year, month, day = m.groups()
    precision = DatePrecision.DAY if day else DatePrecision.MONTH if month else DatePrecision.YEAR
    try:
        return dt.date(int(year), int(month or 1), int(day or 1)), precision
    except ValueError as exc:
        raise ParseError(f"opencitations: creation {text!r} is not a date: {exc}") from exc


def parse_timespan(text: str | None) -> tuple[int, int, int] | None:
    """Read an ISO 8601 ``timespan`` as signed (years, months, days); None if absent or odd.

    >>> parse_timespan("P1Y10M10D")
    (1, 10, 10)
    >>> parse_timespan("-P2M")
    (0, -2, 0)
    """
    m = _TIMESPAN_RE.match((text or "").strip())
    if m is None or not any(m.group(i) for i in (2, 3, 4)):
        return None
    sign = -1 if m.group(1) else 1
    return tuple(sign * int(m.group(i) or 0) for i in (2, 3, 4))  # type: ignore[return-value]


def _flag(value: object) -> bool | None:
    text = str(value or "").strip().lower()
    if text in ("yes", "true"):
        return True
    if text in ("no", "false"):
        return False
    return None


def _ids(value: object) -> tuple[str, ...]:
    """Split an id cell into prefixed tokens; a bare DOI (COCI v1) gets ``doi:``."""
    out: list[str] = []
    for token in str(value or "").split():
        low = token.lower()
        if low.startswith(_OC_PREFIXES):
            prefix, _, rest = token.partition(":")
            out.append(f"{prefix.lower()}:{rest}")
        elif low.startswith("10."):
            out.append(f"doi:{token}")
        else:
            out.append(token)
    return tuple(out)


def _identifiers(tokens: Iterable[str]) -> tuple[Identifier, ...]:
    out: list[Identifier] = []
    for token in tokens:
        prefix, _, value = token.partition(":")
        if prefix not in ("doi", "pmid", "pmcid", "openalex"):
            continue  # OMIDs, ISSNs, ...: no citeledger scheme
        try:
            ident = parse_identifier(value, prefix)
        except InvalidIdentifier:
            continue
        if ident not in out:
            out.append(ident)
    return tuple(out)


@frozen(kw_only=True)
class CitationLink:
    """One OpenCitations citation, every field kept.

    Args:
        oci: The Open Citation Identifier, without an ``oci:`` prefix.
        citing: The citing work's ids, prefixed (``doi:10...``, ``omid:br/06...``).
        cited: The cited work's ids, prefixed.
        creation: Publication date of the citing work (first day of the period when the
            source gave only a year or a month).
        creation_precision: Year, month or day.
        creation_raw: The ``creation`` value as given.
        timespan: The ISO 8601 duration from the cited to the citing publication, as given.
        journal_sc: Journal self-citation.
        author_sc: Author self-citation.
    """

    oci: str | None = None
    citing: tuple[str, ...] = ()
    cited: tuple[str, ...] = ()
    creation: dt.date | None = None
    creation_precision: DatePrecision | None = None
    creation_raw: str | None = None
    timespan: str | None = None
    journal_sc: bool | None = None
    author_sc: bool | None = None

    @property
    def citing_identifiers(self) -> tuple[Identifier, ...]:
        """The citing work's ids that citeledger models (DOI, PMID, ...; not OMIDs)."""
        return _identifiers(self.citing)

    @property
    def cited_identifiers(self) -> tuple[Identifier, ...]:
        """The cited work's ids that citeledger models."""
        return _identifiers(self.cited)

    @property
    def timespan_parts(self) -> tuple[int, int, int] | None:
        """The timespan as signed (years, months, days), if it parses."""
        return parse_timespan(self.timespan)

    def to_observation(self, *, direction: Direction | str, observed: dt.datetime) -> Observation:
        """This link as an observation seen from the cited (inbound) or citing (outbound) side.

        OpenCitations asserts the link between the identifiers, so when the cited work has
        one the resolution is verified exact by that identifier's method. Its author
        self-citation flag and timespan travel with the observation.
        """
        citing = Paper(identifiers=self.citing_identifiers, date=self.creation, source=NAME)
        cited = Paper(identifiers=self.cited_identifiers, source=NAME)
        resolution = None
        if cited.identifiers:
            method = Method.for_scheme(cited.identifiers[0].scheme)
            reason = "OpenCitations asserts the citation between these identifiers"
            resolution = asserted_resolution(cited, method, reason)
        return Observation(
            direction=direction,
            citing=citing,
            cited=cited,
            resolution=resolution,
            source=NAME,
            observed=observed,
            author_self_citation=self.author_sc,
            timespan=self.timespan,
        )


def link_from_row(row: Mapping[str, Any]) -> CitationLink:
    """A :class:`CitationLink` from one API element or CSV dump row (same field names).

    Index v2 dumps name the OCI column ``id`` (``oci:...``); the APIs name it ``oci``.

    >>> link = link_from_row(
    ...     {"oci": "1-2", "citing": "10.1/a", "cited": "10.1/b", "creation": "2018"}
    ... )
    >>> link.citing, link.creation_precision.value
    (('doi:10.1/a',), 'year')

    Raises:
        ParseError: the row has no citing or cited id, or an unreadable creation date.
    """
    oci = str(row.get("oci") or row.get("id") or "").strip() or None
    if oci is not None and oci.lower().startswith("oci:"):
        oci = oci[4:]
    citing, cited = _ids(row.get("citing")), _ids(row.get("cited"))
    if not citing or not cited:
        raise ParseError(f"opencitations: a citation needs citing and cited ids, got {dict(row)!r}")
    creation_raw = str(row.get("creation") or "").strip() or None
    creation, precision = parse_creation(creation_raw)
    return CitationLink(
        oci=oci,
        citing=citing,
        cited=cited,
        creation=creation,
        creation_precision=precision,
        creation_raw=creation_raw,
        timespan=str(row.get("timespan") or "").strip() or None,
        journal_sc=_flag(row.get("journal_sc")),
        author_sc=_flag(row.get("author_sc")),
    )


_BRACKETS_RE: Final = re.compile(r"\s*\[([^\]]*)\]\s*$")
_META_TYPES: Final = {
    "journal article": WorkType.ARTICLE,
    "proceedings article": WorkType.PROCEEDINGS_ARTICLE,
    "book": WorkType.BOOK,
    "book chapter": WorkType.CHAPTER,
    "dataset": WorkType.DATASET,
    "dissertation": WorkType.THESIS,
    "report": WorkType.REPORT,
    "posted content": WorkType.PREPRINT,
}


def _bracketed(text: str) -> tuple[str, tuple[str, ...]]:
    """``"Name [omid:ra/1 orcid:0000-...]"`` -> ("Name", ("omid:ra/1", "orcid:0000-..."))."""
    m = _BRACKETS_RE.search(text)
    if m is None:
        return text.strip(), ()
    return text[: m.start()].strip(), tuple(m.group(1).split())


def paper_from_meta_row(row: Mapping[str, Any]) -> Paper:
    """A :class:`Paper` from one OpenCitations Meta CSV dump row.

    Meta rows hold a space-separated id list (``omid:br/... doi:... openalex:W...``),
    ``"Family, Given [omid:ra/... orcid:...]"`` authors separated by ``"; "``, a venue with its
    own bracketed ids, ``page`` as ``first-last`` and ``pub_date`` as YYYY[-MM[-DD]].

    >>> p = paper_from_meta_row(
    ...     {
    ...         "id": "omid:br/1 doi:10.1364/ao.475915",
    ...         "title": "Alignment",
    ...         "author": "Dubin, Matthew [omid:ra/2]",
    ...         "venue": "Applied Optics [issn:2155-3165]",
    ...         "pub_date": "2023-02-21",
    ...         "type": "journal article",
    ...     }
    ... )
    >>> str(p.identifiers[0]), p.authors[0].family, p.venue, p.year
    ('doi:10.1364/ao.475915', 'Dubin', 'Applied Optics', 2023)

    Raises:
        ParseError: an unreadable ``pub_date``.
    """
    authors: list[Author] = []
    for entry in str(row.get("author") or "").split(";"):
        name, ids = _bracketed(entry)
        if not name:
            continue
        orcid = next((i.partition(":")[2] for i in ids if i.startswith("orcid:")), None)
        family, _, given = name.partition(",")
        authors.append(
            Author(family=family.strip() or None, given=given.strip() or None, orcid=orcid)
        )
    venue, _ = _bracketed(str(row.get("venue") or ""))
    date, precision = parse_creation(str(row.get("pub_date") or ""))
    return Paper(
        identifiers=_identifiers(_ids(row.get("id"))),
        title=row.get("title") or None,
        authors=authors,
        year=date.year if date else None,
        date=date if precision is DatePrecision.DAY else None,
        venue=venue or None,
        volume=row.get("volume") or None,
        issue=row.get("issue") or None,
        pages=row.get("page") or None,
        work_type=_META_TYPES.get(str(row.get("type") or "").strip().lower()),
        source=NAME,
    )
