"""Journal names: ISO 4 keys from the LTWA (citeledger.resolve.journals) and the locator route."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citeledger as cl
from citeledger.model import ResolutionState
from citeledger.resolve.journals import journal_key, ltwa_contradicts, same_journal_key
from citeledger.resolve.scoring import same_journal
from tests._data import JOURNALS, journal_record


@pytest.mark.parametrize(("full", "abbreviation"), JOURNALS)
def test_a_journal_and_its_iso4_abbreviation_have_one_key(full: str, abbreviation: str) -> None:
    assert same_journal_key(full, abbreviation)
    assert same_journal(full, abbreviation)
    assert same_journal(abbreviation, full)


def test_the_issue_examples() -> None:
    # issue 15: refused as another journal before the LTWA keys
    assert same_journal(
        "Proc. Natl. Acad. Sci. U.S.A", "Proceedings of the National Academy of Sciences"
    )
    assert same_journal("N Engl J Med", "New England Journal of Medicine")
    assert same_journal("Ann N Y Acad Sci", "Annals of the New York Academy of Sciences")
    assert not same_journal("Nature", "Nature Genetics")
    assert journal_key("Phys. Rev. Lett.").words == ("phys", "rev", "lett")


def test_clashing_iso4_forms_are_two_journals() -> None:
    assert ltwa_contradicts("J Chem Phys", "Journal of Physical Chemistry")
    assert not same_journal("J Chem Phys", "Journal of Physical Chemistry")
    # a shortening beyond ISO 4 is left to the hand rule, which accepts it
    assert not ltwa_contradicts("Ann Rev Immunol", "Annual Review of Immunology")
    assert same_journal("Ann Rev Immunol", "Annual Review of Immunology")


def test_the_key_ignores_case_dots_function_words_and_years() -> None:
    assert journal_key("SPINE (Phila Pa 1976)").words == journal_key("spine phila pa").words
    assert journal_key("The Journal of Biological Chemistry").words == ("j", "biol", "chem")
    assert journal_key(None).words == ()
    assert not same_journal_key(None, "Nature")


_AUTHORS = ("H. Towbin", "T. Staehelin")


def _reference(venue: str) -> cl.Reference:
    return cl.Reference(
        authors=["Towbin H", "Staehelin T"], year=1979, venue=venue, volume="76", first_page="4350"
    )


@settings(max_examples=150, deadline=None)
@given(
    pair=st.lists(st.sampled_from(JOURNALS), min_size=2, max_size=2, unique=True),
    forms=st.tuples(st.integers(0, 1), st.integers(0, 1)),
)
def test_the_locator_route_never_verifies_across_two_journals(
    pair: list[tuple[str, str]], forms: tuple[int, int]
) -> None:
    cited, held = pair[0][forms[0]], pair[1][forms[1]]
    res = cl.Resolver([journal_record(held, authors=_AUTHORS)]).resolve(_reference(cited))
    assert not res.verified, (cited, held, res.reason)


@settings(max_examples=60, deadline=None)
@given(journal=st.sampled_from(JOURNALS), forms=st.tuples(st.integers(0, 1), st.integers(0, 1)))
def test_the_locator_route_verifies_one_journal_in_any_form(
    journal: tuple[str, str], forms: tuple[int, int]
) -> None:
    res = cl.Resolver([journal_record(journal[forms[1]], authors=_AUTHORS)]).resolve(
        _reference(journal[forms[0]])
    )
    assert res.state is ResolutionState.VERIFIED_FUZZY
