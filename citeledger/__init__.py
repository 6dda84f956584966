"""citeledger: citation ledgers with typed, provenance-carrying records.

Turns what scholarly sources say about a paper (its references, who cites it, retraction
notices, citation counts) into typed records, and resolves messy references to canonical works
with a fuzzy-matching resolver that never claims a match it cannot back.

A citation records a reference; it does not transfer a finding.

This module only re-exports the names most users need (``__all__``, listed in the API
reference). The core (errors, identifiers, model values, the resolver) loads with the package;
the ledger, the source adapters with their HTTP client, and the converter load when one of
their names is first read, so a notebook that only resolves references never loads them.
Everything else is imported from its subpackage: :mod:`citeledger.errors`,
:mod:`citeledger.identifiers`, :mod:`citeledger.model`, :mod:`citeledger.page`,
:mod:`citeledger.ledger`, :mod:`citeledger.resolve`, :mod:`citeledger.sources` (and one module
per adapter), :mod:`citeledger.formats`, :mod:`citeledger.frames`, :mod:`citeledger.serialize`.

.. versionchanged:: 0.2.0
   ``__all__`` shrank from 124 names to 44; the others live in their subpackages (see the
   changelog for where each went).

.. versionchanged:: 0.2.0
   The ledger's, the sources' and the converter's names are loaded on first use (:pep:`562`),
   not when the package is imported.
"""

from __future__ import annotations

import importlib
import typing  # (the module, not names from it: the namespace holds only ``__all__`` and modules)

# The core loads with the package: the errors, identifiers, model values and the resolver, what
# nearly every use touches (about 0.2 s). The ledger, the source adapters with their HTTP
# client, and the converter load when one of their names is first read (PEP 562 ``__getattr__``
# below), and the reference-string parser's grammars when it first parses.
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

if typing.TYPE_CHECKING:  # the names below, for type checkers (loaded on first use at run time)
    from citeledger.ledger import CitationRecord, Outcome, build_record
    from citeledger.serialize import dumps, loads, make_converter
    from citeledger.sources import Capability, Source, SourceRegistry, load_source

    __version__: str

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


#: Where each name of ``__all__`` outside the core lives: it is imported from there when first
#: read, so that ``import citeledger`` loads no source adapter, HTTP client, ledger or converter.
_HOMES: typing.Final[dict[str, str]] = {
    "CitationRecord": "citeledger.ledger",
    "Outcome": "citeledger.ledger",
    "build_record": "citeledger.ledger",
    "dumps": "citeledger.serialize",
    "loads": "citeledger.serialize",
    "make_converter": "citeledger.serialize",
    "Capability": "citeledger.sources",
    "Source": "citeledger.sources",
    "SourceRegistry": "citeledger.sources",
    "load_source": "citeledger.sources",
}

#: The subpackages and modules outside the core that ``citeledger.<name>`` reaches without
#: importing them first (the core's are attributes once the package is imported; not ``dask``
#: and ``testing``, which need optional packages: reading them must not raise an ImportError
#: where ``hasattr`` expects an AttributeError).
_SUBMODULES: typing.Final = frozenset(
    {"exports", "formats", "frames", "ledger", "page", "serialize", "sources"}
)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        return version("citeledger")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0.0.0+unknown"


def __getattr__(name: str) -> object:
    """Load a name of ``__all__`` outside the core, a subpackage or ``__version__``, then keep it.

    Raises:
        AttributeError: ``name`` is none of them.
    """
    home = _HOMES.get(name)
    if home is not None:
        value: object = getattr(importlib.import_module(home), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"{__name__}.{name}")
    elif name == "__version__":
        value = _version()
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return list(__all__)
