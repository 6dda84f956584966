"""The catalog's columnar store of records (:meth:`Catalog.from_records`).

Records' common fields are converted by ``Paper``'s own converters (the common cases inline) and
held in columns (:class:`_Rows`); a :class:`~citeledger.model.Paper` is built from its row when
first read. Pyarrow tables are read row by row without importing pyarrow here.
"""

from __future__ import annotations

import collections
import functools
import os
import string
from array import array
from itertools import repeat
from typing import TYPE_CHECKING, Any, Final, Protocol

import attrs

from citeledger._text import ascii_words
from citeledger.errors import ModelError
from citeledger.identifiers import Identifier, work_key
from citeledger.identifiers._normalize import _FAST_DOI_RE, _doi_publisher_rules
from citeledger.identifiers._schemes import _ARXIV_DOI_PREFIX
from citeledger.model import Paper
from citeledger.model._convert import _identifier, _identifiers, _opt_str
from citeledger.model._work import _authors
from citeledger.resolve.normalize import (
    STOPWORDS,
    normalize_text,
    title_tokens,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from citeledger.resolve import _rowkernel

_PAPER_FIELDS: Final = frozenset(a.name for a in attrs.fields(Paper))
# normalize_text without its LRU cache: each catalog title is normalised once at build time and
# again only when it is a candidate, rarely twice in a row, so caching them would only evict the
# entries that do repeat (venues, reference titles) from the shared cache.
_normalize_once: Final = normalize_text.__wrapped__

#: The fields a record may hold for :meth:`Catalog.add_record`'s fast path (the columns of
#: :class:`_Rows`); a record with any other field is converted by ``Paper`` itself.
_ROW_FIELDS: Final = frozenset(
    ("title", "authors", "year", "venue", "volume", "issue", "pages", "identifiers")
)


#: Distinct venues whose conversion :class:`_Rows` remembers (venues repeat across a catalog).
_VENUE_CACHE_SIZE: Final = 200_000


_NO_AUTHORS: Final[tuple[Any, ...]] = ()

_new: Final = object.__new__
_set: Final = object.__setattr__
#: The fields of a Paper that a row does not hold, at their (converted) defaults.
_PAPER_REST: Final = tuple(
    (a.name, getattr(Paper(), a.name)) for a in attrs.fields(Paper) if a.name not in _ROW_FIELDS
)


# title_tokens drops stopwords and one-character tokens; in an ASCII normalised title those are
# the ASCII letters and digits.
_ASCII_DROP: Final = STOPWORDS | frozenset(string.ascii_lowercase + string.digits)


class ArrowColumns(Protocol):
    """A pyarrow ``Table`` or ``RecordBatch``, as :meth:`Catalog.from_records` reads it."""

    @property
    def column_names(self) -> list[str]:
        """The columns' names (``Paper`` fields)."""
        ...

    def column(self, i: int) -> Any:
        """Column ``i``."""
        ...


def _is_arrow(value: object) -> bool:
    """Whether ``value`` is a pyarrow Table or RecordBatch (without importing pyarrow)."""
    return type(value).__module__.partition(".")[0] == "pyarrow" and hasattr(value, "column_names")


def _arrow_rows(table: Any) -> Iterable[dict[str, Any]]:
    """The rows of a pyarrow Table or RecordBatch as dicts, read column by column per batch.

    Raises:
        ModelError: a column is not named as a Paper field.
    """
    names = [str(n) for n in table.column_names]
    unknown = set(names) - _PAPER_FIELDS
    if unknown:
        raise ModelError(
            f"catalog records: columns that are not Paper fields: {', '.join(sorted(unknown))}"
        )
    return _arrow_batches(table, names)


def _arrow_batches(table: Any, names: list[str]) -> Iterable[dict[str, Any]]:
    batches = table.to_batches(max_chunksize=65_536) if hasattr(table, "to_batches") else [table]
    for batch in batches:
        columns = [batch.column(i).to_pylist() for i in range(len(names))]
        for values in zip(*columns, strict=True):
            yield dict(zip(names, values, strict=True))


def _same(value: object, convert: Callable[[object], str | None]) -> str | None:
    """``convert(value)``, as the very object given when the conversion leaves it unchanged."""
    if value is None:
        return None
    converted = convert(value)
    return value if converted == value and type(value) is str else converted


def _title_words(title: str) -> tuple[list[str], set[str]]:
    """The words of ``normalize_text(title)`` and the set of its ``title_tokens``."""
    words = ascii_words(title)
    if words is not None:
        # (``difference`` walks the words; ``-=`` would walk the stopwords.)
        return words, set(words).difference(_ASCII_DROP)
    normalized = _normalize_once(title)
    return normalized.split(), set(title_tokens(normalized))


def _fold(value: object, other: Callable[[Any], str | None]) -> Any:
    """``Paper``'s conversion of a title, volume or page range, the ASCII case inline.

    For an ASCII ``str``: ``" ".join(value.split())`` if that differs from ``value`` (None when
    it is empty), else ``value`` itself; anything else is ``other(value)``. The compiled
    :func:`citeledger.resolve._rowkernel.fold` does the same.
    """
    if type(value) is str and value.isascii():
        text = " ".join(value.split())
        return value if text == value else (text or None)
    return other(value)


#: An empty posting list (``array("I")``), for a defaultdict.
_new_postings: Final = functools.partial(array, "I")
_consume: Final = collections.deque[object](maxlen=0).extend
_array_append: Final = array.append


def post(postings: dict[str, array[int]], tokens: Iterable[str], pid: int) -> None:
    """Append ``pid`` to the posting list of each of ``tokens`` (a new list for a new token)."""
    for tok in tokens:
        arr = postings.get(tok)
        if arr is None:
            postings[tok] = array("I", (pid,))
        else:
            arr.append(pid)


class PyTitleIndex:
    """A catalog's title indexes for a batch of papers (the pure-Python implementation).

    Args:
        normalized: The catalog's normalised titles, appended to.
        titles: Its title table's ``append`` (given each word-sorted title).
        postings: Its ``token -> array('I') of ids`` dict, added to.
        drop: Words that are never tokens (:data:`_ASCII_DROP`).

    :meth:`add` indexes one title as the catalog does (``_index_fields``) when it is None, ""
    or ASCII without markup or entities; the caller indexes any other title and passes its
    tokens to :meth:`add_tokens`. :meth:`finish` completes ``postings`` (each list in ascending
    id order). The compiled ``citeledger.resolve._rowkernel.TitleIndex`` keeps its lists in C
    until :meth:`finish` and gives the same dict.
    """

    __slots__ = ("_drop", "_normalized", "_postings", "_titles")

    def __init__(
        self,
        normalized: list[str],
        titles: Callable[[str], None],
        postings: dict[str, array[int]],
        drop: frozenset[str],
    ) -> None:
        self._normalized = normalized.append
        self._titles = titles
        self._postings = postings
        self._drop = drop

    def add(self, title: str | None, pid: int) -> bool:
        """Index title ``title`` of paper ``pid``; False (nothing done) for an unusual title."""
        if not title:
            self._normalized("")
            self._titles("")
            return True
        words = ascii_words(title) if type(title) is str else None
        if words is None:
            return False
        self._normalized(" ".join(words))
        words.sort()
        self._titles(" ".join(words))
        self.add_tokens(set(words).difference(self._drop), pid)
        return True

    def add_tokens(self, tokens: Iterable[str], pid: int) -> None:
        """Add ``pid`` to the posting list of each token (distinct tokens)."""
        postings = self._postings
        # A defaultdict (Catalog.from_records) is filled by map(), every step in C.
        if type(postings) is collections.defaultdict:
            _consume(map(_array_append, map(postings.__getitem__, tokens), repeat(pid)))
            return
        post(postings, tokens, pid)

    def finish(self) -> None:
        """Complete the postings dict (nothing left to do here: it is filled as titles come)."""


_kernel: Any
try:
    # (imported by its full name: ``from citeledger.resolve import`` would import the package)
    import citeledger.resolve._rowkernel as _kernel
except ImportError:  # no compiler at install time: the pure-Python steps
    _kernel = None

#: Whether :data:`TitleIndex` and :data:`fold` are compiled (``_rowkernel`` imports and
#: ``CITELEDGER_PURE_PYTHON`` is not ``1``). Tests patch the two names to compare both.
COMPILED: Final = _kernel is not None and os.environ.get("CITELEDGER_PURE_PYTHON") != "1"

if TYPE_CHECKING:
    TitleIndex: type[PyTitleIndex | _rowkernel.TitleIndex]
    fold: Callable[[object, Callable[[Any], str | None]], Any]
#: The title index the bulk loop uses (compiled when available, see :data:`COMPILED`).
TitleIndex = _kernel.TitleIndex if COMPILED else PyTitleIndex
#: The field folding the bulk loop uses (:func:`_fold`, compiled when available).
fold = _kernel.fold if COMPILED else _fold


def _identifier_key(value: object) -> str:
    """``work_key`` of ``Paper``'s conversion of an identifier (a string or an Identifier).

    A clean bare DOI string (most catalogs' identifiers) takes ``parse_identifier``'s own fast
    path step by step, without building the identifier: the same checks (the same publisher
    rules raise the same error) and the key ``work_key`` gives the DOI.
    """
    if (
        type(value) is str
        and _FAST_DOI_RE.fullmatch(value)
        and "%" not in value
        and "&" not in value
    ):
        doi = _doi_publisher_rules(value, value.lower())
        if not doi.startswith(_ARXIV_DOI_PREFIX):
            return "doi:" + doi
    return work_key(_identifier(value))  # type: ignore[arg-type]


class _Rows:
    """The columns of the papers a catalog holds as records until they are first read.

    Row ``pid`` is paper ``pid`` (rows of papers added as :class:`Paper` are placeholders).
    Each column holds the field as ``Paper``'s converter returns it, but for an empty text,
    kept as ``""`` where the converter gives None (:meth:`paper` reads it as None), so building
    the paper from them converts nothing twice and gives the paper the record describes; except
    the authors, kept as given (a tuple of names, :class:`Author` values or mappings, converted
    when the paper is built), and the identifiers, kept as given too (parsed at build time
    for the index, and again when the paper is built). A record outside these columns is kept
    in ``records`` as its paper without authors (built to check it) and its authors.
    """

    __slots__ = (
        "authors",
        "identifiers",
        "issue",
        "pages",
        "records",
        "title",
        "venue",
        "venues",
        "volume",
        "year",
    )

    def __init__(self) -> None:
        self.title: list[str | None] = []
        self.authors: list[Any] = []
        self.year = array("H")  # 0: no year (a Paper's year is None or within 1000-2199)
        self.venue: list[str | None] = []
        self.volume: list[str | None] = []
        self.issue: list[str | None] = []
        self.pages: list[str | None] = []
        self.identifiers: list[Identifier | str | tuple[Identifier | str, ...]] = []
        self.records: dict[int, tuple[Paper, Any]] = {}
        # venue as given -> as converted: one conversion and one string per distinct venue.
        self.venues: dict[str, str | None] = {}

    def pad(self, n: int) -> None:
        """Append placeholder rows up to ``n`` rows."""
        while len(self.title) < n:
            self.append(None, _NO_AUTHORS, 0, None, None, None, None, ())

    def append(  # noqa: PLR0917 - one argument per column
        self,
        title: str | None,
        authors: Any,
        year: int,
        venue: str | None,
        volume: str | None,
        issue: str | None,
        pages: str | None,
        identifiers: Identifier | str | tuple[Identifier | str, ...],
    ) -> None:
        """Append one row (``year`` 0 for none)."""
        self.title.append(title)
        self.authors.append(authors)
        self.year.append(year)
        self.venue.append(venue)
        self.volume.append(volume)
        self.issue.append(issue)
        self.pages.append(pages)
        self.identifiers.append(identifiers)

    def venue_of(self, value: object) -> str | None:
        """``Paper``'s conversion of a venue, remembered per distinct venue string."""
        if type(value) is not str:
            return _opt_str(value)
        venues = self.venues
        have = venues.get(value, venues)
        if have is venues:
            have = _opt_str(value)
            if len(venues) < _VENUE_CACHE_SIZE:
                venues[value] = have
        return have  # type: ignore[return-value]

    def paper(self, pid: int) -> Paper:
        """Build paper ``pid`` from its row: equal to ``Paper(**record)`` of its record."""
        record = self.records.get(pid)
        if record is not None:
            light, authors = record
            return attrs.evolve(light, authors=authors)
        # Slot by slot, as unpickling does: a row keeps the title, year, venue, volume, issue
        # and pages as Paper's converters return them (an empty text excepted: None here), so
        # only the authors and the identifiers, kept as given, are converted (a third less
        # time per paper than ``Paper(...)``; the resolver builds every record it compares).
        paper: Paper = _new(Paper)
        _set(paper, "identifiers", _identifiers(self.identifiers[pid]))
        _set(paper, "title", self.title[pid] or None)
        _set(paper, "authors", _authors(self.authors[pid]))
        _set(paper, "year", self.year[pid] or None)
        _set(paper, "venue", self.venue[pid] or None)
        _set(paper, "volume", self.volume[pid] or None)
        _set(paper, "issue", self.issue[pid] or None)
        _set(paper, "pages", self.pages[pid] or None)
        for name, value in _PAPER_REST:
            _set(paper, name, value)
        return paper


def _code_text(value: Any) -> str | None:
    """A volume or page range as ``Paper``'s converter leaves it (``_opt_str``), ASCII inline."""
    if type(value) is str and value.isascii():
        # (letters and digits only: no whitespace to fold)
        if not value.isalnum() and (text := " ".join(value.split())) != value:
            return text or None
        return value
    return None if value is None else _opt_str(value)
