"""The decision rules of docs/resolver.md, one boundary at a time.

Each test pins one rule (or one edge of a threshold) that mutation analysis of the resolver
found untested: changing the rule's comparison, constant or condition makes the test fail.
Titles at an exact similarity (90.0, 95.0) are built with OCR-like letter substitutions ("i"
read as "l") and the similarity is asserted first, so a test cannot pass by accident.
"""

from __future__ import annotations

import citeledger as cl
from citeledger.model import Agreement, replace
from citeledger.resolve.normalize import normalize_title
from citeledger.resolve.scoring import (
    ReferenceFeatures,
    compare,
    lenient_title_similarity,
)
from tests.resolve.conftest import (
    MISMATCH,
    UNRESOLVED,
    VERIFIED_EXACT,
    VERIFIED_FUZZY,
    cite,
    resolved,
    review,
    review_column_issues,
    title_sim,
)

# A 40-character title: each OCR substitution takes 2.5 points off the similarity.
GLACIERS = "Climate sensitivity of tropical glaciers"
GLACIERS_95 = "Climate sensitivlty of tropical glaclers"  # two letters misread: 95.0
GLACIERS_90 = "Cllmate sensltlvlty of tropical glaciers"  # four letters misread: 90.0


def _glaciers(**changes: object) -> cl.Paper:
    values: dict[str, object] = {
        "title": GLACIERS,
        "authors": ["Georg Kaser", "Irmgard Juen"],
        "year": 2004,
        "venue": "Global and Planetary Change",
        "volume": "43",
        "pages": "1-24",
        "identifiers": ["10.1016/j.gloplacha.2004.01.002"],
    }
    values.update(changes)
    return cl.Paper(**values)  # type: ignore[arg-type]


def test_the_ocr_titles_have_the_similarities_the_tests_rely_on() -> None:
    assert title_sim(GLACIERS_95, GLACIERS) == 95.0
    assert title_sim(GLACIERS_90, GLACIERS) == 90.0
    assert lenient_title_similarity(normalize_title(GLACIERS_90), normalize_title(GLACIERS)) == 90.0


# --------------------------------------------------------------------------- identifier route


def test_exact_route_title_at_the_threshold_is_not_a_disagreement() -> None:
    # "below min_exact_title_similarity" disagrees; a similarity equal to it does not.
    paper = _glaciers()
    ref = cl.Reference(
        title="Tropical glaciers and climate", identifiers=["10.1016/j.gloplacha.2004.01.002"]
    )
    sim = lenient_title_similarity(normalize_title(ref.title), normalize_title(paper.title))
    assert 0 < sim < 90
    at = cl.Resolver([paper], config=cl.ResolverConfig(min_exact_title_similarity=sim))
    assert at.resolve(ref).state is VERIFIED_EXACT
    above = cl.ResolverConfig(min_exact_title_similarity=sim + 0.01)
    resolved([paper], ref, MISMATCH, "title", config=above)


def test_exact_route_catalog_record_without_title_is_not_a_title_disagreement() -> None:
    # A record with a DOI and no title (a bare Crossref stub) has nothing to disagree with.
    stub = cl.Paper(
        identifiers=["10.1038/nature14539"],
        authors=["Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton"],
        year=2015,
        venue="Nature",
    )
    ref = cl.Reference(
        title="Deep learning",
        authors="LeCun Y, Bengio Y, Hinton G",
        year=2015,
        identifiers=["10.1038/nature14539"],
    )
    res = resolved([stub], ref, VERIFIED_EXACT)
    assert res.target is stub


def test_exact_route_other_authors_with_a_near_identical_title_still_verify() -> None:
    # "the author lists share no name while the titles are not near-identical": with the same
    # title (and at 90, the edge of near-identical) a misread author list is no disagreement.
    doi = "10.1016/j.gloplacha.2004.01.002"
    paper = _glaciers()
    for title in (GLACIERS, GLACIERS_90):
        ref = cl.Reference(title=title, authors="Smith J, Brown T", year=2004, identifiers=[doi])
        res = cl.Resolver([paper]).resolve(ref)
        assert res.state is VERIFIED_EXACT, (title, res.reason)
        authors = res.evidence_for("authors")
        assert authors is not None
        assert authors.agreement is Agreement.DISAGREE


