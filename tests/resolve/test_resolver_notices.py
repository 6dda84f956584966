"""Notices about a work (corrections, retraction notices, comments, replies) are other works."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import citeledger as cl
from citeledger.model import ResolutionState
from citeledger.resolve.scoring import notice_kind
from tests import _data
from tests.conftest import requires_shared
from tests.resolve.conftest import cite, resolved

TITLE = "Molecular mechanisms of early brain injury after subarachnoid hemorrhage"
WORK = cl.Paper(
    title=TITLE,
    authors=["Robert P. Ostrowski", "Austin R. Colohan", "John H. Zhang"],
    year=2006,
    venue="Neurol Res",
    volume="28",
    pages="399-414",
)
REF = cite(WORK, volume=None, first_page=None)


@pytest.mark.parametrize(
    ("title", "kind"),
    [
        ("Erratum: a database model for object dynamics", "correction"),
        ("erratum-a database model for object dynamics", "correction"),
        ("Correction to: Exosomes mediate stromal mobilization", "correction"),
        ("Author Correction: Exosomes mediate stromal mobilization", "correction"),
        ('Corrigendum to "Molecular mechanisms"', "correction"),
        ("Retraction Note: Exosomes mediate stromal mobilization", "retraction"),
        ("Notice of Retraction: A scheme for routing", "retraction"),
        ("Expression of concern: Exosomes mediate stromal mobilization", "concern"),
        ("Comment on: brief, four session group CBT reduces binge eating", "comment"),
        ("Reply to comments on 'Puzzlingly high correlations in fMRI studies'", "reply"),
        ("Response to the comments by Smith and Jones", "reply"),
        ("Data from: Range-wide genetic structure of the wolverine", "supplement"),
        ("Replication Data for: Voting and the economy", "supplement"),
        ("Supporting information for Exosomes mediate stromal mobilization", "supplement"),
        ("Book review: The selfish gene", "review"),
        ("Reviewed Work(s): The Selfish Gene by Richard Dawkins", "review"),
        (
            (
                "An Introduction to Matrices and Linear Transformations. By John H. Staib. Pp. xii, "
                "336. 1969. (Addison-Wesley.)"
            ),
            "review",
        ),
        ("Stand by me. By the river", None),
        ("Review of recent advances in asymmetric catalysis", None),
        # research titles that start with the same words
        ("Data from a national survey of adolescents", None),
        ("Correction for unreliability of multifactor measures", None),
        ("Retraction of the mandible in adults", None),
        ("Response to thermal exposure of ball-milled Cu-Mg/B2O3 powder blends", None),
        ("Commentary on the laws of thought", None),
        # the retracted article itself, as Elsevier marks it, is the work
        ("RETRACTED: Multiple co-activator complexes support ligand-induced transactivation", None),
        (None, None),
    ],
)
def test_notice_kind(title: str | None, kind: str | None) -> None:
    assert notice_kind(title) == kind


@pytest.mark.parametrize(
    "prefix",
    [
        "Erratum: ",
        "Correction to: ",
        "Retraction Note: ",
        "Expression of concern: ",
        "Data from: ",
    ],
)
def test_a_notice_is_not_the_work_it_is_about(prefix: str) -> None:
    notice = cl.model.replace(WORK, title=prefix + TITLE, pages="415")
    # Only the notice in the catalog: a reference to the work does not verify to it.
    res = resolved([notice], REF, ResolutionState.UNRESOLVED, "notice about the work, not the work")
    # Both: the work verifies, and the notice is no look-alike of it.
    both = cl.Resolver([notice, WORK])
    res = both.resolve(REF)
    assert res.state is ResolutionState.VERIFIED_FUZZY
    assert res.target is WORK
    # A reference to the notice finds the notice, never the work.
    cites_notice = cl.model.replace(REF, title=prefix + TITLE)
    assert both.resolve(cites_notice).target is notice
    resolved([WORK], cites_notice, ResolutionState.UNRESOLVED, "the reference cites a")


@requires_shared
def test_dblp_acm_erratum_and_its_article() -> None:
    # DBLP and ACM both list Papazoglou & Krämer, "A database model for object dynamics", VLDB J.
    # 1997, and its erratum ("erratum : …" / "erratum-…").
    rows = {r["id"]: r for r in _data.rows("magellan_dblp_acm.jsonl")}
    paper = _data.magellan_paper
    acm_article = paper(rows["magellan-DBLP-ACM:train:2327"]["right"])
    acm_erratum = paper(rows["magellan-DBLP-ACM:train:4178"]["right"])
    dblp_erratum = paper(rows["magellan-DBLP-ACM:train:282"]["left"])
    dblp_article = paper(rows["magellan-DBLP-ACM:valid:1971"]["left"])
    assert notice_kind(acm_erratum.title) == notice_kind(dblp_erratum.title) == "correction"
    both = cl.Resolver([acm_erratum, acm_article])
    assert both.resolve(dblp_article).target == acm_article
    assert both.resolve(dblp_erratum).target == acm_erratum
    resolved([acm_erratum], dblp_article, ResolutionState.UNRESOLVED)


@requires_shared
def test_fuzzycat_book_review_is_not_the_book() -> None:
    # fuzzycat labels this pair AMBIGUOUS: a JSTOR book review titled after the book, with the
    # book's author and pages, and a record of the bare title. The review is not the book.
    row = next(
        r
        for r in _data.rows("fuzzycat_verify_pairs.jsonl")
        if r["expected"] == "Status.AMBIGUOUS" and "Staib" in (r["left"].get("title") or "")
    )
    review = cl.Paper(title=row["left"]["title"], year=row["left"].get("release_year"))
    book = cl.Paper(title=row["right"]["title"], year=row["right"].get("release_year"))
    assert notice_kind(review.title) == "review"
    res = cl.verify(review, book)
    assert res.state is ResolutionState.UNRESOLVED
    assert "review notice" in res.reason


def _by_patterns(title: str) -> str | None:
    # notice_kind from its two patterns alone (no substring tests first).
    from citeledger.resolve._notices import _NOTICE_RE, _REVIEW_RE  # noqa: PLC0415

    m = _NOTICE_RE.match(title)
    if m is None:
        return "review" if _REVIEW_RE.search(title) else None
    return next(name for name, value in m.groupdict().items() if value)


_NOTICE_WORDS = st.sampled_from(
    [
        *("Erratum", "errata", "Corrigendum", "corrigenda", "Addendum", "addenda"),
        *("Correction", "correction", "Author's", "authors", "Publisher's", "Notice", "of"),
        *("Retraction", "retraction", "Note", "notice", "statement", "Editorial", "Expression"),
        *("concern", "Replication", "Data", "data", "from", "for", "Supplementary"),
        *("supplemental", "Supporting", "material", "information", "files", "figure", "tables"),
        *("Comments", "comment", "on", "to", "Reply", "replies", "The", "the", "Response"),
        *("letter", "critique", "By", "by", "Staib", "Pp.", "pp", "xii", "336", "336.", "1969"),
        *("Book", "Reviews", "Reviewed", "Work(s)", "review", ":", "-", "(", ")", ",", "."),
        *("'", "_", "2"),
    ]
)


# One title per alternative of the patterns (each starts another way).
_EACH_ALTERNATIVE = [
    "Author's correction to: A study",
    "Publisher correction: A study",
    "Correction: A study",
    "Erratum A study",
    "Corrigenda to a study",
    "Addendum: A study",
    "Notice of Retraction: A study",
    "Retraction Note: A study",
    "Editorial Expression of Concern: A study",
    "Replication data for: A study",
    "Data from: A study",
    "Supplementary material for A study",
    "Supporting information to a study",
    "Comments on a study",
    "Reply to a study",
    "Replies to a study",
    "The authors reply",
    "Authors' reply",
    "Response to the comments on a study",
    "Book reviews: A study",
    "Reviewed Work(s): A study",
    "Review of: A study",
    "Linear Algebra. By John H. Staib. Pp. xii, 336. 1969.",
    "... (Correction: A study",
]


@pytest.mark.parametrize("title", _EACH_ALTERNATIVE)
def test_notice_kind_each_alternative_passes_the_substring_tests(title: str) -> None:
    assert notice_kind.__wrapped__(title) == _by_patterns(title) is not None


@given(
    st.lists(_NOTICE_WORDS, max_size=8).map(" ".join)
    | st.tuples(st.sampled_from(_EACH_ALTERNATIVE), st.integers(0, 60)).map(lambda t: t[0][: t[1]])
    | st.text(alphabet=st.characters(max_codepoint=127), max_size=40)
)
def test_notice_kind_substring_tests_change_nothing(title: str) -> None:
    # ASCII titles are ruled out by substring tests before the patterns run: the same kinds.
    assert notice_kind.__wrapped__(title) == _by_patterns(title)
