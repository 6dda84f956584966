"""PMC strings (GROBID output) that hold two entries run together, and titles that name people.

The parametrised strings are real, taken from the PMC strings of ``../shared``
(``glutton_pmc1943_refs_doi_17k.jsonl``, biblio-glutton, Apache-2.0); the properties build
entries from word lists.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citeledger.model import Reference


@pytest.mark.parametrize(
    ("text", "family", "year", "title", "venue", "volume", "page"),
    [
        (  # a book (publisher, place) and then an article: Vancouver names, year in brackets
            (
                "Roff DA (1992) The evolution of life histories: theory and analysis. \n"
                "Chapman & Hall, New York \n"
                "Saino N, Incagli M, Martinelli R, Ambrosini R, Møller AP (2001) \n"
                "Immunity, growth and begging behaviour of nestling barn \n"
                "swallows Hirundo rustica in relation to hatching order. J Avian \n"
                "Biol 32:263-270"
            ),
            "Saino",
            2001,
            (
                "Immunity, growth and begging behaviour of nestling barn swallows Hirundo rustica in "
                "relation to hatching order"
            ),
            "J Avian Biol",
            "32",
            "263",
        ),
        (  # a list number ("17.") between the two
            (
                "Ribereau-Gayon P (1972) Plant Phenolics. Hafner, New York \n"
                "17. Pussayanawin V, Wetzel DL (1987) High performance liquid \n"
                "chromatographic determination of ferulic acid in wheat milling \n"
                "fractions as a measure of bran contamination. J Chromatogr \n"
                "391:243-255"
            ),
            "Pussayanawin",
            1987,
            (
                "High performance liquid chromatographic determination of ferulic acid in wheat "
                "milling fractions as a measure of bran contamination"
            ),
            "J Chromatogr",
            "391",
            "243",
        ),
        (  # a family name with a particle after a place name
            (
                "Urey HC (1952) The planets: their origin and development. University of Chicago "
                "Press, Chicago \nVan Trump JE, Miller SL (1972) Prebiotic synthesis of "
                "methionine. Science 178:859-860"
            ),
            "Van Trump",
            1972,
            "Prebiotic synthesis of methionine",
            "Science",
            "178",
            "859",
        ),
        (  # APA names (family, initials) after a thesis
            (
                "Chen, M. (1999). 3-D deformable registration using a statistical atlas \n"
                "with applications in medicine. Doctoral dissertation. Pittsburgh, \n"
                "PA: Carnegie Mellon University \n"
                "Chiang, M. C., Dutton, R. A., Hayashi, K. M., Toga, A. W., Lopez, O. \n"
                "L., Aizenstein, H. J., et al. (2007). 3D pattern of brain atrophy in \n"
                "HIV/AIDS visualized using tensor-based morphometry. Neuroimage, \n"
                "34, 44-51."
            ),
            "Chiang",
            2007,
            "3D pattern of brain atrophy in HIV/AIDS visualized using tensor-based morphometry",
            "Neuroimage",
            "34",
            "44",
        ),
    ],
)
def test_second_of_two_run_together_entries(
    text: str, family: str, year: int, title: str, venue: str, volume: str, page: str
) -> None:
    ref = Reference.from_string(text)
    assert ref.authors[0].family == family
    assert (ref.year, ref.title, ref.venue, ref.volume, ref.first_page) == (
        year,
        title,
        venue,
        volume,
        page,
    )
    assert ref.raw == text


def test_two_complete_entries_are_left_as_one() -> None:
    # Both entries have their own volume and pages: neither is more the string's than the
    # other, and the string keeps its first entry's names (the resolver finds no such work).
    text = (
        "Timmann, D., Lee, P., Watts, S., and Hore, \nJ. (2008). Kinematics of arm joint \n"
        "rotations in cerebellar and unskilled \nsubjects associated with the inability \n"
        "to throw fast. Cerebellum 7, 366-378. \nvan Duinen, H., Yu, W. S., and Gandevia, \n"
        "S. C. (2009). Limited ability to extend the digits of the human hand independently "
        "with extensor digitorum. J. Physiol. 587, 4799-4810."
    )
    assert Reference.from_string(text).authors[0].family == "Timmann"


@pytest.mark.parametrize(
    "text",
    [
        (
            "Brown A, Green B (2006) A reply to the comment on our paper by Smith J, Jones K "
            "(2005). J Theor Biol 20:1-2"
        ),
        (
            "Brown, A. (2006). Comments on the 2005 paper of Smith et al. (2005) about stuff. "
            "J. Theor. Biol. 20, 1-2."
        ),
        (
            "Brown A (2006) Further remarks on the findings of Smith JA (2005) and others. "
            "J Theor Biol 20:1-2"
        ),
        (
            "Brown, A. (2006). Response to the critique by Smith, J. A. (2005): why we were right. "
            "J. Theor. Biol. 20, 1-2."
        ),
        (
            "Brown, A. (2006). Response to the critique of our model in Smith, J. A. (2005). "
            "J. Theor. Biol. 20, 1-2."
        ),
    ],
)
def test_names_a_title_mentions_start_no_second_entry(text: str) -> None:
    ref = Reference.from_string(text)
    assert ref.authors[0].family == "Brown"
    assert ref.year == 2006
    assert ref.title is not None
    assert "Smith" in ref.title


_FAMILIES = st.sampled_from(["Saino", "Raetz", "Maltby", "Ong", "Turgeon", "Newig", "Day"])
_INITIALS = st.sampled_from(["N", "CR", "L", "S", "R", "JA", "BL"])
_WORDS = st.lists(
    st.sampled_from(["growth", "immunity", "lipid", "signalling", "cortical", "plants", "rice"]),
    min_size=3,
    max_size=8,
)
_PLACES = st.sampled_from(
    ["Chapman & Hall, New York", "Springer, Berlin", "Academic Press, London", "Wiley, Oxford"]
)

_JOURNALS = st.sampled_from(["J Avian Biol", "Annu Rev Biochem", "Dev Biol", "Plant Physiol"])


@dataclass(frozen=True)
class _Article:
    """A journal article built from the word lists, written in the two styles of the PMC strings."""

    authors: list[tuple[str, str]]
    year: int
    title: list[str]
    journal: str
    volume: int
    page: int

    def _names(self) -> str:
        return ", ".join(f"{f} {i}" for f, i in self.authors)

    def _title(self) -> str:
        return " ".join(self.title).capitalize()

    def name_year(self) -> str:
        """``Saino N, Ong CR (2001) Title. J Avian Biol 32:263-272``."""
        return (
            f"{self._names()} ({self.year}) {self._title()}. "
            f"{self.journal} {self.volume}:{self.page}-{self.page + 9}"
        )

    def vancouver(self) -> str:
        """``Saino N, Ong CR. Title. J Avian Biol. 2001;32:263-272.``."""
        return (
            f"{self._names()}. {self._title()}. "
            f"{self.journal}. {self.year};{self.volume}:{self.page}-{self.page + 9}."
        )


def _articles(*, years: st.SearchStrategy[int]) -> st.SearchStrategy[_Article]:
    return st.builds(
        _Article,
        authors=st.lists(st.tuples(_FAMILIES, _INITIALS), min_size=1, max_size=4),
        year=years,
        title=_WORDS,
        journal=_JOURNALS,
        volume=st.integers(1, 400),
        page=st.integers(1, 5000),
    )


@given(
    book_author=st.tuples(_FAMILIES, _INITIALS),
    book_year=st.integers(1900, 2010),
    book_title=_WORDS,
    place=_PLACES,
    article=_articles(years=st.integers(1900, 2010)),
)
def test_an_article_after_a_book_is_read_as_alone(
    book_author: tuple[str, str],
    book_year: int,
    book_title: list[str],
    place: str,
    article: _Article,
) -> None:
    book = (
        f"{book_author[0]} {book_author[1]} ({book_year}) "
        f"{' '.join(book_title).capitalize()}. {place}"
    )
    alone = Reference.from_string(article.name_year())
    joined = Reference.from_string(f"{book} \n{article.name_year()}")
    fields = ("title", "authors", "year", "venue", "volume", "first_page", "last_page")
    assert [getattr(joined, f) for f in fields] == [getattr(alone, f) for f in fields]


@given(
    family=_FAMILIES,
    initials=_INITIALS,
    year=st.integers(1900, 2010),
    link=st.sampled_from(["by", "of", "to", "and", "on", "with", "versus"]),
    mentioned=st.tuples(_FAMILIES, _INITIALS),
    mentioned_year=st.integers(1900, 2010),
)
def test_names_after_a_linking_word_stay_in_the_title(
    family: str,
    initials: str,
    year: int,
    link: str,
    mentioned: tuple[str, str],
    mentioned_year: int,
) -> None:
    text = (
        f"{family} {initials} ({year}) A comment on the results reported {link} "
        f"{mentioned[0]} {mentioned[1]} ({mentioned_year}). J Theor Biol 20:1-9"
    )
    ref = Reference.from_string(text)
    assert ref.authors[0].family == family
    assert ref.year == year


# --------------------------------------------------------------------------- author lists


def _read_as(text: str, *, first_family: str, title: str) -> Reference:
    """The parse of ``text``, asserted to have this first author's family name and this title."""
    ref = Reference.from_string(text)
    assert ref.authors[0].family == first_family
    assert ref.title == title
    return ref


