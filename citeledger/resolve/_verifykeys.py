"""Comparison keys of one record for :func:`~citeledger.resolve.resolver.verify`, made once.

``verify(a, b)`` reads each side's work keys and features (normalised title and its tokens,
author name keys, preprint flag, codes): the reference side's for the comparison, the paper
side's for the identifier lookup, the title block and the author comparison. A caller that
verifies one record against many others (deduplication, a candidate list, a benchmark that
repeats its pairs) would make them again for every pair. :class:`Reference` and :class:`Paper`
are frozen, so the keys depend on the object alone: :func:`pair_keys` keeps them in a side
table while the object lives, keyed by its ``id`` and dropped by a weak reference's callback
when the object is collected (an ``id`` is only reused after that). Nothing is stored on the
records themselves, so their fields, equality, hashing, pickling and ``attrs`` helpers are
untouched, and two equal records still get their own entries.

A test checks that the kept keys equal freshly computed ones.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Final

from citeledger.identifiers import version_of, work_key
from citeledger.resolve.names import name_keys
from citeledger.resolve.normalize import normalize_title
from citeledger.resolve.scoring import ReferenceFeatures

if TYPE_CHECKING:
    from citeledger.model import Paper, Reference
    from citeledger.resolve.names import NameKey

__all__ = ["PairKeys", "pair_keys"]


class PairKeys:
    """One record's keys as ``verify`` reads them (see the module docstring).

    Each is made on first use: a record on the paper side needs its title and name keys, one on
    the reference side its whole :class:`~citeledger.resolve.scoring.ReferenceFeatures`. The
    methods that take the record must be given the record these keys belong to (it is not
    kept here: the table must not keep it alive).

    Attributes:
        keys: The work keys of the record's identifiers, in order.
        versions: Their version keys (:func:`~citeledger.identifiers.version_of`), in order.
    """

    __slots__ = ("_authors", "_feats", "_related", "_title", "_version_set", "keys", "versions")

    def __init__(self, keys: tuple[str, ...]) -> None:
        self.keys = keys
        self.versions = tuple(map(version_of, keys)) if keys else keys
        self._feats: ReferenceFeatures | None = None
        self._title: str | None = None
        self._authors: tuple[NameKey, ...] | None = None
        self._version_set: frozenset[str] | None = None
        self._related: frozenset[str] | None = None

    def feats(self, record: Reference | Paper) -> ReferenceFeatures:
        """``ReferenceFeatures.of(record, keys)``."""
        feats = self._feats
        if feats is None:
            feats = self._feats = ReferenceFeatures.of(record, self.keys)
        return feats

    def title(self, record: Reference | Paper) -> str:
        """``normalize_title(record.title)``."""
        title = self._title
        if title is None:
            feats = self._feats
            title = self._title = normalize_title(record.title) if feats is None else feats.title
        return title

    def authors(self, record: Reference | Paper) -> tuple[NameKey, ...]:
        """``name_keys(record.authors)``."""
        authors = self._authors
        if authors is None:
            feats = self._feats
            authors = self._authors = name_keys(record.authors) if feats is None else feats.authors
        return authors

    def version_set(self) -> frozenset[str]:
        """The work keys and their version keys, as a set."""
        found = self._version_set
        if found is None:
            found = self._version_set = frozenset((*self.keys, *self.versions))
        return found

    def related(self, paper: Paper) -> frozenset[str]:
        """The work keys of ``paper``'s ``related`` identifiers."""
        related = self._related
        if related is None:
            related = self._related = frozenset(work_key(r.identifier) for r in paper.related)
        return related


class _Ref(weakref.ref):  # type: ignore[type-arg]  # the referent is a Reference or a Paper
    """A weak reference that remembers the table key of its referent's entry."""

    __slots__ = ("key",)


#: ``id(record) -> (weak reference to it, its keys)`` for the records alive that have keys.
_TABLE: Final[dict[int, tuple[_Ref, PairKeys]]] = {}


def _forget(ref: _Ref, table: dict[int, tuple[_Ref, PairKeys]] = _TABLE) -> None:
    # The record is being collected: drop its entry (unless another entry took the key, which
    # only a racing thread's second entry for the same record can have done).
    entry = table.get(ref.key)
    if entry is not None and entry[0] is ref:
        del table[ref.key]


def pair_keys(record: Reference | Paper) -> PairKeys:
    """The :class:`PairKeys` of ``record``, made on the first call and kept while it lives."""
    key = id(record)
    entry = _TABLE.get(key)
    if entry is not None:
        return entry[1]
    made = PairKeys(tuple([work_key(i) for i in record.identifiers]))
    try:
        ref = _Ref(record, _forget)
    except TypeError:  # a record type without weak references: not kept
        return made
    ref.key = key
    _TABLE[key] = (ref, made)
    return made
