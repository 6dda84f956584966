"""Realistic noisy citations of one paper: :func:`noisy_references`."""

from __future__ import annotations

import unicodedata

from hypothesis import strategies as st

from citeledger.identifiers import Scheme
from citeledger.model import Author, Paper, Reference
from citeledger.testing._vocab import (
    _ACCENTED,
    _EPONYMS,
    _FAMILY_NAMES,
    _FORMS,
    _VENUES,
    _drawing,
    _flag,
    _strip_accents,
)

# --------------------------------------------------------------------------------------------
# Noisy citations of one paper
# --------------------------------------------------------------------------------------------


def _abbreviate_venue(venue: str) -> str:
    for full, short in _VENUES:
        if full == venue:
            return short
    # Generic ISO 4-ish: drop function words, cut long words to a stem with a full stop.
    words = [w for w in venue.split() if w.lower() not in {"of", "the", "and", "in", "on", "for"}]
    return " ".join(w[:4] + "." if len(w) > 5 else w for w in words)


def _add_accent(word: str, draw: st.DrawFn) -> str:
    # The paper's metadata may be ASCII-folded while the citing author typed the accents.
    for name in (*_FAMILY_NAMES, *_EPONYMS):
        if _strip_accents(name) == word and name != word:
            return name
    vowels = [i for i, c in enumerate(word) if c in _ACCENTED]
    if not vowels:
        return word
    i = draw(st.sampled_from(vowels))
    return word[:i] + _ACCENTED[word[i]] + word[i + 1 :]


def _case(text: str, mode: int) -> str:
    if mode == 1:
        return text.lower()
    if mode == 2:
        return text.upper()
    if mode == 3:
        return " ".join(w[:1].upper() + w[1:] for w in text.split(" "))
    if mode == 4:  # sentence case
        return text[:1] + text[1:].lower()
    return text


def _noisy_title(draw: st.DrawFn, title: str) -> str:
    text = _case(title, draw(st.integers(0, 4)))
    diacritics = draw(st.integers(0, 3))
    if diacritics == 1:
        text = _strip_accents(text)
    elif diacritics == 2:
        words = text.split(" ")
        i = draw(st.integers(0, len(words) - 1))
        words[i] = _add_accent(words[i], draw)
        text = " ".join(words)
    punct = draw(st.integers(0, 4))
    if punct == 1:
        text = text.replace(":", "")
    elif punct == 2:
        text = text.replace("-", " ")
    elif punct == 3:
        text = f"\u201c{text}\u201d"
    elif punct == 4 and ":" in text and draw(st.booleans()):
        text = text.split(":", 1)[0]  # the subtitle is dropped
    return unicodedata.normalize(draw(st.sampled_from(_FORMS)), text)


def _noisy_author(draw: st.DrawFn, author: Author) -> Author:
    family = author.family or author.name
    given = author.given
    if draw(st.booleans()):
        family = _strip_accents(family)
    elif draw(st.integers(0, 4)) == 0:
        family = _add_accent(family, draw)
    if given:
        style = draw(st.integers(0, 3))
        parts = [p for p in given.replace("-", " -").split() if p]
        if style == 1:  # "J. P.", "J.-P."
            given = " ".join(("-" + p[1] + "." if p.startswith("-") else p[0] + ".") for p in parts)
            given = given.replace(" -", "-")
        elif style == 2:  # Vancouver "JP"
            given = "".join(p.lstrip("-")[0] for p in parts)
        elif style == 3:
            given = _strip_accents(given)
    if draw(st.integers(0, 5)) == 0:
        family = family.upper()
    form = draw(st.sampled_from(_FORMS))
    return Author(
        family=unicodedata.normalize(form, family),
        given=None if given is None else unicodedata.normalize(form, given),
    )


def _render_author(author: Author, style: int) -> str:
    family = author.family or ""
    given = author.given or ""
    if not given:
        return family
    if style == 1:  # Vancouver: "Smith JP"
        initials = "".join(p[0] for p in given.replace(".", " ").replace("-", " ").split())
        return f"{family} {initials}"
    if style == 2:  # "J. P. Smith"
        return f"{given} {family}"
    return f"{family}, {given}"


def _render(ref: Reference, *, et_al: bool, style: int, doi_text: str | None) -> str:
    names = [_render_author(a, style) for a in ref.authors]
    if style == 1:
        who = ", ".join(names)
    elif len(names) > 1 and not et_al:
        who = ", ".join(names[:-1]) + (", and " if style == 2 else " & ") + names[-1]
    else:
        who = ", ".join(names)
    if et_al:
        who += ", et al." if style != 1 else " et al."
    parts = [who.rstrip(".") + "." if who else ""]
    if style == 0 and ref.year is not None:  # APA: year after the authors
        parts.append(f"({ref.year}).")
    if ref.title:
        parts.append(ref.title.rstrip(".") + ".")
    venue_bits = [ref.venue or ""]
    if ref.volume:
        venue_bits.append(ref.volume + (f"({ref.issue})" if ref.issue else ""))
    if ref.first_page:
        venue_bits.append(ref.first_page + (f"\u2013{ref.last_page}" if ref.last_page else ""))
    venue = ", ".join(b for b in venue_bits if b)
    if venue:
        parts.append(venue + ("." if style == 0 or ref.year is None else ""))
    if style != 0 and ref.year is not None:
        parts.append(f"({ref.year})." if style == 2 else f"{ref.year}.")
    if doi_text:
        parts.append(doi_text)
    return " ".join(p for p in parts if p)


