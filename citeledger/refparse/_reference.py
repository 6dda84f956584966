"""Reading one reference string: the four passes of :mod:`citeledger.refparse`.

Imported by :func:`citeledger.refparse.parse_reference` on its first call: its
grammars and those of the modules it imports (``_authors`` above all) take a fifth
of a second to compile, which ``import citeledger`` no longer pays.

.. versionadded:: 0.2.0
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

import attrs

from citeledger.identifiers import (
    Identifier,
    MalformedFragment,
    find_identifiers,
)
from citeledger.refparse._authors import (
    _CORP_YEAR_RE,
    _QUOTE_CLOSE,
    _QUOTE_RE,
    _YEAR_AFTER_RE,
    _make_author,
    _more_names,
    _Names,
    _read_authors,
)
from citeledger.refparse._clean import (
    _BACKREF_RE,
    _LEADING_LABEL_RE,
    _NONREF_ANY_RE,
    _NONREF_RE,
    _WORD_RE,
    _clean_text,
    _extract_arxiv_corr,
    _may_hold_identifier,
    _mostly_symbols,
    _strip_noise,
)
from citeledger.refparse._names import ParsedName
from citeledger.refparse._parsed import ParsedReference
from citeledger.refparse._runon import _later_reference
from citeledger.refparse._tail import _ANY_YEAR_RE, _TAIL_YEAR_RE, _parse_tail, _tail_start
from citeledger.refparse._title import (
    _ABBREVS,
    _clean_title,
    _clean_venue,
    _inner_citation,
    _journal_only,
    _split_title_venue,
    _truncated_word,
    _venue_only,
)

#: An IEEE-style list label, a number in brackets: "[12]" (not "[Smi05]", nor "12.", which a
#: PDF's line numbers also give).
_LABEL_NUMBER_RE: Final = re.compile(r"\[\s*(\d{1,4})\s*\]")
#: Longest corporate author read before a year in brackets ("Mild Traumatic Brain Injury
#: Committee of the Head Injury Interdisciplinary Special Interest Group of the American Congress
#: of Rehabilitation Medicine. (1993).": 150 characters); :data:`._authors._CORP_YEAR_RE` reads
#: as far. Past :data:`_MAX_LISTED_CORPORATE_CHARS` a text with a comma is a list of personal
#: names the grammars could not read ("Gallou C, Chauveau D, …, BenoıˆtBenoıˆt G, … (2004)"),
#: not one organisation.
_MAX_CORPORATE_CHARS: Final = 200
_MAX_LISTED_CORPORATE_CHARS: Final = 150
#: Longest text read as one reference; longer input is a text block, not a reference.
_MAX_REFERENCE_CHARS: Final = 3000
#: How much of an over-long text is still scanned for identifiers (keeps the time bounded).
_MAX_SCAN_CHARS: Final = 20000


def _uncertain(
    raw: str,
    position: int | None,
    reason: str,
    *,
    identifiers: tuple[Identifier, ...] = (),
    malformed: tuple[MalformedFragment, ...] = (),
    year: int | None = None,
    confidence: float = 0.05,
) -> ParsedReference:
    return ParsedReference(
        raw=raw,
        position=position,
        year=year,
        identifiers=identifiers,
        malformed=malformed,
        confidence=confidence,
        doubt=reason,
    )


_LAST_J_RE: Final = re.compile(r"(?<=\.)\s?J\.(?P<more>(?:\s?[A-Z][a-z]{1,2}\.)*)$")
_WORDS_AFTER_RE: Final = re.compile(r"\s*([A-Z][a-z]{1,13})\.?(?:\s+([A-Z][a-z]{1,13})\.?)?")
# Words that follow "J." in journal abbreviations far more often than they start one (counted
# on the NLM abbreviations of the PMC gold records: "J Chromatogr" 26, "Chromatogr ..." 0),
# and the word pairs of the common "J." chemistry and physics journals. "Am", "Exp", "Clin",
# "Acad", "Proc" start journals as often ("Am J ...", "Exp Brain Res"), so after "Collins, J. J."
# they leave the "J." with the name.
_AFTER_J: Final = frozenset(
    """Abnorm Acoust Acquir Allergy Anxiety Bacteriol Biomech Biomed Biomol Chromatogr Comp
    Comput Econ Epidemiol Gastroenterol Gen Geophys Histochem Lipid Mater Microbiol Morphol
    Natl Neurochem Neuroimmunol Neuropathol Neurophysiol Neurosurg Occup Orthop Paediatr Struct
    Thorac Thromb Trauma Vasc Virol Catal Electrochem Colloid Photochem""".split()  # noqa: SIM905 - a word list reads best as text
)
_AFTER_J_PAIRS: Final = frozenset(
    {("Am", "Chem"), ("Phys", "Chem"), ("Org", "Chem"), ("Med", "Chem"), ("Biol", "Chem")}
    | {("Chem", "Phys"), ("Appl", "Phys"), ("Am", "Soc"), ("Am", "Med"), ("Am", "Acad")}
)


def _give_back_journal_j(s: str, names: _Names) -> None:
    """ACS style: ``Offeman, R. E. J. Am. Chem. Soc. 1958``: "J. Am." opens the journal.

    The family-comma-initials and Vancouver grammars read "R. E. J. Am." as initials (two-letter
    ones such as "Th." exist). The last "J." is the journal's when the words after it are ones
    that follow "J." in journal names (:data:`_AFTER_J`, :data:`_AFTER_J_PAIRS`), not when they
    can start a journal themselves ("Collins, J. J. Exp. Brain Res.").
    """
    fam, ini, raw = names.authors[-1]
    m = _LAST_J_RE.search(raw)
    if m is None or not ini:
        return
    words = m.group("more").replace(".", " ").split()
    after = _WORDS_AFTER_RE.match(s, names.end)
    if after is not None:
        words.extend(w for w in after.groups() if w)
    if not words or not (
        words[0] in _AFTER_J or (len(words) > 1 and (words[0], words[1]) in _AFTER_J_PAIRS)
    ):
        return
    dropped = len(raw) - m.start()
    if not raw.endswith(ini) or dropped >= len(ini):
        return
    kept = raw[: m.start()].rstrip()
    names.authors[-1] = (fam, ini[: len(ini) - dropped].rstrip(), kept)
    names.end -= len(raw) - len(kept)


_NEXT_ABBREV_RE: Final = re.compile(r"\.\s([A-Z][a-z]{0,11})\b")
_NUMBERS_NEXT_RE: Final = re.compile(r"\.\s\d")


def _give_back_journal_name(s: str, names: _Names) -> None:
    """Physics style: ``A. Smith, B. Jones, J. Chem. Phys. 76, 4350``: "J. Chem" is no name.

    The initials-first grammar reads the journal's first words as one more author; when that
    "family name" and the word after it are abbreviated journal words, the list ends before.
    """
    fam, ini, raw = names.authors[-1]
    after = _NEXT_ABBREV_RE.match(s, names.end)
    nxt = after.group(1) if after is not None else ""
    # "M. H. Schieber, J. Neurophysiol. 92, 2802", "J. Cell. Biol. 156", "Am. J. Pathol. 172":
    # the "initials" are journal words ("J.", "Am. J."), and numbers or another journal word
    # follow the "family name".
    words = (ini or "").replace(".", " ").split()
    journal_initials = 0 < len(words) <= 3 and all(w in _ABBREVS for w in words)
    numbers_next = _NUMBERS_NEXT_RE.match(s, names.end) is not None
    if not (
        (fam in _ABBREVS and nxt in _ABBREVS)
        or (journal_initials and (numbers_next or nxt in _ABBREVS or _truncated_word(nxt)))
    ):
        return
    start = s.rfind(raw, 0, names.end)
    if start <= 0:
        return
    names.authors.pop()
    names.end = len(s[:start].rstrip(" ,"))


def _short_locator(s: str) -> bool:
    """Whether a text of one or two words ends in a volume and first page.

    ``E. Garfield, Science 178, 471 (1972).`` and ``Garfield E. Science. 1972;178:471-9.`` are
    whole references: a name, a journal and the numbers.
    """
    if len(s) > 80 or not any(c.isalpha() for c in s):
        return False
    start = _tail_start(s, 0)
    if start == 0 or start >= len(s):
        return False
    tail = _parse_tail(s[start:])
    return bool(tail.volume and tail.first_page)


def parse_reference(text: str, *, position: int | None = None) -> ParsedReference:
    """:func:`citeledger.refparse.parse_reference` (documented there).

    .. versionadded:: 0.2.0
    """
    # Callers outside the type checker may pass bytes or None; read them as text, never raise.
    obj: object = text
    raw = obj if isinstance(obj, str) else str(obj)
    try:
        return _parse(raw, raw, position)
    except Exception as exc:  # a parser bug must not stop a batch; the reason names it
        return _uncertain(
            raw,
            position,
            f"internal parser error ({type(exc).__name__})",
            confidence=0.0,
        )


#: What reading the second of two run-together entries costs in confidence: the string's
#: first entry is left unread.
_LATER_ENTRY_DOUBT: Final = 0.1


def _read_later(raw: str, later: str, position: int | None, label: str | None) -> ParsedReference:
    """The parse of ``later``, the second of two entries run together in ``raw``.

    Only the identifiers printed from the second entry's first name on are its own (a DOI of
    the first entry must not be taken for the second's).
    """
    got = _parse(later, raw, position)
    first = later.split(" ", 1)[0].strip(",.")
    at = raw.find(first) if first else -1
    if at >= 0 and _may_hold_identifier(raw[at:]):
        found = find_identifiers(raw[at:])
        identifiers, malformed = tuple(found.identifiers), found.malformed
    else:
        identifiers, malformed = (), ()
    return attrs.evolve(
        got,
        label=label,
        identifiers=identifiers,
        malformed=malformed,
        confidence=round(max(0.0, got.confidence - _LATER_ENTRY_DOUBT), 3),
    )


def _parse(text: str, raw: str, position: int | None) -> ParsedReference:
    if not text or text.isspace():
        return _uncertain(raw, position, "empty reference string", confidence=0.0)
    scan = text if len(text) <= _MAX_SCAN_CHARS else text[:_MAX_SCAN_CHARS]
    if _may_hold_identifier(scan):
        found = find_identifiers(scan)
        identifiers = list(found.identifiers)
        malformed = found.malformed
    else:
        identifiers, malformed = [], ()
    if len(text) > _MAX_REFERENCE_CHARS:
        return _uncertain(
            raw,
            position,
            f"text too long for one reference ({len(text)} characters)",
            identifiers=tuple(identifiers),
            malformed=malformed,
            confidence=0.05,
        )
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    s = _clean_text(text)
    cleaned = s
    arxiv_venue = _extract_arxiv_corr(s, identifiers) if "CoRR" in s else False
    low = s.lower()
    if not arxiv_venue and "arxiv" in low:
        arxiv_venue = True
    s = _strip_noise(s, low, corr=arxiv_venue)
    if s is not cleaned:
        # _clean_text returns collapsed text, and re.sub returns its input when nothing matched.
        s = " ".join(s.split())
    s = s.strip(" ,;")
    label = _LEADING_LABEL_RE.match(s)
    label_text: str | None = None
    if label is not None:
        label_text = label.group(0).strip() or None
        s = s[label.end() :].lstrip()
        if position is None and label_text is not None:
            number = _LABEL_NUMBER_RE.fullmatch(label_text)
            if number is not None and int(number.group(1)) >= 1:
                # IEEE and numbered lists: "[12] A. Smith, ..." is reference 12.
                position = int(number.group(1))
    ident_tuple = tuple(identifiers)

    # ---- too little to work with
    if _BACKREF_RE.match(s):
        return _uncertain(
            raw,
            position,
            "a back-reference (Ibid., op. cit.) with no content of its own",
            identifiers=ident_tuple,
            malformed=malformed,
        )
    if _NONREF_RE.match(s) or (len(s) < 60 and _NONREF_ANY_RE.search(s)):
        return _uncertain(
            raw,
            position,
            "a personal communication or unpublished work: nothing to look up",
            identifiers=ident_tuple,
            malformed=malformed,
        )
    words = _WORD_RE.findall(s) if len(s) < 80 or s.count(" ") < 2 else ("",) * 3
    if (len(words) < 3 or s.count(" ") < 1) and not _short_locator(s):
        year_m = _TAIL_YEAR_RE.search(s)
        if not any(c.isalpha() for c in s):
            reason = (
                "only an identifier or URL, no bibliographic text"
                if identifiers or malformed or "http" in text or "www." in text
                else "no bibliographic text (only a number or punctuation)"
            )
        else:
            reason = f"too little text to parse ({len(words)} word{'s' if len(words) != 1 else ''})"
        return _uncertain(
            raw,
            position,
            reason,
            identifiers=ident_tuple,
            malformed=malformed,
            year=int(year_m.group("y1") or year_m.group("y2")) if year_m else None,
            confidence=0.15 if identifiers else 0.05,
        )
    if _mostly_symbols(s):
        return _uncertain(
            raw,
            position,
            "does not look like a reference (mostly non-letter characters)",
            identifiers=ident_tuple,
            malformed=malformed,
        )

    # ---- authors, then a year right after them
    names = _read_authors(s)
    if names is not None and names.grammar in ("family_initials", "vancouver"):
        _give_back_journal_j(s, names)
    elif names is not None and names.grammar == "initials_family" and len(names.authors) > 1:
        _give_back_journal_name(s, names)
    authors: list[ParsedName] = []
    grammar: str | None = None
    pos = 0
    year: int | None = None
    if names is not None:
        authors = [_make_author(*a) for a in names.authors]
        pos, grammar = names.end, names.grammar
    else:
        # A corporate author before "(2005)": "World Health Organization (2010) Title."
        m = _CORP_YEAR_RE.match(s)
        if m is not None and m.start("year") > 2:
            corp = s[: m.start("year")].strip(" ,.(")
            if 0 < len(corp) <= _MAX_CORPORATE_CHARS and (
                len(corp) <= _MAX_LISTED_CORPORATE_CHARS or "," not in corp
            ):
                authors = [ParsedName(family=corp, raw=corp)]
                pos = m.start("year") - 1 if s[m.start("year") - 1] == "(" else m.start("year")
                grammar = "corporate"
    ym = _YEAR_AFTER_RE.match(s, pos) if authors else None
    if ym is not None:
        y = ym.group("year")
        if y[:1].isdigit():
            year = int(y[:4])
        pos = ym.end()
    elif grammar != "corporate":
        more = _more_names(s, pos, parsed=bool(authors))
        if more is not None:
            extra_names, pos, year = more
            authors.extend(_make_author(*a) for a in extra_names)
            ym = _YEAR_AFTER_RE.match(s, pos) if year is None else None
            if ym is not None and ym.group("year")[:1].isdigit():
                # "..., et al 2016 Title": the year after the list.
                year = int(ym.group("year")[:4])
                pos = ym.end()

    # ---- two entries run together: read the one the numbers at the end belong to
    later = _later_reference(s, pos) if year is not None else None
    if later is not None:
        return _read_later(raw, s[later:], position, label_text)

    # ---- quoted title (IEEE, Chicago, physics)
    title = ""
    venue = ""
    rest_from = pos
    q = _QUOTE_RE.match(s, pos)
    if q is not None and (pos > 0 or q.start(1) == 0):
        opener = q.group(1)
        close = _QUOTE_CLOSE[opener]
        end = s.find(close, q.end(1) + 1)
        if opener == "“" and end < 0:
            end = s.find('"', q.end(1) + 1)
        # A quote that closes mid-title ('"Environment shock": a study of ...') is part of
        # the title, not around it.
        if end > q.end(1) and (
            s[end - 1 : end] in ",.?!" or s[end + 1 : end + 2] in ("", ",", ".")
        ):
            title = s[q.end(1) : end]
            rest_from = end + 1

    # ---- numeric tail and the text between
    tstart = _tail_start(s, rest_from)
    tail = _parse_tail(s[tstart:])
    mid = s[rest_from:tstart].strip(" ,;:")
    journal_only = False
    if title:
        venue = mid
    elif mid:
        if authors and tail.volume and tail.first_page and _journal_only(mid):
            # A title-less citation (physics, chemistry, Nature, Vancouver short form).
            venue = mid
            journal_only = True
        elif authors and (tail.volume or tail.first_page) and _venue_only(mid):
            venue = mid
        else:
            title, venue = _split_title_venue(mid, grammar)
            inner = _inner_citation(
                mid, grammar, title, venue, numbered_tail=bool(tail.volume and tail.first_page)
            )
            if inner is not None:
                title, venue, block = inner
                inner_tail = _parse_tail(block)
                if inner_tail.year is None:
                    inner_tail.year = tail.year
                tail = inner_tail
    title = _clean_title(title)
    venue = _clean_venue(venue) if venue else ""
    if not title and names is None and authors == [] and venue:
        title, venue = venue, ""

    if year is None:
        year = tail.year
    if year is None:
        m2 = _ANY_YEAR_RE.search(s, pos)
        if m2 is not None:
            year = int(m2.group(1))
    if not venue and arxiv_venue:
        venue = "arXiv" if "arxiv" in raw.lower() else "CoRR"

    # ---- confidence
    conf = 0.0
    title_words = len(title.split())
    if title_words >= 3:
        conf += 0.4
    elif title:
        conf += 0.2
    if authors:
        conf += 0.2
    if year is not None:
        conf += 0.15
    if venue:
        conf += 0.1
    if tail.volume or tail.first_page:
        conf += 0.1
    if ident_tuple:
        conf += 0.1
    if journal_only and year is not None:
        # Authors, journal, volume, first page and year: all a title-less style prints.
        conf += 0.3
    if len(title) > 300:
        conf -= 0.25
    conf = max(0.0, min(1.0, conf))

    doubt: str | None = None
    if not title and not ident_tuple and not (venue and (tail.volume or tail.first_page)):
        conf = min(conf, 0.25)
        doubt = "no title could be found"
    return ParsedReference(
        raw=raw,
        position=position,
        label=label_text,
        title=title or None,
        authors=tuple(authors),
        year=year,
        venue=venue or None,
        volume=tail.volume,
        issue=tail.issue,
        first_page=tail.first_page,
        last_page=tail.last_page,
        identifiers=ident_tuple,
        malformed=malformed,
        confidence=round(conf, 3),
        doubt=doubt,
    )
