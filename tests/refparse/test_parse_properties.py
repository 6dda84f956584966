"""Property tests of the reference-string parser (hypothesis)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

import citeledger as cl
from citeledger import identifiers as ids
from citeledger import refparse
from citeledger.identifiers import _find
from citeledger.model import Reference
from citeledger.refparse import _authors, _chars, _clean, _tail, _title
from citeledger.refparse._names import _ET_AL_RE, is_et_al_only
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
    ref = Reference.from_string(text, position=position)
    assert isinstance(ref, cl.Reference)
    assert ref.raw == text
    assert ref.position == position
    assert ref.parse_confidence is not None
    assert 0.0 <= ref.parse_confidence <= 1.0
    # The safety net in parse_reference must never be what produced the answer.
    reason = ref.parse_doubt or ""
    assert "internal parser error" not in reason
    if reason:
        assert ref.parse_confidence < 0.3
        assert ref.title is None


@given(st.one_of(st.text(max_size=300), reference_like))
def test_parse_is_deterministic(text: str) -> None:
    assert Reference.from_string(text) == Reference.from_string(text)


@given(reference_like)
def test_from_string_is_parse_reference(text: str) -> None:
    parsed = refparse.parse_reference(text, position=3)
    ref = cl.Reference.from_string(text, position=3)
    assert ref == cl.Reference.from_parsed(parsed)
    assert (ref.raw, ref.position, ref.title, ref.year, ref.venue) == (
        parsed.raw,
        parsed.position,
        parsed.title,
        parsed.year,
        parsed.venue,
    )
    assert (ref.parse_confidence, ref.parse_doubt, ref.identifiers) == (
        parsed.confidence,
        parsed.doubt,
        parsed.identifiers,
    )
    assert [(a.family, a.given, a.raw) for a in ref.authors] == [
        (n.family, n.given, n.raw) for n in parsed.authors
    ]


def test_parsed_reference_keeps_the_list_label() -> None:
    assert refparse.parse_reference(
        "[12] Smith J. A title of things. J Foo. 2001;3:1-9."
    ).label == ("[12]")
    assert refparse.parse_reference("Smith J. A title of things. J Foo. 2001;3:1-9.").label is None


def test_refparse_imports_no_higher_layer() -> None:
    # The parser sits below the model: it may use errors and identifiers, nothing above them.
    allowed = {"citeledger.errors", "citeledger.identifiers", "citeledger._text"}
    for path in Path(refparse.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("citeledger")
            ):
                assert node.module in allowed or node.module.startswith("citeledger.refparse"), (
                    path.name,
                    node.module,
                )


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
    ref = Reference.from_string(text)
    assert normalize_title(ref.title) == normalize_title(title), text
    assert ref.year == year, text
    assert ref.authors, text
    assert normalize_name(ref.authors[0].family) == normalize_name(authors[0][0]), text
    assert ref.volume == str(vol), text
    assert ref.first_page == str(page), text


# --------------------------------------------------------------------------- fast paths
# Each fast path of the parser against the plain code it replaces (naive reference).

_ID_FRAGMENTS = st.sampled_from(
    [
        "10.",
        "10.1000/abc",
        "doi:",
        "DOI ",
        "(doi: 10.1/x)",
        "arXiv:",
        "2104.07857",
        "hep-th/9901001",
        "PMID:",
        "PMC",
        "123456",
        "CorpusId:",
        "openalex.org/W123",
        "api.semanticscholar.org/",
        "ncbi.nlm.nih.gov/pmc/",
        "/",
        "2010.",
        ".",
        " ",
        "x",
        "(",
        "\n",
        "İ",
    ]
)
id_like = st.lists(_ID_FRAGMENTS, max_size=12).map("".join)


@given(st.one_of(id_like, reference_like, st.text(max_size=200)))
def test_identifier_prefilter_never_hides_an_identifier(text: str) -> None:
    if not _clean._may_hold_identifier(text):
        found = ids.find_identifiers(text)
        assert found.identifiers == ()
        assert found.malformed == ()


#: The scanner's anchors, one regular expression each (none holds a "|").
_ANCHORS = _find._ANCHOR_RE.pattern.split("|")


@given(st.data())
def test_identifier_prefilter_matches_the_scanner_anchors(data: st.DataObject) -> None:
    # The prefilter lists the scanner's anchors by hand: text holding any anchor (after a space,
    # as the scanner reads a bare "10.") must get past it, so a new anchor in _find._ANCHOR_RE
    # fails here until _may_hold_identifier learns it too.
    for anchor in _ANCHORS:
        text = data.draw(st.from_regex(anchor, fullmatch=True), label=anchor)
        assert _clean._may_hold_identifier(f"x {text} x"), (anchor, text)


@given(st.one_of(id_like, reference_like, st.text(max_size=200)))
def test_doi_cut_equals_plain_substitution(text: str) -> None:
    assert _clean._sub_doi(text) == _clean._DOI_RE.sub(" ", text)


@given(st.one_of(reference_like, st.text(max_size=200)))
def test_symbol_test_equals_regex_count(text: str) -> None:
    s = " ".join(text.split())
    naive = len(_clean._SYMBOL_RE.findall(s)) > 0.5 * (len(s) - s.count(" "))
    assert _clean._mostly_symbols(s) == naive


@given(st.one_of(reference_like, st.text(max_size=100)))
def test_has_alpha_equals_isalpha_scan(text: str) -> None:
    assert _tail._has_alpha(text) == any(c.isalpha() for c in text)


_ABBREV_SEARCH_RE = re.compile(
    rf"(?:^|[\s(.])({_chars._U}{_chars._L}{{0,2}}|{_chars._A}{_chars._L}+|{_chars._L}{{1,3}})$"
)


@given(reference_like)
def test_abbreviation_end_equals_regex_search(text: str) -> None:
    head = " ".join(text.split())
    m = _ABBREV_SEARCH_RE.search(head[-24:])
    word = m.group(1) if m else ""
    naive = bool(word) and (
        (len(word) <= 3 and (word[0].isupper() or len(word) <= 2)) or word in _title._ABBREVS
    )
    assert _title._is_abbrev_end(head) == naive


@given(st.one_of(reference_like, st.text(max_size=300)))
def test_authors_built_without_converters_equal_converted_ones(text: str) -> None:
    for a in Reference.from_string(text).authors:
        assert a == cl.Author(family=a.family, given=a.given, raw=a.raw)


def test_uncertain_reason_reaches_the_resolver_as_parse_uncertain() -> None:
    # The contract the resolver relies on: the reason sits in Reference.parse_doubt
    # and the confidence is below the resolver's default minimum.
    paper = cl.Paper(identifiers=["doi:10.1000/x"], title="Deep learning for references")
    resolver = cl.Resolver([paper])
    for text in ("Ibid.", "Personal communication", "[12]", "Smith"):
        ref = Reference.from_string(text)
        assert ref.parse_doubt
        assert ref.parse_confidence is not None
        assert ref.parse_confidence < cl.ResolverConfig().min_parse_confidence
        assert resolver.resolve(ref).state is cl.ResolutionState.PARSE_UNCERTAIN


_NAME_TOKENS = st.sampled_from(
    [
        *("Smith", "Li", "Lehman", "J", "PB", "ABC", "ABCD", "J.", "Jr", "Sr", "II", "2nd", "de"),
        *("O'Brien", "Da", "Re", "-", ",", ", ", " ", ".", ":", "(2004)", "É", "Ölz", "et al."),
    ]
)
name_like = st.lists(_NAME_TOKENS, max_size=8).map("".join)


@given(st.one_of(name_like, st.lists(_NAME_TOKENS, max_size=8).map(" ".join), reference_like))
# Found by Hypothesis: several spaces before the next capital let the full grammar read on.
@example("Smith PB   Smith J")
def test_simple_vancouver_name_agrees_with_the_full_grammar(text: str) -> None:
    simple = _authors._V_SIMPLE_RE.match(text)
    if simple is not None:
        full = _authors._V_ITEM_RE.match(text)
        assert full is not None
        assert full.group("fam", "ini", 0) == simple.group("fam", "ini", 0)


_END_TOKENS = st.sampled_from(
    [
        *(". ", ", ", " ", ".", ",", "Lehman", "In press", "N.d.", "İn", "(2004)", "2004", ": "),
        *('"', "“", "x", "Ab", "et al.", "。", "Z", "I", "N", "a"),
    ]
)


@given(
    st.lists(_END_TOKENS, min_size=1, max_size=8).map("".join),
    st.integers(1, 40),
    st.sampled_from([g for g, _ in _authors._GRAMMARS]),
    st.booleans(),
)
def test_end_strength_fast_paths_agree(text: str, pos: int, grammar: str, etal: bool) -> None:
    pos = min(pos, len(text))
    fast = _authors._end_strength(text, pos, grammar, etal=etal)
    assert fast == _authors._end_rules(text, pos, grammar, etal=etal)


_ET_AL_TEXT = st.text(st.sampled_from(list("etalndohrsETALNDOHRSſK .,;\t")), max_size=20) | (
    st.text(max_size=12).map(lambda s: s + " et al.")
)


@given(_ET_AL_TEXT | st.text(max_size=20))
def test_is_et_al_only_equals_the_pattern(text: str) -> None:
    # The quick test on the case-folded text never skips a string the pattern would read.
    assert is_et_al_only(text) == (not _ET_AL_RE.sub("", text).strip())


def test_is_et_al_only_reads_the_long_s() -> None:
    # "ſ" (long s) matches "s" case-insensitively and folds to "s": "and otherſ" names nobody.
    assert is_et_al_only("and otherſ")
    assert is_et_al_only(" ET AL ")
    assert not is_et_al_only("Alvarez L")
