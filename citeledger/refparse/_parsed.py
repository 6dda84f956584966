"""The parser's result, :class:`ParsedReference`: a plain value, no model behind it.

Kept apart from the parser (:mod:`._reference`, whose grammars compile when it is first
imported) so that the model and :mod:`citeledger.refparse` name the value without loading it.

.. versionadded:: 0.2.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attrs import frozen

if TYPE_CHECKING:
    from citeledger.identifiers import Identifier, MalformedFragment
    from citeledger.refparse._names import ParsedName

__all__ = ["ParsedReference"]


@frozen(kw_only=True)
class ParsedReference:
    """What the parser read from one reference string: plain values, no model behind them.

    Args:
        raw: The text exactly as given.
        position: The 1-based position passed in (not checked here).
        label: The list label cut from the start of the text (``[12]``, ``3.``), if any.
        title: Title of the cited work.
        authors: The names read, in order.
        year: Year.
        venue: Journal, proceedings or series.
        volume: Volume.
        issue: Issue.
        first_page: First page or article number.
        last_page: Last page.
        identifiers: Valid identifiers found anywhere in the text.
        malformed: Identifier-looking fragments that are malformed, with the reason.
        confidence: 0-1 confidence of the parse.
        doubt: Why the parse is unsure (too little text, no title, ...), else None.

    .. versionadded:: 0.1.0
    """

    raw: str
    position: int | None = None
    label: str | None = None
    title: str | None = None
    authors: tuple[ParsedName, ...] = ()
    year: int | None = None
    venue: str | None = None
    volume: str | None = None
    issue: str | None = None
    first_page: str | None = None
    last_page: str | None = None
    identifiers: tuple[Identifier, ...] = ()
    malformed: tuple[MalformedFragment, ...] = ()
    confidence: float = 0.0
    doubt: str | None = None


# Its public home (reprs, pickles and the API reference name it there, as before it moved here).
ParsedReference.__module__ = "citeledger.refparse"
