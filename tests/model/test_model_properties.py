"""Property tests of the model's invariants, drawn with citeledger.testing.strategies."""

from __future__ import annotations

import datetime as dt

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import citeledger as cl
from citeledger.errors import IncompatibleMeasurements
from citeledger.model import Author, Measurement, MeasurementKind, Observation, Paper, replace
from citeledger.refparse import split_name
from citeledger.testing import strategies as cst


def _families(authors: tuple[Author, ...]) -> list[str | None]:
    return [a.family for a in authors]


@given(st.lists(cst.authors(), min_size=1, max_size=6))
def test_author_strings_in_every_common_style_split_back(people: list[Author]) -> None:
    families = [a.family for a in people]
    styles = [
        " and ".join(f"{a.family}, {a.given}" for a in people),  # "Smith, John and Doe, Kate"
        "; ".join(f"{a.family}, {a.given}" for a in people),
        ", ".join(f"{a.family}, {a.given}" for a in people),  # "Smith, John, Doe, Kate"
        " and ".join(f"{a.given} {a.family}" for a in people),  # "John Smith and Kate Doe"
        " , ".join(f"{a.given} {a.family}" for a in people),  # "John Smith , Kate Doe"
    ]
    for text in styles:
        assert _families(Paper(authors=text).authors) == families, text


@given(st.lists(cst.authors(), min_size=1, max_size=6))
def test_vancouver_author_strings_split_back(people: list[Author]) -> None:
    # "Smith J, Doe K": family followed by the upper-case initials of the given names.
    def initials(a: Author) -> str:
        return "".join(p[0] for p in (a.given or "").replace("-", " ").split()).upper()

    text = ", ".join(f"{a.family} {initials(a)}" for a in people)
    parsed = Paper(authors=text).authors
    assert _families(parsed) == [a.family for a in people], text
    assert [a.given for a in parsed] == [initials(a) for a in people]


@given(cst.arxiv_ids(), st.integers(1, 40), st.integers(1, 40))
def test_paper_key_is_one_for_every_arxiv_version_and_its_doi(
    arxiv: cl.ArxivId, v1: int, v2: int
) -> None:
    keys = {
        Paper(identifiers=[arxiv.with_version(v1)]).key,
        Paper(identifiers=[arxiv.with_version(v2)]).key,
        Paper(identifiers=[arxiv.unversioned()]).key,
        Paper(identifiers=[arxiv.as_doi()]).key,
    }
    assert len(keys) == 1


@given(cst.observations(), cst.utc_datetimes())
def test_observation_ids_ignore_when_and_how_it_was_seen(
    obs: Observation, when: dt.datetime
) -> None:
    # What was seen, rebuilt without how it was seen (contexts, intents, ...) and seen at ``when``.
    what = ("direction", "citing", "cited", "position", "reference", "resolution", "source")
    again = Observation(**{name: getattr(obs, name) for name in what}, observed=when)
    assert again.id == obs.id
    assert replace(obs, observed=when) == attrs.evolve(obs, observed=when)


@given(cst.observations(), st.sampled_from(["crossref", "openalex", "semanticscholar", "x"]))
def test_observation_ids_differ_across_sources_and_positions(obs: Observation, source: str) -> None:
    if source != obs.source:
        assert replace(obs, source=source).id != obs.id
    position = (obs.position or 0) + 1
    assert replace(obs, position=position).id != obs.id


@given(cst.measurements(), cst.measurements())
def test_measurements_of_two_sources_never_combine(a: Measurement, b: Measurement) -> None:
    if a.source == b.source:
        b = replace(b, source=a.source + "-other")
    for combine in (
        lambda: a + b,
        lambda: a - b,
        lambda: a < b,
        lambda: a <= b,
        lambda: a > b,
        lambda: a >= b,
        lambda: sum([a, b]),
        lambda: sorted([a, b]),
    ):
        with pytest.raises(IncompatibleMeasurements):
            combine()


@given(st.lists(cst.measurements(sources=("crossref",), kinds=(MeasurementKind.CITED_BY,))))
def test_one_source_measurements_of_one_subject_sort_by_value(ms: list[Measurement]) -> None:
    ms = [replace(m, subject=None) for m in ms]
    assert [m.value for m in sorted(ms)] == sorted(m.value for m in ms)


@given(cst.notice_checks())
def test_notice_checks_keep_their_invariants(check: cl.NoticeCheck) -> None:
    if check.status is cl.NoticeStatus.NONE_FOUND:
        assert check.sources
        assert check.checked is not None
        assert check.retracted is False
    elif check.status is cl.NoticeStatus.UNAVAILABLE:
        assert check.reason
        assert check.retracted is None
    else:
        assert check.events
    assert check.checked is None or check.checked.tzinfo is dt.UTC


@given(cst.coverages())
def test_coverages_keep_their_invariants(cov: cl.Coverage) -> None:
    assert cov.measured >= 0
    if cov.total is not None:
        assert cov.measured <= cov.total
    if cov.state is cl.CoverageState.COMPLETE and cov.total is not None:
        assert cov.measured == cov.total
    if cov.state in (cl.CoverageState.PARTIAL, cl.CoverageState.UNAVAILABLE):
        assert cov.reason


# Names as sources write them, and text that tests the edges of the fast path: non-ASCII
# letters, lone surrogates (JSON "\ud800"), Unicode spaces, commas, particles, "et al.".
_NAME_TEXT = st.text(
    st.sampled_from(list("aAbZ .,;-'éŁ\u00a0\u2003\t\n\ud800ſ")) | st.characters(),
    max_size=30,
) | st.sampled_from(
    ["Rajbhandari S", "Ludwig van Beethoven", "Smith, J. A.", " Doe ,  K ", "  ", "", "et al."]
)


@given(_NAME_TEXT)
def test_author_from_string_equals_the_converted_parts(name: str) -> None:
    # from_string skips the converters for ASCII names; the result must be the Author the
    # converters make of split_name's parts, field for field.
    parts = split_name(name)
    want = Author(family=parts.family, given=parts.given, raw=parts.raw)
    got = Author.from_string(name)
    assert got == want
    assert attrs.astuple(got) == attrs.astuple(want)


class _Name(str):
    """A str subclass: converted without the cache of name strings."""

    __slots__ = ()


@given(
    st.lists(
        st.sampled_from(
            ["Smith J", "J. Smith", "Smith, John", "et al.", "and others", "  ", "Ó Brien"]
        )
        | st.text(max_size=20),
        max_size=6,
    )
)
def test_author_name_lists_are_converted_as_one_by_one_and_shared(names: list[str]) -> None:
    # A list of name strings: each name as Author.from_string reads it, "et al." and blanks
    # dropped; the same name gives the same (immutable) Author object in every paper.
    from citeledger.refparse import is_et_al_only  # noqa: PLC0415

    expected = tuple(cl.Author.from_string(n) for n in names if not is_et_al_only(n))
    first = cl.Paper(authors=names).authors
    again = cl.Paper(authors=list(names)).authors
    assert first == expected
    assert all(a is b for a, b in zip(first, again, strict=True))
    # A str subclass is converted without the cache: equal values, new objects.
    sub = cl.Paper(authors=[_Name(n) for n in names]).authors
    assert sub == expected
    assert all(a is not b for a, b in zip(first, sub, strict=True))
