"""The import layers of docs/explanation/architecture.md: a lower layer never imports a higher one.

Every ``import`` in the package is read from the source (function-level and ``TYPE_CHECKING``
imports included), so a lazy import that hides a cycle fails here too. The same import graph
must be acyclic, and every module must import on its own in a fresh interpreter.
"""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from collections.abc import Collection, Iterator

PACKAGE = Path(__file__).resolve().parents[1] / "citeledger"

#: Layers, lowest first. A module may import from its own layer or any lower one. The longest
#: matching prefix names a module's layer; the bare package ``citeledger`` (its ``__init__``,
#: which re-exports everything) matches only itself and sits on top. Keep this table and the
#: drawing in docs/explanation/architecture.md in step.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("citeledger.errors",),
    ("citeledger.identifiers",),
    ("citeledger._text",),
    ("citeledger.refparse",),
    ("citeledger.model", "citeledger._progress"),
    # Values over the model: page values, the converter, the table schema (frames reads a
    # record's values only, duck-typed, so CitationRecord.to_records delegates *down* to it).
    ("citeledger.page", "citeledger.serialize", "citeledger.frames"),
    ("citeledger.formats",),
    ("citeledger.sources", "citeledger._memo"),
    ("citeledger.resolve",),
    ("citeledger.ledger",),
    ("citeledger.dask", "citeledger.exports"),
    ("citeledger.testing",),
    ("citeledger.cli", "citeledger.__main__", "citeledger"),
)

#: Imports allowed although they point upwards: (importer, imported) -> why. Keep it empty
#: unless the architecture page argues for an entry.
EXCEPTIONS: dict[tuple[str, str], str] = {}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = sorted(PACKAGE.rglob("*.py"))
NAMES = frozenset(_module_name(p) for p in MODULES)


def _layer(module: str) -> int:
    best, rank = -1, -1
    for i, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            exact_only = prefix == "citeledger"
            hit = module == prefix or (not exact_only and module.startswith(prefix + "."))
            if hit and len(prefix) > best:
                best, rank = len(prefix), i
    return rank


#: How an import runs: at import time, inside a function (lazily) or only for type checkers.
TOP, LAZY, TYPING = "top", "lazy", "typing"


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import statement of ``tree`` with how it runs (:data:`TOP`, :data:`LAZY`, ...)."""
    todo: list[tuple[ast.AST, str]] = [(tree, TOP)]
    while todo:
        node, kind = todo.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, kind
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                todo.append((child, TYPING if kind == TYPING else LAZY))
            elif isinstance(child, ast.If) and _is_type_checking(child):
                todo.extend((c, TYPING) for c in child.body)
                todo.extend((c, kind) for c in child.orelse)
            else:
                todo.append((child, kind))


def _imports(path: Path, module: str, kinds: Collection[str] = (TOP, LAZY, TYPING)) -> set[str]:
    """The citeledger modules ``path`` imports, anywhere in its body (or only ``kinds``).

    ``from citeledger.x import y`` counts as importing ``citeledger.x.y`` when that is a module
    and ``citeledger.x`` otherwise, so ``from citeledger import model`` is an import of the
    model, not of the package's ``__init__``.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node, kind in _import_nodes(tree):
        if kind not in kinds:
            continue
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
            continue
        if node.level:
            base = package.split(".")
            base = base[: len(base) - node.level + 1]
            name = ".".join([*base, node.module] if node.module else base)
        else:
            name = node.module or ""
        for alias in node.names:
            sub = f"{name}.{alias.name}"
            out.add(sub if sub in NAMES else name)
    return {m for m in out if m == "citeledger" or m.startswith("citeledger.")}


#: Lazy (function-level) imports that close a loop, allowed by design: (importer, imported)
#: -> why. docs/explanation/architecture.md argues each one.
LAZY_LOOPS: dict[tuple[str, str], str] = {
    ("citeledger.ledger.record", "citeledger.ledger._render"): (
        "CitationRecord.render() delegates to the renderer, which reads the record"
    ),
    ("citeledger.ledger.record", "citeledger.ledger._schema"): (
        "CitationRecord.json_schema() delegates to the schema writer, which walks the record"
    ),
}


