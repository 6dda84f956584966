"""Names: particles, plain name parts, and the splitting of author strings into names.

Every list of name particles the package uses lives here. They differ on purpose (each was
measured where it is used; issue 15 may merge them): the grammars of the reference parser read
many particles (:data:`_PARTICLE`, :data:`_CAP_PARTICLE` after initials), a display name keeps
fewer with its family name (:data:`_DISPLAY_PARTICLES`), and a bare family name in an author
string may start with a few more (:data:`_FAMILY_PARTICLES`).

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re
from typing import Final

from attrs import frozen

__all__ = ["ParsedName", "is_et_al_only", "split_author_string", "split_name"]

# --------------------------------------------------------------------------- particles

# The reference parser's grammars (regex alternations, lower case).
_PARTICLE: Final = (
    r"(?:van|von|der|den|de|del|della|dei|degli|dos|das|da|di|du|la|le|les|ter|ten|zu|zur|"
    r"al|el|bin|ibn|y|e|st\.?|vander|vanden|op|'t|van't|van’t)"
)
# After initials a capitalised particle is still a particle ("S. De Landtsheer", "J. Van Dyke"),
# and particles may join family words ("N. Kerlero de Rosbo").
_CAP_PARTICLE: Final = r"(?:Van|Von|De|Del|Della|Der|Den|Da|Di|Du|Dos|Das|La|Le|Ter|Ten|Zu)"
# Particles that stay with the family name of a display name: "Ludwig van Beethoven".
_DISPLAY_PARTICLES: Final = frozenset(
    {"van", "von", "de", "der", "da", "del", "la", "le", "di", "du"}
)
# Words that may open a bare family name in "Family, Given" pairs: "van der Berg, J.".
_FAMILY_PARTICLES: Final = _DISPLAY_PARTICLES | {"den", "della", "dos"}

# --------------------------------------------------------------------------- plain name parts


@frozen(kw_only=True)
class ParsedName:
    """One name as read from text: plain parts, no model behind them.

    Args:
        family: Family name, if one was read.
        given: Given names or initials, if read.
        raw: The name as it stood in the text (whitespace collapsed), if any.

    .. versionadded:: 0.1.0
    """

    family: str | None = None
    given: str | None = None
    raw: str | None = None


# --------------------------------------------------------------------------- display names

_INITIALS_RE: Final = re.compile(r"^(?:[^\W\d_]\.?-?){1,4}$")


def _is_initials(token: str) -> bool:
    """Whether ``token`` is initials: "J", "J.", "JA", "J.-P.", "É", "ŁK" (any script)."""
    letters = token.replace(".", "").replace("-", "")
    return bool(_INITIALS_RE.match(token)) and letters.isupper()


def split_name(name: str) -> ParsedName:
    """Split a display name into family and given names.

    Handles "Family, Given", "Given Family", "Family GI" (Vancouver initials after the name)
    and "G. Family"; particles stay with the family name.

    >>> split_name("Rajbhandari S")
    ParsedName(family='Rajbhandari', given='S', raw='Rajbhandari S')
    >>> split_name("Ludwig van Beethoven").family
    'van Beethoven'
    >>> split_name("Rajbhandari, Samyam").given
    'Samyam'
    """
    raw = " ".join(name.split()).strip(" ,;")
    if not raw:
        return ParsedName()
    if "," in raw:
        family, _, given = raw.partition(",")
        return ParsedName(family=family.strip() or None, given=given.strip() or None, raw=raw)
    parts = raw.split(" ")
    if len(parts) == 1:
        return ParsedName(family=parts[0], raw=raw)
    if _is_initials(parts[-1]) and not _is_initials(parts[0]):
        # Vancouver / NLM: "Rajbhandari S", "Smith JA"
        return ParsedName(family=" ".join(parts[:-1]), given=parts[-1], raw=raw)
    # Particles stay with the family name: "Ludwig van Beethoven", "Juan de la Cruz"
    i = len(parts) - 1
    while i > 1 and parts[i - 1].lower() in _DISPLAY_PARTICLES:
        i -= 1
    return ParsedName(family=" ".join(parts[i:]), given=" ".join(parts[:i]), raw=raw)


# --------------------------------------------------------------------------- author strings

_AND_SPLIT: Final = re.compile(r"\s*(?:;|\band\b|&)\s*", re.IGNORECASE)
_ET_AL_RE: Final = re.compile(r"[\s,;]*\b(?:et\.?\s*al\.?|and\s+others)[\s.,;]*$", re.IGNORECASE)
_SPACED_COMMA_RE: Final = re.compile(r"\s+,\s*")


def is_et_al_only(text: str) -> bool:
    """Whether ``text`` names no author: empty, or only "et al." / "and others".

    >>> is_et_al_only("et al."), is_et_al_only("Smith J")
    (True, False)
    """
    folded = text.casefold()
    if "al" not in folded and "others" not in folded:
        # The pattern cannot match (its case-insensitive letters all fold to these): only blank
        # text is left. Most names take this path, a quarter of the cost of the substitution.
        return not text.strip()
    return not _ET_AL_RE.sub("", text).strip()


def _is_family_part(part: str) -> bool:
    """Whether a part reads as a bare family name: one word or particles + one ("van der Berg")."""
    words = part.split()
    return len(words) == 1 or all(w.lower() in _FAMILY_PARTICLES for w in words[:-1])


def _split_names(piece: str) -> list[str]:
    """Split one and/&/;-free piece of an author string into names.

    Commas either separate authors ("Smith J, Doe K", "John Smith, Kate Doe") or a family name
    from its given names ("Smith, J., Doe, K.", "van der Berg, J."). They pair up when the
    parts alternate family / given.
    """
    if _SPACED_COMMA_RE.search(piece):
        # "a , b , c": a space before the comma only ever separates names.
        return [p.strip() for p in _SPACED_COMMA_RE.split(piece) if p.strip(" ,")]
    parts = [p.strip() for p in piece.split(",") if p.strip()]
    if len(parts) >= 2 and len(parts) % 2 == 0:
        families, givens = parts[0::2], parts[1::2]
        # Every other part a bare family name ("Smith", "van der Berg"): "Family, Given" pairs.
        # A full name ("John Smith") or a Vancouver name ("Smith J") is never a bare family.
        if all(_is_family_part(f) for f in families):
            return [f"{f}, {g}" for f, g in zip(families, givens, strict=True)]
    return parts


def split_author_string(text: str) -> list[str]:
    """One author string ("a , b , c", "A and B", "Smith, J., Doe, K.") as display names.

    A trailing "et al." is dropped: it names no author.

    >>> split_author_string("Smith, J., van der Berg, K. et al.")
    ['Smith, J.', 'van der Berg, K.']
    >>> split_author_string("Ada Lovelace and Charles Babbage")
    ['Ada Lovelace', 'Charles Babbage']
    """
    text = _ET_AL_RE.sub("", text.strip())
    if not text:
        return []
    names: list[str] = []
    for piece in _AND_SPLIT.split(text):
        names.extend(_split_names(piece))
    return [n for n in names if n.strip(" ,;.")]
