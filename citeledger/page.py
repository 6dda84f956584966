"""Paper-page analytics: cited-by per year, area profiles and citing papers ranked by their counts.

These are the values behind the "paper page" view of a :class:`~citeledger.CitationRecord`
(the second seed page): a source-reported :class:`CitedByYear` histogram, an
:class:`AreaProfile` saying where citing papers sit versus where the paper's own metadata places
it, and :class:`CitingWork` entries (distinct citing works, each grouping one or more
observations) that can be ranked by the citing works' own citation counts.

Sources offer these through the paper-page capability protocols of
:mod:`citeledger.sources` (:class:`~citeledger.sources.CitedByYearSource`,
:class:`~citeledger.sources.AreaProfileSource`, :class:`~citeledger.sources.CitingCountsSource`,
:class:`~citeledger.sources.CountedCitationSource`); the built-in sample source does.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt  # noqa: TC003 - cattrs resolves the field annotations at run time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from attrs import field, frozen

from citeledger.errors import ModelError

# Needed at runtime: cattrs and the JSON Schema read the attrs field annotations.
from citeledger.identifiers import Identifier  # noqa: TC001

# The model's own converters and validators, so page values are checked the same way.
from citeledger.model import Measurement, Observation, Paper, _non_negative, _opt_date, _strs, utc

_C = TypeVar("_C")

__all__ = [
    "AreaCount",
    "AreaProfile",
    "CitedByYear",
    "CitingWork",
    "CountedCitation",
    "YearCount",
    "year_series",
]


@frozen(kw_only=True)
class YearCount:
    """Citing papers in one year.

    Args:
        year: The year.
        count: How many citing papers appeared in it.
    """

    year: int = field(converter=int)
    count: int = field(converter=int, validator=_non_negative)


def _count_entries(
    values: Iterable[Any] | Mapping[Any, Any] | None,
    kind: type[_C],
    entry: Callable[[Any, Any], _C],
) -> list[_C]:
    """Each of ``values`` as a ``kind``.

    Values that are one are kept as they are; ``(key, count)`` pairs (a mapping's items) go
    through ``entry``.
    """
    pairs = values.items() if isinstance(values, Mapping) else values or ()
    return [v if isinstance(v, kind) else entry(v[0], v[1]) for v in pairs]


def _year_counts(
    values: Iterable[YearCount | tuple[int, int] | list[int]] | Mapping[int, int] | None,
) -> tuple[YearCount, ...]:
    out = _count_entries(values, YearCount, lambda y, c: YearCount(year=y, count=c))
    out.sort(key=lambda yc: yc.year)
    years = [yc.year for yc in out]
    if len(set(years)) != len(years):
        raise ModelError(f"a year occurs twice in a per-year series: {years}")
    return tuple(out)


def year_series(counts: Iterable[YearCount], *, last: int | None = None) -> tuple[YearCount, ...]:
    """Fill the gaps of a per-year series with zero years, from its first year to ``last``.

    >>> [
    ...     (y.year, y.count)
    ...     for y in year_series(
    ...         [YearCount(year=2021, count=2), YearCount(year=2023, count=1)], last=2024
    ...     )
    ... ]
    [(2021, 2), (2022, 0), (2023, 1), (2024, 0)]
    """
    items = sorted(counts, key=lambda yc: yc.year)
    if not items:
        return ()
    by_year = {yc.year: yc.count for yc in items}
    end = max(items[-1].year, last if last is not None else items[-1].year)
    return tuple(YearCount(year=y, count=by_year.get(y, 0)) for y in range(items[0].year, end + 1))


@frozen(kw_only=True)
class CitedByYear:
    """A source's count of citing papers per year, over the history it covers.

    Years inside the covered range that the source omits are zero years; :attr:`series` fills
    them in.

    Args:
        source: Who counted.
        observed: When (aware UTC).
        counts: One entry per year (a mapping year -> count is accepted).
        through: The date the source's data run to ("data through 14 Oct 2026").
        subject: The cited work.
        source_total: The source's own overall count of the work's citations, when it gives one
            next to the series (OpenAlex ``cited_by_count``); compared with :attr:`total`, never
            added to anything.
        note: What the series covers, in the source's own terms ("OpenAlex keeps counts_by_year
            for recent years only"), when it does not cover the work's whole history.

    .. versionchanged:: 0.1.0
       ``source_total`` and ``note``.
    """

    source: str
    observed: dt.datetime = field(converter=utc)
    counts: tuple[YearCount, ...] = field(factory=tuple, converter=_year_counts)
    through: dt.date | None = field(default=None, converter=_opt_date)
    subject: Identifier | None = None
    source_total: int | None = None
    note: str | None = None

    @property
    def total(self) -> int:
        """The sum of the per-year counts (one source: summing its own years is fine)."""
        return sum(yc.count for yc in self.counts)

    @property
    def first_year(self) -> int | None:
        """The first year the series covers (None when it is empty)."""
        return self.counts[0].year if self.counts else None

    @property
    def series(self) -> tuple[YearCount, ...]:
        """The counts with zero years filled in up to the data-through year."""
        last = self.through.year if self.through is not None else None
        return year_series(self.counts, last=last)


@frozen(kw_only=True)
class AreaCount:
    """Citing papers in one area.

    Args:
        area: The area (an arXiv category, an OpenAlex topic, a map region).
        count: How many citing papers sit in it.
    """

    area: str
    count: int = field(converter=int, validator=_non_negative)


def _area_counts(
    values: Iterable[AreaCount | tuple[str, int] | list[object]] | Mapping[str, int] | None,
) -> tuple[AreaCount, ...]:
    if isinstance(values, Mapping):  # a mapping's counts are taken as numbers
        return tuple(AreaCount(area=str(k), count=int(v)) for k, v in values.items())
    counts = _count_entries(
        values, AreaCount, lambda a, c: AreaCount(area=str(a), count=int(str(c)))
    )
    return tuple(counts)


@frozen(kw_only=True)
class AreaProfile:
    """Where the citing papers sit, versus where the paper's own metadata places it.

    Args:
        source: Who placed them.
        observed: When (aware UTC).
        citing: Citing papers per area, as the source counts them.
        own_placement: The area the paper's own metadata places it in; None when its own
            metadata did not fit any area.
        placement_method: What the own placement was based on ("abstract", "categories").
    """

    source: str
    observed: dt.datetime = field(converter=utc)
    citing: tuple[AreaCount, ...] = field(factory=tuple, converter=_area_counts)
    own_placement: str | None = None
    placement_method: str | None = None

    @property
    def top(self) -> AreaCount | None:
        """The area with the most citing papers (first listed wins a tie)."""
        best: AreaCount | None = None
        for ac in self.citing:
            if best is None or ac.count > best.count:
                best = ac
        return best

    @property
    def disagrees(self) -> bool:
        """Whether the citing papers' main area differs from the paper's own placement."""
        top = self.top
        return top is not None and top.area != self.own_placement

    def explanation(self) -> str | None:
        """A plain sentence when citing areas and own placement disagree, else None.

        >>> AreaProfile(
        ...     source="map",
        ...     observed="2026-10-14T00:00:00Z",
        ...     citing={"LLM reasoning": 109},
        ...     placement_method="abstract",
        ... ).explanation()
        'Cited by 109 in LLM reasoning, but placed by its own abstract, which didn’t fit.'
        """
        top = self.top
        if top is None or not self.disagrees:
            return None
        by = (
            f"by its own {self.placement_method}"
            if self.placement_method
            else "by its own metadata"
        )
        if self.own_placement is None:
            return f"Cited by {top.count:,} in {top.area}, but placed {by}, which didn’t fit."
        return f"Cited by {top.count:,} in {top.area}, but placed {by} in {self.own_placement}."


def _measurements(values: Iterable[Measurement] | None) -> tuple[Measurement, ...]:
    return () if values is None else tuple(values)


@frozen(kw_only=True)
class CitingWork:
    """One distinct citing work, grouping the observations that cite the record's paper.

    The preprint and the published version of a citing paper, or the same citing paper seen by
    two sources or in two states, are one citing work with several observations.

    Args:
        key: The work key the group is filed under.
        paper: The citing paper (the most complete description among the observations).
        observations: Ids of the grouped observations.
        sources: Sources that reported them.
        grouping: Why observations were grouped (empty for a single observation).
        self_citation: True when the citing and cited papers share an author; None when
            either author list is unknown.
        shared_authors: The shared authors' names.
        cited_by: The citing work's own citation counts, each naming its source (and, in
            ``subject``, the version it counts), never combined.
        unlinked: Other citing works with the same title that were *not* grouped with this one,
            each with why not (no identifier, relation or shared author links them).
    """

    key: str
    paper: Paper
    observations: tuple[str, ...] = field(factory=tuple, converter=_strs)
    sources: tuple[str, ...] = field(factory=tuple, converter=_strs)
    grouping: tuple[str, ...] = field(factory=tuple, converter=_strs)
    self_citation: bool | None = None
    shared_authors: tuple[str, ...] = field(factory=tuple, converter=_strs)
    cited_by: tuple[Measurement, ...] = field(factory=tuple, converter=_measurements)
    unlinked: tuple[str, ...] = field(factory=tuple, converter=_strs)

    @property
    def year(self) -> int | None:
        """The citing work's year, when known."""
        return self.paper.year

    def count(self, source: str | None = None) -> Measurement | None:
        """The citation count from ``source`` (the first source's when None), if any.

        When one source counts two versions of the work separately (the preprint and the
        published article), the larger of its counts is returned: counts are chosen, never
        summed, and never mixed across sources.
        """
        if source is None:
            if not self.cited_by:
                return None
            source = self.cited_by[0].source
        best: Measurement | None = None
        for m in self.cited_by:
            if m.source == source and (best is None or m.value > best.value):
                best = m
        return best

    def other_counts(self, source: str | None) -> tuple[Measurement, ...]:
        """Counts of this work from sources other than ``source`` that differ from its count.

        What a ranking by ``source`` shows next to a work so a disagreement stays visible.
        """
        mine = self.count(source) if source is not None else None
        seen: dict[str, Measurement] = {}
        for m in self.cited_by:
            if m.source == source or m.source in seen:
                continue
            other = self.count(m.source)
            if other is not None and (mine is None or other.value != mine.value):
                seen[m.source] = other
        return tuple(seen.values())


@frozen(kw_only=True)
class CountedCitation:
    """One inbound observation together with the citing work's own citation count(s).

    What a :class:`~citeledger.sources.CountedCitationSource` yields: the
    count rides with the listing that produced the observation, so ranking needs no second
    request per citing paper.

    Args:
        observation: The inbound observation.
        cited_by: The citing work's own counts as this source gives them (empty if none).
    """

    observation: Observation
    cited_by: tuple[Measurement, ...] = field(factory=tuple, converter=_measurements)
