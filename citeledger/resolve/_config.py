"""The resolver's thresholds and tolerances (:class:`ResolverConfig`).

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import contextlib
import operator
from typing import ClassVar

import attrs
from attrs import field, frozen

from citeledger.errors import InvalidArgument
from citeledger.model import (
    _non_negative,  # the model's own validator
)

__all__ = ["ResolverConfig"]


def _whole_at_least(value: object, least: int, name: str, *, or_none: bool = False) -> int:
    """``value`` as an ``int`` if it is a whole number of at least ``least``.

    A whole number: an ``int`` or a NumPy integer (what ``operator.index`` takes), not a bool.
    The one rule for the resolver's counts (``resolve_many``'s ``workers`` and ``chunk_size``,
    a catalog's ``block_tokens`` and ``max_df``). Anything else raises
    :class:`~citeledger.errors.InvalidArgument` naming ``name`` (``or_none``: the argument may
    also be None, which the caller handles, and the message says so).
    """
    number = None
    if not isinstance(value, bool):
        with contextlib.suppress(TypeError):
            number = operator.index(value)  # type: ignore[arg-type]
    if number is None or number < least:
        also = " or None" if or_none else ""
        raise InvalidArgument(f"{name} must be a whole number >= {least}{also}, got {value!r}")
    return number


def _score_range(_: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not 0.0 <= value <= 100.0:
        raise ValueError(f"{attribute.name} must be within 0-100, got {value}")


def _unit_range(_: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{attribute.name} must be within 0-1, got {value}")


@frozen(kw_only=True)
class ResolverConfig:
    """Thresholds and tolerances of the resolver.

    Every ``min_*`` field is a *threshold*: raising it never adds a verified match (the property
    tests check this). The ``*_tolerance`` fields and ``candidate_limit`` are not thresholds.
    Defaults were tuned on the development half of the matching data (``docs/resolver.md``),
    favouring precision: a wrong verified match is the worst outcome a ledger can have.

    Args:
        min_title_similarity: Fuzzy route: title similarity (0-100, RapidFuzz ``ratio`` /
            ``token_sort_ratio`` on normalised titles) the best candidate needs.
        min_generic_title_similarity: The same for short or generic titles ("Editorial",
            "Reply", fewer than three content words).
        min_corroborations: Fields other than the title that must agree (authors, exact year,
            volume, first page, venue).
        min_generic_corroborations: The same for short or generic titles.
        min_title_similarity_alone: A non-generic title this similar verifies without
            corroborating fields (still with no disagreeing field and a clear lead).
        min_prefix_title_similarity: A title that matches the *start* or the *end* of the
            candidate's (or the other way round: a dropped subtitle, a truncated title, dropped
            leading words) this well, with at least 25 characters, passes the title test when
            ``min_prefix_corroborations`` fields agree.
        min_prefix_corroborations: Corroborating fields needed for such a partial match.
        min_margin: How far (ranking points) the best candidate must lead the best candidate of
            another work. Look-alikes closer than this stay ``UNRESOLVED``.
        min_exact_title_similarity: Identifier route: a lenient title similarity below this is a
            clear disagreement (``METADATA_MISMATCH``).
        min_parse_confidence: Parsed strings below this confidence are ``PARSE_UNCERTAIN``
            unless an identifier resolves them.
        year_tolerance: Fuzzy route: years this far apart are compatible (preprint/published).
        preprint_year_tolerance: Fuzzy route: when exactly one side is a preprint (an arXiv id,
            a preprint server's DOI or venue), the published side may be this many years later
            (publication often takes two or three years). Not for generic titles.
        exact_year_tolerance: Identifier route: years further apart than this clearly disagree.
        candidate_limit: How many title candidates each provider proposes.

    .. versionadded:: 0.1.0
    """

    #: Names of the fields where higher means stricter.
    THRESHOLDS: ClassVar[tuple[str, ...]] = (
        "min_corroborations",
        "min_exact_title_similarity",
        "min_generic_corroborations",
        "min_generic_title_similarity",
        "min_margin",
        "min_parse_confidence",
        "min_prefix_corroborations",
        "min_prefix_title_similarity",
        "min_title_similarity",
        "min_title_similarity_alone",
    )

    min_title_similarity: float = field(default=90.0, validator=_score_range)
    min_generic_title_similarity: float = field(default=97.0, validator=_score_range)
    min_corroborations: int = field(default=1, validator=_non_negative)
    min_generic_corroborations: int = field(default=2, validator=_non_negative)
    min_title_similarity_alone: float = field(default=100.0, validator=_score_range)
    min_prefix_title_similarity: float = field(default=95.0, validator=_score_range)
    min_prefix_corroborations: int = field(default=3, validator=_non_negative)
    min_margin: float = field(default=5.0, validator=_score_range)
    min_exact_title_similarity: float = field(default=70.0, validator=_score_range)
    min_parse_confidence: float = field(default=0.3, validator=_unit_range)
    year_tolerance: int = field(default=1, validator=_non_negative)
    preprint_year_tolerance: int = field(default=3, validator=_non_negative)
    exact_year_tolerance: int = field(default=2, validator=_non_negative)
    candidate_limit: int = field(default=10, validator=_non_negative)
