"""Tests of citeledger.resolve (catalog, scoring, resolver); shared fixtures and data paths live in tests/conftest.py.

The helpers below serve more than one test module of this folder (the rule tests of
``test_resolver_rules.py`` and ``test_scoring_rules.py`` above all).
"""

from __future__ import annotations

from collections.abc import Iterable

import citeledger as cl
from citeledger.model import Agreement, ResolutionState
from citeledger.resolve.normalize import normalize_title
from citeledger.resolve.scoring import title_similarity

VERIFIED_EXACT = ResolutionState.VERIFIED_EXACT
VERIFIED_FUZZY = ResolutionState.VERIFIED_FUZZY
UNRESOLVED = ResolutionState.UNRESOLVED
MISMATCH = ResolutionState.METADATA_MISMATCH


#: A real record (Choudhary et al., Phys. Rev. A 76, 052305, 2007) several tests resolve against.
CLONING = cl.Paper(
    title="Local cloning of entangled qubits",
    authors=["Sujit K. Choudhary", "Samir Kunkri", "Ramij Rahaman", "Anirban Roy"],
    year=2007,
    venue="Physical Review A",
    volume="76",
    identifiers=["10.1103/physreva.76.052305"],
)


def title_sim(a: str, b: str) -> float:
    """The title similarity of two raw titles (normalised as the resolver normalises them)."""
    return title_similarity(normalize_title(a), normalize_title(b))


def resolved(
    papers: Iterable[cl.Paper],
    ref: cl.Reference | cl.Paper | str,
    state: ResolutionState,
    *reasons: str,
    config: cl.ResolverConfig | None = None,
) -> cl.Resolution:
    """``ref`` (what ``Resolver.resolve`` takes) resolved against ``papers``, asserted in ``state``.

    Each of ``reasons`` is asserted to be in the result's reason.
    """
    res = cl.Resolver(papers, config=config).resolve(ref)
    assert res.state is state, res.reason
    for reason in reasons:
        assert reason in res.reason
    return res


def agreement_of(res: cl.Resolution, name: str) -> Agreement | None:
    """The agreement of field ``name`` in ``res``'s evidence, None if not compared."""
    ev = res.evidence_for(name)
    return None if ev is None else ev.agreement


def review(**changes: object) -> cl.Paper:
    """Kaser's review of tropical glaciers (a title with a subtitle), with ``changes``."""
    values: dict[str, object] = {
        "title": "Climate sensitivity of tropical glaciers: a review of mass balance records",
        "authors": ["Georg Kaser"],
        "year": 2004,
        "volume": "43",
        "pages": "1-24",
    }
    values.update(changes)
    return cl.Paper(**values)  # type: ignore[arg-type]


def cite(paper: cl.Paper, **changes: object) -> cl.Reference:
    """A reference to ``paper`` as a reference list prints it, with ``changes``.

    Its title, year, venue, volume and first page, and its authors as "Family Initials"
    ("Michael E. Mann" is "Mann ME"); no identifiers. A change to None drops a field.
    """
    authors = ", ".join(
        " ".join((a.family or "", "".join(w[0] for w in (a.given or "").replace(".", " ").split())))
        for a in paper.authors
    )
    values: dict[str, object] = {
        "title": paper.title,
        "authors": authors or None,
        "year": paper.year,
        "venue": paper.venue,
        "volume": paper.volume,
        "first_page": paper.first_page,
    }
    values.update(changes)
    return cl.Reference(**values)  # type: ignore[arg-type]


def review_column_issues(*years_volumes: tuple[int, int]) -> list[cl.Paper]:
    """Issues of Aberer's SIGMOD Record "Book review column": one title, a year and volume each.

    The series that the resolver's series rule tells apart by year and volume or first page.
    """
    return [
        cl.Paper(
            title="Book review column",
            authors=["K. Aberer"],
            year=year,
            venue="SIGMOD Record",
            volume=str(volume),
        )
        for year, volume in years_volumes
    ]
