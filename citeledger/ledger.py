"""The paper citation record (the ledger): coverage, observations, notices, measurements.

:func:`build_record` composes any set of sources into one :class:`CitationRecord` for one paper.
Sources that fail, lack a capability or stop paging early never abort the record: the coverage
vector says what was measured ("measured X of Y"), by which named sources, when, and what could
not be measured and why; :attr:`CitationRecord.reports` keeps every source call's outcome.

A citation records a reference. It does not transfer a finding from one paper to another.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
import enum
import json
import re
import unicodedata
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
from attrs import field, frozen

from citeledger._memo import CallMemo, MemoTransport
from citeledger._progress import Progress, progress_callback
from citeledger.errors import (
    CiteledgerError,
    DeserializationError,
    InvalidIdentifier,
    SourceError,
    UnsupportedCapability,
)
from citeledger.identifiers import Identifier, Scheme, parse_identifier, work_key
from citeledger.model import (
    Coverage,
    CoverageState,
    Direction,
    EventKind,
    Facet,
    Measurement,
    NoticeCheck,
    NoticeStatus,
    Observation,
    Paper,
    Reference,
    RelationKind,
    ResolutionState,
    _opt_utc,  # the model's own converter
    utc,
)
from citeledger.page import (
    AreaProfile,
    CitedByYear,
    CitingWork,
    CountedCitation,
    YearCount,
    year_series,
)
from citeledger.resolve import Resolver
from citeledger.serialize import make_converter, structure
from citeledger.sources import (
    UNREADABLE,
    Capability,
    Paged,
    Source,
    SourceRegistry,
    UnreadableItem,
    describe_unreadable,
)
from citeledger.sources._transport import Transport

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    import pandas as pd

__all__ = [
    "LINK_UNAVAILABLE",
    "PRINCIPLE",
    "SCHEMA",
    "CitationRecord",
    "Claim",
    "Disagreement",
    "ObservationNotice",
    "Outcome",
    "Reconciliation",
    "SourceIdentity",
    "SourceReport",
    "StateCount",
    "WorkNotices",
    "build_record",
]

#: The schema tag of the record's JSON form.
SCHEMA = "citeledger.paper-citation-record.v1"
#: The ledger's principle, printed in every rendering.
PRINCIPLE = (
    "A citation records a reference. It does not transfer a finding from one paper to another."
)
#: The reason given when an observation has no link to a canonical cited work.
LINK_UNAVAILABLE = "canonical work link unavailable"

T = TypeVar("T")


class Outcome(enum.StrEnum):
    """What happened when the builder asked a source for something."""

    OK = "ok"
    #: The source answered but stopped early (an error mid-paging, or the disclosed page cap).
    PARTIAL = "partial"
    #: The source does not know the work (a None paper, a 404).
    NOT_FOUND = "not_found"
    #: The source lacks the capability.
    UNSUPPORTED = "unsupported"
    #: The source failed (after its transport's retries).
    ERROR = "error"
    #: The builder did not ask (e.g. the paper id is malformed).
    SKIPPED = "skipped"


def _unreadable_items(items: Iterable[UnreadableItem]) -> tuple[UnreadableItem, ...]:
    return tuple(items)


@frozen(kw_only=True)
class SourceReport:
    """One call the builder made to one source, and how it went. Nothing is dropped silently.

    Args:
        source: The source's name.
        capability: What was asked ("paper", "references", "citations", ...).
        outcome: How it went.
        fetched: Items received (observations, references, measurements), when counted.
        total: Items the source announced, when it did.
        capped: Whether the disclosed page cap stopped the listing.
        error: The error's message, when it failed.
        error_type: The error's class name ("SourceTimeout").
        subject: What was asked about (an identifier or work key), when not the record's paper.
        unreadable: Items the source sent that could not be read (not counted in
            ``fetched``), each with its position and reason.

    .. versionchanged:: 0.1.0
       ``unreadable``.
    """

    source: str
    capability: str
    outcome: Outcome = field(converter=Outcome)
    fetched: int | None = None
    total: int | None = None
    capped: bool = False
    error: str | None = None
    error_type: str | None = None
    subject: str | None = None
    unreadable: tuple[UnreadableItem, ...] = field(default=(), converter=_unreadable_items)

    def describe(self) -> str:
        """One line: "openalex citations: error (SourceTimeout: read timed out)"."""
        text = f"{self.source} {self.capability}"
        if self.subject:
            text += f" for {self.subject}"
        text += f": {self.outcome.value.replace('_', ' ')}"
        if self.fetched is not None:
            text += f", {self.fetched:,} received"
            if self.total is not None:
                text += f" of {self.total:,} announced"
        if self.unreadable:
            text += ", " + describe_unreadable(self.unreadable)
        if self.capped:
            text += ", stopped at the disclosed page cap"
        if self.error:
            text += f" ({self.error_type}: {self.error})" if self.error_type else f" ({self.error})"
        return text


@frozen(kw_only=True)
class StateCount:
    """How many outbound observations reached one resolution state.

    Args:
        state: The state.
        count: How many.
    """

    state: ResolutionState = field(converter=ResolutionState)
    count: int = 0


@frozen(kw_only=True)
class WorkNotices:
    """Every named source's event check for one cited work, and their combined outcome.

    Args:
        work: The work key checked.
        subject: The identifier the sources were asked about.
        checks: Each source's own check (errors become "unavailable" checks naming the source).
        outcome: The combination: events found in any source, else none found in the sources
            that answered, else unavailable with every reason. An error never reads as clean.
    """

    work: str
    subject: Identifier | None = None
    checks: tuple[NoticeCheck, ...] = ()
    outcome: NoticeCheck


@frozen(kw_only=True)
class ObservationNotice:
    """The standing-notice outcome for the cited work of one observation (one hop out).

    Args:
        observation: The observation's id.
        work: The cited work's key; None when the observation has no canonical work link.
        check: The outcome for that work, or "unavailable: canonical work link unavailable".
        after_retraction: True when the citation was made after a retraction of the cited work;
            False when before or when none was found; None when unknown.
    """

    observation: str
    work: str | None = None
    check: NoticeCheck
    after_retraction: bool | None = None


@frozen(kw_only=True)
class Claim:
    """What one source says in a disagreement.

    Args:
        source: Who says it.
        value: What it says ("retraction found", "57").
        observed: When, if known.
    """

    source: str
    value: str
    observed: dt.datetime | None = field(default=None, converter=_opt_utc)


@frozen(kw_only=True)
class Disagreement:
    """Sources that say different things about the same thing, each claim with its source.

    Args:
        topic: What they disagree on ("retraction status", "cited_by count", "title").
        subject: What it is about (a work key or identifier).
        claims: Each source's claim.
    """

    topic: str
    subject: str
    claims: tuple[Claim, ...]

    def describe(self) -> str:
        """One line naming every source and its claim."""
        said = "; ".join(
            f"{c.source}: {c.value}" + (f" (observed {_z(c.observed)})" if c.observed else "")
            for c in self.claims
        )
        return f"{self.topic} of {self.subject}: {said}"


@frozen(kw_only=True)
class SourceIdentity:
    """A source's own id for an observation, kept next to citeledger's deterministic id.

    Args:
        observation: citeledger's deterministic observation id.
        source: The source that issued the id.
        source_id: The source's own id (the seed's observation UUIDs are these).
    """

    observation: str
    source: str
    source_id: str


@frozen(kw_only=True)
class Reconciliation:
    """Cited-by per year versus the itemized citing works.

    Args:
        per_year_source: Whose per-year counts are compared ("itemized" when derived from the
            itemized citing works themselves).
        per_year_total: Their sum.
        itemized: Distinct citing works itemized in the record.
        agrees: Whether the two totals are equal.
        explanation: Why they differ (or that they agree).
    """

    per_year_source: str
    per_year_total: int
    itemized: int
    agrees: bool
    explanation: str


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
        if ident.scheme is Scheme.ARXIV:
            return f"arXiv:{_arxiv_base(ident)}"
        return str(ident)

    @property
    def version_label(self) -> str:
        """The id and version line: "2104.07857 v1"."""
        ident = _primary_identifier(self.paper, self.requested)
        if ident is None:
            return self.requested
        if ident.scheme is Scheme.ARXIV:
            version = getattr(ident, "version", None)
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
    def citing_total(self) -> int:
        """How many citing works the sources know of (M of "N most cited of M").

        The distinct itemized citing works when every listing was complete; otherwise the larger
        of those and the largest total a single source announced (totals of different sources
        are never added).
        """
        listings = [r for r in self.reports if r.capability == "citations" and r.subject is None]
        complete = all(
            r.outcome is Outcome.OK and (r.total is None or r.fetched == r.total) for r in listings
        )
        if complete:
            # Everything announced was itemized: distinct citing works are the count (two
            # observations of one citing paper count once).
            return len(self.citing_works)
        announced = [r.total for r in listings if r.total]
        return max([len(self.citing_works), *announced])

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

    def ranked_citing(
        self,
        *,
        area: str | Iterable[str] | None = None,
        limit: int | None = None,
        source: str | None = None,
    ) -> tuple[CitingWork, ...]:
        """Citing works ranked by their own citation counts (most cited first).

        Args:
            area: Keep works in this area (or any of these areas): arXiv categories, OpenAlex
                topics, whatever the sources give in ``Paper.areas``.
            limit: Keep the first ``limit``.
            source: Rank by this source's counts (default: the first source that gave any).
                Counts of different sources are never mixed in one ranking.

        Works without a count from the ranking source follow, in source order; ties keep the
        source's order.
        """
        ranking = source if source is not None else self.ranking_source
        wanted = {area} if isinstance(area, str) else (set(area) if area is not None else None)
        works = [
            w for w in self.citing_works if wanted is None or wanted.intersection(w.paper.areas)
        ]

        def key(item: tuple[int, CitingWork]) -> tuple[int, int, int]:
            i, w = item
            m = w.count(ranking) if ranking else None
            return (0, -m.value, i) if m is not None else (1, 0, i)

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
        try:
            data = json.loads(text)
        except RecursionError:
            raise DeserializationError("invalid JSON", ("nested too deeply",)) from None
        except (ValueError, TypeError) as exc:  # also non-UTF-8 bytes, over-long integers
            raise DeserializationError("invalid JSON", (str(exc),)) from exc
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            got = data.get("schema") if isinstance(data, dict) else type(data).__name__
            raise DeserializationError(f"not a {SCHEMA} record", (f"schema: {got!r}",))
        return structure(data, cls)

    @staticmethod
    def json_schema() -> dict[str, Any]:
        """The JSON Schema of :meth:`to_json`'s output (also in ``docs/``)."""
        from citeledger._schema import record_schema  # noqa: PLC0415 - only needed here

        return record_schema()

    def render(self, fmt: str = "text", *, view: str = "full") -> str:
        """Render the record.

        Args:
            fmt: "text" (the seed ledger's layout), "markdown" or "html" (with an inline SVG
                chart of citations per year).
            view: "ledger", "page" (the paper page) or "full" (both).
        """
        from citeledger._render import render  # noqa: PLC0415 - keeps import time low

        return render(self, fmt, view=view)

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
        """Plain-dict rows: "observations" (inbound and outbound) or "citing" (ranked works)."""
        if kind == "observations":
            notices, sids = self.notice_index(), self.source_id_index()
            return [
                self._observation_row(o, notices.get(o.id), sids.get(o.id))
                for o in (*self.outbound, *self.inbound)
            ]
        if kind == "citing":
            src = self.ranking_source
            return [_citing_row(i, w, src) for i, w in enumerate(self.ranked_citing(), start=1)]
        raise ValueError(f"kind must be 'observations' or 'citing', got {kind!r}")

    @staticmethod
    def _observation_row(
        obs: Observation, notice: ObservationNotice | None, source_id: str | None
    ) -> dict[str, Any]:
        target = obs.resolution.target if obs.resolution else None
        cited = target or obs.cited
        return {
            "id": obs.id,
            "source_id": source_id,
            "direction": obs.direction.value,
            "source": obs.source,
            "citing_title": obs.citing.title,
            "citing_key": obs.citing.key,
            "cited_title": cited.title if cited is not None else None,
            "position": obs.position,
            "state": obs.state.value if obs.state else None,
            "method": obs.method.value if obs.method else None,
            "observed": obs.observed.isoformat(),
            "notice": notice.check.status.value if notice else None,
            "after_retraction": notice.after_retraction if notice else None,
        }

    def to_pandas(self, kind: str = "observations") -> pd.DataFrame:
        """:meth:`to_records` as a :class:`pandas.DataFrame` (needs the ``pandas`` extra)."""
        try:
            import pandas as pd  # noqa: PLC0415 - optional dependency
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError("to_pandas() needs pandas: pip install 'citeledger[pandas]'") from exc
        return pd.DataFrame.from_records(self.to_records(kind))


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


