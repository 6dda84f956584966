"""What the resolver takes (a reference, a paper or a string), as the reference it resolves.

``resolve(item)`` reads a string as :meth:`~citeledger.model.Reference.from_string` parses it,
and a paper as the reference citing it in full. The batch engine and ``resolve_many``'s worker
processes make the same reference from the same item: the parent renders a worker's evidence
from it.
"""

from __future__ import annotations

from typing import Final

import attrs

from citeledger.errors import ModelError
from citeledger.model import Paper, Reference
from citeledger.model._work import _FROM_PAPER
from citeledger.resolve.scoring import ReferenceFeatures

# Reference fields that Reference.from_paper leaves at their defaults: all but the _FROM_PAPER
# ones, which it takes from the paper.
_REFERENCE_REST: Final = tuple(
    (a.name, getattr(Reference(), a.name))
    for a in attrs.fields(Reference)
    if a.name not in _FROM_PAPER
)


def _as_reference(item: object) -> Reference:
    """The reference ``resolve(item)`` resolves: a string parsed, a paper as cited in full.

    Raises:
        ModelError: ``item`` is neither a reference, a paper nor a string.
    """
    if type(item) is Reference:
        return item
    if isinstance(item, str):
        return Reference.from_string(item)
    if isinstance(item, Paper):
        return _reference_from_paper(item)
    if isinstance(item, Reference):
        return item
    raise ModelError(
        f"cannot resolve a {type(item).__name__}: pass a Reference, a Paper or a reference string"
    )


def _staged(item: object) -> tuple[Reference, ReferenceFeatures] | None:
    """``item``'s reference and features for the batch engine; None if making them raises."""
    try:
        ref = _as_reference(item)
        return ref, ReferenceFeatures.of(ref)
    except Exception:  # resolve(item) raises it again, for this item only
        return None


def _reference_from_paper(paper: Paper) -> Reference:
    """``Reference.from_paper(paper)`` without running converters on already-converted values.

    A paper's title, authors, venue, volume, issue and identifiers went through the same
    converters as a reference's, its year is an int and its first page is a whitespace-normalised
    string, so the converters would return them unchanged (a test checks equality with
    ``Reference.from_paper``). ``verify`` and ``resolve(paper)`` build one per call.
    """
    obj: Reference = object.__new__(Reference)
    setattr_ = object.__setattr__
    for name, value in _REFERENCE_REST:
        setattr_(obj, name, value)
    for name in _FROM_PAPER:
        setattr_(obj, name, getattr(paper, name))
    return obj
