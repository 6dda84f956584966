"""Title, volume and first page identify an article even when the author list was misread."""

from __future__ import annotations

import citeledger as cl
from citeledger.model import Agreement
from tests import _data
from tests.conftest import requires_shared
from tests.resolve.conftest import resolved

_PAPER = cl.Paper(
    title="Mitogen-activated protein kinase pathways defend against bacterial pore-forming toxins",
    authors=["Huffman DL"],
    venue="Proc Natl Acad Sci USA",
    volume="101",
    pages="10995-11000",
    identifiers=["10.1073/pnas.0404073101"],
)


def _ref(**changes: object) -> cl.Reference:
    values: dict[str, object] = {
        "title": _PAPER.title,
        "authors": "HuVman DL, Abrami L, Sasik R",  # OCR: "ff" read as "V"
        "venue": "Proc Natl Acad Sci USA",
        "volume": "101",
        "first_page": "10995",
        "year": 2004,
    }
    values.update(changes)
    return cl.Reference(**values)  # type: ignore[arg-type]


def test_a_misread_author_list_does_not_hide_the_article() -> None:
    res = resolved([_PAPER], _ref(), cl.ResolutionState.VERIFIED_FUZZY)
    assert res.target is _PAPER
    assert "the author lists disagree, but the title, volume and first page identify" in res.reason
    authors = next(e for e in res.evidence if e.field == "authors")
    assert authors.agreement is Agreement.DISAGREE  # the evidence still says so


def test_the_author_waiver_needs_title_volume_and_page() -> None:
    unresolved = cl.ResolutionState.UNRESOLVED
    resolver = cl.Resolver([_PAPER])
    assert resolver.resolve(_ref(first_page="11001")).state is unresolved
    assert resolver.resolve(_ref(volume="102")).state is unresolved
    assert resolver.resolve(_ref(first_page=None)).state is unresolved
    # a title only like it (one word changed, similarity below 95) is not the article
    other = _ref(title=_PAPER.title.replace("defend against", "respond to"))  # type: ignore[union-attr]
    assert resolver.resolve(other).state is unresolved


def test_no_author_waiver_for_short_titles_or_another_doi() -> None:
    # Notes and Queries printed several replies titled "Deux oreilles" on one page.
    reply = cl.Paper(
        title='"Deux oreilles"', authors=["N. G. N. L."], year=1886, volume="s7-I", pages="498"
    )
    other_reply = cl.Reference(
        title='"Deux oreilles"', authors="W. C. B.", year=1886, volume="s7-I", first_page="498"
    )
    assert cl.Resolver([reply]).resolve(other_reply).state is cl.ResolutionState.UNRESOLVED
    with_doi = _ref(identifiers=["10.1073/pnas.0404073999"])
    resolved([_PAPER], with_doi, cl.ResolutionState.UNRESOLVED, "disagreeing authors")


@requires_shared
def test_glutton_strings_with_misread_author_lists() -> None:
    wanted = ("HuVman DL, Abrami L", "Kamin´skiKamin´ski M, Blinowska KJ", "H, Nakashima Y (2006)")
    found = 0
    for row in _data.rows("glutton_pmc1943_refs_doi_17k.jsonl"):
        text = row["left"]["reference"]
        if not text.startswith(wanted):
            continue
        paper = _data.glutton_paper(row)
        res = cl.Resolver([paper]).resolve(cl.Reference.from_string(text))
        assert res.state is cl.ResolutionState.VERIFIED_FUZZY, (text, res.reason)
        found += 1
    assert found >= 3


def test_a_title_missing_its_leading_words_verifies_with_three_fields() -> None:
    # Metadata that lost an italic taxon: "Staphylococcus aureus subvert autophagy ..." is
    # recorded as "subvert autophagy ...".
    paper = cl.Paper(
        title="subvert autophagy for induction of caspase-independent host cell death",
        authors=["Schnaith A"],
        venue="J Biol Chem",
        volume="282",
        pages="2695-2706",
    )
    ref = cl.Reference.from_string(
        "Schnaith A, Kashkar H, Leggio SA, Addicks K, Kronke M, Krut O (2007) Staphylococcus "
        "aureus subvert autophagy for induction of caspase-independent host cell death. "
        "J Biol Chem 282:2695-2706"
    )
    res = resolved([paper], ref, cl.ResolutionState.VERIFIED_FUZZY)
    title = next(e for e in res.evidence if e.field == "title")
    assert title.score is not None
    assert title.score < 90  # the whole-title similarity alone would not pass
    # With fewer than three corroborating fields the partial match is not enough.
    bare = cl.Reference(title=ref.title, authors=ref.authors, year=2007)
    assert cl.Resolver([paper]).resolve(bare).state is cl.ResolutionState.UNRESOLVED
