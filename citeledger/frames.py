"""Resolutions, observations and citing papers as rows, pandas DataFrames and Arrow tables.

Three tables, each with a fixed, documented set of columns (the ``*_COLUMNS`` constants give
names and dtypes, in order). Column names are part of the public API: they only ever gain
columns at the end, and a rename is a breaking change.

* **resolutions**: one row per (reference, resolution) pair, from a list of pairs, from
  ``zip(refs, resolver.resolve_many(refs))``, or from a record's outbound observations;
* **observations**: one row per :class:`~citeledger.model.Observation` (a record's inbound and
  outbound sightings, each with its source and time);
* **citing papers**: one row per distinct citing work of a record.

The row functions (:func:`resolution_rows`, :func:`observation_rows`, :func:`citing_paper_rows`)
need nothing beyond citeledger; :func:`resolutions_frame` and friends need pandas (the ``pandas``
extra) and :func:`resolutions_table` and friends need pyarrow (the ``arrow`` extra).

Lists inside a cell (identifiers, areas, sources) are joined with a single space, so every
column is a scalar that CSV, Parquet, Spark and SQL all carry without a nested type.

Example:
    >>> import citeledger as cl
    >>> from citeledger.frames import resolution_rows
    >>> ref = cl.Reference(title="A study", year=2020, position=1)
    >>> res = cl.Resolution(state="unresolved", reason="no candidate")
    >>> row = resolution_rows([(ref, res)])[0]
    >>> row["position"], row["state"], row["verified"], row["reason"]
    (1, 'unresolved', False, 'no candidate')

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citeledger.model import Direction, Observation, Paper, Reference, Resolution

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    import pandas as pd
    import pyarrow as pa

__all__ = [
    "CITING_PAPER_COLUMNS",
    "OBSERVATION_COLUMNS",
    "REFERENCE_FIELDS",
    "RESOLUTION_COLUMNS",
    "RESULT_COLUMNS",
    "citing_paper_rows",
    "citing_papers_frame",
    "citing_papers_table",
    "observation_rows",
    "observations_frame",
    "observations_table",
    "reference_from_row",
    "resolution_rows",
    "resolutions_frame",
    "resolutions_table",
    "result_row",
]

# dtype names are pandas extension dtypes: nullable everywhere, identical on pandas 2 and 3.
_STR = "string"
_INT = "Int64"
_FLOAT = "Float64"
_BOOL = "boolean"
_TIME = "datetime64[ns, UTC]"

#: The resolution part of a row, shared by :func:`resolution_rows` and ``citeledger.dask``:
#: (name, pandas dtype) in order.
RESULT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("state", _STR),  # one of the six ResolutionState values, e.g. "verified_exact"
    ("verified", _BOOL),  # state is verified_exact or verified_fuzzy
    ("method", _STR),  # Method value ("doi", "arxiv_id", "fuzzy_title", ...) or null
    ("score", _FLOAT),  # 0-100 confidence of the decision
    ("target_key", _STR),  # Paper.key of the matched (or mismatching) work, or null
    ("target_title", _STR),
    ("target_year", _INT),
    ("target_identifiers", _STR),  # canonical "scheme:value" strings, space-separated
    ("alternatives", _STR),  # keys of runner-up candidates of an ambiguous outcome
    ("evidence", _STR),  # "field=agreement[:score]" items joined by "; "
    ("reason", _STR),  # why this state, in words
)

#: Columns of :func:`resolutions_frame`: the reference's fields, then :data:`RESULT_COLUMNS`.
RESOLUTION_COLUMNS: tuple[tuple[str, str], ...] = (
    ("position", _INT),  # 1-based position in the citing paper's list
    ("reference_key", _STR),  # the publisher's key ("ref1")
    ("reference_raw", _STR),  # the reference string as printed
    ("reference_title", _STR),
    ("reference_year", _INT),
    ("reference_identifiers", _STR),
    *RESULT_COLUMNS,
)

#: Columns of :func:`observations_frame`.
OBSERVATION_COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", _STR),  # deterministic UUIDv5 of the observation
    ("direction", _STR),  # "inbound" or "outbound"
    ("source", _STR),  # who reported it
    ("observed", _TIME),  # when (UTC)
    ("position", _INT),  # reference number in the citing paper
    ("citing_key", _STR),
    ("citing_title", _STR),
    ("citing_year", _INT),
    ("citing_identifiers", _STR),
    ("citing_areas", _STR),
    ("cited_key", _STR),
    ("cited_title", _STR),
    ("cited_year", _INT),
    ("cited_identifiers", _STR),
    ("reference_raw", _STR),
    ("reference_key", _STR),  # the entry's key or label in the citing paper's list ("ref56")
    ("state", _STR),
    ("method", _STR),
    ("score", _FLOAT),
    ("influential", _BOOL),
    ("intents", _STR),
    # The inbound check (null for outbound observations and unchecked ones):
    ("check", _STR),  # CheckStatus value: "checked", "not_checked" or "asserted"
    ("not_checked", _STR),  # NotChecked value: "no_source", "fetch_failed" or "cap"
    ("checked_with", _STR),  # whose reference list was read (or whose word it is)
    ("checked", _TIME),  # when the citing paper's list was read
    ("check_reason", _STR),
    # From a record only (null for plain observations):
    ("source_id", _STR),  # the source's own id of the observation, when it gave one
    ("notice", _STR),  # the cited work's standing-notice status (NoticeStatus value)
    ("after_retraction", _BOOL),  # cited after a retraction of the cited work, when known
)

#: Columns of :func:`citing_papers_frame`.
CITING_PAPER_COLUMNS: tuple[tuple[str, str], ...] = (
    ("rank", _INT),  # 1-based: by the works' own citation counts (a record), else first seen
    ("key", _STR),  # Paper.key of the citing work (one row per distinct work)
    ("title", _STR),
    ("year", _INT),
    ("identifiers", _STR),
    ("areas", _STR),  # arXiv categories / OpenAlex topics, space-separated
    ("cited_by", _INT),  # the citing paper's own citation count, when a source gave it
    ("cited_by_source", _STR),  # who gave that count
    ("observations", _INT),  # how many observations name this citing work
    ("sources", _STR),  # the sources of those observations
    ("states", _STR),  # their resolution states
    ("self_citation", _BOOL),  # shares an author with the cited paper, when known
    ("cited_by_observed", _TIME),  # when that count was observed
    ("grouping", _STR),  # why several observations are one work, joined by "; "
)

#: Reference fields that :func:`reference_from_row` reads, by default from same-named columns.
REFERENCE_FIELDS: tuple[str, ...] = (
    "raw",
    "position",
    "key",
    "title",
    "authors",
    "year",
    "venue",
    "volume",
    "issue",
    "first_page",
    "last_page",
    "identifiers",
)


# --------------------------------------------------------------------------- cells


def _join(values: Iterable[object]) -> str | None:
    text = " ".join(str(v) for v in values)
    return text or None


def _paper_cells(prefix: str, paper: Paper | None) -> dict[str, Any]:
    if paper is None:
        return {
            f"{prefix}key": None,
            f"{prefix}title": None,
            f"{prefix}year": None,
            f"{prefix}identifiers": None,
        }
    return {
        f"{prefix}key": paper.key,
        f"{prefix}title": paper.title,
        f"{prefix}year": paper.year,
        f"{prefix}identifiers": _join(paper.identifiers),
    }


def _evidence_cell(res: Resolution) -> str | None:
    items = []
    for ev in res.evidence:
        item = f"{ev.field}={ev.agreement.value}"
        if ev.score is not None:
            item += f":{ev.score:.1f}"
        items.append(item)
    return "; ".join(items) or None


def result_row(res: Resolution) -> dict[str, Any]:
    """The :data:`RESULT_COLUMNS` cells of one resolution, as a plain dict.

    Args:
        res: A resolution.

    Returns:
        A dict with exactly the keys of :data:`RESULT_COLUMNS`, in order.
    """
    target = _paper_cells("target_", res.target)
    return {
        "state": res.state.value,
        "verified": res.verified,
        "method": None if res.method is None else res.method.value,
        "score": float(res.score),
        **target,
        "alternatives": _join(p.key for p in res.alternatives),
        "evidence": _evidence_cell(res),
        "reason": res.reason or None,
    }


def _is_record(value: object) -> bool:
    """Duck-typed :class:`~citeledger.ledger.CitationRecord`: it has inbound/outbound tuples."""
    return hasattr(value, "inbound") and hasattr(value, "outbound")


def _record_observations(record: Any) -> list[Observation]:
    """A record's observations in ``to_records()`` order: outbound, then inbound."""
    return [*record.outbound, *record.inbound]