def test_exact_route_other_authors_and_a_loosely_similar_title_disagree() -> None:
    doi = "10.1016/j.gloplacha.2004.01.002"
    paper = _glaciers()
    ref = cl.Reference(
        title="Climate sensitivity of tropical mountain glaciers in the Andes",
        authors="Smith J, Brown T",
        year=2004,
        identifiers=[doi],
    )
    sim = lenient_title_similarity(normalize_title(ref.title), normalize_title(paper.title))
    assert 70 <= sim < 90
    res = resolved([paper], ref, MISMATCH)
    assert res.reason.endswith("these fields disagree: authors")
    # the same reference with the right authors verifies: only the authors were in the way
    good = replace(ref, authors="Kaser G, Juen I")
    assert cl.Resolver([paper]).resolve(good).state is VERIFIED_EXACT


# --------------------------------------------------------------------------- fuzzy route: title


def test_an_identical_title_verifies_alone() -> None:
    # min_title_similarity_alone (100): no corroborating field is needed.
    paper = _glaciers()
    res = cl.Resolver([paper]).resolve(
        cl.Reference(title="Climate Sensitivity of Tropical Glaciers")
    )
    assert res.state is VERIFIED_FUZZY
    assert res.target is paper
    assert "with 0 corroborating field(s)" in res.reason


def test_title_alone_threshold_is_inclusive() -> None:
    # one misread letter: 97.5, no other field
    ref = cl.Reference(title="Climate sensitivity of tropical glaclers")
    sim = title_sim(ref.title or "", GLACIERS)
    assert 90 < sim < 100
    config = cl.ResolverConfig(min_title_similarity_alone=sim)
    assert cl.Resolver([_glaciers()], config=config).resolve(ref).state is VERIFIED_FUZZY
    assert cl.Resolver([_glaciers()]).resolve(ref).state is UNRESOLVED


def test_a_sibling_title_never_verifies_alone_even_with_a_low_alone_threshold() -> None:
    # "the title does not verify alone": not even when the user lowers the alone threshold.
    part1 = cl.Paper(title="Constructing optimal entanglement witnesses", year=2009)
    ref = cl.Reference(title="Constructing optimal entanglement witnesses. II")
    assert title_sim(ref.title or "", part1.title or "") >= 90
    config = cl.ResolverConfig(min_title_similarity_alone=90)
    resolved([part1], ref, UNRESOLVED, "number on one side: '2'", config=config)
    # whereas a typo at the same lowered threshold does verify alone
    typo = cl.Reference(title="Constructing optimal entanglement witneses")
    assert cl.Resolver([part1], config=config).resolve(typo).state is VERIFIED_FUZZY


def test_a_dropped_subtitle_verifies_with_exactly_the_required_corroborations() -> None:
    # The reference drops the subtitle: title similarity ~71, start similarity 100.
    paper = review()
    ref = cl.Reference(title=GLACIERS, authors="Kaser G", year=2004, volume="43")
    assert title_sim(GLACIERS, paper.title or "") < 90
    # authors, year and volume: min_prefix_corroborations = 3
    resolved([paper], ref, VERIFIED_FUZZY, "with 3 corroborating field(s)")
    assert cl.Resolver([paper]).resolve(replace(ref, volume=None)).state is UNRESOLVED


def test_prefix_threshold_is_inclusive() -> None:
    # A truncated title with one misread letter: the start similarity is 97.5.
    paper = review()
    ref = cl.Reference(
        title="Climate sensitivity of tropical glaclers", authors="Kaser G", year=2004, volume="43"
    )
    feats = ReferenceFeatures.of(ref)
    prefix = compare(feats, paper).prefix_title
    assert prefix is not None
    assert 95 < prefix < 100
    at = cl.ResolverConfig(min_prefix_title_similarity=prefix)
    assert cl.Resolver([paper], config=at).resolve(ref).state is VERIFIED_FUZZY
    above = cl.ResolverConfig(min_prefix_title_similarity=prefix + 0.01)
    assert cl.Resolver([paper], config=above).resolve(ref).state is UNRESOLVED


