"""A preprint and its published version years later (``ResolverConfig.preprint_year_tolerance``)."""

from __future__ import annotations

import pytest

import citeledger as cl
from citeledger.identifiers import parse_identifier
from citeledger.model import Agreement
from citeledger.resolve.scoring import is_preprint
from tests import _data
from tests.conftest import requires_shared
from tests.resolve.conftest import resolved

_TITLE = "Givental action and trivialisation of circle action"


def _published(year: int = 2015, **changes: object) -> cl.Paper:
    values: dict[str, object] = {
        "title": _TITLE,
        "authors": ["Paul Norbury", "Nicolas Orantin"],
        "year": year,
        "venue": "Journal de l'École polytechnique",
        "identifiers": ["10.5802/jep.23"],
    }
    values.update(changes)
    return cl.Paper(**values)  # type: ignore[arg-type]


def _preprint_ref(year: int = 2013, **changes: object) -> cl.Reference:
    values: dict[str, object] = {
        "title": "Givental Action and Trivialisation of Circle Action",
        "authors": "P. Norbury and N. Orantin",
        "year": year,
        "identifiers": ["arXiv:1304.3343v2"],
    }
    values.update(changes)
    return cl.Reference(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("identifiers", "venue", "expected"),
    [
        (["arXiv:1304.3343v2"], None, True),
        (["10.48550/arXiv.1304.3343"], None, True),
        (["10.1101/2020.01.01.123456"], None, True),  # bioRxiv / medRxiv
        (["10.2139/ssrn.3412345"], None, True),
        ([], "arXiv preprint", True),
        ([], "Research Square", True),
        (["10.5802/jep.23"], "Journal de l'École polytechnique", False),
        ([], None, False),
    ],
)
def test_is_preprint(identifiers: list[str], venue: str | None, expected: bool) -> None:
    assert is_preprint([parse_identifier(i) for i in identifiers], venue) is expected


def test_a_preprint_verifies_to_its_version_published_two_years_later() -> None:
    res = resolved([_published()], _preprint_ref(), cl.ResolutionState.VERIFIED_FUZZY)
    year = next(e for e in res.evidence if e.field == "year")
    assert year.agreement is Agreement.PARTIAL
    # Not with the tolerance off, nor beyond it.
    strict = cl.ResolverConfig(preprint_year_tolerance=0)
    assert cl.Resolver([_published()], config=strict).resolve(_preprint_ref()).state is (
        cl.ResolutionState.UNRESOLVED
    )
    assert cl.Resolver([_published(2017)]).resolve(_preprint_ref()).state is (
        cl.ResolutionState.UNRESOLVED
    )


def test_the_preprint_tolerance_needs_exactly_one_preprint_published_later() -> None:
    unresolved = cl.ResolutionState.UNRESOLVED
    # A "preprint" dated after the published version is not one of its preprints.
    assert cl.Resolver([_published(2011)]).resolve(_preprint_ref()).state is unresolved
    # Both sides preprints (another deposit two years later): the ordinary tolerance applies.
    later_preprint = _published(identifiers=["10.1101/2015.01.01.000001"], venue="bioRxiv")
    assert cl.Resolver([later_preprint]).resolve(_preprint_ref()).state is unresolved
    # Neither side a preprint.
    journal_ref = _preprint_ref(identifiers=[], venue="J. Geom. Phys.")
    assert cl.Resolver([_published()]).resolve(journal_ref).state is unresolved
    # The other way round: the catalog holds the preprint, the reference cites the journal.
    preprint = _published(2013, identifiers=["arXiv:1304.3343"], venue="arXiv")
    published_ref = _preprint_ref(2015, identifiers=["10.5802/jep.23"], venue="J. Éc. polytech.")
    resolved([preprint], published_ref, cl.ResolutionState.VERIFIED_FUZZY)


def test_generic_titles_get_no_preprint_tolerance() -> None:
    paper = _published(title="Editorial")
    ref = _preprint_ref(title="Editorial")
    assert cl.Resolver([paper]).resolve(ref).state is not cl.ResolutionState.VERIFIED_FUZZY


@requires_shared
def test_fuzzycat_arxiv_preprint_and_journal_version_two_years_apart() -> None:
    found = 0
    for row in _data.rows("fuzzycat_verify_pairs.jsonl"):
        left, right = row["left"], row["right"]
        ids = left.get("ext_ids") or {}
        if (
            left.get("title", "").startswith("Givental")
            and ids.get("arxiv")
            and ((right.get("ext_ids") or {}).get("doi"))
        ):
            a = cl.Paper(
                title=left["title"],
                year=left.get("release_year"),
                identifiers=[f"arXiv:{ids['arxiv']}"],
                authors=[c.get("raw_name") for c in left.get("contribs") or []],
            )
            b = cl.Paper(
                title=right["title"],
                year=right.get("release_year"),
                identifiers=[right["ext_ids"]["doi"]],
                authors=[c.get("raw_name") for c in right.get("contribs") or []],
            )
            if a.year is not None and b.year is not None and b.year - a.year == 2:
                found += 1
                assert cl.verify(a, b).state is cl.ResolutionState.VERIFIED_FUZZY
    assert found >= 1
