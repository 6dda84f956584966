"""JSON Schema of the citation record's JSON form, derived from the attrs classes.

Deriving it from the classes (rather than writing it by hand) keeps
``docs/citation-record.schema.json`` in step with the model; a test checks the committed file
equals :func:`record_schema`.
"""

from __future__ import annotations

import datetime as dt
import enum
import types
import typing
from typing import Any, Union, get_args, get_origin

import attrs

from citeledger.identifiers import IDENTIFIER_TYPES
from citeledger.ledger.record import SCHEMA, CitationRecord

__all__ = ["record_schema"]

_SCHEMA_ID = "https://citeledger.invalid/schemas/citeledger.paper-citation-record.v1.json"


def _is_identifier(tp: Any) -> bool:
    if tp in IDENTIFIER_TYPES:
        return True
    args = set(get_args(tp)) if get_origin(tp) in (Union, types.UnionType) else set()
    return bool(args) and args <= set(IDENTIFIER_TYPES)


class _Builder:
    def __init__(self) -> None:
        self.defs: dict[str, Any] = {}

    def schema_for(self, tp: Any) -> dict[str, Any]:
        if tp is Any:
            return {}
        if _is_identifier(tp):
            return {"type": "string", "pattern": "^[a-z0-9]+:.+$", "description": "scheme:value"}
        origin = get_origin(tp)
        if origin in (Union, types.UnionType):
            args = get_args(tp)
            non_none = [a for a in args if a is not type(None)]
            inner = (
                self.schema_for(non_none[0])
                if len(non_none) == 1
                else (
                    self.schema_for(_union(non_none))
                    if _is_identifier(_union(non_none))
                    else {"anyOf": [self.schema_for(a) for a in non_none]}
                )
            )
            if len(non_none) < len(args):
                return {"anyOf": [inner, {"type": "null"}]}
            return inner
        if origin is tuple:
            args = get_args(tp)
            if len(args) == 2 and args[1] is Ellipsis:
                return {"type": "array", "items": self.schema_for(args[0])}
            return {
                "type": "array",
                "prefixItems": [self.schema_for(a) for a in args],
                "minItems": len(args),
                "maxItems": len(args),
            }
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return {"enum": [m.value for m in tp]}
        if tp is bool:
            return {"type": "boolean"}
        if tp is int:
            return {"type": "integer"}
        if tp is float:
            return {"type": "number"}
        if tp is str:
            return {"type": "string"}
        if tp is dt.datetime:
            return {"type": "string", "format": "date-time"}
        if tp is dt.date:
            return {"type": "string", "format": "date"}
        if attrs.has(tp):
            self.add(tp)
            return {"$ref": f"#/$defs/{tp.__name__}"}
        raise TypeError(f"no JSON Schema for {tp!r}")

    def add(self, cls: type) -> None:
        name = cls.__name__
        if name in self.defs:
            return
        self.defs[name] = {}  # placeholder against recursion
        hints = typing.get_type_hints(cls)
        props: dict[str, Any] = {}
        for f in attrs.fields(cls):
            props[f.name] = self.schema_for(hints[f.name])
        self.defs[name] = {
            "type": "object",
            "properties": props,
            "required": [f.name for f in attrs.fields(cls)],
            "additionalProperties": False,
        }


def _union(args: list[Any]) -> Any:
    out: Any = None
    for a in args:
        out = a if out is None else out | a
    return out


def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``CitationRecord.to_json()``."""
    builder = _Builder()
    builder.add(CitationRecord)
    root = builder.defs.pop("CitationRecord")
    root["properties"]["schema"] = {"const": SCHEMA}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": _SCHEMA_ID,
        "title": "citeledger paper citation record",
        "description": (
            "A citation records a reference. It does not transfer a finding from one paper to "
            "another. Every count names its source and date; counts of different sources are "
            "never combined."
        ),
        **root,
        "$defs": dict(sorted(builder.defs.items())),
    }


if __name__ == "__main__":  # python -m citeledger.ledger._schema > docs/citation-record.schema.json
    import json

    print(json.dumps(record_schema(), indent=2, ensure_ascii=False))