def test_no_partial_title_match_for_a_generic_title() -> None:
    # Two content words make a generic title: partial similarity does not count ("non-generic
    # titles only"), however many fields agree.
    paper = cl.Paper(
        title="Electroencephalography and magnetoencephalography in clinical neurology",
        authors=["Ernst Niedermeyer"],
        year=2004,
        volume="115",
        pages="1-10",
    )
    ref = cite(paper, title="Electroencephalography and magnetoencephalography")
    resolved([paper], ref, UNRESOLVED, "below 97")
    # the same partial match with a non-generic title verifies
    longer = replace(ref, title="Electroencephalography and magnetoencephalography in neurology")
    assert (
        cl.Resolver([replace(paper, title=(longer.title or "") + " practice")])
        .resolve(longer)
        .state
        is VERIFIED_FUZZY
    )


def test_a_generic_title_needs_97() -> None:
    reply = cl.Paper(
        title="Reply to comment",
        authors=["Michael E. Mann"],
        year=2005,
        venue="Geophysical Research Letters",
        volume="32",
        pages="L20708",
    )
    ref = cite(reply, title="Reply to comments", venue="Geophys Res Lett")
    assert 90 <= title_sim(ref.title or "", reply.title or "") < 97
    resolved([reply], ref, UNRESOLVED, "below 97")
    exact = replace(ref, title="Reply to comment")
    assert cl.Resolver([reply]).resolve(exact).state is VERIFIED_FUZZY


def test_a_generic_title_needs_two_corroborating_fields() -> None:
    editorial = cl.Paper(title="Editorial", authors=["Richard Snodgrass"], year=2001, venue="TODS")
    one = cl.Reference(title="Editorial", year=2001)
    resolved(
        [editorial], one, UNRESOLVED, "short/generic title corroborated by 1 field(s), 2 needed"
    )
    two = cl.Reference(title="Editorial", authors="Snodgrass R", year=2001)
    assert cl.Resolver([editorial]).resolve(two).state is VERIFIED_FUZZY


def test_the_article_waiver_holds_at_title_similarity_95() -> None:
    # Title, volume and first page identify the article "similarity >= 95": 95.0 is enough,
    # 90.0 is not.
    paper = _glaciers()
    ref = cl.Reference(
        title=GLACIERS_95,
        authors="Smith J, Brown T",  # a misread author list
        year=2004,
        volume="43",
        first_page="1",
    )
    resolved([paper], ref, VERIFIED_FUZZY, "title, volume and first page identify the article")
    resolved([paper], replace(ref, title=GLACIERS_90), UNRESOLVED, "disagreeing authors")


# --------------------------------------------------------------------------- series, venues


def test_versions_of_one_deposit_are_not_a_series() -> None:
    # Three figshare versions of one data set carry one title and three years: one work, so
    # neither a series nor look-alikes of each other.
    base = cl.Paper(
        title="Global gridded soil moisture observations from in situ networks",
        authors=["Wouter Dorigo", "Alexander Gruber"],
        venue="figshare",
    )
    versions = [
        replace(base, year=year, identifiers=[f"10.6084/m9.figshare.5107054.v{v}"])
        for v, year in ((1, 2019), (2, 2020), (3, 2021))
    ]
    ref = cl.Reference(title=base.title, authors="Dorigo W, Gruber A", year=2020)
    res = resolved(versions, ref, VERIFIED_FUZZY)
    assert res.target is versions[1]


def test_a_series_needs_the_exact_year_even_when_the_volume_agrees() -> None:
    issues = review_column_issues((2001, 30), (2002, 31), (2004, 33))
    # volume 31 agrees, the year is one off: "the year must then agree exactly and ..."
    ref = cl.Reference(
        title="Book Review Column",
        authors="K Aberer",
        year=2003,
        venue="SIGMOD Record",
        volume="31",
    )
    resolved(issues, ref, UNRESOLVED, "a series needs the same year")


# --------------------------------------------------------------------------- margin


def _ode(**changes: object) -> cl.Paper:
    values: dict[str, object] = {
        "title": "Neural ordinary differential equations",
        "authors": ["Ricky T. Q. Chen", "Yulia Rubanova", "Jesse Bettencourt", "David Duvenaud"],
    }
    values.update(changes)
    return cl.Paper(**values)  # type: ignore[arg-type]


