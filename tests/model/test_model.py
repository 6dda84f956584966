"""The typed model: converters, invariants, deterministic ids, measurements that refuse to mix."""

from __future__ import annotations

import datetime as dt
import json
import re
import uuid
from pathlib import Path
from typing import Any

import attrs
import pytest

import citeledger as cl
from citeledger.errors import (
    IncompatibleMeasurements,
    NaiveDatetimeError,
)
from citeledger.identifiers import MalformedFragment, find_identifiers, normalize_arxiv
from citeledger.model import (
    OBSERVATION_NAMESPACE,
    Event,
    EventKind,
    Evidence,
    MeasurementKind,
    Relation,
    RelationKind,
    WorkType,
    replace,
    utc,
)
from citeledger.serialize import structure

NOW = dt.datetime(2026, 8, 5, 2, 28, 24, 338817, tzinfo=dt.UTC)
DOI_A = cl.normalize_doi("10.1234/alpha")
ARXIV = normalize_arxiv("2104.07857")


def names(value: Any) -> list[tuple[str | None, str | None]]:
    return [(a.family, a.given) for a in cl.Paper(authors=value).authors]


# ----------------------------------------------------------------------------- enums


def test_resolution_states_are_exactly_the_six_ledger_states() -> None:
    assert [s.value for s in cl.ResolutionState] == [
        "verified_exact",
        "verified_fuzzy",
        "unresolved",
        "parse_uncertain",
        "malformed_identifier",
        "metadata_mismatch",
    ]
    assert {s for s in cl.ResolutionState if s.verified} == {
        cl.ResolutionState.VERIFIED_EXACT,
        cl.ResolutionState.VERIFIED_FUZZY,
    }
    assert cl.ResolutionState.METADATA_MISMATCH.label == "metadata mismatch"


def test_method_for_every_identifier_scheme() -> None:
    assert {cl.Method.for_scheme(s) for s in cl.Scheme} == {
        cl.Method.DOI,
        cl.Method.ARXIV_ID,
        cl.Method.PMID,
        cl.Method.PMCID,
        cl.Method.OPENALEX,
        cl.Method.S2,
        cl.Method.CORPUSID,
    }
    assert cl.Method.for_scheme("arxiv") is cl.Method.ARXIV_ID
    assert cl.Method.NO_RESOLVER_LINK.label == "no resolver link"
    assert cl.Method.ARXIV_ID.label == "arxiv_id"


# ----------------------------------------------------------------------------- values are frozen


def test_values_are_frozen_slotted_and_keyword_only() -> None:
    paper = cl.Paper(title="T")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        paper.title = "U"  # type: ignore[misc]
    assert not hasattr(paper, "__dict__")
    with pytest.raises(TypeError):
        cl.Paper("T")  # type: ignore[call-arg]


# ----------------------------------------------------------------------------- converters


def test_lists_become_tuples_and_strings_become_identifiers() -> None:
    paper = cl.Paper(
        identifiers=["https://doi.org/10.1234/ALPHA", "arXiv:2104.07857v2"],
        areas=["cs.LG", "stat.ML"],
        authors=[cl.Author(family="Doe"), "Smith J"],
    )
    assert paper.identifiers == (DOI_A, ARXIV.with_version(2))
    assert paper.areas == ("cs.LG", "stat.ML")
    assert isinstance(paper.authors, tuple)
    assert paper.authors[1] == cl.Author(family="Smith", given="J", raw="Smith J")


def test_a_single_identifier_string_and_duplicates() -> None:
    assert cl.Paper(identifiers="doi:10.1234/alpha").identifiers == (DOI_A,)
    assert cl.Paper(identifiers=DOI_A).identifiers == (DOI_A,)
    # Equal after canonicalisation: kept once, first occurrence wins the order.
    paper = cl.Paper(identifiers=["10.1234/ALPHA", "arXiv:2104.07857", "doi:10.1234/alpha"])
    assert paper.identifiers == (DOI_A, ARXIV)


def test_an_invalid_identifier_string_is_rejected() -> None:
    with pytest.raises(cl.InvalidIdentifier):
        cl.Paper(identifiers=["10.1234"])
    with pytest.raises(cl.ModelError):
        cl.Paper(identifiers=[42])  # type: ignore[list-item]


