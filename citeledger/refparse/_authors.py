"""The author list at the start of a reference string.

One small grammar per name order, and the looser reading of names the grammars stop at.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re
from typing import Final

from attrs import define, field

from citeledger.refparse._chars import _A, _CJK, _L, _LOS, _U, _UPS, _YEAR
from citeledger.refparse._names import _CAP_PARTICLE, _PARTICLE, ParsedName

# Possessive quantifiers (Python 3.11): a name word is never followed by a letter in any item
# pattern, so giving back letters can never make a match succeed; it only cost time.
_FAM_WORD2: Final = rf"(?:{_U}['’]?|{_L}{{1,3}}{_U}){_A}++(?:['’]{_A}++)*+(?:-{_A}++)*+"
# One family word after up to three particles: "Merwe", "van der Merwe".
_ONE_FAMILY: Final = rf"(?:{_PARTICLE}\s+){{0,3}}{_FAM_WORD2}"
# "Ortiz de Montellano", "Van der Merwe", "Rodriguez y Baena", "San José", "van't Veer".
_FAMILY: Final = (
    rf"{_ONE_FAMILY}(?:\s+(?!(?:and|et|und)\b)(?:{_PARTICLE}\s+){{0,2}}{_FAM_WORD2}){{0,2}}"
)
_INI_DOT: Final = rf"{_U}{_L}?\.(?:\s?-?\s?{_U}{_L}?\.){{0,3}}"
_INI_RUN: Final = rf"{_U}(?:-?{_U}){{0,3}}(?!{_A}|['’])"
_INI_SPACED: Final = rf"{_U}(?:\s{_U}){{1,3}}(?=\s*[,;(]|\s+\d{{4}})"
_SUFFIX: Final = r"(?:Jr|Sr|2nd|3rd|4th|II|III|IV)"
_NAME_END: Final = rf"(?![{_UPS}{_LOS}'’])"
# A suffix after a name's initials: "Smith J Jr", "Smith, J., III".
_SUFFIX_AFTER: Final = rf"(?:,?\s{_SUFFIX}\.?{_NAME_END})?"
# The family name that ends a given-first name ("JM Cavanaugh", "Karen E. van Dijk").
_FAMILY_LAST: Final = rf"(?P<fam>{_ONE_FAMILY}){_NAME_END}"

_V_ITEM_RE: Final = re.compile(
    rf"(?P<fam>{_FAMILY})(?:\s(?:Jr|Sr)\.?)?\s(?P<ini>{_INI_DOT}|{_INI_SPACED}|{_INI_RUN}){_SUFFIX_AFTER}"
)
# The commonest Vancouver name, "Lehman G" / "Cotton PB" before ", " "." ":" "(" or the end, in a
# regex three to four times cheaper than _V_ITEM_RE. Tried first; where it matches, _V_ITEM_RE
# gives the same groups (the look-aheads refuse everything that would let it read more: dotted,
# spaced or hyphenated initials, a suffix, a second family word; tests check the agreement).
_V_SIMPLE_RE: Final = re.compile(
    rf"(?P<fam>{_U}{_L}++) (?P<ini>{_U}{{1,3}})(?![{_UPS}{_LOS}'’.\-])(?!\s+{_U})(?!,? {_SUFFIX})"
)
_FCI_ITEM_RE: Final = re.compile(
    rf"(?P<fam>{_FAMILY}),\s?(?P<ini>{_INI_DOT}|{_U}{{1,3}}(?=\s*(?:[,;&:(]|and\b))){_SUFFIX_AFTER}"
)

_IF_FAMILY: Final = (
    rf"(?:(?:{_PARTICLE}|{_CAP_PARTICLE})\s+){{0,3}}{_FAM_WORD2}"
    rf"(?:\s+(?:{_PARTICLE}\s+){{1,2}}{_FAM_WORD2})?"
)
_IF_ITEM_RE: Final = re.compile(
    rf"(?P<ini>{_INI_DOT})\s?(?P<fam>{_IF_FAMILY}){_NAME_END}{_SUFFIX_AFTER}"
)
# Initials without dots, run together, spaced or hyphenated ("JM Cavanaugh", "C P Bean and J D
# Livingston", "M-B Pontoppidan").
_IFN_ITEM_RE: Final = re.compile(
    rf"(?P<ini>{_U}(?:\s{_U}){{1,2}}(?=\s{_U}{_L})|{_U}-{_U}|{_U}{{1,3}})\s{_FAMILY_LAST}"
)
_GIVEN: Final = rf"{_U}{_L}++(?:-{_U}?{_L}++)?+"
_GF_ITEM_RE: Final = re.compile(
    rf"(?P<ini>{_GIVEN}(?:\s(?:{_U}\.|{_GIVEN})){{0,2}})\s{_FAMILY_LAST}"
)
_FCG_ITEM_RE: Final = re.compile(
    rf"(?P<fam>{_FAMILY}),\s(?P<ini>{_GIVEN}(?:\s(?:{_U}\.|{_GIVEN}))?){_NAME_END}"
)
_CJK_ITEM_RE: Final = re.compile(
    rf"(?P<fam>[{_CJK}]{{2,4}}(?:\s[{_CJK}]{{1,3}})?)(?![{_CJK}])(?P<ini>)"
)

_SEP_RE: Final = re.compile(
    r"\s*(?:,\s*(?:and\s+|&\s*|(?:\.\.\.|…)\s*(?:&\s*|and\s+)?)?|;\s*|\s+and\s+|&\s*|\s+&\s*)"
)
_CJK_SEP_RE: Final = re.compile(r"\s*[,，、;；]\s*")
# "Eppig JT., et al (2000)": a stop after run-together initials may come before it.
_ETAL_RE: Final = re.compile(
    r"\.?\s*,?\s*(?:et\.?\s*al\b\.?|and\s+others\b|и\s+др\.?|u\.\s*a\.|等(?:人)?|ほか|他)",
    re.IGNORECASE,
)
_ETAL_FIRST: Final = "eEaAиИuU等ほ他"
# Capitals that cannot start "In press" / "N.d." (re.IGNORECASE would also fold "İ" to "i").
_PLAIN_CAPS: Final = frozenset("ABCDEFGHJKLMOPQRSTUVWXYZ")
_YEAR_AFTER_RE: Final = re.compile(
    r"\s*[.,;:]?\s*(?P<open>\(|\[)?\s*"
    rf"(?P<year>{_YEAR}(?:[a-z]|/\d{{2,4}})?|n\.\s?d\.|in press)"
    r"(?(open)\s*[)\]]|(?![\d/]))\s*[.,:;]?",
    re.IGNORECASE,
)
_QUOTE_RE: Final = re.compile(r"\s*[.,:]?\s*([\"“”‘«„'])")
_COLON_RE: Final = re.compile(r"\s*:\s")
_STOP_RE: Final = re.compile(r"\s*[.。．]\s*")
_EDS_RE: Final = re.compile(
    r"\s*,?\s*[(\[]\s*(?:eds?|hrsg|coords?)\b\.?\s*[)\]]|\s*,\s*eds?\.(?=\s)", re.IGNORECASE
)

_QUOTE_CLOSE: Final = {'"': '"', "“": "”", "”": "”", "‘": "’", "«": "»", "„": "“", "'": "'"}

# Grammar names, in order of preference when two accept the same text equally well.
_GRAMMARS: Final = (
    ("vancouver", _V_ITEM_RE),
    ("family_initials", _FCI_ITEM_RE),
    ("initials_family", _IF_ITEM_RE),
    ("initials_family_nodot", _IFN_ITEM_RE),
    ("cjk", _CJK_ITEM_RE),
    ("given_family", _GF_ITEM_RE),
    ("family_given", _FCG_ITEM_RE),
)
# Full-name grammars match ordinary title words too, so they need a year or "et al." after them.
_ALSO_INITIALS_FIRST: Final = frozenset({"family_initials", "family_given"})
_CORPORATE_WORDS: Final = frozenset(
    """Organization Organisation Association Society Institute Committee Council Group Agency
    Department Ministry Office Commission Board Foundation Consortium Centre Center University
    Bureau Service Services Administration Federation Union Network Collaboration Program
    Programme Panel Team Project Authority Corporation Company Inc Ltd Academy College Trust
    Survey Initiative Alliance Forum Working Party Nations Bank Fund""".split()  # noqa: SIM905 - a word list reads best as text
)
# Grammars whose lists may hold a group author, a bare family name or layout debris.
_LIST_EXTRAS: Final = frozenset({"vancouver", "family_initials"})
_GROUP_WORDS: Final = frozenset(
    """Group Groups Consortium Investigators Collaborators Collaboration Collaborative Committee
    Council Team Network Society Association Registry Registers Trialists Study Panel Force
    Board Foundation Initiative Organization Organisation Institute Alliance Program Programme
    Project Centre Center""".split()  # noqa: SIM905 - a word list reads best as text
)
_CAP_WORD: Final = rf"(?:{_U}[{_UPS}{_LOS}\d'’.-]*+)"
# "…, Perucci CA, on behalf of the PHEWE Collaborative Group: Title", "…, for the ACCORD Study
# Group.": the group the authors write for.
_GROUP_ITEM_RE: Final = re.compile(
    r"(?:(?:on\sbehalf\sof|for)\s(?:the\s)?)?"
    rf"{_CAP_WORD}(?:\s(?:(?:of|for|the|and|on|in|de|du|des|der|für|von|y|&)\s){{0,2}}{_CAP_WORD})"
    r"{0,15}+(?=\s*(?:[:.;(]|\d{4}|$))"
)
_BARE_FAMILY_RE: Final = re.compile(rf"{_FAMILY}{_NAME_END}")
_PAREN_YEAR_RE: Final = re.compile(rf",?\s*\(\s*{_YEAR}")
# A line or reference number left in the text by the PDF layout: "Wetzel P, \n12. \nMcCallum RW".
_LAYOUT_NUM_RE: Final = re.compile(r"\d{1,3}\.\s")
_COMMA_ENDS: Final = frozenset({"initials_family", "initials_family_nodot", "family_initials"})
_NEEDS_STRONG_END: Final = frozenset({"given_family", "family_given"})

# Names the grammars could not read (_more_names): looser pieces, used only on text that ends
# like an author list.
_R_FAM: Final = (
    rf"(?:(?:{_PARTICLE}|{_CAP_PARTICLE})\s+){{0,3}}"
    rf"(?:{_U}[^\s,;:()\[\]]*|{_L}{{1,4}}['’-]{_U}[^\s,;:()\[\]]*)"
)
_R_INI: Final = rf"(?:{_U}{{1,5}}(?:-{_U}{{1,2}})?|{_U}\.?(?:\s?-?{_U}\.?){{0,3}})"
_R_SUFFIX: Final = r"(?:,?\s(?:Jr|Sr|2nd|3rd|II|III|IV)\.?)?"
_RESCUE_NAME_RE: Final = re.compile(
    rf"(?P<fam>{_R_FAM}(?:\s{_R_FAM})?)\s(?P<ini>{_R_INI}){_R_SUFFIX}"
    rf"(?:\s(?P<fam3>{_R_FAM})\s(?P<ini3>{_U}{{1,5}}(?:-{_U}{{1,2}})?))?"
    rf"|(?P<ini2>{_U}\.(?:\s?-?{_U}\.){{0,3}})\s?(?P<fam2>{_R_FAM})"
)
_RESCUE_INI_RE: Final = re.compile(rf"{_U}\.?(?:\s?-?{_U}\.?){{0,3}}|{_U}{{1,3}}")
# A family name alone, or a particle the PDF split from its name ("von, G. A.").
_RESCUE_FAMILY_RE: Final = re.compile(rf"{_R_FAM}(?:\s{_R_FAM})?(?:\s{_PARTICLE})?|{_PARTICLE}")
_RESCUE_ETAL_RE: Final = re.compile(r"et\.?\s?als?\.?")
_RESCUE_SEP_RE: Final = re.compile(r"\s*[,;]\s*(?:and\s+|&\s*)?|\s+(?:and|&)\s+")
_RESCUE_SMALL_WORDS: Final = frozenset(
    "the of for and on in de del der des du van von y la le da di dos das sive".split()  # noqa: SIM905 - a word list reads best as text
)
# Where an author list ends: a year, "et al." before a capital, a colon, or a full stop after
# initials ("Chao EY. Quantification").
_RESCUE_END_RE: Final = re.compile(
    rf"\s*\(\s*(?P<y1>{_YEAR})[a-z]?\s*\)\s*[.,:;]?\s+"
    rf"|[.,]\s+(?P<y2>{_YEAR})[a-z]?\s*[.,:;]\s+"
    r"|(?P<etal>,?\s*\bet\.?\s?als?\b\.?\s*[,:.]?\s+)(?=[A-Z\"“‘(\d])"
    r"|(?P<colon>\s?:\s+)"
    r"|(?P<stop>(?:(?<=[A-Z])|(?<=Jr))\.\s+)(?=[A-Z])"
)
_RESCUE_STOP_AFTER_RE: Final = re.compile(
    rf"(?:^|\s)(?!and\s)[^\s,;]*{_L}\s{_U}{{1,5}}(?:\sJr)?\.$|{_U}\.\s?{_U}{_L}+\.$"
)
# After a full stop, another name means the list goes on: "Potter, D.", "Thames HD,", "D.".
_RESCUE_NEXT_NAME_RE: Final = re.compile(rf"{_U}\.|{_R_FAM},?\s(?:{_U}{{1,3}}[,.:;]|{_U}\.)")


def _make_author(fam: str, ini: str | None, raw: str) -> ParsedName:
    fam = fam.strip(" ,")
    # "Griswold Jr DP": the generational suffix is not part of the family name.
    if fam.endswith((" Jr", " Sr", " Jr.", " Sr.")):
        fam = fam.rsplit(" ", 1)[0]
    # The parse works on whitespace-collapsed text, so these are what Author's converters would
    # produce: Reference.from_string builds the Author without running them again.
    return ParsedName(
        family=fam or None, given=(ini or "").strip(" ,") or None, raw=raw.strip(" ,;") or None
    )


_Triple = tuple[str, str | None, str]


@define(eq=False)
class _Names:
    """The outcome of one author grammar at the start of a text."""

    grammar: str
    authors: list[_Triple]
    end: int
    etal: bool = field(kw_only=True)
    strength: int = field(kw_only=True)


def _triple(m: re.Match[str]) -> _Triple:
    """``(family, initials, raw)`` of an item match."""
    fam, ini, raw = m.group("fam", "ini", 0)
    return (fam, ini, raw)


def _odd_item(
    s: str, pos: int, item_re: re.Pattern[str], sep_re: re.Pattern[str]
) -> tuple[_Triple, int] | None:
    """A list item the grammar itself does not read, at ``pos`` after a separator.

    PDF layout debris before the name (``Wetzel P, 12. McCallum RW``), a group author inside a
    person list (``…, Berger K, German Stroke Registers Study Group: Title``), or a family name
    without initials that other names or a parenthesised year follow (``Ramos-Casals M,
    Roberto-Perez-Alvarez, Diaz-Lagares C``; ``Ravelli, A., & Van Zessen, (1998)``).
    """
    if s[pos : pos + 1].isdigit():
        lay = _LAYOUT_NUM_RE.match(s, pos)
        m = item_re.match(s, lay.end()) if lay is not None else None
        return (_triple(m), m.end()) if m is not None else None
    g = _GROUP_ITEM_RE.match(s, pos)
    if g is not None and any(w in _GROUP_WORDS for w in g.group(0).split()):
        return (g.group(0), None, g.group(0)), g.end()
    b = _BARE_FAMILY_RE.match(s, pos)
    if b is not None:
        end = b.end()
        if _PAREN_YEAR_RE.match(s, end) is not None:
            return (b.group(0), None, b.group(0)), end
        sep = sep_re.match(s, end)
        if sep is not None and item_re.match(s, sep.end()) is not None:
            return (b.group(0), None, b.group(0)), end
    return None


def _scan_names(s: str, grammar: str, item_re: re.Pattern[str]) -> _Names | None:
    simple = _V_SIMPLE_RE if grammar == "vancouver" else None
    m = (simple.match(s) if simple is not None else None) or item_re.match(s)
    if m is None:
        return None
    # ``ini`` is an empty group in the CJK grammar.
    sep_re = _CJK_SEP_RE if grammar == "cjk" else _SEP_RE
    authors = [_triple(m)]
    ends: list[int] = []
    pos = m.end()
    etal = False
    n = len(s)
    while pos < n:
        # _ETAL_RE only matches where the next letter after spaces and a comma can start it.
        e = _ETAL_RE.match(s, pos) if s[pos : pos + 4].lstrip(" ,.")[:1] in _ETAL_FIRST else None
        if e is not None:
            pos = e.end()
            etal = True
            break
        sep = sep_re.match(s, pos)
        nxt: re.Match[str] | None = None
        odd: tuple[_Triple, int] | None = None
        if sep is not None and sep.end() > pos:
            q = sep.end()
            nxt = (simple.match(s, q) if simple is not None else None) or item_re.match(s, q)
            if nxt is None and grammar in _ALSO_INITIALS_FIRST:
                # Chicago / Harvard: "Altman, J.D., P.A.H. Moss, and M.M. Davis."
                nxt = _IF_ITEM_RE.match(s, sep.end())
                if nxt is None and grammar == "family_given":
                    # "Schnietz, Karen E., and Marc J. Epstein. 2005."
                    nxt = _GF_ITEM_RE.match(s, sep.end())
            if nxt is None and grammar in _LIST_EXTRAS:
                odd = _odd_item(s, sep.end(), item_re, sep_re)
        elif grammar == "vancouver" and s[pos - 1 : pos] == "." and s[pos : pos + 1] == " ":
            # "Fulton P.M. Harris R.N.": dotted initials, no comma between names.
            nxt = item_re.match(s, pos + 1)
            if nxt is not None and (
                not nxt.group(0).endswith(".") or (authors[-1][1] or "").count(".") < 2
            ):
                # Only after dotted initials ("P.M."): "Laurent G. Eur Respir J." ends the list
                # at "G." and the journal follows.
                nxt = None
        if nxt is not None:
            authors.append(_triple(nxt))
            item_end = nxt.end()
        elif odd is not None:
            authors.append(odd[0])
            item_end = odd[1]
        else:
            break
        ends.append(pos)
        pos = item_end
    if grammar == "family_initials":
        trimmed = _journal_initials(s, authors[-1], pos)
        if trimmed is not None:
            authors[-1], pos = trimmed
    # Editors "(eds.)" between the names and the year.
    eds = _EDS_RE.match(s, pos) if s[pos : pos + 4].lstrip(" ,")[:1] in "([eE" else None
    if eds is not None:
        pos = eds.end()
    strength = _end_strength(s, pos, grammar, etal=etal)
    if strength == 0 and not etal and len(authors) > 1 and grammar in _COMMA_ENDS:
        # "…, E. R. Peterson and M. R. Murray, J. Cell Biol. 32, 439": the last "name" was the
        # abbreviated venue; the list ends before it.
        authors.pop()
        pos = ends.pop()
        strength = _end_strength(s, pos, grammar, etal=etal)
    if strength == 0:
        return None
    if grammar in _NEEDS_STRONG_END and strength < 3 and not etal:
        return None
    return _Names(grammar, authors, pos, etal=etal, strength=strength)


# Dotted initial-like words that open a journal abbreviation ("Am. J. Gastroenterol.", "Br. J.
# Cancer", "Zh. Eksp. Teor. Fiz."): two letters, so the initials grammar reads them as initials.
_JOURNAL_PAIRS: Final = frozenset({"Am", "Br", "Zh", "Fr", "Sb", "Tr"})
# One-letter journal words: "J." (Journal), "Z." (Zeitschrift), "N." only before "Engl.".
_JOURNAL_LETTERS: Final = frozenset({"J", "Z"})
_INI_PART_RE: Final = re.compile(rf"{_U}{_L}?\.")
_JOURNAL_WORD: Final = rf"{_U}{_L}+(?:-{_U}?{_L}+)?"
# A dotted abbreviated word ("Clin.", "Neurocytol.", "Neuro-Ophthalmol.") or up to three whole
# words that a dotted word follows ("Cell Biol.", "Interferon Cytokine Res."): how a journal
# name goes on.
_JOURNAL_NEXT_RE: Final = re.compile(rf"(?:\s{_JOURNAL_WORD}){{1,4}}\.")


# Endings of whole words ("Neuron", "Immunity", "Cancer"), which ISO 4 truncations lack
# ("Neurosci", "Immunol", "Hypertens", "Physiol").
_WHOLE_ENDS: Final = ("y", "on", "er", "ing", "nd", "ght", "art")


def _goes_on(after: str, nxt: re.Match[str]) -> bool:
    """Whether the journal word ``nxt`` after a ``J.`` reads as the rest of an abbreviation.

    ``J. Immunol. 2008`` and ``J. Cell Biol.`` do; ``J. Neuron. 1995`` and ``J. Immunity. 2008``
    (a one-word journal straight before the tail, that is a whole word) do not.
    """
    words = nxt.group(0).split()
    if len(words) > 1 or after[nxt.end() :].lstrip()[:1].isupper():
        return True
    return not words[0].rstrip(".").lower().endswith(_WHOLE_ENDS)


def _journal_initials(s: str, last: _Triple, end: int) -> tuple[_Triple, int] | None:
    """The last name's initials without the journal words they swallowed, and the new end.

    ACS style puts the journal straight after the last initials, with no comma: in ``Minagawa,
    N. Am. J. Gastroenterol. 2005, 100, 38`` and ``Deeg, D. J. Clin. Epidemiol. 2002, 55, 213``
    the initials pattern reads ``N. Am.`` and ``D. J.``. Trailing parts are given back to the
    text, last first, while they open a journal: ``Am.``/``Br.`` before a capital, ``J.``/``Z.``
    before a journal word (:data:`_JOURNAL_NEXT_RE`), after ``Am.``/``Br.`` (``Br. J.
    Psychiatry``) or before a given-back ``Am.``/``Br.``, ``N.`` before ``Engl.``. One initial
    always stays, and ``Leonard, R. J. Neuron 1995`` keeps ``J.`` (no abbreviated word goes
    on). ``None`` when nothing changes.
    """
    fam, ini, raw = last
    if ini is None or not raw.endswith(ini) or s[end - len(ini) : end] != ini:
        return None
    start = end - len(ini)
    parts = [(start + m.start(), m.group(0)[:-1]) for m in _INI_PART_RE.finditer(ini)]
    cut = end
    back: str | None = None  # the last part given back
    for k in range(len(parts) - 1, 0, -1):
        at, part = parts[k]
        after = s[at + len(part) + 1 :]
        if part in _JOURNAL_PAIRS:
            opens = after[:1] == " " and after[1:2].isupper()
        elif part in _JOURNAL_LETTERS:
            nxt = _JOURNAL_NEXT_RE.match(after) if back is None else None
            opens = back in _JOURNAL_PAIRS or (nxt is not None and _goes_on(after, nxt))
            if not opens and back is None and k > 1 and parts[k - 1][1] in _JOURNAL_PAIRS:
                # "Br. J. Psychiatry", "Am. J. Transplant": a "J." after "Am."/"Br." is the
                # journal's, whatever word follows it.
                opens = after[:1] == " " and after[1:2].isupper()
        elif part == "N":
            opens = after.startswith(" Engl")
        else:
            opens = False
        if not opens:
            break
        cut = at
        back = part
    if cut == end:
        return None
    new_ini = s[start:cut].rstrip()
    new_end = start + len(new_ini)
    return (fam, new_ini, raw[: len(raw) - len(ini)] + new_ini), new_end


def _end_strength(s: str, pos: int, grammar: str, *, etal: bool) -> int:
    """How convincingly the text at ``pos`` ends an author list (0 = it does not)."""
    if pos >= len(s):
        return 1
    if (
        s.startswith(", ", pos)
        and s[pos + 2 : pos + 3] in _PLAIN_CAPS
        and s[pos - 1] not in ".。．"
    ):
        # ", Lehman G": neither a year ("In press", "N.d."), a colon, a quote nor a full stop
        # can follow, so the checks of _end_rules all fail; this is the commonest case by far.
        if etal:
            return 2
        return 1 if grammar in _COMMA_ENDS else 0
    if (s.startswith(". ", pos) and s[pos + 2 : pos + 3] in _PLAIN_CAPS) or (
        s[pos - 1] in ".。．" and s.startswith(" ", pos) and s[pos + 1 : pos + 2] in _PLAIN_CAPS
    ):
        # "Ell C. Endoscopic …", "et al. Analysis …": a full stop, then a capital that starts no
        # year, colon or quote; the full-stop rule of _end_rules returns 2 for it.
        return 2
    return _end_rules(s, pos, grammar, etal=etal)


def _end_rules(s: str, pos: int, grammar: str, *, etal: bool) -> int:
    """:func:`_end_strength` without its two fast paths (the rules as first written).

    The property tests check the fast paths against it.
    """
    if pos >= len(s):
        return 1
    if _YEAR_AFTER_RE.match(s, pos):
        return 3
    if _COLON_RE.match(s, pos) or _QUOTE_RE.match(s, pos):
        return 3
    prev = s[pos - 1]
    if _STOP_RE.match(s, pos) or prev in ".。．":
        rest = s[pos:].lstrip(" .,。．")
        if rest and (
            rest[0].isupper() or rest[0].isdigit() or rest[0] >= "\u3040" or rest[0] in '["“‘«'
        ):
            return 2
        if rest and rest[0].islower():
            return 1
        return 2 if etal else 0
    if etal:
        return 2
    if s.startswith(", ", pos) and grammar in _COMMA_ENDS:
        return 1
    return 0


def _name_chunks(prefix: str) -> tuple[list[_Triple], int] | None:
    """Read ``prefix`` as a list of names (see :func:`_more_names`): the names and their count.

    Every comma-separated item must read as a name (``Bergman JJGHM``, ``van Berkel A-M``,
    ``D. Potter``), a family name alone or initials alone (the halves of ``Imhof, A.``),
    ``et al``, or, for one item in four, capitalised words (``the APPROACH Investigators``,
    ``Port FCreation``); at least two items (one before a year) must be full names.
    """
    prefix = prefix.strip()
    if prefix[:4] == "and " or prefix[:2] == "& ":
        prefix = prefix.partition(" ")[2]
    chunks = _RESCUE_SEP_RE.split(prefix)
    names: list[_Triple] = []
    full = odd = 0
    pending: str | None = None
    for chunk in chunks:
        if not chunk:
            return None
        if _RESCUE_ETAL_RE.fullmatch(chunk):
            pending = None
            continue
        if _RESCUE_INI_RE.fullmatch(chunk):
            if pending is not None:
                names[-1] = (pending, chunk, f"{pending}, {chunk}")
                full += 1
                pending = None
            continue
        m = _RESCUE_NAME_RE.fullmatch(chunk)
        if m is not None:
            if m.group("fam2") is not None:
                names.append((m.group("fam2"), m.group("ini2"), chunk))
            else:
                ini = m.group("ini")
                # "Schmidt-Ullrich RK." before the title: the stop ends the list.
                run = len(ini) > 2 and ini[-1] == "." and ini[:-1].isalpha()
                names.append((m.group("fam"), ini[:-1] if run else ini, chunk))
                if m.group("fam3") is not None:
                    # "Milev P Ho B-C": two names with the comma lost between them.
                    names.append((m.group("fam3"), m.group("ini3"), chunk))
            full += 1
            pending = None
            continue
        if _RESCUE_FAMILY_RE.fullmatch(chunk):
            names.append((chunk, None, chunk))
            pending = chunk
            continue
        words = chunk.replace("(", " ").replace(")", " ").split()
        stray = sum(1 for w in words if not w[0].isupper() and w not in _RESCUE_SMALL_WORDS)
        if len(words) > 10 or stray > 1 or not any(w[0].isupper() for w in words):
            return None
        odd += 1
        pending = None
        if any(w in _GROUP_WORDS for w in words):
            names.append((chunk, None, chunk))
    if odd > max(1, len(chunks) // 4):
        return None
    return names, full


def _more_names(s: str, pos: int, *, parsed: bool) -> tuple[list[_Triple], int, int | None] | None:
    """Names that the author grammars could not read, before the title: ``(names, end, year)``.

    The grammars stop at an item they cannot read: five initials (``Bergman JJGHM``), a lost
    comma (``Milev P Ho B-C``), a lower-case particle alone (``von, G. A.``), a group
    (``the APPROACH Investigators:``), glued text (``Port FCreation:``), a full stop after the
    first name (``Johnson CR. Thames HD, ...``). What follows is then read as title. Here the
    text up to the first strong end of an author list within 300 characters (a year, ``et
    al.`` before a capital, a colon, a full stop after initials that no name follows) is taken
    for the rest of the list when every item of it reads as a name (:func:`_name_chunks`).
    """
    while s[pos : pos + 1] in (" ", ".", ",", ";"):
        pos += 1
    window = s[pos : pos + 300]
    if window[:4] != "and " and window[:2] != "& ":
        # Cheap test first: the text up to the first comma must read as a name, not title words.
        comma = window.find(", ", 0, 80)
        if comma < 0:
            return None
        words = window[:comma].split()
        if len(words) > 6 or any(
            w.islower() and w.isalpha() and len(w) > 3 and w not in _RESCUE_SMALL_WORDS
            for w in words
        ):
            return None
    for b in _RESCUE_END_RE.finditer(window):
        kind = b.lastgroup
        if kind == "stop":
            prefix = window[: b.start() + 1]
            after = window[b.end() :]
            # "Chao EY. Title", "P. J. Beek. Title": a whole name ends the list; "Hadni, J.
            # Hubsch" and "Chao EY. Potter, D." go on.
            if (
                _RESCUE_STOP_AFTER_RE.search(prefix, max(0, len(prefix) - 40)) is None
                or _RESCUE_NEXT_NAME_RE.match(after) is not None
            ):
                continue
        else:
            prefix = window[: b.start()]
        got = _name_chunks(prefix)
        if got is None:
            continue
        names, full = got
        year_text = b.group("y1") or b.group("y2")
        # One name is enough before "(2005)" or after a dangling "and" ("and Kötter R.
        # (2005)."); else two are needed ("New York, NY:" is not a list of names), and three
        # after names already read (a title may open "Vitamin D, Vitamin K: ...").
        need = 1 if b.group("y1") or window[:4] == "and " else 3 if parsed and not year_text else 2
        if full < need:
            continue
        return names, pos + b.end(), int(year_text) if year_text else None
    return None


def _read_authors(s: str) -> _Names | None:
    """The best-supported author list at the start of ``s``."""
    best: _Names | None = None
    first = s[:1]
    for grammar, item_re in _GRAMMARS:
        if grammar == "cjk":
            if not first or not ("\u3040" <= first <= "\u9fff" or "\uac00" <= first <= "\ud7af"):
                continue
        elif not first or not (first.isupper() or first.islower()):
            continue
        got = _scan_names(s, grammar, item_re)
        if got is None:
            continue
        if grammar in _NEEDS_STRONG_END and any(
            w in _CORPORATE_WORDS for a in got.authors for w in a[2].split()
        ):
            # "World Health Organization (2010)" is an organisation, not Given Family.
            continue
        if (
            best is not None
            and best.grammar == "vancouver"
            and grammar in _NEEDS_STRONG_END
            and got.authors[0][2].startswith(best.authors[0][2])
        ):
            # "Kingma DP, Ba J. Adam: ...", "Myllyharju J. Ann Med. 2008": the full-name
            # grammar reads the Vancouver names backwards ("DP" as a family name) and takes the
            # first title or journal word for one; the stronger end it finds is not its own.
            continue
        if best is None or (got.strength, got.end) > (best.strength, best.end):
            best = got
    return best


_CORP_YEAR_RE: Final = re.compile(rf"[^()]{{3,200}}?\(\s*(?P<year>{_YEAR}[a-z]?)\s*\)")
