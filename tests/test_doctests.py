"""The examples in the docstrings run, and say what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import citeledger


def _modules() -> list[str]:
    found = pkgutil.walk_packages(citeledger.__path__, prefix="citeledger.")
    return sorted([citeledger.__name__, *(info.name for info in found)])


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    try:
        module: ModuleType = importlib.import_module(name)
    except ImportError as exc:  # an optional extra (dask, pandas, ...) is not installed
        pytest.skip(f"{name} needs an optional dependency: {exc}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
