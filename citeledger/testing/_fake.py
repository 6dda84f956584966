"""FakeSource: an in-memory source offering exactly the capabilities it is given.

.. versionadded:: 0.2.0
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import TYPE_CHECKING, Any, TypeVar

from citeledger.identifiers import IDENTIFIER_TYPES, parse_identifier
from citeledger.model import NoticeCheck, Paper
from citeledger.sources import Capability, Paged, SearchResults

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from citeledger.identifiers import Identifier
    from citeledger.model import Measurement, Observation, Reference

__all__ = ["FakeSource"]

_V = TypeVar("_V")


def _key(identifier: Identifier | str) -> str:
    if isinstance(identifier, IDENTIFIER_TYPES):
        return str(identifier)
    return str(parse_identifier(str(identifier)))


def _keyed(values: Mapping[str, _V] | None) -> dict[str, _V]:
    return {_key(k): v for k, v in (values or {}).items()}


class FakeSource:
    """An in-memory :class:`~citeledger.sources.Source` for tests and examples.

    It answers from the data it is built with and implements only the capability protocols
    it declares: ``isinstance(fake, CitationSource)`` is False unless citations were given
    (or :attr:`Capability.CITATIONS` asked for), exactly as for a real adapter lacking them.
    Lookups are by canonical identifier; an unknown work gets the answer a real source gives
    (None, an empty list, or "none found"). Every call is recorded in :attr:`calls`.

    Args:
        name: The source name carried in provenance.
        papers: Works it knows (found by any of their identifiers; also what it searches).
        references: Reference lists by work identifier.
        citations: Inbound observations by work identifier (served as a one-page ``Paged``).
        events: Notice checks by work identifier (unknown: "none found").
        counts: Citation counts by work identifier.
        search: What :meth:`search` returns for every query (default: ``papers`` whose
            title contains the query's title, case-insensitively).
        capabilities: Exactly these capabilities; by default those the data given serves
            (``papers`` gives paper and search).
        now: The ``checked`` time of a "none found" notice check (default: the current time).

    >>> from citeledger import Capability, Paper
    >>> from citeledger.sources import CitationSource, PaperSource
    >>> fake = FakeSource(papers=[Paper(identifiers=["doi:10.1234/x"], title="A title")])
    >>> sorted(fake.capabilities)
    [<Capability.PAPER: 'paper'>, <Capability.SEARCH: 'search'>]
    >>> isinstance(fake, PaperSource), isinstance(fake, CitationSource)
    (True, False)
    >>> fake.paper("https://doi.org/10.1234/X").title
    'A title'
    >>> fake.calls
    [('paper', 'doi:10.1234/x')]

    .. versionadded:: 0.2.0
    """

    name: str
    capabilities: frozenset[Capability]
    #: Every call as ``(method, canonical identifier or query)``, in order.
    calls: list[tuple[str, object]]
    _papers: tuple[Paper, ...]
    _by_id: dict[str, Paper]
    _references: dict[str, Sequence[Reference]]
    _citations: dict[str, Sequence[Observation]]
    _events: dict[str, NoticeCheck]
    _counts: dict[str, Sequence[Measurement]]
    _search: Sequence[Paper] | None
    _now: dt.datetime | None

    def __new__(  # noqa: PYI034 - returns a generated subclass, not cls
        cls,
        *,
        name: str = "fake",
        papers: Iterable[Paper] = (),
        references: Mapping[str, Sequence[Reference]] | None = None,
        citations: Mapping[str, Sequence[Observation]] | None = None,
        events: Mapping[str, NoticeCheck] | None = None,
        counts: Mapping[str, Sequence[Measurement]] | None = None,
        search: Sequence[Paper] | None = None,
        capabilities: Iterable[Capability | str] | None = None,
        now: dt.datetime | None = None,
    ) -> FakeSource:
        known = tuple(papers)
        if capabilities is None:
            given = {
                Capability.PAPER: bool(known),
                Capability.SEARCH: bool(known) or search is not None,
                Capability.REFERENCES: references is not None,
                Capability.CITATIONS: citations is not None,
                Capability.EVENTS: events is not None,
                Capability.CITATION_COUNTS: counts is not None,
            }
            caps = frozenset(c for c, on in given.items() if on)
        else:
            caps = frozenset(Capability(c) for c in capabilities)
        self = object.__new__(_class_for(caps))  # a subclass: exactly the caps' methods
        self.name = name
        self.capabilities = caps
        self._papers = known
        self._by_id = {str(i): p for p in known for i in p.identifiers}
        self._references = _keyed(references)
        self._citations = _keyed(citations)
        self._events = _keyed(events)
        self._counts = _keyed(counts)
        self._search = search
        self._now = now
        self.calls = []
        return self

    def __repr__(self) -> str:
        caps = ", ".join(sorted(c.value for c in self.capabilities))
        return f"FakeSource(name={self.name!r}, capabilities=[{caps}])"


# ----------------------------------------------------------------------- one method per protocol


def _paper(self: FakeSource, identifier: Identifier | str) -> Paper | None:
    """The work, or None if it is not among ``papers``."""
    key = _key(identifier)
    self.calls.append(("paper", key))
    return self._by_id.get(key)


def _references(self: FakeSource, identifier: Identifier | str) -> list[Reference]:
    """The work's reference list (empty when none was given)."""
    key = _key(identifier)
    self.calls.append(("references", key))
    return list(self._references.get(key, ()))


def _citations(self: FakeSource, identifier: Identifier | str) -> Paged[Observation]:
    """The work's inbound observations, as one complete page."""
    key = _key(identifier)
    self.calls.append(("citations", key))
    found = list(self._citations.get(key, ()))
    return Paged(iter([(found, len(found))]))


def _events(self: FakeSource, identifier: Identifier | str) -> NoticeCheck:
    """The work's notice check ("none found" when none was given)."""
    key = _key(identifier)
    self.calls.append(("events", key))
    found = self._events.get(key)
    if found is not None:
        return found
    checked = self._now or dt.datetime.now(dt.UTC)
    return NoticeCheck.none_found(sources=[self.name], checked=checked, subject=key)


def _citation_counts(self: FakeSource, identifier: Identifier | str) -> list[Measurement]:
    """The work's citation counts (empty when none were given)."""
    key = _key(identifier)
    self.calls.append(("citation_counts", key))
    return list(self._counts.get(key, ()))


def _search(self: FakeSource, query: Reference | str, *, limit: int = 10) -> list[Paper]:
    """``search`` as given, else ``papers`` whose title contains the query's."""
    self.calls.append(("search", query))
    if self._search is not None:
        found = self._search
        skipped = found.skipped if isinstance(found, SearchResults) else ()
        return SearchResults(list(found)[:limit], skipped=skipped)
    text = (query if isinstance(query, str) else (query.title or query.raw or "")).casefold()
    hits = [p for p in self._papers if text and text in (p.title or "").casefold()]
    return SearchResults(hits[:limit])


_METHODS: Mapping[Capability, tuple[str, Any]] = {
    Capability.PAPER: ("paper", _paper),
    Capability.REFERENCES: ("references", _references),
    Capability.CITATIONS: ("citations", _citations),
    Capability.EVENTS: ("events", _events),
    Capability.CITATION_COUNTS: ("citation_counts", _citation_counts),
    Capability.SEARCH: ("search", _search),
}


@functools.cache
def _class_for(capabilities: frozenset[Capability]) -> type[FakeSource]:
    """The FakeSource subclass defining exactly the methods of ``capabilities``."""
    namespace = dict(m for c, m in _METHODS.items() if c in capabilities)
    label = "".join(c.value.title().replace("_", "") for c in _METHODS if c in capabilities)
    return type(f"FakeSource{label}", (FakeSource,), namespace)
