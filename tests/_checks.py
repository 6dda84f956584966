"""Assertions shared by more than one test folder."""

from __future__ import annotations

from typing import Any


def assert_fields(value: Any, **expected: object) -> None:
    """Assert each ``name=value`` of ``expected`` against the attribute of that name.

    ``families`` and ``givens`` (not attributes) are the lists of the authors' family and given
    names, in order. Every
    field is compared, and a failure names the field, what was found and what was expected.
    """
    for name, want in expected.items():
        if name == "families":
            got = [a.family for a in value.authors]
        elif name == "givens":
            got = [a.given for a in value.authors]
        else:
            got = getattr(value, name)
        assert got == want, f"{name}: {got!r} != {want!r}"