def test_group_written_for_ends_a_long_vancouver_list() -> None:
    text = (
        "Michelozzi P, Accetta G, De Sario M, D'Ippoliti D, Marino C, Baccini M, \n"
        "Biggeri A, Anderson HR, Katsouyanni K, Ballester F, Bisanti L, Cadum E, \n"
        "Forsberg B, Forastiere F, Goodman PG, Hojs A, Kirchmayer U, Medina S, \n"
        "Paldy A, Schindler C, Sunyer J, Perucci CA, on behalf of the PHEWE \n"
        "Collaborative Group: High Temperature and Hospitalizations for \n"
        "Cardiovascular and Respiratory Causes in 12 European Cities. Am J Respir \n"
        "Crit Care Med 2009, 179:383-389."
    )
    title = (
        "High Temperature and Hospitalizations for Cardiovascular and Respiratory Causes in "
        "12 European Cities"
    )
    ref = _read_as(text, first_family="Michelozzi", title=title)
    assert ref.authors[-1].family == "on behalf of the PHEWE Collaborative Group"


def test_et_al_after_run_together_initials_and_a_stop() -> None:
    text = (
        "Ashburner M, Ball CA, Blake JA, Botstein D, Butler H, Cherry JM, Davis AP, \n"
        "Dolinski K, Dwight SS, Eppig JT., et al (2000) Gene ontology: tool for the \n"
        "unification of biology. The Gene Ontology Consortium. Nat Genet \n"
        "25(1):25-29. doi: ."
    )
    ref = Reference.from_string(text)
    assert ref.authors[-1].family == "Eppig"
    assert ref.title == "Gene ontology: tool for the unification of biology"
    assert ref.year == 2000