def test_preprint_and_published_record_of_one_work_are_not_look_alikes() -> None:
    # They share the arXiv id (one work key) but not the year, so they are not duplicate
    # records; they are still one work, and the margin rule does not apply between them.
    preprint = _ode(year=2018, venue="arXiv", identifiers=["arXiv:1806.07366v1"])
    published = _ode(
        year=2019,
        venue="Advances in Neural Information Processing Systems",
        identifiers=["arXiv:1806.07366v5"],
    )
    ref = cl.Reference(
        title="Neural Ordinary Differential Equations",
        authors="Chen RTQ, Rubanova Y, Bettencourt J, Duvenaud D",
        year=2019,
    )
    res = resolved([preprint, published], ref, VERIFIED_FUZZY)
    assert res.target is published


def test_margin_threshold_is_inclusive() -> None:
    # Two other works titled alike: the cited one leads by its exact year and its volume.
    cited = _ode(year=2018, venue="NeurIPS", volume="31")
    other = _ode(year=2019, venue="NeurIPS", volume="32")
    ref = cl.Reference(
        title=cited.title, authors="Chen RTQ, Duvenaud D", year=2018, volume="31", venue="NeurIPS"
    )
    feats = ReferenceFeatures.of(ref)
    lead = compare(feats, cited).rank - compare(feats, other).rank
    assert lead > 0
    at = cl.Resolver([cited, other], config=cl.ResolverConfig(min_margin=lead))
    res = at.resolve(ref)
    assert res.state is VERIFIED_FUZZY
    assert res.target is cited
    above = cl.Resolver([cited, other], config=cl.ResolverConfig(min_margin=lead + 0.01))
    res = above.resolve(ref)
    assert res.state is UNRESOLVED
    assert "ambiguous" in res.reason


# --------------------------------------------------------------------------- duplicate records


def _attention(title: str = "Attention is all you need", **changes: object) -> cl.Paper:
    values: dict[str, object] = {
        "title": title,
        "authors": ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar"],
        "year": 2017,
    }
    values.update(changes)
    return cl.Paper(**values)  # type: ignore[arg-type]


_ATTENTION_REF = cl.Reference(
    title="Attention Is All You Need", authors="Vaswani A, Shazeer N, Parmar N", year=2017
)


def test_a_25_character_title_recorded_twice_with_a_typo_is_one_work() -> None:
    # "titles of 25+ characters that differ only by a typo": 25 is enough. The typo record
    # trails by 4 points, inside the margin, so only the duplicate rule lets this verify.
    good, typo = _attention(), _attention("Attention is all you nead")
    assert len(normalize_title(good.title)) == 25
    assert 95 <= title_sim(good.title or "", typo.title or "") < 100
    res = resolved([good, typo], _ATTENTION_REF, VERIFIED_FUZZY)
    assert res.target is good


def test_a_short_title_with_a_one_letter_difference_is_another_work() -> None:
    # Below 25 characters a one-letter difference is another title ("Data grids" / "Data grid").
    good = cl.Paper(title="Dropout regularization", authors=["Stefan Wager"], year=2013)
    other = cl.Paper(title="Dropout regularizatlon", authors=["Stefan Wager"], year=2013)
    assert 95 <= title_sim(good.title or "", other.title or "") < 100
    ref = cl.Reference(title="Dropout regularization", authors="Wager S", year=2013)
    res = resolved([good, other], ref, UNRESOLVED)
    assert res.reason.startswith("ambiguous")


def test_typo_twins_at_exactly_95_are_one_work_and_at_92_5_two() -> None:
    # The reference has one of the typos, so it is equally close to both records.
    cited = cl.Reference(
        title="Climate sensitivlty of tropical glaciers", authors="Kaser G, Juen I", year=2004
    )
    clean = _glaciers(identifiers=[], volume=None, pages=None)
    twin95 = replace(clean, title=GLACIERS_95)
    assert title_sim(clean.title or "", GLACIERS_95) == 95.0
    res = resolved([clean, twin95], cited, VERIFIED_FUZZY)
    assert res.target in (clean, twin95)
    # One more misread letter (92.5) is no longer a typo-level twin: ambiguous.
    twin92 = replace(clean, title="Cllmate sensitivlty of tropical glaclers")
    assert title_sim(clean.title or "", twin92.title or "") == 92.5
    ref92 = replace(cited, title="Climate sensitivlty of tropical glaclers")
    res = resolved([clean, twin92], ref92, UNRESOLVED)
    assert res.reason.startswith("ambiguous")


