"""Resolutions and sightings: :class:`Evidence`, :class:`Resolution`, :class:`Observation`."""

from __future__ import annotations

import datetime as dt  # noqa: TC003 - cattrs resolves the field annotations at run time
import uuid
from collections.abc import Callable, Iterable  # noqa: TC003 - cattrs resolves the field annotations at run time
from typing import Any

import attrs
from attrs import field, frozen

from citeledger.errors import ModelError
from citeledger.model._convert import (
    _opt_count,
    _opt_position,
    _opt_score,
    _opt_str,
    _opt_utc,
    _score,
    _strs,
    utc,
)
from citeledger.model._enums import (
    Agreement,
    CheckStatus,
    Direction,
    Method,
    NotChecked,
    ResolutionState,
)
from citeledger.model._work import Paper, Reference  # noqa: TC001 - cattrs resolves the field annotations at run time

#: Namespace of the deterministic observation ids (UUIDv5).
OBSERVATION_NAMESPACE = uuid.UUID("6b1c3f0e-5d0a-5c55-9d5e-6369746c6564")


# --------------------------------------------------------------------------- resolution


@frozen(kw_only=True)
class Evidence:
    """How one field of a reference compares with a candidate.

    Args:
        field: The field ("title", "authors", "year", "doi", ...).
        agreement: Agree, partial, disagree or missing.
        score: A 0-100 similarity, when one was computed.
        left: The reference's value, shortened.
        right: The candidate's value, shortened.
        note: Free explanation ("identifier not in catalog", "malformed DOI: ...").
    """

    field: str
    agreement: Agreement = attrs.field(converter=Agreement)
    score: float | None = attrs.field(default=None, converter=_opt_score)
    left: str | None = None
    right: str | None = None
    note: str | None = None


def _papers(values: Iterable[Paper] | None) -> tuple[Paper, ...]:
    return () if values is None else tuple(values)


def _evidence(values: Iterable[Evidence] | None) -> tuple[Evidence, ...]:
    return () if values is None else tuple(values)


def _opt_method(value: Method | str | None) -> Method | None:
    return None if value is None else Method(value)


@frozen(kw_only=True)
class Resolution:
    """The outcome of resolving one reference.

    Args:
        state: One of the six ledger states.
        method: By which identifier scheme, fuzzily, or "no resolver link".
        target: The matched work (also set for a metadata mismatch: the identifier's work).
        score: 0-100 confidence of the decision.
        evidence: Per-field agreement.
        reason: Why this state, in words.
        alternatives: Runner-up candidates named in an ambiguous outcome.
    """

    state: ResolutionState = field(converter=ResolutionState)
    method: Method | None = field(default=None, converter=_opt_method)
    target: Paper | None = None
    score: float = field(default=0.0, converter=_score)
    evidence: tuple[Evidence, ...] = field(default=(), converter=_evidence)
    reason: str = ""
    alternatives: tuple[Paper, ...] = field(default=(), converter=_papers)

    @property
    def verified(self) -> bool:
        """Whether the state claims a match (verified exact or verified fuzzy)."""
        return self.state.verified

    def evidence_for(self, name: str) -> Evidence | None:
        """The evidence about field ``name``, if any."""
        for ev in self.evidence:
            if ev.field == name:
                return ev
        return None


class _Deferred:
    """A field value made when first read: the resolver defers evidence and reasons this way.

    Most resolutions of a large batch are read for their state and target only; rendering every
    compared field as :class:`Evidence` and formatting the reason up front cost a fifth of an
    identifier lookup. The value, ``make(*args)``, is made once, on first access, and then kept
    in the slot, so a resolution still reads, compares, hashes, pickles and serialises as if it
    had been given the value (every one of those reads the attribute). ``make`` is a plain
    function and ``args`` its inputs, not a closure: a batch keeps every result until it ends,
    and a closure's cells are objects the garbage collector walks once each (a third of what
    a result leaves behind, measured).
    """

    __slots__ = ("args", "make")

    def __init__(self, make: Callable[..., object], *args: object) -> None:
        self.make = make
        self.args = args

    def value(self) -> Any:
        """The deferred value, made now (every call makes it again)."""
        return self.make(*self.args)


class _ReadOnce:
    """A slot's descriptor that turns a :class:`_Deferred` value into the value when read."""

    __slots__ = ("slot",)

    def __init__(self, slot: Any) -> None:
        self.slot = slot

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self.slot
        value = self.slot.__get__(obj, owner)
        if type(value) is _Deferred:
            value = value.value()
            self.slot.__set__(obj, value)
        return value

    def __set__(self, obj: object, value: object) -> None:
        self.slot.__set__(obj, value)

    def __delete__(self, obj: object) -> None:
        self.slot.__delete__(obj)


for _name in ("evidence", "reason"):
    setattr(Resolution, _name, _ReadOnce(Resolution.__dict__[_name]))
del _name


# --------------------------------------------------------------------------- observations


def _opt_not_checked(value: NotChecked | str | None) -> NotChecked | None:
    return None if value is None else NotChecked(value)


