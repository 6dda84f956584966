"""Proceedings session labels in titles: "(Experience Paper)", "(Demonstration Description)".

DBLP keeps the label a paper was presented under, ACM and Google Scholar often do not; the
pairs below are real DBLP-ACM / DBLP-Scholar records of ``../shared`` (Magellan benchmark,
lower-cased and tokenised as there).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import citeledger as cl
from citeledger.model import ResolutionState
from citeledger.resolve._title_rules import _SESSION_LABEL_RE
from citeledger.resolve.normalize import normalize_title
from citeledger.resolve.scoring import (
    ReferenceFeatures,
    compare,
    title_similarity,
    without_session_label,
)


def test_label_words_are_dropped() -> None:
    assert (
        without_session_label("the bucky object relational benchmark experience paper")
        == "the bucky object relational benchmark"
    )
    assert (
        without_session_label("stream the stanford stream data manager demonstration description")
        == "stream the stanford stream data manager"
    )
    assert (
        without_session_label("data management in ecommerce tutorial session the good the bad")
        == "data management in ecommerce the good the bad"
    )


def test_a_short_title_keeps_its_last_word() -> None:
    # "panel", "tutorial", "poster" alone end a title only after four words or more.
    for title in (
        "the expert panel",
        "a solar panel",
        "java tutorial",
        "indexing multimedia tutorial",
    ):
        assert without_session_label(title) == title
    assert without_session_label("a unified approach to everything panel") == (
        "a unified approach to everything"
    )


def test_a_title_without_a_label_is_returned_as_is() -> None:
    title = "the persistent cache improving oid indexing"
    assert without_session_label(title) is title


def test_dblp_label_against_acm_title_verifies() -> None:
    dblp = cl.Paper(
        title="the bucky object-relational benchmark ( experience paper )",
        authors="jeffrey f. naughton , michael j. carey , dhaval shah , johannes gehrke , "
        "mohammad asgarian , david j. dewitt , paul brown",
        venue="sigmod conference",
        year=1997,
    )
    acm = cl.Paper(
        title="the bucky object-relational benchmark",
        authors="michael j. carey , david j. dewitt , jeffrey f. naughton , mohammad asgarian , "
        "paul brown , johannes e. gehrke , dhaval n. shah",
        venue="international conference on management of data",
        year=1997,
    )
    assert title_similarity(normalize_title(dblp.title), normalize_title(acm.title)) < 90
    res = cl.verify(dblp, acm)
    assert res.state is ResolutionState.VERIFIED_FUZZY


def test_the_record_with_the_label_leads_its_unlabelled_twin() -> None:
    # Google Scholar holds one work twice, with and without the label: the reference with the
    # label verifies to the record that has it, not ambiguous between the two.
    labelled = cl.Paper(title="the bucky object-relational benchmark ( experience paper )")
    bare = cl.Paper(title="the bucky object-relational benchmark")
    other = cl.Paper(title="the bucky object-relational benchmark", year=2001)
    ref = cl.Reference(
        title="the bucky object-relational benchmark ( experience paper )",
        authors=["m carey", "d dewitt"],
        year=1997,
    )
    res = cl.Resolver([bare, labelled, other]).resolve(ref)
    assert res.verified
    assert res.target is labelled


def test_a_dropped_label_and_a_changed_word_stay_below_the_threshold() -> None:
    # "dbms" for "database" as well as the label: 94.5 without the label, 5 points off.
    ref = cl.Reference(
        title="`` honey , i shrunk the dbms '' : footprint , mobility , and beyond ( panel )",
        authors=["praveen seshadri"],
        year=1999,
    )
    paper = cl.Paper(
        title="honey , i shrunk the database : footprint , mobility , and beyond",
        authors=["praveen seshadri"],
        year=1999,
    )
    comp = compare(ReferenceFeatures.of(ref), paper)
    assert comp.title is not None
    assert comp.title < 90


_WORDS = st.sampled_from(
    ["query", "index", "stream", "benchmark", "object", "relational", "cache", "grid", "xml"]
)
_LABELS = st.sampled_from(
    [
        "( experience paper )",
        "( demonstration description )",
        "( tutorial session )",
        "( industrial paper )",
        "( panel )",
        "( demo )",
    ]
)


@given(words=st.lists(_WORDS, min_size=4, max_size=10), label=_LABELS)
def test_a_label_on_one_side_leaves_the_title_similar(words: list[str], label: str) -> None:
    title = " ".join(words)
    ref = cl.Reference(title=f"{title} {label}")
    comp = compare(ReferenceFeatures.of(ref), cl.Paper(title=title))
    # At least the fuzzy threshold (the label dropped: 100 less the 5-point penalty, or the
    # plain similarity when that is already 90 or more).
    assert comp.title is not None
    assert comp.title >= 90.0


@given(
    words=st.lists(_WORDS, min_size=4, max_size=10),
    other=st.lists(_WORDS, min_size=4, max_size=10),
    label=_LABELS,
)
def test_a_label_never_makes_two_titles_closer_than_without_it(
    words: list[str], other: list[str], label: str
) -> None:
    # Dropping the label can only bring back the similarity of the bare titles (less the
    # penalty); it never makes two different titles look alike.
    ref = cl.Reference(title=f"{' '.join(words)} {label}")
    paper = cl.Paper(title=" ".join(other))
    comp = compare(ReferenceFeatures.of(ref), paper)
    bare = title_similarity(normalize_title(" ".join(words)), normalize_title(" ".join(other)))
    labelled = title_similarity(normalize_title(ref.title), normalize_title(paper.title))
    assert comp.title is not None
    assert comp.title <= max(bare, labelled)


_LABEL_PARTS = [
    "experience paper",
    "industrial paper",
    "demo paper",
    "panel session",
    "poster session",
    "tutorial session",
    "demonstration description",
    "extended abstract",
    "invited talk",
    "keynote address",
    "panel",
    "tutorial",
    "demonstration",
    "demo",
    "poster",
    "papers",
    "query",
    "processing",
    "x",
]


def _searched_label(title: str) -> str:
    # without_session_label as written before its quick word test: the search alone.
    m = _SESSION_LABEL_RE.search(title)
    if m is None:
        return title
    if m.start() > 0 and title[m.start()] == " " and title.count(" ", 0, m.start()) < 3:
        return title
    return " ".join(_SESSION_LABEL_RE.sub(" ", title).split())


@given(st.lists(st.sampled_from(_LABEL_PARTS), max_size=8))
def test_the_quick_label_test_never_skips_a_label(parts: list[str]) -> None:
    title = " ".join(parts)
    assert without_session_label(title) == _searched_label(title)
