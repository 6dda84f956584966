"""Unreadable items: what a list parser records instead of silently dropping a bad item.

Shared by the file formats (:mod:`citeledger.formats.dumps`) and the sources' listings
(:class:`citeledger.sources.Paged`), so it lives in the lowest layer that reads payloads;
:mod:`citeledger.sources` re-exports both names.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from attrs import frozen

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["EXCERPT_CHARS", "UnreadableItem", "describe_unreadable"]

#: The longest excerpt of an unreadable item that is kept (characters).
EXCERPT_CHARS = 200


def _excerpt(raw: object) -> str:
    if raw is None:
        return ""
    if isinstance(raw, bytes):
        text = raw[: EXCERPT_CHARS * 4].decode("utf-8", "replace")
    elif isinstance(raw, str):
        text = raw
    else:
        try:
            text = json.dumps(raw, ensure_ascii=False, default=repr)
        except (TypeError, ValueError, RecursionError):
            text = repr(raw)
    text = " ".join(text.split())
    return text if len(text) <= EXCERPT_CHARS else text[: EXCERPT_CHARS - 3] + "..."


@frozen(kw_only=True)
class UnreadableItem:
    """One item of a listing that could not be read: recorded, never silently dropped.

    A list parser that meets a wrong-shaped item (a work record with a number where a list
    belongs, a citation row without its paper) keeps every other item of the page and reports
    this one instead; :class:`Paged` collects them in :attr:`Paged.skipped`, and the ledger
    counts them in the facet's coverage (which is then partial, not complete).

    Args:
        source: The source's name ("crossref").
        what: What the item should have been ("work record", "citation link", "dump line").
        index: 0-based position of the item in the payload it came from (its page's array, a
            dump's record sequence), when known.
        listing_index: 0-based position in the whole listing, readable and unreadable items of
            earlier pages counted; set by :class:`Paged` (None from a bare parse).
        reason: Why it could not be read (the :class:`~citeledger.errors.ParseError` text).
        excerpt: The start of the raw item, whitespace folded, at most 200 characters.

    >>> item = UnreadableItem.of("crossref", "work record", 2, "no DOI", {"DOI": 5})
    >>> item.describe()
    'crossref work record at index 2: no DOI'
    >>> item.excerpt
    '{"DOI": 5}'

    .. versionadded:: 0.1.0
    """

    source: str
    what: str
    index: int | None = None
    listing_index: int | None = None
    reason: str
    excerpt: str = ""

    @classmethod
    def of(
        cls, source: str, what: str, index: int | None, reason: object, raw: object = None
    ) -> UnreadableItem:
        """An unreadable item: ``reason`` is an exception or text, ``raw`` is shortened."""
        return cls(source=source, what=what, index=index, reason=str(reason), excerpt=_excerpt(raw))

    def describe(self) -> str:
        """One line: "crossref work record at index 2: no DOI"."""
        at = self.listing_index if self.listing_index is not None else self.index
        where = f" at index {at}" if at is not None else ""
        return f"{self.source} {self.what}{where}: {self.reason}"


def describe_unreadable(items: Sequence[UnreadableItem], *, limit: int = 3) -> str:
    """``"2 unreadable (crossref work record at index 1: ...; ...)"``: a count and the reasons.

    Distinct reasons are shown (at most ``limit``, each shortened to 160 characters).

    >>> describe_unreadable([UnreadableItem(source="x", what="row", index=0, reason="bad")])
    '1 unreadable (x row at index 0: bad)'
    """
    lines = list(dict.fromkeys(i.describe() for i in items))
    shown = [line if len(line) <= 160 else line[:157] + "..." for line in lines[:limit]]
    more = f"; and {len(lines) - limit:,} more" if len(lines) > limit else ""
    return f"{len(items):,} unreadable ({'; '.join(shown)}{more})"
