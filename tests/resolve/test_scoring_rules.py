"""The field-comparison rules of docs/resolver.md (``scoring.compare`` and its helpers).

Each test pins one rule that mutation analysis of ``citeledger/resolve/scoring.py`` and
``normalize.py`` found untested: changing the rule's comparison, constant, branch or
normalisation step makes the test fail. Where a rule only shows in a decision, the test goes
through ``Resolver``; where it shows in evidence (agreements, scores), it reads the evidence;
pure helpers (``title_word_conflict``, ``compare_venue``, ...) are called directly.
"""

from __future__ import annotations

import pytest

import citeledger as cl
from citeledger.model import Agreement, ResolutionState, replace
from citeledger.resolve.names import NameKey, name_keys
from citeledger.resolve.normalize import (
    is_generic_title,
    normalize_text,
    normalize_title,
    strip_accents,
)
from citeledger.resolve.scoring import (
    ReferenceFeatures,
    compare,
    compare_authors,
    compare_venue,
    lenient_title_similarity,
    title_similarity,
    title_word_conflict,
)
from tests.resolve.conftest import (
    MISMATCH,
    UNRESOLVED,
    VERIFIED_EXACT,
    VERIFIED_FUZZY,
    agreement_of,
    cite,
    resolved,
    review,
    title_sim,
)


def _conflict(a: str, b: str) -> str | None:
    return title_word_conflict(normalize_title(a), normalize_title(b))


def _ref_keys(authors: str) -> tuple[NameKey, ...]:
    return name_keys(cl.Reference(title="x", authors=authors).authors)


def _paper_keys(*authors: str) -> tuple[NameKey, ...]:
    return name_keys(cl.Paper(title="x", authors=list(authors)).authors)


# --------------------------------------------------------------------------- title similarity

# Yuqing Wang et al., J. Meteorol. Soc. Japan 82(6):1599-1628 (2004).
WANG = cl.Paper(
    title="Regional climate modeling: progress, challenges, and prospects",
    authors=["Yuqing Wang", "L. Ruby Leung", "John L. McGregor"],
    year=2004,
    venue="Journal of the Meteorological Society of Japan",
    volume="82",
    pages="1599-1628",
)


def test_title_similarity_takes_the_better_of_ratio_and_token_sort_ratio() -> None:
    # Words in another order (token_sort_ratio) ...
    assert title_sim("Deep residual learning", "Residual learning, deep") == 100.0
    # ... and words merged by a scraper (ratio; sorting the merged words misaligns them).
    merged = title_sim(
        "Selectivity estimation in spatial databases", "selectivity estimationinspatial databases"
    )
    assert merged > 97


def test_lenient_similarity_reads_a_ten_character_truncation_as_the_start() -> None:
    # "at least 10 characters": a reference truncated to "Graph cuts" still names the paper.
    assert len(normalize_title("Graph cuts")) == 10
    full = "Graph cuts and efficient N-D image segmentation"
    assert title_sim("Graph cuts", full) < 70
    assert lenient_title_similarity(normalize_title("Graph cuts"), normalize_title(full)) == 100.0
    doi = "10.1007/s11263-006-7934-5"
    paper = cl.Paper(
        title=full, authors=["Yuri Boykov", "Gareth Funka-Lea"], year=2006, identifiers=[doi]
    )
    ref = cl.Reference(title="Graph cuts", authors="Boykov Y", year=2006, identifiers=[doi])
    assert cl.Resolver([paper]).resolve(ref).state is VERIFIED_EXACT


def test_partial_similarity_needs_both_titles_of_25_characters() -> None:
    # Silver et al. 2016: a 24-character start of the title is no partial match ("Mastering
    # the game of Go without human knowledge" starts the same way).
    silver = cl.Paper(
        title="Mastering the game of Go with deep neural networks and tree search",
        authors=["David Silver", "Aja Huang", "Chris J. Maddison"],
        year=2016,
        venue="Nature",
        volume="529",
        pages="484-489",
    )
    ref = cl.Reference(
        title="Mastering the game of Go", authors="Silver D, Huang A", year=2016, volume="529"
    )
    assert len(normalize_title(ref.title)) == 24
    assert compare(ReferenceFeatures.of(ref), silver).prefix_title is None
    assert cl.Resolver([silver]).resolve(ref).state is UNRESOLVED