# ============================================================================ helpers


def _z(value: dt.datetime | None) -> str:
    """ISO-8601 in UTC with a ``Z``, as the ledger prints observation and measurement times."""
    if value is None:
        return ""
    return value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def _arxiv_base(ident: Identifier) -> str:
    base = getattr(ident, "base", None)
    return str(base) if base else ident.value


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


def _norm_title(title: str | None) -> str:
    text = unicodedata.normalize("NFKD", title or "")
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


def _best_identifier(paper: Paper) -> Identifier | None:
    order = [Scheme.DOI, Scheme.ARXIV, Scheme.PMID, Scheme.PMCID, Scheme.OPENALEX, Scheme.S2]
    for scheme in order:
        ident = paper.identifier(scheme)
        if ident is not None:
            return ident
    return paper.identifiers[0] if paper.identifiers else None


def _author_keys(paper: Paper) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for a in paper.authors:
        fam = a.family_key
        if fam:
            out[(fam, a.initials[:1])] = a.name
    return out


def _shared_authors(a: Paper, b: Paper) -> tuple[bool | None, tuple[str, ...]]:
    ka, kb = _author_keys(a), _author_keys(b)
    if not ka or not kb:
        return None, ()
    shared = []
    for (fam, ini), name in kb.items():  # named as the citing paper writes them
        for fam2, ini2 in ka:
            if fam == fam2 and (not ini or not ini2 or ini == ini2):
                shared.append(name)
                break
    return bool(shared), tuple(shared)


def _work_date(paper: Paper) -> tuple[dt.date | None, int | None]:
    return paper.date, paper.date.year if paper.date else paper.year


def _after(citing: Paper, event_date: dt.date | None) -> bool | None:
    """Whether ``citing`` appeared after ``event_date`` (None when it cannot be told)."""
    if event_date is None:
        return None
    date, year = _work_date(citing)
    if date is not None:
        return date > event_date
    if year is None or year == event_date.year:
        return None
    return year > event_date.year


