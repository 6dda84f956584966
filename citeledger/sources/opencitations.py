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

from typing import TYPE_CHECKING, Any, Final, Unpack
from urllib.parse import quote

from attrs import evolve, frozen

from citeledger.errors import InvalidIdentifier, ParseError
from citeledger.formats.opencitations import (
    CitationLink,
    DatePrecision,
    link_from_row,
    paper_from_meta_row,
    parse_creation,
    parse_timespan,
)
from citeledger.identifiers import DOI, PMID, Identifier
from citeledger.model import Direction, Measurement, MeasurementKind, Observation, Reference
from citeledger.sources import Capability, Paged, UnreadableItem
from citeledger.sources._common import (
    as_identifier,
    load_named_json,
    payload_shape,
    read_each,
    require_object,
    utc_now,
    with_first,
)
from citeledger.sources._http import EdgeOptions, HttpSource
from citeledger.sources._transport import Request

if TYPE_CHECKING:
    import datetime as dt
    from collections.abc import Callable, Iterator


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
    data = load_named_json(body, source=NAME, what="links")
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
    data = load_named_json(body, source=NAME, what="count")
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
    version: str = "v2",
    base_url: str | None = None,
    access_token: str | None = None,
) -> Request:
    """``GET /{operation}/{id}``: the body of the request builders below.

    >>> build_citations_request("10.1108/jd-12-2013-0166", version="v1").url
    'https://opencitations.net/index/coci/api/v1/citations/10.1108/jd-12-2013-0166'
    >>> build_citations_request("10.1108/jd-12-2013-0166").url
    'https://api.opencitations.net/index/v2/citations/doi:10.1108/jd-12-2013-0166'
    """
    if version not in ("v1", "v2"):
        raise ValueError(f"version must be 'v1' or 'v2', got {version!r}")
    root = (base_url or (COCI_BASE_URL if version == "v1" else INDEX_BASE_URL)).rstrip("/")
    path = quote(_path_id(identifier, version), safe=":/")
    return Request(
        url=f"{root}/{operation}/{path}",
        headers={"authorization": access_token} if access_token else {},
        secret_headers={"authorization"},
    )


# A builder per operation (``build_{operation}_request``): ``_request`` with the operation bound.
build_citations_request, build_references_request, build_citation_count_request = (
    with_first(_request, operation, name=f"build_{operation.replace('-', '_')}_request", doc=doc)
    for operation, doc in (
        ("citations", "``GET /citations/{id}``: works citing ``identifier``."),
        ("references", "``GET /references/{id}``: works ``identifier`` cites."),
        ("citation-count", "``GET /citation-count/{id}``."),
    )
)


# --------------------------------------------------------------------------- the edge


class OpenCitationsSource(HttpSource):
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

    def __init__(
        self,
        *,
        version: str = "v2",
        now: Callable[[], dt.datetime] | None = None,
        **options: Unpack[EdgeOptions],
    ) -> None:
        if version not in ("v1", "v2"):
            raise ValueError(f"version must be 'v1' or 'v2', got {version!r}")
        self.version = version
        self._now = now or utc_now
        # The token travels as the authorization header the request builders add (redacted).
        self._connect(options, base_url=options.get("base_url"), min_interval=0.5)

    @property
    def base_url(self) -> str | None:
        """The API root requests go to (None: the chosen version's)."""
        return self._http.base_url

    def __repr__(self) -> str:
        return self._http.describe(
            "OpenCitationsSource", version=self.version, base_url=self.base_url
        )

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
