"""Building the resolver's results: a :class:`~citeledger.model.Resolution` and its evidence.

A result is built once per reference, so it skips the model's converters
(:func:`_trusted_resolution`: the values are already what the class holds) and renders its
evidence and reason when first read. :mod:`~citeledger.resolve._rules` decides; this module
writes the outcome down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, cast

from citeledger.identifiers import version_key, version_of, work_key
from citeledger.model import (
    Agreement,
    Evidence,
    Method,
    Paper,
    Resolution,
    ResolutionState,  # the model's own validator
)
from citeledger.model._observation import _Deferred
from citeledger.resolve._rules import (
    _agreement_score,
    _describe,
    _ident_evidence,
    _Scored,
)
from citeledger.resolve.scoring import EvidenceTuple, _evidence_tuple, _outcome_evidence

if TYPE_CHECKING:
    from collections.abc import Sequence

    from citeledger.identifiers import Identifier
    from citeledger.resolve.scoring import FieldOutcome


_STATES: Final = {s.value: s for s in ResolutionState}
_METHODS: Final = {m.value: m for m in Method}
_AGREEMENTS: Final = {a.value: a for a in Agreement}


def _trusted_resolution(
    *,
    state: ResolutionState,
    method: Method | None,
    target: Paper | None = None,
    score: float = 0.0,
    evidence: tuple[Evidence, ...] | _Deferred,
    reason: str | _Deferred,
    alternatives: tuple[Paper, ...],
) -> Resolution:
    """``Resolution(...)`` for values the resolver built already typed.

    The state and method are enums, the score a float clamped to 0-100, the rest tuples, so the
    converters would return them unchanged; skipping them saves most of the construction cost.
    The public constructor still converts and validates. ``evidence`` and ``reason`` may be
    :class:`~citeledger.model._observation._Deferred`: made when first read.
    """
    # The slots set one by one, as unpickling does, without a keyword dictionary (every
    # result is built here: a measurable share of a verify() pair).
    obj: Resolution = object.__new__(Resolution)
    setattr_ = object.__setattr__
    setattr_(obj, "state", state)
    setattr_(obj, "method", method)
    setattr_(obj, "target", target)
    setattr_(obj, "score", score)
    # Straight into the slots under the read-once descriptors (a _Deferred is kept as it is).
    _EVIDENCE_SLOT.__set__(obj, evidence)
    _REASON_SLOT.__set__(obj, reason)
    setattr_(obj, "alternatives", alternatives)
    return obj


# The slots of Resolution.evidence and .reason, which the model wraps in read-once descriptors
# (class access to one gives the slot).
_EVIDENCE_SLOT: Final[Any] = Resolution.evidence
_REASON_SLOT: Final[Any] = Resolution.reason


def _then_compared(
    before: tuple[Evidence, ...] | _Deferred, scored: _Scored
) -> tuple[Evidence, ...]:
    """``before`` (made now if deferred), then the fields ``scored``'s comparison rendered."""
    return _compared_fields(before, scored.paper, scored.comparison.outcomes)


def _compared_fields(
    before: Sequence[Evidence] | _Deferred,
    paper: Paper,
    outcomes: Sequence[FieldOutcome],
    ident: Identifier | None = None,
    note: str = "",
) -> tuple[Evidence, ...]:
    """The evidence of a compared candidate ``paper``, as every route shows it.

    ``before`` (made now if deferred), then, when the candidate was found by ``ident``, how
    (``note``), then one item per field of its comparison (``outcomes``). What
    :func:`_then_compared` and :func:`_exact_shown` render, and what the parent of
    ``resolve_many``'s workers renders from the fields a worker sent unrendered.
    """
    head = before.value() if isinstance(before, _Deferred) else before
    found = () if ident is None else (_ident_evidence(ident, paper, note),)
    return (*head, *found, *map(_outcome_evidence, outcomes))


def _verified(
    method: Method,
    best: _Scored,
    evidence: Sequence[Evidence] | _Deferred,
    reason: str | _Deferred,
    runner: _Scored | None,
) -> Resolution:
    """A ``VERIFIED_*`` result for ``best``, naming the runner-up (if any) as the alternative.

    Its evidence (``evidence``, the route's own, then ``best``'s compared fields) and a
    deferred reason are rendered when read; ``evidence`` may be deferred too.
    """
    before = evidence if isinstance(evidence, _Deferred) else tuple(evidence)
    return _trusted_resolution(
        state=ResolutionState.VERIFIED_FUZZY,
        method=method,
        target=best.paper,
        score=_agreement_score(best.comparison),
        evidence=_Deferred(_then_compared, before, best),
        reason=reason,
        alternatives=() if runner is None else (runner.paper,),
    )


