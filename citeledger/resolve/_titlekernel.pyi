# Type stub of the compiled title table (_titlekernel.c); its contract is PyTitleTable's in
# _titles.py (documented there).

from array import array
from collections.abc import Sequence

class TitleTable:
    def __init__(self) -> None: ...
    def append(self, title: str, /) -> None: ...
    def __len__(self) -> int: ...
    def __getitem__(self, i: int, /) -> str: ...
    def top(
        self,
        query: str,
        lists: Sequence[array[int]],
        mode: int,
        limit: int,
        cutoff: float,
        window: float,
    ) -> list[tuple[float, int]]: ...
    def _state(self) -> tuple[bytes, bytes, bytes, str]: ...
    @classmethod
    def _from_state(
        cls, kinds: bytes, offsets: bytes, buf: bytes, byteorder: str, /
    ) -> TitleTable: ...
