"""String normalisation for titles and names."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from citeledger.resolve.normalize import (
    is_generic_title,
    normalize_name,
    normalize_text,
    normalize_title,
    strip_accents,
    title_tokens,
)


def test_strip_accents_and_special_letters() -> None:
    assert strip_accents("Gödel, Escher, Bach — Łódź, Ørsted, Straße") == (
        "Godel, Escher, Bach - Lodz, Orsted, Strasse"
    )
    assert strip_accents("日本語") == "日本語"  # non-Latin scripts are kept


def test_normalize_title_markup_entities_punctuation() -> None:
    assert normalize_title("<i>In vivo</i> imaging of CO<sub>2</sub> &amp; O2.") == (
        "in vivo imaging of co2 o2"
    )
    # Formatting inside a word leaves no trace: the title a PDF reference prints matches.
    assert normalize_title("H<sub>2</sub>O<sub>2</sub> and <jats:italic>E. coli</jats:italic>") == (
        normalize_title("H2O2 and E. coli")
    )
    # Other tags separate words.
    assert normalize_title("Part one<br/>Part two") == "part one part two"
    assert normalize_title("  ") == ""
    assert normalize_title(None) == ""


def test_normalize_name() -> None:
    assert normalize_name("O'Neil") == normalize_name("ONEIL") == "oneil"
    assert normalize_name("Müller") == normalize_name("Muller")
    assert normalize_name(None) == ""


def test_generic_titles() -> None:
    assert is_generic_title(normalize_title("Editorial"))
    assert is_generic_title(normalize_title("Reply"))
    assert is_generic_title(normalize_title("Treasurer's message"))
    assert not is_generic_title(normalize_title("Local cloning of entangled qubits"))
    assert title_tokens("the art of computer programming") == ["art", "computer", "programming"]


@given(st.text(max_size=60))
def test_normalize_text_is_idempotent_and_form_invariant(text: str) -> None:
    once = normalize_text(text)
    assert normalize_text(once) == once
    for form in ("NFC", "NFD"):
        assert normalize_text(unicodedata.normalize(form, text)) == normalize_text(
            unicodedata.normalize("NFC", text)
        )
    assert normalize_text(text.upper()) == normalize_text(text.upper().lower())


def _pattern_normalized(text: str) -> str:
    # normalize_text's general path, which its ASCII fast path must equal.
    from citeledger._text import _NON_WORD_RE  # noqa: PLC0415 - the general path's pattern

    return " ".join(_NON_WORD_RE.sub(" ", strip_accents(text).casefold()).split())


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_normalize_text_ascii_fast_path_is_the_pattern(text: str) -> None:
    # ASCII text without markup or entities takes a byte table, not the pattern: the same words.
    if "<" not in text and "&" not in text:
        assert normalize_text.__wrapped__(text) == _pattern_normalized(text)


def test_normalize_text_ascii_fast_path_examples() -> None:
    for text in ("Deep_Residual  Learning\t(ResNet) 2016!", "a-b c.d", "", "   ", "__x__", "ÉA b"):
        assert normalize_text.__wrapped__(text) == _pattern_normalized(text)