# --------------------------------------------------------------------------- rows


def resolution_rows(
    pairs: Iterable[tuple[Reference, Resolution]] | Any,
) -> list[dict[str, Any]]:
    """One row per (reference, resolution), with the :data:`RESOLUTION_COLUMNS` keys.

    Args:
        pairs: ``(Reference, Resolution)`` pairs (``zip(refs, resolutions)``), or a citation
            record, whose outbound observations are used.

    Returns:
        Plain dicts, in input order.
    """
    if _is_record(pairs):
        pairs = [
            (o.reference or Reference(position=o.position), o.resolution)
            for o in _record_observations(pairs)
            if o.direction is Direction.OUTBOUND and o.resolution is not None
        ]
    rows = []
    for ref, res in pairs:
        rows.append(
            {
                "position": ref.position,
                "reference_key": ref.key,
                "reference_raw": ref.raw,
                "reference_title": ref.title,
                "reference_year": ref.year,
                "reference_identifiers": _join(ref.identifiers),
                **result_row(res),
            }
        )
    return rows


def _check_cells(o: Observation) -> dict[str, Any]:
    c = o.check
    return {
        "check": None if c is None else c.status.value,
        "not_checked": None if c is None or c.not_checked is None else c.not_checked.value,
        "checked_with": None if c is None else c.source,
        "checked": None if c is None else c.checked,
        "check_reason": None if c is None else c.reason,
    }


