"""Test data shared by more than one test folder: journal names and the matching-dev rows.

The resolver's tests (``tests/resolve``) and the parser's (``tests/refparse``) both read these;
a module of its own keeps either folder from importing the other's tests.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

import citeledger as cl
from tests.conftest import MATCHING

#: (full name, ISO 4 / NLM abbreviation) of real journals, pairwise different journals.
JOURNALS = (
    ("Proceedings of the National Academy of Sciences", "Proc. Natl. Acad. Sci. U.S.A"),
    ("Physical Review Letters", "Phys Rev Lett"),
    ("Physical Review D", "Phys. Rev. D"),
    ("Physical Review B", "Phys. Rev. B"),
    ("Journal of the American Chemical Society", "J Am Chem Soc"),
    ("The New England Journal of Medicine", "N Engl J Med"),
    ("Annals of the New York Academy of Sciences", "Ann N Y Acad Sci"),
    ("Nature", "Nature"),
    ("Nature Genetics", "Nat Genet"),
    ("Nature Medicine", "Nat. Med."),
    ("The Journal of Chemical Physics", "J. Chem. Phys."),
    ("The Journal of Physical Chemistry", "J. Phys. Chem."),
    ("Cell", "Cell"),
    ("Cell Metabolism", "Cell Metab"),
    ("Applied and Environmental Microbiology", "Appl Environ Microbiol"),
    ("American Journal of Human Genetics", "Am J Hum Genet"),
    ("Journal of Magnetism and Magnetic Materials", "J Magn Magn Mater"),
    ("Reviews of Modern Physics", "Rev. Mod. Phys."),
)


def journal_record(venue: str, *, authors: tuple[str, ...]) -> cl.Paper:
    """One article (volume 76, pages 4350-4354, 1979) in ``venue``: the journal tests' record."""
    return cl.Paper(
        title="Electrophoretic transfer of proteins",
        authors=list(authors),
        year=1979,
        venue=venue,
        volume="76",
        pages="4350-4354",
        identifiers=["10.5555/journals.test"],
    )


#: The matching-dev data set's normalised files (``../shared``; tests reading them are marked
#: ``requires_shared``).
NORMALIZED = MATCHING / "normalized"


@cache
def rows(name: str) -> tuple[dict[str, Any], ...]:
    """The rows of ``NORMALIZED / name`` (read once per run); skips the test when it is absent."""
    path = NORMALIZED / name
    if not path.is_file():
        pytest.skip(f"{path} is not present")
    with path.open(encoding="utf-8") as fh:
        return tuple(json.loads(line) for line in fh if line.strip())


def row(name: str, ident: str) -> dict[str, Any]:
    """The row of ``NORMALIZED / name`` whose id is ``ident``."""
    return next(r for r in rows(name) if r["id"] == ident)


def magellan_paper(rec: dict[str, str]) -> cl.Paper:
    """A Magellan (DBLP-ACM, DBLP-Scholar) record as a paper; empty fields are unknown."""
    return cl.Paper(
        title=rec["title"] or None,
        authors=rec["authors"] or None,
        venue=rec["venue"] or None,
        year=rec["year"] or None,
    )


def glutton_paper(row: dict[str, Any]) -> cl.Paper:
    """The target record of a glutton PMC row (its gold fields and DOI) as a paper."""
    left = row["left"]
    return cl.Paper(
        title=left["atitle"],
        authors=[left["firstAuthor"]] if left.get("firstAuthor") else [],
        venue=left.get("jtitle"),
        volume=left.get("volume"),
        pages=left.get("firstPage"),
        identifiers=[cl.normalize_doi(row["right"]["doi"])],
    )