def test_a_25_character_start_of_the_title_is_a_partial_match() -> None:
    ref = cl.Reference(
        title="Regional climate modeling", authors="Wang Y, Leung LR", year=2004, volume="82"
    )
    assert len(normalize_title(ref.title)) == 25
    comp = compare(ReferenceFeatures.of(ref), WANG)
    assert comp.title is not None
    assert comp.title < 70
    assert comp.prefix_title == 100.0
    res = resolved([WANG], ref, VERIFIED_FUZZY)
    assert res.target is WANG


def test_partial_similarity_is_never_below_the_title_similarity() -> None:
    # "the best of the title similarity and how well the shorter title matches the start or
    # the end": words in another order match neither end, but the title similarity is high.
    ref = cl.Reference(title="Progress, challenges and prospects of regional climate modeling")
    comp = compare(ReferenceFeatures.of(ref), WANG)
    assert comp.title is not None
    assert comp.title > 95
    assert comp.prefix_title == comp.title


def test_a_dropped_subtitle_ranks_ten_points_below_a_full_match() -> None:
    # The reference drops the subtitle (title 70.8, start 100 -> ranks as 90). A different
    # paper with a closer plain similarity (83.3) must not overtake it.
    paper = review()
    other = cl.Paper(title="Climate sensitivity of tropical and subtropical glaciers", year=2004)
    ref = cl.Reference(
        title="Climate sensitivity of tropical glaciers", authors="Kaser G", year=2004, volume="43"
    )
    feats = ReferenceFeatures.of(ref)
    assert compare(feats, paper).rank == 90.0 + 6 + 4 + 2
    res = resolved([paper, other], ref, VERIFIED_FUZZY)
    assert res.target is paper
    # title evidence: 70.8 is PARTIAL (>= 70), not DISAGREE
    assert agreement_of(res, "title") is Agreement.PARTIAL


def test_title_agreement_bands_are_inclusive() -> None:
    glaciers = cl.Paper(title="Climate sensitivity of tropical glaciers", year=2004)
    at_90 = cl.Reference(title="Cllmate sensltlvlty of tropical glaciers")  # OCR: 90.0
    comp = compare(ReferenceFeatures.of(at_90), glaciers)
    assert comp.title == 90.0
    assert comp.agreement("title") is Agreement.AGREE
    below = cl.Reference(title="Climate sensitivity of glaciers in the tropics")
    comp = compare(ReferenceFeatures.of(below), glaciers)
    assert comp.title is not None
    assert 70 <= comp.title < 90
    assert comp.agreement("title") is Agreement.PARTIAL


def test_lenient_comparison_ignores_a_precomputed_plain_title_score() -> None:
    # compare(lenient_title=True) always scores with lenient_title_similarity (identifier route).
    ref = cl.Reference(title="Regional climate modeling")
    left, right = normalize_title(ref.title), normalize_title(WANG.title)
    comp = compare(
        ReferenceFeatures.of(ref),
        WANG,
        title_score=title_similarity(left, right),
        lenient_title=True,
    )
    assert comp.title == lenient_title_similarity(left, right) == 100.0


# --------------------------------------------------------------------------- sibling titles


_CHIME = "CHiME speech separation and recognition challenge"