def test_close_titles_with_another_part_number_are_not_duplicates() -> None:
    # Parts II and III in one year by the same authors: two works however close the titles.
    part2 = cl.Paper(
        title="Constructing optimal entanglement witnesses. II",
        authors=["Dariusz Chruscinski", "Justyna Pytel", "Gniewomir Sarbicki"],
        year=2010,
        venue="Physical Review A",
    )
    part3 = replace(part2, title="Constructing optimal entanglement witnesses. III")
    assert title_sim(part2.title or "", part3.title or "") >= 95
    ref = cl.Reference(title=part2.title, authors="Chruscinski D, Pytel J, Sarbicki G", year=2010)
    res = resolved([part2, part3], ref, UNRESOLVED)
    assert res.reason.startswith("ambiguous")
    # with its first page the reference names its part
    paged = cl.Resolver([replace(part2, pages="012312"), replace(part3, pages="062316")])
    assert paged.resolve(replace(ref, first_page="012312")).state is VERIFIED_FUZZY


def test_duplicate_records_one_of_them_undated() -> None:
    # "compatible years": a missing year is compatible with any.
    good, typo = _attention(), _attention("Attention is all you nead", year=None)
    ref = replace(_ATTENTION_REF, year=None)
    res = resolved([good, typo], ref, VERIFIED_FUZZY)
    assert res.target is good


def test_typo_twins_with_different_dois_are_two_works() -> None:
    good = _attention(identifiers=["10.5555/3295222.3295349"])
    typo = _attention("Attention is all you nead", identifiers=["10.1000/another.work.42"])
    res = resolved([good, typo], replace(_ATTENTION_REF, year=None), UNRESOLVED)
    assert res.reason.startswith("ambiguous")


def test_typo_twins_with_identifiers_of_different_schemes_are_one_work() -> None:
    # an arXiv id on one record and a DOI on the other do not contradict each other
    good = _attention(identifiers=["10.5555/3295222.3295349"])
    typo = _attention("Attention is all you nead", identifiers=["arXiv:1706.03762"])
    res = resolved([good, typo], replace(_ATTENTION_REF, year=None), VERIFIED_FUZZY)
    assert res.target is good


def test_a_title_shared_by_two_other_works_only_approximately_is_no_series() -> None:
    # "exactly the same normalised title": the yearly Global Burden of Disease papers differ by
    # their year, so they are not one recurring title (and they are not look-alikes either).
    authors = ["GBD Diseases and Injuries Collaborators"]
    studies = [
        cl.Paper(title=f"Global burden of disease study {study}", authors=authors, year=year)
        for study, year in ((2017, 2018), (2018, 2019), (2019, 2020))
    ]
    ref = cl.Reference(
        title="Global Burden of Disease Study 2019",
        authors="GBD Diseases and Injuries Collaborators",
        year=2020,
    )
    res = resolved(studies, ref, VERIFIED_FUZZY)
    assert res.target is studies[2]


def _grid(title: str = "Data grid management systems", **changes: object) -> cl.Paper:
    values: dict[str, object] = {"title": title}
    values.update(changes)
    return cl.Paper(**values)  # type: ignore[arg-type]


