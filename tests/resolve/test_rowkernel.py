"""The compiled steps of ``Catalog.from_records`` (``_rowkernel.c``) against their Python fallback.

Catalogs built with the compiled title index and folding and with the fallback forced must be
identical in every structure (rows, normalised titles, title table, posting lists in order, the
identifier, version and locator indexes, the papers), and both must decide as a resolver of the
papers themselves.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citeledger as cl
from citeledger.resolve import _rows
from citeledger.resolve._rows import _ASCII_DROP, PyTitleIndex, _code_text, _fold, _title_words
from citeledger.resolve.catalog import _title_of
from citeledger.resolve.normalize import STOPWORDS
from tests.resolve.test_catalog import _records
from tests.resolve.test_resolver_engine import _item, _paper, _record

kernel: Any
try:
    from citeledger.resolve import _rowkernel as kernel
except ImportError:  # not built: only the fallback's own checks run
    kernel = None
needs_compiled = pytest.mark.skipif(
    kernel is None, reason="the C row kernel is not built (no compiler at install time)"
)


@contextmanager
def _fallback() -> Iterator[None]:
    """Force the pure-Python steps (as when the extension is absent)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_rows, "TitleIndex", PyTitleIndex)
        mp.setattr(_rows, "fold", _fold)
        yield


@contextmanager
def _compiled() -> Iterator[None]:
    """Force the compiled steps (whatever ``CITELEDGER_PURE_PYTHON`` says)."""
    assert kernel is not None
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_rows, "TitleIndex", kernel.TitleIndex)
        mp.setattr(_rows, "fold", kernel.fold)
        yield


def _postings(catalog: cl.Catalog) -> dict[str, tuple[str, list[int]]]:
    return {k: (v.typecode, list(v)) for k, v in catalog._postings.items()}


def _identical(got: cl.Catalog, want: cl.Catalog) -> None:
    """Every structure of the two catalogs is the same (before any paper is built)."""
    assert len(got) == len(want)
    assert type(got._postings) is dict
    assert type(want._postings) is dict
    assert _postings(got) == _postings(want)
    for name in ("_ids", "_related", "_versions", "_locators", "_normalized", "_papers"):
        assert getattr(got, name) == getattr(want, name), name
    assert [got._titles[i] for i in range(len(got))] == [want._titles[i] for i in range(len(want))]
    assert len(got._titles) == len(want._titles) == len(got)
    rows, other = got._rows, want._rows
    assert (rows is None) == (other is None)
    if rows is not None and other is not None:
        for name in _rows._Rows.__slots__:
            assert getattr(rows, name) == getattr(other, name), name
        # Each row value of the same type too (an unchanged str is kept as given).
        for name in ("title", "venue", "volume", "issue", "pages"):
            assert list(map(type, getattr(rows, name))) == list(map(type, getattr(other, name)))
    assert [got[i] for i in range(len(got))] == [want[i] for i in range(len(want))]


def _both(records: list[Any]) -> tuple[cl.Catalog, cl.Catalog]:
    with _compiled():
        compiled = cl.Catalog.from_records(records)
    with _fallback():
        fallback = cl.Catalog.from_records(records)
    return compiled, fallback


