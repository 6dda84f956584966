"""Hypothesis strategies for the citeledger model: the tools to property-test resolution rules.

Install the ``testing`` extra (``pip install citeledger[testing]``) for Hypothesis. Every
strategy is a plain function whose options are keyword-only (Hypothesis guides/api-style.rst),
and every value drawn satisfies the model's invariants, so ``structure(unstructure(x)) == x``.

* identifiers: :func:`dois`, :func:`arxiv_ids`, :func:`pmids`, :func:`pmcids`,
  :func:`openalex_ids`, :func:`s2_ids`, :func:`corpus_ids`, :func:`identifiers`, and
  :func:`malformed_identifier_strings` for identifier-looking text that must be rejected;
* the model: :func:`authors`, :func:`titles`, :func:`papers`, :func:`references`,
  :func:`evidences`, :func:`resolutions`, :func:`observations`, :func:`events`,
  :func:`notice_checks`, :func:`measurements`, :func:`coverages`;
* :func:`noisy_references`: realistic citations *of a given paper*, as authors and PDF
  extraction mangle them (case, diacritics, Unicode normal forms, initials, abbreviated venues,
  dropped fields, "et al.", PDF hyphenation, whitespace and punctuation noise).

Example:
    A resolution rule should recognise every realistic citation of a paper::

        from hypothesis import given, strategies as st
        from citeledger.testing.strategies import noisy_references, papers


        @given(st.data())
        def test_my_rule(data):
            paper = data.draw(papers(with_identifiers=False))
            ref = data.draw(noisy_references(paper, keep_identifiers=False))
            assert my_rule(ref, paper)

With the ``hypothesis`` entry point registered, ``st.from_type(Paper)`` works too.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Final

from hypothesis import strategies as st

from citeledger.model import (
    Agreement,
    Coverage,
    CoverageState,
    Direction,
    Event,
    EventKind,
    Evidence,
    Facet,
    Measurement,
    MeasurementKind,
    Method,
    NoticeCheck,
    NoticeStatus,
    Observation,
    Resolution,
    ResolutionState,
)
from citeledger.testing._idgen import (
    arxiv_ids,
    corpus_ids,
    dois,
    identifiers,
    malformed_identifier_strings,
    openalex_ids,
    pmcids,
    pmids,
    s2_ids,
)
from citeledger.testing._noisy import noisy_references
from citeledger.testing._vocab import _NOTICE_SOURCES, _SOURCE_NAMES, _SOURCES, _TEXT, _drawing
from citeledger.testing._works import (
    authors,
    malformed_fragments,
    papers,
    references,
    relations,
    titles,
    utc_datetimes,
)

if TYPE_CHECKING:
    from citeledger.identifiers import Identifier

__all__ = [
    "arxiv_ids",
    "authors",
    "corpus_ids",
    "coverages",
    "dois",
    "events",
    "evidences",
    "identifiers",
    "malformed_fragments",
    "malformed_identifier_strings",
    "measurements",
    "noisy_references",
    "notice_checks",
    "observations",
    "openalex_ids",
    "papers",
    "pmcids",
    "pmids",
    "references",
    "relations",
    "resolutions",
    "s2_ids",
    "titles",
    "utc_datetimes",
]


def evidences() -> st.SearchStrategy[Evidence]:
    """Per-field comparison evidence."""
    return st.builds(
        Evidence,
        field=st.sampled_from(("title", "authors", "year", "venue", "doi", "arxiv", "pages")),
        agreement=st.sampled_from(Agreement),
        score=st.none() | st.floats(0, 100),
        left=st.none() | _TEXT,
        right=st.none() | _TEXT,
        note=st.none() | _TEXT,
    )


_ID_METHODS: Final = (
    Method.DOI,
    Method.ARXIV_ID,
    Method.PMID,
    Method.PMCID,
    Method.OPENALEX,
    Method.S2,
    Method.CORPUSID,
)


def resolutions(
    *, states: tuple[ResolutionState, ...] | None = None
) -> st.SearchStrategy[Resolution]:
    """Resolutions consistent with their state.

    Verified exact and metadata mismatch resolve by an identifier scheme and name a target;
    verified fuzzy resolves by fuzzy title with a target; the other states have no target.

    Args:
        states: Restrict the states drawn.
    """
    targets = papers(max_authors=3)
    alternatives = st.lists(papers(max_authors=2), max_size=2)
    evidence_lists = st.lists(evidences(), max_size=3)

    def build(draw: st.DrawFn) -> Resolution:
        state = draw(st.sampled_from(states or tuple(ResolutionState)))
        if state in (ResolutionState.VERIFIED_EXACT, ResolutionState.METADATA_MISMATCH):
            method: Method | None = draw(st.sampled_from(_ID_METHODS))
        elif state is ResolutionState.VERIFIED_FUZZY:
            method = Method.FUZZY_TITLE
        else:
            method = draw(
                st.none() | st.sampled_from((Method.NO_RESOLVER_LINK, Method.FUZZY_TITLE))
            )
        has_target = state.verified or state is ResolutionState.METADATA_MISMATCH
        return Resolution(
            state=state,
            method=method,
            target=draw(targets) if has_target else None,
            score=draw(st.floats(0, 100)),
            evidence=draw(evidence_lists),
            reason=draw(st.text(max_size=40)),
            alternatives=draw(alternatives) if state is ResolutionState.UNRESOLVED else (),
        )

    return _drawing(build)


def observations(*, direction: Direction | None = None) -> st.SearchStrategy[Observation]:
    """Sightings of a citation by one source (deterministic ids computed by the model).

    Args:
        direction: Restrict the direction; None draws either.
    """
    maybe_resolutions = st.none() | resolutions()
    works = papers(max_authors=3)
    maybe_references = st.none() | references()
    times = utc_datetimes()

    def build(draw: st.DrawFn) -> Observation:
        resolution = draw(maybe_resolutions)
        cited = resolution.target if resolution is not None else draw(st.none() | works)
        return Observation(
            direction=direction or draw(st.sampled_from(Direction)),
            citing=draw(works),
            cited=cited,
            position=draw(st.none() | st.integers(1, 400)),
            reference=draw(maybe_references),
            resolution=resolution,
            source=draw(_SOURCE_NAMES),
            observed=draw(times),
            contexts=draw(st.lists(_TEXT, max_size=2)),
            intents=draw(
                st.lists(
                    st.sampled_from(("methodology", "background", "result")),
                    max_size=2,
                    unique=True,
                )
            ),
            influential=draw(st.none() | st.booleans()),
        )

    return _drawing(build)


def events(*, kinds: tuple[EventKind, ...] | None = None) -> st.SearchStrategy[Event]:
    """Source-reported events (retractions, corrections, ...).

    Args:
        kinds: Restrict the kinds drawn.
    """
    return st.builds(
        Event,
        kind=st.sampled_from(kinds or tuple(EventKind)),
        subject=st.none() | identifiers(),
        notice=st.none() | dois(arxiv=False),
        date=st.none() | st.dates(dt.date(1950, 1, 1), dt.date(2030, 12, 31)),
        source=st.sampled_from(_NOTICE_SOURCES),
        label=st.none()
        | st.sampled_from(("Retraction", "Correction", "erratum", "Expression of Concern")),
        reason=st.none() | _TEXT,
    )


def notice_checks(*, status: NoticeStatus | None = None) -> st.SearchStrategy[NoticeCheck]:
    """Outcomes of checking sources for notices, valid for their status.

    "None found" always names its sources and time; "unavailable" always says why.

    Args:
        status: Restrict the status drawn.
    """
    event_lists = st.lists(events(), min_size=1, max_size=3)
    times = utc_datetimes()

    def build(draw: st.DrawFn) -> NoticeCheck:
        chosen = status or draw(st.sampled_from(NoticeStatus))
        subject: Identifier | None = draw(st.none() | identifiers())
        sources = draw(
            st.lists(st.sampled_from(_NOTICE_SOURCES), min_size=1, max_size=3, unique=True)
        )
        if chosen is NoticeStatus.EVENTS_FOUND:
            return NoticeCheck.found(
                draw(event_lists),
                sources=sources,
                checked=draw(times),
                subject=subject,
            )
        if chosen is NoticeStatus.NONE_FOUND:
            return NoticeCheck.none_found(sources=sources, checked=draw(times), subject=subject)
        return NoticeCheck.unavailable(
            draw(
                st.sampled_from(
                    (
                        "crossref returned 503 after 3 attempts",
                        "rate limited",
                        "no identifier to query",
                    )
                )
            ),
            sources=draw(st.lists(st.sampled_from(_NOTICE_SOURCES), max_size=2, unique=True)),
            checked=draw(st.none() | times),
            subject=subject,
        )

    return _drawing(build)


def measurements(
    *,
    sources: tuple[str, ...] | None = None,
    kinds: tuple[MeasurementKind, ...] | None = None,
    max_value: int = 100_000,
) -> st.SearchStrategy[Measurement]:
    """One source's dated counts.

    Args:
        sources: Restrict the sources drawn (one name gives comparable measurements).
        kinds: Restrict what is counted.
        max_value: Largest count.
    """
    return st.builds(
        Measurement,
        value=st.integers(0, max_value),
        source=st.sampled_from(sources or _SOURCES),
        observed=utc_datetimes(),
        kind=st.sampled_from(kinds or tuple(MeasurementKind)),
        subject=st.none() | identifiers(),
    )


def coverages(*, states: tuple[CoverageState, ...] | None = None) -> st.SearchStrategy[Coverage]:
    """Coverage entries whose counts agree with their state.

    Complete entries measured everything, partial ones fewer (with a reason), unavailable ones
    say why, and "nothing to measure" counts nothing.

    Args:
        states: Restrict the states drawn.
    """
    times = st.none() | utc_datetimes()

    def build(draw: st.DrawFn) -> Coverage:
        state = draw(st.sampled_from(states or tuple(CoverageState)))
        total: int | None = draw(st.integers(1, 500))
        reason = None
        if state is CoverageState.COMPLETE:
            measured = total
        elif state is CoverageState.PARTIAL:
            assert total is not None  # for mypy: drawn just above
            measured = draw(st.integers(0, total - 1))
            total = draw(st.sampled_from((total, None)))
            reason = draw(st.sampled_from(("page cap of 100 reached", "2 sources timed out")))
        elif state is CoverageState.UNAVAILABLE:
            measured, total = 0, None
            reason = "source unavailable: HTTP 503 after 3 attempts"
        else:
            measured, total = 0, 0
        return Coverage(
            facet=draw(st.sampled_from(Facet)),
            measured=measured,
            total=total,
            sources=draw(st.lists(_SOURCE_NAMES, max_size=3, unique=True)),
            observed=draw(times),
            state=state,
            reason=reason,
            note=draw(st.none() | st.just("under the disclosed page cap of 100")),
        )

    return _drawing(build)