def test_strings_are_whitespace_normalised_and_empty_means_none() -> None:
    paper = cl.Paper(title="  Deep \n learning\tfor  all ", venue="   ", volume=3)
    assert paper.title == "Deep learning for all"
    assert paper.venue is None
    assert paper.volume == "3"


def test_relations_accept_mappings_and_parse_identifiers() -> None:
    paper = cl.Paper(related=[{"kind": "preprint_of", "identifier": "10.1234/alpha"}])
    assert paper.related == (Relation(kind=RelationKind.PREPRINT_OF, identifier=DOI_A),)
    with pytest.raises(ValueError, match="not a valid RelationKind"):
        Relation(kind="cites", identifier=DOI_A)


def test_work_type_and_dates() -> None:
    paper = cl.Paper(work_type="preprint", date="2021-04-16T00:00:00Z")
    assert paper.work_type is WorkType.PREPRINT
    assert paper.date == dt.date(2021, 4, 16)
    assert cl.Paper(date=dt.datetime(2021, 4, 16, 23, tzinfo=dt.UTC)).date == dt.date(2021, 4, 16)
    with pytest.raises(cl.ModelError, match="ISO-8601 date"):
        cl.Paper(date="2021-13-01")


def test_first_page_of_a_page_range() -> None:
    assert cl.Paper(pages="1-14").first_page == "1"
    assert cl.Paper(pages="e1002345").first_page == "e1002345"
    assert cl.Paper(pages="233 – 240").first_page == "233"
    assert cl.Paper().first_page is None


def test_identifier_lookup_by_scheme() -> None:
    paper = cl.Paper(identifiers=[ARXIV, DOI_A])
    assert paper.identifier("doi") == DOI_A
    assert paper.identifier(cl.Scheme.ARXIV) == ARXIV
    assert paper.identifier("pmid") is None