class _Caller:
    """Calls sources for one build: records every outcome, memoizes, reports progress.

    ``call()`` returns ``(answered, value, failure)``; ``failure`` is the report of a failed
    or unsupported call. The same (source, method, arguments) is asked once per build: a repeat
    returns the first outcome without a new report (nothing is asked, so nothing new happened).
    """

    def __init__(self, reports: list[SourceReport], advance: Callable[[int], None]) -> None:
        self.reports = reports
        self.memo = CallMemo()
        self.advance = advance

    def call(
        self,
        src: Source,
        capability: Capability | None,
        method: str,
        *args: Any,
        subject: str | None = None,
        memo: bool = True,
        **kwargs: Any,
    ) -> tuple[bool, Any, SourceReport | None]:
        """Call ``src.<method>(*args, **kwargs)``; record what happened.

        A source without the capability (or without the method at all) is reported as
        unsupported. ``capability`` None: an optional method no capability gates; its outcome
        is reported under the method's name.
        """
        key = CallMemo.key(src, method, args, kwargs) if memo else None
        if key is not None:
            found = self.memo.get(key)
            if found is not None:
                ok, value, failure = found
                return ok, value, failure
        outcome = self._call(src, capability, method, args, kwargs, subject)
        self.advance(1)
        if key is not None:
            self.memo.put(key, outcome)
        return outcome

    def _fail(self, report: SourceReport) -> tuple[bool, Any, SourceReport | None]:
        self.reports.append(report)
        return False, None, report

    def _call(  # noqa: PLR0917 - private; mirrors call()'s parts
        self,
        src: Source,
        capability: Capability | None,
        method: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        subject: str | None,
    ) -> tuple[bool, Any, SourceReport | None]:
        name = getattr(src, "name", type(src).__name__)
        caps = getattr(src, "capabilities", None)
        fn = getattr(src, method, None)
        label = capability.value if capability is not None else method
        unsupported = SourceReport(
            source=name, capability=label, outcome=Outcome.UNSUPPORTED, subject=subject
        )
        gated = capability is not None and caps is not None and capability not in caps
        if gated or not callable(fn):
            return self._fail(unsupported)
        try:
            value = fn(*args, **kwargs)
        except UnsupportedCapability:
            return self._fail(unsupported)
        except SourceError as exc:
            return self._fail(
                SourceReport(
                    source=name,
                    capability=label,
                    outcome=Outcome.NOT_FOUND if _not_found(exc) else Outcome.ERROR,
                    error=exc.message if hasattr(exc, "message") else str(exc),
                    error_type=type(exc).__name__,
                    subject=subject,
                )
            )
        except CiteledgerError as exc:
            # A payload the adapter could not read (ParseError, ...) is that source's failure.
            return self._fail(
                SourceReport(
                    source=name,
                    capability=label,
                    outcome=Outcome.ERROR,
                    error=str(exc),
                    error_type=type(exc).__name__,
                    subject=subject,
                )
            )
        return True, value, None


def _not_found(exc: SourceError) -> bool:
    return getattr(exc, "status", None) == 404 or type(exc).__name__ == "NotFoundError"


def _with_memo_transport(src: Source) -> Source:
    """The source sending through a fresh per-build :class:`MemoTransport`, when it can."""
    transport = getattr(src, "transport", None)
    clone = getattr(src, "with_transport", None)
    if transport is None or not callable(clone) or not isinstance(transport, Transport):
        return src
    try:
        copied = clone(MemoTransport(transport))
    except Exception:  # a broken optional hook must not cost the record
        return src
    return copied if isinstance(copied, Source) else src


def _provenance(src: Source, ident: Identifier, capability: Capability) -> tuple[str, ...]:
    hook = getattr(src, "provenance", None)
    if callable(hook):
        try:
            names = hook(ident, capability)
        except Exception:  # a broken optional hook must not cost the record
            names = None
        if names:
            return tuple(str(n) for n in names)
    return (src.name,)


def _unique(items: Iterable[T]) -> tuple[T, ...]:
    out: list[T] = []
    for item in items:
        if item not in out:
            out.append(item)
    return tuple(out)


def _merge_names(groups: Iterable[Iterable[str]]) -> tuple[str, ...]:
    out: list[str] = []
    for g in groups:
        for n in g:
            if n not in out:
                out.append(n)
    return tuple(out)


class _SourceCandidates:
    """A source as a resolver candidate provider (identifier lookups and searches).

    Errors are recorded, never raised: a source that fails leaves the reference to the others.
    """

    def __init__(self, src: Source, caller: _Caller) -> None:
        self._src = src
        self._caller = caller
        self._seen: dict[str, list[Paper]] = {}

    def by_identifier(self, ident: Identifier) -> list[Paper]:
        key = f"id:{work_key(ident)}"
        if key not in self._seen:
            ok, paper, _ = self._caller.call(
                self._src,
                Capability.PAPER,
                "paper",
                ident,
                subject=str(ident),
            )
            self._seen[key] = [paper] if ok and paper is not None else []
        return self._seen[key]

    def candidates(self, ref: Reference, *, limit: int) -> list[Paper]:
        if not ref.title:
            return []
        key = f"q:{_norm_title(ref.title)}"
        if key not in self._seen:
            subject = ref.title[:60]
            ok, found, _ = self._caller.call(
                self._src,
                Capability.SEARCH,
                "search",
                ref,
                limit=limit,
                subject=subject,
            )
            self._seen[key] = list(found or []) if ok else []
            unread = _search_skipped(found) if ok else ()
            if unread:
                # Candidates the source sent but could not read: one may have been the match,
                # so the search is reported partial (the readable candidates are still used).
                self._caller.reports.append(
                    SourceReport(
                        source=getattr(self._src, "name", type(self._src).__name__),
                        capability=Capability.SEARCH.value,
                        outcome=Outcome.PARTIAL,
                        fetched=len(self._seen[key]),
                        total=len(self._seen[key]) + len(unread),
                        subject=subject,
                        unreadable=unread,
                    )
                )
        return self._seen[key]


def _search_skipped(found: object) -> tuple[UnreadableItem, ...]:
    """The unreadable results a search answer carries (a plain list carries none)."""
    skipped = getattr(found, "skipped", ())
    if not isinstance(skipped, tuple | list):
        return ()
    return tuple(u for u in skipped if isinstance(u, UnreadableItem))


# ============================================================================ building


def _as_sources(sources: Iterable[Source] | SourceRegistry | Source) -> list[Source]:
    if isinstance(sources, SourceRegistry):
        return [sources.load(n) for n in sources.names()]
    if isinstance(sources, Source) and not isinstance(sources, (list, tuple)):
        return [sources]
    return list(sources)


def _merge_papers(requested: Identifier | None, papers: Sequence[Paper]) -> Paper:
    if not papers:
        return Paper(identifiers=() if requested is None else (requested,))
    first = papers[0]
    idents: list[Identifier] = [] if requested is None else [requested]
    for p in papers:
        for i in p.identifiers:
            if i not in idents and not any(
                work_key(i) == work_key(j) and i.scheme is Scheme.ARXIV for j in idents
            ):
                idents.append(i)
    # A versioned arXiv id from a source is more specific than the requested one.
    if requested is not None and requested.scheme is Scheme.ARXIV:
        versioned = [i for p in papers for i in p.identifiers if work_key(i) == work_key(requested)]
        best = next((i for i in versioned if getattr(i, "version", None)), None)
        if best is not None and getattr(requested, "version", None) is None:
            idents = [best if i == requested else i for i in idents]
    fill: dict[str, Any] = {}
    for name in (
        "title",
        "year",
        "date",
        "venue",
        "volume",
        "issue",
        "pages",
        "work_type",
        "abstract",
    ):
        for p in papers:
            value = getattr(p, name)
            if value is not None:
                fill[name] = value
                break
    for name in ("authors", "areas", "related"):
        for p in papers:
            if getattr(p, name):
                fill[name] = getattr(p, name)
                break
    return attrs.evolve(first, identifiers=tuple(idents), source=None, **fill)