def observation_rows(observations: Iterable[Observation] | Any) -> list[dict[str, Any]]:
    """One row per observation, with the :data:`OBSERVATION_COLUMNS` keys.

    Args:
        observations: Observations, or a citation record (all of its observations).

    Returns:
        Plain dicts, in input order.
    """
    notices: Mapping[str, Any] = {}
    source_ids: Mapping[str, str] = {}
    if _is_record(observations):
        record: Any = observations
        notices, source_ids = record.notice_index(), record.source_id_index()
        observations = _record_observations(record)
    rows = []
    for o in observations:
        res = o.resolution
        notice = notices.get(o.id)
        rows.append(
            {
                "id": o.id,
                "direction": o.direction.value,
                "source": o.source,
                "observed": o.observed,
                "position": o.position,
                **_paper_cells("citing_", o.citing),
                "citing_areas": _join(o.citing.areas),
                **_paper_cells("cited_", o.cited),
                "reference_raw": None if o.reference is None else o.reference.raw,
                "reference_key": None if o.reference is None else o.reference.key,
                "state": None if res is None else res.state.value,
                "method": None if res is None or res.method is None else res.method.value,
                "score": None if res is None else float(res.score),
                "influential": o.influential,
                "intents": _join(o.intents),
                **_check_cells(o),
                "source_id": source_ids.get(o.id),
                "notice": None if notice is None else notice.check.status.value,
                "after_retraction": None if notice is None else notice.after_retraction,
            }
        )
    return rows


