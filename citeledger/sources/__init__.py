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

import enum
from collections.abc import Callable, Iterable, Iterator
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

from citeledger.errors import SourceError, SourceNotFound, UnsupportedCapability

if TYPE_CHECKING:
    from citeledger.identifiers import Identifier
    from citeledger.model import Measurement, NoticeCheck, Observation, Paper, Reference

__all__ = [
    "ENTRY_POINT_GROUP",
    "Capability",
    "Paged",
    "Source",
    "SourceRegistry",
    "load_source",
    "unsupported",
]

#: The entry-point group sources register under.
ENTRY_POINT_GROUP = "citeledger.sources"

T = TypeVar("T")


class Capability(enum.StrEnum):
    """What a source can be asked for."""

    PAPER = "paper"
    REFERENCES = "references"
    CITATIONS = "citations"
    EVENTS = "events"
    CITATION_COUNTS = "citation_counts"
    SEARCH = "search"


@runtime_checkable
class Source(Protocol):
    """**Protocol**: a source of scholarly metadata about works.

    Every method takes any parsed identifier or a string :func:`citeledger.parse_identifier`
    accepts. A method for a capability the source lacks raises
    :class:`~citeledger.errors.UnsupportedCapability` (see :func:`unsupported`); a failure after
    the transport's retries raises a :class:`~citeledger.errors.SourceError` subclass.
    """

    #: Short stable name ("crossref"); used in provenance.
    name: str
    #: What this source can do.
    capabilities: frozenset[Capability]

    def paper(self, identifier: Identifier | str) -> Paper | None:
        """The work, or None if the source does not know it."""
        ...

    def references(self, identifier: Identifier | str) -> list[Reference]:
        """The work's reference list, in order, positions set."""
        ...

    def citations(self, identifier: Identifier | str) -> Iterator[Observation]:
        """Inbound citation observations, lazily (usually a :class:`Paged`)."""
        ...

    def events(self, identifier: Identifier | str) -> NoticeCheck:
        """Retractions, corrections and other events reported about the work."""
        ...

    def citation_counts(self, identifier: Identifier | str) -> list[Measurement]:
        """Dated citation counts, each naming this source."""
        ...

    def search(self, query: Reference | str, *, limit: int = 10) -> list[Paper]:
        """Candidate works for a reference (for the resolver's candidate providers)."""
        ...


def unsupported(source: str, capability: Capability | str) -> UnsupportedCapability:
    """The error to raise for a capability a source lacks.

    >>> raise unsupported("arxiv", Capability.CITATIONS)
    Traceback (most recent call last):
    ...
    citeledger.errors.UnsupportedCapability: source 'arxiv' does not support 'citations'
    """
    return UnsupportedCapability(source, str(capability))


class Paged(Generic[T]):
    """A lazy iterator over a paged listing that remembers how far it got.

    Iterating fetches pages on demand. If a page fails after the transport's retries,
    iteration stops and :attr:`error` holds the failure: nothing already yielded is lost, and
    :attr:`fetched` against :attr:`total` tells the ledger "measured X of Y".

    Args:
        pages: An iterator of ``(items, total)`` pairs, one per page; ``total`` is the count the
            source announced (None when it announces none).
        limit: Stop after this many items (a disclosed cap), if given.
    """

    def __init__(
        self,
        pages: Iterator[tuple[list[T], int | None]],
        *,
        limit: int | None = None,
    ) -> None:
        self._pages = pages
        self._buffer: list[T] = []
        self._limit = limit
        #: Items yielded so far.
        self.fetched = 0
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
                items, total = next(self._pages)
            except StopIteration:
                self._done = True
                self.complete = True
                raise
            except SourceError as exc:
                self._done = True
                self.error = exc
                raise StopIteration from None
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

    def raise_for_error(self) -> None:
        """Raise the error that stopped paging, if any."""
        if self.error is not None:
            raise self.error


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
