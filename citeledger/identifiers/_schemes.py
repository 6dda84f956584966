"""The seven identifier schemes and the arXiv archive list every layer of parsing needs.

.. versionadded:: 0.2.0
   Split out of ``citeledger/identifiers.py``; import from :mod:`citeledger.identifiers`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Scheme(StrEnum):
    """The identifier schemes citeledger understands; the value is the ``str()`` prefix."""

    DOI = "doi"
    ARXIV = "arxiv"
    PMID = "pmid"
    PMCID = "pmcid"
    OPENALEX = "openalex"
    S2 = "s2"
    CORPUSID = "corpusid"


#: Every arXiv archive that has issued old-style ``archive/YYMMNNN`` ids, current and retired
#: (arXiv "Understanding the arXiv identifier" and the archive list in its category taxonomy).
ARXIV_ARCHIVES: Final = frozenset(
    {
        "acc-phys",
        "adap-org",
        "alg-geom",
        "ao-sci",
        "astro-ph",
        "atom-ph",
        "bayes-an",
        "chao-dyn",
        "chem-ph",
        "cmp-lg",
        "comp-gas",
        "cond-mat",
        "cs",
        "dg-ga",
        "funct-an",
        "gr-qc",
        "hep-ex",
        "hep-lat",
        "hep-ph",
        "hep-th",
        "math",
        "math-ph",
        "mtrl-th",
        "nlin",
        "nucl-ex",
        "nucl-th",
        "patt-sol",
        "physics",
        "plasm-ph",
        "q-alg",
        "q-bio",
        "q-fin",
        "quant-ph",
        "solv-int",
        "stat",
        "supr-con",
    }
)

_ARXIV_DOI_PREFIX: Final = "10.48550/arxiv."
