# Type stub of the compiled steps of Catalog.from_records (_rowkernel.c); their contract is
# _rows._fold's and _rows.PyTitleIndex's (documented there).

from array import array
from collections.abc import Callable, Iterable
from typing import Any

def fold(value: object, other: Callable[[Any], str | None], /) -> Any: ...

class TitleIndex:
    def __init__(
        self,
        normalized: list[str],
        titles: Callable[[str], None],
        postings: dict[str, array[int]],
        drop: Iterable[str],
    ) -> None: ...
    def add(self, title: str | None, pid: int, /) -> bool: ...
    def add_tokens(self, tokens: Iterable[str], pid: int, /) -> None: ...
    def finish(self) -> None: ...
