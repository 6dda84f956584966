"""JATS and GROBID TEI reference lists: the fixtures in tests/fixtures/{jats,tei} (recorded shapes)."""

from __future__ import annotations

from collections import Counter

import pytest

from citeledger import DOI, PMCID, PMID, ArxivId, ParseError, Scheme
from citeledger.formats.jats import parse_jats_paper, parse_jats_references
from citeledger.formats.tei import parse_tei_paper, parse_tei_references
from tests._checks import assert_fields
from tests.conftest import FIXTURES, SOURCES, requires_shared

ELEMENT = FIXTURES / "jats" / "element-citation-ref-list.xml"
MIXED = FIXTURES / "jats" / "mixed-citation-ref-list.xml"
GROBID = FIXTURES / "tei" / "grobid-references.tei.xml"


@requires_shared
def test_recorded_jats_and_tei_files() -> None:
    element = parse_jats_references(
        (SOURCES / "jats" / "PMC5828200-element-citation-ref-list.xml").read_bytes()
    )
    assert len(element) == 52
    mixed = parse_jats_references(
        (SOURCES / "jats" / "PMC6398430-mixed-citation-ref-list.xml").read_bytes()
    )
    assert Counter(r.get_extra("publication_type") for r in mixed) == {"journal": 65, "book": 15}
    tei = (SOURCES / "grobid" / "N18-3011-literature-graph-semantic-scholar.tei.xml").read_bytes()
    assert len(parse_tei_references(tei)) == 27
    paper = parse_tei_paper(tei)
    assert paper is not None
    assert len(paper.authors) == 23


def test_jats_element_citations() -> None:
    refs = parse_jats_references(ELEMENT.read_bytes())  # a DOCTYPE naming an external DTD
    assert len(refs) == 3
    assert [r.position for r in refs] == [1, 2, 3]
    assert [r.key for r in refs] == ["R1", "R2", "R3"]
    first = refs[0]
    assert first.title == "Glymphatic flow during sleep in larval zebrafish"
    assert [(a.family, a.given) for a in first.authors] == [
        ("Lindqvist", "T"),
        ("Raman", "P"),
        ("Zhang", "W"),
    ]
    assert (first.venue, first.year, first.volume, first.first_page) == (
        "J Exp Neurosci",
        2015,
        "40",
        "1208",
    )
    assert first.last_page == "15"  # abbreviated as printed (1208-15); kept verbatim
    assert first.identifiers == (PMID("25000001"),)
    assert first.raw is None  # element-citation has no printed string
    assert first.get_extra("label") == "1"
    assert all(r.identifiers and r.identifiers[0].scheme is Scheme.PMID for r in refs)
    assert Counter(r.get_extra("publication_type") for r in refs) == {"journal": 3}
    assert refs[1].get_extra("etal") == "true"  # <etal/> after the names
    assert refs[0].get_extra("etal") is None
    collab = refs[2].authors[-1]
    assert collab.raw == "Zebrafish Sleep Consortium"
    assert refs[2].get_extra("comment") == "discussion 310-2"
    assert refs[1].title == "Decreased clearance of amyloid-β after sleep deprivation"  # &#x003b2;


def test_jats_mixed_citations() -> None:
    refs = parse_jats_references(MIXED.read_bytes())
    assert len(refs) == 4
    assert refs[0].key == "CIT0001"
    assert refs[-1].key == "CIT0004"
    assert Counter(r.get_extra("publication_type") for r in refs) == {"journal": 3, "book": 1}
    first = refs[0]
    # The printed string, with its inline punctuation and the line breaks folded.
    assert first.raw == (
        "Berg AK, Moss RT 1994 Roosting behaviour of corvids: a review of winter counts. "
        "Bird Stud Q. 21:101–117."
    )
    assert first.title == "Roosting behaviour of corvids: a review of winter counts"
    assert_fields(first, venue="Bird Stud Q", volume="21", first_page="101", last_page="117")
    book = refs[1]
    assert book.title == "Statistics for field ornithology: a primer"
    assert book.venue is None  # a book's <source> is its own title
    assert book.get_extra("publisher-name") == "Example Academic Press, Ltd"
    assert book.get_extra("publisher-loc") == "Oslo"
    assert refs[3].identifiers == (PMID("18000004"),)
    assert refs[2].identifiers == (DOI("10.5061/dryad.example42"),)
    assert refs[2].position == 3
    assert sum(1 for r in refs if r.identifiers) == 2
    assert refs[2].authors[1].family == "van Dijk"
    assert refs[2].get_extra("etal") == "true"


