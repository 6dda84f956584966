"""The in-memory catalog: an identifier index and a blocking index over Papers.

The catalog is one :class:`CandidateProvider`. Sources' identifier lookup and search will be
others; the resolver verifies whatever any provider returns by the same rules.

Layout (compact, built in one pass over a stream):

* papers are stored once, in a list; everything else refers to them by integer id;
* ``work key -> ids`` for every identifier of every scheme (:func:`~citeledger.identifiers.work_key`
  makes arXiv versions and arXiv DataCite DOIs one key), and a second map for identifiers that
  papers only name in :attr:`~citeledger.model.Paper.related` (preprint/published links);
* ``title token -> array('I') of ids`` (the blocking index) plus each paper's normalised title
  and, in a :class:`~citeledger.resolve._titles.TitleTable`, its word-sorted form: a query's
  candidates are gathered and scored in one call (compiled C when the extension is built, else
  RapidFuzz ``process.extract``, with identical results) without touching the Paper objects.

Candidates for a query title come from its rarest tokens (fewest papers carrying them), so the
lists stay short without losing a true match that shares those words. Results never depend on
insertion order: ties are broken by the papers' keys, and posting lists are never truncated.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import collections
import gc
from array import array
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, Protocol, runtime_checkable

from citeledger.errors import ModelError
from citeledger.identifiers import Identifier, version_of, work_key
from citeledger.identifiers._normalize import _FAST_DOI_RE, _doi_publisher_rules
from citeledger.identifiers._schemes import _ARXIV_DOI_PREFIX
from citeledger.identifiers._work import _VERSIONED_REGISTRANTS
from citeledger.model import Paper, _convert
from citeledger.model._convert import _opt_str, _year
from citeledger.model._work import _title, first_page_of, paper_order_key
from citeledger.resolve import _rows
from citeledger.resolve._config import _whole_at_least
from citeledger.resolve._gc import paused_collector
from citeledger.resolve._rows import (
    _ASCII_DROP,
    _NO_AUTHORS,
    _PAPER_FIELDS,
    _ROW_FIELDS,
    ArrowColumns,
    PyTitleIndex,
    _arrow_rows,
    _code_text,
    _fold,
    _identifier_key,
    _is_arrow,
    _new_postings,
    _Rows,
    _same,
    _title_words,
    post,
)
from citeledger.resolve._titles import TitleTable, blocking_choice, candidate_ids
from citeledger.resolve._titles import blocking_lists as _compiled_blocking
from citeledger.resolve.names import NameKey, name_keys
from citeledger.resolve.normalize import (
    normalize_code,
    normalize_title,
    title_tokens,
)
from citeledger.resolve.scoring import AuthorIndex, author_index

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np
    import numpy.typing as npt

    from citeledger.model import Reference

__all__ = [
    "CandidateProvider",
    "Catalog",
    "ScoredCandidate",
    "locator_key",
]


#: Blocking reads at most about this many posting entries per query in the common case (see
#: :meth:`Catalog.blocking_ids`).
_SCAN_BUDGET: Final = 300


def locator_key(volume: str | None, first_page: str | None) -> str | None:
    """The key of a volume and first page as the catalog indexes them, or None if one is missing.

    >>> locator_key("Vol. 76", "pp. 4350"), locator_key("76", None)
    ('76|4350', None)
    """
    v, p = normalize_code(volume), normalize_code(first_page)
    return f"{v}|{p}" if v and p else None


@runtime_checkable
class CandidateProvider(Protocol):
    """**Protocol**: something that can propose papers for a reference.

    The in-memory :class:`Catalog` is one provider; a source's identifier lookup or bibliographic
    search can be another. Providers only *propose*; the resolver decides.
    """

    def by_identifier(self, ident: Identifier) -> list[Paper]:
        """Papers carrying ``ident`` (or an identifier of the same work)."""
        ...

    def candidates(self, ref: Reference, *, limit: int) -> list[Paper]:
        """Up to about ``limit`` papers that might be the work ``ref`` cites, best first."""
        ...


def _title_of(value: object) -> str | None:
    """``Paper``'s conversion of a title (:func:`_rows.fold` folds an ASCII one itself)."""
    return None if value is None else _title(value)