def _paper_disagreements(papers: Sequence[Paper], subject: str) -> list[Disagreement]:
    out: list[Disagreement] = []
    titled = [p for p in papers if p.title]
    if len({_norm_title(p.title) for p in titled}) > 1:
        out.append(
            Disagreement(
                topic="title",
                subject=subject,
                claims=tuple(Claim(source=p.source or "?", value=p.title or "") for p in titled),
            )
        )
    dated = [p for p in papers if p.year is not None]
    if len({p.year for p in dated}) > 1:
        out.append(
            Disagreement(
                topic="year",
                subject=subject,
                claims=tuple(Claim(source=p.source or "?", value=str(p.year)) for p in dated),
            )
        )
    return out


def _iterate(
    it: Iterable[T], cap: int | None, advance: Callable[[int], None]
) -> tuple[list[T], bool, SourceError | None, bool]:
    """Drain ``it`` up to ``cap``; returns (items, capped, error, complete)."""
    items: list[T] = []
    iterator = iter(it)
    error: SourceError | None = None
    capped = False
    complete = False
    while True:
        if cap is not None and len(items) >= cap:
            # Peek: only a further item means the cap actually cut the listing.
            try:
                next(iterator)
            except StopIteration:
                complete = True
            except SourceError as exc:
                error = exc
            else:
                capped = True
            break
        try:
            items.append(next(iterator))
        except StopIteration:
            complete = True
            break
        except SourceError as exc:  # a plain iterator that raises mid-way
            error = exc
            break
        advance(1)
    if isinstance(it, Paged):
        error = error or it.error
        complete = complete and it.error is None
    return items, capped, error, complete


def _link_reason(a: Identifier, b: Identifier) -> str:
    """Why two identifiers with one work key name the same work."""
    if a.scheme is not b.scheme and Scheme.DOI in (a.scheme, b.scheme):
        doi, arxiv = (a, b) if a.scheme is Scheme.DOI else (b, a)
        return f"arXiv DataCite DOI {doi} is {arxiv}"
    if a == b:
        return f"same identifier {a}"
    return f"versions of one work ({a}, {b})"


def _families(paper: Paper) -> set[str]:
    return {a.family_key for a in paper.authors if a.family_key}


def _group_citing(
    paper: Paper,
    inbound: Sequence[Observation],
    counts: Mapping[str, list[Measurement]],
) -> list[CitingWork]:
    """Group inbound observations into distinct citing works, with the reason for each merge.

    Observations are grouped only when their identifiers link them (one work key: the same
    identifier, arXiv versions, an arXiv DataCite DOI and its arXiv id), when a source asserted
    a preprint/published (or other version) relation between them, or when they share a title
    of at least four words and either cite this paper at the same reference number (with no
    contradicting year or author list) or share the
    year and at least one author family name. The same title and year alone never groups (two
    papers can share a title); such look-alikes are listed in ``CitingWork.unlinked`` with why
    they were kept apart.
    """
    parent = list(range(len(inbound)))
    reasons: dict[int, list[str]] = {}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(i: int, j: int, why: str) -> None:
        ri, rj = find(i), find(j)
        if ri == rj:
            return
        parent[rj] = ri
        reasons.setdefault(ri, []).extend([*reasons.pop(rj, []), why])

    # 1. Identifiers: one work key (exact identifier, arXiv versions, arXiv DataCite DOIs).
    first_by_key: dict[str, tuple[int, Identifier]] = {}
    for i, obs in enumerate(inbound):
        for ident in obs.citing.identifiers:
            key = work_key(ident)
            if key in first_by_key:
                j, other = first_by_key[key]
                union(j, i, _link_reason(other, ident))
            else:
                first_by_key[key] = (i, ident)
    # 2. Relations a source asserted (preprint of / has preprint / version of).
    for i, obs in enumerate(inbound):
        for rel in obs.citing.related:
            hit = first_by_key.get(work_key(rel.identifier))
            if hit is None:
                continue
            if rel.kind in (RelationKind.PREPRINT_OF, RelationKind.HAS_PREPRINT):
                why = f"preprint and published version ({rel.kind.value} {rel.identifier}"
            else:
                why = f"versions of one work ({rel.kind.value} {rel.identifier}"
            why += f", asserted by {rel.source})" if rel.source else ")"
            union(hit[0], i, why)
    # 3. Same title (at least four words) and year, and a shared author family name.
    by_title: dict[str, list[int]] = {}
    for i, obs in enumerate(inbound):
        title = _norm_title(obs.citing.title)
        # Generic short titles ("Editorial", "Reply to comment") are never matched on title.
        if len(title.split()) >= 4:
            by_title.setdefault(title, []).append(i)
    lookalikes: dict[int, list[tuple[int, str]]] = {}
    for members in by_title.values():
        for pos, i in enumerate(members):
            pi = inbound[i].citing
            for j in members[:pos]:
                pj = inbound[j].citing
                if find(i) == find(j):
                    continue
                shared = sorted(_families(pi) & _families(pj))
                if pi.year is not None and pi.year == pj.year and shared:
                    union(j, i, f"same title and year ({pi.year}) and shared author {shared[0]}")
                    continue
                pos_i, pos_j = inbound[i].position, inbound[j].position
                years_clash = pi.year is not None and pj.year is not None and pi.year != pj.year
                authors_clash = bool(_families(pi) and _families(pj)) and not shared
                if pos_i is not None and pos_i == pos_j and not years_clash and not authors_clash:
                    # One title citing this paper at the same reference number: the seed's "same
                    # citing paper seen twice" (two link tables, two states), not two papers.
                    union(j, i, f"same title and same reference number ({pos_i}) citing this paper")
                    continue
                if pi.year is None or pj.year is None:
                    why = "year unknown"
                elif pi.year != pj.year:
                    why = f"years differ ({pj.year}, {pi.year})"
                elif not _families(pi) or not _families(pj):
                    why = "author list unknown"
                else:
                    why = "no shared author"
                lookalikes.setdefault(i, []).append((j, why))
                lookalikes.setdefault(j, []).append((i, why))
    groups: dict[int, list[int]] = {}
    for i in range(len(inbound)):
        groups.setdefault(find(i), []).append(i)
    works: list[CitingWork] = []
    bests: dict[int, Paper] = {}
    for root, members in groups.items():
        papers = [inbound[i].citing for i in members]
        best = max(papers, key=lambda p: (len(p.identifiers), bool(p.authors), bool(p.year)))
        if len(papers) > 1:
            # Every version's identifiers and areas (OpenAlex topics, arXiv categories, S2
            # fields), so the area filter and lookups find the work by any of them.
            best = attrs.evolve(
                best,
                identifiers=_unique(i for p in [best, *papers] for i in p.identifiers),
                areas=_merge_names([p.areas for p in [best, *papers]]),
            )
        bests[root] = best
    for root, members in sorted(groups.items(), key=lambda kv: kv[1][0]):
        papers = [inbound[i].citing for i in members]
        best = bests[root]
        obs_ids = _merge_names([[inbound[i].id] for i in members])
        srcs = _merge_names([[inbound[i].source] for i in members])
        merged: list[str] = []
        if len(members) > 1:
            becauses = list(dict.fromkeys(reasons.get(root, []))) or ["identical citing paper"]
            merged = [f"{len(members)} observations of one citing work: " + "; ".join(becauses)]
        unlinked: dict[int, str] = {}
        for i in members:
            for k, apart in lookalikes.get(i, []):
                their = find(k)
                if their != root:
                    # Named by its first observation: look-alikes can share a title key.
                    first = inbound[groups[their][0]].id
                    unlinked.setdefault(
                        their,
                        f"same title as the citing work of observation {first}, "
                        f"not grouped ({apart}; no identifier, relation or shared author "
                        "links them)",
                    )
        self_cite, shared_names = _shared_authors(paper, best)
        measured: list[Measurement] = []
        for p in papers:
            for key in (p.key, *sorted(p.work_keys)):
                for m in counts.get(key, []):
                    if m not in measured:
                        measured.append(m)
        works.append(
            CitingWork(
                key=best.key,
                paper=best,
                observations=obs_ids,
                sources=srcs,
                grouping=tuple(merged),
                self_citation=self_cite,
                shared_authors=shared_names,
                cited_by=tuple(measured),
                unlinked=tuple(unlinked.values()),
            )
        )
    return works