def _pdf_noise(draw: st.DrawFn, text: str) -> str:
    words = text.split(" ")
    long_words = [i for i, w in enumerate(words) if len(w) >= 8 and w.isalpha()]
    hyphenate = bool(long_words) and draw(st.booleans())
    if hyphenate:  # PDF hyphenation: "Endo-\nscopic"
        i = draw(st.sampled_from(long_words))
        cut = draw(st.integers(3, len(words[i]) - 3))
        words[i] = f"{words[i][:cut]}-\n{words[i][cut:]}"
    if len(words) > 3 and draw(st.integers(0, 1)):  # a line break where a space was
        i = draw(st.integers(1, len(words) - 1))
        words[i] = "\n" + words[i]
    out = " ".join(words).replace(" \n", "\n")
    noise = draw(st.integers(0, 3))
    if noise == 1:
        out = out.replace(". ", " .  ", 1)  # stray space before punctuation
    elif noise == 2:
        out = out.replace(", ", " ,", 1)
    elif noise == 3:
        out = "  " + out + " "
    return out


def noisy_references(
    paper: Paper,
    *,
    position: int | None = None,
    raw: bool | None = None,
    keep_identifiers: bool | None = None,
    drop_fields: bool = True,
) -> st.SearchStrategy[Reference]:
    r"""Realistic citations of ``paper``, as a citing paper's reference list prints them.

    The noise is what resolvers meet in practice: title case changed (lower, UPPER, Title,
    sentence), diacritics stripped or added, NFC or NFD, given names cut to initials ("J. P.",
    "JP"), family names upper-cased, venues abbreviated ("J. Mach. Learn. Res."), the subtitle
    dropped, fields dropped (year, venue, volume, pages), trailing authors replaced by "et al.";
    and in the raw-string variant, PDF hyphenation ("Endo-\nscopic"), line breaks and stray
    whitespace or punctuation. The paper's title (up to the subtitle) is always cited, so a
    sound resolution rule can find the paper.

    The raw-string variant goes through :meth:`Reference.from_string` (the parser in
    :mod:`citeledger.refparse`).

    Args:
        paper: The cited paper (needs a title).
        position: The reference's position in the list; None draws one.
        raw: True draws only raw-string references, False only structured ones, None both.
        keep_identifiers: True keeps the paper's identifiers, False drops them, None either.
        drop_fields: Whether fields other than title and first author may be dropped.

    Raises:
        ValueError: the paper has no title.
    """
    if not paper.title:
        msg = "noisy_references needs a paper with a title"
        raise ValueError(msg)

    def build(draw: st.DrawFn) -> Reference:
        pos = position if position is not None else draw(st.integers(1, 300))
        title = _noisy_title(draw, paper.title or "")
        people = [_noisy_author(draw, a) for a in paper.authors]
        et_al = False
        if drop_fields and len(people) > 2 and draw(st.booleans()):
            people = people[: draw(st.integers(1, min(3, len(people) - 1)))]
            et_al = True

        def keep(value: object) -> bool:
            return value is not None and not (drop_fields and draw(st.integers(0, 3)) == 0)

        venue = paper.venue
        if venue is not None and draw(st.booleans()):
            venue = _abbreviate_venue(venue)
        ids = paper.identifiers if _flag(draw, keep_identifiers) else ()
        structured = Reference(
            position=pos,
            title=title,
            authors=people,
            year=paper.year if keep(paper.year) else None,
            venue=venue if keep(venue) else None,
            volume=paper.volume if keep(paper.volume) else None,
            issue=paper.issue if keep(paper.issue) else None,
            first_page=paper.first_page if keep(paper.first_page) else None,
            identifiers=ids,
        )
        if not _flag(draw, raw):
            return structured
        doi = next((i for i in ids if i.scheme is Scheme.DOI), None)
        doi_text = None
        if doi is not None:
            doi_text = draw(
                st.sampled_from(
                    (f"doi:{doi.value}", f"https://doi.org/{doi.value}", f"DOI {doi.value}")
                )
            )
        arxiv = next((i for i in ids if i.scheme is Scheme.ARXIV), None)
        if doi_text is None and arxiv is not None:
            doi_text = f"arXiv:{arxiv.value}"
        text = _render(structured, et_al=et_al, style=draw(st.integers(0, 2)), doi_text=doi_text)
        text = _pdf_noise(draw, text)
        return Reference.from_string(text, position=pos)

    return _drawing(build)