def _shown_repr(value: object) -> str:
    """``repr(value)`` cut to 60 characters, for naming a bad item in an error or a reason."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


#: (title similarity 0-100, paper id) pairs returned by :meth:`Catalog.scored_candidates`.
ScoredCandidate = tuple[float, int]


class Catalog:
    """An in-memory index of papers for the resolver.

    Args:
        papers: Any iterable of papers; consumed once (a generator is fine).
        block_tokens: How many of a query title's rarest tokens select candidates.
        max_df: Tokens carried by more papers than this are never used for blocking (they
            select nothing useful and would make candidate lists long). ``None`` means
            ``max(1000, 2% of the catalog)``, computed at query time.

    Raises:
        InvalidArgument: ``block_tokens`` is not a whole number of at least 1, or ``max_df`` is
            neither None nor a whole number of at least 0 (an ``int`` or a NumPy integer; not
            a bool).

    The catalog is picklable, so a resolver ships it to worker processes once.

    Example:
        >>> from citeledger import Paper
        >>> cat = Catalog(
        ...     [Paper(title="Attention is all you need", identifiers=["arXiv:1706.03762v5"])]
        ... )
        >>> len(cat)
        1
        >>> [p.title for p in cat.by_identifier(cat[0].identifiers[0].unversioned())]
        ['Attention is all you need']
    """

    __slots__ = (
        "_author_keys",
        "_block_tokens",
        "_ids",
        "_locators",
        "_max_df",
        "_normalized",
        "_papers",
        "_postings",
        "_related",
        "_rows",
        "_titles",
        "_versions",
        "_years",
    )

    def __init__(
        self, papers: Iterable[Paper] = (), *, block_tokens: int = 4, max_df: int | None = None
    ) -> None:
        # (Checked here: a catalog with no token to block on would fail at its first query.)
        block_tokens = _whole_at_least(block_tokens, 1, "block_tokens")
        if max_df is not None:
            max_df = _whole_at_least(max_df, 0, "max_df", or_none=True)
        # The papers; None for a paper added as a record (:meth:`add_record`) until it is first
        # read: it is built then from its row of ``_rows`` and kept here.
        self._papers: list[Paper | None] = []
        # The columns of the papers added as records (None until a record is added).
        self._rows: _Rows | None = None
        # Each paper's year (0 for none; a Paper's year is None or within 1000-2199), read for
        # the many candidates of a generic title without reading their papers.
        self._years = array("H")
        # Each paper's normalised title with its words sorted: RapidFuzz ``ratio`` on these is
        # ``token_sort_ratio`` without re-sorting every candidate at query time. The table
        # scores a query's candidates in one call (compiled when the extension is built).
        self._titles = TitleTable()
        # work key -> one id (the common case) or several; saves a list per paper.
        self._ids: dict[str, int | list[int]] = {}
        self._related: dict[str, int | list[int]] = {}
        # version key -> ids, only for identifiers whose version key differs from the work key.
        self._versions: dict[str, int | list[int]] = {}
        self._postings: dict[str, array[int]] = {}
        # locator_key(volume, first page) -> ids: the journal/volume/page route for references
        # without a title.
        self._locators: dict[str, int | list[int]] = {}
        self._block_tokens = block_tokens
        self._max_df = max_df
        # Each paper's normalised title, as compared once the paper is a candidate (normalised at
        # build time anyway, for the word-sorted form above).
        self._normalized: list[str] = []
        # Per-paper author keys, computed the first time a paper is a candidate and kept: a
        # paper that is a candidate once is usually one again (references to one work, its
        # look-alikes), and most papers never are, so nothing is computed for them at build.
        # Their AuthorIndex is added when a comparison first reads it (None until then).
        self._author_keys: dict[int, tuple[tuple[NameKey, ...], AuthorIndex | None]] = {}
        self.extend(papers)

    # ----------------------------------------------------------------------------- building

    @staticmethod
    def _index(index: dict[str, int | list[int]], key: str, pid: int) -> None:
        have = index.get(key)
        if have is None:
            index[key] = pid
        elif isinstance(have, int):
            if have != pid:
                index[key] = [have, pid]
        elif pid not in have:
            have.append(pid)

    def add(self, paper: Paper) -> int:
        """Add one paper; return its id in this catalog.

        Raises:
            ModelError: ``paper`` is not a :class:`~citeledger.model.Paper` (the message says
                which item of the stream it was).
        """
        return self._add(paper, None)

    def _add(self, paper: Paper, titles: PyTitleIndex | None) -> int:
        # add(paper); ``titles``: the title index of a bulk load (extend), if any.
        pid = len(self._papers)
        if not isinstance(paper, Paper):
            raise ModelError(
                f"catalog item {pid}: expected a Paper, got {type(paper).__name__}: "
                f"{_shown_repr(paper)}"
            )
        self._papers.append(paper)
        self._years.append(paper.year or 0)
        if self._rows is not None:
            self._rows.pad(pid + 1)
        self._index_paper(pid, paper, titles)
        return pid

    def add_record(self, record: Mapping[str, Any]) -> int:
        """Add one paper given as a mapping of :class:`~citeledger.model.Paper` fields.

        The paper itself is built (``Paper(**record)``) only when it is first read: as a
        candidate, a result or through ``catalog[pid]``. Every other field is converted now
        (by ``Paper``'s own converters), so the indexes are those of the paper, and a value
        that ``Paper`` would refuse is refused here; the author names (most of a paper's
        construction cost) are converted when the paper is built. A record of the common
        fields (title, authors, year, venue, volume, issue, pages, identifiers) is held in
        columns, without building any object for it; any other record is checked by building
        the paper without its authors, and kept as given.

        Raises:
            ModelError: ``record`` is not a mapping, names a field ``Paper`` does not have, or
                holds a value it refuses (the message says which item of the stream it was).
        """
        pid = len(self._papers)
        self._add_many((record,))
        return pid

    def _add_many(self, records: Iterable[object], *, bulk: bool = False) -> None:
        """:meth:`add_record` for each record (and :meth:`add` for each Paper), in one loop.

        The common record (only the fields of ``_Rows``, values of the usual types) is converted
        here inline, each step the same as ``Paper``'s converter on such a value (a test checks
        the catalogs alike); anything else goes to :meth:`_add_whole`, which builds the paper.
        """
        papers = self._papers
        rows = self._rows
        if rows is None:
            rows = self._rows = _Rows()
        rows.pad(len(papers))
        superset = _ROW_FIELDS.issuperset
        venue_of, venues = rows.venue_of, rows.venues
        r_title, r_authors, r_year = rows.title.append, rows.authors.append, rows.year.append
        r_venue, r_volume, r_issue = rows.venue.append, rows.volume.append, rows.issue.append
        r_pages, r_ids = rows.pages.append, rows.identifiers.append
        normalized, titles = self._normalized.append, self._titles.append
        years = self._years.append
        ids, locators, index = self._ids, self._locators, self._index
        ids_setdefault, locators_setdefault = ids.setdefault, locators.setdefault
        fast_doi = _FAST_DOI_RE.fullmatch
        low, high = _convert.YEAR_RANGE
        # The title indexes and the folding of titles, volumes and pages: compiled for a bulk
        # load when the extension is built (its posting lists are merged into self._postings
        # by finish()), else in Python; the same results either way (a test compares them).
        title_index = (_rows.TitleIndex if bulk else PyTitleIndex)(
            self._normalized, titles, self._postings, _ASCII_DROP
        )
        add_title, add_tokens = title_index.add, title_index.add_tokens
        fold = _rows.fold if bulk else _fold
        try:
            for record in records:
                pid = len(papers)
                if type(record) is not dict:
                    if isinstance(record, Paper):
                        self.add(record)
                        continue
                    if not isinstance(record, Mapping):
                        raise ModelError(
                            f"catalog record {pid}: expected a mapping of Paper fields, got "
                            f"{type(record).__name__}: {_shown_repr(record)}"
                        )
                if not superset(record):
                    self._add_whole(pid, record)
                    continue
                get = record.get
                authors = get("authors")
                if authors is None or not authors:
                    authors = _NO_AUTHORS
                elif type(authors) is not list and not isinstance(authors, str | Iterable):
                    self._add_whole(pid, record)  # refused there, naming the record
                    continue
                # Each value as Paper's converter returns it (for an ASCII string, _opt_str is the
                # whitespace folding; an int year in range is kept); any value they refuse, or of a
                # shape this loop does not take, goes to _add_whole, which refuses it with Paper's
                # own message.
                try:
                    title = fold(get("title"), _title_of)
                    year = get("year")
                    if year is not None and not (type(year) is int and low <= year <= high):
                        year = _year(year)
                    venue = get("venue")
                    if venue is not None:
                        venue = venues.get(venue, venues)
                        if venue is venues:
                            venue = venue_of(get("venue"))
                    volume = fold(get("volume"), _code_text)
                    pages = fold(get("pages"), _code_text)
                    issue = get("issue")
                    if issue is not None:
                        issue = _same(issue, _opt_str)
                    given = get("identifiers")
                    if given is None:
                        keys: list[str] = []
                        given = ()
                    elif type(given) is list and len(given) == 1:
                        # One identifier (the common case), most often a clean DOI: as
                        # _identifier_key, inline.
                        one = given[0]
                        if (
                            type(one) is str
                            and fast_doi(one)
                            and "%" not in one
                            and "&" not in one
                            and not (doi := _doi_publisher_rules(one, one.lower())).startswith(
                                _ARXIV_DOI_PREFIX
                            )
                        ):
                            keys = ["doi:" + doi]
                        else:
                            keys = [_identifier_key(one)]
                        given = one  # kept bare: Paper reads it as the list of it
                    elif type(given) is list or type(given) is tuple:
                        keys = list(map(_identifier_key, given))
                        # One identifier is kept bare: Paper reads it as the list of it.
                        given = given[0] if len(given) == 1 else tuple(given)
                    else:
                        self._add_whole(pid, record)
                        continue
                except (ModelError, TypeError, ValueError):
                    self._add_whole(pid, record)
                    continue
                papers.append(None)
                r_title(title)
                r_authors(authors)
                r_year(year or 0)
                years(year or 0)
                r_venue(venue)
                r_volume(volume)
                r_issue(issue)
                r_pages(pages)
                r_ids(given)
                # The indexes, as _index_fields builds them.
                if not add_title(title, pid):
                    words, tokens = _title_words(title)
                    normalized(" ".join(words))
                    words.sort()
                    titles(" ".join(words))
                    add_tokens(tokens, pid)
                for key in keys:
                    if ids_setdefault(key, pid) is not pid:
                        index(ids, key, pid)
                    if key[:4] != "doi:" or key[4 : key.find("/")] in _VERSIONED_REGISTRANTS:
                        base = version_of(key)  # (which keeps any other DOI's key)
                        if base != key:
                            index(self._versions, base, pid)
                if volume and pages:
                    if (
                        volume.isdigit()
                        and pages.isdigit()
                        and volume.isascii()
                        and pages.isascii()
                    ):
                        # normalize_code keeps ASCII digits, and they hold no page range.
                        loc: str | None = f"{volume}|{pages}"
                    else:
                        loc = locator_key(volume, first_page_of(pages))
                    if loc is not None and locators_setdefault(loc, pid) is not pid:
                        index(locators, loc, pid)
        finally:
            title_index.finish()

    def _add_whole(self, pid: int, record: Mapping[str, Any]) -> int:
        """:meth:`add_record` for any record: check it by building the paper without authors."""
        unknown = set(record) - _PAPER_FIELDS
        if unknown:
            raise ModelError(
                f"catalog record {pid}: not Paper fields: {', '.join(sorted(map(str, unknown)))}"
            )
        authors = record.get("authors")
        if authors is not None and not isinstance(authors, str | Iterable):
            raise ModelError(
                f"catalog record {pid}: authors must be names or Authors, not "
                f"{type(authors).__name__}"
            )
        try:
            light = Paper(**{k: v for k, v in record.items() if k != "authors"})
        except (ModelError, TypeError, ValueError) as exc:
            raise ModelError(f"catalog record {pid}: {exc}") from exc
        rows = self._rows
        if rows is None:
            rows = self._rows = _Rows()
        rows.pad(pid + 1)
        self._years.append(light.year or 0)
        if authors:
            # The paper is the light one with the authors: built when first read.
            self._papers.append(None)
            rows.records[pid] = (light, authors)
        else:
            self._papers.append(light)
        self._index_paper(pid, light)
        return pid

    @classmethod
    def from_records(
        cls,
        records: Iterable[Mapping[str, Any] | Paper] | ArrowColumns,
        *,
        block_tokens: int = 4,
        max_df: int | None = None,
    ) -> Catalog:
        """A catalog of papers given as mappings of :class:`~citeledger.model.Paper` fields.

        Indexes exactly what ``Catalog(Paper(**r) for r in records)`` would (the resolver
        decides alike: tests check it), without building the papers: the fields are converted
        and checked by ``Paper``'s own converters and held in columns, and each paper is built
        from its record the first time it is read (a candidate the resolver compares or
        orders, a result, or ``catalog[pid]``), then kept. The cyclic garbage collector is
        paused while it runs (the build makes no cycles, and the collector would walk the
        caller's records again and again). The titles are indexed, and titles, volumes and
        pages folded, by the compiled ``_rowkernel`` when the extension is built (else in
        Python, with the same result). About 9-11 CPU-seconds (15-18 on a slower machine) and
        0.5 GB per million records of the common fields on the shared workload (17-24 with the
        pure-Python steps; 41-43 before the columns), measured with
        ``benchmarks/catalog_build.py``.

        ``records`` may be:

        * any iterable of mappings (a generator is fine: it is consumed once);
        * a pyarrow ``Table`` or ``RecordBatch`` whose columns are named as ``Paper`` fields
          (``pip install citeledger[arrow]``; read column by column, a batch at a time);
        * papers, or a mix of papers and mappings: a :class:`~citeledger.model.Paper` item is
          added as it is. So the dump readers' papers go straight in:
          ``Catalog.from_records(iter_opencitations_meta_csv(path))``, and for OpenAlex
          ``Catalog.from_records(iter_openalex_works(path, parse=lambda w:
          work_from_json(w).paper))`` (the readers' raw dicts are source records, not
          ``Paper`` fields).

        Raises:
            ModelError: ``records`` is not one of the above, or a record is refused
                (:meth:`add_record`; the message names the record's index).
            InvalidArgument: ``block_tokens`` or ``max_df`` is refused (as by the constructor).

        Example:
            >>> cat = Catalog.from_records([{"title": "Attention is all you need", "year": 2017}])
            >>> cat[0].year
            2017
        """
        catalog = cls(block_tokens=block_tokens, max_df=max_df)
        given: object = records
        if _is_arrow(given):
            given = _arrow_rows(given)
        if isinstance(given, str | bytes | Mapping) or not isinstance(given, Iterable):
            raise ModelError(
                "a catalog is built from records (an iterable of mappings of Paper fields, or "
                f"a pyarrow Table), not a {type(given).__name__}"
            )
        # The build makes few objects that outlive it but walks many that the caller holds
        # (the records): the cyclic collector would walk them again and again for nothing.
        collecting = gc.isenabled()
        gc.disable()
        # Missing tokens get their list as they are looked up (see _add_many), then a plain
        # dict again.
        catalog._postings = collections.defaultdict(_new_postings)
        try:
            catalog._add_many(given, bulk=True)
        finally:
            catalog._postings = dict(catalog._postings)
            if catalog._rows is not None:
                catalog._rows.venues.clear()  # (a cache for the build: not pickled to workers)
            if collecting:
                gc.enable()
        return catalog

    def _index_paper(self, pid: int, paper: Paper, titles: PyTitleIndex | None = None) -> None:
        self._index_fields(
            pid,
            paper.title,
            [work_key(i) for i in paper.identifiers],
            [work_key(r.identifier) for r in paper.related],
            paper.volume,
            paper.pages,
            titles,
        )

    def _index_fields(  # noqa: PLR0917 - the fields the indexes read
        self,
        pid: int,
        title: str | None,
        keys: Iterable[str],
        related: Iterable[str],
        volume: str | None,
        pages: str | None,
        titles: PyTitleIndex | None = None,
    ) -> None:
        """Index paper ``pid`` by its converted title, work keys, relations' keys and locator.

        ``titles``: the title index of a bulk load, which indexes the common title itself.
        """
        tokens: Iterable[str] = ()
        if titles is not None and titles.add(title, pid):
            pass  # the bulk load's index took it
        elif title:
            words, tokens = _title_words(title)
            self._normalized.append(" ".join(words))
            words.sort()
            self._titles.append(" ".join(words))
            if titles is not None:
                titles.add_tokens(tokens, pid)
                tokens = ()
        else:
            self._normalized.append("")
            self._titles.append("")
        for key in keys:
            self._index(self._ids, key, pid)
            base = version_of(key)
            if base != key:
                self._index(self._versions, base, pid)
        for key in related:
            self._index(self._related, key, pid)
        if volume and pages:
            loc = locator_key(volume, first_page_of(pages))
            if loc is not None:
                self._index(self._locators, loc, pid)
        post(self._postings, tokens, pid)

    def extend(self, papers: Iterable[Paper]) -> None:
        """Add papers from any iterable (streamed, one at a time).

        Raises:
            ModelError: ``papers`` is a string or not iterable, or one of its items is not a
                :class:`~citeledger.model.Paper`.
        """
        given: object = papers  # checked as what a caller may really pass
        if isinstance(given, str | bytes) or not isinstance(given, Iterable):
            raise ModelError(
                f"a catalog is built from papers (any iterable of Paper), not a "
                f"{type(given).__name__}"
            )
        # A bulk load: the common titles are indexed by the compiled title index (its posting
        # lists merged into the catalog's when the load ends, however it ends), and the
        # collector is paused as for a batch (the caller's papers are not walked again and
        # again; the youngest generation is still collected every few thousand papers).
        add = self._add
        titles = _rows.TitleIndex(
            self._normalized, self._titles.append, self._postings, _ASCII_DROP
        )
        with paused_collector(freeze=True) as tick:
            try:
                for paper in papers:
                    add(paper, titles)
                    tick()
            finally:
                titles.finish()

    # ----------------------------------------------------------------------------- access

    def __len__(self) -> int:
        return len(self._papers)

    def __getitem__(self, pid: int) -> Paper:
        have = self._papers[pid]
        if have is not None:
            return have
        # A record (add_record): built from its row once, then kept.
        if pid < 0:
            pid += len(self._papers)
        rows = self._rows
        assert rows is not None
        paper = self._papers[pid] = rows.paper(pid)
        rows.records.pop(pid, None)
        return paper

    def title_of(self, pid: int) -> str:
        """The normalised title of paper ``pid`` (computed when the paper was added)."""
        return self._normalized[pid]

    def year_of(self, pid: int) -> int | None:
        """The year of paper ``pid`` (without building the paper)."""
        return self._years[pid] or None

    def years_of(self, pids: Iterable[int]) -> list[int]:
        """The years of papers ``pids``, 0 for none (without building the papers)."""
        return list(map(self._years.__getitem__, pids))

    def years_at(self, pids: Sequence[int] | npt.NDArray[np.intp]) -> npt.NDArray[np.uint16]:
        """The years of papers ``pids`` as a NumPy array, 0 for none (without building them)."""
        import numpy as np  # noqa: PLC0415 - imported when first needed (it is a large import)

        # (a view of the year column while it is read: the column cannot grow meanwhile)
        column = np.frombuffer(self._years, dtype=np.uint16)
        years: npt.NDArray[np.uint16] = column[np.asarray(pids, dtype=np.intp)]
        del column
        return years

    def author_keys(self, pid: int) -> tuple[NameKey, ...]:
        """The :func:`~citeledger.resolve.names.name_keys` of paper ``pid`` (computed once)."""
        have = self._author_keys.get(pid)
        if have is None:
            have = self._author_keys[pid] = (name_keys(self[pid].authors), None)
        return have[0]

    def authors_of(self, pid: int) -> tuple[tuple[NameKey, ...], AuthorIndex]:
        """Paper ``pid``'s author keys and their :func:`~citeledger.resolve.scoring.author_index`.

        Computed the first time they are asked for, then kept (the index only when asked for:
        a comparison with one candidate does not read it).
        """
        have = self._author_keys.get(pid)
        keys = self.author_keys(pid) if have is None else have[0]
        index = None if have is None else have[1]
        if index is None:
            index = author_index(keys)
            self._author_keys[pid] = (keys, index)
        return keys, index

    def document_frequency(self, token: str) -> int:
        """How many papers carry ``token`` in their normalised title."""
        arr = self._postings.get(token)
        return 0 if arr is None else len(arr)

    def __getstate__(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return f"<Catalog of {len(self)} papers, {len(self._postings)} title tokens>"

    # ----------------------------------------------------------------------------- provider

    def _lookup(self, index: dict[str, int | list[int]], key: str) -> list[int]:
        have = index.get(key)
        if have is None:
            return []
        return [have] if isinstance(have, int) else list(have)

    def ids_by_identifier(self, ident: Identifier) -> list[int]:
        """Ids of papers carrying ``ident``'s work; if none, of papers *related* to it.

        Then of papers carrying another version of it (:func:`version_key`: figshare ``.v2``,
        Research Square ``/v1``, ...).
        """
        key = work_key(ident)
        found = self._lookup(self._ids, key) or self._lookup(self._related, key)
        if found:
            return found
        base = version_of(key)
        if base == key and not self._versions:
            return []
        return sorted({*self._lookup(self._ids, base), *self._lookup(self._versions, base)})

    def by_identifier(self, ident: Identifier) -> list[Paper]:
        """Papers carrying ``ident`` (any arXiv version or DataCite alias).

        Falls back to papers that name it in their relations (a preprint cited, its published
        version in the catalog), then to other versions of a versioned DOI.
        """
        return [self[i] for i in self.ids_by_identifier(ident)]

    def ids_by_locator(self, volume: str | None, first_page: str | None) -> list[int]:
        """Ids of papers with this volume and first page (compared as :func:`locator_key`)."""
        key = locator_key(volume, first_page)
        return [] if key is None else self._lookup(self._locators, key)

    def by_locator(self, volume: str | None, first_page: str | None) -> list[Paper]:
        """Papers with this volume and first page, in any journal.

        The candidates for a reference without a title ("Proc. Natl. Acad. Sci. 76, 4350").

        >>> from citeledger import Paper
        >>> cat = Catalog([Paper(venue="Proc Natl Acad Sci U S A", volume="76", pages="4350-4")])
        >>> [p.volume for p in cat.by_locator("Vol. 76", "4350")]
        ['76']
        """
        return [self[i] for i in self.ids_by_locator(volume, first_page)]

    def blocking_ids(self, title: str) -> list[int]:
        """Candidate ids for a *normalised* title from its rarest known tokens (sorted).

        The query's known tokens are ordered by document frequency (ties by the token), and
        tokens above ``max_df`` are skipped entirely (never truncated). Then, with ``r`` the
        rarest and ``s`` the next:

        * if ``r`` is carried by at most ``_SCAN_BUDGET`` papers, every paper carrying ``r``
          is a candidate, and so is every paper carrying ``s`` (then the next rarest, up to
          ``block_tokens``) while the lists together stay within the budget, so a misspelt or
          stray rare word does not lose the match;
        * otherwise (a title made only of common words) a paper must carry at least two of the
          three rarest tokens.

        The work per query is bounded by the budget in the common case, and every choice depends
        only on document frequencies, never on insertion order.
        """
        return sorted(self._blocking(title))

    def _blocking(self, title: str, tokens: Iterable[str] | None = None) -> list[int]:
        # blocking_ids() without the sort: candidates are ordered by score and key later.
        chosen = self._blocking_lists(title, tokens)
        if chosen is None:
            return []
        return list(candidate_ids(*chosen))

    def _blocking_lists(
        self, title: str, tokens: Iterable[str] | None = None
    ) -> tuple[list[array[int]], int] | None:
        """The posting lists :meth:`blocking_ids` selects from, and how: union or two of three.

        ``tokens``: ``title_tokens(title)``, when the caller has them already. None when no
        token of the title is known (or all are too frequent).
        """
        max_df = self._max_df if self._max_df is not None else max(1000, len(self._papers) // 50)
        if tokens is None:
            tokens = title_tokens(title)
        # (block_tokens >= 1: the constructor checked it.) The compiled choice when built, the
        # same as the Python one (a test compares the two).
        choose = blocking_choice if _compiled_blocking is None else _compiled_blocking
        return choose(self._postings, tokens, max_df, self._block_tokens, _SCAN_BUDGET)

    def scored_candidates(
        self,
        title: str,
        *,
        limit: int,
        score_cutoff: float = 50.0,
        ordered: bool = True,
        tokens: Iterable[str] | None = None,
        window: float = 100.0,
    ) -> list[ScoredCandidate]:
        """Blocking plus RapidFuzz title scoring: ``(similarity, id)`` best first.

        The similarity is ``token_sort_ratio`` of the normalised titles (computed in C as
        ``ratio`` on the word-sorted titles stored at build time). Ties at the ``limit``
        boundary are all kept and ordered by the papers' keys, so the result does not depend on
        insertion order. ``ordered=False`` skips that ordering of equal scores (the *set* returned
        is the same) for callers that order candidates themselves, as the resolver does.
        ``tokens`` are the title's :func:`~citeledger.resolve.normalize.title_tokens`, if the
        caller has computed them already. ``window``: candidates scoring more than this below the
        best are left out too (the resolver's title window).
        """
        chosen = self._blocking_lists(title, tokens)
        if chosen is None:
            return []
        titles = self._titles
        query = " ".join(sorted(title.split()))
        # Gathering, scoring and the limit rule in one call of the title table: the same hits,
        # scores and ``limit`` rule as RapidFuzz ``process.extract`` over the candidates' titles
        # (a test checks both implementations against it).
        scored = titles.top(query, chosen[0], chosen[1], limit, score_cutoff, window)
        if not ordered:
            return scored
        # Equal scores are ordered by the papers' keys and titles, then (rarely needed) all their
        # fields (paper_order_key), read only inside groups of equal score.
        papers = self
        i = 0
        while i < len(scored) - 1:
            j = i + 1
            while j < len(scored) and scored[j][0] == scored[i][0]:
                j += 1
            if j - i > 1:
                group = sorted(scored[i:j], key=lambda s: (papers[s[1]].key, titles[s[1]]))
                keys = [(papers[s[1]].key, titles[s[1]]) for s in group]
                if len(set(keys)) < len(keys):
                    group.sort(
                        key=lambda s: (
                            papers[s[1]].key,
                            titles[s[1]],
                            paper_order_key(papers[s[1]]),
                        )
                    )
                scored[i:j] = group
            i = j
        return scored

    def candidates(self, ref: Reference, *, limit: int = 10) -> list[Paper]:
        """Papers whose titles look like ``ref``'s title, best first (empty without a title)."""
        title = normalize_title(ref.title)
        if not title:
            return []
        return [self[i] for _, i in self.scored_candidates(title, limit=limit)]
