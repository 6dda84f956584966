"""JSON-ready (un)structuring of the model with cattrs.

:func:`make_converter` returns a fresh :class:`cattrs.Converter` each call (no global state):
ISO-8601 times, enums by value, identifiers as their canonical ``scheme:value`` strings, tuples
as lists. Structuring forbids unknown keys and turns every problem into one
:class:`~citeledger.errors.DeserializationError` listing each wrong field.

>>> import citeledger as cl
>>> conv = cl.make_converter()
>>> conv.unstructure(cl.parse_identifier("arXiv:2104.07857v1"))
'arxiv:2104.07857v1'

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
import enum
import json
import types
from typing import TYPE_CHECKING, Any, TypeVar, get_args

import cattrs
from cattrs.cols import homogenous_tuple_structure_factory, is_sequence, list_structure_factory
from cattrs.errors import ClassValidationError, IterableValidationError
from cattrs.v import format_exception, transform_error

from citeledger.errors import CiteledgerError, DeserializationError
from citeledger.identifiers import IDENTIFIER_TYPES, Identifier, Scheme, parse_identifier

if TYPE_CHECKING:
    from collections.abc import Callable
from citeledger import model
from citeledger.model import utc

__all__ = ["dumps", "loads", "make_converter", "structure"]

T = TypeVar("T")

_ENUMS: tuple[type[enum.Enum], ...] = (
    model.Agreement,
    model.CoverageState,
    model.Direction,
    model.EventKind,
    model.Facet,
    model.MeasurementKind,
    model.Method,
    model.NoticeStatus,
    model.RelationKind,
    model.ResolutionState,
    Scheme,
    model.WorkType,
)


def _structure_identifier(value: Any, tp: Any) -> Identifier:
    allowed = _identifier_classes(tp)
    if isinstance(value, allowed):
        return value
    if not isinstance(value, str):
        msg = f"expected an identifier string such as 'doi:10.1234/abc', got {_json_kind(value)}"
        raise _WrongTypeError(msg)
    # A field typed with one class (``DOI``) parses only that scheme, so "pmid:1" is no DOI.
    ident = parse_identifier(value, allowed[0].scheme if len(allowed) == 1 else None)
    if not isinstance(ident, allowed):
        names = " or ".join(sorted(c.scheme.value for c in allowed))
        raise _WrongTypeError(f"expected an identifier of scheme {names}, got {ident}")
    return ident


def _identifier_classes(tp: Any) -> tuple[type[Identifier], ...]:
    if tp in IDENTIFIER_TYPES:
        return (tp,)
    if isinstance(tp, types.UnionType):
        found = tuple(a for a in get_args(tp) if a in IDENTIFIER_TYPES)
        if found:
            return found
    return IDENTIFIER_TYPES


def _structure_datetime(value: Any, _: Any) -> dt.datetime:
    if isinstance(value, dt.datetime):
        return utc(value)
    if not isinstance(value, str):
        msg = f"expected an ISO-8601 time string, got {_json_kind(value)}"
        raise _WrongTypeError(msg)
    return utc(value)


def _structure_date(value: Any, _: Any) -> dt.date:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if not isinstance(value, str):
        msg = f"expected an ISO-8601 date string, got {_json_kind(value)}"
        raise _WrongTypeError(msg)
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        msg = f"expected an ISO-8601 date (YYYY-MM-DD), got {_json_kind(value)}"
        raise _WrongTypeError(msg) from None


def _is_identifier_type(tp: Any) -> bool:
    if tp is Identifier or tp in IDENTIFIER_TYPES:
        return True
    if isinstance(tp, types.UnionType):
        args = set(get_args(tp))
        return bool(args) and args <= set(IDENTIFIER_TYPES)
    return False


def _is_optional_identifier_type(tp: Any) -> bool:
    # ``Identifier | None`` is a flat union of the seven classes and NoneType; cattrs would try
    # (and fail) to disambiguate the seven one-field attrs classes by their attributes.
    if not isinstance(tp, types.UnionType):
        return False
    args = set(get_args(tp))
    return type(None) in args and _is_identifier_type(_union(args - {type(None)}))


def _union(args: set[Any]) -> Any:
    out: Any = None
    for arg in sorted(args, key=repr):
        out = arg if out is None else out | arg
    return out


def _structure_opt_identifier(value: Any, tp: Any) -> Identifier | None:
    return None if value is None else _structure_identifier(value, tp)


def _unstructure_opt_identifier(value: Identifier | None) -> str | None:
    return None if value is None else str(value)


class _WrongTypeError(TypeError):
    """A JSON value that does not fit its field; the message is shown to the user as is."""


def _structure_str(value: Any, _: Any) -> str:
    # cattrs' default is ``str(value)``, which would silently read ``3`` as the title "3".
    if not isinstance(value, str):
        raise _WrongTypeError(f"expected a string, got {_json_kind(value)}")
    return value


def _structure_int(value: Any, _: Any) -> int:
    # cattrs' default is ``int(value)``, which truncates 3.7 and reads True as 1.
    if isinstance(value, bool) or not isinstance(value, int):
        raise _WrongTypeError(f"expected an integer, got {_json_kind(value)}")
    return value


def _structure_float(value: Any, _: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _WrongTypeError(f"expected a number, got {_json_kind(value)}")
    return float(value)


def _structure_bool(value: Any, _: Any) -> bool:
    if not isinstance(value, bool):
        raise _WrongTypeError(f"expected true or false, got {_json_kind(value)}")
    return value


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return f"the string {value!r}" if len(value) <= 40 else "a string"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _type_name(tp: Any) -> str:
    if _is_identifier_type(tp) or _is_optional_identifier_type(tp):
        return "an identifier string such as 'doi:10.1234/abc'"
    return getattr(tp, "__name__", None) or repr(tp)


def _enum_of(tp: Any) -> type[enum.Enum] | None:
    """The enum of ``SomeEnum`` or ``SomeEnum | None``, else None."""
    if isinstance(tp, types.UnionType):
        members = [a for a in get_args(tp) if a is not type(None)]
        tp = members[0] if len(members) == 1 else None
    return tp if isinstance(tp, type) and issubclass(tp, enum.Enum) else None


def _format_problem(exc: BaseException, tp: type | None) -> str:
    """Word one cattrs failure for people: our own errors speak for themselves."""
    if isinstance(exc, CiteledgerError | _WrongTypeError):
        return str(exc)
    enum_type = _enum_of(tp)
    if enum_type is not None and isinstance(exc, ValueError):
        allowed = ", ".join(repr(m.value) for m in enum_type)
        return f"expected one of {allowed}"
    if tp is not None and isinstance(exc, TypeError | ValueError):
        return f"expected {_type_name(tp)} ({exc})"
    return format_exception(exc, tp)


def _problems(exc: ClassValidationError | IterableValidationError, root: str) -> tuple[str, ...]:
    # transform_error words each leaf as "what @ path"; we print "path: what", like a linter.
    out = []
    for line in transform_error(exc, path=root, format_exception=_format_problem):
        what, sep, path = line.rpartition(" @ ")
        out.append(f"{path}: {what}" if sep else line)
    return tuple(out)


def make_converter() -> cattrs.Converter:
    """Build a fresh converter for every citeledger model type.

    ISO-8601 times (aware UTC), enums by value, identifiers as canonical ``scheme:value``
    strings. Structuring is strict: unknown keys and values of the wrong JSON kind (a number
    where a string belongs, ``true`` for a count) are errors rather than silently coerced.

    Returns:
        A :class:`cattrs.Converter` with citeledger's hooks; customise it freely, it is yours.

    .. versionadded:: 0.1.0
    """
    conv = cattrs.Converter(forbid_extra_keys=True, omit_if_default=False)
    conv.register_unstructure_hook_func(_is_identifier_type, str)
    conv.register_structure_hook_func(_is_identifier_type, _structure_identifier)
    # ``Identifier | None`` needs its own hooks: cattrs would otherwise try to tell the seven
    # one-field identifier classes apart by their attributes, and fail.
    conv.register_unstructure_hook_func(_is_optional_identifier_type, _unstructure_opt_identifier)
    conv.register_structure_hook_func(_is_optional_identifier_type, _structure_opt_identifier)
    # A StrEnum is a ``str`` first in its MRO, so cattrs would pass members through unchanged;
    # unstructure each of ours to its plain value so non-JSON encoders see a ``str``.
    # For the same reason the strict ``str`` hook below would swallow them on the way in.
    for enum_type in _ENUMS:
        conv.register_unstructure_hook(enum_type, _enum_value)
        conv.register_structure_hook(enum_type, _structure_enum)
    conv.register_structure_hook(str, _structure_str)
    conv.register_structure_hook(int, _structure_int)
    conv.register_structure_hook(float, _structure_float)
    conv.register_structure_hook(bool, _structure_bool)
    conv.register_unstructure_hook(dt.datetime, lambda d: d.isoformat())
    conv.register_structure_hook(dt.datetime, _structure_datetime)
    conv.register_unstructure_hook(dt.date, lambda d: d.isoformat())
    conv.register_structure_hook(dt.date, _structure_date)
    # A JSON object or a string where an array belongs is a wrong shape, not a list of its keys
    # or characters: only arrays structure into tuples and lists.
    conv.register_structure_hook_factory(_is_array_type, lambda tp: _array_only(conv, tp))
    return conv


def _is_homogeneous_tuple(tp: Any) -> bool:
    args = get_args(tp)
    return len(args) == 2 and args[1] is Ellipsis


def _is_array_type(tp: Any) -> bool:
    """``list[X]``, ``Sequence[X]`` or ``tuple[X, ...]`` (not a fixed-shape tuple)."""
    if not is_sequence(tp):
        return False
    return getattr(tp, "__origin__", tp) is not tuple or _is_homogeneous_tuple(tp)


def _array_only(conv: cattrs.Converter, tp: Any) -> Callable[[Any, Any], Any]:
    if _is_homogeneous_tuple(tp):
        inner = homogenous_tuple_structure_factory(tp, conv)
    else:
        inner = list_structure_factory(tp, conv)

    def hook(value: Any, _: Any) -> Any:
        if not isinstance(value, list | tuple):
            raise _WrongTypeError(f"expected an array, got {_json_kind(value)}")
        return inner(value, tp)

    return hook


def _enum_value(member: enum.Enum) -> Any:
    return member.value


def _structure_enum(value: Any, tp: type[enum.Enum]) -> enum.Enum:
    if not isinstance(value, str):
        raise _WrongTypeError(f"expected a string, got {_json_kind(value)}")
    return tp(value)  # ValueError for unknown values; _format_problem lists the allowed ones


def structure(data: Any, cls: type[T], *, converter: cattrs.Converter | None = None) -> T:
    """Structure ``data`` into ``cls``, turning every failure into one clear error.

    Without ``converter`` a fresh one is built per call (about a millisecond); pass one from
    :func:`make_converter` when reading many values.

    Raises:
        DeserializationError: listing every wrong field as ``path: what is wrong``.
    """
    conv = converter or make_converter()
    name = getattr(cls, "__name__", repr(cls))
    try:
        return conv.structure(data, cls)
    except (ClassValidationError, IterableValidationError) as exc:
        raise DeserializationError(f"cannot read {name}", _problems(exc, name)) from None
    except (CiteledgerError, KeyError, TypeError, ValueError, AttributeError) as exc:
        # Raised outside cattrs' per-field collection: a model invariant checked in
        # ``__init__`` (ModelError) or input that is not even an object.
        what = (
            str(exc)
            if isinstance(exc, CiteledgerError | _WrongTypeError)
            else _not_object(data, exc)
        )
        raise DeserializationError(f"cannot read {name}", (f"{name}: {what}",)) from None


def _not_object(data: Any, exc: BaseException) -> str:
    if not isinstance(data, dict):
        return f"expected an object, got {_json_kind(data)}"
    return f"{type(exc).__name__}: {exc}"


def dumps(value: Any, *, converter: cattrs.Converter | None = None, **json_kwargs: Any) -> str:
    """Serialise a model value to a JSON string.

    Pass ``converter=`` (from :func:`make_converter`) when writing many values: building one per
    call costs about a millisecond, a hundred times the work of dumping a small value.
    """
    conv = converter or make_converter()
    return json.dumps(conv.unstructure(value), ensure_ascii=False, **json_kwargs)


def loads(text: str | bytes, cls: type[T], *, converter: cattrs.Converter | None = None) -> T:
    """Read a model value of type ``cls`` from a JSON string.

    Raises:
        DeserializationError: the JSON is invalid or does not fit ``cls``.
    """
    data = _json(text)
    return structure(data, cls, converter=converter)


def _json(text: object) -> Any:
    """``json.loads`` with every failure as a :class:`DeserializationError`."""
    if not isinstance(text, str | bytes | bytearray):
        msg = f"expected a JSON string or bytes, got {type(text).__name__}"
        raise DeserializationError("invalid JSON", (msg,))
    try:
        return json.loads(text)
    except RecursionError:
        raise DeserializationError("invalid JSON", ("nested too deeply",)) from None
    except ValueError as exc:  # JSONDecodeError, bytes that are not UTF-8, over-long integers
        raise DeserializationError("invalid JSON", (str(exc),)) from None