def test_one_shared_author_makes_duplicates_only_of_undated_records_with_one_title() -> None:
    # "For the same non-generic title on two *undated* records, one shared author is enough."
    a = _grid(authors=["R. W. Moore", "A. Jagatheesan"])
    b = _grid(authors=["A. Rajasekar", "A. Jagatheesan"])
    ref = cl.Reference(title="Data grid management systems", authors="Moore RW, Jagatheesan A")
    undated = resolved([a, b], ref, VERIFIED_FUZZY)
    assert undated.target is a
    # dated records (same year) need agreeing author lists: one shared author is not enough
    dated = cl.Resolver([replace(a, year=2003), replace(b, year=2003)])
    res = dated.resolve(replace(ref, year=2003))
    assert res.state is UNRESOLVED
    assert res.reason.startswith("ambiguous")
    # nor when only one of the records is undated
    half = resolved([replace(a, year=2003), b], ref, UNRESOLVED)
    assert half.reason.startswith("ambiguous")
    # nor for two titles that differ by a typo
    typo = cl.Resolver([a, replace(b, title="Data grid managment systems")])
    res = typo.resolve(ref)
    assert res.state is UNRESOLVED
    assert res.reason.startswith("ambiguous")


def test_one_shared_author_does_not_make_generic_titles_duplicates() -> None:
    a = cl.Paper(title="Editorial", authors=["Richard Snodgrass", "Christian Jensen"], venue="TODS")
    b = cl.Paper(title="Editorial", authors=["Gerhard Weikum", "Christian Jensen"], venue="TODS")
    ref = cl.Reference(title="Editorial", authors="Snodgrass R, Jensen C", venue="TODS")
    res = resolved([a, b], ref, UNRESOLVED)
    assert res.reason.startswith("ambiguous")


def test_a_duplicate_record_without_authors_is_one_work() -> None:
    # a scraped record of the same work with no author list ("agreeing (or missing) authors")
    full = _attention()
    bare = _attention(authors=())
    ref = cl.Reference(title="Attention is all you need", year=2017)
    res = resolved([full, bare], ref, VERIFIED_FUZZY)
    assert res.target in (full, bare)


def test_a_short_title_recorded_twice_is_one_work() -> None:
    # "the same normalised title" makes duplicates at any length (the 25-character minimum is
    # for titles that differ by a typo).
    authors = ["Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton"]
    crossref = cl.Paper(title="Deep learning", authors=authors, year=2015, venue="Nature")
    scraped = cl.Paper(title="Deep Learning", authors=authors, year=2015)
    ref = cl.Reference(title="Deep learning", authors="LeCun Y, Bengio Y, Hinton G", year=2015)
    res = resolved([crossref, scraped], ref, VERIFIED_FUZZY)
    assert res.target in (crossref, scraped)


# --------------------------------------------------------------------------- identifiers


# Lu et al., Dev Cell 2020, and its bioRxiv preprint of 2019.
_RETINA = "Single-cell transcriptomics of the developing human retina"
_JOURNAL_DOI, _PREPRINT_DOI = "10.1016/j.devcel.2020.04.009", "10.1101/2019.12.19.883405"


def _retina(
    *, year: int, dois: list[str], authors: tuple[str, ...] = ("Yufeng Lu", "Fion Shiau")
) -> cl.Paper:
    return cl.Paper(title=_RETINA, authors=list(authors), year=year, identifiers=dois)


def test_a_preprint_doi_on_the_reference_does_not_conflict_with_the_journal_doi() -> None:
    # "when either DOI belongs to a preprint server": the reference cites the bioRxiv
    # preprint, the catalog has the journal article with its own DOI and the same title.
    article = _retina(year=2020, dois=[_JOURNAL_DOI])
    ref = cl.Reference(title=_RETINA, identifiers=[_PREPRINT_DOI])
    res = resolved([article], ref, VERIFIED_FUZZY)
    assert res.target is article
    # a publisher DOI for another work does conflict: an identical title is then not enough
    resolved(
        [article],
        replace(ref, identifiers=["10.1038/s41586-020-0001-1"]),
        UNRESOLVED,
        "different identifier of the same scheme",
    )


def test_a_preprint_doi_in_the_catalog_does_not_conflict_with_the_reference_doi() -> None:
    # The other way round: the catalog holds the bioRxiv record, the reference the journal DOI.
    preprint = _retina(year=2019, dois=[_PREPRINT_DOI])
    ref = cl.Reference(title=_RETINA, identifiers=[_JOURNAL_DOI])
    res = resolved([preprint], ref, VERIFIED_FUZZY)
    assert res.target is preprint


# --------------------------------------------------------------------------- authors


