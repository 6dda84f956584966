"""The catalog's title table: candidate titles stored once and scored against a query title.

:class:`TitleTable` holds every catalog title (normalised, words sorted) by paper id, and
:meth:`~PyTitleTable.top` is the catalog's candidate stage in one call: the candidate ids from the
blocking posting lists, each scored with RapidFuzz ``fuzz.ratio`` against the query, and the best
kept by the catalog's rule (``limit`` with ties at the boundary, then a window below the best).

Two implementations give identical results (a Hypothesis test compares them):

* ``citeledger.resolve._titlekernel.TitleTable``, compiled from ``_titlekernel.c`` when the
  package is installed on a machine with a C compiler: titles in one compact buffer (in huge
  pages on Linux), candidates gathered by merging posting lists sorted ascending or else with a
  per-table bitmap of 2 bits per id, bit-parallel LCS (several candidates at a time with
  AVX2 or AVX-512 where the CPU has them: ``_titlekernel.set_simd`` or
  ``CITELEDGER_TITLEKERNEL_SIMD=scalar|avx2|avx512`` forces a level), and candidates that cannot
  reach the running threshold skipped, or abandoned mid-LCS, by exact upper bounds of their score;
* :class:`PyTitleTable`, pure Python (RapidFuzz ``process.extract`` on the candidates), used when
  the extension is absent or ``CITELEDGER_PURE_PYTHON=1``.

:data:`TitleTable` is the one in use and :data:`COMPILED` says which.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import os
import sys
from array import array
from operator import itemgetter
from typing import TYPE_CHECKING, Final

from rapidfuzz import fuzz, process

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from citeledger.resolve._titlekernel import TitleTable as CTitleTable

    #: ``blocking_lists(postings, tokens, max_df, block_tokens, scan_budget)``.
    BlockingLists = Callable[
        [dict[str, array[int]], Iterable[str], int, int, int],
        tuple[list[array[int]], int] | None,
    ]

__all__ = [
    "COMPILED",
    "TWO_OF_THREE",
    "UNION",
    "PyTitleTable",
    "TitleTable",
    "blocking_choice",
    "blocking_lists",
    "candidate_ids",
    "scored_ids",
]


class PyTitleTable:
    """Catalog titles by id, scored with RapidFuzz (the pure-Python implementation).

    Titles are kept in a list; :meth:`top` scores the candidates with
    ``process.extract(..., scorer=fuzz.ratio, processor=None)``.

    Example:
        >>> from array import array
        >>> table = PyTitleTable()
        >>> for title in ["all attention is need you", "attention deep learning"]:
        ...     table.append(title)
        >>> table.top("all attention is need you", [array("I", [0, 1])], 0, 10, 50.0, 30.0)
        [(100.0, 0)]
    """

    __slots__ = ("_titles",)

    def __init__(self) -> None:
        self._titles: list[str] = []

    def append(self, title: str) -> None:
        """Add one title; its id is the table's length before the call."""
        if not isinstance(title, str):
            raise TypeError(f"a title is a str, not {type(title).__name__}")
        self._titles.append(title)

    def __len__(self) -> int:
        return len(self._titles)

    def __getitem__(self, i: int) -> str:
        return self._titles[i]

    def __getstate__(self) -> list[str]:
        return self._titles

    def __setstate__(self, state: list[str]) -> None:
        self._titles = list(state)

    def top(  # noqa: PLR0917 - positional, as the C type's method (a hot path)
        self,
        query: str,
        lists: Sequence[array[int]],
        mode: int,
        limit: int,
        cutoff: float,
        window: float,
    ) -> list[tuple[float, int]]:
        """The best candidates for ``query``: ``(score, id)``, best first, ties by id.

        Args:
            query: The query title, normalised and word-sorted like the table's titles.
            lists: Posting lists of ids (``array('I')``, in any order; the catalog's are sorted
                ascending, which the compiled table gathers fastest).
            mode: ``0``: the candidates are the union of ``lists``; ``1``: the ids in at least
                two of the (exactly three) lists; an id repeated within one list counts once
                (it is not in two lists for being twice in one).
            limit: With more hits than this (and ``limit > 0``), only those scoring at least
                the ``limit``-th best score are kept (ties at the boundary all kept).
            cutoff: The hits are those ``process.extract`` returns with this ``score_cutoff``.
            window: Hits scoring below the best score minus ``window`` are dropped.

        Raises:
            ValueError: ``mode`` is not 0 or 1, or mode 1 without exactly three lists.
            IndexError: An id is not in the table.
        """
        ids = candidate_ids(lists, mode)
        if not ids:
            return []
        scored = scored_ids(self._titles, query, list(ids), limit, cutoff, window)
        scored.sort(key=_best_first)  # only the few hits kept are sorted (ties by id)
        return scored


