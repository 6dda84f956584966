"""The source contract: one small runtime-checkable Protocol per capability.

A source is anything with a ``name`` and a ``capabilities`` set (:class:`Source`). Each thing
it can be asked for is a separate Protocol of one method, which the ledger tests with
``isinstance`` (so a source implements only what it offers: no stub that raises
``UnsupportedCapability``). The :class:`Capability` a protocol serves is named in its
docstring; :data:`CAPABILITY_PROTOCOLS` maps the two. Every name is re-exported by
:mod:`citeledger.sources`, whose ``__all__`` lists them (none here, so the list is kept once).

.. versionadded:: 0.2.0
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Final, Protocol, Self, runtime_checkable

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from citeledger.identifiers import Identifier
    from citeledger.model import Measurement, NoticeCheck, Observation, Paper, Reference
    from citeledger.page import AreaProfile, CitedByYear, CountedCitation
    from citeledger.sources._transport import Transport


class Capability(enum.StrEnum):
    """What a source can be asked for: the capability protocol a call goes through.

    Every :class:`~citeledger.ledger.SourceReport` names one. The page hooks
    (``CITED_BY_YEAR`` ... ``OBSERVATION_IDS``) and ``INBOUND_CHECK`` are optional and not gated
    by a source's ``capabilities``: the builder asks any source that satisfies the protocol.

    .. versionchanged:: 0.2.0
       ``CITED_BY_YEAR``, ``AREA_PROFILE``, ``CITING_COUNTS``, ``OBSERVATION_IDS`` and
       ``INBOUND_CHECK``.
    """

    PAPER = "paper"
    REFERENCES = "references"
    CITATIONS = "citations"
    EVENTS = "events"
    CITATION_COUNTS = "citation_counts"
    SEARCH = "search"
    CITED_BY_YEAR = "cited_by_year"
    AREA_PROFILE = "area_profile"
    CITING_COUNTS = "citing_counts"
    OBSERVATION_IDS = "observation_ids"
    #: A citing work's own reference list read for the inbound check
    #: (:class:`FullTextSource`, then a :class:`ReferenceSource` keeping the printed order).
    INBOUND_CHECK = "inbound_check"


#: The optional page hooks (:class:`CitedByYearSource` ... :class:`ObservationIdSource`).
PAGE_HOOKS: Final = frozenset(
    {
        Capability.CITED_BY_YEAR,
        Capability.AREA_PROFILE,
        Capability.CITING_COUNTS,
        Capability.OBSERVATION_IDS,
    }
)
#: The capabilities a source's ``capabilities`` gate: every one but the page hooks and
#: ``INBOUND_CHECK`` (paper, references, citations, events, counts, search). An adapter states
#: its own as this set less what it cannot answer, or plus the hooks it keeps.
CORE: Final = frozenset(Capability) - PAGE_HOOKS - {Capability.INBOUND_CHECK}


@runtime_checkable
class Source(Protocol):
    """**Protocol**: a source of scholarly metadata about works.

    The core every source has: a stable ``name`` and the :class:`Capability` values it offers.
    What it can be asked for is one of the capability protocols below (:class:`PaperSource`,
    :class:`ReferenceSource`, ...), each a single method. Every method takes any parsed
    identifier or a string :func:`citeledger.parse_identifier` accepts; a failure after the
    transport's retries raises a :class:`~citeledger.errors.SourceError` subclass.
    """

    #: Short stable name ("crossref"); used in provenance.
    name: str
    #: What this source can do.
    capabilities: frozenset[Capability]


@runtime_checkable
class PaperSource(Protocol):
    """**Protocol**: :attr:`Capability.PAPER`: look a work up."""

    def paper(self, identifier: Identifier | str) -> Paper | None:
        """The work, or None if the source does not know it."""
        ...


@runtime_checkable
class ReferenceSource(Protocol):
    """**Protocol**: :attr:`Capability.REFERENCES`: a work's outbound reference list."""

    def references(self, identifier: Identifier | str) -> list[Reference]:
        """The work's reference list, in order, positions set."""
        ...


@runtime_checkable
class ReferenceOrderSource(Protocol):
    """**Protocol**: says whether the source's reference lists are the printed list.

    A source whose ``references()`` are identifiers only, in its own order (OpenAlex
    ``referenced_works``, OpenCitations), sets ``references_in_order = False``: the ledger's
    inbound check then uses its lists only as an identifier hint, never as the citing paper's
    list to check. A :class:`ReferenceSource` without this attribute is taken to keep the
    order and the entries' text (Crossref deposited references, Semantic Scholar).

    .. versionadded:: 0.2.0
    """

    #: False when ``references()`` are identifiers in the source's own order.
    references_in_order: bool


@runtime_checkable
class FullTextSource(Protocol):
    """**Protocol**: a work's reference list read from a full-text file the caller supplies.

    The ledger's inbound check asks it first for each citing work (a JATS ``<ref-list>`` or a
    GROBID TEI ``<listBibl>`` keeps the printed order, labels and text);
    :class:`citeledger.sources.fulltext.FullTextFiles` is the built-in one.

    .. versionadded:: 0.2.0
    """

    def full_text_references(self, identifier: Identifier | str) -> list[Reference] | None:
        """The work's reference list in printed order, or None when there is no file for it."""
        ...


