"""citeledger: citation ledgers with typed, provenance-carrying records.

Turns what scholarly sources say about a paper (its references, who cites it, retraction
notices, citation counts) into typed records, and resolves messy references to canonical works
with a fuzzy-matching resolver that never claims a match it cannot back.

A citation records a reference; it does not transfer a finding.

This module only re-exports the names most users need (``__all__``, listed in the API
reference); everything else is imported from its subpackage: :mod:`citeledger.errors`,
:mod:`citeledger.identifiers`, :mod:`citeledger.model`, :mod:`citeledger.page`,
:mod:`citeledger.ledger`, :mod:`citeledger.resolve`, :mod:`citeledger.sources` (and one module
per adapter), :mod:`citeledger.formats`, :mod:`citeledger.frames`, :mod:`citeledger.serialize`.

.. versionchanged:: 0.2.0
   ``__all__`` shrank from 124 names to 44; the others live in their subpackages (see the
   changelog for where each went).
"""

from __future__ import annotations

from citeledger.errors import (
    CiteledgerError,
    InvalidIdentifier,
    ModelError,
    ParseError,
    SourceError,
)
from citeledger.identifiers import (
    DOI,
    PMCID,
    PMID,
    ArxivId,
    CorpusId,
    Identifier,
    OpenAlexId,
    S2PaperId,
    Scheme,
    normalize_doi,
    parse_identifier,
)
from citeledger.ledger import CitationRecord, Outcome, build_record
from citeledger.model import (
    Author,
    Coverage,
    CoverageState,
    Direction,
    Facet,
    Measurement,
    Method,
    NoticeCheck,
    NoticeStatus,
    Observation,
    Paper,
    Reference,
    Resolution,
    ResolutionState,
)
from citeledger.resolve import Catalog, Resolver, ResolverConfig, verify
from citeledger.serialize import dumps, loads, make_converter
from citeledger.sources import Capability, Source, SourceRegistry, load_source

__all__ = [
    "DOI",
    "PMCID",
    "PMID",
    "ArxivId",
    "Author",
    "Capability",
    "Catalog",
    "CitationRecord",
    "CiteledgerError",
    "CorpusId",
    "Coverage",
    "CoverageState",
    "Direction",
    "Facet",
    "Identifier",
    "InvalidIdentifier",
    "Measurement",
    "Method",
    "ModelError",
    "NoticeCheck",
    "NoticeStatus",
    "Observation",
    "OpenAlexId",
    "Outcome",
    "Paper",
    "ParseError",
    "Reference",
    "Resolution",
    "ResolutionState",
    "Resolver",
    "ResolverConfig",
    "S2PaperId",
    "Scheme",
    "Source",
    "SourceError",
    "SourceRegistry",
    "build_record",
    "dumps",
    "load_source",
    "loads",
    "make_converter",
    "normalize_doi",
    "parse_identifier",
    "verify",
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
