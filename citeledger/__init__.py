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
    WorkerLost,
)
from citeledger.formats.dumps import (
    iter_crossref_items,
    iter_openalex_works,
    iter_opencitations_csv,
    iter_opencitations_meta_csv,
)
from citeledger.formats.jats import parse_jats_paper, parse_jats_references
from citeledger.formats.tei import parse_tei_paper, parse_tei_references
from citeledger.frames import (
    citing_papers_frame,
    citing_papers_table,
    observations_frame,
    observations_table,
    resolutions_frame,
    resolutions_table,
)
from citeledger.identifiers import (
    DOI,
    IDENTIFIER_TYPES,
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
from citeledger.ledger import (
    PRINCIPLE,
    SCHEMA,
    CitationRecord,
    Claim,
    Disagreement,
    ObservationNotice,
    Outcome,
    Reconciliation,
    SourceIdentity,
    SourceReport,
    StateCount,
    WorkNotices,
    build_record,
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
from citeledger.page import (
    AreaCount,
    AreaProfile,
    CitedByYear,
    CitingWork,
    CountedCitation,
    YearCount,
)
from citeledger.resolve import CandidateProvider, Catalog, Resolver, ResolverConfig, verify
from citeledger.serialize import dumps, loads, make_converter, structure
from citeledger.sources import (
    Capability,
    Paged,
    Source,
    SourceRegistry,
    UnreadableItem,
    load_source,
)
from citeledger.sources._transport import (
    Request,
    RequestsTransport,
    Response,
    RetryPolicy,
    Transport,
)
from citeledger.sources.arxiv import ArxivSource
from citeledger.sources.crossref import CrossrefSource
from citeledger.sources.openalex import OpenAlexSource
from citeledger.sources.opencitations import CitationLink, OpenCitationsSource
from citeledger.sources.retractionwatch import RetractionWatchSource
from citeledger.sources.sample import SampleSource
from citeledger.sources.semanticscholar import SemanticScholarSource

__all__ = [
    "DOI",
    "IDENTIFIER_TYPES",
    "PMCID",
    "PMID",
    "PRINCIPLE",
    "SCHEMA",
    "Agreement",
    "AreaCount",
    "AreaProfile",
    "ArxivId",
    "ArxivSource",
    "Author",
    "BadRequestError",
    "CandidateProvider",
    "Capability",
    "Catalog",
    "CitationLink",
    "CitationRecord",
    "CitedByYear",
    "CiteledgerError",
    "CitingWork",
    "Claim",
    "CorpusId",
    "CountedCitation",
    "Coverage",
    "CoverageState",
    "CrossrefSource",
    "DeserializationError",
    "Direction",
    "Disagreement",
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
    "ObservationNotice",
    "OpenAlexId",
    "OpenAlexSource",
    "OpenCitationsSource",
    "Outcome",
    "Paged",
    "Paper",
    "ParseError",
    "QuotaExceededError",
    "RateLimitError",
    "Reconciliation",
    "Reference",
    "Relation",
    "RelationKind",
    "Request",
    "RequestsTransport",
    "Resolution",
    "ResolutionState",
    "Resolver",
    "ResolverConfig",
    "Response",
    "RetractionWatchSource",
    "RetryPolicy",
    "S2PaperId",
    "SampleSource",
    "Scheme",
    "SemanticScholarSource",
    "ServerError",
    "Source",
    "SourceError",
    "SourceIdentity",
    "SourceNotFound",
    "SourceRegistry",
    "SourceReport",
    "SourceTimeout",
    "StateCount",
    "Transport",
    "TransportError",
    "UnreadableItem",
    "UnsafeXMLError",
    "UnsupportedCapability",
    "WorkNotices",
    "WorkType",
    "WorkerLost",
    "YearCount",
    "__version__",
    "build_record",
    "citing_papers_frame",
    "citing_papers_table",
    "dumps",
    "find_identifiers",
    "iter_crossref_items",
    "iter_openalex_works",
    "iter_opencitations_csv",
    "iter_opencitations_meta_csv",
    "load_source",
    "loads",
    "make_converter",
    "normalize_arxiv",
    "normalize_doi",
    "observations_frame",
    "observations_table",
    "parse_identifier",
    "parse_jats_paper",
    "parse_jats_references",
    "parse_tei_paper",
    "parse_tei_references",
    "resolutions_frame",
    "resolutions_table",
    "same_work",
    "structure",
    "utc",
    "verify",
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