def test_jats_papers() -> None:
    neuro = parse_jats_paper(ELEMENT.read_bytes())
    assert neuro is not None
    assert set(neuro.identifiers) == {
        PMID("31000001"),
        PMCID("PMC6000001"),
        DOI("10.5555/exneuro.2019.101"),
    }
    assert neuro.title == "Sleep loss slows clearance of amyloid-β in a zebrafish model"
    assert neuro.venue == "Example Neurobiology"
    assert len(neuro.authors) == 3
    assert neuro.authors[0].family == "Quill"
    jackdaws = parse_jats_paper(MIXED.read_bytes())
    assert jackdaws is not None
    assert DOI("10.5555/exbeh/abc123") in jackdaws.identifiers
    assert jackdaws.title == "Counting jackdaws: roost size across a city"
    assert jackdaws.venue == "Example Behavioral Ecology"
    assert jackdaws.authors[0].orcid == "0000-0002-1694-233X"  # from the http://orcid.org/ URL
    assert jackdaws.authors[1].family == "Di Fiore"
    assert (jackdaws.volume, jackdaws.issue, jackdaws.pages, jackdaws.year) == (
        "31",
        "1",
        "12-24",
        2020,
    )


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


def test_grobid_tei_references() -> None:
    refs = parse_tei_references(GROBID.read_bytes())
    assert len(refs) == 5  # the header's own <biblStruct> is not a reference
    assert [r.key for r in refs] == [f"b{i}" for i in range(5)]
    assert [r.position for r in refs] == list(range(1, 6))
    first = refs[0]
    assert first.title == (
        "Citation indexes for science: a new dimension in documentation through association of ideas"
    )
    assert first.venue == "Science Workshop Proceedings"
    assert first.year == 1955
    assert [a.family for a in first.authors] == ["Garfield", "Okafor"]
    assert first.authors[1].given == "Mary K"
    assert first.raw is not None
    assert first.raw.startswith("Eugene Garfield and Mary K. Oka- for. 1955.")  # as GROBID read it
    nature = refs[2]
    assert_fields(
        nature,
        title="Search needs a shake-up",
        venue="Nature",
        volume="476",
        first_page="25",
        last_page="26",
    )
    # GROBID put "Etzioni" in a second <forename>: kept as given, not silently repaired
    assert (nature.authors[0].family, nature.authors[0].given) == (None, "Oren Etzioni")
    bmc = refs[3]
    assert (bmc.venue, bmc.volume, bmc.issue, bmc.first_page) == (
        "BMC bioinformatics",
        "12",
        "1",
        "223",
    )
    no_analytic = refs[1]  # monogr only: its title is the cited work's, its <note> the venue
    assert no_analytic.title is not None
    assert no_analytic.title.startswith("Reference strings in the wild")
    assert no_analytic.venue is None
    assert no_analytic.get_extra("note") == "Workshop on Mining Scholarly Text"
    assert refs[4].get_extra("publisher") == "WWW"
    assert refs[4].authors == ()
    assert all(not r.identifiers for r in refs)  # no <idno> in this bibliography


def test_grobid_tei_paper() -> None:
    paper = parse_tei_paper(GROBID.read_bytes())
    assert paper is not None
    assert paper.title == "A Ledger for Citations Across Sources"
    assert len(paper.authors) == 3
    assert (paper.authors[0].given, paper.authors[0].family) == ("Ines", "Okoro")
    assert paper.abstract is not None
    assert paper.abstract.startswith("We describe a ledger that keeps every citation observation")
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