@pytest.mark.parametrize(
    ("a", "b", "conflict"),
    [
        pytest.param(
            "Learning to rank for information retrieval",
            "Learning to rank in information retrieval",
            None,
            id="function-words-are-no-substituted-words",
        ),
        # The third (and fourth) CHiME challenge papers are not the first one.
        pytest.param(
            f"The {_CHIME}",
            f"The 3rd {_CHIME}",
            "number on one side: '3'",
            id="an-ordinal-on-one-side-is-a-number",
        ),
        pytest.param(
            f"The 4th {_CHIME}",
            f"The {_CHIME}",
            "number on one side: '4'",
            id="an-ordinal-on-the-other-side-is-a-number",
        ),
        # "numbers must be equal": '1990' is no spelling of '1990s'.
        pytest.param(
            "Unemployment in Europe in the 1990s",
            "Unemployment in Europe in 1990: revisited",
            "words on both sides: '1990s' vs '1990', 'revisited'",
            id="numbers-are-not-matched-as-misspelt-words",
        ),
        # ratio("theta", "delta") = 60 < 75: two EEG bands, two studies, not a typo.
        pytest.param(
            "Theta oscillations in human cortex",
            "Delta oscillations in human cortex",
            "words on both sides: 'theta' vs 'delta'",
            id="words-below-75-similar-are-substituted-not-misspelt",
        ),
        pytest.param(
            "Performance evaluation of distributed database systems",
            "Performance eval. of distributed database systems: a survey",
            None,
            id="an-abbreviated-word-on-the-right-is-no-conflict",
        ),
        pytest.param(
            "Performance eval. of distributed database systems: a survey",
            "Performance evaluation of distributed database systems",
            None,
            id="an-abbreviated-word-on-the-left-is-no-conflict",
        ),
        pytest.param(
            "Computational colour constancy",
            "Computational color constancy: survey and data",
            None,
            id="a-misspelling-beside-a-dropped-subtitle-is-no-conflict",
        ),
        # Only a difference made of numbers alone is a part/edition/year; a truncated subtitle
        # that contains a year is a truncation.
        pytest.param(
            "Global burden of disease study",
            "Global burden of disease study 2016: a systematic analysis",
            None,
            id="a-dropped-subtitle-with-a-year-is-no-number-conflict",
        ),
    ],
)
def test_title_word_conflict(a: str, b: str, conflict: str | None) -> None:
    assert _conflict(a, b) == conflict


def test_a_two_letter_word_is_no_abbreviation() -> None:
    # Prefixes count as abbreviations from 3 letters: "UK" is not short for "Ukraine".
    uk = "Prevalence of depression among adolescents in the UK"
    ukraine = "Prevalence of depression among adolescents in Ukraine"
    assert title_sim(uk, ukraine) > 90
    assert _conflict(uk, ukraine) == "words on both sides: 'uk' vs 'ukraine'"


# --------------------------------------------------------------------------- authors


def test_name_keys_fold_family_names_and_read_raw_names() -> None:
    (oneil,) = _ref_keys("O'Neil J")
    assert oneil.family == "oneil"  # punctuation-insensitive: "O'Neil" = "ONeil"
    (berg,) = _ref_keys("van der Berg J")
    assert berg.family == "vanderberg"
    # A display name without parts: the family name is its last word.
    (kaser,) = name_keys([cl.Author(raw="Georg Kaser")])
    assert kaser.family == "kaser"


def test_a_repeat_author_dash_is_not_an_author() -> None:
    # Bibliographies print "———" for "same authors as above"; it names nobody and must not
    # disagree with the candidate's authors.
    ref = cite(WANG, authors="———", venue=None, first_page=None)
    assert ReferenceFeatures.of(ref).authors == ()
    res = resolved([WANG], ref, VERIFIED_FUZZY)
    assert res.evidence_for("authors") is None


def test_an_unknown_author_list_is_missing_not_disagreeing() -> None:
    keys = _ref_keys("Wang Y, Leung LR")
    assert compare_authors(keys, ()) == (Agreement.MISSING, 0.0)
    assert compare_authors((), keys) == (Agreement.MISSING, 0.0)
    no_authors = cl.Paper(title=WANG.title, year=2004, volume="82", pages="1599-1628")
    ref = cl.Reference(title=WANG.title, authors="Wang Y, Leung LR", year=2004, volume="82")
    res = resolved([no_authors], ref, VERIFIED_FUZZY)
    assert agreement_of(res, "authors") is Agreement.MISSING


def test_a_compound_family_name_matches_its_last_part_either_way() -> None:
    # "García Márquez G" against a record that split the name as given "Gabriel García",
    # family "Márquez": a family name equal to a token of the other full name, on either side.
    cited = _ref_keys("García Márquez G")
    recorded = _paper_keys("Gabriel García Márquez")
    assert recorded[0].family == "marquez"
    assert compare_authors(cited, recorded) == (Agreement.AGREE, 100.0)
    assert compare_authors(recorded, cited) == (Agreement.AGREE, 100.0)