def _listed(idents: Sequence[Identifier]) -> str:
    """Identifiers as a reason names them (``a, b``)."""
    return ", ".join(str(i) for i in idents)


def _fuzzy_verified(
    best: _Scored,
    evidence: Sequence[Evidence] | _Deferred,
    missing: Sequence[Identifier] | None,
    runner: _Scored | None,
    reason: str,
) -> Resolution:
    """The fuzzy route's ``VERIFIED_FUZZY`` result for ``best`` (:func:`_verified`).

    Its reason, formatted when read, names ``missing`` (the identifiers that were not in the
    catalog, if any), ``best``'s title similarity and corroborations, its lead over ``runner``
    and the decision's ``reason``.
    """
    return _verified(
        Method.FUZZY_TITLE,
        best,
        evidence,
        _Deferred(_fuzzy_text, missing, best, runner, reason),
        runner,
    )


def _fuzzy_text(
    missing: Sequence[Identifier] | None, best: _Scored, runner: _Scored | None, reason: str
) -> str:
    """The reason of :func:`_fuzzy_verified`'s result."""
    prefix = "" if not missing else f"{_listed(missing)} not in catalog; "
    comp = best.comparison
    lead = (
        "no other candidate"
        if runner is None
        else f"leads {_describe(runner.paper)} by {comp.rank - runner.comparison.rank:.1f}"
    )
    return (
        f"{prefix}title similarity {comp.title or 0.0:.1f} with "
        f"{comp.corroborations} corroborating field(s); {lead}" + (f"; {reason}" if reason else "")
    )


def _found_note(ident: Identifier, paper: Paper, keys: Sequence[str] | None = None) -> str:
    """How the identifier route found ``paper`` by ``ident`` (for the evidence and reason).

    ``keys``: the work keys of ``paper``'s identifiers, if already computed.
    """
    key = work_key(ident)
    if key in (keys if keys is not None else [work_key(i) for i in paper.identifiers]):
        return "found in catalog"
    base = version_of(key)
    if any(version_key(i) == base for i in paper.identifiers):
        return "found via another version of the DOI"
    return "found via a related version (preprint/published link)"


def _exact_verified(
    ident: Identifier,
    chosen: _Scored,
    evidence: Sequence[Evidence] | _Deferred,
    told: str,
    alternatives: tuple[Paper, ...],
    *,
    keys: Sequence[str] | None = None,
) -> Resolution:
    """The identifier route's ``VERIFIED_EXACT`` result: ``ident`` found ``chosen``.

    Its evidence and reason are rendered when read: ``evidence`` (what the route noted before,
    the identifiers not found, or that deferred), then how ``ident`` found the paper and the
    compared fields; the reason says how it was found (:func:`_found_note`, given ``keys``),
    then ``told``. ``alternatives``: the other records the identifier found.
    """
    note = _found_note(ident, chosen.paper, keys)
    before = evidence if isinstance(evidence, _Deferred) else tuple(evidence)
    return _trusted_resolution(
        state=ResolutionState.VERIFIED_EXACT,
        method=Method.for_scheme(ident.scheme),
        target=chosen.paper,
        score=_agreement_score(chosen.comparison, identifier=True),
        evidence=_Deferred(_exact_shown, before, ident, chosen, note),
        reason=_Deferred(_exact_reason, ident, note, told),
        alternatives=alternatives,
    )


def _exact_shown(
    before: tuple[Evidence, ...] | _Deferred, ident: Identifier, chosen: _Scored, note: str
) -> tuple[Evidence, ...]:
    """The evidence of :func:`_exact_verified`'s result."""
    return _compared_fields(before, chosen.paper, chosen.comparison.outcomes, ident, note)


def _exact_reason(ident: Identifier, note: str, told: str) -> str:
    return f"{ident} {note}{told}; metadata agree"


def _evidence_tuples(value: Sequence[Evidence] | _Deferred) -> list[EvidenceTuple]:
    """A result's evidence (its slot's value: rendered or deferred) as plain tuples.

    What ``resolve_many``'s worker processes send for evidence that does not travel unrendered
    (``_batch._evidence_wire`` sends a compared candidate's fields as they are): deferred
    evidence is made, then read.
    """
    shown = value.value() if type(value) is _Deferred else value
    return [_evidence_tuple(e) for e in cast("Sequence[Evidence]", shown)]
