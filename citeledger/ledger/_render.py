"""Text, Markdown and HTML renderings of a :class:`~citeledger.CitationRecord`: :func:`render`.

The renderings are split along their seams, and this module only picks one:
:mod:`~citeledger.ledger._render_page` holds the facts every view shares (dates as the seed
prints them, the resolution and entry lines, the paper page as an ordered list of blocks),
:mod:`~citeledger.ledger._render_text` the text (the seed ledger's layout) and Markdown views,
and :mod:`~citeledger.ledger._render_html` the HTML view with its stylesheet and inline SVG
chart. All of them read the record (``record.py``) only, never the builder.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from citeledger.ledger._render_html import STYLESHEET, _html, svg_bar_chart
from citeledger.ledger._render_text import _markdown, _text, coverage_line
from citeledger.ledger.record import CitingSort

if TYPE_CHECKING:
    from citeledger.ledger.record import CitationRecord

__all__ = ["STYLESHEET", "coverage_line", "render", "svg_bar_chart"]


def render(
    record: CitationRecord, fmt: str = "text", *, view: str = "full", sort: str = "citations"
) -> str:
    """Render ``record`` as "text", "markdown" or "html"; ``view`` is "ledger", "page" or "full".

    ``sort`` orders the page's citing papers (:class:`~citeledger.ledger.CitingSort`); every
    view says which order it used. The three formats carry the same page facts.
    """
    if view not in ("ledger", "page", "full"):
        raise ValueError(f"view must be 'ledger', 'page' or 'full', got {view!r}")
    order = CitingSort(sort)
    if fmt == "text":
        return _text(record, view, order)
    if fmt == "markdown":
        return _markdown(record, view, order)
    if fmt == "html":
        return _html(record, view, order)
    raise ValueError(f"format must be 'text', 'markdown' or 'html', got {fmt!r}")
