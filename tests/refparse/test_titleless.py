"""Title-less reference styles (physics, chemistry, Nature, Vancouver short) and the locator route.

Parser examples are real references as printed (the issue's, the LIGO and BCS papers, PMC
strings of the glutton set); resolver tests check the string route end to end.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citeledger as cl
from citeledger.model import Method, ResolutionState
from citeledger.refparse import parse_reference
from tests._data import JOURNALS, journal_record
from tests.refparse._cases import rows

# (string, first author's family name, journal, volume, first page, year)
TITLE_LESS = (
    # Nature
    (
        "Y. LeCun, Y. Bengio, G. Hinton, Nature 521, 436 (2015).",
        "LeCun",
        "Nature",
        "521",
        "436",
        2015,
    ),
    ("E. Garfield, Science 178, 471 (1972).", "Garfield", "Science", "178", "471", 1972),
    # APS / AIP: article numbers
    (
        "B. P. Abbott et al., Phys. Rev. Lett. 116, 061102 (2016).",
        "Abbott",
        "Phys. Rev. Lett",
        "116",
        "061102",
        2016,
    ),
    (
        "B. P. Abbott et al., Phys. Rev. D 93, 122003 (2016).",
        "Abbott",
        "Phys. Rev. D",
        "93",
        "122003",
        2016,
    ),
    (
        "J. Bardeen, L. N. Cooper, and J. R. Schrieffer, Phys. Rev. 108, 1175 (1957).",
        "Bardeen",
        "Phys. Rev",
        "108",
        "1175",
        1957,
    ),
    (
        "M. Cotton, P. Lehman, Gastrointest. Endosc. 51, 23 (2000).",
        "Cotton",
        "Gastrointest. Endosc",
        "51",
        "23",
        2000,
    ),
    # a page that looks like a year: the year in parentheses wins
    (
        "G. Kempen, I. Miedema, J. Ormel, W. Molenaar, Soc. Sci. Med. 43, 1601 (1996).",
        "Kempen",
        "Soc. Sci. Med",
        "43",
        "1601",
        1996,
    ),
    # a supplement page keeps its letter
    (
        "T. Regnault, H. Galan, Placenta 23, S119 (2002).",
        "Regnault",
        "Placenta",
        "23",
        "S119",
        2002,
    ),
    # ACS
    (
        "Hummers, W. S.; Offeman, R. E. J. Am. Chem. Soc. 1958, 80, 1339.",
        "Hummers",
        "J. Am. Chem. Soc",
        "80",
        "1339",
        1958,
    ),
    (
        "Becke, A. D. J. Chem. Phys. 1993, 98, 5648–5652.",
        "Becke",
        "J. Chem. Phys",
        "98",
        "5648",
        1993,
    ),
    # ACS: the journal's first words right after the last initials, no comma between
    (
        "Deeg, D. J. Clin. Epidemiol. 2002, 55, 213.",
        "Deeg",
        "J. Clin. Epidemiol",
        "55",
        "213",
        2002,
    ),
    (
        "Nybo, H.; Petersen, H.; Gaist, D.; McGue, M. J. Am. Geriatr. Soc. 2003, 51, 1365.",
        "Nybo",
        "J. Am. Geriatr. Soc",
        "51",
        "1365",
        2003,
    ),
    (
        "Tsujino, T.; Isayama, H.; Minagawa, N. Am. J. Gastroenterol. 2005, 100, 38.",
        "Tsujino",
        "Am. J. Gastroenterol",
        "100",
        "38",
        2005,
    ),
    (
        "Grimme, S.; Antony, J.; Ehrlich, S.; Krieg, H. J. Chem. Phys. 2010, 132, 154104.",
        "Grimme",
        "J. Chem. Phys",
        "132",
        "154104",
        2010,
    ),
    # Vancouver short form
    ("Garfield E. Science. 1972;178(4060):471-9.", "Garfield", "Science", "178", "471", 1972),
    (
        "Cotton PB, Lehman G, Vennes J, et al. Gastrointest Endosc. 1991;37:383-93.",
        "Cotton",
        "Gastrointest Endosc",
        "37",
        "383",
        1991,
    ),
    (
        "Maher TM, Wells AU, Laurent GJ. Eur Respir J. 2007;30:835-9.",
        "Maher",
        "Eur Respir J",
        "30",
        "835",
        2007,
    ),
    ("Myllyharju J. Ann Med. 2008;40:402-17.", "Myllyharju", "Ann Med", "40", "402", 2008),
    ("Kohn W, Sham LJ. Phys Rev. 1965;140:A1133.", "Kohn", "Phys Rev", "140", "A1133", 1965),
)


@pytest.mark.parametrize(("text", "family", "venue", "volume", "page", "year"), TITLE_LESS)
def test_title_less_styles_parse_with_confidence(
    text: str, family: str, venue: str, volume: str, page: str, year: int
) -> None:
    ref = parse_reference(text)
    assert ref.title is None
    assert ref.authors[0].family == family
    assert (ref.venue, ref.volume, ref.first_page, ref.year) == (venue, volume, page, year)
    assert ref.doubt is None
    assert ref.confidence >= 0.8


# ACS: a journal abbreviation ("J.", "Am.", "Br.") after the last initials opens the journal,
# but before a whole-word journal the "J." is the author's (tests/refparse/acs_initials.json).
@pytest.mark.parametrize(("text", "initials", "venue"), rows("acs_initials"))
def test_acs_initials_end_where_the_journal_starts(text: str, initials: str, venue: str) -> None:
    ref = parse_reference(text)
    assert (ref.authors[-1].given, ref.venue, ref.title) == (initials, venue, None)
    assert ref.doubt is None


@pytest.mark.parametrize(
    ("text", "title", "venue"),
    [
        (
            "LeCun Y, Bengio Y, Hinton G. Deep learning. Nature. 2015;521:436-44.",
            "Deep learning",
            "Nature",
        ),
        (
            "Siegel RL, Miller KD, Jemal A. Cancer Statistics. CA Cancer J Clin. 2020;70:7-30.",
            "Cancer Statistics",
            "CA Cancer J Clin",
        ),
        (
            "Smith, J. A.; Jones, B. J. Ab initio titles. J. Chem. Phys. 2005, 127, 1234.",
            "Ab initio titles",
            "J. Chem. Phys",
        ),
    ],
)
def test_a_title_before_the_journal_is_still_a_title(text: str, title: str, venue: str) -> None:
    ref = parse_reference(text)
    assert (ref.title, ref.venue) == (title, venue)


def test_session_quirks() -> None:
    adam = parse_reference(
        "Kingma DP, Ba J. Adam: a method for stochastic optimization. arXiv:1412.6980. 2014."
    )
    assert adam.title == "Adam: a method for stochastic optimization"
    assert [a.family for a in adam.authors] == ["Kingma", "Ba"]
    bert = parse_reference(
        "Devlin J, Chang MW, Lee K, Toutanova K. BERT: pre-training of deep bidirectional "
        "transformers for language understanding. NAACL-HLT. 2019:4171-86."
    )
    assert (bert.venue, bert.volume, bert.year, bert.first_page, bert.last_page) == (
        "NAACL-HLT",
        None,
        2019,
        "4171",
        "4186",
    )
    ieee = cl.Reference.from_string(
        "[12] A. Smith, “A title here,” IEEE Trans. Inf. Theory, vol. 5, pp. 1-9, 2001."
    )
    assert ieee.position == 12
    # A position given by the caller wins; a non-numeric label gives none.
    assert cl.Reference.from_string("[12] A. Smith, Nature 1, 2 (2001).", position=3).position == 3
    assert parse_reference("[Smi01] A. Smith, Nature 1, 2 (2001).").position is None


# --------------------------------------------------------------------------- resolver

DEEP = cl.Paper(
    title="Deep learning",
    authors=["Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton"],
    year=2015,
    venue="Nature",
    volume="521",
    pages="436-444",
    identifiers=["10.1038/nature14539"],
)


@pytest.mark.parametrize(
    "text",
    [
        "Y. LeCun, Y. Bengio, G. Hinton, Nature 521, 436 (2015).",
        "LeCun Y, Bengio Y, Hinton G. Nature. 2015;521:436-44.",
        "LeCun, Y.; Bengio, Y.; Hinton, G. Nature 2015, 521, 436–444.",
    ],
)
def test_a_title_less_string_resolves_by_journal_volume_and_page(text: str) -> None:
    res = cl.Resolver([DEEP]).resolve(text)
    assert res.state is ResolutionState.VERIFIED_FUZZY, res.reason
    assert res.method is Method.JOURNAL_VOLUME_PAGE
    assert res.target is DEEP


def test_a_confident_title_less_string_that_finds_nothing_is_unresolved() -> None:
    res = cl.Resolver([DEEP]).resolve("E. Garfield, Science 178, 471 (1972).")
    assert res.state is ResolutionState.UNRESOLVED, res.reason


def test_nature_is_not_nature_genetics_on_the_string_route() -> None:
    other = cl.model.replace(DEEP, venue="Nature Genetics", identifiers=["10.1038/ng.0000"])
    res = cl.Resolver([other]).resolve("Y. LeCun, Y. Bengio, G. Hinton, Nature 521, 436 (2015).")
    assert not res.verified


_RENDER = (
    "A. Smith, B. Jones, {journal} 76, 4350 (1979).",
    "Smith A, Jones B. {journal}. 1979;76:4350.",
    "Smith, A.; Jones, B. {journal} 1979, 76, 4350.",
)
_AUTHORS = ("A. Smith", "B. Jones")


@settings(max_examples=150, deadline=None)
@given(
    pair=st.lists(st.sampled_from(JOURNALS), min_size=2, max_size=2, unique=True),
    forms=st.tuples(st.integers(0, 1), st.integers(0, 1)),
    style=st.sampled_from(_RENDER),
)
def test_the_string_route_never_verifies_across_two_journals(
    pair: list[tuple[str, str]], forms: tuple[int, int], style: str
) -> None:
    cited, held = pair[0][forms[0]], pair[1][forms[1]]
    res = cl.Resolver([journal_record(held, authors=_AUTHORS)]).resolve(style.format(journal=cited))
    assert not res.verified, (cited, held, res.reason)


@settings(max_examples=60, deadline=None)
@given(
    journal=st.sampled_from(JOURNALS),
    forms=st.tuples(st.integers(0, 1), st.integers(0, 1)),
    style=st.sampled_from(_RENDER),
)
def test_the_string_route_verifies_one_journal_in_any_form(
    journal: tuple[str, str], forms: tuple[int, int], style: str
) -> None:
    text = style.format(journal=journal[forms[0]])
    res = cl.Resolver([journal_record(journal[forms[1]], authors=_AUTHORS)]).resolve(text)
    assert res.state is ResolutionState.VERIFIED_FUZZY, (text, res.reason)


def test_a_record_with_nothing_to_confirm_is_taken_on_its_locator() -> None:
    # A thin catalog (journal, volume, page, DOI): nothing can confirm or contradict it.
    thin = cl.Paper(venue="Nature", volume="521", pages="436", identifiers=["10.1038/nature14539"])
    res = cl.Resolver([thin]).resolve("Y. LeCun, Y. Bengio, G. Hinton, Nature 521, 436 (2015).")
    assert res.verified, res.reason
    assert "no year or authors to check" in res.reason
    # Two such records on one page: neither is claimed.
    twin = cl.model.replace(thin, identifiers=["10.1038/nature14540"], title="Another letter")
    res = cl.Resolver([thin, twin]).resolve("Y. LeCun, Nature 521, 436 (2015).")
    assert not res.verified


# --------------------------------------------------------------------------- same title, same volume

GUIDELINE = cl.Paper(
    title="ACC/AHA guidelines for the management of patients with acute myocardial infarction",
    authors=["T. J. Ryan", "J. L. Anderson"],
    year=1996,
    venue="Circulation",
    volume="94",
    pages="2341-2350",
    identifiers=["10.1161/01.cir.94.9.2341"],
)


def _cite_guideline(*, first_page: str) -> cl.Reference:
    return cl.Reference(
        title=GUIDELINE.title,
        authors=["Ryan TJ", "Anderson JL"],
        year=1996,
        venue="Circulation",
        volume="94",
        first_page=first_page,
    )


def test_a_same_titled_work_on_another_page_of_the_volume_does_not_verify() -> None:
    # The executive summary and the full guideline share a title, authors, year and volume;
    # the catalog holds only the summary, and the reference cites the full text's page.
    ref = _cite_guideline(first_page="2291")
    res = cl.Resolver([GUIDELINE]).resolve(ref)
    assert not res.verified
    assert "another work of that title" in res.reason


def test_a_pinpoint_page_inside_the_article_still_verifies() -> None:
    ref = _cite_guideline(first_page="2345")
    assert cl.Resolver([GUIDELINE]).resolve(ref).verified


# --------------------------------------------------------------------------- score


def test_score_means_the_same_on_every_route() -> None:
    arxiv = cl.Paper(
        title="Adam: A Method for Stochastic Optimization",
        authors=["Diederik P. Kingma", "Jimmy Ba"],
        year=2014,
        identifiers=["arXiv:1412.6980"],
    )
    resolver = cl.Resolver([arxiv])
    exact = resolver.resolve(
        "Kingma DP, Ba J. Adam: a method for stochastic optimization. arXiv:1412.6980. 2014."
    )
    assert exact.state is ResolutionState.VERIFIED_EXACT
    assert exact.score == 100.0  # identifier, title, authors and year all agree
    typo = resolver.resolve("Kingma DP, Ba J. Adam: a methd for stochastc optimization. 2014.")
    assert typo.state is ResolutionState.VERIFIED_FUZZY
    assert typo.score < exact.score  # a misspelt title lowers the score on any route
    # The same fields give the same score whether an identifier found the record or not
    # (the identifier adds one agreeing field).
    both = resolver.resolve(
        "Kingma DP, Ba J. Adam: a methd for stochastc optimization. arXiv:1412.6980. 2014."
    )
    assert both.state is ResolutionState.VERIFIED_EXACT
    assert typo.score < both.score < 100.0


def test_one_page_printed_two_ways_is_not_another_work() -> None:
    # "i38" (a supplement's page) and "38" are one page: the same-volume rule does not fire.
    paper = cl.model.replace(GUIDELINE, pages="38-46")
    ref = _cite_guideline(first_page="i38")
    assert cl.Resolver([paper]).resolve(ref).verified


def test_acm_article_number_then_pages() -> None:
    ref = parse_reference(
        "Datta R, Joshi D, Li J, Wang JZ (2008) Image retrieval: ideas, influences, and trends "
        "of the new age. ACM Comput Surv 40(2):5:1-60"
    )
    assert (ref.volume, ref.issue, ref.first_page, ref.last_page) == ("40", "2", "1", "60")