def test_long_corporate_author_before_a_bracketed_year() -> None:
    text = (
        "Mild Traumatic Brain Injury Committee of the Head Injury \n"
        "Interdisciplinary Special Interest Group of the American \n"
        "Congress of Rehabilitation Medicine. (1993). Definition of mild \n"
        "traumatic brain injury. Journal of Head Trauma Rehabilitation, \n8, 86-87."
    )
    ref = Reference.from_string(text)
    assert ref.authors[0].family is not None
    assert ref.authors[0].family.startswith("Mild Traumatic Brain Injury Committee")
    assert (ref.title, ref.year, ref.volume, ref.first_page) == (
        "Definition of mild traumatic brain injury",
        1993,
        "8",
        "86",
    )


def test_long_name_list_is_not_one_corporate_author() -> None:
    # A PDF ligature ("BenoıˆtBenoıˆt G") stops the grammars; the 150 characters before the year
    # hold commas, so they are names, not one organisation.
    text = (
        "Gallou C, Chauveau D, Richard S, Joly D, Giraud S, Olschwang \nS, Martin N, Saquet C, "
        "Chrétien Y, Méjean A, Correas JM, \nBenoıˆtBenoıˆt G, Colombeau P, Grünfeld JP, "
        "Junien C, Béroud C (2004) \nGenotype-phenotype correlation in von Hippel-Lindau "
        "families \nwith renal lesions. Hum Mutat 24:215-224"
    )
    ref = Reference.from_string(text)
    assert [a.family for a in ref.authors[:2]] == ["Gallou", "Chauveau"]
    assert (
        ref.title
        == "Genotype-phenotype correlation in von Hippel-Lindau families with renal lesions"
    )