def test_author_score_is_the_share_of_the_left_names_found() -> None:
    cited = _ref_keys("Wang X, Tang X")
    recorded = _paper_keys("Xiaogang Wang", "Yu Wang", "Xiaoou Tang", "Chen Change Loy")
    # Both cited names are found (100 %), although they are half of the recorded ones; the
    # first "Wang" on the right is the cited Wang X, with a compatible initial.
    assert compare_authors(cited, recorded) == (Agreement.AGREE, 100.0)


def test_names_beyond_the_third_are_compared() -> None:
    # Up to ten names per list: the 4th-6th cited names are found: 4 of 6 match.
    recorded = _paper_keys(
        "Georg Kaser",
        "Irmgard Juen",
        "Christian Georges",
        "Thomas Mölg",
        "Nicolas J. Cullen",
        "Douglas R. Hardy",
    )
    cited = _ref_keys("Kaser G, Smith A, Brown B, Mölg T, Cullen NJ, Hardy DR")
    assert compare_authors(cited, recorded) == (Agreement.AGREE, 400.0 / 6)
    assert (
        len(name_keys(cl.Paper(title="x", authors=[f"A{i} Author{i}" for i in range(12)]).authors))
        == 10
    )


# Pan & Yang, IEEE TKDE 22(10):1345-1359 (2010).
PAN = cl.Paper(
    title="A survey on transfer learning",
    authors=["Sinno Jialin Pan", "Qiang Yang"],
    year=2010,
    venue="IEEE Transactions on Knowledge and Data Engineering",
    volume="22",
    pages="1345-1359",
    identifiers=["10.1109/TKDE.2009.191"],
)


def test_a_partial_author_match_corroborates() -> None:
    # One misread letter (not verified alone); the cited first author is not on the record, so
    # the authors are PARTIAL -- which still counts, with the year, as two corroborations.
    ref = cl.Reference(
        title="A survey on transfer learnlng", authors="Dai W, Pan SJ, Yang Q", year=2010
    )
    comp = compare(ReferenceFeatures.of(ref), PAN)
    assert comp.agreement("authors") is Agreement.PARTIAL
    assert comp.corroborations == 2
    resolved([PAN], ref, VERIFIED_FUZZY, "with 2 corroborating field(s)")


def test_agreeing_authors_carry_the_margin_over_a_same_titled_paper() -> None:
    # Another 2010 paper with the same title by other authors: only the authors tell them apart
    # (+6 against -20).
    other = cl.Paper(
        title="A survey on transfer learning",
        authors=["Karl Weiss", "Taghi M. Khoshgoftaar"],
        year=2010,
    )
    ref = cl.Reference(title="A survey on transfer learning", authors="Pan SJ, Yang Q", year=2010)
    res = resolved([PAN, other], ref, VERIFIED_FUZZY)
    assert res.target is PAN
    assert "by 26.0" in res.reason


# --------------------------------------------------------------------------- volume, first page


def test_volume_and_first_page_missing_on_the_candidate_are_missing() -> None:
    bare = cl.Paper(title=WANG.title, authors=WANG.authors, year=2004)
    ref = cl.Reference(
        title=WANG.title, authors="Wang Y, Leung LR", year=2004, volume="82", first_page="1599"
    )
    res = resolved([bare], ref, VERIFIED_FUZZY)
    assert agreement_of(res, "volume") is Agreement.MISSING
    assert agreement_of(res, "first_page") is Agreement.MISSING


def test_volume_and_first_page_both_differing_is_a_hard_disagreement() -> None:
    ref = cite(PAN, venue=None, volume="21", first_page="1000")
    res = resolved([PAN], ref, UNRESOLVED, "disagreeing volume+first_page")
    with_doi = replace(ref, identifiers=["10.1109/TKDE.2009.191"])
    res = resolved([PAN], with_doi, MISMATCH)
    assert res.reason.endswith("these fields disagree: volume+first_page")
    # one of the two differing is not a hard disagreement: another volume with the same first
    # page verifies (a misprinted volume) ...
    one = replace(ref, first_page="1345")
    assert cl.Resolver([PAN]).resolve(one).state is VERIFIED_FUZZY
    # ... while the same volume with another first page is another same-titled work there
    # (resolver._other_page: a second printing, an executive summary, part II)
    page = replace(ref, volume="22")
    resolved([PAN], page, UNRESOLVED, "another work of that title")