def _citing_from_record(record: Any) -> list[dict[str, Any]]:
    """Rows in the record's ranking, each count from the ranking source (never mixed)."""
    ranking = record.ranking_source
    states = {o.id: o.state.value for o in record.inbound if o.state is not None}
    rows = []
    for rank, work in enumerate(record.ranked_citing(), start=1):
        m = work.count(ranking) if ranking else None
        rows.append(
            {
                "rank": rank,
                "key": work.key,
                "title": work.paper.title,
                "year": work.year,
                "identifiers": _join(work.paper.identifiers),
                "areas": _join(work.paper.areas),
                "cited_by": None if m is None else m.value,
                "cited_by_source": None if m is None else m.source,
                "observations": len(work.observations),
                "sources": _join(work.sources),
                "states": _join(dict.fromkeys(states[i] for i in work.observations if i in states)),
                "self_citation": work.self_citation,
                "cited_by_observed": None if m is None else m.observed,
                "grouping": "; ".join(work.grouping) or None,
            }
        )
    return rows


def citing_paper_rows(source: Iterable[Observation] | Any) -> list[dict[str, Any]]:
    """One row per distinct citing work, with the :data:`CITING_PAPER_COLUMNS` keys.

    Args:
        source: A citation record (rows follow its ranking by the citing works' own citation
            counts, as ``record.to_records("citing")`` does), or inbound observations, grouped
            here by the citing paper's key in first-seen order (no counts).

    Returns:
        Plain dicts, ``rank`` 1, 2, ...
    """
    if _is_record(source):
        return _citing_from_record(source)
    groups: dict[str, list[Observation]] = {}
    for o in source:
        groups.setdefault(o.citing.key, []).append(o)
    rows = []
    for rank, (key, group) in enumerate(groups.items(), start=1):
        paper = group[0].citing
        rows.append(
            {
                "rank": rank,
                "key": key,
                "title": paper.title,
                "year": paper.year,
                "identifiers": _join(paper.identifiers),
                "areas": _join(paper.areas),
                "cited_by": None,
                "cited_by_source": None,
                "observations": len(group),
                "sources": _join(dict.fromkeys(o.source for o in group)),
                "states": _join(dict.fromkeys(o.state.value for o in group if o.state)),
                "self_citation": None,
                "cited_by_observed": None,
                "grouping": None,
            }
        )
    return rows


def reference_from_row(
    row: Mapping[str, Any], *, columns: Mapping[str, str] | None = None
) -> Reference:
    """Build a :class:`~citeledger.model.Reference` from one table row.

    A row with only a ``raw`` string is parsed with :meth:`Reference.from_string`; a row with
    structured fields (title, authors, identifiers, ...) becomes a structured reference, keeping
    ``raw`` beside them. Missing values (None, NaN, ``pd.NA``, "") count as absent.

    Args:
        row: A mapping (a dict, a pandas row via ``row.to_dict()``).
        columns: Reference field -> column name, for columns named differently (e.g.
            ``{"raw": "citation"}``); unnamed fields are read from same-named columns.

    Returns:
        The reference.

    Example:
        >>> reference_from_row(
        ...     {"title": "Deep learning", "year": "2015", "authors": "LeCun Y"}
        ... ).year
        2015
    """
    names = {f: f for f in REFERENCE_FIELDS}
    if columns:
        unknown = set(columns) - set(REFERENCE_FIELDS)
        if unknown:
            msg = f"unknown reference fields {sorted(unknown)}; use {list(REFERENCE_FIELDS)}"
            raise ValueError(msg)
        names.update(columns)
    values = {f: _present(row.get(col)) for f, col in names.items()}
    raw = values.pop("raw")
    position = values.pop("position")
    if position is not None:
        position = int(position)
    structured = {k: v for k, v in values.items() if v is not None}
    if isinstance(structured.get("identifiers"), str):
        structured["identifiers"] = structured["identifiers"].split()
    if raw is not None and not structured:
        return Reference.from_string(str(raw), position=position)
    return Reference(raw=None if raw is None else str(raw), position=position, **structured)


