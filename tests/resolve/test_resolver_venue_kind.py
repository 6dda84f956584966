"""Conference paper vs journal version: venue kinds, and the rule that keeps them apart."""

from __future__ import annotations

import pytest

import citeledger as cl
from citeledger.resolve.scoring import VenueKind, venue_kind
from tests import _data
from tests.conftest import requires_shared
from tests.resolve.conftest import resolved


@pytest.mark.parametrize(
    ("venue", "kind"),
    [
        ("The VLDB Journal", VenueKind.JOURNAL),
        ("VLDB J.", VenueKind.JOURNAL),
        ("ACM Transactions on Database Systems", VenueKind.JOURNAL),
        ("Phys. Rev. Lett.", VenueKind.JOURNAL),
        ("SIGMOD Record", VenueKind.JOURNAL),
        ("Proc. VLDB Endow.", VenueKind.JOURNAL),  # PVLDB is a journal
        ("VLDB", VenueKind.CONFERENCE),
        ("SIGMOD Conference", VenueKind.CONFERENCE),
        (
            "Proceedings of the 28th International Conference on Very Large Data Bases",
            VenueKind.CONFERENCE,
        ),
        ("Very Large Data Bases", VenueKind.CONFERENCE),
        ("Symposium on Operating Systems Principles", VenueKind.CONFERENCE),
        ("NeurIPS", VenueKind.CONFERENCE),
        ("arXiv preprint arXiv:2104.07857", VenueKind.PREPRINT),
        ("CoRR", VenueKind.PREPRINT),
        ("SSRN Electronic Journal", VenueKind.PREPRINT),
        ("Research Square", VenueKind.PREPRINT),
        ("Proc Natl Acad Sci USA", None),  # a bare "Proceedings" says nothing
        ("Mayo Clin Proc", None),
        ("J. Phys.: Conference Series", None),  # both kinds of words
        ("Nature", None),
        ("", None),
        (None, None),
    ],
)
def test_venue_kind(venue: str | None, kind: VenueKind | None) -> None:
    assert venue_kind(venue) is kind


_CONF = cl.Paper(
    title="Fast and accurate text classification via multiple linear discriminant projections",
    authors=["Soumen Chakrabarti", "Shourya Roy", "Mahesh V. Soundalgekar"],
    venue="VLDB",
    year=2002,
)


def _journal(**changes: object) -> cl.Paper:
    values: dict[str, object] = {
        "title": _CONF.title,
        "authors": _CONF.authors,
        "venue": "The VLDB Journal",
        "year": 2003,
    }
    values.update(changes)
    return cl.Paper(**values)  # type: ignore[arg-type]


def test_a_conference_paper_does_not_verify_to_its_journal_version_of_another_year() -> None:
    resolved(
        [_journal()],
        _CONF,
        cl.ResolutionState.UNRESOLVED,
        "another publication of the work",
        "'VLDB' (conference, 2002)",
        "'The VLDB Journal' (journal, 2003)",
    )


def test_the_other_publication_is_no_look_alike_for_the_margin() -> None:
    # Both versions in the catalog: the conference version leads by its exact year only (3
    # points; the margin needs 5), but the journal version is a record this reference cannot be
    # (the rule above), so it does not make the match ambiguous. It is reported as the rival.
    both = cl.Resolver([_journal(), _CONF])
    res = both.resolve(_CONF)
    assert res.state is cl.ResolutionState.VERIFIED_FUZZY
    assert res.target is not None
    assert (res.target.venue, res.target.year) == ("VLDB", 2002)
    assert [(p.venue, p.year) for p in res.alternatives] == [("The VLDB Journal", 2003)]
    assert "the runner-up is another publication of the work" in res.reason
    # ... and the other way round: a reference to the journal article finds the journal article.
    journal_ref = cl.Reference.from_paper(_journal())
    res = both.resolve(journal_ref)
    assert res.state is cl.ResolutionState.VERIFIED_FUZZY
    assert res.target is not None
    assert (res.target.venue, res.target.year) == ("The VLDB Journal", 2003)
    # A reference that does not say which publication it cites stays ambiguous.
    for unclear in (
        cl.Reference(title=_CONF.title, authors="Chakrabarti S, Roy S", year=2002),
        cl.Reference(title=_CONF.title, authors="Chakrabarti S, Roy S", venue="VLDB"),
        cl.Reference(title=_CONF.title, authors="Chakrabarti S, Roy S", year=2002, venue="Nature"),
    ):
        res = both.resolve(unclear)
        assert res.state is cl.ResolutionState.UNRESOLVED, unclear
        assert res.reason.startswith("ambiguous")
        assert {p.venue for p in res.alternatives} == {"VLDB", "The VLDB Journal"}