# ----------------------------------------------------------------------------- authors


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a , b , c", [("a", None), ("b", None), ("c", None)]),
        ("A and B", [("A", None), ("B", None)]),
        ("Smith, J. and Doe, K.", [("Smith", "J."), ("Doe", "K.")]),
        ("Smith J, Doe K", [("Smith", "J"), ("Doe", "K")]),
        ("Smith JA, Doe K, Roe AB", [("Smith", "JA"), ("Doe", "K"), ("Roe", "AB")]),
        ("Smith, J., Doe, K.", [("Smith", "J."), ("Doe", "K.")]),
        ("Smith, J., Doe, K., and Roe, P.", [("Smith", "J."), ("Doe", "K."), ("Roe", "P.")]),
        ("J. Smith, K. Doe and P. Roe", [("Smith", "J."), ("Doe", "K."), ("Roe", "P.")]),
        ("John Smith, Kate Doe", [("Smith", "John"), ("Doe", "Kate")]),
        ("Smith, John", [("Smith", "John")]),
        ("Smith, John Paul", [("Smith", "John Paul")]),
        ("Smith J & Doe K", [("Smith", "J"), ("Doe", "K")]),
        ("Smith, J.; Doe, K.", [("Smith", "J."), ("Doe", "K.")]),
        ("van der Berg, J. and Müller, K.", [("van der Berg", "J."), ("Müller", "K.")]),
        ("Lefèvre, J.-P., Ørsted, H. C.", [("Lefèvre", "J.-P."), ("Ørsted", "H. C.")]),
        ("Ludwig van Beethoven", [("van Beethoven", "Ludwig")]),
        ("Smith, J., Doe, K. et al.", [("Smith", "J."), ("Doe", "K.")]),
        ("Smith J, Doe K, et al", [("Smith", "J"), ("Doe", "K")]),
        ("Anderson, Brandon and Sandra Andrews", [("Anderson", "Brandon"), ("Andrews", "Sandra")]),
    ],
)
def test_one_author_string_is_split(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert names(text) == expected


def test_author_lists_and_mappings_and_empty() -> None:
    assert names(["Smith, J.", {"family": "Doe", "given": "K."}, cl.Author(family="Roe")]) == [
        ("Smith", "J."),
        ("Doe", "K."),
        ("Roe", None),
    ]
    assert names(["Smith J", "et al."]) == [("Smith", "J")]
    assert cl.Paper(authors="").authors == ()
    assert cl.Paper(authors=None).authors == ()
    assert cl.Paper(authors=cl.Author(family="Doe")).authors == (cl.Author(family="Doe"),)
    with pytest.raises(cl.ModelError):
        cl.Paper(authors=[3])  # type: ignore[list-item]


def test_author_names_keys_and_initials() -> None:
    author = cl.Author(family="Müller", given="Jean-Pierre")
    assert author.name == "Jean-Pierre Müller"
    assert author.family_key == "muller"
    assert author.initials == "jp"
    assert cl.Author(family="Rajbhandari", given="SA").initials == "sa"
    assert cl.Author(family="Smith", given="J. K.").initials == "jk"
    assert cl.Author(raw="Jane Doe").family_key == "doe"
    assert cl.Author.from_string("  ").raw is None


def test_orcid_urls_are_reduced_to_the_bare_id() -> None:
    assert cl.Author(orcid="https://orcid.org/0000-0002-1825-009x").orcid == "0000-0002-1825-009X"
    assert cl.Author(orcid="0000-0002-1825-0097").orcid == "0000-0002-1825-0097"


# ----------------------------------------------------------------------------- years


@pytest.mark.parametrize(
    ("raw", "year", "kept"),
    [
        ("2021", 2021, None),
        ("2021a", 2021, "2021a"),
        ("(2021)", 2021, "(2021)"),
        ("c. 2021", 2021, "c. 2021"),
        ("in press", None, "in press"),
        ("n.d.", None, "n.d."),
        (2021, 2021, None),
    ],
)
def test_reference_year_strings_keep_the_raw_text(
    raw: Any, year: int | None, kept: str | None
) -> None:
    ref = cl.Reference(year=raw)
    assert ref.year == year
    assert ref.get_extra("year") == kept


def test_paper_year_strings() -> None:
    assert cl.Paper(year="2021").year == 2021
    assert cl.Paper(year="2021b").year == 2021
    assert cl.Paper(year="forthcoming").year is None
    assert cl.Paper(year=True).year is None  # a bool is never a year


# ----------------------------------------------------------------------------- references


def test_reference_positions_are_one_based() -> None:
    assert cl.Reference(position="56").position == 56
    with pytest.raises(cl.ModelError, match="1-based"):
        cl.Reference(position=0)
    with pytest.raises(cl.ModelError, match="bool"):
        cl.Reference(position=True)
    with pytest.raises(cl.ModelError):
        cl.Reference(position="fifth")


def test_reference_parse_confidence_is_a_probability() -> None:
    assert cl.Reference(parse_confidence="0.5").parse_confidence == 0.5
    for bad in (1.5, -0.1, float("nan")):
        with pytest.raises(cl.ModelError, match="0-1"):
            cl.Reference(parse_confidence=bad)


def test_reference_from_paper_carries_every_citable_field() -> None:
    paper = cl.Paper(
        identifiers=[DOI_A],
        title="T",
        authors="Smith J",
        year=2020,
        venue="V",
        volume="3",
        issue="2",
        pages="10-20",
    )
    ref = cl.Reference.from_paper(paper, position=4)
    assert (ref.position, ref.title, ref.year, ref.venue, ref.volume, ref.issue) == (
        4,
        "T",
        2020,
        "V",
        "3",
        "2",
    )
    assert ref.first_page == "10"
    assert ref.identifiers == (DOI_A,)
    assert ref.authors == paper.authors


def test_reference_extra_accepts_mappings_and_pairs() -> None:
    assert cl.Reference(extra={"note": "x"}).extra == (("note", "x"),)
    assert cl.Reference(extra=[("edition", 2)]).get_extra("edition") == "2"
    assert cl.Reference().get_extra("nothing") is None


# ----------------------------------------------------------------------------- times


def test_naive_datetimes_are_rejected() -> None:
    with pytest.raises(NaiveDatetimeError, match="no timezone"):
        cl.Measurement(value=1, source="crossref", observed=dt.datetime(2026, 1, 1))  # noqa: DTZ001
    with pytest.raises(NaiveDatetimeError):
        utc("2026-01-01T00:00:00")
    with pytest.raises(NaiveDatetimeError):
        cl.NoticeCheck.none_found(sources=["crossref"], checked=dt.datetime(2026, 1, 1))  # noqa: DTZ001
    # A NaiveDatetimeError is a ModelError and a ValueError too.
    assert issubclass(NaiveDatetimeError, cl.ModelError)
    assert issubclass(NaiveDatetimeError, ValueError)


def test_aware_times_are_converted_to_utc() -> None:
    plus_two = dt.timezone(dt.timedelta(hours=2))
    value = utc(dt.datetime(2026, 1, 1, 12, tzinfo=plus_two))
    assert value.tzinfo is dt.UTC
    assert value == dt.datetime(2026, 1, 1, 10, tzinfo=dt.UTC)
    assert utc("2026-01-01T12:00:00+02:00").hour == 10
    assert utc("2026-01-01T10:00:00Z").tzinfo is dt.UTC
    with pytest.raises(cl.ModelError, match="ISO-8601"):
        utc("yesterday")
    with pytest.raises(cl.ModelError, match="datetime"):
        utc(dt.date(2026, 1, 1))  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- measurements


def _m(value: int, source: str = "crossref", **kw: Any) -> cl.Measurement:
    return cl.Measurement(value=value, source=source, observed=NOW, **kw)


def test_measurements_from_different_sources_cannot_be_combined() -> None:
    a, b = _m(57, "arxiv_reference"), _m(60, "openalex")
    with pytest.raises(IncompatibleMeasurements, match="different sources"):
        _ = a + b
    with pytest.raises(IncompatibleMeasurements, match="different sources"):
        _ = a - b
    with pytest.raises(IncompatibleMeasurements, match="different sources"):
        _ = a < b
    with pytest.raises(IncompatibleMeasurements):
        _ = a >= b
    with pytest.raises(IncompatibleMeasurements):
        sum([a, b])
    with pytest.raises(IncompatibleMeasurements):
        max(a, b)
    with pytest.raises(IncompatibleMeasurements):
        sorted([b, a])
    # The error is a TypeError too, so generic code that tries arithmetic sees a type error.
    with pytest.raises(TypeError):
        _ = a + b


def test_measurements_are_not_bare_numbers() -> None:
    a = _m(5)
    with pytest.raises(IncompatibleMeasurements):
        _ = a + 1
    with pytest.raises(IncompatibleMeasurements):
        _ = 1 + a
    with pytest.raises(IncompatibleMeasurements):
        _ = 10 - a
    with pytest.raises(IncompatibleMeasurements):
        _ = a <= 3
    with pytest.raises(IncompatibleMeasurements):
        int(a)
    # Even one source's counts are not summed: each is dated.
    with pytest.raises(IncompatibleMeasurements):
        sum([a])
    with pytest.raises(IncompatibleMeasurements, match="same source"):
        _ = a + _m(6)


def test_one_source_measurements_of_one_thing_compare() -> None:
    older = _m(5, subject=DOI_A)
    newer = cl.Measurement(
        value=9, source="crossref", observed=NOW + dt.timedelta(days=30), subject=DOI_A
    )
    assert older < newer
    assert newer >= older
    assert max(older, newer) is newer
    with pytest.raises(IncompatibleMeasurements):
        _ = older < _m(9, subject=DOI_A, kind=MeasurementKind.REFERENCES)
    with pytest.raises(IncompatibleMeasurements):
        _ = older < _m(9, subject=ARXIV)


def test_measurement_values_are_counts() -> None:
    assert _m("12").value == 12  # type: ignore[arg-type]
    assert _m(3.0).value == 3  # type: ignore[arg-type]
    for bad in (-1, True, 2.7, "many"):
        with pytest.raises(cl.ModelError):
            _m(bad)  # type: ignore[arg-type]


def test_measurement_equality_and_describe() -> None:
    assert _m(5) == _m(5)
    assert _m(5) != _m(5, "openalex")
    assert _m(57, "arxiv_reference").describe() == (
        "57 · arxiv_reference, observed 2026-08-05T02:28:24.338817+00:00"
    )


# ----------------------------------------------------------------------------- notices


def test_none_found_must_name_sources_and_time() -> None:
    with pytest.raises(cl.ModelError, match="sources and the time"):
        cl.NoticeCheck(status="none_found")
    with pytest.raises(cl.ModelError, match="sources and the time"):
        cl.NoticeCheck(status="none_found", sources=["crossref"])
    with pytest.raises(cl.ModelError, match="sources and the time"):
        cl.NoticeCheck(status="none_found", checked=NOW)
    with pytest.raises(cl.ModelError, match="sources and the time"):
        cl.NoticeCheck.none_found(sources=[], checked=NOW)
    check = cl.NoticeCheck.none_found(sources="crossref", checked=NOW)
    assert check.sources == ("crossref",)  # one name, not its characters
    assert check.retracted is False
    assert check.describe() == (
        "No event found in the named queried sources as of 2026-08-05T02:28:24.338817+00:00."
    )


def test_none_found_cannot_carry_events() -> None:
    event = Event(kind="retraction", source="crossref")
    with pytest.raises(cl.ModelError, match="cannot carry events"):
        cl.NoticeCheck(status="none_found", events=[event], sources=["crossref"], checked=NOW)


def test_unavailable_needs_a_reason() -> None:
    with pytest.raises(cl.ModelError, match="reason"):
        cl.NoticeCheck(status=cl.NoticeStatus.UNAVAILABLE)
    with pytest.raises(cl.ModelError, match="reason"):
        cl.NoticeCheck.unavailable("")
    check = cl.NoticeCheck.unavailable("crossref returned 503", sources="crossref")
    assert check.sources == ("crossref",)
    assert check.retracted is None  # unknown, never "clean"
    assert check.describe() == "Unavailable: crossref returned 503."


def test_events_found() -> None:
    with pytest.raises(cl.ModelError, match="needs events"):
        cl.NoticeCheck(status="events_found", sources=["crossref"], checked=NOW)
    events = [
        Event(kind="correction", source="crossref", subject="10.1234/alpha", date="2020-02-03"),
        Event(kind=EventKind.RETRACTION, source="retractionwatch", notice="10.1234/notice"),
    ]
    check = cl.NoticeCheck.found(events, sources="crossref", checked=NOW, subject=DOI_A)
    assert check.sources == ("crossref",)
    assert check.events[0].subject == DOI_A
    assert check.events[0].date == dt.date(2020, 2, 3)
    assert check.retracted is True
    assert "correction, retraction" in check.describe()
    only_correction = cl.NoticeCheck.found(events[:1], sources=["crossref"], checked=NOW)
    assert only_correction.retracted is False


# ----------------------------------------------------------------------------- coverage


def test_coverage_invariants() -> None:
    with pytest.raises(cl.ModelError, match="> total"):
        cl.Coverage(facet="inbound_itemization", measured=5, total=3, state="partial", reason="x")
    with pytest.raises(cl.ModelError, match=">= 0"):
        cl.Coverage(facet="inbound_itemization", measured=-1, state="complete")
    with pytest.raises(cl.ModelError, match=">= 0"):
        cl.Coverage(facet="inbound_itemization", measured=0, total=-1, state="partial", reason="x")
    with pytest.raises(cl.ModelError, match="needs a reason"):
        cl.Coverage(facet="inbound_itemization", measured=1, total=3, state="partial")
    with pytest.raises(cl.ModelError, match="needs a reason"):
        cl.Coverage(facet=cl.Facet.STANDING_NOTICES, state=cl.CoverageState.UNAVAILABLE)
    with pytest.raises(cl.ModelError, match="measure everything"):
        cl.Coverage(facet="inbound_itemization", measured=3, total=5, state="complete")
    with pytest.raises(cl.ModelError, match="cannot count"):
        cl.Coverage(facet="inbound_itemization", measured=2, state="nothing_to_measure")
    with pytest.raises(cl.ModelError, match="bool"):
        cl.Coverage(facet="inbound_itemization", measured=True, state="complete")


def test_coverage_describe() -> None:
    full = cl.Coverage(facet="inbound_itemization", measured=8, total=8, state="complete")
    assert full.describe() == "measured 8 of 8 inbound itemization"
    unknown_total = cl.Coverage(
        facet=cl.Facet.REFERENCE_RESOLUTION, measured=3, state="partial", reason="page cap"
    )
    assert unknown_total.describe() == "measured 3 of ? reference resolution"


# ----------------------------------------------------------------------------- resolutions


def test_resolution_score_bounds() -> None:
    assert cl.Resolution(state="unresolved", score=0).score == 0.0
    assert cl.Resolution(state="verified_exact", score="100").score == 100.0
    for bad in (-0.001, 100.5, float("nan"), float("inf"), "high"):
        with pytest.raises(cl.ModelError):
            cl.Resolution(state="unresolved", score=bad)
    with pytest.raises(ValueError, match="not a valid ResolutionState"):
        cl.Resolution(state="matched")


def test_evidence_scores_are_bounded_too() -> None:
    assert Evidence(field="title", agreement="agree", score=99.5).score == 99.5
    with pytest.raises(cl.ModelError):
        Evidence(field="title", agreement="agree", score=500)
    with pytest.raises(cl.ModelError):
        Evidence(field="title", agreement="agree", score=True)


def test_resolution_helpers() -> None:
    title = Evidence(field="title", agreement="agree", score=98)
    res = cl.Resolution(
        state=cl.ResolutionState.VERIFIED_FUZZY,
        method="fuzzy_title",
        target=cl.Paper(title="T"),
        score=91,
        evidence=[title],
    )
    assert res.verified
    assert res.method is cl.Method.FUZZY_TITLE
    assert res.evidence_for("title") is title
    assert res.evidence_for("year") is None
    assert not cl.Resolution(state="metadata_mismatch").verified


# ----------------------------------------------------------------------------- paper keys


def test_paper_key_aliases_arxiv_versions_and_the_datacite_doi() -> None:
    keys = {
        cl.Paper(identifiers=["arXiv:2104.07857v1"]).key,
        cl.Paper(identifiers=["arXiv:2104.07857v3"]).key,
        cl.Paper(identifiers=["2104.07857"]).key,
        cl.Paper(identifiers=["10.48550/arXiv.2104.07857"]).key,
        cl.Paper(identifiers=["https://doi.org/10.48550/ARXIV.2104.07857"]).key,
    }
    assert keys == {"arxiv:2104.07857"}
    assert cl.Paper(identifiers=["arXiv:2104.07858"]).key != "arxiv:2104.07857"
    old = {
        cl.Paper(identifiers=["math.GT/0309136v2"]).key,
        cl.Paper(identifiers=["math/0309136"]).key,
    }
    assert old == {"arxiv:math/0309136"}


def test_paper_key_prefers_a_doi_and_falls_back_to_title_and_year() -> None:
    assert cl.Paper(identifiers=["arXiv:2104.07857", "10.1234/alpha"]).key == "doi:10.1234/alpha"
    assert cl.Paper(identifiers=["PMID:123", "W2741809807"]).key == "pmid:123"
    a = cl.Paper(title="Déjà vu: A Study!", year=2020)
    b = cl.Paper(title="deja VU a study", year="2020")
    assert a.key == b.key == "title:deja vu a study|2020"
    assert cl.Paper(title="deja vu a study", year=2021).key != a.key
    assert cl.Paper(identifiers=["arXiv:2104.07857v2", "10.48550/arXiv.2104.07857"]).work_keys == {
        "arxiv:2104.07857"
    }


# ----------------------------------------------------------------------------- observations


CITING = cl.Paper(identifiers=["10.1234/citing"], title="Citing")
CITED = cl.Paper(identifiers=["arXiv:2104.07857v2"], title="Cited")


def _obs(**kw: Any) -> cl.Observation:
    base: dict[str, Any] = {
        "direction": cl.Direction.OUTBOUND,
        "citing": CITING,
        "cited": CITED,
        "position": 1,
        "source": "crossref",
        "observed": NOW,
    }
    base.update(kw)
    return cl.Observation(**base)


def test_observation_ids_are_deterministic_uuid5() -> None:
    one = _obs()
    assert uuid.UUID(one.id).version == 5
    expected = uuid.uuid5(
        OBSERVATION_NAMESPACE,
        "\x1f".join(("crossref", "doi:10.1234/citing", "arxiv:2104.07857", "1")),  # noqa: FLY002
    )
    assert one.id == str(expected)
    # Seen again later, through another arXiv version: the same observation.
    again = _obs(
        observed=NOW + dt.timedelta(days=3),
        cited=cl.Paper(identifiers=["10.48550/arXiv.2104.07857"]),
    )
    assert again.id == one.id
    # Resolved, the state and method join the name; seen again later with another score and
    # direction flag, still one observation.
    resolved = _obs(resolution=cl.Resolution(state="verified_exact", method="arxiv_id", score=100))
    assert resolved.id == str(
        uuid.uuid5(
            OBSERVATION_NAMESPACE,
            "\x1f".join(  # noqa: FLY002
                (
                    "crossref",
                    "doi:10.1234/citing",
                    "arxiv:2104.07857",
                    "1",
                    "verified_exact",
                    "arxiv_id",
                )
            ),
        )
    )
    later = _obs(
        observed=NOW + dt.timedelta(days=3),
        resolution=cl.Resolution(state="verified_exact", method="arxiv_id", score=90),
        direction=cl.Direction.INBOUND,
    )
    assert later.id == resolved.id


@pytest.mark.parametrize(
    "change",
    [
        {"source": "openalex"},
        {"position": 2},
        {"position": None},
        {"cited": cl.Paper(identifiers=["10.1234/other"])},
        {"citing": cl.Paper(identifiers=["10.1234/someone-else"])},
    ],
)
def test_observation_ids_differ_when_identity_differs(change: dict[str, Any]) -> None:
    assert _obs(**change).id != _obs().id


def test_unresolved_observations_are_told_apart_by_their_reference() -> None:
    a = _obs(cited=None, reference=cl.Reference(raw="Smith J. A study. 2020."))
    b = _obs(cited=None, reference=cl.Reference(raw="Doe K. Another study. 2019."))
    assert a.id != b.id
    assert a.id == _obs(cited=None, reference=cl.Reference(raw="Smith J. A study. 2020.")).id


def test_a_stale_observation_id_is_refused_and_replace_recomputes() -> None:
    one = _obs()
    with pytest.raises(cl.ModelError, match="does not match"):
        attrs.evolve(one, position=7)
    with pytest.raises(cl.ModelError, match="does not match"):
        _obs(id="not-the-id")
    moved = replace(one, position=7)
    assert moved.id == _obs(position=7).id != one.id
    # Changing what is not part of the identity keeps the id, with evolve too.
    assert attrs.evolve(one, observed=NOW + dt.timedelta(hours=1)).id == one.id
    assert _obs(id=one.id) == one


def test_observation_state_and_method() -> None:
    assert _obs().state is None
    assert _obs().method is None
    resolved = _obs(resolution=cl.Resolution(state="verified_exact", method="doi", score=100))
    assert resolved.state is cl.ResolutionState.VERIFIED_EXACT
    assert resolved.method is cl.Method.DOI
    assert _obs(contexts="As shown in [1]", intents=["methodology"]).contexts == (
        "As shown in [1]",
    )


# --- The model on real reference data: Crossref's publisher-asserted references (../shared/data).


def _crossref_reference(ref: dict[str, Any], position: int) -> cl.Reference:
    """Map one Crossref ``reference`` entry onto the model, as an adapter would (test-local)."""
    identifiers: list[cl.Identifier] = []
    malformed: tuple[MalformedFragment, ...] = ()
    if "DOI" in ref:
        try:
            identifiers.append(cl.parse_identifier(ref["DOI"], "doi"))
        except cl.InvalidIdentifier:
            malformed = find_identifiers(ref["DOI"]).malformed
    return cl.Reference(
        position=position,
        raw=ref.get("unstructured"),
        key=ref.get("key"),
        title=ref.get("article-title") or ref.get("volume-title"),
        authors=ref.get("author"),  # one string, e.g. "CA Orengo"
        year=ref.get("year"),  # a string, sometimes "2004a"
        venue=ref.get("journal-title") or ref.get("series-title"),
        volume=ref.get("volume"),
        issue=ref.get("issue"),
        first_page=ref.get("first-page"),
        identifiers=identifiers,
        malformed=malformed,
        asserted_by=ref.get("doi-asserted-by"),
    )


@pytest.fixture
def crossref_references(shared_data: Path) -> list[dict[str, Any]]:
    """Crossref's reference entries of the matching-dev set (skips when ../shared is absent)."""
    path = shared_data / "matching-dev" / "normalized" / "crossref_overall_2k.jsonl"
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line)["left"]["reference"] for line in fh]


