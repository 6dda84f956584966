"""Whether two records are two publications of one work, by the resolver's own rule.

The resolver decides that a candidate is "another publication of the work" (a preprint and its
published version, a conference paper and its journal version) when the two records carry one
title, their author lists agree, both years are known and differ, and either exactly one side
is a preprint with the other published later within the preprint year tolerance, or one venue
is a journal and the other conference proceedings. :func:`other_publication` asks exactly those
rules (it calls them, it does not restate them), so the ledger groups citing works the way the
resolver tells versions apart.

.. versionadded:: 0.2.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citeledger.model import Agreement, Reference
from citeledger.resolve._config import ResolverConfig
from citeledger.resolve._rules import _one_title, _other_publication, _Scored
from citeledger.resolve.names import name_keys
from citeledger.resolve.scoring import (
    ReferenceFeatures,
    _preprint_then_published,
    compare,
    compare_authors,
    is_preprint,
)

if TYPE_CHECKING:
    from citeledger.model import Paper

__all__ = ["other_publication"]

#: The resolver's default preprint year tolerance (a preprint published up to this many years
#: after it was posted).
_TOLERANCE = ResolverConfig().preprint_year_tolerance


def _label(paper: Paper) -> str:
    kind = "preprint" if is_preprint(paper.identifiers, paper.venue) else "published version"
    where = paper.venue or (
        "arXiv" if any(i.scheme.value == "arxiv" for i in paper.identifiers) else ""
    )
    return f"{kind} ({', '.join(p for p in (where, str(paper.year)) if p)})"


def other_publication(a: Paper, b: Paper, *, preprint_year_tolerance: int | None = None) -> str:
    """Why ``a`` and ``b`` are two publications of one work, or ``""`` if the rule does not say so.

    Args:
        a: One record.
        b: The other.
        preprint_year_tolerance: Years a preprint may precede its published version (default
            the resolver's, :attr:`~citeledger.ResolverConfig.preprint_year_tolerance`).

    >>> from citeledger.model import Author, Paper
    >>> authors = [
    ...     Author(family="Rajbhandari", given="Samyam"),
    ...     Author(family="He", given="Yuxiong"),
    ... ]
    >>> title = "A long enough title about training large models"
    >>> pre = Paper(identifiers=["arXiv:2201.00001"], title=title, authors=authors, year=2022)
    >>> pub = Paper(title=title, authors=authors, year=2023, venue="NeurIPS")
    >>> other_publication(pre, pub)
    'preprint (arXiv, 2022) and published version (NeurIPS, 2023): one title, agreeing authors'
    >>> other_publication(pre, Paper(title=title, authors=authors, year=2022, venue="NeurIPS"))
    ''
    """
    tolerance = _TOLERANCE if preprint_year_tolerance is None else preprint_year_tolerance
    if a.year is None or b.year is None or a.year == b.year:
        return ""
    feats = ReferenceFeatures.of(Reference.from_paper(a))
    comparison = compare(feats, b, preprint_year_tolerance=tolerance)
    if not _one_title(_Scored(a, comparison), _Scored(b, comparison))[0]:
        return ""
    ka, kb = feats.authors, name_keys(b.authors)
    if not ka or not kb or compare_authors(ka, kb)[0] is not Agreement.AGREE:
        return ""
    if _preprint_then_published(feats, b, b.year - a.year, tolerance):
        first, second = (a, b) if a.year < b.year else (b, a)
        return f"{_label(first)} and {_label(second)}: one title, agreeing authors"
    why = _other_publication(feats, b)
    return f"{why}; one title, agreeing authors" if why else ""
