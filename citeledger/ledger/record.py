"""The paper citation record's values: :class:`CitationRecord` and its small parts.

Pure values (frozen attrs classes) with their lookups and renderings; the small parts are
defined in ``_parts.py`` and exported from here. Building a record is
:mod:`citeledger.ledger.build`'s job. A citation records a reference. It does not transfer a
finding from one paper to another.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING, Any

from attrs import field, frozen

from citeledger import frames
from citeledger._text import key_text
from citeledger.errors import CiteledgerError, DeserializationError, InvalidIdentifier
from citeledger.identifiers import ArxivId, Identifier, Scheme, parse_identifier, work_key
from citeledger.ledger import _parts
from citeledger.ledger._parts import *  # noqa: F403 - the small parts, exported from here too
from citeledger.ledger._parts import (
    ITEMIZED,
    CitingSort,
    Disagreement,
    ObservationNotice,
    Outcome,
    Reconciliation,
    RecordStatus,
    SourceIdentity,
    SourceReport,
    StateCount,
    WorkNotices,
    _z,
)
from citeledger.model import (
    Coverage,
    Facet,
    Measurement,
    MeasurementKind,
    Observation,
    Paper,
    ResolutionState,
    utc,
)
from citeledger.page import (
    AreaProfile,
    CitedByYear,
    CitingWork,
    YearCount,
    year_series,
)

# ``_json``: the one JSON reader turning every failure into a DeserializationError.
from citeledger.serialize import _json, make_converter, structure

if TYPE_CHECKING:
    from collections.abc import Iterable

    import pandas as pd

__all__ = ["LINK_UNAVAILABLE", "PRINCIPLE", "SCHEMA", "CitationRecord"]
__all__ += _parts.__all__  # the small parts, defined in _parts.py and exported from here

#: The schema tag of the record's JSON form.
SCHEMA = "citeledger.paper-citation-record.v1"
#: The ledger's principle, printed in every rendering.
PRINCIPLE = (
    "A citation records a reference. It does not transfer a finding from one paper to another."
)
#: The reason given when an observation has no link to a canonical cited work.
LINK_UNAVAILABLE = "canonical work link unavailable"


# ============================================================================ the record


@frozen(kw_only=True)
class CitationRecord:
    """The paper citation record of one paper: what the named sources say, and how completely.

    Build one with :func:`build_record`; read it back with :meth:`from_json`. Every list is a
    tuple; every measurement and observation names its source and time.

    Args:
        requested: The paper id exactly as the caller gave it.
        paper: The paper (merged: the first source's description, every source's identifiers).
        built: When the record was built ("as of"), aware UTC.
        paper_descriptions: Each source's own description of the paper, unmerged.
        coverage: The coverage vector, one entry per :class:`~citeledger.Facet`.
        outbound: One observation per (source, reference of the paper), resolved.
        outbound_total: References the sources listed.
        inbound: One observation per (source, citing work, reference position).
        citing_works: Inbound observations grouped into distinct citing works.
        notices: The standing-notice outcome for each observation's cited work.
        work_notices: Each cited work's per-source checks and their combination.
        measurements: External citation measurements, each with its source and date.
        disagreements: What the sources disagree on, each claim with its source.
        reports: Every source call and its outcome.
        cited_by_year: Source-reported citing papers per year.
        area_profiles: Source-reported area profiles.
        source_ids: Sources' own ids of observations.
        inbound_cap: The disclosed page cap of inbound itemization, if any.
        network: Whether outbound references were also resolved against the sources.
        schema: The schema tag.
    """

    requested: str
    paper: Paper
    built: dt.datetime = field(converter=utc)
    paper_descriptions: tuple[Paper, ...] = ()
    coverage: tuple[Coverage, ...] = ()
    outbound: tuple[Observation, ...] = ()
    outbound_total: int = 0
    inbound: tuple[Observation, ...] = ()
    citing_works: tuple[CitingWork, ...] = ()
    notices: tuple[ObservationNotice, ...] = ()
    work_notices: tuple[WorkNotices, ...] = ()
    measurements: tuple[Measurement, ...] = ()
    disagreements: tuple[Disagreement, ...] = ()
    reports: tuple[SourceReport, ...] = ()
    cited_by_year: tuple[CitedByYear, ...] = ()
    area_profiles: tuple[AreaProfile, ...] = ()
    source_ids: tuple[SourceIdentity, ...] = ()
    inbound_cap: int | None = None
    network: bool = False
    schema: str = SCHEMA

    def __attrs_post_init__(self) -> None:
        if self.schema != SCHEMA:
            raise DeserializationError(f"not a {SCHEMA} record", (f"schema: {self.schema!r}",))

    # ------------------------------------------------------------------ lookups

    def coverage_of(self, facet: Facet | str) -> Coverage:
        """The coverage entry of ``facet``."""
        wanted = Facet(facet)
        for c in self.coverage:
            if c.facet is wanted:
                return c
        raise KeyError(wanted.value)

    def notice_for(self, observation_id: str) -> ObservationNotice | None:
        """The standing-notice outcome of one observation."""
        return self.notice_index().get(observation_id)

    def notice_index(self) -> dict[str, ObservationNotice]:
        """Standing-notice outcomes by observation id (build once for many lookups)."""
        return {n.observation: n for n in self.notices}

    def source_id(self, observation_id: str) -> str | None:
        """The source's own id of an observation, when the source gave one."""
        return self.source_id_index().get(observation_id)

    def source_id_index(self) -> dict[str, str]:
        """Sources' own ids by observation id (build once for many lookups)."""
        return {s.observation: s.source_id for s in self.source_ids}

    @property
    def paper_label(self) -> str:
        """How the paper is named in prose: "arXiv:2104.07857", "doi:10...."."""
        ident = _primary_identifier(self.paper, self.requested)
        if ident is None:
            return self.requested
        return f"arXiv:{_arxiv_base(ident)}" if ident.scheme is Scheme.ARXIV else str(ident)

    @property
    def version_label(self) -> str:
        """The id and version line: "2104.07857 v1"."""
        ident = _primary_identifier(self.paper, self.requested)
        if ident is None:
            return self.requested
        if ident.scheme is Scheme.ARXIV:
            version = ident.version if isinstance(ident, ArxivId) else None
            base = _arxiv_base(ident)
            return f"{base} v{version}" if version else base
        return ident.value

    def resolution_counts(self) -> tuple[StateCount, ...]:
        """Outbound observations per resolution state: all six states, always, in ledger order."""
        counts = dict.fromkeys(ResolutionState, 0)
        for obs in self.outbound:
            if obs.state is not None:
                counts[obs.state] += 1
        return tuple(StateCount(state=s, count=n) for s, n in counts.items())

    @property
    def self_citations(self) -> tuple[CitingWork, ...]:
        """Citing works that share an author with the paper."""
        return tuple(w for w in self.citing_works if w.self_citation)

    @property
    def data_through(self) -> dt.date | None:
        """The date the record's inbound data run to.

        A source's stated data-through date when one gave it, else the day of the latest
        inbound observation.
        """
        throughs = [c.through for c in self.cited_by_year if c.through is not None]
        if throughs:
            return max(throughs)
        if self.inbound:
            return max(o.observed for o in self.inbound).date()
        return None

    # ------------------------------------------------------------------ the paper page

    @property
    def status(self) -> RecordStatus:
        """What the record could measure: OK, PARTIAL (some source failed) or NOTHING_MEASURED.

        :attr:`RecordStatus.NOTHING_MEASURED` when no source answered anything (every call
        failed, was unsupported or skipped), :attr:`RecordStatus.PARTIAL` when some source
        failed (its reports say which), else :attr:`RecordStatus.OK`.

        .. versionadded:: 0.2.0
        """
        if not any(r.outcome in (Outcome.OK, Outcome.PARTIAL) for r in self.reports):
            return RecordStatus.NOTHING_MEASURED
        if any(r.outcome is Outcome.ERROR or r.error for r in self.reports):
            return RecordStatus.PARTIAL
        return RecordStatus.OK

    @property
    def measured_nothing(self) -> bool:
        """Whether no source answered anything (``status is RecordStatus.NOTHING_MEASURED``).

        .. versionadded:: 0.2.0
        """
        return self.status is RecordStatus.NOTHING_MEASURED

    @property
    def status_note(self) -> str | None:
        """The first line of every rendering when nothing could be measured, with why; else None.

        .. versionadded:: 0.2.0
        """
        if not self.measured_nothing:
            return None
        why = [r.describe() for r in self.reports if r.outcome is not Outcome.UNSUPPORTED]
        if not why:
            why = ["no source was given" if not self.reports else "no source offers these facts"]
        shown = "; ".join(why[:3]) + (f"; and {len(why) - 3} more" if len(why) > 3 else "")
        return f"Nothing could be measured for {self.requested}: {shown}."

    @property
    def citing_total(self) -> int | None:
        """How many citing works the sources know of (M of "N most cited of M"); None: unknown.

        The distinct itemized citing works when every listing was complete; otherwise the larger
        of those and the largest total a single source announced (totals of different sources
        are never added). None when no source's listing answered (a source down, none offering
        citing papers): a count nobody measured is not 0 (:attr:`citing_total_reason` says why).

        .. versionchanged:: 0.2.0
           None, not 0, when nothing was measured.
        """
        listings = [r for r in self.reports if r.capability == "citations" and r.subject is None]
        if not any(r.outcome in (Outcome.OK, Outcome.PARTIAL) for r in listings):
            return None
        complete = all(
            r.outcome is Outcome.OK and (r.total is None or r.fetched == r.total) for r in listings
        )
        if complete:
            # Everything announced was itemized: distinct citing works are the count (two
            # observations of one citing paper count once).
            return len(self.citing_works)
        announced = [r.total for r in listings if r.total]
        return max([len(self.citing_works), *announced])

    @property
    def citing_total_reason(self) -> str | None:
        """Why :attr:`citing_total` is None (the inbound coverage's reason); None when measured.

        .. versionadded:: 0.2.0
        """
        if self.citing_total is not None:
            return None
        try:
            cov = self.coverage_of(Facet.INBOUND_ITEMIZATION)
        except KeyError:
            return "no source listed citing papers"
        return cov.reason or "no source listed citing papers"

    def per_year(self) -> tuple[YearCount, ...]:
        """Citing papers per year over the full history, zero years kept.

        The first source-reported series when there is one (it covers citing papers that are
        not itemized), else one derived from the itemized citing works' years.
        """
        if self.cited_by_year:
            return self.cited_by_year[0].series
        years: dict[int, int] = {}
        for w in self.citing_works:
            if w.year is not None:
                years[w.year] = years.get(w.year, 0) + 1
        if not years:
            return ()
        last = self.data_through.year if self.data_through else None
        first = min(years)
        if self.paper.year is not None and self.paper.year < first:
            first = self.paper.year
        years.setdefault(first, 0)
        return year_series((YearCount(year=y, count=c) for y, c in years.items()), last=last)

    def reconciliation(self) -> Reconciliation:
        """Whether cited-by per year matches the itemized total, and why not if not."""
        itemized = len(self.citing_works)
        if self.cited_by_year:
            cby = self.cited_by_year[0]
            total = cby.total
            why = f"The per-year counts from {cby.source} total {total:,}"
            notes = self._series_notes(cby)
            if total == itemized:
                why += ", as many as are itemized."
            else:
                reasons = self._itemization_shortfall()
                why += f"; {itemized:,} citing works are itemized here"
                why += f" because {reasons}." if reasons else "."
            if notes:
                why += " " + " ".join(notes)
            return Reconciliation(
                per_year_source=cby.source,
                per_year_total=total,
                itemized=itemized,
                agrees=total == itemized and not notes,
                explanation=why,
            )
        dated = sum(1 for w in self.citing_works if w.year is not None)
        if dated == itemized:
            why = f"Derived from the {itemized:,} itemized citing works' own years."
            agrees = True
        else:
            why = (
                f"Derived from the itemized citing works' own years; {itemized - dated:,} of "
                f"{itemized:,} have no year, so the per-year counts total {dated:,}."
            )
            agrees = False
        return Reconciliation(
            per_year_source="itemized",
            per_year_total=dated,
            itemized=itemized,
            agrees=agrees,
            explanation=why,
        )

    def _series_notes(self, cby: CitedByYear) -> list[str]:
        """Why a source's per-year series may not be the work's whole history."""
        notes: list[str] = []
        if cby.note:
            notes.append(cby.note[0].upper() + cby.note[1:].rstrip(".") + ".")
        if cby.source_total is not None and cby.source_total != cby.total:
            diff = cby.source_total - cby.total
            notes.append(
                f"{cby.source}'s own total count is {cby.source_total:,}, "
                + (
                    f"{diff:,} more than its per-year counts: citations outside the years it bins."
                    if diff > 0
                    else f"{-diff:,} fewer than its per-year counts."
                )
            )
        return notes

    def _itemization_shortfall(self) -> str:
        cov = self.coverage_of(Facet.INBOUND_ITEMIZATION)
        return cov.reason or ""

    def citing_counts(self) -> tuple[Measurement, ...]:
        """The paper's "cited by" figures, one per source, each with its name and date.

        The sources' own citation counts (external measurements) first, then the totals a
        citation listing announced for sources that gave no count (dated by the record's
        build time), and, when no source gave either, the distinct citing works itemized here
        (source ``"itemized here"``). Shown side by side; never a maximum or a sum.

        .. versionadded:: 0.2.0
        """
        out = [m for m in self.measurements if m.kind is MeasurementKind.CITED_BY]
        named = {m.source for m in out}
        for r in self.reports:
            if (
                r.capability == "citations"
                and r.subject is None
                and r.total
                and r.source not in named
            ):
                named.add(r.source)
                out.append(
                    Measurement(
                        value=r.total,
                        source=r.source,
                        observed=self.built,
                        kind=MeasurementKind.CITED_BY,
                    )
                )
        if not out and self.citing_works:
            out.append(
                Measurement(
                    value=len(self.citing_works),
                    source=ITEMIZED,
                    observed=self.built,
                    kind=MeasurementKind.CITED_BY,
                )
            )
        return tuple(out)

    @property
    def data_through_source(self) -> str | None:
        """Whose data-through date :attr:`data_through` is (None: the latest observation's)."""
        dated = [c for c in self.cited_by_year if c.through is not None]
        if dated:
            return max(dated, key=lambda c: c.through or dt.date.min).source
        return None

    @property
    def abstract_source(self) -> str | None:
        """The source whose description gave the paper's abstract, when known."""
        abstract = self.paper.abstract
        if not abstract:
            return None
        for d in self.paper_descriptions:
            if d.abstract == abstract and d.source:
                return d.source
        return self.paper.source

    def ranked_citing(
        self,
        *,
        area: str | Iterable[str] | None = None,
        limit: int | None = None,
        source: str | None = None,
        sort: CitingSort | str = "citations",
    ) -> tuple[CitingWork, ...]:
        """Citing works ranked by their own citation counts (most cited first), or sorted.

        Args:
            area: Keep works in this area (or any of these areas): arXiv categories, OpenAlex
                topics, whatever the sources give in ``Paper.areas``.
            limit: Keep the first ``limit``.
            source: Rank by this source's counts (default: the first source that gave any).
                Counts of different sources are never mixed in one ranking.
            sort: :class:`CitingSort`: ``"citations"`` (the ranking source's counts, most
                first), ``"year"`` (newest first, then by counts) or ``"title"`` (A to Z).

        Works without a count from the ranking source follow, in source order; ties keep the
        source's order.

        .. versionchanged:: 0.2.0
           ``sort``.
        """
        order = CitingSort(sort)
        ranking = source if source is not None else self.ranking_source
        wanted = {area} if isinstance(area, str) else (set(area) if area is not None else None)
        works = [
            w for w in self.citing_works if wanted is None or wanted.intersection(w.paper.areas)
        ]

        def by_count(i: int, w: CitingWork) -> tuple[int, int, int]:
            m = w.count(ranking) if ranking else None
            return (0, -m.value, i) if m is not None else (1, 0, i)

        def key(item: tuple[int, CitingWork]) -> tuple[Any, ...]:
            i, w = item
            if order is CitingSort.YEAR:
                return (w.year is None, -(w.year or 0), *by_count(i, w))
            if order is CitingSort.TITLE:
                return (key_text(w.paper.title) or "\uffff", i)
            return by_count(i, w)

        ranked = [w for _, w in sorted(enumerate(works), key=key)]
        return tuple(ranked if limit is None else ranked[:limit])

    @property
    def ranking_source(self) -> str | None:
        """The source whose counts rank citing works: the first that gave a count."""
        for w in self.citing_works:
            for m in w.cited_by:
                return m.source
        return None

    def citing_areas(self) -> tuple[tuple[str, int], ...]:
        """Itemized citing works per area (most first), for filtering."""
        counts: dict[str, int] = {}
        for w in self.citing_works:
            for a in w.paper.areas:
                counts[a] = counts.get(a, 0) + 1
        return tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    def citing_json(self, *, area: str | Iterable[str] | None = None) -> str:
        """The whole ranked citing-paper list (optionally one area's) as JSON."""
        rows = [
            _citing_row(rank, w, self.ranking_source)
            for rank, w in enumerate(self.ranked_citing(area=area), start=1)
        ]
        return json.dumps(rows, ensure_ascii=False, indent=1)

    # ------------------------------------------------------------------ output

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready plain data (``schema`` first)."""
        data: dict[str, Any] = make_converter().unstructure(self)
        return {"schema": data.pop("schema"), **data}

    def to_json(self, *, indent: int | None = 1) -> str:
        """The record as JSON tagged ``citeledger.paper-citation-record.v1``."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> CitationRecord:
        """Read a record written by :meth:`to_json`.

        Raises:
            DeserializationError: invalid JSON, a wrong schema tag, or fields that do not fit.
        """
        data = _json(text)
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            got = data.get("schema") if isinstance(data, dict) else type(data).__name__
            raise DeserializationError(f"not a {SCHEMA} record", (f"schema: {got!r}",))
        return structure(data, cls)

    @staticmethod
    def json_schema() -> dict[str, Any]:
        """The JSON Schema of :meth:`to_json`'s output (also in ``docs/``)."""
        from citeledger.ledger._schema import record_schema  # noqa: PLC0415 - only needed here

        return record_schema()

    def render(self, fmt: str = "text", *, view: str = "full", sort: str = "citations") -> str:
        """Render the record.

        Args:
            fmt: "text" (the seed ledger's layout), "markdown" or "html" (with an inline SVG
                chart of citations per year).
            view: "ledger", "page" (the paper page) or "full" (both).
            sort: How the page lists citing papers (:class:`CitingSort`); the rendering says.
        """
        from citeledger.ledger._render import render  # noqa: PLC0415 - keeps import time low

        return render(self, fmt, view=view, sort=sort)

    def _repr_html_(self) -> str:
        return self.render("html")

    def _repr_markdown_(self) -> str:
        return self.render("markdown")

    def __str__(self) -> str:
        return self.render("text", view="ledger")

    def __repr__(self) -> str:
        # One line, as attrs-style reprs of large objects are: the full record is to_json().
        title = self.paper.title or ""
        short = title if len(title) <= 48 else title[:47] + "…"
        states = ", ".join(
            f"{s.state.value}={s.count}" for s in self.resolution_counts() if s.count
        )
        coverage = ", ".join(f"{c.facet.value}={c.state.value}" for c in self.coverage)
        return (
            f"CitationRecord(paper={self.paper_label!r}, title={short!r}, "
            f"built={_z(self.built)!r}, outbound={len(self.outbound)}/{self.outbound_total}, "
            f"inbound={len(self.inbound)}, citing_works={len(self.citing_works)}, "
            f"measurements={len(self.measurements)}, states=({states}), coverage=({coverage}))"
        )

    def to_records(self, kind: str = "observations") -> list[dict[str, Any]]:
        """Plain-dict rows, exactly the :mod:`citeledger.frames` table schema.

        Args:
            kind: "observations" (outbound, then inbound: the keys of
                :data:`~citeledger.frames.OBSERVATION_COLUMNS`) or "citing" (the ranked citing
                works: :data:`~citeledger.frames.CITING_PAPER_COLUMNS`).

        .. versionchanged:: 0.2.0
           The rows are :func:`citeledger.frames.observation_rows` and
           :func:`~citeledger.frames.citing_paper_rows` (one table schema, not two): times are
           ``datetime`` values, lists are space-joined strings.
        """
        if kind == "observations":
            return frames.observation_rows(self)
        if kind == "citing":
            return frames.citing_paper_rows(self)
        raise ValueError(f"kind must be 'observations' or 'citing', got {kind!r}")

    def to_pandas(self, kind: str = "observations") -> pd.DataFrame:
        """:meth:`to_records` as a :class:`pandas.DataFrame` (needs the ``pandas`` extra).

        .. versionchanged:: 0.2.0
           :func:`citeledger.frames.observations_frame` or
           :func:`~citeledger.frames.citing_papers_frame`, with their documented dtypes.
        """
        if kind == "observations":
            return frames.observations_frame(self)
        if kind == "citing":
            return frames.citing_papers_frame(self)
        raise ValueError(f"kind must be 'observations' or 'citing', got {kind!r}")


def _citing_row(rank: int, w: CitingWork, source: str | None) -> dict[str, Any]:
    m = w.count(source) if source else None
    return {
        "rank": rank,
        "title": w.paper.title,
        "year": w.year,
        "identifiers": [str(i) for i in w.paper.identifiers],
        "areas": list(w.paper.areas),
        "cited_by": m.value if m else None,
        "cited_by_source": m.source if m else None,
        "cited_by_observed": m.observed.isoformat() if m else None,
        "observations": list(w.observations),
        "self_citation": w.self_citation,
        "grouping": list(w.grouping),
    }


def _arxiv_base(ident: Identifier) -> str:
    return str(ident.base) if isinstance(ident, ArxivId) else ident.value


def _primary_identifier(paper: Paper, requested: str) -> Identifier | None:
    try:
        wanted = parse_identifier(requested)
    except (InvalidIdentifier, CiteledgerError):
        wanted = None
    if wanted is not None:
        # Prefer the paper's own (possibly versioned) form of the requested identifier.
        for ident in paper.identifiers:
            if work_key(ident) == work_key(wanted):
                return ident
        return wanted
    return paper.identifiers[0] if paper.identifiers else None