# Titles rich in what the ASCII path must get exactly right or leave to Python.
_TITLES = st.one_of(
    st.none(),
    st.sampled_from(
        [
            "",
            " ",
            "\x1c\x1f",
            "Attention is all you need",
            "  Deep   residual\tlearning ",
            "a\x0bb\x0cc\rd\ne\x1cf\x1dg\x1eh\x1fi",
            "THE the The of OF in a A I x 1 22 333",
            "CO<sub>2</sub> capture",
            "Tom &amp; Jerry",
            "AT&T labs",
            "1 < 2",
            "Über-Graphs: the ﬁrst Łukasiewicz study",
            "naïve Bayes learning learning",
            "--- !!! ???",
            "x",
            "ab ab AB aB",
            "zeta alpha alphabet alph beta2 beta10 Beta",
            "broken \ud800 surrogate",
            "２２ full width",
            "über uber ÜBER",
            "a" * 300,
            " ".join(["word"] * 40 + ["other"] * 10),
        ]
    ),
    st.text(max_size=40),
    st.text(alphabet=st.characters(max_codepoint=127), max_size=40),
    st.lists(
        st.sampled_from([*sorted(STOPWORDS)[:30], "deep", "Net", "x", "é", "&", "<b>", "\t"]),
        max_size=12,
    ).map(" ".join),
)
_FIELDS = st.one_of(
    st.none(),
    st.sampled_from(["12", " 12 ", "4350-4", "pp. 7A", "", "  ", "\x1c", "２２", "e 1\t2"]),
    st.integers(0, 20),
    st.text(alphabet=st.characters(max_codepoint=127), max_size=8),
)


@st.composite
def _title_records(draw: st.DrawFn) -> dict[str, object]:
    record: dict[str, object] = {"title": draw(_TITLES)}
    for name in ("volume", "pages"):
        if draw(st.booleans()):
            record[name] = draw(_FIELDS)
    if draw(st.booleans()):
        record["identifiers"] = [f"10.5555/{draw(st.integers(0, 5))}"]
    return record


def _items() -> st.SearchStrategy[Any]:
    # Mostly records of the columns; some of other fields (built as Papers) and some Papers, so
    # the compiled posting lists are merged with lists the catalog builds itself.
    paper = st.builds(cl.Paper, title=_TITLES.filter(lambda t: t is None or "\ud800" not in t))
    return st.one_of(_title_records(), _title_records(), _records(), paper)


def _refused(records: list[Any]) -> bool:
    try:
        with _fallback():
            cl.Catalog.from_records(records)
    except cl.ModelError:
        return True
    return False


@needs_compiled
@settings(max_examples=400, deadline=None)
@given(records=st.lists(_items(), max_size=12))
def test_compiled_and_fallback_build_identical_catalogs(records: list[Any]) -> None:
    if _refused(records):
        with _compiled(), pytest.raises(cl.ModelError):
            cl.Catalog.from_records(records)
        return
    compiled, fallback = _both(records)
    _identical(compiled, fallback)


@needs_compiled
def test_identical_on_many_records_with_shared_tokens() -> None:
    # Thousands of distinct tokens (the hash table grows), long posting lists (they grow) and
    # Papers among the records (their lists merged with the compiled ones).
    rng = random.Random(16)
    vocab = [f"w{i}" for i in range(3000)] + sorted(STOPWORDS)[:50] + ["Ünïcode", "x", "7"]
    records: list[Any] = []
    for i in range(6000):
        title = " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 9)))
        if i % 3:
            title += " Learning"
        if i % 97 == 0:
            records.append(cl.Paper(title=title + " é", identifiers=[f"10.5555/p{i}"]))
        elif i % 89 == 0:
            records.append({"title": title, "work_type": "article"})
        else:
            records.append({"title": title, "volume": str(i % 50), "pages": f"{i} -{i + 3}"})
    compiled, fallback = _both(records)
    _identical(compiled, fallback)
    assert max(len(v) for v in compiled._postings.values()) > 3000


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(
    value=st.one_of(
        _FIELDS, _TITLES, st.text(alphabet=" \t\n\x0b\x0c\r\x1c\x1d\x1e\x1fab", max_size=12)
    )
)
def test_fold_equals_python(value: object) -> None:
    for other in (_code_text, _title_of):
        try:
            want = _fold(value, other)
        except (cl.ModelError, TypeError, ValueError) as exc:
            with pytest.raises(type(exc)):
                kernel.fold(value, other)
            continue
        got = kernel.fold(value, other)
        assert got == want
        assert type(got) is type(want)
        if want is value:
            assert got is value  # an unchanged str is kept, not copied


