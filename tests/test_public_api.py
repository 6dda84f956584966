"""The top-level package exports exactly the documented surface (httpx's test_exported_members).

``citeledger.__all__`` is the list below, the API reference lists the same names, every public
attribute of the package is in it, and every name that left it in 0.2.0 still imports from its
subpackage.
"""

from __future__ import annotations

import importlib
import re
import types
from pathlib import Path

import pytest

import citeledger

#: The top-level names: what a user needs to parse identifiers, resolve references, build and
#: serialise records and load sources. Everything else is imported from its subpackage.
PUBLIC = (
    # model values and enums
    "Author",
    "Coverage",
    "CoverageState",
    "Direction",
    "Facet",
    "Measurement",
    "Method",
    "NoticeCheck",
    "NoticeStatus",
    "Observation",
    "Paper",
    "Reference",
    "Resolution",
    "ResolutionState",
    # identifiers
    "DOI",
    "PMCID",
    "PMID",
    "ArxivId",
    "CorpusId",
    "OpenAlexId",
    "S2PaperId",
    "Identifier",
    "Scheme",
    "normalize_doi",
    "parse_identifier",
    # resolver
    "Catalog",
    "Resolver",
    "ResolverConfig",
    "verify",
    # ledger
    "CitationRecord",
    "Outcome",
    "build_record",
    # sources
    "Capability",
    "Source",
    "SourceRegistry",
    "load_source",
    # serialisation
    "dumps",
    "loads",
    "make_converter",
    # errors
    "CiteledgerError",
    "InvalidIdentifier",
    "ModelError",
    "ParseError",
    "SourceError",
)

#: Where each name that left ``citeledger.__all__`` in 0.2.0 lives now (the CHANGELOG lists the
#: same). A removed name importing from here is the promise the changelog makes.
MOVED = {
    "citeledger.errors": (
        "BadRequestError",
        "DeserializationError",
        "HTTPStatusError",
        "IncompatibleMeasurements",
        "InvalidResponseError",
        "NaiveDatetimeError",
        "NotFoundError",
        "QuotaExceededError",
        "RateLimitError",
        "ServerError",
        "SourceNotFound",
        "SourceTimeout",
        "TransportError",
        "UnsafeXMLError",
        "UnsupportedCapability",
        "WorkerLost",
    ),
    "citeledger.formats.dumps": (
        "iter_crossref_items",
        "iter_openalex_works",
        "iter_opencitations_csv",
        "iter_opencitations_meta_csv",
    ),
    "citeledger.formats.jats": ("parse_jats_paper", "parse_jats_references"),
    "citeledger.formats.tei": ("parse_tei_paper", "parse_tei_references"),
    "citeledger.frames": (
        "citing_papers_frame",
        "citing_papers_table",
        "observations_frame",
        "observations_table",
        "resolutions_frame",
        "resolutions_table",
    ),
    "citeledger.identifiers": (
        "FoundIdentifiers",
        "IDENTIFIER_TYPES",
        "MalformedFragment",
        "find_identifiers",
        "normalize_arxiv",
        "same_work",
        "work_key",
    ),
    "citeledger.ledger": (
        "PRINCIPLE",
        "SCHEMA",
        "Claim",
        "Disagreement",
        "ObservationNotice",
        "Reconciliation",
        "SourceIdentity",
        "SourceReport",
        "StateCount",
        "WorkNotices",
    ),
    "citeledger.model": (
        "Agreement",
        "Event",
        "EventKind",
        "Evidence",
        "MeasurementKind",
        "Relation",
        "RelationKind",
        "WorkType",
        "utc",
    ),
    "citeledger.page": (
        "AreaCount",
        "AreaProfile",
        "CitedByYear",
        "CitingWork",
        "CountedCitation",
        "YearCount",
    ),
    "citeledger.resolve": ("CandidateProvider",),
    "citeledger.serialize": ("structure",),
    "citeledger.sources": (
        "Paged",
        "Request",
        "RequestsTransport",
        "Response",
        "RetryPolicy",
        "Transport",
        "UnreadableItem",
    ),
    "citeledger.sources.arxiv": ("ArxivSource",),
    "citeledger.sources.crossref": ("CrossrefSource",),
    "citeledger.sources.openalex": ("OpenAlexSource",),
    "citeledger.sources.opencitations": ("CitationLink", "OpenCitationsSource"),
    "citeledger.sources.retractionwatch": ("RetractionWatchSource",),
    "citeledger.sources.sample": ("SampleSource",),
    "citeledger.sources.semanticscholar": ("SemanticScholarSource",),
}

API_PAGE = Path(__file__).resolve().parents[1] / "docs" / "reference" / "api" / "citeledger.rst"


def test_all_is_exactly_the_documented_surface() -> None:
    assert sorted(citeledger.__all__) == sorted(PUBLIC)
    assert len(set(PUBLIC)) == len(PUBLIC)


def test_every_public_attribute_is_exported() -> None:
    """Nothing public hides in the package namespace outside ``__all__`` (submodules aside)."""
    public = {
        name
        for name, value in vars(citeledger).items()
        if not name.startswith("_")
        and not isinstance(value, types.ModuleType)
        and name != "annotations"
    }
    assert public == set(citeledger.__all__)


@pytest.mark.parametrize("name", PUBLIC)
def test_each_exported_name_is_defined_in_a_submodule(name: str) -> None:
    value = getattr(citeledger, name)
    # A type alias (Identifier) has no __module__ of its own: it is the identifiers' alias.
    home = "citeledger.identifiers" if isinstance(value, types.UnionType) else value.__module__
    assert home.startswith("citeledger."), (name, home)
    assert getattr(importlib.import_module(home), name) is value


def test_dir_is_all() -> None:
    assert dir(citeledger) == sorted(citeledger.__all__)


def test_the_api_page_lists_the_same_names() -> None:
    text = API_PAGE.read_text(encoding="utf-8")
    section = text.split("Top-level names\n---------------\n", 1)[1]
    listed = re.findall(r"``cl\.(\w+)``", section)
    assert sorted(listed) == sorted(PUBLIC)


@pytest.mark.parametrize("module", sorted(MOVED))
def test_names_that_left_the_top_level_import_from_their_subpackage(module: str) -> None:
    mod = importlib.import_module(module)
    for name in MOVED[module]:
        assert getattr(mod, name) is not None, (module, name)
        assert name in getattr(mod, "__all__", ()), (module, name)
        assert not hasattr(citeledger, name) or name in PUBLIC, name
