"""Source adapters: the :class:`Source` protocol, paging results, and the plug-in registry.

A source is anything with a ``name``, a set of :class:`Capability` values and the six methods
of :class:`Source`. Built-in adapters (arXiv, Crossref, OpenAlex, Semantic Scholar,
OpenCitations, Retraction Watch) register through the ``citeledger.sources`` entry-point group,
exactly as a third-party package would::

    [project.entry-points."citeledger.sources"]
    mysource = "mypackage.sources:MySource"

A :class:`SourceRegistry` is an ordinary object (not a global): tests build
``SourceRegistry([fake])`` and callers may switch entry-point loading off.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from importlib.metadata import entry_points
from typing import Any, Generic, TypeAlias, TypeVar

from attrs import evolve

from citeledger.errors import SourceError, SourceNotFound, UnsupportedCapability
from citeledger.formats._items import UnreadableItem, describe_unreadable
from citeledger.sources._protocols import (
    CAPABILITY_PROTOCOLS,
    AreaProfileSource,
    Capability,
    CitationSource,
    CitedByYearSource,
    CitingCountsSource,
    CountedCitationSource,
    CountSource,
    EventSource,
    FullTextSource,
    ObservationIdSource,
    PaperSource,
    ProvenanceSource,
    ReferenceOrderSource,
    ReferenceSource,
    SearchSource,
    Source,
    TransportBound,
)
from citeledger.sources._transport import (
    Request,
    RequestsTransport,
    Response,
    RetryPolicy,
    Transport,
)

__all__ = [
    "CAPABILITY_PROTOCOLS",
    "ENTRY_POINT_GROUP",
    "AreaProfileSource",
    "Capability",
    "CitationSource",
    "CitedByYearSource",
    "CitingCountsSource",
    "CountSource",
    "CountedCitationSource",
    "EventSource",
    "FullTextSource",
    "ObservationIdSource",
    "Paged",
    "PaperSource",
    "ProvenanceSource",
    "ReferenceOrderSource",
    "ReferenceSource",
    "Request",
    "RequestsTransport",
    "Response",
    "RetryPolicy",
    "SearchResults",
    "SearchSource",
    "Source",
    "SourceRegistry",
    "Transport",
    "TransportBound",
    "UnreadableItem",
    "describe_unreadable",
    "load_source",
    "unsupported",
]

#: The entry-point group sources register under.
ENTRY_POINT_GROUP = "citeledger.sources"

T = TypeVar("T")


def unsupported(source: str, capability: Capability | str) -> UnsupportedCapability:
    """The error to raise for a capability a source lacks.

    >>> raise unsupported("arxiv", Capability.CITATIONS)
    Traceback (most recent call last):
    ...
    citeledger.errors.UnsupportedCapability: source 'arxiv' does not support 'citations'
    """
    return UnsupportedCapability(source, str(capability))


#: One page of a :class:`Paged` listing: ``(items, total)`` or ``(items, total, unreadable)``.
PageTuple: TypeAlias = (
    "tuple[list[T], int | None] | tuple[list[T], int | None, Sequence[UnreadableItem]]"
)


class Paged(Generic[T]):
    """A lazy iterator over a paged listing that remembers how far it got.

    Iterating fetches pages on demand. If a page fails after the transport's retries,
    iteration stops and :attr:`error` holds the failure: nothing already yielded is lost, and
    :attr:`fetched` against :attr:`total` tells the ledger "measured X of Y". Items a page
    held but its parser could not read are kept in :attr:`skipped` (counted apart from
    :attr:`fetched`): "received N, M unreadable".

    Args:
        pages: An iterator of ``(items, total)`` or ``(items, total, unreadable)`` tuples, one
            per page; ``total`` is the count the source announced (None when it announces
            none) and ``unreadable`` the page's :class:`UnreadableItem` records.
        limit: Stop after this many items (a disclosed cap), if given.

    >>> paged = Paged(
    ...     iter([(["a", "b"], 3, [UnreadableItem(source="x", what="row", index=1, reason="bad")])])
    ... )
    >>> list(paged), paged.fetched, paged.total, paged.skipped[0].listing_index
    (['a', 'b'], 2, 3, 1)
    >>> paged.describe()
    'received 2 of 3 announced, 1 unreadable (x row at index 1: bad)'

    .. versionchanged:: 0.1.0
       Pages may carry unreadable items; :attr:`skipped` and :meth:`describe`.
    """

    def __init__(
        self,
        pages: Iterator[PageTuple[T]],
        *,
        limit: int | None = None,
    ) -> None:
        self._pages = pages
        self._buffer: list[T] = []
        self._limit = limit
        # Items read from pages so far, readable or not: where the next page starts.
        self._read = 0
        #: Items yielded so far.
        self.fetched = 0
        #: Items the pages read so far held but could not be read, in listing order.
        self.skipped: list[UnreadableItem] = []
        #: Total the source announced, when it did.
        self.total: int | None = None
        #: The failure that stopped paging early, if any.
        self.error: SourceError | None = None
        #: True once the last page was read (not stopped by an error or the limit).
        self.complete = False
        #: True if the limit stopped iteration before the last page.
        self.capped = False
        self._done = False

    def __iter__(self) -> Iterator[T]:
        return self

    def __next__(self) -> T:
        while not self._buffer:
            if self._done:
                raise StopIteration
            try:
                page = next(self._pages)
            except StopIteration:
                self._done = True
                self.complete = True
                raise
            except SourceError as exc:
                self._done = True
                self.error = exc
                raise StopIteration from None
            items, total = page[0], page[1]
            unreadable: Sequence[UnreadableItem] = page[2] if len(page) > 2 else ()
            start = self._read
            self.skipped.extend(
                evolve(u, listing_index=None if u.index is None else start + u.index)
                for u in unreadable
            )
            self._read += len(items) + len(unreadable)
            if total is not None:
                self.total = total
            self._buffer.extend(items)
        if self._limit is not None and self.fetched >= self._limit:
            self._done = True
            self.capped = True
            self._buffer.clear()
            raise StopIteration
        self.fetched += 1
        return self._buffer.pop(0)

    @property
    def unreadable(self) -> int:
        """How many items could not be read (``len(skipped)``)."""
        return len(self.skipped)

    def describe(self) -> str:
        """One line: received 24 of 25 announced, 1 unreadable (...), and any cap or error."""
        text = f"received {self.fetched:,}"
        if self.total is not None:
            text += f" of {self.total:,} announced"
        if self.skipped:
            text += ", " + describe_unreadable(self.skipped)
        if self.capped:
            text += ", stopped at the limit"
        if self.error is not None:
            text += f", stopped by {type(self.error).__name__} ({self.error.message})"
        return text

    def raise_for_error(self) -> None:
        """Raise the error that stopped paging, if any."""
        if self.error is not None:
            raise self.error


class SearchResults(list[T]):
    """A search answer: the readable results, in the source's order, and the unreadable ones.

    It *is* the ``list`` that :meth:`Source.search` returns (so ``== [...]``, ``len()`` and
    iteration are unchanged), with the results the source sent but could not read kept in
    :attr:`skipped` instead of vanishing. Slicing gives a plain list: take
    ``SearchResults(results[:n], skipped=results.skipped)`` to keep the record.

    Args:
        items: The readable results.
        skipped: The results that could not be read, each with its index and reason.

    >>> bad = UnreadableItem(source="s2", what="search result", index=1, reason="no title")
    >>> found = SearchResults(["A", "C"], skipped=[bad])
    >>> found == ["A", "C"], found.skipped[0].describe()
    (True, 's2 search result at index 1: no title')

    .. versionadded:: 0.1.0
    """

    __slots__ = ("skipped",)

    def __init__(self, items: Iterable[T] = (), *, skipped: Iterable[UnreadableItem] = ()) -> None:
        super().__init__(items)
        #: Results the source sent but could not read, in order.
        self.skipped: tuple[UnreadableItem, ...] = tuple(skipped)

    def __repr__(self) -> str:
        return f"SearchResults({list(self)!r}, skipped={self.skipped!r})"


SourceFactory = Callable[..., Any]


class SourceRegistry:
    """Named source factories, from entry points and/or given explicitly.

    Args:
        sources: Source instances or classes (factories) to register by their ``name``.
        load_entry_points: Also load the ``citeledger.sources`` entry-point group.

    >>> reg = SourceRegistry(load_entry_points=False)
    >>> reg.names()
    []
    """

    def __init__(
        self,
        sources: Iterable[Any] = (),
        *,
        load_entry_points: bool = True,
    ) -> None:
        self._factories: dict[str, SourceFactory | _LazyEntryPoint] = {}
        self._instances: dict[str, Any] = {}
        self._errors: dict[str, str] = {}
        if load_entry_points:
            for ep in entry_points(group=ENTRY_POINT_GROUP):
                self._factories[ep.name] = _LazyEntryPoint(ep.name, ep.value)
        for src in sources:
            self.register(src)

    def register(self, source: Any, *, name: str | None = None) -> None:
        """Register a source instance, or a class/factory called with options on load."""
        key = name or getattr(source, "name", None)
        if not isinstance(key, str) or not key:
            raise ValueError(f"cannot register {source!r}: it has no name")
        if isinstance(source, type) or (callable(source) and not isinstance(source, Source)):
            self._factories[key] = source
            self._instances.pop(key, None)
        else:
            self._instances[key] = source
            self._factories.pop(key, None)

    def names(self) -> list[str]:
        """Names of every registered source, sorted."""
        return sorted({*self._factories, *self._instances})

    def load(self, name: str, **options: Any) -> Source:
        """Return the source ``name``, building it with ``options`` if it is a factory.

        Raises:
            SourceNotFound: nothing is registered under ``name`` (or it fails to import).
        """
        if name in self._instances and not options:
            return self._instances[name]  # type: ignore[no-any-return]
        try:
            factory = self._factories[name]
        except KeyError:
            known = ", ".join(self.names()) or "none"
            raise SourceNotFound(f"no source named {name!r} (known: {known})") from None
        build = factory.resolve() if isinstance(factory, _LazyEntryPoint) else factory
        return build(**options)  # type: ignore[no-any-return]

    def __contains__(self, name: object) -> bool:
        return name in self._factories or name in self._instances


class _LazyEntryPoint:
    """An entry point imported only when used, so one broken plug-in breaks nothing else."""

    def __init__(self, name: str, value: str) -> None:
        self.name = name
        self.value = value

    def resolve(self) -> SourceFactory:
        from importlib import import_module  # noqa: PLC0415

        module_name, _, attr = self.value.partition(":")
        try:
            obj: Any = import_module(module_name)
            for part in attr.split("."):
                obj = getattr(obj, part)
        except (ImportError, AttributeError) as exc:
            raise SourceNotFound(
                f"source {self.name!r} ({self.value}) failed to load: {exc}"
            ) from exc
        return obj  # type: ignore[no-any-return]


def load_source(name: str, *, registry: SourceRegistry | None = None, **options: Any) -> Source:
    """Build the source ``name`` with ``options`` (``base_url``, ``mailto``, ``api_key``, ...).

    Args:
        name: A registered name: "arxiv", "crossref", "openalex", "semanticscholar",
            "opencitations", "retractionwatch", "sample", or a plug-in's.
        registry: Where to look; a fresh entry-point registry by default.
        **options: Passed to the source's constructor.

    Raises:
        SourceNotFound: no such source.
    """
    reg = registry if registry is not None else SourceRegistry()
    return reg.load(name, **options)
