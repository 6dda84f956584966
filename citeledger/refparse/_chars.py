"""Character classes of the reference parser: Latin, Greek, Cyrillic and CJK letters.

The :mod:`re` module has no Unicode property classes; these are built once at import.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from typing import Final


def _char_class(predicate: str) -> str:
    """Ranges of Latin, Greek and Cyrillic letters with ``str.isupper``/``islower``.

    The :mod:`re` module has no Unicode property classes, so the classes are built once at
    import from the BMP blocks that personal names in references use.
    """
    blocks = ((0x41, 0x24F), (0x370, 0x52F), (0x1E00, 0x1EFF))
    chars = [
        chr(c)
        for lo, hi in blocks
        for c in range(lo, hi + 1)
        if getattr(chr(c), predicate)() and chr(c).isalpha()
    ]
    out: list[str] = []
    i = 0
    while i < len(chars):
        j = i
        while j + 1 < len(chars) and ord(chars[j + 1]) == ord(chars[j]) + 1:
            j += 1
        out.append(chars[i] if i == j else f"{chars[i]}-{chars[j]}")
        i = j + 1
    return "".join(out)


_UPS: Final = _char_class("isupper")
_LOS: Final = _char_class("islower")
_U: Final = f"[{_UPS}]"
_L: Final = f"[{_LOS}]"
_A: Final = f"[{_UPS}{_LOS}]"
# CJK ideographs, kana and Hangul syllables (names and titles in these scripts have no case).
#: A year as references print it (1500-2099), one group: the same alternation in every pattern.
_YEAR: Final = r"(?:1[5-9]\d\d|20\d\d)"
_CJK: Final = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
