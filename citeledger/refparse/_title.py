"""The text between the author list and the numeric tail: title and venue.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re
from typing import Final

from citeledger.refparse._authors import _COMMA_ENDS, _QUOTE_CLOSE, _read_authors
from citeledger.refparse._chars import _A, _CJK, _L, _LOS, _U, _UPS
from citeledger.refparse._runon import _has_locator
from citeledger.refparse._tail import (
    _DIGIT_RE,
    _INNER_CITE_RE,
    _OWN_YEAR_RE,
    _SECOND_YEAR_RE,
    _YEAR_BEFORE_RE,
)

_IN_RE: Final = re.compile(r"(?:^|[.,;]\s+|\s)(?:In|in|IN)\s*:\s+|[.,]\s+In\s+(?=[A-Z0-9])|\s//\s?")
_TYPE_MARK_RE: Final = re.compile(
    r"\s?\[(?:J|M|C|D|R|P|S|N|Z|EB/OL|J/OL|M/OL|C/OL|A|G|K)\]\s*[.．]?"
)
# The stop first, then the look-behind: a leading character class lets the engine skip ahead.
_SENTENCE_RE: Final = re.compile(r"([.?!。．])(?<=[^\s.].)\s+(?=\S)")
_VENUE_WORD_RE: Final = re.compile(
    rf"(?:{_U}[{_UPS}{_LOS}'’&\-]*\.?|[{_LOS}]{{1,2}}{_U}{_A}*\.?|\d+\w*\.?|[&/\-–+]|"
    rf"(?:of|the|and|in|for|on|de|der|des|die|du|la|le|et|y|und|für|di|del|della|do|da|ed|eds|an|a|"
    rf"zur|zu|am|im|i|w|и|по|в|pp|[{_CJK}].*)\.?)[,:;)]?"
)
# Frequent abbreviated words of journal titles (ISO 4 / NLM style). A full stop after one of
# these does not end a title ("Proc. Natl. Acad. Sci.", "Macromol. Rapid Commun.").
_ABBREVS: Final = frozenset(
    """J Am Int Proc Natl Nat Acad Sci Phys Chem Biol Med Rev Lett Res Commun Macromol Electron
    Appl Mech Tech Technol Eng Mater Soc Trans Ann Mol Clin Exp Inst Geophys Astrophys Astron Math
    Stat Comput Syst Neurosci Psychol Psychiatr Psychiatry Econ Environ Microbiol Immunol
    Pharmacol Pharm Genet Biochem Biophys Struct Inorg Org Anal Polym Opt Nucl Atmos Oceanogr Geol
    Ecol Evol Bot Zool Agric Nutr Vet Surg Radiol Oncol Cardiol Neurol Pediatr Dermatol Endocrinol
    Gastroenterol Hepatol Nephrol Ophthalmol Otolaryngol Urol Gynecol Obstet Orthop Dent Hosp Nurs
    Educ Sociol Philos Hist Ling Anthropol Archaeol Geogr Manag Manage Bus Financ Account Mark Q
    Bull Z Zh Zeitschr Adv Curr Opin Annu Physiol Pathol Toxicol Biotechnol Bioeng Biomed
    Nanotechnol Ind Therm Sens Autom Robot Intell Inf Inform Softw Netw Theor Comp Quant Grav
    Cosmol Cryst Surf Colloid Catal Electrochem Photochem Photobiol Spectrosc Magn Reson Semicond
    Dev Mag Gaz Ital Fr Jpn Chin Russ Can Aust Br Eur Scand Ned Tijdschr Dtsch Ges Wiss Ber Abh
    Mitt Jahrb Verh Monatsh Helv Pol Rom Hung Czech Slov Afr Lat Mex Bras Braz Arg Assoc Coll Univ
    Conf Symp Ser Monogr Suppl Med Chir Sect Publ Rep Pap Mem Not Mon Arch Anat Histol Cytol
    Embryol Entomol Parasitol Virol Bacteriol Mycol Hered Horm Metab Diabetol Gerontol Rehabil
    Pract Ther Diagn Prev Epidemiol Infect Dis Pulm Respir Crit Emerg Anesth Anaesth Intensive
    Behav Cogn Dev Lang Linguist Commun Polit Govt Admin Sociol Stud Law Leg Crim Judic Fam Child
    Adolesc Soc Work Geosci Hydrol Meteorol Climatol Mineral Petrol Sediment Paleontol Geochem
    Cosmochim Planet Space Sol Terr Acoust Vib Fluids Combust Energ Energy Fuel Fuels Nucl Instrum
    Methods Meas Metrol Vac Thin Films Biomater Tissue Regen Cellul Fiz Khim Izv Dokl Vestn Usp
    Teor Mat Tr Sb Uchen Zap Sov Akad Nauk SSSR Ross Pis Zh Eksp Fiz Prikl""".split()  # noqa: SIM905 - a word list reads best as text
) | {"Biochim", "Engl", "Anim", "Rheum", "Osteoporos", "Radic", "Mamm", "Cereb", "Circ"}
_ABBREV_WORD_RE: Final = re.compile(rf"{_U}{_L}{{0,2}}|{_A}{_L}+|{_L}{{1,3}}")
_TITLE_TRIM: Final = " \t.,;:-–—/"
_TRAILING_NOTE_RE: Final = re.compile(
    r"\s*[\[(](?:in\s+[A-Z][a-z]+|[A-Z][a-z]+\s+with\s+[A-Z][a-z]+\s+abstract|abstract|"
    r"letter|review|editorial|comment|erratum|thesis|dissertation|PhD thesis|online)[\])]\s*$",
    re.IGNORECASE,
)


def _venue_like(text: str) -> bool:
    """Whether ``text`` reads as a journal or publisher name rather than title words."""
    if len(text) > 200:
        return False
    words = text.split()
    if not words or len(words) > 16:
        return False
    # One stray lower-case word ("Acta Psychol Sin", "Journal of applied physics") is fine.
    allowed = 1 if len(words) >= 4 else 0
    lower_words = 0
    last = len(words) - 1
    for k, w in enumerate(words):
        # "Systematic review. Br J Psychiatry": a sentence ends inside, so it is still title.
        if k < last and w.endswith(".") and len(w) > 4 and w[0].islower():
            return False
        if not _VENUE_WORD_RE.fullmatch(w):
            lower_words += 1
            if lower_words > allowed:  # later words can only make it worse
                return False
    return True


def _split_title_venue(mid: str, grammar: str | None) -> tuple[str, str]:
    """Split the text between authors/year and the numeric tail into title and venue."""
    m = _TYPE_MARK_RE.search(mid) if "[" in mid else None
    if m is not None:
        return mid[: m.start()], mid[m.end() :]
    # ``mid`` is whitespace-collapsed; test for the literal text _IN_RE needs before running it
    # (the pattern has no literal prefix, so a search tries every position).
    m = (
        _IN_RE.search(mid)
        if "n:" in mid
        or "N:" in mid
        or "n :" in mid
        or "N :" in mid
        or " In " in mid
        or " //" in mid
        else None
    )
    if m is not None and m.start() > 8:
        return mid[: m.start()], mid[m.end() :]
    candidates = []
    abbrev_stops = []
    for c in _SENTENCE_RE.finditer(mid):
        if c.end() >= len(mid):
            continue
        # "J. Biol. Chem": a full stop after an abbreviation does not end a title.
        if c.group(1) == "." and _is_abbrev_end(mid, c.start()):
            abbrev_stops.append(c)
            continue
        candidates.append(c)
    for c in candidates:
        rest = mid[c.end() :].rstrip(" .")
        if _venue_like(rest):
            return mid[: c.start() + (0 if c.group(1) in ".。．" else 1)], rest
    # No sentence break is followed by a venue. A title may end in a short word that reads
    # like an abbreviation ("... in rice meiosis I. J Cell Sci", "... phosphorylation by Src.
    # Biochem Biophys Res Commun"): such a stop ends the title when _stands_alone says so.
    tried = 0
    # A title ends within the first abbreviation stops of a reference; a text with hundreds
    # of them ("A. A. A. ...") is not read further.
    for c in abbrev_stops[:20]:
        if _stands_alone(mid, c.start(), c.end()):
            rest = mid[c.end() :].rstrip(" .")
            if _venue_like(rest):
                return mid[: c.start()], rest
            tried += 1
            if tried == 3:  # each try copies the rest: keep the time linear
                break
    # "Title, J. Algebra" (physics/mathematics style): the venue after the last comma.
    if grammar in _COMMA_ENDS or grammar == "vancouver":
        cut = mid.rfind(", ")
        if cut > 0 and _venue_like(mid[cut + 2 :]) and "." in mid[cut + 2 :]:
            return mid[:cut], mid[cut + 2 :]
    if candidates:
        c = candidates[-1]
        return mid[: c.start() + (0 if c.group(1) in ".。．" else 1)], mid[c.end() :]
    return mid, ""


def _is_abbrev_end(head: str, end: int | None = None) -> bool:
    """Whether ``head[:end]`` ends with an abbreviated word ("Biol", "J", "Natl", "pp")."""
    # Only the last word matters (the last 24 characters are read, never a copy of the whole
    # head). ``head`` is whitespace-collapsed, so words are separated by single spaces.
    if end is None:
        end = len(head)
    tail = head[max(0, end - 24) : end]
    word = tail[max(tail.rfind(" "), tail.rfind("("), tail.rfind(".")) + 1 :]
    if not word or _ABBREV_WORD_RE.fullmatch(word) is None:
        return False
    return (len(word) <= 3 and (word[0].isupper() or len(word) <= 2)) or word in _ABBREVS


def _inner_citation(
    mid: str, grammar: str | None, title: str, venue: str, *, numbered_tail: bool = True
) -> tuple[str, str, str] | None:
    """Title, venue and volume/pages of a citation that stray text follows.

    PDF extraction leaves text after the numbers: a DOI cut in two (``Nature. 463:963-967.
    doi:10 .1038/...``), a running head (``Journal of Informetrics, 5(1), 37-47. Towards a new
    crown indicator 481``), the end of a line of the next column (``J. Neurophysiol. 92,
    2802-2810. local primary motor cortex populations. J. Neurosci. 30, 9659-9669``). Then the
    numeric tail is not at the end, and the title and venue end before the first volume/pages
    block after which no year and no author list follows (a year or names there start a second
    reference, which is left alone, unless it has no volume and pages of its own: a book, a report
    or a web page run on after the article, ``Am J Gastroenterol. 2008;103:416-423. NICE.
    Interventional procedure overview: ... October 12, 2004``, whose numbers are the
    article's; see :mod:`._runon`). When the block lies in the venue of the plain split
    (``title``, ``venue``), that title is kept. ``numbered_tail``: the text after ``mid``
    ends in a volume and pages (the second entry's, when one follows).
    """
    if not _DIGIT_RE.search(mid):
        return None
    # At most three blocks are tried, so that the time stays linear in the length of the text.
    for _, m in zip(range(3), _INNER_CITE_RE.finditer(mid), strict=False):
        after = mid[m.end() :].strip(" .,;:")
        # "21, 410-424 (2005)": a year right after the numbers belongs to them.
        own_year = _OWN_YEAR_RE.match(after)
        block = m.group(0)
        if own_year is not None:
            block = f"{block} {own_year.group(0)}"
            after = after[own_year.end() :]
        if (
            _SECOND_YEAR_RE.search(after) is not None
            or (after[:1].isupper() and _read_authors(after) is not None)
        ) and (numbered_tail or _INNER_CITE_RE.search(after) is not None or _has_locator(after)):
            # A second entry with numbers of its own: neither is more the string's.
            return None
        head = mid[: m.start()]
        year_before = _YEAR_BEFORE_RE.search(head, max(0, len(head) - 12))
        if year_before is not None:
            # "Cardiol Clin. 2007;25(1):35-56": the year opens the block.
            block = f"{year_before.group(1)} {block}"
            head = head[: year_before.start()]
        head = head.rstrip(" ,;:")
        venue_start = mid.rfind(venue) if venue else -1
        if 0 <= venue_start < len(head):
            # "Title. Chemistry of Life, 1994,14(2): 34-35 (Ch)": the block ends the venue.
            return title, head[venue_start:], block
        if head.count("(") > head.count(")"):
            # "... in regard to Park et al. (Int J Radiat Oncol Biol Phys 2008;70:847-852)":
            # a citation quoted inside the title.
            continue
        title, venue = _split_title_venue(head, grammar)
        if title and venue and len(title.split()) >= 3:
            return title, venue, block
    return None


def _stands_alone(head: str, end: int, rest_start: int) -> bool:
    """Whether the short word ending at ``head[end]`` can be the last word of a title.

    Yes: "rice meiosis I", "serum amyloid P", "NF-kappa B", "by Src", "the Arabian Sea" before
    "Nature" (the text from ``rest_start``). No: an initial after a name or "and" ("Meerloo
    G. J.", "Joseph F.", "and J. N."), a listed journal abbreviation ("Houston J.", "Environ.
    Pollut"), a word after another abbreviation ("J. Biol. Chem") or before one short word
    ("Fluid Dyn. Res").
    """
    start = head.rfind(" ", 0, end)
    word = head[start + 1 : end]
    if start <= 0 or not word.isalpha() or word in _ABBREVS:
        return False
    prev_start = head.rfind(" ", 0, start) + 1
    prev = head[prev_start:start]
    if prev_start == 0 or not prev or not prev[-1].isalnum():
        return False
    if len(word) == 1:
        return word.isupper() and not (
            prev.isalpha() and (prev[0].isupper() or prev in ("and", "und", "et"))
        )
    if not prev[0].isupper():
        return True
    rest = head[rest_start:].rstrip(" .")
    return " " in rest or len(rest) >= 5


def _venue_only(mid: str) -> bool:
    """A venue with no title before it ("Macromol. Rapid Commun.", "J. Cryst. Growth")."""
    if len(mid) > 80 or "." not in mid or "," in mid or not _venue_like(mid.rstrip(" .")):
        return False
    return all(
        c.group(1) == "." and _is_abbrev_end(mid, c.start())
        for c in _SENTENCE_RE.finditer(mid)
        if c.end() < len(mid)
    ) and any(_is_abbrev_end(mid, i) for i, ch in enumerate(mid) if ch == ".")


def _journal_only(mid: str) -> bool:
    """A journal name with no title before it, as physics, chemistry and Nature cite.

    ``Nature``, ``Gastrointest Endosc``, ``Gastrointest. Endosc.``, ``J Am. Soc. Nephrol``,
    ``IEEE Transactions on Automatic Control``: capitalised venue words with no comma, colon or
    quote (a title is set off by one of them in these styles), where every full stop inside
    follows a truncated word (:func:`_truncated_word`) or a segment holding an abbreviated
    journal word. ``Deep
    learning. Nature`` and ``Cancer Statistics. CA Cancer J Clin`` have a title before the
    stop and are not journal-only. The caller asks only when a volume and a first page follow.
    """
    if len(mid) > 90 or any(c in mid for c in ',;:?!"“”«»[]'):
        return False
    plain = mid.replace(".", " ").replace("(", " ").replace(")", " ")
    words = plain.split()
    # Every word a venue word: no lower-case title word ("Amplifying estrogenity of. Canadian
    # Journal of Zoology" keeps its doubt), as _venue_like would allow one.
    if not words or len(words) > 10 or not all(_VENUE_WORD_RE.fullmatch(w) for w in words):
        return False
    start = 0
    for c in _SENTENCE_RE.finditer(mid):
        if c.end() >= len(mid):
            break
        segment = mid[start : c.start()].strip()
        if c.group(1) != ".":
            return False
        if " " not in segment:
            if not _truncated_word(segment.strip("()")):
                # "Madarosis. Surv Ophthalmol", "Self-harm. Lancet": a one-word title.
                return False
        elif not _is_abbrev_end(mid, c.start()) and not any(
            w.strip(".()") in _ABBREVS for w in segment.split()
        ):
            # "N Engl. J Med", "J Cardiovasc. Pharmacol": an abbreviated journal word inside
            # the segment; "Cancer Statistics." has none, so it is a title.
            return False
        start = c.end()
    return True


#: Endings of whole English words, which ISO 4 truncations ("Gastrointest", "Endosc",
#: "Ophthalmol", "Psychiatr") do not have: "Madarosis", "Reply", "Rhythm", "Depression".
_WHOLE_WORD_ENDS: Final = ("ion", "er", "ing", "art", "ght", "nd")


def _truncated_word(word: str) -> bool:
    """Whether one capitalised word before a full stop reads as an ISO 4 abbreviation."""
    word = word.rsplit("-", 1)[-1]
    if word in _ABBREVS or (len(word) <= 3 and word[:1].isupper()):
        return True
    low = word.lower()
    return bool(low) and low[-1] not in "aeiousym" and not low.endswith(_WHOLE_WORD_ENDS)


def _clean_title(title: str) -> str:
    if title.rstrip()[-1:] in ")]":
        title = _TRAILING_NOTE_RE.sub("", title)
    title = title.strip(_TITLE_TRIM)
    if len(title) >= 2 and title[0] in _QUOTE_CLOSE and title[-1] == _QUOTE_CLOSE[title[0]]:
        title = title[1:-1].strip(_TITLE_TRIM)
    return title.strip(_TITLE_TRIM + '"“”‘’«»„')


def _clean_venue(venue: str) -> str:
    if venue.rstrip()[-1:] in ")]":
        venue = _TRAILING_NOTE_RE.sub("", venue)
    venue = venue.strip(" \t.,;:-–—/")
    if venue[:3].lower() == "in ":
        venue = venue[3:]
    return venue.strip(" \t,;:")
