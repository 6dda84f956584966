"""Strategies for works: times, authors, titles, relations, papers and references."""

from __future__ import annotations

import datetime as dt

from hypothesis import strategies as st

from citeledger.identifiers import MalformedFragment, Scheme
from citeledger.model import Author, Paper, Reference, Relation, RelationKind, WorkType
from citeledger.testing._idgen import identifiers, malformed_identifier_strings
from citeledger.testing._vocab import (
    _AREAS,
    _CONTENT_WORDS,
    _FAMILY_NAMES,
    _GIVEN_NAMES,
    _SOURCE_NAMES,
    _STOPWORDS,
    _TEXT,
    _VENUES,
    _drawing,
    _flag,
    _strip_accents,
)


def utc_datetimes(
    *, min_value: dt.datetime | None = None, max_value: dt.datetime | None = None
) -> st.SearchStrategy[dt.datetime]:
    """Aware datetimes, drawn in a few time zones and converted to UTC as the model stores them.

    Args:
        min_value: Earliest naive value (default 1990-01-01).
        max_value: Latest naive value (default 2100-01-01).
    """
    zones = st.sampled_from(
        (
            dt.UTC,
            dt.timezone(dt.timedelta(hours=2)),
            dt.timezone(dt.timedelta(hours=-5, minutes=-30)),
        )
    )
    return st.datetimes(
        min_value=min_value or dt.datetime(1990, 1, 1),  # noqa: DTZ001 - hypothesis bounds are naive
        max_value=max_value or dt.datetime(2100, 1, 1),  # noqa: DTZ001
        timezones=zones,
    ).map(lambda d: d.astimezone(dt.UTC))


def _orcid_checksum(digits: str) -> str:
    # ISO 7064 MOD 11-2, as ORCID specifies for its last character.
    total = 0
    for d in digits:
        total = (total + int(d)) * 2
    check = (12 - total % 11) % 11
    return "X" if check == 10 else str(check)


@st.composite
def _orcids(draw: st.DrawFn) -> str:
    digits = "000" + "".join(
        draw(st.lists(st.sampled_from("0123456789"), min_size=12, max_size=12))
    )
    digits = digits[:15]
    full = digits + _orcid_checksum(digits)
    return "-".join(full[i : i + 4] for i in range(0, 16, 4))


def authors(
    *, with_orcid: bool | None = None, with_raw: bool | None = None, ascii_only: bool = False
) -> st.SearchStrategy[Author]:
    """Authors with family and given names from many languages (diacritics included).

    Args:
        with_orcid: True always draws a (checksum-valid) ORCID iD, False never, None either.
        with_raw: True always sets ``raw`` ("Given Family"), False never, None either.
        ascii_only: Strip diacritics from the names.
    """
    orcids = _orcids()

    def build(draw: st.DrawFn) -> Author:
        family = draw(st.sampled_from(_FAMILY_NAMES))
        given = draw(st.sampled_from(_GIVEN_NAMES))
        if ascii_only:
            family, given = _strip_accents(family), _strip_accents(given)
        orcid = draw(orcids) if _flag(draw, with_orcid) else None
        raw = f"{given} {family}" if _flag(draw, with_raw) else None
        return Author(family=family, given=given, raw=raw, orcid=orcid)

    return _drawing(build)


def titles(
    *, min_words: int = 3, max_words: int = 14, subtitle: bool | None = None
) -> st.SearchStrategy[str]:
    """Realistic titles: words of scholarly titles, some eponyms with diacritics, a subtitle.

    Args:
        min_words: Fewest content words (stop words such as "of" come on top).
        max_words: Most content words.
        subtitle: True adds ": Subtitle" to every title of four or more content words, False
            never, None sometimes.
    """
    if min_words < 1 or max_words < min_words:
        msg = f"need 1 <= min_words <= max_words, got {min_words}, {max_words}"
        raise ValueError(msg)

    content = st.lists(_CONTENT_WORDS, min_size=min_words, max_size=max_words)
    masks = st.integers(0, 2**max_words - 1)

    def build(draw: st.DrawFn) -> str:
        # Few draws per title (a list, two bit masks): titles are drawn a lot, keep them cheap.
        picked = draw(content)
        stop_mask = draw(masks) & draw(masks)  # about one gap in four gets a stop word
        # The subtitle starts at content word ``cut`` (never after a stop word: "of: X").
        cut = (
            draw(st.integers(2, len(picked) - 1))
            if len(picked) >= 4 and _flag(draw, subtitle)
            else -1
        )
        words: list[str] = []
        for i, word in enumerate(picked):
            if i == cut:
                words[-1] += ":"
                word = word[:1].upper() + word[1:]  # noqa: PLW2901 - the subtitle's capital
            elif i and stop_mask >> i & 1:
                words.append(_STOPWORDS[(i + len(word)) % len(_STOPWORDS)])
            words.append(word)
        words[0] = words[0][:1].upper() + words[0][1:]
        if draw(st.booleans()):  # Title Case, as many journals print it
            words = [w if w in _STOPWORDS else w[:1].upper() + w[1:] for w in words]
        return " ".join(words)

    return _drawing(build)


def relations() -> st.SearchStrategy[Relation]:
    """Links between works (preprint of, version of, ...)."""
    return st.builds(
        Relation,
        kind=st.sampled_from(RelationKind),
        identifier=identifiers(),
        source=st.none() | _SOURCE_NAMES,
    )


