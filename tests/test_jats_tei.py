"""JATS and GROBID TEI reference lists: the recorded files in ../shared/data/sources/{jats,grobid}."""

from __future__ import annotations

from collections import Counter

import pytest

from citeledger import DOI, PMCID, PMID, ArxivId, ParseError, Scheme
from citeledger.formats.jats import parse_jats_paper, parse_jats_references
from citeledger.formats.tei import parse_tei_paper, parse_tei_references
from tests.conftest import SOURCES, requires_shared

ELEMENT = SOURCES / "jats" / "PMC5828200-element-citation-ref-list.xml"
MIXED = SOURCES / "jats" / "PMC6398430-mixed-citation-ref-list.xml"
GROBID = SOURCES / "grobid" / "N18-3011-literature-graph-semantic-scholar.tei.xml"


@requires_shared
def test_jats_element_citations() -> None:
    refs = parse_jats_references(ELEMENT.read_bytes())
    assert len(refs) == 52
    assert [r.position for r in refs] == list(range(1, 53))
    assert [r.key for r in refs[:3]] == ["R1", "R2", "R3"]
    first = refs[0]
    assert (
        first.title == "Mass spectrometry of purified amyloid beta protein in Alzheimer's disease"
    )
    assert [(a.family, a.given) for a in first.authors] == [
        ("Mori", "H"),
        ("Takio", "K"),
        ("Ogawara", "M"),
        ("Selkoe", "DJ"),
    ]
    assert (first.venue, first.year, first.volume, first.first_page) == (
        "J Biol Chem",
        1992,
        "267",
        "17082",
    )
    assert first.last_page == "6"  # abbreviated as printed (17082-6); kept verbatim
    assert first.identifiers == (PMID("1512246"),)
    assert first.raw is None  # element-citation has no printed string
    assert first.get_extra("label") == "1"
    assert all(r.identifiers and r.identifiers[0].scheme is Scheme.PMID for r in refs)
    assert Counter(r.get_extra("publication_type") for r in refs) == {"journal": 52}
    assert refs[5].get_extra("etal") == "true"  # <etal/> after 13 names
    collab = refs[45].authors[-1]
    assert collab.raw == "MRC Cognitive Function and Ageing Neuropathology Study Group"
    assert refs[46].get_extra("comment") == "discussion 55-62"
    assert refs[51].title == (
        "Deficits in memory and hippocampal long-term potentiation in mice with reduced calbindin D28K expression"
    )
    assert (
        refs[3].title == "Decreased clearance of CNS amyloid-β in Alzheimer's disease"
    )  # &#x003b2;


@requires_shared
def test_jats_mixed_citations() -> None:
    refs = parse_jats_references(MIXED.read_bytes())
    assert len(refs) == 80
    assert refs[0].key == "CIT0001"
    assert refs[-1].key == "CIT0080"
    assert Counter(r.get_extra("publication_type") for r in refs) == {"journal": 65, "book": 15}
    first = refs[0]
    assert first.raw == (
        "Albert DM, Bowyer RT 1991 Factors related to grizzly bear: human interactions in Denali "
        "National Park. Wildl Soc Bull. 19:339–349."
    )
    assert (
        first.title == "Factors related to grizzly bear: human interactions in Denali National Park"
    )
    assert (first.venue, first.volume, first.first_page, first.last_page) == (
        "Wildl Soc Bull",
        "19",
        "339",
        "349",
    )
    book = refs[2]
    assert book.title == "Model based inference in the life sciences: a primer on evidence"
    assert book.venue is None  # a book's <source> is its own title
    assert book.get_extra("publisher-name") == "Springer Science+Business Media, LLC"
    assert book.get_extra("publisher-loc") == "New York"
    assert refs[1].identifiers == (PMID("18804375"),)
    assert refs[73].identifiers == (DOI("10.5061/dryad.t0g149j"),)
    assert refs[73].position == 74
    assert sum(1 for r in refs if r.identifiers) == 23
    assert refs[6].authors[7].family == "Di Fiore"
    assert refs[6].get_extra("etal") == "true"


@requires_shared
def test_jats_papers() -> None:
    oncotarget = parse_jats_paper(ELEMENT.read_bytes())
    assert oncotarget is not None
    assert set(oncotarget.identifiers) == {
        PMID("29535835"),
        PMCID("PMC5828200"),
        DOI("10.18632/oncotarget.24369"),
    }
    assert oncotarget.title == (
        "Curcuminoid submicron particle ameliorates cognitive deficits and decreases amyloid pathology "
        "in Alzheimer’s disease mouse model"
    )
    assert oncotarget.venue == "Oncotarget"
    assert len(oncotarget.authors) == 7
    assert oncotarget.authors[0].family == "Tai"
    crows = parse_jats_paper(MIXED.read_bytes())
    assert crows is not None
    assert DOI("10.1093/beheco/ary157") in crows.identifiers
    assert (
        crows.title
        == "Counting crows: population structure and group size variation in an urban population of crows"
    )
    assert crows.venue == "Behavioral Ecology"
    assert crows.authors[0].orcid == "0000-0002-3609-5983"
    assert (crows.volume, crows.issue, crows.pages, crows.year) == ("30", "1", "57-67", 2019)