@given(
    authors=st.lists(st.tuples(_FAMILIES, _INITIALS), min_size=2, max_size=25),
    group=st.sampled_from(
        ["PHEWE Collaborative Group", "EPIC Study Group", "ACCORD Investigators"]
    ),
    prefix=st.sampled_from(["on behalf of the ", "for the "]),
    title=_WORDS,
)
def test_a_group_written_for_keeps_the_names_and_title(
    authors: list[tuple[str, str]], group: str, prefix: str, title: list[str]
) -> None:
    names = ", ".join(f"{f} {i}" for f, i in authors)
    text = (
        f"{names}, {prefix}{group}: {' '.join(title).capitalize()}. Am J Epidemiol 2009, 179:383-9."
    )
    ref = Reference.from_string(text)
    assert [a.family for a in ref.authors[: len(authors)]] == [f for f, _ in authors]
    assert ref.title == " ".join(title).capitalize()


@given(
    authors=st.lists(
        st.tuples(_FAMILIES, st.sampled_from(["JT", "CA", "SS", "PG"])), min_size=1, max_size=12
    ),
    year=st.integers(1950, 2010),
    title=_WORDS,
)
def test_et_al_after_a_stop_ends_the_list(
    authors: list[tuple[str, str]], year: int, title: list[str]
) -> None:
    names = ", ".join(f"{f} {i}" for f, i in authors)
    text = f"{names}., et al ({year}) {' '.join(title).capitalize()}. Nat Genet 25:25-29"
    ref = Reference.from_string(text)
    assert [a.family for a in ref.authors] == [f for f, _ in authors]
    assert (ref.year, ref.title) == (year, " ".join(title).capitalize())


def test_hyphenated_initials_without_dots_open_the_list() -> None:
    text = (
        "M-B Pontoppidan, W Himaman, NL Hywel-Jones, JJ Boomsma, DP Hughes, \n"
        "Graveyards on the move: the spatio-temporal distribution of dead \n"
        "Ophiocordyceps-infected ants. PLoS ONE. 4(3):e4835 (2009). doi:10.1371/ \n"
        "journal.pone.0004835"
    )
    ref = Reference.from_string(text)
    assert [(a.family, a.given) for a in ref.authors[:2]] == [
        ("Pontoppidan", "M-B"),
        ("Himaman", "W"),
    ]
    assert ref.title == (
        "Graveyards on the move: the spatio-temporal distribution of dead "
        "Ophiocordyceps-infected ants"
    )


@given(
    first=st.tuples(st.sampled_from(["J-P", "M-B", "H-J", "A-M"]), _FAMILIES),
    others=st.lists(st.tuples(_INITIALS, _FAMILIES), max_size=4),
    title=_WORDS,
)
def test_hyphenated_initials_read_like_run_together_ones(
    first: tuple[str, str], others: list[tuple[str, str]], title: list[str]
) -> None:
    names = ", ".join(f"{i} {f}" for i, f in [first, *others])
    text = f"{names}, {' '.join(title).capitalize()}. PLoS ONE 4:e4835 (2009)"
    ref = Reference.from_string(text)
    assert [a.family for a in ref.authors] == [f for _, f in [first, *others]]
    assert ref.title == " ".join(title).capitalize()


# --------------------------------------------------------------------------- an entry, then one without numbers


