"""Semantic Scholar Graph API: papers, batch lookups, references and citations with contexts.

The pure half builds :class:`~citeledger.sources._transport.Request` values
(:func:`build_paper_request`, :func:`build_batch_request`, :func:`build_references_request`,
:func:`build_citations_request`, :func:`build_search_request`) and parses response bodies
(:func:`parse_paper`, :func:`parse_batch`, :func:`parse_references_page`,
:func:`parse_citations_page`, :func:`parse_citation_counts`, :func:`parse_search`). The edge,
:class:`SemanticScholarSource`, sends them through an injected transport.

What the recordings show (``../shared/data/sources/semanticscholar``): errors are
``{"error": ...}`` (400/404) or ``{"message": ...}`` from the AWS gateway (429/403/504, the 429
without ``Retry-After``); batch responses are positional with ``null`` for unknown ids; pages
carry ``offset`` and ``next`` and the last page has no ``next``.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, Generic, TypeVar
from urllib.parse import quote

import attrs
from attrs import field, frozen

from citeledger.errors import (
    InvalidIdentifier,
    InvalidResponseError,
    NotFoundError,
    ParseError,
    SourceError,
)
from citeledger.identifiers import (
    PMCID,
    PMID,
    ArxivId,
    CorpusId,
    Identifier,
    OpenAlexId,
    S2PaperId,
    parse_identifier,
)
from citeledger.model import (
    Author,
    Direction,
    Measurement,
    MeasurementKind,
    Method,
    NoticeCheck,
    Observation,
    Paper,
    Reference,
    Resolution,
    ResolutionState,
    WorkType,
)
from citeledger.sources import Capability, Paged, unsupported
from citeledger.sources._transport import Request, RequestsTransport, Response, RetryPolicy, Transport

__all__ = [
    "DEFAULT_BASE_URL",
    "MAX_BATCH",
    "MAX_PAGE",
    "MAX_WINDOW",
    "BatchItem",
    "BatchStatus",
    "S2Link",
    "S2Page",
    "SemanticScholarSource",
    "build_batch_request",
    "build_citations_request",
    "build_paper_request",
    "build_references_request",
    "build_search_request",
    "parse_batch",
    "parse_citation_counts",
    "parse_citations_page",
    "parse_paper",
    "parse_references_page",
    "parse_search",
    "s2_paper_id",
]

NAME: Final = "semanticscholar"
#: The Graph API root; ``base_url`` replaces it.
DEFAULT_BASE_URL: Final = "https://api.semanticscholar.org/graph/v1"
#: Largest ``limit`` of one references/citations page (S2 Graph API documentation).
MAX_PAGE: Final = 1000
#: ``offset + limit`` may not exceed this on references/citations listings (S2 refuses deeper
#: pages; the rest of a listing is only reachable through the bulk datasets).
MAX_WINDOW: Final = 9999
#: Most ids one ``POST /paper/batch`` accepts (S2 Graph API documentation).
MAX_BATCH: Final = 500

#: Fields asked for a paper; nested paper fields (citingPaper/citedPaper) use the same names.
PAPER_FIELDS: Final = (
    "paperId,externalIds,corpusId,title,abstract,venue,year,publicationDate,journal,"
    "publicationTypes,authors,citationCount,influentialCitationCount,referenceCount,fieldsOfStudy"
)
#: Fields of one listing element: the link's own fields plus the other paper's.
LINK_FIELDS: Final = (
    "contexts,intents,isInfluential,paperId,externalIds,title,venue,year,publicationDate,"
    "journal,publicationTypes,authors"
)
COUNT_FIELDS: Final = "citationCount,influentialCitationCount"

_T = TypeVar("_T")

# S2 publicationTypes -> WorkType; anything else is left unset rather than guessed.
_WORK_TYPES: Final = {
    "JournalArticle": WorkType.ARTICLE,
    "Review": WorkType.ARTICLE,
    "LettersAndComments": WorkType.ARTICLE,
    "Editorial": WorkType.ARTICLE,
    "CaseReport": WorkType.ARTICLE,
    "ClinicalTrial": WorkType.ARTICLE,
    "Study": WorkType.ARTICLE,
    "MetaAnalysis": WorkType.ARTICLE,
    "Conference": WorkType.PROCEEDINGS_ARTICLE,
    "Book": WorkType.BOOK,
    "BookSection": WorkType.CHAPTER,
    "Dataset": WorkType.DATASET,
    "News": WorkType.OTHER,
}


# --------------------------------------------------------------------------- values


