# Type stub of the compiled steps of Catalog.from_records (_rowkernel.c); their contract is
# _rows._fold's and _rows.PyTitleIndex's (documented there). TitleIndex is typed as a subclass
# of PyTitleIndex (not one at run time), whose methods it has: their signatures stated once, there.

from collections.abc import Callable
from typing import Any

from citeledger.resolve._rows import PyTitleIndex

def fold(value: object, other: Callable[[Any], str | None], /) -> Any: ...

class TitleIndex(PyTitleIndex): ...
