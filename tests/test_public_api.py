"""The top-level package exports exactly the documented surface (httpx's test_exported_members).

``citeledger.__all__`` is the list of top-level names in the API reference, every public attribute
of the package is in it, and every name that left it in 0.2.0 still imports from the subpackage
the CHANGELOG names. The names are read from those two documents, not written out again here.
"""

from __future__ import annotations

import importlib
import re
import types
from pathlib import Path

import pytest

import citeledger

ROOT = Path(__file__).resolve().parents[1]
API_PAGE = ROOT / "docs" / "reference" / "api" / "citeledger.rst"
CHANGELOG = ROOT / "CHANGELOG.md"
#: Where the CHANGELOG (0.2.0, "Removed") starts the list of the names that left the top level.
_REMOVED_HEAD = (
    "- From the top-level `citeledger` namespace (each still imports from its module):\n"
)


def _documented_surface() -> tuple[str, ...]:
    """The top-level names, as the API reference lists them (``cl.Name``).

    What a user needs to parse identifiers, resolve references, build and serialise records and
    load sources; everything else is imported from its subpackage.
    """
    text = API_PAGE.read_text(encoding="utf-8")
    section = text.split("Top-level names\n---------------\n", 1)[1]
    return tuple(re.findall(r"``cl\.(\w+)``", section))


def _moved_names() -> dict[str, tuple[str, ...]]:
    """Where each name that left ``citeledger.__all__`` in 0.2.0 lives now, as the CHANGELOG says.

    The list is ``module`` followed by ``: `Name`, ...``, or a dotted ``module.Name`` (the
    adapters: ``citeledger.sources.arxiv.ArxivSource``, then ``crossref.CrossrefSource``, a
    sibling of the module before). A removed name importing from there is the promise the
    changelog makes.
    """
    text = CHANGELOG.read_text(encoding="utf-8")
    block = text.split(_REMOVED_HEAD, 1)[1].split("\n\n", 1)[0]
    moved: dict[str, list[str]] = {}
    module = ""
    for item, colon in re.findall(r"`([\w.]+)`(:?)", block):
        if colon:
            module = item
            continue
        name = item
        if "." in item:
            head, _, name = item.rpartition(".")
            module = (
                head if head.startswith("citeledger.") else f"{module.rpartition('.')[0]}.{head}"
            )
        moved.setdefault(module, []).append(name)
    return {module: tuple(names) for module, names in moved.items()}


PUBLIC = _documented_surface()
MOVED = _moved_names()


def test_all_is_exactly_the_documented_surface() -> None:
    assert sorted(citeledger.__all__) == sorted(PUBLIC)
    assert len(set(PUBLIC)) == len(PUBLIC)


def test_every_public_attribute_is_exported() -> None:
    """Nothing public hides in the package namespace outside ``__all__`` (submodules aside).

    The names are loaded on first use (PEP 562), so every one is read first: what the namespace
    holds then is ``__all__`` exactly.
    """
    for name in citeledger.__all__:
        getattr(citeledger, name)
    public = {
        name
        for name, value in vars(citeledger).items()
        if not name.startswith("_")
        and not isinstance(value, types.ModuleType)
        and name != "annotations"
    }
    assert public == set(citeledger.__all__)


@pytest.mark.parametrize("name", PUBLIC)
def test_each_exported_name_is_defined_in_a_submodule(name: str) -> None:
    value = getattr(citeledger, name)
    # A type alias (Identifier) has no __module__ of its own: it is the identifiers' alias.
    home = "citeledger.identifiers" if isinstance(value, types.UnionType) else value.__module__
    assert home.startswith("citeledger."), (name, home)
    assert getattr(importlib.import_module(home), name) is value


def test_dir_is_all() -> None:
    assert dir(citeledger) == sorted(citeledger.__all__)


@pytest.mark.parametrize("module", sorted(MOVED))
def test_names_that_left_the_top_level_import_from_their_subpackage(module: str) -> None:
    mod = importlib.import_module(module)
    for name in MOVED[module]:
        assert getattr(mod, name) is not None, (module, name)
        assert name in getattr(mod, "__all__", ()), (module, name)
        assert not hasattr(citeledger, name) or name in PUBLIC, name