def scored_ids(  # noqa: PLR0917 - positional, as PyTitleTable.top
    titles: Sequence[str],
    query: str,
    ids: Sequence[int],
    limit: int,
    cutoff: float,
    window: float,
) -> list[tuple[float, int]]:
    """The hits :meth:`PyTitleTable.top` keeps among ``ids``, best score first, ties unordered.

    ``titles[i]`` is the title of id ``i``; ``ids`` are the candidates (distinct) and ``limit``,
    ``cutoff`` and ``window`` are :meth:`~PyTitleTable.top`'s. ``process.extract`` scores them
    and returns the hits best first, so the two floors are read off its order.
    """
    if not ids:
        return []
    choices = (titles[ids[0]],) if len(ids) == 1 else itemgetter(*ids)(titles)
    hits = process.extract(
        query,
        choices,
        scorer=fuzz.ratio,
        processor=None,
        score_cutoff=cutoff,
        limit=None,
    )
    scored = [(score, ids[idx]) for _, score, idx in hits]
    if len(scored) > limit > 0:
        floor = scored[limit - 1][0]
        scored = [s for s in scored if s[0] >= floor]
    if scored:
        floor = scored[0][0] - window
        scored = [s for s in scored if s[0] >= floor]
    return scored


#: :meth:`PyTitleTable.top`'s ``mode``: the candidates are the union of the lists.
UNION: Final = 0
#: :meth:`PyTitleTable.top`'s ``mode``: the candidates are the ids in two of the three lists.
TWO_OF_THREE: Final = 1


def blocking_choice(
    postings: dict[str, array[int]],
    tokens: Iterable[str],
    max_df: int,
    block_tokens: int,
    budget: int,
) -> tuple[list[array[int]], int] | None:
    """Which posting lists select a title's candidates, and how (``Catalog._blocking_lists``).

    The distinct ``tokens`` that ``postings`` holds with at most ``max_df`` ids, ordered by
    (document frequency, token); of the first ``block_tokens`` of them: the rarest list and the
    next ones while the lists together stay within ``budget`` ids (:data:`UNION`), or, when the
    rarest alone is over the budget, the two (:data:`UNION`) or three rarest
    (:data:`TWO_OF_THREE`). None when no token qualifies. ``_titlekernel.blocking_lists`` is
    the same choice, compiled (:data:`blocking_lists`; a test compares the two).
    """
    # (document frequency, token, postings): tokens are distinct, so the sort never
    # compares the arrays.
    known: list[tuple[int, str, array[int]]] = []
    for tok in set(tokens):
        arr = postings.get(tok)
        if arr is not None and len(arr) <= max_df:
            known.append((len(arr), tok, arr))
    if not known:
        return None
    known.sort()
    chosen = [k[2] for k in known[:block_tokens]]
    first = chosen[0]
    if len(chosen) == 1:
        return chosen, UNION
    if len(first) <= budget:
        scanned = [first]
        total = len(first)
        for arr in chosen[1:]:
            total += len(arr)
            if total > budget:
                break
            scanned.append(arr)
        return scanned, UNION
    if len(chosen) == 2:
        return chosen, UNION
    return chosen[:3], TWO_OF_THREE