def _citing_count_disagreement(work: CitingWork) -> Disagreement | None:
    """Sources that count one citing work differently (each source's own figure, never mixed)."""
    per_source: dict[str, Measurement] = {}
    for m in work.cited_by:
        if m.source not in per_source:
            best = work.count(m.source)
            if best is not None:
                per_source[m.source] = best
    if len(per_source) < 2 or len({m.value for m in per_source.values()}) < 2:
        return None
    return Disagreement(
        topic="citing work's cited_by count",
        subject=work.key,
        claims=tuple(
            Claim(source=m.source, value=f"{m.value:,}", observed=m.observed)
            for m in per_source.values()
        ),
    )


#: How each source's first listed area is named in an area profile's explanation.
_PLACEMENT = {
    "openalex": "OpenAlex primary topic",
    "arxiv": "arXiv primary category",
    "semanticscholar": "Semantic Scholar field of study",
}


def _derived_area_profiles(
    works: Sequence[CitingWork],
    descriptions: Sequence[Paper],
    inbound: Sequence[Observation],
    *,
    offered: set[str],
) -> list[AreaProfile]:
    """Area profiles from the itemized citing papers, one per source that gave their areas.

    Each citing paper counts once, in the first area its source lists (OpenAlex's primary
    topic, arXiv's primary category); the paper's own placement is the first area the *same*
    source gives it, so one vocabulary is compared with itself. Sources that already offered
    a profile (through ``area_profile()``) are left alone.
    """
    by_id = {o.id: o for o in inbound}
    out: list[AreaProfile] = []
    sources = _merge_names(w.sources for w in works)
    for src in sources:
        if src in offered:
            continue
        counts: dict[str, int] = {}
        observed: dt.datetime | None = None
        for w in works:
            mine = [by_id[i] for i in w.observations if i in by_id and by_id[i].source == src]
            areas = next((o.citing.areas for o in mine if o.citing.areas), ())
            if not areas:
                continue
            counts[areas[0]] = counts.get(areas[0], 0) + 1
            latest = max(o.observed for o in mine)
            observed = latest if observed is None else max(observed, latest)
        own = next((d for d in descriptions if d.source == src), None)
        if not counts or observed is None or own is None or not own.areas:
            # Without the same source's placement of the paper there is nothing to compare.
            continue
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        out.append(
            AreaProfile(
                source=src,
                observed=observed,
                citing=ranked,
                own_placement=own.areas[0],
                placement_method=_PLACEMENT.get(src, f"{src} first listed area"),
            )
        )
    return out


def _combine_checks(checks: Sequence[NoticeCheck], subject: Identifier | None) -> NoticeCheck:
    found = [c for c in checks if c.status is NoticeStatus.EVENTS_FOUND]
    clean = [c for c in checks if c.status is NoticeStatus.NONE_FOUND]
    # The combined check names only the sources it rests on; what the others said (a source
    # that could not be asked, a found check's own note) is kept in its reason.
    notes = [c.reason for c in found if c.reason] + [
        f"{', '.join(c.sources) or 'a source'} unavailable: {c.reason}"
        for c in checks
        if c.status is NoticeStatus.UNAVAILABLE
    ]
    reason = "; ".join(dict.fromkeys(notes)) or None
    if found:
        events = tuple(e for c in found for e in c.events)
        times = [c.checked for c in found if c.checked is not None]
        return NoticeCheck(
            status=NoticeStatus.EVENTS_FOUND,
            events=events,
            sources=_merge_names(c.sources for c in found),
            checked=max(times) if times else None,
            subject=subject,
            reason=reason,
        )
    if clean:
        times = [c.checked for c in clean if c.checked is not None]
        return attrs.evolve(
            NoticeCheck.none_found(
                sources=_merge_names(c.sources for c in clean), checked=max(times), subject=subject
            ),
            reason=reason,
        )
    reasons = "; ".join(dict.fromkeys(c.reason or "" for c in checks)) if checks else ""
    return NoticeCheck.unavailable(
        reasons or "no named source can report events",
        sources=_merge_names(c.sources for c in checks),
        subject=subject,
    )


def _retraction_date(check: NoticeCheck) -> tuple[bool, dt.date | None]:
    dates = [e.date for e in check.events if e.kind is EventKind.RETRACTION]
    if not dates:
        return False, None
    known = [d for d in dates if d is not None]
    return True, (min(known) if known else None)


def _notice_disagreement(work: str, checks: Sequence[NoticeCheck]) -> Disagreement | None:
    verdicts: dict[str, str] = {}
    claims: list[Claim] = []
    for c in checks:
        if c.status is NoticeStatus.UNAVAILABLE:
            continue
        retracted = c.retracted
        value = (
            "retraction found"
            if retracted
            else (
                "events found, no retraction"
                if c.status is NoticeStatus.EVENTS_FOUND
                else "no event found"
            )
        )
        for s in c.sources:
            verdicts[s] = "retracted" if retracted else "not retracted"
            claims.append(Claim(source=s, value=value, observed=c.checked))
    if len(set(verdicts.values())) > 1:
        return Disagreement(topic="retraction status", subject=work, claims=tuple(claims))
    return None


def _measurement_disagreements(
    measurements: Sequence[Measurement], subject: str
) -> list[Disagreement]:
    out: list[Disagreement] = []
    by_kind: dict[str, list[Measurement]] = {}
    for m in measurements:
        by_kind.setdefault(m.kind.value, []).append(m)
    for kind, ms in by_kind.items():
        if len({m.source for m in ms}) > 1 and len({m.value for m in ms}) > 1:
            out.append(
                Disagreement(
                    topic=f"{kind} count",
                    subject=subject,
                    claims=tuple(
                        Claim(source=m.source, value=f"{m.value:,}", observed=m.observed)
                        for m in ms
                    ),
                )
            )
    return out


