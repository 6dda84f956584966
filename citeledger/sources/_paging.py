"""One bounded pager helper every paged listing uses: no listing pages forever.

A source that repeats a cursor forever, ignores ``start`` or announces a ``next`` offset that
creeps one past its own total would otherwise be paged without end (the same items yielded
again and again). Each pager feeds every page it reads to a :class:`PageGuard`, which raises
:class:`~citeledger.errors.PagingStopped` on the first of these:

* a **repeated cursor** (the next cursor was used before);
* a **repeated page** (the same items, in the same order, as an earlier page);
* a **page with no new items** (every item was seen on an earlier page);
* an **offset past the announced total** (the next offset is at or beyond the total the
  source announced) or an **offset inside the page just read** (it creeps instead of
  advancing);
* the **page bound**: :attr:`PageBounds.max_pages` pages (default
  :data:`DEFAULT_MAX_PAGES`).

The error is raised inside the page generator, so :class:`~citeledger.sources.Paged` keeps
everything fetched before it, records it in :attr:`~citeledger.sources.Paged.error` (the
ledger shows the facet as partial with the reason) and leaves
:attr:`~citeledger.sources.Paged.complete` False. Repeated or stale pages are never yielded.

>>> guard = PageGuard(source="x")
>>> guard.page(["a", "b"], cursor="c1")
>>> guard.page(["a", "b"], cursor="c2")
Traceback (most recent call last):
...
citeledger.errors.PagingStopped: repeated page source=x attempt=1 detail='page 2 repeats page 1'

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

import attrs
from attrs import field, frozen

from citeledger.errors import PagingStopped
from citeledger.sources._common import WorkRecord

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Iterator, Sequence

    from citeledger.model import Paper
    from citeledger.sources._wire import Request

__all__ = [
    "DEFAULT_MAX_PAGES",
    "CursorPage",
    "CursorWorkList",
    "PageBounds",
    "PageGuard",
    "PageStop",
    "capped_size",
    "cursor_pages",
]

#: Pages one listing may take before it is stopped (partial, "page bound"). At 200 items a page
#: (OpenAlex ``per-page`` maximum) that is 200,000 items, far above any paper's citations.
DEFAULT_MAX_PAGES = 1000


class PageStop(enum.StrEnum):
    """Why a listing stopped before the source said it was done."""

    REPEATED_CURSOR = "repeated cursor"
    REPEATED_PAGE = "repeated page"
    NO_NEW_ITEMS = "page with no new items"
    PAST_TOTAL = "offset past the announced total"
    OFFSET_OVERLAP = "next offset inside the page just read"
    PAGE_BOUND = "page bound"


@frozen(kw_only=True)
class PageBounds:
    """The bounds of one paged listing.

    Args:
        max_pages: Most pages one listing reads; the next page is not requested.
    """

    max_pages: int = field(default=DEFAULT_MAX_PAGES, validator=attrs.validators.ge(1))


def _fingerprint(item: object) -> Hashable:
    try:
        return hash(item)
    except TypeError:  # an item holding a list or dict: its repr is stable within a run
        return repr(item)


class PageGuard:
    """Checks each page of one listing against the bounds; raises :class:`PagingStopped`.

    Args:
        source: The source's name (for the error).
        bounds: The bounds; :class:`PageBounds` defaults when None.
        url: The listing's URL, secrets redacted (for the error).

    Call :meth:`page` with each page's items right after reading it (before yielding them),
    then :meth:`next_offset` when paging by offset.
    """

    def __init__(self, *, source: str, bounds: PageBounds | None = None, url: str = "") -> None:
        self.source = source
        self.bounds = bounds if bounds is not None else PageBounds()
        self.url = url
        self.pages = 0
        self._cursors: set[str] = set()
        self._pages: dict[tuple[Hashable, ...], int] = {}
        self._items: set[Hashable] = set()

    def _stop(self, reason: PageStop, detail: str) -> PagingStopped:
        return PagingStopped(str(reason), source=self.source, url=self.url, detail=detail)

    def start(self, cursor: str | None = None) -> None:
        """Record the first page's cursor (``"*"``) as used."""
        if cursor is not None:
            self._cursors.add(cursor)

    def page(self, items: Sequence[object], *, cursor: str | None = None) -> None:
        """Check one page just read; ``cursor`` is the next page's cursor, if any.

        Raises:
            PagingStopped: the page repeats an earlier one or holds nothing new, the cursor
                was used before, or the page bound is reached with more pages announced.
        """
        self.pages += 1
        if items:
            prints = tuple(_fingerprint(i) for i in items)
            earlier = self._pages.get(prints)
            if earlier is not None:
                detail = f"page {self.pages} repeats page {earlier}"
                raise self._stop(PageStop.REPEATED_PAGE, detail)
            if all(p in self._items for p in prints):
                detail = f"page {self.pages}: all {len(prints)} items seen on earlier pages"
                raise self._stop(PageStop.NO_NEW_ITEMS, detail)
            self._pages[prints] = self.pages
            self._items.update(prints)
        if cursor is not None:
            if cursor in self._cursors:
                detail = f"page {self.pages} names a cursor used before"
                raise self._stop(PageStop.REPEATED_CURSOR, detail)
            self._cursors.add(cursor)

    def more(self) -> None:
        """Call before requesting another page.

        Raises:
            PagingStopped: the page bound is reached.
        """
        if self.pages >= self.bounds.max_pages:
            detail = f"stopped after {self.pages:,} pages (max_pages={self.bounds.max_pages:,})"
            raise self._stop(PageStop.PAGE_BOUND, detail)

    def next_offset(self, offset: int, *, read_to: int, total: int | None) -> None:
        """Check an announced next ``offset``; ``read_to`` is where the page just read ended.

        Raises:
            PagingStopped: the offset is inside the page just read, or at or past ``total``.
        """
        if offset < read_to:
            detail = f"next offset {offset:,} is inside the page just read (to {read_to:,})"
            raise self._stop(PageStop.OFFSET_OVERLAP, detail)
        if total is not None and offset >= total:
            detail = f"next offset {offset:,} with {total:,} announced"
            raise self._stop(PageStop.PAST_TOTAL, detail)


