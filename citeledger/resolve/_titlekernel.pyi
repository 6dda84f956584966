# Type stub of the compiled title table (_titlekernel.c); its contract is PyTitleTable's in
# _titles.py (documented there). Typed as a subclass of it (not one at run time) so that the
# signatures of the methods both have are stated once, there; the C type adds its pickle state
# (_state, _from_state) and pickles by __reduce__, not by PyTitleTable's __getstate__/__setstate__.

from array import array
from collections.abc import Iterable

from citeledger.resolve._titles import PyTitleTable

class TitleTable(PyTitleTable):
    def _state(self) -> tuple[bytes, bytes, bytes, str]: ...
    @classmethod
    def _from_state(
        cls, kinds: bytes, offsets: bytes, buf: bytes, byteorder: str, /
    ) -> TitleTable: ...

def simd_levels() -> tuple[str, ...]: ...
def get_simd() -> str: ...
def set_simd(level: str, /) -> None: ...
def blocking_lists(
    postings: dict[str, array[int]],
    tokens: Iterable[str],
    max_df: int,
    block_tokens: int,
    scan_budget: int,
    /,
) -> tuple[list[array[int]], int] | None: ...
def _set_early_abort(on: bool, /) -> None: ...
