"""Semantic Scholar Graph API: papers, batch lookups, references and citations with contexts.

The pure half builds :class:`~citeledger.sources._transport.Request` values
(:func:`build_paper_request`, :func:`build_batch_request`, :func:`build_references_request`,
:func:`build_citations_request`, :func:`build_search_request`) and parses response bodies
(:func:`parse_paper`, :func:`parse_batch`, :func:`parse_references_page`,
:func:`parse_citations_page`, :func:`parse_citation_counts`, :func:`parse_search`,
:func:`parse_search_page`). The edge,
:class:`SemanticScholarSource`, sends them through an injected transport. The pure half lives
in ``_s2_parse`` (private) and is re-exported here, its documented home.

What the recordings show (``../shared/data/sources/semanticscholar``): errors are
``{"error": ...}`` (400/404) or ``{"message": ...}`` from the AWS gateway (429/403/504, the 429
without ``Retry-After``); batch responses are positional with ``null`` for unknown ids; pages
carry ``offset`` and ``next`` and the last page has no ``next``.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import TYPE_CHECKING, Any, Final, TypeVar, Unpack

import attrs

from citeledger.errors import InvalidIdentifier, NotFoundError, SourceError
from citeledger.model import Direction, Measurement, MeasurementKind, Observation, Paper, Reference
from citeledger.page import CountedCitation
from citeledger.sources import Capability, Paged, SearchResults, UnreadableItem
from citeledger.sources._common import as_identifier
from citeledger.sources._http import EdgeOptions, HttpSource
from citeledger.sources._paging import PageBounds, PageGuard
from citeledger.sources._protocols import CORE
from citeledger.sources._s2_parse import (
    COUNT_FIELDS,
    LINK_FIELDS,
    NAME,
    BatchItem,
    BatchStatus,
    S2Link,
    S2Page,
    api_root,
    build_batch_request,
    build_citations_request,
    build_paper_request,
    build_references_request,
    build_search_request,
    load_body,
    parse_batch,
    parse_citation_counts,
    parse_citations_page,
    parse_paper,
    parse_references_page,
    parse_search,
    parse_search_page,
    s2_paper_id,
)

# Public helpers of the pure half outside __all__, imported from here by callers: ``X as X``
# re-exports them explicitly (mypy's no-implicit-reexport), which PLC0414 would undo.
from citeledger.sources._s2_parse import PAPER_FIELDS as PAPER_FIELDS  # noqa: PLC0414
from citeledger.sources._s2_parse import link_observation as link_observation  # noqa: PLC0414
from citeledger.sources._s2_parse import link_reference as link_reference  # noqa: PLC0414
from citeledger.sources._s2_parse import paper_from_json as paper_from_json  # noqa: PLC0414

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from citeledger.identifiers import Identifier

from citeledger.sources import _s2_parse as _parse

__all__ = [
    "COUNTED_LINK_FIELDS",
    "DEFAULT_BASE_URL",
    "MAX_BATCH",
    "MAX_PAGE",
    "MAX_WINDOW",
    "BatchItem",
    "BatchStatus",
    "S2Link",
    "S2Page",
    "SemanticScholarSource",
    "build_batch_request",
    "build_citations_request",
    "build_paper_request",
    "build_references_request",
    "build_search_request",
    "parse_batch",
    "parse_citation_counts",
    "parse_citations_page",
    "parse_paper",
    "parse_references_page",
    "parse_search",
    "parse_search_page",
    "s2_paper_id",
]

# Re-bound, not only imported, so that the reference documents them on this module's page.
#: The Graph API root; ``base_url`` replaces it.
DEFAULT_BASE_URL: Final = _parse.DEFAULT_BASE_URL
#: Largest ``limit`` of one references/citations page (S2 Graph API documentation).
MAX_PAGE: Final = _parse.MAX_PAGE
#: ``offset + limit`` may not exceed this on references/citations listings (S2 refuses deeper
#: pages; the rest of a listing is only reachable through the bulk datasets).
MAX_WINDOW: Final = _parse.MAX_WINDOW
#: Most ids one ``POST /paper/batch`` accepts (S2 Graph API documentation).
MAX_BATCH: Final = _parse.MAX_BATCH
#: Listing fields of :meth:`SemanticScholarSource.citations_with_counts`: the citing paper's own
#: ``citationCount`` (to rank citing papers) and ``fieldsOfStudy`` (its areas) as well.
COUNTED_LINK_FIELDS: Final = _parse.COUNTED_LINK_FIELDS

_T = TypeVar("_T")


# --------------------------------------------------------------------------- the edge


class _WindowPaged(Paged[_T]):
    """A :class:`Paged` whose pages can report that S2's offset window stopped them."""

    def __init__(
        self,
        pages: Callable[
            [_WindowPaged[_T]],
            Iterator[tuple[list[_T], int | None, tuple[UnreadableItem, ...]]],
        ],
    ) -> None:
        self._window_hit = False
        super().__init__(pages(self))

    def hit_window(self) -> None:
        """Record that more items exist beyond S2's 9,999 window."""
        self._window_hit = True

    def __next__(self) -> _T:
        try:
            return super().__next__()
        except StopIteration:
            if self._window_hit:
                self.complete = False
                self.capped = True
            raise


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class SemanticScholarSource(HttpSource):
    """Semantic Scholar Graph API as a :class:`~citeledger.sources.Source`.

    Args:
        base_url: Replaces ``https://api.semanticscholar.org/graph/v1``.
        api_key: Sent as the ``x-api-key`` header; never shown in a repr, log or error.
        transport: Sends requests; a :class:`RequestsTransport` over ``session`` when None.
        session: A ``requests.Session`` (or ``requests_cache.CachedSession``) for the default
            transport.
        min_interval: Seconds between requests of the default transport. S2 allows about one
            request per second without a key, and introductory keys get the same rate, so 1.0.
        policy: Retry policy of the default transport.
        page_size: Listing page size (at most 1,000). 500 by default: the recordings show a
            1,000-element citations page with contexts timing out (HTTP 504).
        announce_total: Before listing citations, ask for ``citationCount`` so a listing that
            fails midway can say "fetched X of Y" (one extra request).
        now: The current aware UTC time (injectable for tests).
    """

    name = NAME
    #: Bounds of every paged listing (set on an instance to change them).
    page_bounds: PageBounds = PageBounds()
    capabilities = CORE - {Capability.EVENTS}

    def __init__(
        self,
        *,
        page_size: int = 500,
        announce_total: bool = True,
        now: Callable[[], dt.datetime] | None = None,
        **options: Unpack[EdgeOptions],
    ) -> None:
        if not 1 <= page_size <= MAX_PAGE:
            raise ValueError(f"page_size must be within 1-{MAX_PAGE}, got {page_size}")
        # The key travels as the x-api-key header the request builders add (redacted).
        self._connect(options, base_url=api_root(options.get("base_url")), min_interval=1.0)
        self.page_size = page_size
        self.announce_total = announce_total
        self._now = now or _now

    @property
    def base_url(self) -> str:
        """The API root requests go to."""
        return api_root(self._http.base_url)

    def __repr__(self) -> str:
        return self._http.describe("SemanticScholarSource", base_url=self.base_url)

    # -- plumbing

    def _kw(self) -> dict[str, Any]:
        return {"base_url": self.base_url, "api_key": self._http.api_key}

    # -- Source methods

    def paper(self, identifier: Identifier | str) -> Paper | None:
        """The paper, or None when S2 answers 404."""
        try:
            response = self._http.send(build_paper_request(identifier, **self._kw()))
        except NotFoundError:
            return None
        return self._http.read(response, parse_paper)

    def batch(self, identifiers: Iterable[Identifier | str]) -> list[BatchItem]:
        """Look many ids up with ``POST /paper/batch``, 500 per request, keeping input order.

        Every input gets one :class:`BatchItem`: an unparseable id is ``invalid`` without
        being sent, S2's ``null`` is ``not_found``, and a chunk whose request fails after
        retries marks only its own ids ``error``.
        """
        given = list(identifiers)
        out: list[BatchItem | None] = [None] * len(given)
        sendable: list[tuple[int, str]] = []
        for i, raw in enumerate(given):
            try:
                sendable.append((i, s2_paper_id(raw)))
            except InvalidIdentifier as exc:
                out[i] = BatchItem(
                    requested=str(raw), status=BatchStatus.INVALID, reason=exc.reason
                )
        for start in range(0, len(sendable), MAX_BATCH):
            chunk = sendable[start : start + MAX_BATCH]
            ids = [s for _, s in chunk]
            try:
                response = self._http.send(build_batch_request(ids, **self._kw()))
                items = self._http.read(response, functools.partial(parse_batch, requested=ids))
            except SourceError as exc:
                for i, _ in chunk:
                    out[i] = BatchItem(
                        requested=str(given[i]), status=BatchStatus.ERROR, reason=str(exc)
                    )
                continue
            for (i, _), item in zip(chunk, items, strict=True):
                out[i] = attrs.evolve(item, requested=str(given[i]))
        return [item for item in out if item is not None]

    def _listing(
        self,
        identifier: Identifier | str,
        kind: str,
        convert: Callable[[S2Link], _T],
        *,
        link_fields: str = LINK_FIELDS,
    ) -> _WindowPaged[_T]:
        build = build_citations_request if kind == "citations" else build_references_request
        parse = parse_citations_page if kind == "citations" else parse_references_page
        ident = as_identifier(identifier)

        def pages(
            paged: _WindowPaged[_T],
        ) -> Iterator[tuple[list[_T], int | None, tuple[UnreadableItem, ...]]]:
            total: int | None = None
            if self.announce_total:
                fields = "citationCount" if kind == "citations" else "referenceCount"
                response = self._http.send(build_paper_request(ident, fields=fields, **self._kw()))
                data = self._http.read(response, lambda b: load_body(b, "paper"))
                value = data.get(fields) if isinstance(data, dict) else None
                total = value if isinstance(value, int) and not isinstance(value, bool) else None
            guard = PageGuard(source=self.name, bounds=self.page_bounds)
            offset = 0
            while True:
                limit = min(self.page_size, MAX_WINDOW - offset)
                if limit <= 0:
                    # More items exist, but S2 serves nothing beyond offset + limit = 9,999.
                    paged.hit_window()
                    return
                response = self._http.send(
                    build(ident, offset=offset, limit=limit, fields=link_fields, **self._kw())
                )
                page = self._http.read(response, parse)
                guard.page(page.items)
                yield [convert(link) for link in page.items], total, page.skipped
                if page.next is None or page.next <= offset:
                    return
                read_to = offset + len(page.items) + len(page.skipped)
                guard.next_offset(page.next, read_to=read_to, total=total)
                guard.more()
                offset = page.next

        return _WindowPaged(pages)

    def citation_links(self, identifier: Identifier | str) -> Paged[S2Link]:
        """The raw citations listing (citing papers with contexts, intents, influence)."""
        return self._listing(identifier, "citations", _same)

    def reference_links(self, identifier: Identifier | str) -> Paged[S2Link]:
        """The raw references listing (cited papers with contexts, intents, influence)."""
        return self._listing(identifier, "references", _same)

    def citations(self, identifier: Identifier | str) -> Paged[Observation]:
        """Inbound observations, lazily; verified exact by method S2 (S2 asserts each link).

        The result is a :class:`~citeledger.sources.Paged`: ``total`` is S2's
        ``citationCount`` (when ``announce_total``), ``error`` is set if a page fails midway,
        ``capped`` is set when S2's 9,999 offset window stops the listing early, and
        ``skipped`` records the elements that could not be read.
        """
        ident = as_identifier(identifier)
        subject = Paper(identifiers=(ident,))
        observed = self._now()
        return self._listing(
            ident,
            "citations",
            lambda link: link_observation(
                link, subject=subject, direction=Direction.INBOUND, observed=observed
            ),
        )

    def citations_with_counts(self, identifier: Identifier | str) -> Paged[CountedCitation]:
        """:meth:`citations`, each with the citing paper's own ``citationCount``.

        The listing also asks for ``citationCount`` and ``fieldsOfStudy`` of each citing paper
        (:data:`COUNTED_LINK_FIELDS`), so ranking costs no request per citing paper. A citing
        paper without a count gets none (never a zero).

        .. versionadded:: 0.1.0
        """
        ident = as_identifier(identifier)
        subject = Paper(identifiers=(ident,))
        observed = self._now()

        def counted(link: S2Link) -> CountedCitation:
            obs = link_observation(
                link, subject=subject, direction=Direction.INBOUND, observed=observed
            )
            counts: tuple[Measurement, ...] = ()
            if link.citation_count is not None:
                counts = (
                    Measurement(
                        value=link.citation_count,
                        source=NAME,
                        observed=observed,
                        kind=MeasurementKind.CITED_BY,
                        subject=_best(link.paper),
                    ),
                )
            return CountedCitation(observation=obs, cited_by=counts)

        return self._listing(ident, "citations", counted, link_fields=COUNTED_LINK_FIELDS)

    def reference_observations(self, identifier: Identifier | str) -> list[Observation]:
        """Outbound observations with contexts/intents; positions are S2's listing order.

        An element that could not be read has no cited paper to observe, so it has no
        observation here (its position is missing); :meth:`references` keeps it as an
        unreadable reference and :meth:`reference_links` records it in ``skipped``.
        """
        ident = as_identifier(identifier)
        subject = Paper(identifiers=(ident,))
        observed = self._now()
        paged = self.reference_links(ident)
        out = [
            link_observation(link, subject=subject, direction=Direction.OUTBOUND, observed=observed)
            for link in paged
        ]
        paged.raise_for_error()
        return out

    def references(self, identifier: Identifier | str) -> list[Reference]:
        """The reference list (every page); positions follow S2's listing order.

        An element that could not be read is kept at its position as a reference holding
        only the reason (``unreadable``), so the ledger counts it.

        Raises:
            SourceError: a page failed after retries (use :meth:`reference_links` to keep a
                partial listing).
        """
        paged = self.reference_links(identifier)
        out = [link_reference(link) for link in paged]
        paged.raise_for_error()
        for item in paged.skipped:
            index = item.listing_index if item.listing_index is not None else len(out)
            out.append(
                Reference(
                    position=index + 1,
                    asserted_by=NAME,
                    unreadable=item.reason,
                    extra=(("position_basis", "semanticscholar listing order"),),
                )
            )
        out.sort(key=lambda r: r.position or 0)
        return out

    def citation_counts(self, identifier: Identifier | str) -> list[Measurement]:
        """``citationCount`` (cited_by) and ``influentialCitationCount`` (influential_cited_by)."""
        ident = as_identifier(identifier)
        response = self._http.send(build_paper_request(ident, fields=COUNT_FIELDS, **self._kw()))
        observed = self._now()
        return self._http.read(
            response, lambda b: parse_citation_counts(b, observed=observed, subject=ident)
        )

    def search(self, query: Reference | str, *, limit: int = 10) -> list[Paper]:
        """Relevance search by title (or the raw string of a reference).

        Returns a :class:`~citeledger.sources.SearchResults`: the readable papers in S2's
        order (at most ``limit``), and in ``skipped`` the results that could not be read
        (the ledger reports them).

        Raises:
            SourceError: the request failed after retries, or the body is not a search answer.
        """
        text = query if isinstance(query, str) else (query.title or query.raw or "")
        if not text.strip():
            return SearchResults()
        response = self._http.send(build_search_request(text, limit=limit, **self._kw()))
        page = self._http.read(response, parse_search_page)
        return SearchResults(page.items[:limit], skipped=page.skipped)


def _same(link: S2Link) -> S2Link:
    return link


def _best(paper: Paper) -> Identifier | None:
    """The identifier a count of ``paper`` is filed under (DOI, else arXiv, else the first)."""
    for scheme in ("doi", "arxiv"):
        ident = paper.identifier(scheme)
        if ident is not None:
            return ident
    return paper.identifiers[0] if paper.identifiers else None