@st.composite
def _pages(draw: st.DrawFn) -> str:
    first = draw(st.integers(1, 3000))
    style = draw(st.integers(0, 2))
    if style == 0:
        return f"{first}-{first + draw(st.integers(0, 40))}"
    if style == 1:
        return f"e{draw(st.integers(1000, 999999))}"
    return str(first)


def papers(
    *,
    with_identifiers: bool | None = None,
    min_title_words: int = 3,
    max_title_words: int = 14,
    max_authors: int = 8,
    work_types: tuple[WorkType, ...] | None = None,
) -> st.SearchStrategy[Paper]:
    """Papers with realistic titles, authors, venues, years and (optionally) identifiers.

    Args:
        with_identifiers: True draws at least one identifier, False none, None either.
        min_title_words: Fewest content words in the title.
        max_title_words: Most content words in the title.
        max_authors: Most authors (at least one is always drawn).
        work_types: Restrict the work type; None draws any (or none).
    """
    if max_authors < 1:
        msg = f"max_authors must be >= 1, got {max_authors}"
        raise ValueError(msg)

    # Sub-strategies are built once here, not per draw: building a composite strategy inspects
    # its source, which would dominate the cost of every example.
    if with_identifiers is None:
        id_lists = st.lists(identifiers(), max_size=3)
    elif with_identifiers:
        id_lists = st.lists(identifiers(), min_size=1, max_size=3)
    else:
        id_lists = st.just([])
    title_st = titles(min_words=min_title_words, max_words=max_title_words)
    author_lists = st.lists(authors(), min_size=1, max_size=max_authors)
    abstracts = st.none() | titles(min_words=8, max_words=30)
    relation_lists = st.lists(relations(), max_size=2)
    pages = st.none() | _pages()

    def build(draw: st.DrawFn) -> Paper:
        ids = draw(id_lists)
        year = draw(st.none() | st.integers(1950, 2026))
        date = None
        if year is not None and draw(st.booleans()):
            date = draw(st.dates(dt.date(year, 1, 1), dt.date(year, 12, 31)))
        venue = draw(st.none() | st.sampled_from(_VENUES).map(lambda v: v[0]))
        work_type = draw(
            st.none() | (st.sampled_from(work_types) if work_types else st.sampled_from(WorkType))
        )
        return Paper(
            identifiers=ids,
            title=draw(title_st),
            authors=draw(author_lists),
            year=year,
            date=date,
            venue=venue,
            volume=draw(st.none() | st.integers(1, 400).map(str)),
            issue=draw(st.none() | st.integers(1, 24).map(str)),
            pages=draw(pages),
            work_type=work_type,
            areas=draw(st.lists(st.sampled_from(_AREAS), max_size=3, unique=True)),
            abstract=draw(abstracts),
            related=draw(relation_lists),
            source=draw(st.none() | _SOURCE_NAMES),
        )

    return _drawing(build)


@st.composite
def _malformed_fragment(draw: st.DrawFn) -> MalformedFragment:
    text = draw(malformed_identifier_strings())
    start = draw(st.integers(0, 500))
    return MalformedFragment(
        text=text,
        scheme=draw(st.sampled_from(Scheme)),
        reason=draw(st.sampled_from(("DOI has no suffix", "month 13 does not exist", "truncated"))),
        start=start,
        end=start + len(text),
    )


def malformed_fragments() -> st.SearchStrategy[MalformedFragment]:
    """Malformed fragments as :func:`citeledger.identifiers.find_identifiers` reports them."""
    return _malformed_fragment()


def references(*, with_raw: bool | None = None) -> st.SearchStrategy[Reference]:
    """Structured reference-list entries (not tied to any paper; see :func:`noisy_references`).

    Args:
        with_raw: True always sets a raw string, False never, None either.
    """
    title_st = st.none() | titles(max_words=10)
    author_lists = st.lists(authors(with_orcid=False), max_size=5)
    id_lists = st.lists(identifiers(), max_size=2)
    malformed_lists = st.lists(malformed_fragments(), max_size=2)

    def build(draw: st.DrawFn) -> Reference:
        title = draw(title_st)
        raw = None
        if _flag(draw, with_raw):
            raw = draw(_TEXT) if title is None else f"{title}. {draw(_TEXT)}"
        first_page = draw(st.none() | st.integers(1, 3000).map(str))
        return Reference(
            position=draw(st.none() | st.integers(1, 400)),
            raw=raw,
            key=draw(st.none() | st.integers(1, 400).map(lambda n: f"ref{n}")),
            title=title,
            authors=draw(author_lists),
            year=draw(st.none() | st.integers(1900, 2026)),
            venue=draw(
                st.none() | st.sampled_from(_VENUES).map(lambda v: v[draw(st.integers(0, 1))])
            ),
            volume=draw(st.none() | st.integers(1, 400).map(str)),
            issue=draw(st.none() | st.integers(1, 24).map(str)),
            first_page=first_page,
            last_page=None
            if first_page is None
            else draw(st.none() | st.integers(1, 40).map(lambda n: str(int(first_page) + n))),
            identifiers=draw(id_lists),
            malformed=draw(malformed_lists),
            asserted_by=draw(st.none() | st.sampled_from(("publisher", "crossref"))),
            parse_confidence=draw(st.none() | st.floats(0, 1)),
            parse_doubt=draw(st.none() | _TEXT),
            unreadable=draw(st.none() | _TEXT),
            extra=draw(
                st.lists(st.tuples(st.sampled_from(("note", "url", "edition")), _TEXT), max_size=2)
            ),
        )

    return _drawing(build)
