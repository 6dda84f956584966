"""The typed data model of citeledger.

Every value is a frozen, slotted, keyword-only attrs class with tuple fields. ``__init__`` stays
dumb: converters tidy what users naturally pass (lists, plain strings, ISO times), validators check
invariants, and foreign formats (Crossref JSON, JATS XML, ...) go through the source adapters, never
through the model.

The ledger vocabulary follows the paper citation record (``pith.paper-citation-record.v1``): a
:class:`Resolution` has one of six :class:`ResolutionState` values; an :class:`Observation` is one
sighting of a citation by one source; a :class:`NoticeCheck` distinguishes "events found", "none
found in the named sources as of T" and "unavailable"; a :class:`Measurement` is one source's dated
count and is never combined with another source's.

The package holds one module per job: ``_enums`` (the string enums), ``_convert`` (the
converters and validators every value shares), ``_work`` (:class:`Author`, :class:`Relation`,
:class:`Paper`, :class:`Reference`), ``_observation`` (:class:`Evidence`, :class:`Resolution`,
:class:`InboundCheck`, :class:`Observation`) and ``_coverage`` (:class:`Event`,
:class:`NoticeCheck`, :class:`Measurement`, :class:`Coverage`). Import from here; the submodules
are private.

.. versionadded:: 0.1.0
.. versionchanged:: 0.2.0
   A package instead of one 1.5k-line module; every import path is unchanged.
"""

from __future__ import annotations

from citeledger.model._convert import NO_YEAR_WORDS as NO_YEAR_WORDS
from citeledger.model._convert import YEAR_RANGE as YEAR_RANGE

# The model's own converters and validators, which the page values, the resolver and the ledger's
# record reuse so that their fields accept and refuse exactly what the model does.
from citeledger.model._convert import _non_negative as _non_negative
from citeledger.model._convert import _opt_date as _opt_date
from citeledger.model._convert import _opt_utc as _opt_utc
from citeledger.model._convert import _strs as _strs
from citeledger.model._convert import utc
from citeledger.model._coverage import Coverage, Event, Measurement, NoticeCheck
from citeledger.model._enums import (
    Agreement,
    CheckStatus,
    CoverageState,
    Direction,
    EventKind,
    Facet,
    MeasurementKind,
    Method,
    NotChecked,
    NoticeStatus,
    RelationKind,
    ResolutionState,
    WorkType,
)
from citeledger.model._observation import (
    OBSERVATION_NAMESPACE,
    Evidence,
    InboundCheck,
    Observation,
    Resolution,
    replace,
)
from citeledger.model._work import Author, Paper, Reference, Relation

__all__ = [
    "OBSERVATION_NAMESPACE",
    "Agreement",
    "Author",
    "CheckStatus",
    "Coverage",
    "CoverageState",
    "Direction",
    "Event",
    "EventKind",
    "Evidence",
    "Facet",
    "InboundCheck",
    "Measurement",
    "MeasurementKind",
    "Method",
    "NotChecked",
    "NoticeCheck",
    "NoticeStatus",
    "Observation",
    "Paper",
    "Reference",
    "Relation",
    "RelationKind",
    "Resolution",
    "ResolutionState",
    "WorkType",
    "replace",
    "utc",
]
