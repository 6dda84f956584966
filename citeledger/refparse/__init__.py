r"""The reference-string parser: free text -> :class:`ParsedReference`, a plain value.

:meth:`citeledger.model.Reference.from_string` turns the value into the model (as packaging's
``_parser`` feeds ``Requirement``); nothing here knows the model. One module per part of a
reference: :mod:`._clean` (cleaning, PDF repairs, "too little" texts), :mod:`._authors` (the
author list), :mod:`._tail` (volume, issue, pages, year), :mod:`._title` (title and venue),
:mod:`._names` (particles, plain name parts, author-string splitting), :mod:`._runon` (two
entries run together in one string), :mod:`._chars` (character classes).

The parser is a deterministic, regex-and-token heuristic tuned on real reference strings
(Crossref deposits, PMC strings extracted from PDFs, arXiv-era ML references). It reads a string
in four passes, each linear in the length of the text:

1. **Clean**: repair PDF line breaks (``Endo-\nscopic`` -> ``Endoscopic``; a real hyphen as in
   ``COVID-\n19`` or ``ZeRO-\nInfinity`` is kept), collapse whitespace, and cut identifiers,
   URLs and link-out noise (``[PubMed]``, ``[INSPIRE]``) out of the working text after
   :func:`~citeledger.identifiers.find_identifiers` has read them from the original.
2. **Authors**: a small grammar per name order tried at the start of the string: Vancouver
   (``Cotton PB, Lehman G, et al.``), family-comma-initials (APA, Nature, Springer LNCS:
   ``Bean, R. A., & Northup, J. C.``), initials-first (IEEE, physics, ACM:
   ``A. B. Smith, C. D. Jones, and E. F. Li``), full given names (ACM, Chicago), Chinese /
   Japanese / Korean names (``张三, 李四, 等.``) and Cyrillic (GOST ``Иванов И. И.``); inside a
   list also group authors (``…, Berger K, German Stroke Registers Study Group:``), family names
   without initials and PDF line numbers. The list is accepted only when something that ends an
   author list follows it (a year, a colon, a quote, a full stop before the title). Where the
   grammars stop early (``Bergman JJGHM``, ``Milev P Ho B-C``, ``von, G. A.``), the text up to
   the next year, ``et al.``, colon or full stop after initials is still read as names when
   every item of it looks like one.
3. **Tail**: the run of numeric tokens at the end (``2005;100:38-42``, ``521, 436–444 (2015)``,
   ``vol. 5, no. 3, pp. 1–9``, ``Т. 5, № 3. С. 10–20``) gives year, volume, issue and pages.
4. **Title / venue**: what lies between is split at a quoted title, ``In:``, ``//``, a
   ``[J]``-style type marker, or the first sentence break after which only a venue-like text
   follows. When stray text follows the numbers (a DOI cut in two, a running head), the title
   and venue end before the first volume/pages block.

Nothing here raises on a string: text with too little to work with (``Ibid.``, a lone URL,
``[12]``, garbage) gives a reference with ``parse_confidence`` below 0.3, no title, the
original ``raw``, and the reason in :attr:`ParsedReference.doubt` (the model's
``Reference.parse_doubt``) so the resolver can report
:attr:`~citeledger.model.ResolutionState.PARSE_UNCERTAIN` with the reason.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from citeledger.refparse._names import ParsedName, is_et_al_only, split_author_string, split_name
from citeledger.refparse._parsed import ParsedReference

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "ParsedName",
    "ParsedReference",
    "is_et_al_only",
    "parse_reference",
    "split_author_string",
    "split_name",
]


def parse_reference(text: str, *, position: int | None = None) -> ParsedReference:
    """Parse one free-text reference string into a :class:`ParsedReference`.

    Handles Vancouver/NLM, APA, Harvard, Chicago, IEEE, ACM, Nature, Springer, physics-style
    and GOST / GB/T 7714 references, PDF line breaks and hyphenation, ``et al.``, and arXiv /
    DOI / PMID identifiers anywhere in the text. Never raises on a string; runs in time linear
    in the length of the text.

    Args:
        text: The reference as printed.
        position: Its 1-based position in the citing paper's reference list.

    Returns:
        The parsed reference. ``raw`` is ``text`` unchanged; ``confidence`` is in 0-1; when
        there is too little to work with it is below 0.3 and ``doubt`` says why.

    Example:
        >>> ref = parse_reference(
        ...     "Rajbhandari S, et al. ZeRO-Infinity: breaking the GPU memory wall for extreme "
        ...     "scale deep learning. SC21. 2021. arXiv:2104.07857",
        ...     position=56,
        ... )
        >>> ref.authors[0].family, ref.year, [str(i) for i in ref.identifiers]
        ('Rajbhandari', 2021, ['arxiv:2104.07857'])
        >>> ref.title
        'ZeRO-Infinity: breaking the GPU memory wall for extreme scale deep learning'
        >>> parse_reference("Ibid.").doubt
        'a back-reference (Ibid., op. cit.) with no content of its own'

    .. versionadded:: 0.1.0
    """
    return _parser()(text, position=position)


@cache
def _parser() -> Callable[..., ParsedReference]:
    # The parser, imported on the first call: compiling its grammars (``_authors`` above all)
    # was most of what ``import citeledger`` cost (docs/explanation/architecture.md). Kept by
    # ``cache``: an import statement per call would cost more than this call does.
    from citeledger.refparse._reference import parse_reference as parse  # noqa: PLC0415

    return parse
