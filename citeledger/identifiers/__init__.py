"""Scholarly identifiers: parse what people paste, keep one canonical form.

Seven schemes are modelled, one frozen class each: :class:`DOI`, :class:`ArxivId`, :class:`PMID`,
:class:`PMCID`, :class:`OpenAlexId` (works only), :class:`S2PaperId` and :class:`CorpusId`. Every
instance holds its *canonical* value (constructing one from a non-canonical string raises
:class:`~citeledger.errors.InvalidIdentifier`), so two equal identifiers always compare equal and
``parse_identifier(str(x)) == x``.

Messy text goes through :func:`parse_identifier` (one identifier, raises on failure),
:func:`normalize_doi` / :func:`normalize_arxiv` (one scheme) or :func:`find_identifiers` (free text:
every identifier plus the identifier-looking fragments that are malformed, with a reason).

Everything here is pure: no I/O, no module-level mutable state, and no regular expression with
nested quantifiers, so every function runs in time linear in its input.

The package holds one module per job: ``_types`` (the classes), ``_normalize`` and ``_parse``
(messy text to a canonical value), ``_work`` (which identifiers name the same work) and ``_find``
(identifiers in free text). Import from here; the submodules are private.

.. versionadded:: 0.1.0
.. versionchanged:: 0.2.0
   A package instead of one 1.6k-line module; every import path is unchanged.
"""

from __future__ import annotations

from citeledger.identifiers import _types
from citeledger.identifiers._find import (
    MAX_MALFORMED,
    FoundIdentifiers,
    MalformedFragment,
    find_identifiers,
)
from citeledger.identifiers._parse import normalize_arxiv, normalize_doi, parse_identifier
from citeledger.identifiers._schemes import ARXIV_ARCHIVES, Scheme
from citeledger.identifiers._types import *  # noqa: F403 - the classes, listed in _types.__all__
from citeledger.identifiers._work import (
    PREPRINT_DOI_PREFIXES,
    same_work,
    version_key,
    version_of,
    work_key,
)

__all__ = [
    "ARXIV_ARCHIVES",
    "MAX_MALFORMED",
    "PREPRINT_DOI_PREFIXES",
    "FoundIdentifiers",
    "MalformedFragment",
    "Scheme",
    "find_identifiers",
    "normalize_arxiv",
    "normalize_doi",
    "parse_identifier",
    "same_work",
    "version_key",
    "version_of",
    "work_key",
]
__all__ += _types.__all__