@pytest.mark.shared_data
def test_crossref_references_fit_the_model_and_round_trip(
    crossref_references: list[dict[str, Any]],
) -> None:
    conv = cl.make_converter()
    asserted = malformed = 0
    for position, raw in enumerate(crossref_references, start=1):
        ref = _crossref_reference(raw, position)
        back = structure(
            json.loads(json.dumps(conv.unstructure(ref))), cl.Reference, converter=conv
        )
        assert back == ref
        if "DOI" in raw:
            asserted += 1
            assert raw["doi-asserted-by"] in {"publisher", "crossref"}
            assert len(ref.identifiers) + len(ref.malformed) >= 1, raw["DOI"]
            malformed += not ref.identifiers
        year = raw.get("year")
        digits = re.search(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)", year or "")
        assert ref.year == (int(digits.group(1)) if digits else None), year
        if year and year.strip() != str(ref.year):
            assert ref.get_extra("year") == year  # nothing is dropped
        if raw.get("author"):
            assert ref.authors, raw["author"]
    assert asserted == 616
    # Two asserted DOIs are malformed (a Kluwer DOI without its colon, a truncated Springer BF
    # DOI): reported as malformed fragments with reasons, never as identifiers.
    assert malformed == 2


@pytest.mark.shared_data
def test_malformed_asserted_dois_are_reported_with_reasons(
    crossref_references: list[dict[str, Any]],
) -> None:
    reasons = {}
    for position, raw in enumerate(crossref_references, start=1):
        ref = _crossref_reference(raw, position)
        if "DOI" in raw and not ref.identifiers:
            reasons[raw["DOI"]] = [m.reason for m in ref.malformed]
    assert set(reasons) == {"10.1023/A1006047319921", "10.1007/BF0229355"}
    assert "colon" in reasons["10.1023/A1006047319921"][0]
    assert "8 digits" in reasons["10.1007/BF0229355"][0]


