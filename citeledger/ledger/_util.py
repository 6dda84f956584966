"""Small order-keeping helpers the ledger's modules share."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from collections.abc import Iterable

T = TypeVar("T")


def _unique(items: Iterable[T]) -> tuple[T, ...]:
    out: list[T] = []
    for item in items:
        if item not in out:
            out.append(item)
    return tuple(out)


def _merge_names(groups: Iterable[Iterable[str]]) -> tuple[str, ...]:
    return _unique(n for g in groups for n in g)