class CursorPage(Protocol):
    """One page of a cursor-paged work list (Crossref's and OpenAlex's work lists)."""

    @property
    def works(self) -> Sequence[object]:
        """The page's readable items, in order."""

    @property
    def skipped(self) -> Sequence[object]:
        """The page's items that could not be read."""

    @property
    def total(self) -> int | None:
        """The total the source announced, if any."""

    @property
    def next_cursor(self) -> str | None:
        """The next page's cursor (None on the last page)."""


_Page = TypeVar("_Page", bound=CursorPage)
_Work = TypeVar("_Work", bound=WorkRecord)


@frozen(kw_only=True)
class CursorWorkList(Generic[_Work]):
    """The fields every cursor-paged work list shares, a :class:`CursorPage` as a value.

    The base of Crossref's and OpenAlex's work-list pages: each subclass adds its own paging
    fields and then ``skipped`` (the page's items that could not be read), in that order, and
    documents every field.
    """

    works: tuple[_Work, ...] = ()
    total: int | None = None
    next_cursor: str | None = None

    @property
    def papers(self) -> list[Paper]:
        """The works' papers."""
        return [w.paper for w in self.works]


def capped_size(size: int, limit: int | None) -> int:
    """``size`` items a page, or fewer for a listing of at most ``limit`` items (at least 1).

    >>> capped_size(100, None), capped_size(100, 7), capped_size(100, 0)
    (100, 7, 1)
    """
    return size if limit is None else max(1, min(size, limit))


def cursor_pages(
    first: Request,
    read: Callable[[Request], _Page],
    guard: PageGuard,
    *,
    last: Callable[[Request, int, int], bool],
) -> Iterator[_Page]:
    """Cursor-page through ``first`` (sent with ``cursor=*``): each page read, checked, yielded.

    Every page goes to ``guard`` before it is yielded. Paging stops after an empty page, a page
    without a next cursor, once the items sent reach the announced total (unreadable items
    count toward it), or when ``last(request, sent, kept)`` says the page just read was the last:
    ``sent`` is its items (readable or not), ``kept`` the readable items read so far.

    Raises:
        PagingStopped: the guard stopped the listing.
    """
    request = first.with_params(cursor="*")
    guard.start("*")
    seen = kept = 0
    while True:
        page = read(request)
        guard.page(page.works, cursor=page.next_cursor)
        yield page
        sent = len(page.works) + len(page.skipped)
        seen += sent
        kept += len(page.works)
        if (
            not sent
            or page.next_cursor is None
            or (page.total is not None and seen >= page.total)
            or last(request, sent, kept)
        ):
            return
        guard.more()
        request = request.with_params(cursor=page.next_cursor)
