"""Reference strings damaged by PDF extraction: line-break hyphens, text left after the numbers,
author lists the grammars stop in, titles ending in a short word.

The strings are written for these tests, modelled on patterns seen in the PMC strings of
``../shared`` (GROBID output); the last test reads a few of those real strings and skips when
``../shared`` is absent.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from citeledger.model import Reference
from citeledger.resolve.normalize import normalize_title
from tests import _data
from tests.conftest import requires_shared


def _title(text: str) -> str | None:
    return Reference.from_string(text).title


def _fam(text: str) -> list[str | None]:
    return [a.family for a in Reference.from_string(text).authors]


# --------------------------------------------------------------------------- line-break hyphens


@pytest.mark.parametrize(
    ("broken", "expected"),
    [
        # A word hyphenated at a line end is joined, even before a participle ending.
        ("accel-\nerated", "accelerated"),  # Latinate ending on a stump
        ("discrim-\ninating", "discriminating"),
        ("commu-\nnicating", "communicating"),  # left part ends in a vowel
        ("neuro-\nimaging", "neuroimaging"),
        ("trans-\nporting", "transporting"),  # bound prefix
        ("experi-\nence", "experience"),  # the plain case, as before
        # Real compounds keep the hyphen.
        ("cell-\ncell", "cell-cell"),
        ("G-protein-\ncoupled", "G-protein-coupled"),
        ("paraffin-\nembedded", "paraffin-embedded"),  # a word before a long participle
        ("ischemia-\nreperfusion", "ischemia-reperfusion"),  # two long words
        ("cognitive-\nbehavioral", "cognitive-behavioral"),
        ("COVID-\n19", "COVID-19"),
    ],
)
def test_line_break_hyphen(broken: str, expected: str) -> None:
    title = _title(
        f"Nowak A, Lis B. Studies of {broken} signalling in the adult mouse \nbrain. "
        "J Neurosci Res. 2011;12:34-56."
    )
    assert title == f"Studies of {expected} signalling in the adult mouse brain"


# --------------------------------------------------------------------------- text after the numbers


# The cases of text left after the numbers are the "text_after_the_numbers" table of
# tests/refparse/parse_cases.json (test_parse.py::test_parse_cases).


def test_second_reference_after_the_numbers_is_not_cut() -> None:
    # A year and names after the block start another reference: the first is not taken for it.
    ref = Reference.from_string(
        "Souza L, Kim B (2009) Impact of hormonal therapy in patients with prostate cancer. "
        "J Clin Oncol 27:2137-2143 \nvan der Berg JA, Mieke JS (2007) Another study of "
        "something else. Lancet 370:1-9"
    )
    assert ref.title is not None
    assert "Another study" in ref.title
    assert ref.volume == "370"


def test_citation_quoted_inside_a_title_is_kept() -> None:
    title = _title(
        "Kirk D. Linear quadratics is alive and well: in regard to Park et al. (Int J Radiat "
        "Oncol Biol Phys 2008;70:847-852). Int J Radiat Oncol Biol Phys. 2009;73:1-2."
    )
    assert title is not None
    assert title.startswith("Linear quadratics is alive and well: in regard to Park et al")
    assert "847" in title


def test_ratio_inside_a_title_is_not_a_volume() -> None:
    ref = Reference.from_string(
        "Smith J, Doe K. Propensity matching 1:1 in cohort studies. Stat Med. 2010;29:101-110."
    )
    assert ref.title == "Propensity matching 1:1 in cohort studies"
    assert (ref.venue, ref.volume, ref.first_page) == ("Stat Med", "29", "101")


def test_title_ending_in_a_number_is_kept() -> None:
    ref = Reference.from_string(
        "Smith J, Doe K. Outlook for the economy in 2020. Econ J. 2019;12:1-9."
    )
    assert ref.title == "Outlook for the economy in 2020"
    assert (ref.year, ref.volume) == (2019, "12")


# --------------------------------------------------------------------------- short last words


@pytest.mark.parametrize(
    ("text", "title", "venue"),
    [
        (
            (
                "Nomura K, Nakano M: PAIR3 is essential for homologous synapsis in rice "
                "meiosis I. J Cell Sci 2006, 119:217-225."
            ),
            "PAIR3 is essential for homologous synapsis in rice meiosis I",
            "J Cell Sci",
        ),
        (
            (
                "Calder MB, Zhang X: Focal adhesion kinase tyrosine-861 is a major site of "
                "phosphorylation by Src. Biochem Biophys Res Commun 1996, 228:662-8."
            ),
            "Focal adhesion kinase tyrosine-861 is a major site of phosphorylation by Src",
            "Biochem Biophys Res Commun",
        ),
        (
            (
                "Ward BB, Devol AH (2009) Denitrification as the dominant nitrogen loss process in "
                "the Arabian Sea. Nature 461:78-81"
            ),
            "Denitrification as the dominant nitrogen loss process in the Arabian Sea",
            "Nature",
        ),
    ],
)
def test_title_ending_in_a_short_word(text: str, title: str, venue: str) -> None:
    ref = Reference.from_string(text)
    assert (ref.title, ref.venue) == (title, venue)


#: Abbreviation stops that do not end a title.
_ABBREVIATION_STOPS = [
    # Journal abbreviations and initials inside the venue or a name do not end a title.
    (
        (
            "Brown, A., Green, B.: Continuous lattices and domains, Houston J. Math. 9, 191-208 "
            "(1983)."
        ),
        "Continuous lattices and domains",
    ),
    (
        (
            "Ayres, A. B.: Swept shock wave interaction, Missile Aerodynamics, Editors: M. J. "
            "Hemsh and J. N. Nielson, (1986)."
        ),
        "Swept shock wave interaction, Missile Aerodynamics",
    ),
    (
        "Marsh J, Kerr T. Growth of Escherichia coli in broth. J Bacteriol. 1990;12:1-9.",
        "Growth of Escherichia coli in broth",
    ),
]


# --------------------------------------------------------------------------- author lists


def test_et_al_ends_a_list_the_grammar_stopped_in() -> None:
    text = (
        "Bakker JJGHM, van Dam A-M, Bruin MJ, Fokker P, Rauw \nEAJ, et al. A randomised trial "
        "of balloon dilation for bile duct \nstones. Gastrointest Endosc. 2001;53:19-26."
    )
    ref = Reference.from_string(text)
    assert ref.title == "A randomised trial of balloon dilation for bile duct stones"
    assert _fam(text) == ["Bakker", "van Dam", "Bruin", "Fokker", "Rauw"]
    assert ref.authors[0].given == "JJGHM"


def test_colon_ends_a_list_with_a_lost_comma() -> None:
    text = (
        "Milan P Ho B-C, Arndt S, Anders NC: Predictive Value of \nCognition in First-Episode "
        "Psychosis. American Journal of Psychiatry 2005, 162:495-506."
    )
    assert _title(text) == "Predictive Value of Cognition in First-Episode Psychosis"
    assert _fam(text) == ["Milan", "Ho", "Arndt", "Anders"]


#: The rest of an author list is not title.
_REST_OF_AN_AUTHOR_LIST = [
    (  # a group of people at the end of the list
        (
            "Bowe CJD, Waters NM, Faris PD, Ghali WA, the APPROACH Investigators: Accuracy of "
            "postal code \ncoordinates as a proxy for residence. Int J Health Geogr 2004, 3:5."
        ),
        "Accuracy of postal code coordinates as a proxy for residence",
    ),
    (  # the colon glued into the last name
        (
            "Rayne H, Pisano RL, Goodwin D, Akiba T, \nYoung E, Port FCreation: Cannulation and "
            "Survival of Arteriovenous Fistulae. Kidney Int 2003, 63:323-333."
        ),
        "Cannulation and Survival of Arteriovenous Fistulae",
    ),
    (  # a full stop after the first name
        (
            "Johns CR. Thames HD, Huang DT, Schmidt-Ulrich RK. The tumour volume and clonogen "
            "\nnumber relationship. Int J Radiat Oncol Biol Phys. \n1995;33:281-8."
        ),
        "The tumour volume and clonogen number relationship",
    ),
    (  # a particle split from its name, the year later
        (
            "Gianni, P., Gold, G., Kovac, \nE., von, G. A., Imhof, A., Bouras, C., \nand Hof, P. "
            "R. (2007). Assessing the \ncognitive impact of vascular burden. Acta Neuropathol. "
            "113, \n1-12."
        ),
        "Assessing the cognitive impact of vascular burden",
    ),
    (  # a dangling "and" and one name before the year
        (
            "Zanetti, C., Carola, V., Lo Iacono, L., \nand d'Amato, F. \nR. (2010). Postnatal "
            "handling reverses \nsocial anxiety in knockout mice. Genes Brain Behav. 9, \n26-32."
        ),
        "Postnatal handling reverses social anxiety in knockout mice",
    ),
]


def test_year_found_after_a_rescued_list() -> None:
    ref = Reference.from_string(
        "Gianni, P., Gold, G., Kovac, E., von, G. A., and Hof, P. R. (2007). Assessing the "
        "cognitive impact of vascular burden. Acta Neuropathol. 113, 1-12."
    )
    assert ref.year == 2007
    assert "Hof" in [a.family for a in ref.authors]


#: Titles that look like names are kept.
_TITLES_LIKE_NAMES = [
    # Titles with a colon after a first word, with commas, and with "et al." stay whole.
    (
        (
            "Rajbhandari S, et al. ZeRO-Infinity: breaking the GPU memory wall for extreme "
            "scale deep learning. SC21. 2021."
        ),
        "ZeRO-Infinity: breaking the GPU memory wall for extreme scale deep learning",
    ),
    (
        ("Smith J, Doe K. Vitamin D, Vitamin K: two vitamins for bone. J Bone Res. 2010;1:1-9."),
        "Vitamin D, Vitamin K: two vitamins for bone",
    ),
    (
        "Smith J, Doe K. Cancer, Diabetes, and Obesity: a review. Lancet. 2010;1:1-9.",
        "Cancer, Diabetes, and Obesity: a review",
    ),
    (
        (
            "Smith J. Comment on Jones et al.: the data do not support the claim. Science. "
            "2010;1:1-2."
        ),
        "Comment on Jones et al.: the data do not support the claim",
    ),
    (
        "Hughes TP, Baird AH. Hepatitis B, C and D: an update. J Hepatol. 2003;1:1-9.",
        "Hepatitis B, C and D: an update",
    ),
]


def test_place_and_state_are_not_a_list_of_names() -> None:
    # "New York, NY:" reads like "Family, I:"; one such pair is not a list.
    title = _title("1961. The Psychology of Aggression, New York, NY: Wiley.")
    assert title is not None
    assert "Psychology of Aggression" in title


# --------------------------------------------------------------------------- real strings


@cache
def _glutton() -> dict[str, dict[str, Any]]:
    return {item["id"]: item["left"] for item in _data.rows("glutton_pmc1943_refs_doi_17k.jsonl")}


@requires_shared
@pytest.mark.parametrize(
    ("item_id", "pattern"),
    [
        ("glutton-pmc:28", "et al. after five initials"),
        ("glutton-pmc:1640", "lost comma, colon"),
        ("glutton-pmc:1503", "group at the end, colon"),
        ("glutton-pmc:956", "colon glued into the last name"),
        ("glutton-pmc:4694", "full stop after the first name"),
        ("glutton-pmc:2944", "particle split from its name"),
        ("glutton-pmc:1385", "split DOI after the numbers"),
        ("glutton-pmc:275", "next column after the numbers"),
        ("glutton-pmc:865", "year after the numbers, split DOI"),
        ("glutton-pmc:15137", "title ending in 'P.'"),
        ("glutton-pmc:8131", "title ending in 'Src.'"),
    ],
)
def test_real_pmc_strings(item_id: str, pattern: str) -> None:
    gold = _glutton().get(item_id)
    if gold is None:
        pytest.skip(f"{item_id} is not in this half of the data")
    ref = Reference.from_string(gold["reference"])
    assert normalize_title(ref.title) == normalize_title(gold["atitle"]), pattern
    assert (ref.volume, ref.first_page) == (gold["volume"], gold["firstPage"]), pattern


@pytest.mark.parametrize(
    ("text", "title"),
    [
        *(
            pytest.param(*case, id=f"abbreviation stop {i}")
            for i, case in enumerate(_ABBREVIATION_STOPS)
        ),
        *(
            pytest.param(*case, id=f"rest of a list {i}")
            for i, case in enumerate(_REST_OF_AN_AUTHOR_LIST)
        ),
        *(
            pytest.param(*case, id=f"title like names {i}")
            for i, case in enumerate(_TITLES_LIKE_NAMES)
        ),
    ],
)
def test_title_after_an_author_list(text: str, title: str) -> None:
    assert _title(text) == title
