"""A small offline source over embedded sample data: the two seed pages plus a worked example.

:class:`SampleSource` implements the :class:`~citeledger.sources.Source` protocol (and the
paper-page protocols such as :class:`~citeledger.sources.CitedByYearSource`) over
``sample_data.json``, which ships inside the package. It holds:

- ZeRO-Infinity, ``arXiv:2104.07857`` v1: its eight inbound citation observations exactly as the
  seed citation record lists them (the source's own observation ids, reference numbers, states,
  methods and observed times), the standing-notice outcome and the external count of 57 from
  ``arxiv_reference``; no reference list.
- ZeRO, ``arXiv:1910.02054``: metadata, citing papers per year 2021-2026 (1,301 in all), the 50
  most cited citing papers with their own counts, the area profile and the data-through date; no
  reference list.
- A synthetic demonstration paper (``doi:10.5555/citeledger.sample.0001``; 10.5555 is the DOI
  test prefix) whose twelve references to real works hit every resolution state against the
  embedded :meth:`SampleSource.catalog`.

Observation ids: every observation gets citeledger's deterministic UUIDv5 (over source, citing
work, cited work, reference position and resolution state and method). The seed's ids are the
source's *own* UUIDs; the sample hands them out through :meth:`SampleSource.observation_ids`
and the record keeps and shows them next to the deterministic ids. The seed's observations
name where they came from: linked ones (verified exact, metadata mismatch) come from
``paper_reference_links``, the unresolved ones ("no resolver link") from ``paper_references``
alone. The seed's duplicate (the same citing paper, reference 234, in two states) is two
observations with two ids, as it would be from one source.

>>> import citeledger as cl
>>> src = SampleSource()
>>> src.paper(ZERO_INFINITY).title
'ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme Scale Deep Learning'
>>> len(list(src.citations(ZERO_INFINITY)))
8

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import json
from importlib import resources
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz

from citeledger.errors import NotFoundError
from citeledger.identifiers import Identifier, find_identifiers, parse_identifier, work_key
from citeledger.model import (
    CheckStatus,
    Direction,
    InboundCheck,
    Measurement,
    Method,
    NoticeCheck,
    Observation,
    Paper,
    Reference,
    Resolution,
    ResolutionState,
    utc,
)
from citeledger.page import AreaProfile, CitedByYear
from citeledger.sources import Capability, Paged
from citeledger.sources._common import as_identifier
from citeledger.sources._protocols import CORE, PAGE_HOOKS

if TYPE_CHECKING:
    import datetime as dt
    from collections.abc import Iterator, Mapping

__all__ = ["DEMO", "ZERO", "ZERO_INFINITY", "SampleSource"]

#: ZeRO-Infinity, the paper of the seed citation record.
ZERO_INFINITY = "arXiv:2104.07857"
#: ZeRO, the paper of the seed paper page.
ZERO = "arXiv:1910.02054"
#: The synthetic demonstration paper with a reference list.
DEMO = "doi:10.5555/citeledger.sample.0001"

_PAGE_SIZE = 25  # small pages, so the sample exercises paging like a real source


def _load_data() -> dict[str, Any]:
    text = (
        resources.files("citeledger.sources")
        .joinpath("sample_data.json")
        .read_text(encoding="utf-8")
    )
    data: dict[str, Any] = json.loads(text)
    return data


def _paper(data: Mapping[str, Any], *, source: str | None = None) -> Paper:
    return Paper(**data, source=source)


def _reference(data: Mapping[str, Any]) -> Reference:
    fields = {k: v for k, v in data.items() if k != "expect"}
    raw = fields.get("raw")
    if raw:
        # Identifiers and malformed fragments come from the printed string, as a parser would
        # find them; the structured fields stand for what a parser extracted.
        found = find_identifiers(raw)
        fields.setdefault("identifiers", list(found.identifiers))
        fields.setdefault("malformed", list(found.malformed))
    return Reference(**fields)


class SampleSource:
    """A source over the embedded sample data; no network, deterministic.

    Args:
        data: Replace the embedded data (same layout as ``citeledger/sources/sample_data.json``).

    .. versionadded:: 0.1.0
    """

    name = "sample"
    #: Every capability a source's ``capabilities`` gate, and every page hook.
    capabilities = CORE | PAGE_HOOKS

    def __init__(self, *, data: Mapping[str, Any] | None = None) -> None:
        self._data: Mapping[str, Any] = data if data is not None else _load_data()
        self._entries: dict[str, Mapping[str, Any]] = {}
        for entry in self._data["papers"]:
            for ident in entry["paper"]["identifiers"]:
                self._entries[work_key(parse_identifier(ident))] = entry
        self._works: dict[str, Paper] = {}
        for raw in (*self._data["catalog"], *self._data.get("searchable", [])):
            paper = _paper(raw, source=self.name)
            for wk in paper.work_keys:
                self._works.setdefault(wk, paper)

    def __repr__(self) -> str:
        return f"<SampleSource papers={len(self._data['papers'])}>"

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _key(identifier: Identifier | str) -> str:
        return work_key(as_identifier(identifier))

    def _entry(self, identifier: Identifier | str) -> Mapping[str, Any] | None:
        return self._entries.get(self._key(identifier))

    def _stored(self, identifier: Identifier | str, key: str) -> Any:
        """The work's stored ``key`` (``events``, ``area_profile``, ...); None where absent."""
        entry = self._entry(identifier)
        return None if entry is None else entry.get(key)

    def _stored_page(
        self, identifier: Identifier | str, key: str, rows: str, *more: str
    ) -> dict[str, Any] | None:
        """The stored page value ``key``'s fields; None where absent.

        Its source, date and ``rows`` field (JSON arrays read as tuples), and the ``more`` fields
        as stored (None where missing).
        """
        raw = self._stored(identifier, key)
        if raw is None:
            return None
        fields = {
            "source": raw["source"],
            "observed": raw["observed"],
            rows: [tuple(r) for r in raw[rows]],
        }
        fields.update((name, raw.get(name)) for name in more)
        return fields

    def _require(self, identifier: Identifier | str, what: str) -> Mapping[str, Any]:
        entry = self._entry(identifier)
        if entry is None:
            raise NotFoundError(
                f"the embedded sample has no {what} for {identifier}", source=self.name, status=404
            )
        return entry

    # ------------------------------------------------------------------ Source protocol

    def paper(self, identifier: Identifier | str) -> Paper | None:
        """The sample's description of the work, or None if the sample does not know it."""
        entry = self._entry(identifier)
        if entry is not None:
            return _paper(entry["paper"], source=self.name)
        return self._works.get(self._key(identifier))

    def references(self, identifier: Identifier | str) -> list[Reference]:
        """The reference list (empty for the two seed papers: "no reference list yet").

        Raises:
            NotFoundError: the sample has no reference data for the work.
        """
        entry = self._require(identifier, "reference list")
        return [_reference(r) for r in entry["references"]]

    def citations(self, identifier: Identifier | str) -> Paged[Observation]:
        """Inbound observations, in pages of 25, with the total the sample announces.

        Raises:
            NotFoundError: the sample has no citation data for the work.
        """
        entry = self._require(identifier, "citation data")
        cited = _paper(entry["paper"], source=self.name)
        cited = Paper(identifiers=cited.identifiers, title=cited.title, year=cited.year)
        observations = [self._observation(raw, cited) for raw in entry["inbound"]]
        total = int(entry["inbound_total"])

        def pages() -> Iterator[tuple[list[Observation], int | None]]:
            for start in range(0, len(observations), _PAGE_SIZE):
                yield observations[start : start + _PAGE_SIZE], total

        return Paged(pages())

    def _observation(self, raw: Mapping[str, Any], cited: Paper) -> Observation:
        citing = Paper(**raw["citing"], source=self.name)
        resolution = None
        if raw.get("state"):
            state = ResolutionState(raw["state"])
            method = Method(raw["method"])
            # An unresolved observation has no link to the canonical work; the others point at it.
            target = None if state is ResolutionState.UNRESOLVED else cited
            reason = "as reported by the source" if target else "no resolver link"
            resolution = Resolution(state=state, method=method, target=target, reason=reason)
        return Observation(
            direction=Direction.INBOUND,
            citing=citing,
            cited=cited,
            position=raw.get("position"),
            resolution=resolution,
            source=raw.get("source", self.name),
            observed=raw["observed"],
            # The seed's states are its ledger's own checks of each citing paper's entry, made
            # at the observed time; the builder keeps them instead of checking again.
            check=InboundCheck(
                status=CheckStatus.CHECKED,
                source=self.name,
                checked=raw["observed"],
                reason="a stored check of the citing paper's entry (embedded sample)",
            ),
        )

    def events(self, identifier: Identifier | str) -> NoticeCheck:
        """The stored event check, or "unavailable" where the sample carries none."""
        raw = self._stored(identifier, "events")
        if raw is None:
            return NoticeCheck.unavailable(
                "the embedded sample carries no event data for this work",
                sources=(self.name,),
                subject=identifier,
            )
        return NoticeCheck(**raw, subject=identifier)

    def citation_counts(self, identifier: Identifier | str) -> list[Measurement]:
        """The stored external counts, each naming its own source and date."""
        entry = self._entry(identifier)
        if entry is None:
            return []
        return [Measurement(**m, subject=identifier) for m in entry["measurements"]]

    def search(self, query: Reference | str, *, limit: int = 10) -> list[Paper]:
        """Works of the sample whose titles resemble the query's (RapidFuzz token set ratio)."""
        title = query if isinstance(query, str) else (query.title or query.raw or "")
        if not title:
            return []
        scored = [
            (fuzz.token_set_ratio(title.casefold(), (p.title or "").casefold()), i, p)
            for i, p in enumerate(self._unique_works())
        ]
        scored = [s for s in scored if s[0] >= 60.0]
        scored.sort(key=lambda s: (-s[0], s[1]))
        return [p for _, _, p in scored[:limit]]

    def _unique_works(self) -> list[Paper]:
        out: list[Paper] = []
        for p in self._works.values():
            if p not in out:
                out.append(p)
        return out

    # ------------------------------------------------------------------ page extensions

    def provenance(
        self, identifier: Identifier | str, capability: Capability | str
    ) -> tuple[str, ...]:
        """The stored tables behind a capability ("paper_references", ...), for coverage lines."""
        entry = self._entry(identifier)
        if entry is None:
            return (self.name,)
        names = entry.get("provenance", {}).get(str(capability))
        return tuple(names) if names else (self.name,)

    def observation_ids(self, identifier: Identifier | str) -> dict[str, str]:
        """The source's own ids of its observations, keyed by citeledger's deterministic id."""
        entry = self._entry(identifier)
        if entry is None:
            return {}
        cited = _paper(entry["paper"], source=self.name)
        cited = Paper(identifiers=cited.identifiers, title=cited.title, year=cited.year)
        return {
            self._observation(raw, cited).id: raw["source_id"]
            for raw in entry["inbound"]
            if raw.get("source_id")
        }

    def cited_by_year(self, identifier: Identifier | str) -> CitedByYear | None:
        """Citing papers per year as the sample's source counted them, if stored."""
        fields = self._stored_page(identifier, "cited_by_year", "counts", "through")
        return None if fields is None else CitedByYear(**fields, subject=as_identifier(identifier))

    def area_profile(self, identifier: Identifier | str) -> AreaProfile | None:
        """The stored area profile, if any."""
        fields = self._stored_page(
            identifier, "area_profile", "citing", "own_placement", "placement_method"
        )
        return None if fields is None else AreaProfile(**fields)

    def citing_counts(self, identifier: Identifier | str) -> dict[str, Measurement]:
        """Each citing paper's own citation count, keyed by the citing paper's work key."""
        entry = self._entry(identifier)
        if entry is None or not entry.get("citing_counts_source"):
            return {}
        out: dict[str, Measurement] = {}
        for raw in entry["inbound"]:
            if raw.get("cited_by") is None:
                continue
            citing = Paper(**raw["citing"])
            out[citing.key] = Measurement(
                value=raw["cited_by"],
                source=entry["citing_counts_source"],
                observed=raw["observed"],
            )
        return out

    # ------------------------------------------------------------------ conveniences

    def as_of(self, identifier: Identifier | str) -> dt.datetime:
        """The time the sample's snapshot of the work was taken (pass as ``now=``)."""
        return utc(self._require(identifier, "snapshot")["as_of"])

    def catalog(self) -> tuple[Paper, ...]:
        """The embedded catalog the demonstration paper's references resolve against."""
        return tuple(_paper(raw, source=self.name) for raw in self._data["catalog"])

    def expected_states(self, identifier: Identifier | str) -> dict[int, ResolutionState]:
        """The state each reference of the sample is meant to reach, by position (for tests)."""
        entry = self._require(identifier, "reference list")
        return {
            int(r["position"]): ResolutionState(r["expect"])
            for r in entry["references"]
            if r.get("expect")
        }