def _authors_agreement(cited: str, listed: list[str]) -> Agreement:
    paper = _glaciers(authors=listed)
    res = cl.Resolver([paper]).resolve(cl.Reference(title=GLACIERS, authors=cited, year=2004))
    ev = res.evidence_for("authors")
    assert ev is not None
    return ev.agreement


def test_authors_agree_only_when_the_first_authors_initials_are_compatible() -> None:
    assert _authors_agreement("Kaser G, Juen I", ["Georg Kaser", "Irmgard Juen"]) is Agreement.AGREE
    # first author's initial differs: another Kaser, so only PARTIAL
    assert (
        _authors_agreement("Kaser A, Juen I", ["Georg Kaser", "Irmgard Juen"]) is Agreement.PARTIAL
    )
    # a later author's initial does not matter
    assert _authors_agreement("Kaser G, Juen A", ["Georg Kaser", "Irmgard Juen"]) is Agreement.AGREE


def test_similar_family_names_match_from_four_letters() -> None:
    # "Bose" / "Bosse" (transliteration, ratio 89) is one person; "Cho" / "Chou" are two names.
    assert _authors_agreement("Bosse S, Juen I", ["S. Bose", "Irmgard Juen"]) is Agreement.AGREE
    assert _authors_agreement("Chou K", ["K. Cho"]) is Agreement.DISAGREE


def test_a_preprint_doi_beside_the_journal_doi_does_not_hide_a_conflict() -> None:
    # The catalog record carries its journal DOI and its bioRxiv DOI; a reference naming
    # another journal DOI conflicts with the journal DOI, whatever the preprint DOI beside it.
    both = _retina(year=2020, dois=[_JOURNAL_DOI, _PREPRINT_DOI], authors=("Yufeng Lu",))
    ref = cl.Reference(title=both.title, identifiers=["10.1038/s41586-020-0001-1"])
    resolved([both], ref, UNRESOLVED, "different identifier of the same scheme")
    # the journal DOI itself, or the preprint DOI, is the same work: no conflict
    resolved([both], replace(ref, identifiers=[_JOURNAL_DOI]), cl.ResolutionState.VERIFIED_EXACT)


def test_a_name_in_the_other_order_is_the_same_person() -> None:
    # "Li Wei" vs "Wei Li": the family name of one is a token of the other's full name.
    assert _authors_agreement("Wei Li, Juen I", ["Li Wei", "Irmgard Juen"]) is Agreement.AGREE


def test_a_metadata_mismatch_names_the_first_identifier_that_was_found() -> None:
    # Both identifiers of the reference are in the catalog and both records disagree with it:
    # the result is about the first one the reference names.
    first = cl.Paper(
        title="Glacier retreat in the tropical Andes", year=1990, identifiers=["10.1000/first"]
    )
    second = cl.Paper(
        title="Protein folding kinetics in the cytosol", year=2015, identifiers=["PMID:12345"]
    )
    ref = cl.Reference(
        title="Deep learning for galaxy morphology",
        year=2021,
        identifiers=["10.1000/first", "PMID:12345"],
    )
    res = resolved([first, second], ref, cl.ResolutionState.METADATA_MISMATCH)
    assert res.target is first
    assert res.reason.startswith("doi:10.1000/first is in the catalog")
    swapped = cl.Resolver([first, second]).resolve(
        replace(ref, identifiers=["PMID:12345", "10.1000/first"])
    )
    assert swapped.target is second
    assert swapped.reason.startswith("pmid:12345 is in the catalog")


def test_markup_inside_a_word_does_not_change_the_title() -> None:
    # Crossref and JATS titles carry <sub>/<sup>/<i>; a reference printed from a PDF does not.
    record = cl.Paper(
        title="Global CO<sub>2</sub> emissions from H<sub>2</sub>O<sub>2</sub> production in "
        "<i>Escherichia coli</i> fermentation plants",
        authors=["Maria Keller"],
        year=2019,
        venue="Nature Energy",
    )
    ref = cite(
        record,
        title="Global CO2 emissions from H2O2 production in Escherichia coli fermentation plants",
        venue=None,
    )
    res = resolved([record], ref, VERIFIED_FUZZY)
    title = res.evidence_for("title")
    assert title is not None
    assert title.score == 100.0
