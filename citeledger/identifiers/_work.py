"""Work identity: which identifiers (and which versions) name the same work.

.. versionadded:: 0.2.0
   Split out of ``citeledger/identifiers.py``; import from :mod:`citeledger.identifiers`.
"""

from __future__ import annotations

import re
from typing import Final

from citeledger.identifiers._schemes import _ARXIV_DOI_PREFIX
from citeledger.identifiers._types import DOI, ArxivId, Identifier


def work_key(x: Identifier) -> str:
    """A string naming the *work* an identifier points at.

    All versions of an arXiv paper, its old-style subject-class variants and its arXiv DataCite
    DOI share ``"arxiv:<base>"``; every other identifier is its own key, ``str(x)``.

    >>> from citeledger.identifiers import normalize_arxiv, normalize_doi
    >>> work_key(normalize_doi("10.48550/arXiv.2104.07857"))
    'arxiv:2104.07857'

    .. versionadded:: 0.1.0
    """
    # Called for every identifier a catalog indexes and several times per resolved reference:
    # the common case, a plain DOI, is answered first.
    if type(x) is DOI and not x.value.startswith(_ARXIV_DOI_PREFIX):
        return "doi:" + x.value
    if isinstance(x, ArxivId):
        return f"arxiv:{x.work_base}"
    if isinstance(x, DOI):
        arxiv = x.as_arxiv()
        if arxiv is not None:
            return f"arxiv:{arxiv.work_base}"
    return str(x)


# DOI registrants that mint one DOI per *version* of a deposit, with the version as a suffix
# of the concept DOI. Only these suffix conventions are folded; opaque version DOIs (Zenodo's
# numeric ones, Columbia's) are linked only by the metadata's own relations (Paper.related).
_VERSIONED_DOI: Final = (
    # figshare: 10.6084/m9.figshare.123456.v2 (concept DOI without ".vN")
    (re.compile(r"^(doi:10\.6084/.+)\.v\d+$"), r"\1"),
    # Preprints.org: 10.20944/preprints202001.0001.v1
    (re.compile(r"^(doi:10\.20944/.+)\.v\d+$"), r"\1"),
    # Research Square 10.21203/rs.2.18406/v1, Authorea 10.22541/au.1234.5678/v2
    (re.compile(r"^(doi:10\.2(?:1203|2541)/.+)/v\d+$"), r"\1"),
    # OSF preprint servers: 10.31219/osf.io/abcde_v2
    (re.compile(r"^(doi:10\.312\d\d/.+)_v\d+$"), r"\1"),
    # Springer living reference works: 10.1007/978-3-319-76887-8_61-1 is version 1 of entry _61
    (re.compile(r"^(doi:10\.1007/978-[\dx-]+_\d+)-\d+$"), r"\1"),
    # BSI standards: 10.3403/30276345u is the undated form of 10.3403/30276345
    (re.compile(r"^(doi:10\.3403/\d+)u$"), r"\1"),
)

# The registrants above ("10.6084", ...; OSF's servers are 10.31200-10.31299): a work key's
# registrant is looked up in a set, which costs less than ``startswith`` over a hundred prefixes.
_VERSIONED_REGISTRANTS: Final = frozenset(
    ("10.6084", "10.20944", "10.21203", "10.22541", "10.1007", "10.3403")
) | frozenset(f"10.312{d:02d}" for d in range(100))

#: DOI prefixes of preprint servers and repositories: a paper's DOI there and its published DOI
#: are two DOIs of one work, so they never count as conflicting identifiers.
PREPRINT_DOI_PREFIXES: Final = (
    "doi:10.48550/",  # arXiv (already one work key with the arXiv id)
    "doi:10.1101/",  # bioRxiv, medRxiv
    "doi:10.2139/",  # SSRN
    "doi:10.21203/",  # Research Square
    "doi:10.20944/",  # Preprints.org
    "doi:10.22541/",  # Authorea
    "doi:10.26434/",  # ChemRxiv
    "doi:10.31219/",  # OSF Preprints
    "doi:10.31234/",  # PsyArXiv
    "doi:10.31235/",  # SocArXiv
    "doi:10.5281/",  # Zenodo
    "doi:10.6084/",  # figshare
)


def version_key(ident: Identifier) -> str:
    """The work key with a registrant's *version* suffix removed (same as ``work_key`` otherwise).

    Registrants that mint a DOI per version append the version to the concept DOI; those
    suffixes name versions of one work, like arXiv's ``v2``:

    >>> from citeledger.identifiers import normalize_doi
    >>> version_key(normalize_doi("10.6084/m9.figshare.5107054.v2"))
    'doi:10.6084/m9.figshare.5107054'
    >>> version_key(normalize_doi("10.21203/rs.2.18406/v1"))
    'doi:10.21203/rs.2.18406'
    >>> version_key(normalize_doi("10.1000/abc.v1"))  # other registrants: left alone
    'doi:10.1000/abc.v1'
    """
    return version_of(work_key(ident))


def version_of(key: str) -> str:
    """:func:`version_key` of an identifier whose work key is ``key`` (computed already).

    >>> version_of("doi:10.6084/m9.figshare.5107054.v2")
    'doi:10.6084/m9.figshare.5107054'
    """
    if key.startswith("doi:10.") and key[4 : key.find("/")] in _VERSIONED_REGISTRANTS:
        for pattern, repl in _VERSIONED_DOI:
            if pattern.match(key):
                return pattern.sub(repl, key)
    return key


def same_work(a: Identifier, b: Identifier) -> bool:
    """Whether two identifiers name the same work.

    True when they are equal, when both are versions of one arXiv paper, or when one is the
    arXiv DataCite DOI of the other. An explicit equivalence: the values are never rewritten.

    >>> from citeledger.identifiers import normalize_arxiv, normalize_doi
    >>> same_work(normalize_arxiv("2104.07857v2"), normalize_doi("10.48550/arXiv.2104.07857"))
    True

    .. versionadded:: 0.1.0
    """
    return a == b or work_key(a) == work_key(b)