def _present(value: object) -> Any:
    """None for every flavour of "missing" a table cell can hold."""
    if value is None:
        return None
    if isinstance(value, float) and value != value:  # NaN  # noqa: PLR0124
        return None
    if isinstance(value, str):
        return value if value.strip() else None
    if type(value).__name__ in {"NAType", "NaTType"}:
        return None
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()  # numpy scalars and arrays -> Python values
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# --------------------------------------------------------------------------- pandas / arrow


def _frame(rows: Sequence[Mapping[str, Any]], columns: tuple[tuple[str, str], ...]) -> pd.DataFrame:
    try:
        import pandas as pd  # noqa: PLC0415 - optional extra
    except ImportError as exc:  # pragma: no cover - exercised without the extra
        msg = "DataFrames need pandas: pip install 'citeledger[pandas]'"
        raise ImportError(msg) from exc
    names = [name for name, _ in columns]
    data = {name: [row.get(name) for row in rows] for name in names}
    frame = pd.DataFrame(data, columns=names)
    return frame.astype(dict(columns))


def _table(rows: Sequence[Mapping[str, Any]], columns: tuple[tuple[str, str], ...]) -> pa.Table:
    try:
        import pyarrow as pa  # noqa: PLC0415 - optional extra
    except ImportError as exc:  # pragma: no cover - exercised without the extra
        msg = "Arrow tables need pyarrow: pip install 'citeledger[arrow]'"
        raise ImportError(msg) from exc
    arrow_types = {
        _STR: pa.string(),
        _INT: pa.int64(),
        _FLOAT: pa.float64(),
        _BOOL: pa.bool_(),
        _TIME: pa.timestamp("us", tz="UTC"),
    }
    schema = pa.schema([(name, arrow_types[dtype]) for name, dtype in columns])
    data = {name: [row.get(name) for row in rows] for name, _ in columns}
    return pa.Table.from_pydict(data, schema=schema)


def resolutions_frame(pairs: Iterable[tuple[Reference, Resolution]] | Any) -> pd.DataFrame:
    """:func:`resolution_rows` as a pandas DataFrame with :data:`RESOLUTION_COLUMNS`."""
    return _frame(resolution_rows(pairs), RESOLUTION_COLUMNS)


def observations_frame(observations: Iterable[Observation] | Any) -> pd.DataFrame:
    """:func:`observation_rows` as a pandas DataFrame with :data:`OBSERVATION_COLUMNS`."""
    return _frame(observation_rows(observations), OBSERVATION_COLUMNS)


def citing_papers_frame(source: Iterable[Observation] | Any) -> pd.DataFrame:
    """:func:`citing_paper_rows` as a pandas DataFrame with :data:`CITING_PAPER_COLUMNS`."""
    return _frame(citing_paper_rows(source), CITING_PAPER_COLUMNS)


def resolutions_table(pairs: Iterable[tuple[Reference, Resolution]] | Any) -> pa.Table:
    """:func:`resolution_rows` as a pyarrow Table with :data:`RESOLUTION_COLUMNS`."""
    return _table(resolution_rows(pairs), RESOLUTION_COLUMNS)


def observations_table(observations: Iterable[Observation] | Any) -> pa.Table:
    """:func:`observation_rows` as a pyarrow Table with :data:`OBSERVATION_COLUMNS`."""
    return _table(observation_rows(observations), OBSERVATION_COLUMNS)


def citing_papers_table(source: Iterable[Observation] | Any) -> pa.Table:
    """:func:`citing_paper_rows` as a pyarrow Table with :data:`CITING_PAPER_COLUMNS`."""
    return _table(citing_paper_rows(source), CITING_PAPER_COLUMNS)
