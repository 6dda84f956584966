"""Pausing the garbage collector while the resolver builds or resolves many things at once.

A catalog's build and a batch of references make many objects and no reference cycles of their
own, while the caller holds many more (the papers, the records) that every full collection
would walk again and again for nothing. :func:`paused_collector` pauses the automatic collector
for such a stretch, keeps collecting the youngest generation every few thousand items (a
caller's iterable or a plug-in provider may make cycles: memory stays bounded), and restores
the caller's settings on the way out.
"""

from __future__ import annotations

import contextlib
import gc
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = ["paused_collector"]

# While the collector is paused, its youngest generation is still collected this often (items).
_COLLECT_EVERY: Final = 5000


@contextlib.contextmanager
def paused_collector(*, freeze: bool, acyclic: bool = False) -> Iterator[Callable[[], None]]:
    """Pause automatic garbage collection while a batch resolves; yields ``tick()`` per item.

    Resolving makes no reference cycles (a test checks it), so reference counting frees all
    its garbage; but the results a batch keeps would set off young collections every few
    hundred allocations and, piling up in the oldest generation, full collections that walk
    them again and again (a fifth to a quarter of the single-process time at 200k papers). So the
    collector is disabled for the batch, and ``tick()`` collects the youngest generation every
    ``_COLLECT_EVERY`` items: a plug-in provider that does make cycles cannot grow memory
    without bound. ``freeze``: also move the objects that exist now (the catalog) out of the
    collector's reach (:func:`gc.freeze`), as before forking children. A caller's own settings
    are kept: a disabled collector stays disabled (and is not collected), a caller's freeze is
    not undone; both are restored on the way out, whatever happens.

    ``acyclic``: only the library's own code runs in the batch (no plug-in provider), so it
    makes no cycles at all. With ``freeze`` (and no freeze of the caller's), nothing is then
    collected during the batch, and on the way out what the batch kept (its results, the
    catalog's papers built on demand) joins the oldest generation with the catalog, unwalked:
    frozen, then unfrozen with everything else, instead of one young collection walking every
    object the batch kept (about a twentieth of the single-process time at a million papers).
    A full collection walks them later, as it walks every long-lived object.
    """
    frozen = freeze and gc.get_freeze_count() == 0
    enabled = gc.isenabled()
    quiet = frozen and acyclic
    if frozen:
        gc.freeze()
    gc.disable()
    count = 0

    def tick() -> None:
        nonlocal count
        count += 1
        if enabled and count % _COLLECT_EVERY == 0:
            gc.collect(0)

    try:
        yield _no_tick if quiet else tick
    finally:
        if frozen:
            if quiet:
                gc.freeze()  # what the batch kept, to the oldest generation below
            gc.unfreeze()
        if enabled:
            gc.enable()


def _no_tick() -> None:
    """``tick()`` of a batch that makes no cycles: nothing to collect."""