@runtime_checkable
class CitationSource(Protocol):
    """**Protocol**: :attr:`Capability.CITATIONS`: who cites a work."""

    def citations(self, identifier: Identifier | str) -> Iterator[Observation]:
        """Inbound citation observations, lazily (usually a :class:`~citeledger.sources.Paged`)."""
        ...


@runtime_checkable
class CountedCitationSource(Protocol):
    """**Protocol**: :attr:`Capability.CITATIONS` with each citing work's own count.

    Used instead of :class:`CitationSource` when a source offers it (OpenAlex, Semantic
    Scholar): the count rides with the listing, so ranking needs no request per citing paper.
    """

    def citations_with_counts(self, identifier: Identifier | str) -> Iterator[CountedCitation]:
        """Inbound observations with each citing work's own count, lazily (a ``Paged``)."""
        ...


@runtime_checkable
class EventSource(Protocol):
    """**Protocol**: :attr:`Capability.EVENTS`: retractions, corrections and other notices."""

    def events(self, identifier: Identifier | str) -> NoticeCheck:
        """Retractions, corrections and other events reported about the work."""
        ...


@runtime_checkable
class CountSource(Protocol):
    """**Protocol**: :attr:`Capability.CITATION_COUNTS`: dated counts naming this source."""

    def citation_counts(self, identifier: Identifier | str) -> list[Measurement]:
        """Dated citation counts, each naming this source."""
        ...


@runtime_checkable
class SearchSource(Protocol):
    """**Protocol**: :attr:`Capability.SEARCH`: candidate works for a reference."""

    def search(self, query: Reference | str, *, limit: int = 10) -> list[Paper]:
        """Candidate works for a reference (for the resolver's candidate providers).

        A source whose answer held results it could not read returns a
        :class:`~citeledger.sources.SearchResults` (a list of the readable ones that carries
        the others in ``skipped``); the ledger reports them.
        """
        ...


@runtime_checkable
class CitedByYearSource(Protocol):
    """**Protocol**: :attr:`Capability.CITED_BY_YEAR`: paper page: citing papers per year.

    As the source counts them.
    """

    def cited_by_year(self, identifier: Identifier | str) -> CitedByYear | None:
        """Citing papers per year, or None when the source has no series for the work."""
        ...


@runtime_checkable
class AreaProfileSource(Protocol):
    """**Protocol**: :attr:`Capability.AREA_PROFILE`: paper page: where the citing papers sit.

    Versus the paper's own placement.
    """

    def area_profile(self, identifier: Identifier | str) -> AreaProfile | None:
        """The area profile, or None."""
        ...


@runtime_checkable
class CitingCountsSource(Protocol):
    """**Protocol**: :attr:`Capability.CITING_COUNTS`: paper page: each citing work's count.

    Each citing work's own citation count, keyed by its ``Paper.key``.
    """

    def citing_counts(self, identifier: Identifier | str) -> Mapping[str, Measurement]:
        """Each citing work's own citation count."""
        ...


@runtime_checkable
class ObservationIdSource(Protocol):
    """**Protocol**: :attr:`Capability.OBSERVATION_IDS`: the source's ids of its observations.

    Keyed by citeledger's :attr:`~citeledger.model.Observation.id`.
    """

    def observation_ids(self, identifier: Identifier | str) -> Mapping[str, str]:
        """Source ids keyed by :attr:`~citeledger.model.Observation.id`."""
        ...


@runtime_checkable
class ProvenanceSource(Protocol):
    """**Protocol**: the tables or endpoints behind a capability, named in coverage lines."""

    def provenance(
        self, identifier: Identifier | str, capability: Capability | str
    ) -> tuple[str, ...]:
        """Names of what answered ``capability`` for ``identifier``."""
        ...


@runtime_checkable
class TransportBound(Protocol):
    """**Protocol**: a source sending through an injected transport it can be cloned onto.

    :func:`~citeledger.build_record` uses it to share one request memo per build.
    """

    transport: Transport

    def with_transport(self, transport: Transport) -> Self:
        """A copy of this source sending through ``transport`` (settings and secrets kept)."""
        ...


#: The protocol that serves each capability.
CAPABILITY_PROTOCOLS: Mapping[Capability, type] = {
    Capability.PAPER: PaperSource,
    Capability.REFERENCES: ReferenceSource,
    Capability.CITATIONS: CitationSource,
    Capability.EVENTS: EventSource,
    Capability.CITATION_COUNTS: CountSource,
    Capability.SEARCH: SearchSource,
    Capability.CITED_BY_YEAR: CitedByYearSource,
    Capability.AREA_PROFILE: AreaProfileSource,
    Capability.CITING_COUNTS: CitingCountsSource,
    Capability.OBSERVATION_IDS: ObservationIdSource,
}
