"""Comparison keys of one record for :func:`~citeledger.resolve.resolver.verify`, made once.

``verify(a, b)`` reads each side's work keys and features (normalised title and its tokens,
author name keys, preprint flag, codes): the reference side's for the comparison, the paper
side's for the identifier lookup, the title block and the author comparison. A caller that
verifies one record against many others (deduplication, a candidate list, a benchmark that
repeats its pairs) would make them again for every pair. :class:`Reference` and :class:`Paper`
are frozen, so the keys depend on the object alone: :func:`pair_keys` keeps them in a side
table while the object lives, keyed by its ``id`` and dropped by a weak reference's callback
when the object is collected (an ``id`` is only reused after that): the keys object is itself
that weak reference, so an entry costs one object. Nothing is stored on the
records themselves, so their fields, equality, hashing, pickling and ``attrs`` helpers are
untouched, and two equal records still get their own entries.

A record's keys are kept from its second call on: the first call makes them for that call
only and notes the record's ``id`` in a set of ids seen once. A caller that verifies each
record once (fresh records) so keeps nothing: kept keys would only add objects for the
garbage collector to walk (a full collection over everything the caller holds), costing more
than they save. An ``id`` noted for a record since collected only makes another record's keys
kept from its first call: an entry is used only while its weak reference reaches the record
asked about.

At most :data:`MAX_KEPT` records keep their keys (a full table is emptied), and at most as many
ids of records seen once are noted (a full set is emptied). Two threads that verify one record
at once may both make its keys (the same values): one entry stays. A test checks that the kept
keys equal freshly computed ones.
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

__all__ = ["MAX_KEPT", "PairKeys", "pair_keys"]


class PairKeys(weakref.ref):  # type: ignore[type-arg]  # to a Reference or a Paper
    """One record's keys as ``verify`` reads them (see the module docstring).

    A weak reference to the record (made by :func:`pair_keys` only), holding its keys (kept in
    the table from the record's second call, see the module docstring). Each
    key but the work and version keys is made on first use: a record on the paper side needs
    its title and name keys, one on the reference side its whole
    :class:`~citeledger.resolve.scoring.ReferenceFeatures`. The methods that take the record
    must be given the record these keys belong to (read through the reference, it could be
    gone; the table must not keep it alive).

    Attributes:
        keys: The work keys of the record's identifiers, in order.
        versions: Their version keys (:func:`~citeledger.identifiers.version_of`), in order.
    """

    __slots__ = (
        "_authors",
        "_feats",
        "_related",
        "_title",
        "_version_set",
        "key",
        "keys",
        "versions",
    )

    key: int  # the record's id: its entry in the table
    keys: tuple[str, ...]
    versions: tuple[str, ...]
    _feats: ReferenceFeatures | None
    _title: str | None
    _authors: tuple[NameKey, ...] | None
    _version_set: frozenset[str] | None
    _related: frozenset[str] | None

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


#: ``id(record) -> its keys`` for the records alive that have keys.
_TABLE: Final[dict[int, PairKeys]] = {}

#: The ids of records whose keys were made once and not kept (their next call keeps them).
_SEEN: Final[set[int]] = set()

#: The most records whose keys are kept: a full table is emptied (its records' keys are made
#: again when they are verified again). An entry is about 600 bytes (a record's features), so
#: a caller that keeps a million records and verifies each one twice does not keep their keys
#: too. Also the most ids noted in :data:`_SEEN` (a full set is emptied).
MAX_KEPT: Final = 1 << 15


def _forget(ref: PairKeys, table: dict[int, PairKeys] = _TABLE) -> None:
    # The record is being collected: drop its entry, unless the entry under its id is another
    # one for the same record (a racing thread's, or one made after the table was emptied).
    if table.get(ref.key) is ref:
        del table[ref.key]


def pair_keys(record: Reference | Paper) -> PairKeys:
    """The :class:`PairKeys` of ``record``: kept from its second call on, while it lives."""
    key = id(record)
    made = _TABLE.get(key)
    if made is not None and made() is record:  # the entry is this record's, not a dead one's
        return made
    seen = _SEEN
    kept = key in seen  # the second call keeps the keys; the first makes them for itself
    made = PairKeys(record, _forget) if kept else PairKeys(record)
    keys = made.keys = tuple([work_key(i) for i in record.identifiers])
    made.versions = tuple(map(version_of, keys)) if keys else keys
    # The keys made on first use (the slots of a new object are unset).
    made._feats = made._title = made._authors = made._version_set = made._related = None  # noqa: SLF001
    if kept:
        made.key = key
        seen.discard(key)
        if len(_TABLE) >= MAX_KEPT:
            _TABLE.clear()  # a dropped entry's weak reference goes with it, callback and all
        _TABLE[key] = made
    else:
        if len(seen) >= MAX_KEPT:
            seen.clear()
        seen.add(key)
    return made