def test_jats_alternatives_and_malformed_ids() -> None:
    doc = b"""<article><back><ref-list>
      <ref id="a"><citation-alternatives>
        <element-citation publication-type="journal"><article-title>T</article-title>
          <pub-id pub-id-type="doi">10.1000/good</pub-id><pub-id pub-id-type="arxiv">1913.01234</pub-id>
        </element-citation>
        <mixed-citation>Printed T. 2020.</mixed-citation>
      </citation-alternatives></ref>
      <ref id="b"><mixed-citation>One</mixed-citation><mixed-citation>Two</mixed-citation></ref>
      <ref id="c"><note>no citation here</note></ref>
      <ref-list><ref id="d"><element-citation><source>Nested</source>
        <pub-id pub-id-type="pmcid">PMC3531190</pub-id><pub-id pub-id-type="arxiv">2104.12255v1</pub-id>
      </element-citation></ref></ref-list>
    </ref-list></back></article>"""
    refs = parse_jats_references(doc)
    # A <ref> with no citation keeps its position, marked unreadable (never dropped).
    assert [(r.position, r.key) for r in refs] == [(1, "a"), (2, "b"), (3, "b"), (4, "c"), (5, "d")]
    assert refs[3].raw == "no citation here"
    assert "holds no citation element" in (refs[3].unreadable or "")
    alt = refs[0]
    assert (alt.title, alt.raw) == ("T", "Printed T. 2020.")
    assert alt.identifiers == (DOI("10.1000/good"),)
    (bad,) = alt.malformed
    assert (bad.text, bad.scheme) == ("1913.01234", Scheme.ARXIV)
    assert "month" in bad.reason
    assert refs[4].identifiers == (PMCID("PMC3531190"), ArxivId("2104.12255v1"))
    assert parse_jats_paper(doc) is None


@requires_shared
def test_grobid_tei_references() -> None:
    refs = parse_tei_references(GROBID.read_bytes())
    assert len(refs) == 27  # the header's own <biblStruct> is not a reference
    assert [r.key for r in refs] == [f"b{i}" for i in range(27)]
    assert [r.position for r in refs] == list(range(1, 28))
    first = refs[0]
    assert first.title == (
        "The ai2 system at semeval-2017 task 10 (scienceie): semi-supervised end-to-end entity and relation extraction"
    )
    assert first.venue == "ACL workshop (SemEval)"
    assert first.year == 2017
    assert [a.family for a in first.authors] == ["Ammar", "Peters", "Bhagavatula", "Power"]
    assert first.authors[1].given == "Matthew E"
    assert first.raw is not None
    assert first.raw.startswith("Waleed Ammar, Matthew E. Peters, Chandra Bhagavat- ula")
    nature = refs[8]
    assert (nature.title, nature.venue, nature.volume, nature.first_page, nature.last_page) == (
        "Search needs a shake-up",
        "Nature",
        "476",
        "25",
        "31",
    )
    # GROBID put "Etzioni" in a second <forename>: kept as given, not silently repaired
    assert (nature.authors[0].family, nature.authors[0].given) == (None, "Oren Etzioni")
    mesh = refs[13]
    assert (mesh.venue, mesh.volume, mesh.issue, mesh.first_page) == (
        "BMC bioinformatics",
        "12",
        "1",
        "223",
    )
    no_analytic = refs[1]  # monogr only: its title is the cited work's, its <note> the venue
    assert no_analytic.title is not None
    assert no_analytic.title.startswith("Semeval 2017 task 10 (scienceie)")
    assert no_analytic.venue is None
    assert no_analytic.get_extra("note") == "ACL workshop (SemEval)"
    assert refs[26].get_extra("publisher") == "WWW"
    assert all(not r.identifiers for r in refs)  # no <idno> in this bibliography


@requires_shared
def test_grobid_tei_paper() -> None:
    paper = parse_tei_paper(GROBID.read_bytes())
    assert paper is not None
    assert paper.title == "Construction of the Literature Graph in Semantic Scholar"
    assert len(paper.authors) == 23
    assert (paper.authors[0].given, paper.authors[0].family) == ("Waleed", "Ammar")
    assert paper.abstract is not None
    assert paper.abstract.startswith("We describe a deployed scalable system")
    assert paper.source == "grobid"


def test_tei_idno_identifiers() -> None:
    doc = b"""<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><back><listBibl>
      <biblStruct xml:id="b0"><monogr><title level="m">Book</title><imprint/></monogr>
        <idno type="DOI">10.1000/XYZ</idno><idno type="arXiv">arXiv:2104.12255</idno>
        <idno type="PMID">zero</idno></biblStruct>
    </listBibl></back></text></TEI>"""
    (ref,) = parse_tei_references(doc)
    assert ref.identifiers == (DOI("10.1000/xyz"), ArxivId("2104.12255"))
    assert [m.scheme for m in ref.malformed] == [Scheme.PMID]
    assert parse_tei_paper(doc) is None


@pytest.mark.parametrize(
    "parse", [parse_jats_references, parse_tei_references, parse_jats_paper, parse_tei_paper]
)
def test_not_xml(parse: object) -> None:
    with pytest.raises(ParseError):
        parse(b"<article><ref-list>")  # type: ignore[operator]
    with pytest.raises(ParseError):
        parse(b"")  # type: ignore[operator]
