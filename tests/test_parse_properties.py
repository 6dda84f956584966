"""Property tests of the reference-string parser (hypothesis)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import citeledger as cl
from citeledger.resolve._parse import UNCERTAIN_REASON_KEY, parse_reference
from citeledger.resolve.normalize import normalize_name, normalize_title

# Text that looks like references: letters of several scripts, digits, the punctuation that
# citation styles use, and PDF line breaks.
_REFERENCE_ALPHABET = st.sampled_from(
    list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    + list(" ,.;:()[]-–&/\"“”'?\n")
    + list("éüßøÄЖжя张三李文献")
)
reference_like = st.text(_REFERENCE_ALPHABET, max_size=300)


@given(st.one_of(st.text(max_size=400), reference_like), st.none() | st.integers(1, 10_000))
def test_never_raises_and_keeps_raw_and_position(text: str, position: int | None) -> None:
    ref = parse_reference(text, position=position)
    assert isinstance(ref, cl.Reference)
    assert ref.raw == text
    assert ref.position == position
    assert ref.parse_confidence is not None
    assert 0.0 <= ref.parse_confidence <= 1.0
    # The safety net in parse_reference must never be what produced the answer.
    reason = ref.get_extra(UNCERTAIN_REASON_KEY) or ""
    assert "internal parser error" not in reason
    if reason:
        assert ref.parse_confidence < 0.3
        assert ref.title is None


@given(st.one_of(st.text(max_size=300), reference_like))
def test_parse_is_deterministic(text: str) -> None:
    assert parse_reference(text) == parse_reference(text)


@given(reference_like)
def test_from_string_is_parse_reference(text: str) -> None:
    assert cl.Reference.from_string(text, position=3) == parse_reference(text, position=3)


# --------------------------------------------------------------------------- formatted round trip

_LOWER_WORD = st.text("abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=11)
_FAMILY = st.builds(
    lambda first, rest: first + rest,
    st.sampled_from("ABCDEFGHIJKLMNOPRSTUVWZ"),
    st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=10),
)
_INITIALS = st.text("ABCDEFGHJKLMNPRSTW", min_size=1, max_size=2)
_AUTHOR = st.tuples(_FAMILY, _INITIALS)
_TITLE = st.lists(_LOWER_WORD, min_size=3, max_size=14).map(
    lambda ws: " ".join([ws[0].capitalize(), *ws[1:]])
)
_VENUE = st.lists(_FAMILY, min_size=1, max_size=4).map(" ".join)


def _apa(
    authors: list[tuple[str, str]], year: int, title: str, venue: str, vol: int, page: int
) -> str:
    names = [f"{fam}, {'. '.join(ini)}." for fam, ini in authors]
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + ", & " + names[-1]
    return f"{joined} ({year}). {title}. {venue}, {vol}, {page}-{page + 9}."


def _vancouver(
    authors: list[tuple[str, str]], year: int, title: str, venue: str, vol: int, page: int
) -> str:
    names = ", ".join(f"{fam} {ini}" for fam, ini in authors)
    return f"{names}. {title}. {venue}. {year};{vol}:{page}-{page + 9}."


def _springer(
    authors: list[tuple[str, str]], year: int, title: str, venue: str, vol: int, page: int
) -> str:
    names = ", ".join(f"{fam} {ini}" for fam, ini in authors)
    return f"{names} ({year}) {title}. {venue} {vol}:{page}-{page + 9}"


@given(
    style=st.sampled_from([_apa, _vancouver, _springer]),
    authors=st.lists(_AUTHOR, min_size=1, max_size=6),
    year=st.integers(1900, 2030),
    title=_TITLE,
    venue=_VENUE,
    vol=st.integers(1, 400),
    page=st.integers(1, 9000),
)
def test_formatted_reference_round_trips(
    style: object,
    authors: list[tuple[str, str]],
    year: int,
    title: str,
    venue: str,
    vol: int,
    page: int,
) -> None:
    text = style(authors, year, title, venue, vol, page)  # type: ignore[operator]
    ref = parse_reference(text)
    assert normalize_title(ref.title) == normalize_title(title), text
    assert ref.year == year, text
    assert ref.authors, text
    assert normalize_name(ref.authors[0].family) == normalize_name(authors[0][0]), text
    assert ref.volume == str(vol), text
    assert ref.first_page == str(page), text
