"""The model's converters and validators, which every value's ``__init__`` shares."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from citeledger.errors import ModelError, NaiveDatetimeError
from citeledger.identifiers import IDENTIFIER_TYPES, Identifier, parse_identifier

# --------------------------------------------------------------------------- converters

if TYPE_CHECKING:
    import attrs


def utc(value: dt.datetime | str) -> dt.datetime:
    """Return ``value`` as an aware UTC datetime; reject naive ones.

    Accepts an aware :class:`datetime.datetime` or an ISO-8601 string with an offset (``Z`` too).

    >>> utc("2026-08-08T06:32:00.761636+00:00").isoformat()
    '2026-08-08T06:32:00.761636+00:00'

    Raises:
        NaiveDatetimeError: the value has no timezone.
    """
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value.strip())
        except ValueError as exc:
            raise ModelError(f"not an ISO-8601 time: {value!r}") from exc
    if not isinstance(value, dt.datetime):
        raise ModelError(f"expected a datetime, got {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise NaiveDatetimeError(
            f"naive datetime {value.isoformat()} has no timezone; pass an aware UTC time "
            "(e.g. datetime.now(timezone.utc))"
        )
    return value.astimezone(dt.UTC)


def _opt_utc(value: dt.datetime | str | None) -> dt.datetime | None:
    return None if value is None else utc(value)


def _opt_date(value: dt.date | str | None) -> dt.date | None:
    if value is None or value == "":
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    text = str(value).strip()
    try:
        return dt.date.fromisoformat(text[:10])
    except ValueError as exc:
        raise ModelError(f"not an ISO-8601 date: {value!r}") from exc


def _identifier(value: Identifier | str) -> Identifier:
    if isinstance(value, IDENTIFIER_TYPES):
        return value
    if isinstance(value, str):
        return parse_identifier(value)
    raise ModelError(f"expected an identifier or a string, got {type(value).__name__}")


def _opt_identifier(value: Identifier | str | None) -> Identifier | None:
    return None if value is None else _identifier(value)


def _identifiers(
    values: Iterable[Identifier | str] | Identifier | str | None,
) -> tuple[Identifier, ...]:
    if values is None:
        return ()
    if type(values) is tuple and all(type(v) in IDENTIFIER_TYPES for v in values):
        # Fast path (the parser passes typed tuples): nothing to convert, only duplicates to drop.
        typed = cast("tuple[Identifier, ...]", values)
        if len(set(typed)) == len(typed):
            return typed
    items: Iterable[Identifier | str]
    if isinstance(values, (str, *IDENTIFIER_TYPES)):
        items = [cast("Identifier | str", values)]
    else:
        items = cast("Iterable[Identifier | str]", _iterable(values, "identifiers"))
    out: list[Identifier] = []
    for v in items:
        ident = _identifier(v)
        if ident not in out:
            out.append(ident)
    return tuple(out)


def _iterable(values: object, what: str) -> Iterable[Any]:
    """``values`` when it is a collection of items; a clear error for a number, bytes, ..."""
    if type(values) is list or type(values) is tuple:
        return values  # the common case, without the abstract base classes' checks
    # bytes iterate as ints and a dict as its keys: both silently read the wrong thing.
    if isinstance(values, bytes | bytearray | Mapping) or not isinstance(values, Iterable):
        raise ModelError(f"{what}: expected a list, got {type(values).__name__}")
    return values


def _strs(values: Iterable[str] | str | None) -> tuple[str, ...]:
    if values is None or (type(values) is tuple and not values):
        return ()
    if isinstance(values, str):
        return (values,)
    return tuple(_text(v, "a list item") for v in _iterable(values, "strings"))


#: A lone UTF-16 surrogate (JSON "\\ud800" decodes to one): no character, and a string holding
#: one cannot be written as UTF-8, so it becomes U+FFFD REPLACEMENT CHARACTER.
_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def _text(value: object, what: str) -> str:
    # Numbers read as text ("12" for a volume); a list, a dict or bytes would become "[...]".
    if isinstance(value, str):
        return value if value.isascii() else _SURROGATE_RE.sub("\ufffd", value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise ModelError(f"{what}: expected a string, got {type(value).__name__}")


def _opt_str(value: object) -> str | None:
    if value is None:
        return None
    if type(value) is str and value.isascii():
        # (``_text`` returns such a value as it is: the common case, without the call)
        text = " ".join(value.split())
    else:
        text = " ".join(_text(value, "text field").split())
    return text or None


def _opt_position(value: object) -> int | None:
    position = _opt_int(value)
    if position is not None and position < 1:
        raise ModelError(f"reference positions are 1-based, got {position}")
    return position


def _count(value: object) -> int:
    """A count: an int (or digit string); never a bool, and never a truncated float."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    count = _opt_int(value)
    if count is None:
        raise ModelError("expected a count, got nothing")
    return count