def build_record(
    paper_id: Identifier | str,
    sources: Iterable[Source] | SourceRegistry | Source,
    *,
    resolver: Resolver | None = None,
    now: dt.datetime | str | None = None,
    inbound_cap: int | None = None,
    network: bool = False,
    progress: Progress = None,
) -> CitationRecord:
    """Compose what ``sources`` say about one paper into a :class:`CitationRecord`.

    Nothing a source does aborts the record: a failure, a missing capability, an error while
    paging or an unknown paper becomes a :class:`SourceReport` and a coverage entry that says what
    could not be measured and why. Everything fetched is kept.

    Within one call each distinct request is sent once (sources that offer
    ``with_transport()`` send through a per-build memo), and each (source, capability,
    identifier) is asked once; nothing is remembered between calls.

    Args:
        paper_id: The paper (an identifier or any string :func:`~citeledger.parse_identifier`
            accepts). A malformed id still gives a record, which says so.
        sources: Source instances (or a :class:`~citeledger.SourceRegistry`); asked in order.
        resolver: Resolves the paper's references (a :class:`~citeledger.Resolver` over your
            catalog). Default: an empty catalog, so nothing verifies without ``network``.
        now: The record's "as of" time (aware); default the current UTC time.
        inbound_cap: Itemize at most this many inbound observations per source (the disclosed
            page cap).
        network: Also resolve references against candidates from the sources' identifier lookups
            and searches (verified by the resolver's same rules).
        progress: ``None`` (quiet), ``True`` (a tqdm bar when interactive) or ``fn(done, total)``;
            ``done`` counts source calls, references resolved and inbound observations
            received; ``total`` is None (how many citing papers there are is only known once the
            sources have been paged).

    Returns:
        The record.

    .. versionadded:: 0.1.0
    .. versionchanged:: 0.1.0
       ``progress``; one request per distinct request and one call per (source, capability,
       identifier) within a build.
    """
    built = utc(now) if now is not None else dt.datetime.now(dt.UTC)
    if inbound_cap is not None and inbound_cap < 0:
        raise ValueError("inbound_cap must be >= 0")
    given = _as_sources(sources)
    requested = paper_id if isinstance(paper_id, str) else str(paper_id)
    try:
        ident = parse_identifier(paper_id) if isinstance(paper_id, str) else paper_id
    except InvalidIdentifier as exc:
        return _malformed_record(
            requested, exc, srcs=given, built=built, cap=inbound_cap, network=network
        )
    advance, close = progress_callback(progress, total=None, desc="building record")
    try:
        return _build(
            ident,
            requested,
            [_with_memo_transport(s) for s in given],
            resolver=resolver,
            built=built,
            inbound_cap=inbound_cap,
            network=network,
            advance=advance,
        )
    finally:
        close()


