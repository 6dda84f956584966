"""OpenCitations: COCI v1 and Index v2 citation links, counts, and the CSV dump rows.

OpenCitations publishes citations as links between identifiers, each with an OCI, the citing
work's ``creation`` date (``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``), the ``timespan`` between the
two publications (an ISO 8601 duration such as ``P1Y2M``; negative when the cited work appeared
later) and two self-citation flags (``journal_sc``, ``author_sc``: ``yes``/``no``).

* COCI v1 (``/index/coci/api/v1``) names works by bare DOIs.
* Index v2 (``/index/v2``) names them by space-separated id lists
  (``omid:br/06101801781 doi:10.7717/peerj-cs.421 pmid:...``); the CSV dumps use the same fields,
  with OMIDs only.

Those links become :class:`CitationLink` values (nothing dropped) and, through
:meth:`CitationLink.to_observation`, :class:`~citeledger.model.Observation` values. citeledger
has no OMID scheme: an OMID stays in the link's raw id list and a work known only by its OMID
becomes a :class:`~citeledger.model.Paper` without identifiers.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
import enum
import json
import re
from typing import TYPE_CHECKING, Any, Final, Self
from urllib.parse import quote

from attrs import evolve, frozen

from citeledger.errors import InvalidIdentifier, ParseError
from citeledger.identifiers import DOI, PMID, Identifier, parse_identifier
from citeledger.model import (
    Author,
    Direction,
    Measurement,
    MeasurementKind,
    Method,
    Observation,
    Paper,
    Reference,
    Resolution,
    ResolutionState,
    WorkType,
)
from citeledger.sources import Capability, Paged, UnreadableItem
from citeledger.sources._common import (
    as_identifier,
    payload_shape,
    read_each,
    require_object,
    utc_now,
)
from citeledger.sources._http import EdgeTransport, HttpEdge
from citeledger.sources._transport import Request, RetryPolicy, Transport

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping

    import requests

__all__ = [
    "COCI_BASE_URL",
    "INDEX_BASE_URL",
    "CitationLink",
    "CitationLinkList",
    "DatePrecision",
    "OpenCitationsSource",
    "build_citation_count_request",
    "build_citations_request",
    "build_references_request",
    "link_from_row",
    "paper_from_meta_row",
    "parse_count",
    "parse_creation",
    "parse_link_list",
    "parse_links",
    "parse_timespan",
]

NAME: Final = "opencitations"
#: COCI API v1 root (DOI-to-DOI citations from Crossref data).
COCI_BASE_URL: Final = "https://opencitations.net/index/coci/api/v1"
#: OpenCitations Index API v2 root (all indexes, OMID/DOI/PMID ids).
INDEX_BASE_URL: Final = "https://api.opencitations.net/index/v2"

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
            resolution = Resolution(
                state=ResolutionState.VERIFIED_EXACT,
                method=Method.for_scheme(cited.identifiers[0].scheme),
                target=cited,
                score=100.0,
                reason="OpenCitations asserts the citation between these identifiers",
            )
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


def _load(body: bytes, what: str) -> Any:
    try:
        return json.loads(body)
    except RecursionError:
        raise ParseError(f"opencitations {what}: not JSON (nested too deeply)") from None
    except (ValueError, TypeError) as exc:  # also bytes that are not UTF-8, over-long ints
        shown = body[:60].decode("utf-8", "replace")
        raise ParseError(f"opencitations {what}: not JSON ({exc}): {shown!r}") from exc


@frozen(kw_only=True)
class CitationLinkList:
    """The links of one ``/citations`` or ``/references`` answer, and the rows that were not.

    Args:
        links: The readable links, in the answer's order.
        skipped: Each row that could not be read (no citing or cited id, a bad ``creation``,
            not an object), with its index in the answer and the reason.

    .. versionadded:: 0.1.0
    """

    links: tuple[CitationLink, ...] = ()
    skipped: tuple[UnreadableItem, ...] = ()


def parse_link_list(body: bytes) -> CitationLinkList:
    """Parse a ``/citations``, ``/references`` or ``/citation`` body, keeping every readable row.

    A row that cannot be read costs the answer nothing else: it is recorded in
    :attr:`CitationLinkList.skipped` and the other links keep their order.

    >>> page = parse_link_list(
    ...     b'[{"citing": "doi:10.1/a", "cited": "doi:10.1/b"}, {"citing": "doi:10.1/c"}]'
    ... )
    >>> len(page.links), page.skipped[0].index, page.skipped[0].what
    (1, 1, 'citation link')

    Raises:
        ParseError: not a JSON array.
    """
    data = _load(body, "links")
    if not isinstance(data, list):
        raise ParseError("opencitations links: expected a JSON array of objects")

    def read(row: object) -> CitationLink:
        fields = require_object(row, "opencitations: link row")
        with payload_shape(NAME, "link row"):
            return link_from_row(fields)

    links, skipped = read_each(data, read, source=NAME, what="citation link")
    return CitationLinkList(links=tuple(links), skipped=tuple(skipped))


def parse_links(body: bytes) -> list[CitationLink]:
    """Parse a ``/citations``, ``/references`` or ``/citation`` body (v1 or v2), strictly.

    Any unreadable row fails the whole answer; :func:`parse_link_list` keeps the other rows
    and records that one (the source's methods use it).

    >>> parse_links(b'[{"oci": "1-2", "citing": "omid:br/061 doi:10.1/a", "cited": "doi:10.1/b"}]')[
    ...     0
    ... ].citing
    ('omid:br/061', 'doi:10.1/a')

    Raises:
        ParseError: not a JSON array of citation objects, or a row that cannot be read.
    """
    page = parse_link_list(body)
    if page.skipped:
        raise ParseError(page.skipped[0].reason)
    return list(page.links)


def parse_count(body: bytes) -> int:
    """Parse a ``/citation-count`` or ``/reference-count`` body (``[{"count": "42"}]``).

    >>> parse_count(b'[{"count": "42"}]')
    42

    Raises:
        ParseError: not that shape.
    """
    data = _load(body, "count")
    try:
        (entry,) = data
        return int(str(entry["count"]))
    except (ValueError, TypeError, KeyError) as exc:
        raise ParseError(f"opencitations count: unexpected body {str(data)[:80]!r}") from exc


# --------------------------------------------------------------------------- requests


def _path_id(identifier: Identifier | str, version: str) -> str:
    ident = as_identifier(identifier)
    if version == "v1":
        if not isinstance(ident, DOI):
            raise InvalidIdentifier(
                str(ident), "COCI v1 looks works up by DOI only", str(ident.scheme)
            )
        return ident.value
    if not isinstance(ident, DOI | PMID):
        raise InvalidIdentifier(
            str(ident), "OpenCitations looks works up by DOI, PMID or OMID", str(ident.scheme)
        )
    return str(ident)


def _request(
    operation: str,
    identifier: Identifier | str,
    *,
    version: str,
    base_url: str | None,
    access_token: str | None,
) -> Request:
    if version not in ("v1", "v2"):
        raise ValueError(f"version must be 'v1' or 'v2', got {version!r}")
    root = (base_url or (COCI_BASE_URL if version == "v1" else INDEX_BASE_URL)).rstrip("/")
    path = quote(_path_id(identifier, version), safe=":/")
    return Request(
        url=f"{root}/{operation}/{path}",
        headers={"authorization": access_token} if access_token else {},
        secret_headers={"authorization"},
    )


def build_citations_request(
    identifier: Identifier | str,
    *,
    version: str = "v2",
    base_url: str | None = None,
    access_token: str | None = None,
) -> Request:
    """``GET /citations/{id}``: works citing ``identifier``.

    >>> build_citations_request("10.1108/jd-12-2013-0166", version="v1").url
    'https://opencitations.net/index/coci/api/v1/citations/10.1108/jd-12-2013-0166'
    >>> build_citations_request("10.1108/jd-12-2013-0166").url
    'https://api.opencitations.net/index/v2/citations/doi:10.1108/jd-12-2013-0166'
    """
    return _request(
        "citations", identifier, version=version, base_url=base_url, access_token=access_token
    )


def build_references_request(
    identifier: Identifier | str,
    *,
    version: str = "v2",
    base_url: str | None = None,
    access_token: str | None = None,
) -> Request:
    """``GET /references/{id}``: works ``identifier`` cites."""
    return _request(
        "references", identifier, version=version, base_url=base_url, access_token=access_token
    )


def build_citation_count_request(
    identifier: Identifier | str,
    *,
    version: str = "v2",
    base_url: str | None = None,
    access_token: str | None = None,
) -> Request:
    """``GET /citation-count/{id}``."""
    return _request(
        "citation-count", identifier, version=version, base_url=base_url, access_token=access_token
    )


# --------------------------------------------------------------------------- the edge


class OpenCitationsSource:
    """OpenCitations (COCI v1 or Index v2) as a :class:`~citeledger.sources.Source`.

    Args:
        base_url: Replaces the API root of the chosen version.
        api_key: An OpenCitations access token, sent as the ``authorization`` header (optional;
            never shown in a repr, log or error).
        transport: Sends requests; a default transport over ``session`` when None.
        session: A ``requests.Session`` for the default transport.
        version: ``"v2"`` (Index API, default) or ``"v1"`` (COCI, DOIs only).
        min_interval: Seconds between requests of the default transport. OpenCitations
            publishes no rate limit; half a second keeps one client from hammering a
            volunteer-run service.
        policy: Retry policy of the default transport.
        now: The current aware UTC time (injectable for tests).
    """

    name = NAME
    capabilities = frozenset(
        {Capability.REFERENCES, Capability.CITATIONS, Capability.CITATION_COUNTS}
    )
    #: Cited DOIs in OpenCitations' listing order, no text: an identifier hint for the ledger's
    #: inbound check, never the citing paper's list (``ReferenceOrderSource``).
    references_in_order = False
    transport = EdgeTransport()

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        transport: Transport | None = None,
        session: requests.Session | None = None,
        version: str = "v2",
        min_interval: float = 0.5,
        policy: RetryPolicy | None = None,
        now: Callable[[], dt.datetime] | None = None,
    ) -> None:
        if version not in ("v1", "v2"):
            raise ValueError(f"version must be 'v1' or 'v2', got {version!r}")
        self.version = version
        self._now = now or utc_now
        # The token travels as the authorization header the request builders add (redacted).
        self._http = HttpEdge.build(
            NAME,
            transport=transport,
            session=session,
            policy=policy,
            min_interval=min_interval,
            base_url=base_url,
            api_key=api_key,
        )

    @property
    def base_url(self) -> str | None:
        """The API root requests go to (None: the chosen version's)."""
        return self._http.base_url

    def __repr__(self) -> str:
        return self._http.describe(
            "OpenCitationsSource", version=self.version, base_url=self.base_url
        )

    def with_transport(self, transport: Transport) -> Self:
        """A copy of this source sending through ``transport`` (settings and secrets kept)."""
        return self._http.clone_onto(self, transport)

    def _kw(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "base_url": self.base_url,
            "access_token": self._http.api_key,
        }

    def _link_list(self, request: Request) -> Paged[CitationLink]:
        def pages() -> Iterator[tuple[list[CitationLink], int, tuple[UnreadableItem, ...]]]:
            page = self._http.get(request, parse_link_list)
            yield list(page.links), len(page.links) + len(page.skipped), page.skipped

        return Paged(pages())

    def citation_links(self, identifier: Identifier | str) -> Paged[CitationLink]:
        """Every link citing ``identifier``, with OCI, creation, timespan and flags.

        A :class:`~citeledger.sources.Paged` of one page: rows that could not be read are in
        its ``skipped``, a failed request in its ``error``.
        """
        return self._link_list(build_citations_request(identifier, **self._kw()))

    def reference_links(self, identifier: Identifier | str) -> Paged[CitationLink]:
        """Every link from ``identifier`` to the works it cites (a one-page ``Paged``)."""
        return self._link_list(build_references_request(identifier, **self._kw()))

    def citations(self, identifier: Identifier | str) -> Paged[Observation]:
        """Inbound observations; the API answers in one page, whose length is the total.

        A failure is kept in the result's ``error`` (nothing is fetched then); rows that could
        not be read are in its ``skipped`` (and counted in the total).
        """
        request = build_citations_request(identifier, **self._kw())

        def pages() -> Iterator[tuple[list[Observation], int, tuple[UnreadableItem, ...]]]:
            page = self._http.get(request, parse_link_list)
            observed = self._now()
            yield (
                [
                    link.to_observation(direction=Direction.INBOUND, observed=observed)
                    for link in page.links
                ],
                len(page.links) + len(page.skipped),
                page.skipped,
            )

        return Paged(pages())

    def references(self, identifier: Identifier | str) -> list[Reference]:
        """The works ``identifier`` cites.

        OpenCitations does not give the citing paper's order (the recordings list cited DOIs
        sorted); positions follow the listing and ``extra`` says so. A row that could not be
        read is kept at its position with only the reason (``unreadable``).

        Raises:
            SourceError: the request failed after retries, or the body is not a JSON array.
        """
        page = self._http.get(build_references_request(identifier, **self._kw()), parse_link_list)
        basis = ("position_basis", "opencitations listing order")
        out = [
            Reference(
                identifiers=link.cited_identifiers,
                asserted_by=NAME,
                extra=[basis, ("oci", link.oci or ""), ("cited_ids", " ".join(link.cited))],
            )
            for link in page.links
        ]
        for item in page.skipped:
            out.insert(
                item.index or 0,
                Reference(asserted_by=NAME, unreadable=item.reason, extra=[basis]),
            )
        return [evolve(ref, position=i) for i, ref in enumerate(out, start=1)]

    def citation_counts(self, identifier: Identifier | str) -> list[Measurement]:
        """OpenCitations' citation count as one dated measurement."""
        ident = as_identifier(identifier)
        value = self._http.get(build_citation_count_request(ident, **self._kw()), parse_count)
        return [
            Measurement(
                value=value,
                source=NAME,
                observed=self._now(),
                kind=MeasurementKind.CITED_BY,
                subject=ident,
            )
        ]