def test_venue_kinds_differ_but_the_reference_has_no_year() -> None:
    # "both years are known and differ": without the reference's year, no conflict.
    ref = cl.Reference(
        title=_CONF.title, authors="Chakrabarti S, Roy S, Soundalgekar MV", venue="VLDB"
    )
    resolved([_journal()], ref, cl.ResolutionState.VERIFIED_FUZZY)
    resolved(
        [_journal()],
        cl.model.replace(ref, year=2002),
        cl.ResolutionState.UNRESOLVED,
        "another publication of the work",
    )


def test_another_publication_does_not_hide_a_real_look_alike() -> None:
    # The journal version is skipped as a rival, but a third record of another work that is as
    # close as the best still makes the match ambiguous.
    sibling = cl.Paper(
        title=(_CONF.title or "").removesuffix("s"),  # "... discriminant projection"
        authors=_CONF.authors,
        venue="VLDB",
        year=2002,
        pages="300-311",
        identifiers=["10.5555/sibling"],
    )
    conf = cl.model.replace(_CONF, identifiers=["10.5555/conference"])
    res = resolved([_journal(), conf, sibling], _CONF, cl.ResolutionState.UNRESOLVED)
    assert res.reason.startswith("ambiguous")
    assert "doi:10.5555/sibling" in res.reason
    # Without the sibling the conference record verifies (the journal version is no rival).
    assert cl.Resolver([_journal(), conf]).resolve(_CONF).target == conf


def test_the_venue_rule_needs_two_known_kinds_and_two_known_years() -> None:
    verified = cl.ResolutionState.VERIFIED_FUZZY
    # same year: SIGMOD Record printed SIGMOD papers; one publication, as far as we can tell
    assert cl.Resolver([_journal(year=2002)]).resolve(_CONF).state is verified
    # the reference names no venue, or a venue of no known kind
    plain = cl.Reference(title=_CONF.title, authors="Chakrabarti S, Roy S", year=2002)
    assert cl.Resolver([_journal()]).resolve(plain).state is verified
    assert cl.Resolver([_journal(venue="Nature")]).resolve(_CONF).state is verified
    # undated journal record
    assert cl.Resolver([_journal(year=None)]).resolve(_CONF).state is verified


def test_a_preprint_still_verifies_to_its_published_version() -> None:
    preprint = cl.Reference(
        title=_CONF.title,
        authors="Chakrabarti S, Roy S, Soundalgekar MV",
        venue="arXiv preprint",
        year=2002,
    )
    resolved([_journal()], preprint, cl.ResolutionState.VERIFIED_FUZZY)


def test_a_shared_doi_still_verifies_across_venue_kinds() -> None:
    journal = _journal(identifiers=["10.1007/s00778-003-0098-9"])
    ref = cl.Reference.from_paper(_CONF)
    ref = cl.model.replace(ref, identifiers=journal.identifiers)
    resolved([journal], ref, cl.ResolutionState.VERIFIED_EXACT)


@requires_shared
def test_dblp_acm_conference_and_journal_versions_labeled_different() -> None:
    rows = _data.rows("magellan_dblp_acm.jsonl")
    row = next(r for r in rows if r["id"] == "magellan-DBLP-ACM:valid:1276")
    assert row["expected"] == "0"

    paper = _data.magellan_paper
    resolved(
        [paper(row["right"])],
        paper(row["left"]),
        cl.ResolutionState.UNRESOLVED,
        "another publication of the work",
    )


@requires_shared
def test_dblp_acm_conference_reference_finds_its_conference_record_beside_the_journal() -> None:
    # DBLP's "A formal perspective on the view selection problem", VLDB 2001: ACM holds the VLDB
    # 2001 paper (labeled the match) and the VLDB Journal 2002 article (labeled different).
    rows = _data.rows("magellan_dblp_acm.jsonl")
    same = next(r for r in rows if r["id"] == "magellan-DBLP-ACM:train:5369")
    other = next(r for r in rows if r["id"] == "magellan-DBLP-ACM:test:1706")
    assert (same["expected"], other["expected"]) == ("1", "0")
    assert same["left"] == other["left"]

    paper = _data.magellan_paper
    match, journal = paper(same["right"]), paper(other["right"])
    res = resolved([journal, match], paper(same["left"]), cl.ResolutionState.VERIFIED_FUZZY)
    assert res.target == match
    assert res.alternatives == (journal,)
