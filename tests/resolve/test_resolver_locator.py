"""References without a title: the journal, volume and first page route."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citeledger as cl
from citeledger.model import Method, ResolutionState
from citeledger.resolve.catalog import locator_key
from citeledger.resolve.scoring import same_journal
from tests import _data
from tests.conftest import requires_shared
from tests.resolve.conftest import resolved

VERIFIED = ResolutionState.VERIFIED_FUZZY

TOWBIN = cl.Paper(
    title="Electrophoretic transfer of proteins from polyacrylamide gels to nitrocellulose "
    "sheets: procedure and some applications",
    authors=["Harry Towbin", "Theophil Staehelin", "Julian Gordon"],
    year=1979,
    venue="Proceedings of the National Academy of Sciences of the United States of America",
    volume="76",
    pages="4350-4354",
    identifiers=["10.1073/pnas.76.9.4350"],
)
# Same year, volume and first page in another journal.
ELSEWHERE = cl.model.replace(
    TOWBIN,
    title="Kinetics of a quite different reaction",
    authors=["Anna Other"],
    venue="Journal of Biological Chemistry",
    pages="4350-4361",
    identifiers=(),
)


def _ref(**fields: object) -> cl.Reference:
    values: dict[str, object] = {
        "authors": "Towbin H, Staehelin T, Gordon J",
        "year": 1979,
        "venue": "Proc Natl Acad Sci USA",
        "volume": "76",
        "first_page": "4350",
    }
    values.update(fields)
    return cl.Reference(**values)  # type: ignore[arg-type]


def test_journal_volume_and_page_find_the_work_and_the_authors_confirm_it() -> None:
    res = resolved([ELSEWHERE, TOWBIN], _ref(), VERIFIED)
    assert res.method is Method.JOURNAL_VOLUME_PAGE
    assert res.target is TOWBIN
    assert res.score == 100.0  # every compared field agrees
    assert res.reason.startswith("no title; the journal, volume and first page identify")
    assert {e.field for e in res.evidence} == {"authors", "year", "volume", "first_page", "venue"}


@pytest.mark.parametrize(
    ("fields", "confirmed"),
    [
        ({"authors": None}, True),  # the exact year confirms
        ({"year": None}, True),  # the authors confirm
        ({"year": 1980, "authors": None}, False),  # a year off by one does not confirm alone
        ({"year": None, "authors": None}, False),  # nothing confirms
    ],
)
def test_the_year_or_the_authors_must_confirm(fields: dict[str, object], confirmed: bool) -> None:
    res = cl.Resolver([TOWBIN]).resolve(_ref(**fields))
    if confirmed:
        assert res.state is VERIFIED
    else:
        assert res.state is ResolutionState.UNRESOLVED
        assert "neither the year nor the authors confirm it" in res.reason
        assert res.alternatives == (TOWBIN,)


def test_a_clear_disagreement_refuses_the_match() -> None:
    resolved(
        [TOWBIN],
        _ref(authors="Smith J", year=1985),
        ResolutionState.UNRESOLVED,
        "disagreeing authors, year",
    )


@pytest.mark.parametrize("venue", ["Nature", "J Biol Chem", "Proceedings of the Royal Society"])
def test_another_journal_with_the_same_volume_and_page_is_not_the_work(venue: str) -> None:
    resolved([TOWBIN], _ref(venue=venue), ResolutionState.UNRESOLVED, "is not")


def test_nature_is_not_nature_genetics() -> None:
    genetics = cl.model.replace(TOWBIN, venue="Nature Genetics", identifiers=["10.1038/ng.1"])
    res = resolved([genetics], _ref(venue="Nature"), ResolutionState.UNRESOLVED)
    # compare_venue lets "Nature" agree with "Nature Genetics" (it corroborates titles); the
    # journal test of this route does not.
    assert res.evidence_for("venue") is not None


def test_two_items_on_one_page_are_ambiguous_unless_the_authors_tell_them_apart() -> None:
    # A letter and the reply printed on the same page.
    reply = cl.model.replace(
        TOWBIN, title="Reply", authors=["Mary Replier"], identifiers=["10.1073/pnas.76.9.4350b"]
    )
    # the reply's author list shares no name: it is not cited
    res = resolved([TOWBIN, reply], _ref(), VERIFIED)
    assert res.target is TOWBIN
    unsigned = cl.model.replace(reply, authors=())
    amb = resolved([TOWBIN, unsigned], _ref(), ResolutionState.UNRESOLVED)
    assert amb.reason.startswith("no title; ambiguous")
    assert set(amb.alternatives) == {TOWBIN, unsigned}


def test_no_record_at_that_volume_and_page() -> None:
    resolved(
        [ELSEWHERE],
        _ref(first_page="4351"),
        ResolutionState.UNRESOLVED,
        "no catalog record has volume '76', first page '4351'",
    )
    # without a journal the route is not tried: there is too little to match on
    resolved([TOWBIN], _ref(venue=None), ResolutionState.PARSE_UNCERTAIN)


def test_a_physics_style_string_resolves() -> None:
    ref = cl.Reference.from_string(
        "H. Towbin, T. Staehelin, J. Gordon, Proc. Natl. Acad. Sci. USA 76, 4350 (1979)."
    )
    assert ref.title is None
    res = resolved([ELSEWHERE, TOWBIN], ref, VERIFIED)
    assert res.target is TOWBIN


def test_a_string_without_title_that_finds_nothing_stays_parse_uncertain() -> None:
    # The parser took the title for part of the journal; the failed lookup does not make the
    # reference UNRESOLVED ("looked up, not there"): it stays PARSE_UNCERTAIN, with the reason.
    ref = cl.Reference.from_string(
        "Smith J. Amplifying estrogenity of. Canadian Journal of Zoology 2002;285:2767."
    )
    assert ref.title is None
    assert ref.venue == "Amplifying estrogenity of. Canadian Journal of Zoology"
    zoology = cl.model.replace(
        TOWBIN,
        authors=["J. Smith"],
        year=2002,
        venue="Canadian Journal of Zoology",
        volume="285",
        pages="2767-2770",
    )
    res = resolved([zoology], ref, ResolutionState.PARSE_UNCERTAIN)
    assert res.reason.startswith("no title found in the string;")
    assert "is not 'Amplifying estrogenity of. Canadian Journal of Zoology'" in res.reason


def test_an_identifier_not_in_the_catalog_falls_through_to_the_route() -> None:
    ref = _ref(identifiers=["PMID:291963"])
    res = resolved([TOWBIN], ref, VERIFIED)
    assert res.reason.startswith("pmid:291963 not in catalog; no title;")


def test_verify_uses_the_route_like_a_one_paper_resolver() -> None:
    for ref in (_ref(), _ref(venue="Nature"), _ref(year=None, authors=None)):
        assert cl.verify(ref, TOWBIN) == cl.Resolver([TOWBIN]).resolve(ref)


def test_the_locator_index_survives_pickling_and_labels() -> None:
    cat = pickle.loads(pickle.dumps(cl.Catalog([ELSEWHERE, TOWBIN])))
    assert cat.by_locator("Vol. 76", "pp. 4350") == [ELSEWHERE, TOWBIN]
    assert cat.by_locator("76", None) == []
    assert locator_key("76", "S12") == "76|s12"


@settings(max_examples=60)
@given(
    case=st.sampled_from([str.upper, str.lower, str.title]),
    dots=st.booleans(),
    spaces=st.integers(min_value=1, max_value=3),
)
def test_the_route_ignores_case_punctuation_and_spacing_noise(
    case: object, dots: bool, spaces: int
) -> None:
    words = ["Proc", "Natl", "Acad", "Sci", "USA"]
    venue = (" " * spaces).join(w + ("." if dots else "") for w in words)
    venue = case(venue)  # type: ignore[operator]
    resolved([TOWBIN], _ref(venue=venue, authors="TOWBIN H"), VERIFIED)


@pytest.mark.parametrize(
    ("left", "right", "same"),
    [
        ("Proc Natl Acad Sci USA", TOWBIN.venue, True),
        ("Proc. Natl. Acad. Sci. U.S.A.", TOWBIN.venue, True),
        ("J Magn Magn Mater", "Journal of Magnetism and Magnetic Materials", True),
        ("JBC", "Journal of Biological Chemistry", True),
        ("The Journal of Biological Chemistry", "J. Biol. Chem.", True),
        ("Spine (Phila Pa)", "Spine (Phila Pa 1976)", True),
        ("Phys. Rev. B", "Physical Review B", True),
        ("Phys. Rev. B", "Physical Review A", False),
        ("Phys Rev", "Physical Review Letters", False),
        ("Nature", "Nature Genetics", False),
        ("Brain Res", "Brain Research Bulletin", False),
        ("J Neurosci", "Journal of Neurochemistry", False),
        (None, "Nature", False),
    ],
)
def test_same_journal(left: str | None, right: str | None, same: bool) -> None:
    assert same_journal(left, right) is same
    assert same_journal(right, left) is same


@requires_shared
def test_a_pmc_string_without_its_title_finds_its_record() -> None:
    # glutton-pmc:3, "Cotton PB, ... Endoscopic sphincterotomy complications and their
    # management: an attempt at consensus. Gastrointest Endosc. 1991;37:383-93." with the title
    # removed: the journal, volume and first page find the record, the first author confirms.
    row = _data.row("glutton_pmc1943_refs_doi_17k.jsonl", "glutton-pmc:3")
    record = _data.glutton_paper(row)
    parsed = cl.Reference.from_string(row["left"]["reference"])
    bare = cl.model.replace(parsed, title=None)
    res = resolved([ELSEWHERE, record], bare, VERIFIED)
    assert res.method is Method.JOURNAL_VOLUME_PAGE
    assert res.target is record