def _build(
    ident: Identifier,
    requested: str,
    srcs: list[Source],
    *,
    resolver: Resolver | None,
    built: dt.datetime,
    inbound_cap: int | None,
    network: bool,
    advance: Callable[[int], None],
) -> CitationRecord:
    reports: list[SourceReport] = []
    caller = _Caller(reports, advance)

    # -- the paper ----------------------------------------------------------------------
    descriptions: list[Paper] = []
    for src in srcs:
        ok, p, _ = caller.call(src, Capability.PAPER, "paper", ident)
        if ok and p is None:
            reports.append(
                SourceReport(source=src.name, capability="paper", outcome=Outcome.NOT_FOUND)
            )
        elif ok and p is not None:
            desc = p if p.source else attrs.evolve(p, source=src.name)
            descriptions.append(desc)
            reports.append(
                SourceReport(source=src.name, capability="paper", outcome=Outcome.OK, fetched=1)
            )
    paper = _merge_papers(ident, descriptions)
    light = Paper(
        identifiers=paper.identifiers, title=paper.title, year=paper.year, date=paper.date
    )
    subject = str(ident)
    disagreements: list[Disagreement] = _paper_disagreements(descriptions, subject)

    # -- outbound: references, resolved --------------------------------------------------
    ref_lists: list[tuple[Source, list[Reference]]] = []
    ref_names: list[tuple[str, ...]] = []
    for src in srcs:
        ok, refs, _ = caller.call(src, Capability.REFERENCES, "references", ident)
        if ok:
            refs = list(refs or [])
            ref_lists.append((src, refs))
            ref_names.append(_provenance(src, ident, Capability.REFERENCES))
            unread = _unreadable_references(src.name, refs)
            reports.append(
                SourceReport(
                    source=src.name,
                    capability="references",
                    outcome=Outcome.PARTIAL if unread else Outcome.OK,
                    fetched=len(refs) - len(unread),
                    total=len(refs),
                    unreadable=unread,
                )
            )
    base = resolver if resolver is not None else Resolver([])
    if network:
        providers = [_SourceCandidates(s, caller) for s in srcs]
        active = Resolver(None, config=base.config, providers=(*base.providers, *providers))
    else:
        active = base
    outbound: list[Observation] = []
    outbound_total = 0
    resolve_failures: list[str] = []
    for src, refs in ref_lists:
        outbound_total += len(refs)
        for ref in refs:
            try:
                res = active.resolve(ref)
            except Exception as exc:  # one bad reference must not cost the others
                resolve_failures.append(f"reference {ref.position}: {type(exc).__name__}: {exc}")
                continue
            finally:
                advance(1)
            outbound.append(
                Observation(
                    direction=Direction.OUTBOUND,
                    citing=light,
                    cited=res.target,
                    position=ref.position,
                    reference=ref,
                    resolution=res,
                    source=src.name,
                    observed=built,
                )
            )

    # -- inbound ------------------------------------------------------------------------
    inbound: list[Observation] = []
    seen_obs: set[Observation] = set()
    cit_names: list[tuple[str, ...]] = []
    inbound_reasons: list[str] = []
    inbound_total: int | None = 0
    totals_by_source: list[Claim] = []
    citing_counts: dict[str, list[Measurement]] = {}
    source_ids: list[SourceIdentity] = []
    cited_by_year: list[CitedByYear] = []
    area_profiles: list[AreaProfile] = []
    profiled: set[str] = set()
    for src in srcs:
        counted = callable(getattr(src, "citations_with_counts", None))
        method = "citations_with_counts" if counted else "citations"
        ok, it, _ = caller.call(src, Capability.CITATIONS, method, ident, memo=False)
        if not ok or it is None:
            continue
        raw, capped, error, complete = _iterate(it, inbound_cap, advance)
        announced = it.total if isinstance(it, Paged) else None
        unread = tuple(it.skipped) if isinstance(it, Paged) else ()
        items: list[Observation] = []
        for item in raw:
            if isinstance(item, CountedCitation):
                items.append(item.observation)
                for m in item.cited_by:
                    citing_counts.setdefault(item.observation.citing.key, []).append(m)
            else:
                items.append(item)
        fetched = len(items)
        if error is not None and fetched == 0:
            # Nothing came before the failure: the listing was not measured at all. A 404 on
            # the first page means the source does not know the work, not "partial, 0 received".
            reports.append(
                SourceReport(
                    source=src.name,
                    capability="citations",
                    outcome=Outcome.NOT_FOUND if _not_found(error) else Outcome.ERROR,
                    error=error.message,
                    error_type=type(error).__name__,
                    unreadable=unread,
                )
            )
            continue
        repeated = 0
        for obs in items:
            if obs in seen_obs:
                repeated += 1  # the very same observation again (paging overlap): kept once
                continue
            seen_obs.add(obs)
            inbound.append(obs)
        cit_names.append(_provenance(src, ident, Capability.CITATIONS))
        # Unreadable items were sent, so they count toward what there is to measure.
        sent = fetched + len(unread)
        src_total = (
            announced if announced is not None else (sent if complete and not capped else None)
        )
        if src_total is not None and src_total < sent:
            src_total = sent
        if announced is not None:
            totals_by_source.append(Claim(source=src.name, value=f"{announced:,}", observed=built))
        inbound_total = (
            None if inbound_total is None or src_total is None else inbound_total + src_total
        )
        outcome = (
            Outcome.OK
            if complete and error is None and not capped and not unread
            else Outcome.PARTIAL
        )
        reports.append(
            SourceReport(
                source=src.name,
                capability="citations",
                outcome=outcome,
                fetched=fetched,
                total=announced,
                capped=capped,
                error=(error.message if error is not None else None),
                error_type=(type(error).__name__ if error is not None else None),
                unreadable=unread,
            )
        )
        if unread:
            inbound_reasons.append(
                f"{src.name}: citing-paper items received but not itemized: "
                + describe_unreadable(unread)
            )
        if capped:
            inbound_reasons.append(
                f"{src.name}: stopped at the disclosed page cap of {inbound_cap:,}"
            )
        if error is not None:
            inbound_reasons.append(
                f"{src.name}: paging stopped after {fetched:,} by "
                f"{type(error).__name__} ({error.message})"
            )
        elif not capped and announced is not None and sent < announced:
            inbound_reasons.append(
                f"{src.name} itemizes {fetched:,} of the {announced:,} citing papers it counts"
            )
        if repeated:
            inbound_reasons.append(f"{src.name}: {repeated:,} repeated observations kept once")
    # Optional paper-page hooks, asked of every source (a source may offer a per-year series
    # without itemizing citing papers).
    for src in srcs:
        for hook_name in ("observation_ids", "citing_counts", "cited_by_year", "area_profile"):
            hook = getattr(src, hook_name, None)
            if not callable(hook):
                continue
            ok, value, _ = caller.call(src, None, hook_name, ident)
            if not ok or not value:
                continue
            if hook_name == "observation_ids":
                source_ids.extend(
                    SourceIdentity(observation=k, source=src.name, source_id=v)
                    for k, v in value.items()
                )
            elif hook_name == "citing_counts":
                for k, m in value.items():
                    citing_counts.setdefault(k, []).append(m)
            elif hook_name == "cited_by_year":
                cited_by_year.append(value)
            else:
                area_profiles.append(value)
                profiled.add(src.name)
    if len({c.value for c in totals_by_source}) > 1:
        disagreements.append(
            Disagreement(
                topic="citing-paper total", subject=subject, claims=tuple(totals_by_source)
            )
        )
    cby_totals = [
        Claim(source=c.source, value=f"{c.total:,}", observed=c.observed) for c in cited_by_year
    ]
    if len({c.value for c in cby_totals}) > 1:
        disagreements.append(
            Disagreement(topic="cited-by per year total", subject=subject, claims=tuple(cby_totals))
        )
    citing_works = _group_citing(paper, inbound, citing_counts)
    for w in citing_works:
        dis = _citing_count_disagreement(w)
        if dis is not None:
            disagreements.append(dis)
    area_profiles.extend(
        _derived_area_profiles(citing_works, descriptions, inbound, offered=profiled)
    )

    # -- external measurements -------------------------------------------------------------
    measurements: list[Measurement] = []
    measurement_failures: list[str] = []
    for src in srcs:
        ok, ms, failure = caller.call(src, Capability.CITATION_COUNTS, "citation_counts", ident)
        if ok:
            ms = list(ms or [])
            measurements.extend(ms)
            reports.append(
                SourceReport(
                    source=src.name,
                    capability="citation_counts",
                    outcome=Outcome.OK,
                    fetched=len(ms),
                )
            )
        elif failure is not None and failure.outcome in (Outcome.ERROR, Outcome.NOT_FOUND):
            measurement_failures.append(failure.describe())
    disagreements.extend(_measurement_disagreements(measurements, subject))

    # -- standing notices, one hop out ---------------------------------------------------------
    event_sources = [
        s for s in srcs if Capability.EVENTS in getattr(s, "capabilities", frozenset(Capability))
    ]
    work_checks: dict[str, WorkNotices] = {}

    def check_work(target: Paper) -> WorkNotices:
        key = target.key
        if key in work_checks:
            return work_checks[key]
        target_id = _best_identifier(target)
        checks: list[NoticeCheck] = []
        if target_id is None:
            outcome = NoticeCheck.unavailable("the cited work has no identifier to check")
        else:
            for src in event_sources:
                ok, check, failure = caller.call(
                    src, Capability.EVENTS, "events", target_id, subject=str(target_id)
                )
                if ok and check is not None:
                    checks.append(check)
                elif failure is not None and failure.outcome in (Outcome.ERROR, Outcome.NOT_FOUND):
                    checks.append(
                        NoticeCheck.unavailable(
                            f"{failure.source}: {failure.error_type or failure.outcome.value}: "
                            f"{failure.error}",
                            sources=(src.name,),
                            subject=target_id,
                        )
                    )
            outcome = _combine_checks(checks, target_id)
        wn = WorkNotices(work=key, subject=target_id, checks=tuple(checks), outcome=outcome)
        work_checks[key] = wn
        dis = _notice_disagreement(key, checks)
        if dis is not None:
            disagreements.append(dis)
        return wn

    notices: list[ObservationNotice] = []
    for obs in (*outbound, *inbound):
        if obs.resolution is not None:
            target = obs.resolution.target
        else:
            target = obs.cited if obs.cited is not None and obs.cited.identifiers else None
        if target is None:
            notices.append(
                ObservationNotice(
                    observation=obs.id, check=NoticeCheck.unavailable(LINK_UNAVAILABLE)
                )
            )
            continue
        wn = check_work(target)
        retracted, when = _retraction_date(wn.outcome)
        if wn.outcome.status is NoticeStatus.UNAVAILABLE:
            after: bool | None = None
        elif not retracted:
            after = False
        else:
            citing = paper if obs.direction is Direction.OUTBOUND else obs.citing
            after = _after(citing, when)
        notices.append(
            ObservationNotice(
                observation=obs.id, work=wn.work, check=wn.outcome, after_retraction=after
            )
        )

    # -- coverage vector -----------------------------------------------------------------------
    coverage = [
        _ref_coverage(
            outbound=outbound,
            total=outbound_total,
            ref_lists=ref_lists,
            names=ref_names,
            reports=reports,
            resolve_failures=resolve_failures,
            built=built,
        ),
        _notice_coverage(notices, reports, bool(event_sources)),
        _inbound_coverage(
            inbound=inbound,
            total=inbound_total,
            names=cit_names,
            reports=reports,
            reasons=inbound_reasons,
            cap=inbound_cap,
        ),
        _measurement_coverage(measurements, measurement_failures, reports),
    ]
    return CitationRecord(
        requested=requested,
        paper=paper,
        built=built,
        paper_descriptions=tuple(descriptions),
        coverage=tuple(coverage),
        outbound=tuple(outbound),
        outbound_total=outbound_total,
        inbound=tuple(inbound),
        citing_works=tuple(citing_works),
        notices=tuple(notices),
        work_notices=tuple(work_checks.values()),
        measurements=tuple(measurements),
        disagreements=tuple(disagreements),
        reports=tuple(reports),
        cited_by_year=tuple(cited_by_year),
        area_profiles=tuple(area_profiles),
        source_ids=tuple(source_ids),
        inbound_cap=inbound_cap,
        network=network,
    )


def _is_unreadable(ref: Reference) -> bool:
    return any(k == UNREADABLE for k, _ in ref.extra)


def _unreadable_references(source: str, refs: Sequence[Reference]) -> tuple[UnreadableItem, ...]:
    """The reference entries a source kept at their positions although it could not read them."""
    return tuple(
        UnreadableItem.of(
            source,
            "reference entry",
            None if ref.position is None else ref.position - 1,
            ref.get_extra(UNREADABLE) or "unreadable",
            ref.raw or ref.key,
        )
        for ref in refs
        if _is_unreadable(ref)
    )


def _failures(reports: Sequence[SourceReport], capability: str) -> list[str]:
    return [
        r.describe()
        for r in reports
        if r.capability == capability
        and r.subject is None
        and r.outcome in (Outcome.ERROR, Outcome.NOT_FOUND)
    ]


