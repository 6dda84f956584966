"""The in-memory catalog: an identifier index and a blocking index over Papers.

The catalog is one :class:`CandidateProvider`. Sources' identifier lookup and search will be
others; the resolver verifies whatever any provider returns by the same rules.

Layout (compact, built in one pass over a stream):

* papers are stored once, in a list; everything else refers to them by integer id;
* ``work key -> ids`` for every identifier of every scheme (:func:`~citeledger.identifiers.work_key`
  makes arXiv versions and arXiv DataCite DOIs one key), and a second map for identifiers that
  papers only name in :attr:`~citeledger.model.Paper.related` (preprint/published links);
* ``title token -> array('I') of ids`` (the blocking index) plus each paper's normalised title,
  so candidate titles are scored by RapidFuzz in C without touching the Paper objects.

Candidates for a query title come from its rarest tokens (fewest papers carrying them), so the
lists stay short without losing a true match that shares those words. Results never depend on
insertion order: ties are broken by the papers' keys, and posting lists are never truncated.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from array import array
from collections import Counter
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from rapidfuzz import fuzz, process

from citeledger.identifiers import Identifier, work_key
from citeledger.resolve.normalize import normalize_title, title_tokens

if TYPE_CHECKING:
    from collections.abc import Iterable

    from citeledger.model import Paper, Reference

__all__ = ["CandidateProvider", "Catalog", "ScoredCandidate"]


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

    __slots__ = ("_block_tokens", "_ids", "_max_df", "_papers", "_postings", "_related", "_titles")

    def __init__(
        self, papers: Iterable[Paper] = (), *, block_tokens: int = 4, max_df: int | None = None
    ) -> None:
        self._papers: list[Paper] = []
        self._titles: list[str] = []
        # work key -> one id (the common case) or several; saves a list per paper.
        self._ids: dict[str, int | list[int]] = {}
        self._related: dict[str, int | list[int]] = {}
        self._postings: dict[str, array[int]] = {}
        self._block_tokens = block_tokens
        self._max_df = max_df
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
        """Add one paper; return its id in this catalog."""
        pid = len(self._papers)
        self._papers.append(paper)
        title = normalize_title(paper.title)
        self._titles.append(title)
        for ident in paper.identifiers:
            self._index(self._ids, work_key(ident), pid)
        for rel in paper.related:
            self._index(self._related, work_key(rel.identifier), pid)
        postings = self._postings
        for tok in set(title_tokens(title)):
            arr = postings.get(tok)
            if arr is None:
                postings[tok] = array("I", (pid,))
            else:
                arr.append(pid)
        return pid

    def extend(self, papers: Iterable[Paper]) -> None:
        """Add papers from any iterable (streamed, one at a time)."""
        add = self.add
        for paper in papers:
            add(paper)

    # ----------------------------------------------------------------------------- access

    def __len__(self) -> int:
        return len(self._papers)

    def __getitem__(self, pid: int) -> Paper:
        return self._papers[pid]

    def title_of(self, pid: int) -> str:
        """The normalised title of paper ``pid``."""
        return self._titles[pid]

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
        """Ids of papers carrying ``ident``'s work; if none, of papers *related* to it."""
        key = work_key(ident)
        return self._lookup(self._ids, key) or self._lookup(self._related, key)

    def by_identifier(self, ident: Identifier) -> list[Paper]:
        """Papers carrying ``ident`` (any arXiv version or DataCite alias).

        Falls back to papers that name it in their relations (a preprint cited, its published
        version in the catalog).
        """
        return [self._papers[i] for i in self.ids_by_identifier(ident)]

    def blocking_ids(self, title: str) -> list[int]:
        """Candidate ids for a *normalised* title from its rarest known tokens.

        Tokens above ``max_df`` are skipped entirely (never truncated, so the result does not
        depend on insertion order). A paper must share at least two of the selected tokens when
        three or more were selected, which keeps lists short while tolerating one misspelt word.
        """
        postings = self._postings
        max_df = self._max_df if self._max_df is not None else max(1000, len(self._papers) // 50)
        known: list[tuple[int, str]] = []
        for tok in set(title_tokens(title)):
            arr = postings.get(tok)
            if arr is not None and len(arr) <= max_df:
                known.append((len(arr), tok))
        if not known:
            return []
        known.sort()
        chosen = known[: self._block_tokens]
        if len(chosen) == 1:
            return list(postings[chosen[0][1]])
        counts: Counter[int] = Counter()
        for _, tok in chosen:
            counts.update(postings[tok])
        need = 2 if len(chosen) >= 3 else 1
        return [pid for pid, n in counts.items() if n >= need]

    def scored_candidates(
        self, title: str, *, limit: int, score_cutoff: float = 50.0
    ) -> list[ScoredCandidate]:
        """Blocking plus RapidFuzz title scoring: ``(similarity, id)`` best first.

        Ties at the ``limit`` boundary are all kept and ordered by the papers' keys, so the
        result does not depend on insertion order.
        """
        ids = self.blocking_ids(title)
        if not ids:
            return []
        titles = self._titles
        choices = [titles[i] for i in ids]
        hits = process.extract(
            title,
            choices,
            scorer=fuzz.token_sort_ratio,
            processor=None,
            score_cutoff=score_cutoff,
            limit=None,
        )
        scored = [(float(score), ids[idx]) for _, score, idx in hits]
        if len(scored) > limit:
            scored.sort(key=lambda s: -s[0])
            floor = scored[limit - 1][0]
            scored = [s for s in scored if s[0] >= floor]
        scored.sort(key=lambda s: -s[0])
        # Equal scores are ordered by the papers' keys, computed only for those groups.
        papers = self._papers
        i = 0
        while i < len(scored) - 1:
            j = i + 1
            while j < len(scored) and scored[j][0] == scored[i][0]:
                j += 1
            if j - i > 1:
                scored[i:j] = sorted(
                    scored[i:j], key=lambda s: (papers[s[1]].key, titles[s[1]], repr(papers[s[1]]))
                )
            i = j
        return scored

    def candidates(self, ref: Reference, *, limit: int = 10) -> list[Paper]:
        """Papers whose titles look like ``ref``'s title, best first (empty without a title)."""
        title = normalize_title(ref.title)
        if not title:
            return []
        return [self._papers[i] for _, i in self.scored_candidates(title, limit=limit)]
