"""citeledger: citation ledgers with typed, provenance-carrying records.

Turns what scholarly sources say about a paper (its references, who cites it, retraction
notices, citation counts) into typed records, and resolves messy references to canonical works
with a fuzzy-matching resolver that never claims a match it cannot back.

A citation records a reference; it does not transfer a finding.

This module only re-exports the public API; see ``__all__``.
"""

from __future__ import annotations

from citeledger.errors import (
    BadRequestError,
    CiteledgerError,
    DeserializationError,
    HTTPStatusError,
    IncompatibleMeasurements,
    InvalidIdentifier,
    InvalidResponseError,
    ModelError,
    NaiveDatetimeError,
    NotFoundError,
    ParseError,
    QuotaExceededError,
    RateLimitError,
    ServerError,
    SourceError,
    SourceNotFound,
    SourceTimeout,
    TransportError,
    UnsafeXMLError,
    UnsupportedCapability,
)
from citeledger.identifiers import (
    DOI,
    PMCID,
    PMID,
    ArxivId,
    CorpusId,
    FoundIdentifiers,
    Identifier,
    MalformedFragment,
    OpenAlexId,
    S2PaperId,
    Scheme,
    find_identifiers,
    normalize_arxiv,
    normalize_doi,
    parse_identifier,
    same_work,
    work_key,
)
from citeledger.model import (
    Agreement,
    Author,
    Coverage,
    CoverageState,
    Direction,
    Event,
    EventKind,
    Evidence,
    Facet,
    Measurement,
    MeasurementKind,
    Method,
    NoticeCheck,
    NoticeStatus,
    Observation,
    Paper,
    Reference,
    Relation,
    RelationKind,
    Resolution,
    ResolutionState,
    WorkType,
    utc,
)
from citeledger.serialize import dumps, loads, make_converter, structure
from citeledger.sources import Capability, Paged, Source, SourceRegistry, load_source

__all__ = [
    "DOI",
    "PMCID",
    "PMID",
    "Agreement",
    "ArxivId",
    "Author",
    "BadRequestError",
    "Capability",
    "CiteledgerError",
    "CorpusId",
    "Coverage",
    "CoverageState",
    "DeserializationError",
    "Direction",
    "Event",
    "EventKind",
    "Evidence",
    "Facet",
    "FoundIdentifiers",
    "HTTPStatusError",
    "Identifier",
    "IncompatibleMeasurements",
    "InvalidIdentifier",
    "InvalidResponseError",
    "MalformedFragment",
    "Measurement",
    "MeasurementKind",
    "Method",
    "ModelError",
    "NaiveDatetimeError",
    "NotFoundError",
    "NoticeCheck",
    "NoticeStatus",
    "Observation",
    "OpenAlexId",
    "Paged",
    "Paper",
    "ParseError",
    "QuotaExceededError",
    "RateLimitError",
    "Reference",
    "Relation",
    "RelationKind",
    "Resolution",
    "ResolutionState",
    "S2PaperId",
    "Scheme",
    "ServerError",
    "Source",
    "SourceError",
    "SourceNotFound",
    "SourceRegistry",
    "SourceTimeout",
    "TransportError",
    "UnsafeXMLError",
    "UnsupportedCapability",
    "WorkType",
    "__version__",
    "dumps",
    "find_identifiers",
    "load_source",
    "loads",
    "make_converter",
    "normalize_arxiv",
    "normalize_doi",
    "parse_identifier",
    "same_work",
    "structure",
    "utc",
    "work_key",
]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        return version("citeledger")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0.0.0+unknown"


__version__ = _version()


def __dir__() -> list[str]:
    return list(__all__)