@pytest.mark.parametrize(
    ("text", "title", "venue", "volume", "page"),
    [
        (  # a web document with a date after the article
            (
                "Friedenberg FK, Palit A, Parkman HP, Hanlon A, \n85. \nNelson DB. Botulinum toxin A "
                "for the treatment \nof delayed gastric emptying. Am J Gastroenterol. \n"
                "2008;103:416-423. \nNICE. \nInterventional \nprocedure \noverview: \n86. \n"
                "gastroelectrical stimulation for gastroparesis. \nClinical guidelines. October 12, "
                "2004. Available at \nhttp://www.nice.org.uk/nicemedia/live/11130/ \n"
                "31200/31200.pdf. Accessed July 16, 2006."
            ),
            "Botulinum toxin A for the treatment of delayed gastric emptying",
            "Am J Gastroenterol",
            "103",
            "416",
        ),
        (  # an APA book by a corporate author after the article
            (
                "Nagin, D. S., & Land, K. C. (1993). Age, criminal careers, and population "
                "heterogeneity: specification and \nestimation of a nonparametric, mixed Poisson "
                "model. Criminology, 31, 327-362. \nNational Institute on Drug Abuse. (2006). "
                "Principles of drug abuse treatment for criminal justice \npopulations: a "
                "research-based guide. Bethesda, MD: National Institute on Drug Abuse, National \n"
                "Institutes of Health."
            ),
            (
                "Age, criminal careers, and population heterogeneity: specification and estimation "
                "of a nonparametric, mixed Poisson model"
            ),
            "Criminology",
            "31",
            "327",
        ),
    ],
)
def test_an_article_before_an_entry_without_numbers_is_read(
    text: str, title: str, venue: str, volume: str, page: str
) -> None:
    ref = Reference.from_string(text)
    assert (ref.title, ref.venue, ref.volume, ref.first_page) == (title, venue, volume, page)


def test_two_articles_with_numbers_are_not_split() -> None:
    # Both entries have a volume and pages: the string stays one (unresolvable) reference.
    text = (
        "Redon R, Ishikawa S, Fitch KR, Feuk L, Perry GH, Andrews TD, Fiegler H, \nShapero MH, "
        "Carson AR, Chen W., et al (2006) Global variation in copy \nnumber in the human "
        "genome. Nature 444(7118):444-454. doi:10.1038/ \nnature05329. \nGold DL, "
        "Miecznikowski JC, Liu S (2009) Error control variability in pathway-based \n"
        "microarray analysis. Bioinformatics 25(17):2216-2221. doi:10.1093/ \n"
        "bioinformatics/btp385."
    )
    ref = Reference.from_string(text)
    assert ref.title is not None
    assert "Gold DL" in ref.title
    assert (ref.volume, ref.first_page) == ("25", "2216")


@given(
    article=_articles(years=st.integers(1950, 2010)),
    book_title=_WORDS,
    book_year=st.integers(1950, 2010),
    place=_PLACES,
)
def test_an_article_then_a_book_reads_the_article(
    article: _Article,
    book_title: list[str],
    book_year: int,
    place: str,
) -> None:
    book = (
        f"World Health Organization. ({book_year}). {' '.join(book_title).capitalize()}. {place}."
    )
    alone = Reference.from_string(article.vancouver())
    joined = Reference.from_string(f"{article.vancouver()} \n{book}")
    fields = ("title", "venue", "volume", "first_page", "last_page")
    assert [getattr(joined, f) for f in fields] == [getattr(alone, f) for f in fields]


def test_osa_page_footer_is_cut() -> None:
    text = (
        "#143936 -$15.00 USD Received 14 Mar 2011; revised 28 Apr 2011; accepted 28 Apr 2011; "
        "published 9 May 2011 \n2. A. Villringer, J. Planck, C. Hock, L. Schleinkofer, and U. "
        'Dirnagl, "Near infrared spectroscopy (nirs): a new \ntool to study hemodynamic changes '
        'during activation of brain function in human adults," Neurosci. Lett. 154, \n101-104 '
        "(1993)."
    )
    title = (
        "Near infrared spectroscopy (nirs): a new tool to study hemodynamic changes during "
        "activation of brain function in human adults"
    )
    ref = _read_as(text, first_family="Villringer", title=title)
    assert (ref.venue, ref.volume, ref.first_page, ref.year) == (
        "Neurosci. Lett",
        "154",
        "101",
        1993,
    )