def test_volume_and_page_labels_are_read_but_roman_volumes_are_kept() -> None:
    def codes(volume: str, page: str, paper: cl.Paper) -> tuple[Agreement | None, ...]:
        ref = cl.Reference(title=paper.title, volume=volume, first_page=page)
        comp = compare(ReferenceFeatures.of(ref), paper)
        return comp.agreement("volume"), comp.agreement("first_page")

    assert codes("Vol. 22", "pp. 1345", PAN) == (Agreement.AGREE, Agreement.AGREE)
    part_one = cl.Paper(title="Collected papers", volume="I", pages="12-30")
    # Roman volume VI is not volume I with a "v" label in front.
    assert codes("VI", "12", part_one) == (Agreement.DISAGREE, Agreement.AGREE)


def test_full_width_digits_are_the_same_number() -> None:
    # Full-width digits (CJK typesetting) read as ASCII ones: volume ２２ is volume 22.
    ref = cl.Reference(title=PAN.title, volume="２２", first_page="１３４５")
    comp = compare(ReferenceFeatures.of(ref), PAN)
    assert comp.agreement("volume") is Agreement.AGREE
    assert comp.agreement("first_page") is Agreement.AGREE
    assert "volume+first_page" not in comp.hard


# --------------------------------------------------------------------------- venue


def test_venue_similarity_below_85_disagrees() -> None:
    agreement, score = compare_venue("Journal of Applied Physics", "Journal of Chemical Physics")
    assert 75 < score < 85
    assert agreement is Agreement.DISAGREE


def test_acronyms_agree_in_either_order_and_skip_function_words() -> None:
    assert compare_venue("VLDB", "Very Large Data Bases") == (Agreement.AGREE, 85.0)
    assert compare_venue("Very Large Data Bases", "VLDB") == (Agreement.AGREE, 85.0)
    assert compare_venue("ICDE", "International Conference on Data Engineering")[0] is (
        Agreement.AGREE
    )
    assert compare_venue("Physical Review Letters", "Phys. Rev. Lett.")[0] is Agreement.AGREE


def test_abbreviations_are_word_prefixes_one_word_each() -> None:
    # "phys" is inside "biophysics" but does not start it.
    assert compare_venue("J. Phys.", "Journal of Biophysics")[0] is Agreement.DISAGREE
    # "Magn. Magn." abbreviates two words (magnetism, magnetic), not one twice (a look-alike
    # name with one "magnetic" and four content words).
    assert compare_venue("J. Magn. Magn. Mater.", "Journal of Magnetic Materials Science")[0] is (
        Agreement.DISAGREE
    )
    assert (
        compare_venue("J. Magn. Magn. Mater.", "Journal of Magnetism and Magnetic Materials")[0]
        is Agreement.AGREE
    )


def test_a_candidate_without_venue_has_no_venue_score() -> None:
    ref = cl.Reference(title=WANG.title, venue="J. Meteorol. Soc. Jpn.")
    no_venue = cl.Paper(title=WANG.title, year=2004)
    (venue,) = [
        e for e in compare(ReferenceFeatures.of(ref), no_venue).evidence if e.field == "venue"
    ]
    assert venue.agreement is Agreement.MISSING
    assert venue.score is None


# --------------------------------------------------------------------------- normalisation


def test_special_latin_letters_fold_also_after_decomposition() -> None:
    assert normalize_text("Wrocław, Michał Przybyłek") == "wroclaw michal przybylek"
    # ǽ and Ǿ decompose (NFKD) into æ and Ø plus an accent; those fold too.
    assert strip_accents("Ǽsir, Ǿrsted") == "AEsir, Orsted"


def test_short_titles_count_letters_not_spaces() -> None:
    # "fewer than 12 letters in all": three content tokens, 9 letters (12 characters with spaces).
    title = normalize_title("HIV/TB in SA")
    assert len(title) == 12
    assert is_generic_title(title)