def _opt_count(value: object) -> int | None:
    return None if value is None else _count(value)


def _opt_int(value: object) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ModelError("expected an integer, got a bool")
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if text.isdigit():
        return int(text)
    raise ModelError(f"expected an integer, got {value!r}")


_YEAR_RE = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d|21\d\d)(?!\d)")

#: The plausible range of a publication year, both ends included: a number outside it (10**30,
#: -5) is refused (:class:`~citeledger.errors.ModelError`), never stored. Years read out of
#: text ("(2021)", "2021a") are 1500-2199.
YEAR_RANGE: tuple[int, int] = (1000, 2199)


def _bounded_year(year: int) -> int:
    low, high = YEAR_RANGE
    if not low <= year <= high:
        shown = str(year) if abs(year) < 10**12 else f"a {len(str(abs(year)))}-digit number"
        raise ModelError(f"year: {shown} is outside the plausible range {low}-{high}")
    return year


def _year_value(value: object) -> int | None:
    """Accept 2021, "2021", "(2021)", "2021a", "c. 2021"; text with no year -> None.

    A value that is not text or a number at all (a list, bytes, a float with a fraction) is an
    error rather than a year quietly lost or truncated; a number outside :data:`YEAR_RANGE`
    too.
    """
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return _bounded_year(value)
    if isinstance(value, float):
        if value.is_integer():
            return _bounded_year(int(value))
        raise ModelError(f"year: expected a whole number, got {value!r}")
    if not isinstance(value, str):
        raise ModelError(f"year: expected a number or a string, got {type(value).__name__}")
    m = _YEAR_RE.search(value)
    return int(m.group(1)) if m else None


def _year(value: object) -> int | None:
    """A paper's year: as :func:`_year_value`, but text holding no year is refused.

    A :class:`Paper` has no place to keep unreadable text (a :class:`Reference` keeps it in
    ``extra``), so ``Paper(year="abc")`` raises instead of quietly storing None.
    """
    year = _year_value(value)
    if year is None and isinstance(value, str) and value.strip():
        words = " ".join(value.lower().replace(".", " ").split())
        if words not in NO_YEAR_WORDS:
            raise ModelError(f"year: no year in {value[:40]!r}")
    return year


#: Text that says "no year (yet)" and so gives ``Paper.year`` None; any other text without a
#: year is refused. Compared lower-cased, dots as spaces, whitespace folded.
NO_YEAR_WORDS = frozenset({"forthcoming", "in press", "n d", "nd", "no date", "undated"})


def _extra(
    value: Mapping[str, object] | Iterable[tuple[str, object]] | None,
) -> tuple[tuple[str, str], ...]:
    if value is None or (type(value) is tuple and not value):
        return ()
    items = value.items() if isinstance(value, Mapping) else _iterable(value, "extra")
    out = []
    for item in items:
        if isinstance(item, str | bytes) or not isinstance(item, Sequence) or len(item) != 2:
            raise ModelError(f"extra: expected (name, value) pairs, got {item!r}")
        out.append((str(item[0]), str(item[1])))
    return tuple(out)


def _opt_float(value: object) -> float | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ModelError("expected a number, got a bool")
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError) as exc:
        raise ModelError(f"expected a number, got {value!r}") from exc


def _score(value: object) -> float:
    score = _opt_float(value)
    if score is None or not 0.0 <= score <= 100.0:
        raise ModelError(f"score must be within 0-100, got {score}")
    return score


def _opt_score(value: object) -> float | None:
    return None if value is None or value == "" else _score(value)


def _non_negative(_: object, attribute: attrs.Attribute[int], value: int) -> None:
    if value < 0:
        raise ModelError(f"{attribute.name} must be >= 0, got {value}")
