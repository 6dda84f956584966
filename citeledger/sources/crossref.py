"""Crossref: works by DOI, reference lists, update notices, counts and bibliographic search.

The pure half builds requests (:func:`build_work_request`, :func:`build_works_request`) and
parses the REST API's JSON (:func:`parse_work`, :func:`parse_work_list`, :func:`parse_failure`)
into model values; :class:`CrossrefSource` is the thin edge. The pure
half lives in ``_crossref_parse`` (private) and is re-exported here, its documented home.

What the recorded responses teach (and this module handles):

* errors are JSON (``status: failed``, ``message-type: validation-failure | resource-failure``)
  except ``GET /works/{unknown-doi}``, whose 404 body is the plain text ``Resource not found.``;
  both become typed errors (:meth:`CrossrefSource.paper` returns None for the 404);
* ``reference[]`` entries carry ``DOI`` + ``doi-asserted-by``, ``unstructured``, both, or
  neither; keys are publisher-specific; each becomes a :class:`~citeledger.model.Reference` with
  its 1-based position, in the citing paper's order;
* a retraction or correction shows as ``update-to`` on the *notice* and (in newer records)
  ``updated-by`` on the original; ``relation`` may be ``{}``;
* cursor paging (``cursor=*`` then ``next-cursor``) ends on a short or empty page.

API documentation: https://api.crossref.org/swagger-ui/index.html and
https://www.crossref.org/documentation/retrieve-metadata/rest-api/tips-for-using-the-crossref-rest-api/

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from citeledger.errors import InvalidIdentifier
from citeledger.identifiers import DOI, Identifier
from citeledger.sources import Capability, Paged, SearchResults, UnreadableItem
from citeledger.sources import _crossref_parse as _parse
from citeledger.sources._common import (
    Clock,
    as_identifier,
    cited_by_count,
    notice_check,
    paper_or_none,
    utc_now,
)
from citeledger.sources._crossref_parse import (
    SOURCE,
    CrossrefFailure,
    CrossrefWork,
    CrossrefWorkList,
    bibliographic_query,
    build_work_request,
    build_works_request,
    envelope,
    event_kind,
    parse_failure,
    parse_work,
    parse_work_list,
    reference_from_crossref,
    work_from_message,
    work_type,
)
from citeledger.sources._http import ContactOptions, ContactSource
from citeledger.sources._paging import PageBounds, PageGuard, capped_size, cursor_pages
from citeledger.sources._protocols import CORE

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from citeledger.model import Event, Measurement, NoticeCheck, Paper, Reference
    from citeledger.sources._transport import Request

__all__ = [
    "DEFAULT_BASE_URL",
    "CrossrefFailure",
    "CrossrefSource",
    "CrossrefWork",
    "CrossrefWorkList",
    "bibliographic_query",
    "build_work_request",
    "build_works_request",
    "event_kind",
    "parse_failure",
    "parse_work",
    "parse_work_list",
    "reference_from_crossref",
    "work_from_message",
    "work_type",
]

# Re-bound, not only imported, so that the reference documents them on this module's page.
#: The service root; ``base_url`` replaces it.
DEFAULT_BASE_URL = _parse.DEFAULT_BASE_URL

#: Seconds between requests by default. Crossref's public pool allows a few requests per second
#: and asks clients to identify themselves (``mailto``) to reach the polite pool; 0.2 s keeps one
#: client at 5 requests/s, within both.
MIN_INTERVAL = 0.2


# --------------------------------------------------------------------------- edge


def _doi(identifier: Identifier | str) -> DOI:
    ident = as_identifier(identifier)
    if isinstance(ident, DOI):
        return ident
    # arXiv ids are not looked up as their 10.48550 DOIs: those are DataCite's, not Crossref's.
    raise InvalidIdentifier(str(ident), "Crossref looks works up by DOI only", scheme="doi")


class CrossrefSource(ContactSource):
    """The Crossref REST API as a :class:`~citeledger.sources.Source`.

    Args:
        base_url: Replaces ``https://api.crossref.org``.
        mailto: Contact address: sent as ``mailto`` (the polite pool) and in the User-Agent.
        api_key: A Crossref Metadata Plus token (sent as a secret header, never shown).
        transport: Send through this transport (then ``session``, ``policy`` and
            ``min_interval`` are not used).
        session: A :class:`requests.Session` (or ``requests_cache.CachedSession``) to wrap.
        policy: Retry policy of the default transport.
        min_interval: Seconds between requests (default 0.2).
        rows: Items per page when paging.
        check_update_filter: :meth:`events` also asks ``filter=updates:{doi}`` for notices
            that update the work (older records carry ``update-to`` on the notice only).
        parse_unstructured: Parse reference strings that come without structured fields.
        clock: Current aware UTC time, for dated measurements and notice checks.

    >>> CrossrefSource(mailto="me@example.org").name
    'crossref'
    """

    name = SOURCE
    #: Bounds of every paged listing (set on an instance to change them).
    page_bounds: PageBounds = PageBounds()
    capabilities = CORE - {Capability.CITATIONS}
    _default_base_url = DEFAULT_BASE_URL

    def __init__(
        self,
        *,
        rows: int = 100,
        check_update_filter: bool = True,
        parse_unstructured: bool = True,
        clock: Clock = utc_now,
        **options: Unpack[ContactOptions],
    ) -> None:
        self.rows = rows
        self.check_update_filter = check_update_filter
        self.parse_unstructured = parse_unstructured
        self._clock = clock
        # Metadata Plus tokens go in a header, redacted wherever a request is shown.
        api_key = options.get("api_key")
        token = (("Crossref-Plus-API-Token", f"Bearer {api_key}"),) if api_key else ()
        self._reach(options, min_interval=MIN_INTERVAL, secret_headers=token)

    def __repr__(self) -> str:
        return self._http.describe("CrossrefSource", base_url=self.base_url, mailto=self.mailto)

    # -- plumbing

    def _work_list(self, request: Request, *, parse_unstructured: bool) -> CrossrefWorkList:
        # One page of a work list; a body that is JSON but not a work list is an invalid answer.
        return self._http.json_as(
            request,
            lambda data: parse_work_list(data, parse_unstructured=parse_unstructured),
            "a Crossref work list",
        )

    def work(self, identifier: Identifier | str) -> CrossrefWork:
        """The full work record for a DOI.

        Raises:
            NotFoundError: Crossref does not know the DOI.
            SourceError: the request failed after retries, or the body is unusable.
        """
        doi = _doi(identifier)
        return self._http.json_as(
            build_work_request(doi, base_url=self.base_url, mailto=self.mailto),
            lambda data: work_from_message(
                envelope(data, "work"), parse_unstructured=self.parse_unstructured
            ),
            "a Crossref work",
        )

    # -- Source methods

    def paper(self, identifier: Identifier | str) -> Paper | None:
        """The work for a DOI, or None when Crossref does not know it (404)."""
        return paper_or_none(self.work, identifier)

    def references(self, identifier: Identifier | str) -> list[Reference]:
        """The deposited reference list, in order, positions set (empty if none deposited).

        Raises:
            NotFoundError: Crossref does not know the DOI.
        """
        return list(self.work(identifier).references)

    def events(self, identifier: Identifier | str) -> NoticeCheck:
        """Retractions, corrections and other updates Crossref records about the work.

        Reads ``updated-by`` on the work and, with ``check_update_filter``, the notices found
        by ``filter=updates:{doi}`` (their ``update-to``). No event gives "none found in
        crossref as of now". A notice that could not be read makes the check unavailable,
        keeping the events read, unless a retraction was read (then events found, with a
        ``reason`` naming the unreadable notices).

        Raises:
            NotFoundError: Crossref does not know the DOI.
            SourceError: a request failed after retries.
        """
        doi = _doi(identifier)
        work = self.work(doi)
        events = list(work.events_about(doi))
        skipped: list[UnreadableItem] = []
        if self.check_update_filter:
            request = build_works_request(
                filters={"updates": doi.value},
                rows=self.rows,
                base_url=self.base_url,
                mailto=self.mailto,
            )
            for page in self._pages(request, parse_unstructured=False):
                skipped.extend(page.skipped)
                for notice in page.works:
                    events.extend(notice.events_about(doi))
        unique: list[Event] = []
        for event in events:
            if all((e.kind, e.notice) != (event.kind, event.notice) for e in unique):
                unique.append(event)
        # An unreadable notice may be the retraction: unless one was read, the check is
        # unavailable (never "none found", nor events found reading as "not retracted").
        return notice_check(
            unique,
            skipped,
            what="notices that update the work",
            sources=(self.name,),
            checked=self._clock(),
            subject=doi,
        )

    def citation_counts(self, identifier: Identifier | str) -> list[Measurement]:
        """``is-referenced-by-count`` as a dated measurement (empty if Crossref gives none)."""
        work = self.work(identifier)
        return cited_by_count(
            work.cited_by_count, source=self.name, clock=self._clock, subject=work.doi
        )

    def search(self, query: Reference | str, *, limit: int = 10) -> list[Paper]:
        """Candidate works by ``query.bibliographic`` (a reference's raw text, else its fields).

        Raises:
            SourceError: the request failed after retries.
        """
        text = query if isinstance(query, str) else bibliographic_query(query)
        if not text.strip():
            return []
        request = build_works_request(
            bibliographic=text, rows=max(1, limit), base_url=self.base_url, mailto=self.mailto
        )
        page = self._work_list(request, parse_unstructured=False)
        # Unreadable candidates travel with the answer, for the ledger to report.
        return SearchResults(page.papers[:limit], skipped=page.skipped)

    # -- paging

    def _pages(
        self, first: Request, *, parse_unstructured: bool = True
    ) -> Iterator[CrossrefWorkList]:
        """Cursor-page through a work-list request; stops on a short, empty or last page."""
        guard = PageGuard(source=self.name, bounds=self.page_bounds, url=first.redacted_url())

        def read(request: Request) -> CrossrefWorkList:
            return self._work_list(request, parse_unstructured=parse_unstructured)

        def short(request: Request, sent: int, _kept: int) -> bool:
            # Unreadable items still fill the page: only the items sent say it was the last.
            rows = dict(request.params).get("rows")
            return rows is not None and sent < int(rows)

        return cursor_pages(first, read, guard, last=short)

    def works(
        self,
        *,
        path: str = "/works",
        query: str | None = None,
        bibliographic: str | None = None,
        filters: Mapping[str, object] | None = None,
        rows: int | None = None,
        limit: int | None = None,
    ) -> Paged[Paper]:
        """Page lazily through a work list with cursors (``/works``, ``/journals/{issn}/works``).

        A failure midway stops paging: what was fetched stays, :attr:`Paged.error` holds the
        failure and :attr:`Paged.total` the announced ``total-results``; unreadable items are
        in :attr:`Paged.skipped`.
        """
        size = capped_size(rows or self.rows, limit)
        request = build_works_request(
            path=path,
            query=query,
            bibliographic=bibliographic,
            filters=filters,
            rows=size,
            base_url=self.base_url,
            mailto=self.mailto,
        )

        def pages() -> Iterator[tuple[list[Paper], int | None, tuple[UnreadableItem, ...]]]:
            for page in self._pages(request, parse_unstructured=self.parse_unstructured):
                yield page.papers, page.total, page.skipped

        return Paged(pages(), limit=limit)
