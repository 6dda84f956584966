"""What ``import citeledger`` loads: the core, and everything else on first use.

The core (errors, identifiers, model, resolver) loads with the package; the ledger's, the
sources' and the converter's names when first read (PEP 562), and the reference-string parser,
whose grammars take a fifth of a second to compile, when it first parses. Each check that looks
at ``sys.modules`` runs in a fresh interpreter.
"""

from __future__ import annotations

import importlib
import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import citeledger
from citeledger import refparse
from citeledger.refparse import _reference

ROOT = Path(__file__).resolve().parents[1]


def _loaded_after(code: str) -> set[str]:
    """The ``citeledger`` modules and ``requests`` loaded after running ``code`` afresh."""
    probe = (
        f"{code}\nimport json, sys\n"
        "print(json.dumps(sorted(m for m in sys.modules "
        "if m.startswith('citeledger') or m == 'requests')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        timeout=120,
    )
    return set(json.loads(out.stdout))


PERIPHERY = (
    "requests",
    "citeledger.sources",
    "citeledger.ledger",
    "citeledger.serialize",
    "citeledger.refparse._reference",
    "citeledger.refparse._authors",
)


def test_import_citeledger_loads_the_core_only() -> None:
    loaded = _loaded_after("import citeledger")
    assert "citeledger.resolve.resolver" in loaded
    assert "citeledger.model._work" in loaded
    for heavy in PERIPHERY:
        assert heavy not in loaded, heavy


def test_a_ledger_name_loads_the_ledger_when_read() -> None:
    loaded = _loaded_after("import citeledger as cl\ncl.build_record")
    assert {"citeledger.ledger", "citeledger.sources", "requests"} <= loaded


def test_the_parser_loads_on_first_parse() -> None:
    loaded = _loaded_after(
        "import citeledger as cl\n"
        "ref = cl.Reference.from_string('Smith J. A study of things. J Foo. 2001;3:1-9.')\n"
        "assert ref.title == 'A study of things', ref"
    )
    assert "citeledger.refparse._reference" in loaded
    assert "citeledger.refparse._authors" in loaded


def test_the_command_line_parser_loads_no_source_or_ledger() -> None:
    loaded = _loaded_after("import citeledger.cli as cli\ncli.build_parser()")
    for heavy in (*PERIPHERY, "citeledger.frames"):
        assert heavy not in loaded, heavy


@pytest.mark.parametrize("name", sorted(citeledger._HOMES))
def test_every_lazy_name_is_its_home_modules_object(name: str) -> None:
    home = citeledger._HOMES[name]
    module = importlib.import_module(home)
    assert getattr(citeledger, name) is getattr(module, name)
    assert name in citeledger.__all__


def test_the_core_names_are_there_from_the_start() -> None:
    core = set(citeledger.__all__) - set(citeledger._HOMES)
    assert len(core) == 34
    assert core <= set(vars(citeledger))


def test_subpackages_are_reached_as_attributes() -> None:
    for name in sorted(
        {*citeledger._SUBMODULES, "errors", "identifiers", "model", "refparse", "resolve"}
    ):
        module = getattr(citeledger, name)
        assert module.__name__ == f"citeledger.{name}"


def test_modules_with_optional_dependencies_are_not_reached_as_attributes() -> None:
    # (dask and hypothesis may be missing: hasattr must answer, not import them)
    loaded = _loaded_after(
        "import citeledger as cl\nassert not hasattr(cl, 'dask')\nassert not hasattr(cl, 'testing')"
    )
    assert "citeledger.dask" not in loaded
    assert "citeledger.testing" not in loaded


def test_unknown_names_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'resolver_of_everything'"):
        _ = citeledger.resolver_of_everything
    assert not hasattr(citeledger, "_not_there")


def test_version_is_a_string() -> None:
    assert isinstance(citeledger.__version__, str)
    assert citeledger.__version__


def test_the_public_parser_is_the_parser() -> None:
    for text in (
        "Smith J, Jones K. A study of things. J Foo. 2001;3:1-9.",
        "Ibid.",
        "",
        "[3] A. B. Smith, “A title,” in Proc. X, 2019, pp. 1–9.",
    ):
        assert refparse.parse_reference(text, position=3) == _reference.parse_reference(
            text, position=3
        )


def test_parsed_reference_keeps_its_public_home() -> None:
    parsed = refparse.parse_reference("Smith J. A study of things. J Foo. 2001;3:1-9.")
    assert type(parsed).__module__ == "citeledger.refparse"
    assert type(parsed) is refparse.ParsedReference
    assert pickle.loads(pickle.dumps(parsed)) == parsed