# --- Robustness review: wrong-typed model inputs get a typed error, not a leaked builtin exception.


DEEP = b"[" * 100_000

DEEP_OBJECT = b'{"a":' * 100_000

HUGE_INT = b'{"year": ' + b"9" * 5000 + b"}"

NOT_UTF8 = b'{"title": "\xff\xfe"}'


@pytest.mark.parametrize(
    "kwargs",
    [
        {"authors": 123},
        {"authors": b"Smith"},
        {"authors": {"family": "Smith"}},
        {"authors": [{"surname": "Smith"}]},
        {"identifiers": 123},
        {"title": []},
        {"title": b"x"},
        {"venue": {}},
        {"year": []},
        {"year": b"2020"},
        {"year": 2020.5},
    ],
)
@pytest.mark.parametrize("cls", [cl.Paper, cl.Reference])
def test_constructors_reject_wrong_types_with_model_error(
    cls: type[Any], kwargs: dict[str, Any]
) -> None:
    with pytest.raises(cl.ModelError):
        cls(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"extra": 5},
        {"extra": [None]},
        {"extra": [("a",)]},
        {"malformed": 5},
        {"malformed": [None]},
        {"raw": 5},
    ],
)
def test_reference_rejects_wrong_shapes_with_model_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(cl.ModelError):
        cl.Reference(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"work_type": "nope"},
        {"areas": 5},
        {"related": [None]},
        {"related": [{"kind": "nope", "identifier": "doi:10.1234/a"}]},
        {"related": [{"kind": "preprint_of"}]},
    ],
)
def test_paper_rejects_wrong_shapes_with_model_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(cl.ModelError):
        cl.Paper(**kwargs)


def test_author_from_string_rejects_non_text() -> None:
    with pytest.raises(cl.ModelError):
        cl.Author.from_string(5)  # type: ignore[arg-type]


def test_accepted_coercions_still_work() -> None:
    # What users legitimately pass keeps working: numbers as text, integral floats as years.
    paper = cl.Paper(title="T", volume=3, year=2020.0, authors="A Smith and B Jones")
    assert (paper.volume, paper.year, len(paper.authors)) == ("3", 2020, 2)
    ref = cl.Reference(year="n.d.", extra={"k": 1})
    assert ref.year is None
    assert ref.get_extra("year") == "n.d."
    assert ref.get_extra("k") == "1"