def test_greek_final_sigma_is_a_case_form() -> None:
    # Case-insensitive means casefolded: the final sigma (ς) is the lower-case sigma (σ) at the
    # end of a word, and sources (OCR, old encodings) do not always distinguish them.
    assert normalize_text("ΠΡΟΣΩΠΙΚΟΤΗΤΑΣ") == normalize_text("προσωπικοτητας")
    assert normalize_text("προσωπικοτητας") == normalize_text("προσωπικοτητασ")


def test_iso4_contractions_and_initials_of_several_words_agree() -> None:
    # "Natl" keeps the first letter and later ones of "national" (not a prefix); "USA" is the
    # initials of "United States (of) America".
    assert compare_venue(
        "Proc. Natl. Acad. Sci.", "Proceedings of the National Academy of Sciences"
    ) == (Agreement.AGREE, 85.0)
    assert compare_venue(
        "Proc. Natl. Acad. Sci. USA",
        "Proceedings of the National Academy of Sciences of the United States of America",
    ) == (Agreement.AGREE, 85.0)


def test_the_first_author_is_any_same_person_with_a_compatible_initial() -> None:
    # "Wang Y" is Yu Wang, the second Wang of the list, not Xiaogang Wang: the first author is
    # found, so the lists AGREE (the first same-family name alone gave PARTIAL).
    cited = name_keys(cl.Reference(authors="Wang Y, Tang X").authors)
    listed = name_keys(
        cl.Paper(authors=["Xiaogang Wang", "Yu Wang", "Xiaoou Tang", "Chen Change Loy"]).authors
    )
    assert compare_authors(cited, listed) == (Agreement.AGREE, 100.0)
    no_yu = name_keys(cl.Paper(authors=["Xiaogang Wang", "Xiaoou Tang"]).authors)
    assert compare_authors(cited, no_yu)[0] is Agreement.PARTIAL


def test_group_authors_are_told_apart_by_their_names() -> None:
    # Every collaboration's "family name" was "collaboration": a CMS paper found ATLAS's paper
    # of the same title an author match and verified to it.
    def keys(*names: str) -> tuple[NameKey, ...]:
        return name_keys(cl.Paper(authors=list(names)).authors)

    atlas, cms = keys("ATLAS Collaboration"), keys("CMS Collaboration")
    assert compare_authors(atlas, keys("The ATLAS Collaboration"))[0] is Agreement.AGREE
    assert compare_authors(atlas, cms)[0] is Agreement.DISAGREE
    hapmap = keys("International HapMap Consortium")
    assert compare_authors(hapmap, keys("The International HapMap Consortium"))[0] is (
        Agreement.AGREE
    )
    # A group name found whole inside a longer rendering of it is the same author.
    team = keys("Fox Development Team")
    assert compare_authors(team, keys("Corporate Fox Development Team Microsoft"))[0] is (
        Agreement.AGREE
    )
    paper = cl.Paper(
        title="Measurement of the top quark mass in the lepton plus jets channel at 13 TeV",
        authors=["ATLAS Collaboration"],
        year=2019,
        venue="Eur Phys J C",
    )
    ref = cite(
        paper,
        title="Measurement of the top quark mass in the lepton+jets channel at 13 TeV",
        authors="CMS Collaboration",
    )
    resolved([paper], ref, ResolutionState.UNRESOLVED, "disagreeing authors")
    resolved(
        [paper], replace(ref, authors="The ATLAS Collaboration"), ResolutionState.VERIFIED_FUZZY
    )


def test_placeholder_author_names_name_nobody() -> None:
    # Two anonymous editorials are not by one person: "Anonymous" must not corroborate a title,
    # nor disagree with a real name. A bare "Na" is a family name (Na JI), not "N/A".
    for placeholder in ("Anonymous", "Anon.", "[No authors listed]", "N/A", "The Editors"):
        assert name_keys(cl.Paper(authors=[placeholder]).authors) == ()
    assert [k.family for k in name_keys(cl.Paper(authors=["Na JI", "Staff J"]).authors)] == [
        "na",
        "staff",
    ]
    a = cl.Paper(title="A note on the reviewing of grant proposals", authors=["Anonymous"])
    ref = cl.Reference(title=a.title, authors="Anonymous")
    comp = compare(ReferenceFeatures.of(ref), a)
    assert comp.agreement("authors") is None  # not compared: nobody is named
    assert comp.corroborations == 0