@cache
def _graph() -> dict[str, frozenset[str]]:
    """The runtime import graph: import-time and lazy imports, not ``TYPE_CHECKING`` ones."""
    graph: dict[str, frozenset[str]] = {}
    for p in MODULES:
        me = _module_name(p)
        graph[me] = frozenset(
            m
            for m in _imports(p, me, (TOP, LAZY))
            if m in NAMES and m != me and (me, m) not in LAZY_LOOPS
        )
    return graph


@pytest.mark.parametrize("path", MODULES, ids=_module_name)
def test_no_module_imports_a_higher_layer(path: Path) -> None:
    module = _module_name(path)
    mine = _layer(module)
    assert mine >= 0, f"{module} is in no layer: add it to LAYERS and the architecture page"
    higher = sorted(
        m for m in _imports(path, module) if _layer(m) > mine and (module, m) not in EXCEPTIONS
    )
    assert not higher, f"{module} (layer {mine}) imports higher layers: {higher}"


def test_every_layer_prefix_names_a_module() -> None:
    for prefixes in LAYERS:
        for prefix in prefixes:
            assert any(n == prefix or n.startswith(prefix + ".") for n in NAMES), prefix


def test_the_layer_test_sees_a_violation() -> None:
    """The checker is not vacuous: an upward import is read and ranked higher."""
    assert _layer("citeledger.ledger.record") > _layer("citeledger.model")
    assert _layer("citeledger.sources.crossref") > _layer("citeledger.formats.dumps")
    assert _layer("citeledger.frames") < _layer("citeledger.ledger.record")
    assert "citeledger.model" in _graph()["citeledger.ledger.record"]
    # A lazy import inside a function is read too, a TYPE_CHECKING one only by the layer test.
    dask = PACKAGE / "dask.py"
    assert "citeledger.ledger" in _graph()["citeledger.dask"]
    assert "citeledger.ledger" in _imports(dask, "citeledger.dask", (LAZY,))
    assert "citeledger.ledger" not in _imports(dask, "citeledger.dask", (TOP,))
    record = PACKAGE / "ledger" / "_render_page.py"
    assert "citeledger.page" in _imports(record, "citeledger.ledger._render_page", (TYPING,))


def _cycle(graph: dict[str, frozenset[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (first module repeated at the end), or None."""
    white, grey, black = 0, 1, 2
    colour = dict.fromkeys(graph, white)
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = grey
        stack.append(node)
        for nxt in sorted(graph[node]):
            if colour[nxt] == grey:
                return [*stack[stack.index(nxt) :], nxt]
            if colour[nxt] == white and (found := visit(nxt)) is not None:
                return found
        stack.pop()
        colour[node] = black
        return None

    for node in sorted(graph):
        if colour[node] == white and (found := visit(node)) is not None:
            return found
    return None


def test_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset()}
    assert _cycle(graph) == ["a", "b", "c", "a"]
    assert _cycle({"a": frozenset({"b"}), "b": frozenset()}) is None


def test_the_import_graph_is_acyclic() -> None:
    """No module imports (even lazily) a module that imports it back, but for LAZY_LOOPS."""
    cycle = _cycle(_graph())
    assert cycle is None, " -> ".join(cycle or ())


@pytest.mark.parametrize("seed", [None, 0, 1])
def test_every_module_imports_in_any_order(seed: int | None) -> None:
    """A fresh interpreter imports every module, in sorted or a shuffled order, without error."""
    order = sorted(NAMES - {"citeledger.__main__"})
    if seed is not None:
        random.Random(seed).shuffle(order)
    code = "import importlib, sys\nfor m in sys.argv[1:]:\n    importlib.import_module(m)\n"
    done = subprocess.run(
        [sys.executable, "-c", code, *order], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"order {order}: {done.stderr[-2000:]}"