def _drive(cls: Any, titles: list[Any], taken: set[int]) -> tuple[Any, ...]:
    normalized: list[str] = []
    table: list[str] = []
    postings: dict[str, array[int]] = {}
    index = cls(normalized, table.append, postings, _ASCII_DROP)
    handled = []
    for pid, title in enumerate(titles):
        if pid in taken:
            # A paper the caller indexes itself (as _add_whole does), straight into the dict:
            # the compiled index merges its own lists with these in id order.
            normalized.append("")
            table.append("")
            for tok in ("learning", "zzz", "é"):
                postings.setdefault(tok, array("I")).append(pid)
            continue
        done = index.add(title, pid)
        handled.append(done)
        if not done:
            words, tokens = _title_words(title)
            normalized.append(" ".join(words))
            table.append(" ".join(sorted(words)))
            index.add_tokens(tokens, pid)
    index.finish()
    return handled, normalized, table, {k: (v.typecode, list(v)) for k, v in postings.items()}


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(titles=st.lists(_TITLES, max_size=15), taken=st.sets(st.integers(0, 14), max_size=4))
def test_title_index_equals_python(titles: list[Any], taken: set[int]) -> None:
    assert _drive(kernel.TitleIndex, titles, taken) == _drive(PyTitleIndex, titles, taken)


@needs_compiled
def test_title_index_refuses_what_array_refuses() -> None:
    index = kernel.TitleIndex([], [].append, {}, _ASCII_DROP)
    with pytest.raises(OverflowError):
        index.add("some title", 2**32)
    with pytest.raises(OverflowError):
        index.add("some title", -1)
    with pytest.raises(TypeError):
        index.add_tokens([5], 0)
    with pytest.raises(TypeError):
        kernel.TitleIndex([], None, {}, _ASCII_DROP)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_fallback_decides_as_resolver_of_papers(data: st.DataObject) -> None:
    # test_from_records_decides_as_resolver_of_papers, with the extension absent.
    papers = data.draw(st.lists(_paper(), max_size=12))
    records = [_record(p, data.draw(st.booleans())) for p in papers]
    built = [cl.Paper(**r) for r in records]  # type: ignore[arg-type]
    refs = data.draw(st.lists(_item(built), max_size=25))
    expected = cl.Resolver(built).resolve_many(refs)
    with _fallback():
        fallback = cl.Catalog.from_records(records)
    if kernel is not None:
        with _compiled():
            compiled = cl.Catalog.from_records(records)
        _identical(compiled, fallback)  # (before the resolver builds some of their papers)
        assert cl.Resolver(compiled).resolve_many(refs) == expected
    assert cl.Resolver(fallback).resolve_many(refs) == expected


@pytest.mark.parametrize(
    ("setup", "env"),
    [
        ("", {"CITELEDGER_PURE_PYTHON": "1"}),
        ("import sys; sys.modules['citeledger.resolve._rowkernel'] = None; ", {}),
    ],
)
def test_fallback_when_the_extension_is_absent_or_disabled(setup: str, env: dict[str, str]) -> None:
    code = (
        setup + "import citeledger as cl; from citeledger.resolve import _rows as r; "
        "c = cl.Catalog.from_records([{'title': 'Deep nets', 'volume': ' 7 '}, {'title': None}]); "
        "print(r.COMPILED, r.TitleIndex.__name__, r.fold.__name__, sorted(c._postings), "
        "c._rows.volume[0])"
    )
    environ = {k: v for k, v in os.environ.items() if k != "CITELEDGER_PURE_PYTHON"}
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split() == ["False", "PyTitleIndex", "_fold", "['deep',", "'nets']", "7"]


def test_compiled_flag() -> None:
    expected = kernel is not None and os.environ.get("CITELEDGER_PURE_PYTHON") != "1"
    assert expected == _rows.COMPILED
    assert (_rows.TitleIndex is PyTitleIndex) == (not expected)