def _asked(reports: Sequence[SourceReport], capability: str) -> bool:
    return any(r.capability == capability and r.outcome is not Outcome.UNSUPPORTED for r in reports)


def _ref_coverage(
    *,
    outbound: Sequence[Observation],
    total: int,
    ref_lists: Sequence[tuple[Source, list[Reference]]],
    names: Sequence[tuple[str, ...]],
    reports: Sequence[SourceReport],
    resolve_failures: Sequence[str],
    built: dt.datetime,
) -> Coverage:
    facet = Facet.REFERENCE_RESOLUTION
    failures = [*_failures(reports, "references"), *resolve_failures]
    failures += [
        f"{r.source}: reference entries that could not be read: "
        + describe_unreadable(r.unreadable)
        for r in reports
        if r.capability == "references" and r.subject is None and r.unreadable
    ]
    srcs = _merge_names(names)
    if not ref_lists:
        reason = "; ".join(failures) or "no named source can list the paper's references"
        return Coverage(
            facet=facet,
            measured=0,
            total=None if failures else 0,
            sources=srcs,
            state=CoverageState.UNAVAILABLE,
            reason=reason,
        )
    # An entry kept only as "unreadable" has an observation but nothing was resolved from it.
    measured = sum(1 for o in outbound if o.reference is None or not _is_unreadable(o.reference))
    observed = built if total else None
    if failures:
        return Coverage(
            facet=facet,
            measured=measured,
            total=total,
            sources=srcs,
            observed=observed,
            state=CoverageState.PARTIAL,
            reason="; ".join(failures),
        )
    if total == 0:
        return Coverage(
            facet=facet,
            measured=0,
            total=0,
            sources=srcs,
            state=CoverageState.NOTHING_TO_MEASURE,
            note="no reference list yet",
        )
    return Coverage(
        facet=facet,
        measured=measured,
        total=total,
        sources=srcs,
        observed=observed,
        state=CoverageState.COMPLETE,
    )


def _notice_coverage(
    notices: Sequence[ObservationNotice], reports: Sequence[SourceReport], any_source: bool
) -> Coverage:
    facet = Facet.STANDING_NOTICES
    total = len(notices)
    measured_n = [
        n
        for n in notices
        if n.check.status is not NoticeStatus.UNAVAILABLE or n.check.reason == LINK_UNAVAILABLE
    ]
    sources = _merge_names(n.check.sources for n in measured_n)
    times = [n.check.checked for n in measured_n if n.check.checked is not None]
    observed = max(times) if times else None
    no_link = sum(1 for n in notices if n.check.reason == LINK_UNAVAILABLE)
    note = (
        f"{no_link:,} of {total:,} observations have no canonical work link, "
        "so no event check applies to them"
        if no_link
        else None
    )
    if total == 0:
        return Coverage(
            facet=facet,
            measured=0,
            total=0,
            sources=sources,
            state=CoverageState.NOTHING_TO_MEASURE,
        )
    measured_ids = {id(n) for n in measured_n}
    unmeasured = [n for n in notices if id(n) not in measured_ids]
    if not unmeasured:
        return Coverage(
            facet=facet,
            measured=total,
            total=total,
            sources=sources,
            observed=observed,
            state=CoverageState.COMPLETE,
            note=note,
        )
    reasons = list(dict.fromkeys(n.check.reason or "" for n in unmeasured))
    if not any_source:
        reasons = ["no named source can report events"]
    reason = f"{len(unmeasured):,} checks unavailable: " + "; ".join(reasons)
    state = CoverageState.UNAVAILABLE if not measured_n else CoverageState.PARTIAL
    del reports
    return Coverage(
        facet=facet,
        measured=len(measured_n),
        total=total,
        sources=sources,
        observed=observed,
        state=state,
        reason=reason,
        note=note,
    )


def _inbound_coverage(
    *,
    inbound: Sequence[Observation],
    total: int | None,
    names: Sequence[tuple[str, ...]],
    reports: Sequence[SourceReport],
    reasons: Sequence[str],
    cap: int | None,
) -> Coverage:
    facet = Facet.INBOUND_ITEMIZATION
    failures = _failures(reports, "citations")
    srcs = _merge_names(names)
    note = f"under the disclosed page cap of {cap:,}" if cap is not None else None
    observed = max((o.observed for o in inbound), default=None)
    measured = len(inbound)
    if total is not None and total < measured:
        total = measured
    if not names:
        reason = "; ".join(failures) or "no named source can list citing papers"
        return Coverage(
            facet=facet,
            measured=0,
            total=None,
            sources=srcs,
            state=CoverageState.UNAVAILABLE,
            reason=reason,
            note=note,
        )
    why = [*reasons, *failures]
    if why:
        return Coverage(
            facet=facet,
            measured=measured,
            total=total,
            sources=srcs,
            observed=observed,
            state=CoverageState.PARTIAL,
            reason="; ".join(why),
            note=note,
        )
    if measured == 0:
        return Coverage(
            facet=facet,
            measured=0,
            total=0,
            sources=srcs,
            state=CoverageState.NOTHING_TO_MEASURE,
            note=note,
        )
    return Coverage(
        facet=facet,
        measured=measured,
        total=total,
        sources=srcs,
        observed=observed,
        state=CoverageState.COMPLETE,
        note=note,
    )


def _measurement_coverage(
    measurements: Sequence[Measurement], failures: Sequence[str], reports: Sequence[SourceReport]
) -> Coverage:
    facet = Facet.EXTERNAL_CITATION_MEASUREMENTS
    sources = _merge_names([m.source] for m in measurements)
    observed = max((m.observed for m in measurements), default=None)
    measured = len(measurements)
    total = measured + len(failures)
    if failures and not measured:
        return Coverage(
            facet=facet,
            measured=0,
            total=total,
            sources=sources,
            state=CoverageState.UNAVAILABLE,
            reason="; ".join(failures),
        )
    if failures:
        return Coverage(
            facet=facet,
            measured=measured,
            total=total,
            sources=sources,
            observed=observed,
            state=CoverageState.PARTIAL,
            reason="; ".join(failures),
        )
    if not _asked(reports, "citation_counts"):
        return Coverage(
            facet=facet,
            measured=0,
            total=None,
            state=CoverageState.UNAVAILABLE,
            reason="no named source reports citation counts",
        )
    if measured == 0:
        return Coverage(
            facet=facet,
            measured=0,
            total=0,
            state=CoverageState.NOTHING_TO_MEASURE,
            note="no named source gave a count",
        )
    return Coverage(
        facet=facet,
        measured=measured,
        total=total,
        sources=sources,
        observed=observed,
        state=CoverageState.COMPLETE,
    )


def _malformed_record(
    requested: str,
    exc: InvalidIdentifier,
    *,
    srcs: Sequence[Source],
    built: dt.datetime,
    cap: int | None,
    network: bool,
) -> CitationRecord:
    reason = f"the paper id is malformed ({exc.reason}); no source was asked"
    reports = [
        SourceReport(
            source=s.name,
            capability="paper",
            outcome=Outcome.SKIPPED,
            error=reason,
            error_type=type(exc).__name__,
        )
        for s in srcs
    ]
    coverage = tuple(
        Coverage(facet=f, measured=0, total=None, state=CoverageState.UNAVAILABLE, reason=reason)
        for f in Facet
    )
    return CitationRecord(
        requested=requested,
        paper=Paper(),
        built=built,
        coverage=coverage,
        reports=tuple(reports),
        inbound_cap=cap,
        network=network,
    )