def candidate_ids(lists: Sequence[array[int]], mode: int) -> set[int]:
    """The ids :meth:`PyTitleTable.top` scores: the lists' union, or ids in two of the three.

    Mode 0 is the union of ``lists``; mode 1 the ids in at least two of the (three) lists, an id
    repeated within one list counting once.

    >>> sorted(candidate_ids([array("I", [1, 2]), array("I", [2, 3]), array("I", [3, 4])], 1))
    [2, 3]

    Raises:
        ValueError: ``mode`` is not 0 or 1, or mode 1 without exactly three lists.
    """
    if mode == 0:
        return set().union(*lists)
    if mode == 1:
        if len(lists) != 3:
            raise ValueError(f"mode 1 takes exactly three lists, not {len(lists)}")
        a, b = set(lists[0]), set(lists[1])
        c = lists[2]
        return (a & b).union(a.intersection(c), b.intersection(c))
    raise ValueError(f"mode must be 0 (union) or 1 (two of three), not {mode}")


def _best_first(hit: tuple[float, int]) -> tuple[float, int]:
    return (-hit[0], hit[1])


def _rebuild_compiled(state: tuple[bytes, bytes, bytes, str]) -> PyTitleTable | CTitleTable:
    """Unpickle a compiled table: compiled again where the extension imports, else in Python.

    ``state`` is ``(kinds, offsets, buffer, byteorder)``: each title's width in bytes per
    character (1, 2 or 4), the ``n + 1`` byte offsets (unsigned 64-bit) into the buffer and the
    buffer of the titles' characters (PEP 393 code units).
    """
    if _compiled is not None:
        return _compiled._from_state(*state)  # noqa: SLF001 - the pickle format is its own
    kinds, offsets_bytes, buf, byteorder = state
    offsets = array("Q")
    offsets.frombytes(offsets_bytes)
    if byteorder != sys.byteorder:
        offsets.byteswap()
    titles: list[str] = []
    for i, kind in enumerate(kinds):
        chunk = buf[offsets[i] : offsets[i + 1]]
        if kind == 1:
            titles.append(chunk.decode("latin-1"))
            continue
        # code points one by one: a UTF-16 decoder would join two lone surrogates into one
        units = array("H" if kind == 2 else "I")
        units.frombytes(chunk)
        if byteorder != sys.byteorder:
            units.byteswap()
        titles.append("".join(map(chr, units)))
    table = PyTitleTable()
    table.__setstate__(titles)
    return table


_compiled: type[CTitleTable] | None
_compiled_blocking: BlockingLists | None
try:
    from citeledger.resolve._titlekernel import TitleTable as _Loaded
    from citeledger.resolve._titlekernel import blocking_lists as _loaded_blocking
except ImportError:  # no compiler at install time: the pure-Python table and choice
    _compiled = _compiled_blocking = None
else:
    _compiled, _compiled_blocking = _Loaded, _loaded_blocking

#: Whether :data:`TitleTable` is the compiled implementation (the extension imports and
#: ``CITELEDGER_PURE_PYTHON`` is not ``1``).
COMPILED: Final = _compiled is not None and os.environ.get("CITELEDGER_PURE_PYTHON") != "1"

#: The compiled choice of a title's blocking lists (``_titlekernel.blocking_lists``, the same
#: results as :func:`blocking_choice`; a test compares them), None when the title table is not
#: compiled.
blocking_lists: Final[BlockingLists | None] = _compiled_blocking if COMPILED else None

if TYPE_CHECKING:
    TitleTable = PyTitleTable
else:
    #: The title table in use: compiled when available (see :data:`COMPILED`).
    TitleTable = _compiled if COMPILED else PyTitleTable