@frozen(kw_only=True)
class InboundCheck:
    """How an inbound observation's state came about: citeledger's check of the citing work.

    Args:
        status: Checked (the citing work's list was read), not checked, or as asserted.
        source: Whose reference list was read (checked), or whose word the state is
            (asserted); None when nothing was read.
        checked: When the reference list was read (aware UTC); None when not checked.
        entries: How many entries the citing work's list had, when read.
        not_checked: Why the list was not read (only with ``status`` not checked).
        reason: The same in words, naming sources and errors.

    .. versionadded:: 0.2.0
    """

    status: CheckStatus = field(converter=CheckStatus)
    source: str | None = None
    checked: dt.datetime | None = field(default=None, converter=_opt_utc)
    entries: int | None = field(default=None, converter=_opt_count)
    not_checked: NotChecked | None = field(default=None, converter=_opt_not_checked)
    reason: str | None = None

    def __attrs_post_init__(self) -> None:
        if (self.status is CheckStatus.NOT_CHECKED) != (self.not_checked is not None):
            raise ModelError("a not_checked reason goes with, and only with, status not_checked")

    def describe(self) -> str:
        """One line: "checked against crossref's reference list (70 entries)", ..."""
        if self.status is CheckStatus.ASSERTED:
            return f"as asserted by {self.source or 'the source'}"
        if self.status is CheckStatus.NOT_CHECKED:
            assert self.not_checked is not None
            why = self.not_checked.label
            return f"not checked: {why}" + (f" ({self.reason})" if self.reason else "")
        n = "" if self.entries is None else f" ({self.entries:,} entries)"
        return f"checked against {self.source or 'a'} reference list{n}"


def _work_id(paper: Paper | None) -> str:
    return "" if paper is None else paper.key


def _observation_id(self: Observation) -> str:
    """UUIDv5 over source, citing work, cited work, reference position and resolution outcome.

    The outcome (state and method) joins the name only when the observation is resolved, so
    an observation without a resolution keeps the id it always had, while one source reporting
    one citing paper at one reference number in two states (the seed's reference 234 pair)
    gives two ids.
    """
    cited = _work_id(self.cited)
    if not cited and self.reference is not None:
        cited = "ref:" + (self.reference.raw or self.reference.title or "")
    parts = [
        self.source,
        _work_id(self.citing),
        cited,
        "" if self.position is None else str(self.position),
    ]
    res = self.resolution
    if res is not None:
        parts += [res.state.value, "" if res.method is None else res.method.value]
    return str(uuid.uuid5(OBSERVATION_NAMESPACE, "\x1f".join(parts)))


@frozen(kw_only=True)
class Observation:
    """One sighting of a citation by one source.

    The id is deterministic (UUIDv5 over source, citing work, cited work, reference position
    and, when resolved, the resolution's state and method), so the same observation seen twice
    has the same id, while two sources, two positions or two states give two observations.
    When it was seen (``observed``), the score, evidence and contexts do not enter the id.

    Args:
        direction: Inbound (someone cites the record's paper) or outbound (the paper cites).
        citing: The citing work.
        cited: The cited work, when known (None for an unresolved outbound reference).
        position: The reference number in the citing paper's list.
        reference: The reference entry as the citing paper gives it, when known.
        resolution: How the reference was resolved to the cited work.
        source: Which source reported the citation.
        observed: When it was observed (aware UTC).
        contexts: Citation contexts (sentences around the in-text citation), if given.
        intents: Citation intents (Semantic Scholar: "methodology", ...), if given.
        influential: Semantic Scholar's ``isInfluential``, if given.
        check: For an inbound observation, whether citeledger read the citing work's own
            reference list (:class:`InboundCheck`); None for one not (yet) checked.
        author_self_citation: The source's own author self-citation flag (OpenCitations'
            ``author_sc``), if given: the source's claim, kept apart from the ledger's check.
        timespan: The source's ISO 8601 duration from the cited to the citing publication
            (OpenCitations' ``timespan``, "P1Y10M10D"; negative when the citing work came
            first), as given.
        id: Deterministic id; computed when not given (or empty). A given id must equal the
            computed one, so a stale id cannot slip through ``attrs.evolve``.

    .. versionchanged:: 0.2.0
       ``author_self_citation`` and ``timespan``; the id includes the resolution's state and
       method.
    """

    direction: Direction = field(converter=Direction)
    citing: Paper
    cited: Paper | None = None
    position: int | None = field(default=None, converter=_opt_position)
    reference: Reference | None = None
    resolution: Resolution | None = None
    source: str
    observed: dt.datetime = field(converter=utc)
    contexts: tuple[str, ...] = field(default=(), converter=_strs)
    intents: tuple[str, ...] = field(default=(), converter=_strs)
    influential: bool | None = None
    check: InboundCheck | None = None
    author_self_citation: bool | None = None
    timespan: str | None = field(default=None, converter=_opt_str)
    id: str = field(default="", converter=str)

    def __attrs_post_init__(self) -> None:
        expected = _observation_id(self)
        if not self.id:
            object.__setattr__(self, "id", expected)
        elif self.id != expected:
            # A stale id (``attrs.evolve`` copies it) would silently merge two observations.
            raise ModelError(
                f"observation id {self.id} does not match its source, citing and cited work, "
                f"position and state (expected {expected}); omit id, or use "
                "citeledger.model.replace()"
            )

    @property
    def state(self) -> ResolutionState | None:
        """The resolution state, when resolved."""
        return None if self.resolution is None else self.resolution.state

    @property
    def method(self) -> Method | None:
        """The resolution method, when resolved."""
        return None if self.resolution is None else self.resolution.method


def replace(instance: Any, **changes: Any) -> Any:
    """Return a copy of a model value with ``changes`` applied (``attrs.evolve``).

    An :class:`Observation`'s deterministic id is recomputed unless ``id`` is among the changes.
    """
    if isinstance(instance, Observation) and "id" not in changes:
        changes["id"] = ""
    return attrs.evolve(instance, **changes)
