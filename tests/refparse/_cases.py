"""Parse cases kept as data: a reference string and the fields its parse must have.

``parse_cases.json`` (beside this module) holds the cases by topic (citation styles, author-list
gaps, text after the numbers), each case an ``id``, a ``text`` and the ``fields`` that
:func:`tests._checks.assert_fields` compares (``identifiers`` as ``[scheme, value]`` pairs, built
here into identifier values). ``test_parse.py::test_parse_cases`` reads them all.

Tables of plain rows (one test's arguments a row, in groups named by what they show) are
``<name>.json`` files beside this module, read by :func:`rows`.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from citeledger.identifiers import DOI, ArxivId, Identifier

#: The case tables, by name.
CASES = Path(__file__).with_name("parse_cases.json")

_IDENTIFIER_TYPES: dict[str, type[DOI | ArxivId]] = {"doi": DOI, "arxiv": ArxivId}


@cache
def _tables() -> dict[str, list[dict[str, Any]]]:
    tables: dict[str, list[dict[str, Any]]] = json.loads(CASES.read_text(encoding="utf-8"))
    return tables


def _identifiers(pairs: list[list[str]]) -> tuple[Identifier, ...]:
    return tuple(_IDENTIFIER_TYPES[scheme](value=value) for scheme, value in pairs)


def field_cases() -> list[Any]:
    """``pytest.param(text, fields, id="table: case id")`` for every case of ``parse_cases.json``."""
    params = []
    for table, cases in _tables().items():
        for case in cases:
            fields = dict(case["fields"])
            if "identifiers" in fields:
                fields["identifiers"] = _identifiers(fields["identifiers"])
            params.append(pytest.param(case["text"], fields, id=f"{table}: {case['id']}"))
    return params


def rows(name: str) -> list[tuple[Any, ...]]:
    """The rows of every group of ``<name>.json`` (beside this module), groups in file order."""
    groups: dict[str, list[list[Any]]] = json.loads(
        Path(__file__).with_name(f"{name}.json").read_text(encoding="utf-8")
    )
    return [tuple(row) for group in groups.values() for row in group]
