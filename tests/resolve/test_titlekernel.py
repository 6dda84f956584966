"""The title table: the compiled kernel against the pure-Python table against a naive reference."""

from __future__ import annotations

import json
import math
import os
import pickle
import random
import subprocess
import sys
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, TypeAlias

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz, process

from citeledger import Paper
from citeledger.resolve import _titles
from citeledger.resolve import catalog as cat_module
from citeledger.resolve._titles import TWO_OF_THREE, UNION, PyTitleTable, blocking_choice
from citeledger.resolve.normalize import normalize_title
from tests.conftest import MATCHING, requires_shared

CTable = _titles._compiled
needs_compiled = pytest.mark.skipif(
    CTable is None, reason="the C title kernel is not built (no compiler at install time)"
)
IMPLEMENTATIONS: list[Any] = [PyTitleTable] + ([CTable] if CTable is not None else [])
if CTable is not None:
    from citeledger.resolve import _titlekernel

    #: The SIMD levels this machine runs (``scalar`` always), each forced in turn below.
    SIMD_LEVELS: tuple[str, ...] = _titlekernel.simd_levels()
else:
    SIMD_LEVELS = ()

Top = list[tuple[float, int]]
#: A random title-table problem: titles, query, candidate lists, mode, limit, cutoff, window.
# (a string: array is not subscriptable at run time before Python 3.12)
Problem: TypeAlias = "tuple[list[str], str, list[array[int]], int, int, float, float]"


def _table(cls: Any, titles: Sequence[str]) -> Any:
    table = cls()
    for title in titles:
        table.append(title)
    return table


def _reference_top(
    titles: Sequence[str],
    query: str,
    lists: Sequence[Sequence[int]],
    mode: int,
    limit: int,
    cutoff: float,
    window: float,
) -> Top:
    """Today's catalog semantics, written out naively: extract, then the limit and window rule.

    An id counts once per list it is in (a repeat within one list does not make it two of three).
    """
    counts = Counter(i for ids in lists for i in set(ids))
    need = 1 if mode == 0 else 2
    candidates = {i: titles[i] for i, n in counts.items() if n >= need}
    hits = process.extract(
        query, candidates, scorer=fuzz.ratio, processor=None, score_cutoff=cutoff, limit=None
    )
    ranked = sorted(((score, key) for _, score, key in hits), key=lambda h: (-h[0], h[1]))
    if limit > 0 and len(ranked) > limit:
        kth = ranked[limit - 1][0]
        ranked = [h for h in ranked if h[0] >= kth]
    if ranked:
        best = ranked[0][0]
        ranked = [h for h in ranked if h[0] >= best - window]
    return ranked


# Titles from small alphabets score in every range (and tie often); the wide ones cover Latin-1,
# the BMP beyond it, astral characters and lone surrogates, which Python strings may hold.
_ALPHABETS = ["ab ", "abcde fgh", "aé€𝄞 b\ud800", "the of deep learning model"]


@st.composite
def _problems(draw: st.DrawFn) -> Problem:
    alphabet = draw(st.sampled_from(_ALPHABETS))
    text = st.text(alphabet=alphabet, max_size=draw(st.sampled_from([8, 70, 200])))
    titles = draw(st.lists(text | st.text(max_size=30), min_size=1, max_size=40))
    query = draw(text | st.sampled_from(titles))
    mode = draw(st.sampled_from([0, 1]))
    ids = st.lists(st.integers(0, len(titles) - 1), unique=True)
    lists = draw(st.lists(ids, min_size=3, max_size=3) if mode else st.lists(ids, max_size=4))
    limit = draw(st.integers(-1, 12))
    cutoff = draw(st.sampled_from([0.0, 50.0, 50, 66.66666666666667]) | st.floats(0, 100))
    window = draw(st.sampled_from([0.0, 30.0, math.inf]) | st.floats(0, 100))
    return titles, query, [array("I", x) for x in lists], mode, limit, cutoff, window


@given(_problems())
@settings(max_examples=300)
def test_python_table_is_todays_extract_rule(problem: Problem) -> None:
    titles, query, lists, mode, limit, cutoff, window = problem
    table = _table(PyTitleTable, titles)
    assert table.top(query, lists, mode, limit, cutoff, window) == _reference_top(
        titles, query, lists, mode, limit, cutoff, window
    )


@needs_compiled
@given(_problems())
@settings(max_examples=500)
def test_compiled_table_equals_python_table(problem: Problem) -> None:
    titles, query, lists, mode, limit, cutoff, window = problem
    compiled, python = _table(CTable, titles), _table(PyTitleTable, titles)
    got = compiled.top(query, lists, mode, limit, cutoff, window)
    want = python.top(query, lists, mode, limit, cutoff, window)
    assert got == want
    # bit-identical scores, not merely equal after rounding
    assert [s.hex() for s, _ in got] == [s.hex() for s, _ in want]
    assert [compiled[i] for i in range(len(titles))] == titles


@pytest.mark.parametrize("cls", IMPLEMENTATIONS)
def test_scores_are_fuzz_ratio_at_word_boundaries(cls: Any) -> None:
    # lengths around the 64-bit words of the bit-parallel LCS, empty and equal strings
    pieces = ["", "a", "ab c", "x" * 63, "x" * 64, "x" * 65, "xy" * 64, "xy" * 64 + "z", "é" * 130]
    pieces += ["€" + "x" * 70, "𝄞" * 129, "ab" * 100, "ba" * 100 + "é"]
    table = _table(cls, pieces)
    everything = [array("I", range(len(pieces)))]
    for query in [*pieces, "xyz" * 50, "𝄞x" * 40]:
        got = {i: s for s, i in table.top(query, everything, 0, 0, 0.0, math.inf)}
        assert got == {i: fuzz.ratio(query, t) for i, t in enumerate(pieces)}


@pytest.mark.parametrize("cls", IMPLEMENTATIONS)
def test_ties_at_the_limit_are_kept_and_ordered_by_id(cls: Any) -> None:
    table = _table(cls, ["abcd", "abce", "abcf", "abcd", "zzzz"])
    ids = [array("I", [4, 3, 2, 1, 0])]
    assert table.top("abcd", ids, 0, 2, 50.0, 100.0) == [
        (100.0, 0),
        (100.0, 3),
    ]
    assert table.top("abcd", ids, 0, 3, 50.0, 100.0) == [
        (100.0, 0),
        (100.0, 3),
        (75.0, 1),
        (75.0, 2),
    ]
    assert table.top("abcd", ids, 0, 3, 50.0, 10.0) == [(100.0, 0), (100.0, 3)]


@pytest.mark.parametrize("cls", IMPLEMENTATIONS)
def test_two_of_three_lists(cls: Any) -> None:
    table = _table(cls, ["same"] * 6)
    lists = [array("I", [0, 1, 2]), array("I", [1, 3]), array("I", [2, 3, 4])]
    assert [i for _, i in table.top("same", lists, 1, 10, 50.0, 30.0)] == [1, 2, 3]
    assert [i for _, i in table.top("same", lists, 0, 10, 50.0, 30.0)] == [0, 1, 2, 3, 4]
    assert table.top("same", [], 0, 10, 50.0, 30.0) == []


@pytest.mark.parametrize("cls", IMPLEMENTATIONS)
def test_an_id_repeated_in_one_list_counts_once(cls: Any) -> None:
    table = _table(cls, ["same"] * 6)
    # 0 twice in the first list only, 5 twice in the last: neither is in two of the three
    for lists in (
        [array("I", [0, 0, 1]), array("I", [1, 2]), array("I", [3, 5, 5])],
        [array("I", [1, 0, 0]), array("I", [2, 1]), array("I", [5, 3, 5])],
    ):
        assert [i for _, i in table.top("same", lists, 1, 10, 50.0, 30.0)] == [1]
        assert [i for _, i in table.top("same", lists, 0, 10, 50.0, 30.0)] == [0, 1, 2, 3, 5]


@pytest.mark.parametrize("cls", IMPLEMENTATIONS)
def test_bad_arguments(cls: Any) -> None:
    table = _table(cls, ["a", "b"])
    with pytest.raises(ValueError, match="mode"):
        table.top("a", [array("I", [0])], 2, 10, 50.0, 30.0)
    with pytest.raises(ValueError, match="three"):
        table.top("a", [array("I", [0]), array("I", [1])], 1, 10, 50.0, 30.0)
    # an id out of range, in sorted lists or not, one list or more, either mode
    for lists, mode in [
        ([array("I", [0, 2])], 0),
        ([array("I", [2, 0])], 0),
        ([array("I", [0]), array("I", [1, 2])], 0),
        ([array("I", [0]), array("I", [3, 1])], 0),
        ([array("I", [0, 5]), array("I", [1, 5]), array("I", [0])], 1),
    ]:
        with pytest.raises(IndexError):
            table.top("a", lists, mode, 10, 50.0, 30.0)
    # nothing left marked by the calls that raised (unsorted lists take the bitmap)
    assert table.top("a", [array("I", [1, 0])], 0, 10, 50.0, 30.0) == [(100.0, 0)]
    three = [array("I", [1, 0]), array("I", [0]), array("I", [1])]
    assert table.top("a", three, 1, 10, 0.0, 100.0) == [(100.0, 0), (0.0, 1)]
    with pytest.raises(TypeError):
        table.append(b"bytes")
    assert len(table) == 2
    assert table[-1] == "b"
    with pytest.raises(IndexError):
        table[2]


@pytest.mark.parametrize("cls", IMPLEMENTATIONS)
def test_pickle_round_trip_keeps_the_implementation(cls: Any) -> None:
    titles = ["", "attention all is need you", "é€𝄞\ud800 mixed", "x" * 300]
    table = _table(cls, titles)
    again = pickle.loads(pickle.dumps(table))
    assert type(again) is cls
    assert [again[i] for i in range(len(again))] == titles
    everything = [array("I", range(len(titles)))]
    assert again.top(titles[1], everything, 0, 10, 0.0, 100.0) == table.top(
        titles[1], everything, 0, 10, 0.0, 100.0
    )
    again.append("more")
    assert again[len(titles)] == "more"


@needs_compiled
def test_compiled_pickle_loads_without_the_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    titles = ["", "plain ascii", "latin é", "bmp €", "astral 𝄞", "\ud800\udc00 two surrogates"]
    state = _table(CTable, titles)._state()
    monkeypatch.setattr(_titles, "_compiled", None)
    table = _titles._rebuild_compiled(state)
    assert type(table) is PyTitleTable
    assert [table[i] for i in range(len(table))] == titles


def test_pure_python_switch() -> None:
    code = "from citeledger.resolve import _titles as t; print(t.COMPILED, t.TitleTable.__name__)"
    env = {**os.environ, "CITELEDGER_PURE_PYTHON": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "PyTitleTable"]
    expected = CTable is not None and os.environ.get("CITELEDGER_PURE_PYTHON") != "1"
    assert expected == _titles.COMPILED


def _sorted_words(title: str | None) -> str:
    return " ".join(sorted(normalize_title(title).split()))


@requires_shared
@pytest.mark.slow
@pytest.mark.parametrize("name", ["magellan_dblp_acm.jsonl", "magellan_dblp_scholar.jsonl"])
def test_real_titles_bit_identical(name: str, shared_data: object) -> None:
    with (MATCHING / "normalized" / name).open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    titles = sorted({_sorted_words(r["right"]["title"]) for r in rows})[:2000]
    queries = sorted({_sorted_words(r["left"]["title"]) for r in rows})[:60]
    tables = [_table(cls, titles) for cls in IMPLEMENTATIONS]
    everything = [array("I", range(len(titles)))]
    for query in queries:
        scores = [fuzz.ratio(query, t) for t in titles]
        for table in tables:
            got = table.top(query, everything, 0, 0, 0.0, math.inf)
            assert sorted((i, s.hex()) for s, i in got) == [
                (i, s.hex()) for i, s in enumerate(scores)
            ]
            assert table.top(query, everything, 0, 10, 50.0, 30.0) == _reference_top(
                titles, query, everything, 0, 10, 50.0, 30.0
            )


# ------------------------------------------------------------------------ the SIMD paths
# The compiled table scores Latin-1 candidates several at a time with AVX2 or AVX-512 where
# the CPU has them (and abandons candidates that cannot reach the running threshold); every
# level must give the scalar path's results, which are RapidFuzz's.


@pytest.fixture(params=[(level, abort) for level in SIMD_LEVELS for abort in (True, False)])
def simd_level(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each SIMD level this CPU supports, with the early abort on and off; restored after."""
    level, abort = request.param
    before = _titlekernel.get_simd()
    _titlekernel.set_simd(level)
    _titlekernel._set_early_abort(abort)
    try:
        yield level
    finally:
        _titlekernel.set_simd(before)
        _titlekernel._set_early_abort(True)


# Alphabets of one SIMD batch's worth of near-identical Latin-1 titles, and mixed ones: titles
# beyond Latin-1 and beyond the batches' 512 characters take the scalar path inside a batch run.
_SIMD_ALPHABETS = ["ab ", "abcdef gh", "deep learning model of the", "aéÿ\x00 b", "aé€𝄞 b"]


@st.composite
def _simd_problems(draw: st.DrawFn) -> Problem:
    alphabet = draw(st.sampled_from(_SIMD_ALPHABETS))
    # query lengths of one to five 64-bit words, titles up to past the batch limit
    size = draw(st.sampled_from([10, 63, 64, 65, 100, 128, 129, 200, 256, 300, 600]))
    text = st.text(alphabet=alphabet, min_size=size // 2, max_size=size)
    base = draw(text)
    # near-duplicates of the query score high, so the running threshold rises and aborts
    edits = st.builds(
        lambda cut, add: base[: len(base) - cut] + add,
        st.integers(0, 30),
        st.text(alphabet, max_size=30),
    )
    titles = draw(st.lists(edits | text | st.text(max_size=40), min_size=1, max_size=60))
    query = draw(st.just(base) | text | st.sampled_from(titles))
    ids = list(range(len(titles)))
    lists = [array("I", ids)]
    mode = 0
    if draw(st.booleans()):
        lists = [array("I", ids[::2]), array("I", ids[1::2]), array("I", ids[::3])]
        mode = draw(st.sampled_from([0, 1]))
    limit = draw(st.integers(-1, 12))
    cutoff = draw(st.sampled_from([0.0, 50.0, 70.0, 66.66666666666667]) | st.floats(0, 100))
    window = draw(st.sampled_from([0.0, 5.0, 30.0, math.inf]) | st.floats(0, 100))
    return titles, query, lists, mode, limit, cutoff, window


@needs_compiled
@given(_simd_problems())
@settings(max_examples=150)
def test_every_simd_level_equals_python_table(problem: Problem) -> None:
    _equal_at_every_level(problem, aborts=(True, False))


def _equal_at_every_level(
    problem: Problem, *, aborts: Sequence[bool] = (True,), repeats: int = 1
) -> list[tuple[float, int]]:
    """The pure-Python table's ``top``, checked equal (scores bit for bit) to the compiled
    table's at every SIMD level, with early abandoning on and off (``aborts``), ``repeats``
    calls each."""
    titles, query, lists, mode, limit, cutoff, window = problem
    compiled, python = _table(CTable, titles), _table(PyTitleTable, titles)
    want: list[tuple[float, int]] = python.top(query, lists, mode, limit, cutoff, window)
    before = _titlekernel.get_simd()
    try:
        for level in SIMD_LEVELS:
            _titlekernel.set_simd(level)
            for abort in aborts:
                _titlekernel._set_early_abort(abort)
                for _ in range(repeats):
                    got = compiled.top(query, lists, mode, limit, cutoff, window)
                    assert [(s.hex(), i) for s, i in got] == [(s.hex(), i) for s, i in want], (
                        level,
                        abort,
                    )
    finally:
        _titlekernel.set_simd(before)
        _titlekernel._set_early_abort(True)
    return want


@needs_compiled
@given(_problems())
@settings(max_examples=100)
def test_simd_levels_on_the_random_problems(problem: Problem) -> None:
    titles, query, lists, mode, limit, cutoff, window = problem
    compiled = _table(CTable, titles)
    before = _titlekernel.get_simd()
    try:
        _titlekernel.set_simd("scalar")
        want = compiled.top(query, lists, mode, limit, cutoff, window)
        for level in SIMD_LEVELS:
            _titlekernel.set_simd(level)
            assert compiled.top(query, lists, mode, limit, cutoff, window) == want
    finally:
        _titlekernel.set_simd(before)


@needs_compiled
def test_simd_scores_are_fuzz_ratio(simd_level: str) -> None:
    # every score (cutoff 0, no limit, no window) against RapidFuzz, at word boundaries of the
    # query, batch-sized groups of similar lengths, and titles beyond Latin-1 or 512 characters
    rng = random.Random(simd_level)
    alphabet = "abcdefgh éÿ"
    titles = [
        "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 300))) for _ in range(200)
    ]
    titles += ["x" * 600, "€" + "ab" * 70, "", "𝄞" * 20 + "ab", "a" * 513, "\x00" * 64]
    table = _table(CTable, titles)
    everything = [array("I", range(len(titles)))]
    for qlen in [1, 40, 63, 64, 65, 127, 128, 129, 192, 255, 256, 257, 300]:
        query = "".join(rng.choice(alphabet) for _ in range(qlen))
        got = table.top(query, everything, 0, 0, 0.0, math.inf)
        assert len(got) == len(titles)
        assert {i: s.hex() for s, i in got} == {
            i: fuzz.ratio(query, t).hex() for i, t in enumerate(titles)
        }
        for limit, cutoff, window in [(10, 50.0, 30.0), (3, 0.0, 5.0), (1, 60.0, 100.0)]:
            assert table.top(query, everything, 0, limit, cutoff, window) == _reference_top(
                titles, query, everything, 0, limit, cutoff, window
            )


@needs_compiled
def test_simd_level_switch() -> None:
    assert SIMD_LEVELS[0] == "scalar"
    assert _titlekernel.get_simd() in SIMD_LEVELS
    with pytest.raises(ValueError, match="SIMD level"):
        _titlekernel.set_simd("sse9")
    with pytest.raises(TypeError):
        _titlekernel.set_simd(2)  # type: ignore[arg-type]
    code = "from citeledger.resolve import _titlekernel as k; print(k.get_simd())"
    for want in SIMD_LEVELS:
        env = {**os.environ, "CITELEDGER_TITLEKERNEL_SIMD": want}
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == want


# ------------------------------------------------------------------ gathering the candidates
# The compiled table merges one or two posting lists sorted ascending (the catalog's are) and
# marks candidates in a bitmap otherwise (unsorted lists, more lists, two of three); repeats
# within one list count once either way.


@st.composite
def _list_problems(draw: st.DrawFn) -> Problem:
    n = draw(st.integers(1, 70))
    titles = draw(
        st.lists(st.text(alphabet="abc de", max_size=12), min_size=n, max_size=n)
        | st.just([f"title {i % 7}" for i in range(n)])
    )
    query = draw(st.sampled_from(titles) | st.text(alphabet="abc de", max_size=12))
    mode = draw(st.sampled_from([0, 1]))
    ids = st.lists(st.integers(0, n - 1), max_size=40)

    def shaped(xs: list[int]) -> list[int]:
        order = draw(st.sampled_from(["sorted", "sorted-unique", "as drawn", "descending"]))
        if order == "sorted":
            return sorted(xs)
        if order == "sorted-unique":
            return sorted(set(xs))
        return sorted(xs, reverse=True) if order == "descending" else xs

    count = 3 if mode else draw(st.integers(0, 5))
    lists = [array("I", shaped(draw(ids))) for _ in range(count)]
    limit = draw(st.integers(-1, 8))
    cutoff = draw(st.sampled_from([0.0, 50.0]) | st.floats(0, 100))
    window = draw(st.sampled_from([0.0, 30.0, math.inf]))
    return titles, query, lists, mode, limit, cutoff, window


@needs_compiled
@given(_list_problems())
@settings(max_examples=300)
def test_sorted_unsorted_and_repeated_lists_equal_python_table(problem: Problem) -> None:
    # twice per level: the second call finds the table's marks cleared by the first
    want = _equal_at_every_level(problem, repeats=2)
    assert want == _reference_top(*problem)


# --- the choice of blocking lists (Catalog._blocking_lists), compiled and in Python ----------

#: A random blocking problem: postings, the title's tokens, max_df, block_tokens, scan budget.
Blocking: TypeAlias = "tuple[dict[str, array[int]], list[str], int, int, int]"

_TOKENS = ["ab", "ba", "abc", "b", "zz", "é", "𝄞x", "deep", "learning", "model"]


@st.composite
def _blocking_problems(draw: st.DrawFn) -> Blocking:
    known = draw(st.lists(st.sampled_from(_TOKENS), unique=True))
    # Lengths around the budget and max_df, often equal (ties are ordered by the token).
    postings = {
        tok: array("I", range(draw(st.sampled_from([0, 1, 2, 3, 5, 8]) | st.integers(0, 40))))
        for tok in known
    }
    # Repeated tokens (a title's words repeat), tokens no posting holds, any order.
    tokens = draw(st.lists(st.sampled_from(_TOKENS), max_size=12))
    many = draw(st.integers(0, 40))  # more tokens than the compiled stack buffer holds
    if many > 33:
        tokens += [f"t{i}" for i in range(many)]
        for i in range(0, many, 3):
            postings[f"t{i}"] = array("I", range(i % 7))
    max_df = draw(st.integers(0, 45))
    block_tokens = draw(st.integers(1, 6))
    budget = draw(st.sampled_from([0, 1, 3, 6, 10, 300]) | st.integers(0, 60))
    return postings, tokens, max_df, block_tokens, budget


def _shown(choice: tuple[list[array[int]], int] | None) -> object:
    # the lists by identity (the postings' own arrays, not copies) and the mode
    return None if choice is None else ([id(a) for a in choice[0]], choice[1])


@needs_compiled
@given(_blocking_problems())
@settings(max_examples=800)
def test_compiled_blocking_lists_equal_python(problem: Blocking) -> None:
    postings, tokens, max_df, block_tokens, budget = problem
    want = blocking_choice(postings, tokens, max_df, block_tokens, budget)
    got = _titlekernel.blocking_lists(postings, tokens, max_df, block_tokens, budget)
    assert _shown(got) == _shown(want)
    # any iterable of tokens, as the Python code takes
    assert _shown(
        _titlekernel.blocking_lists(postings, iter(tokens), max_df, block_tokens, budget)
    ) == _shown(want)


def test_python_blocking_lists_rule() -> None:
    rare, mid, common = array("I", [1]), array("I", [1, 2, 3]), array("I", range(50))
    postings = {"rare": rare, "mid": mid, "common": common, "huge": array("I", range(99))}
    tokens = ["common", "mid", "rare", "rare", "huge", "unknown"]
    # the rarest first, then the next while the lists stay within the budget
    assert _shown(blocking_choice(postings, tokens, 60, 4, 10)) == _shown(([rare, mid], UNION))
    assert _shown(blocking_choice(postings, tokens, 60, 4, 100)) == _shown(
        ([rare, mid, common], UNION)
    )
    # over max_df: left out entirely
    assert _shown(blocking_choice(postings, tokens, 2, 4, 100)) == _shown(([rare], UNION))
    assert blocking_choice(postings, ["huge", "unknown"], 60, 4, 100) is None
    # the rarest over the budget: two of the three rarest
    assert _shown(blocking_choice(postings, tokens, 60, 4, 0)) == _shown(
        ([rare, mid, common], TWO_OF_THREE)
    )
    assert _shown(blocking_choice(postings, ["mid", "common"], 60, 4, 0)) == _shown(
        ([mid, common], UNION)
    )
    # equal frequencies: ordered by the token
    a, b = array("I", [1, 2]), array("I", [3, 4])
    assert _shown(blocking_choice({"b": b, "a": a}, ["b", "a"], 9, 1, 9)) == _shown(([a], UNION))


@needs_compiled
def test_compiled_blocking_lists_bad_arguments() -> None:
    postings = {"a": array("I", [1])}
    with pytest.raises(TypeError):
        _titlekernel.blocking_lists(postings, ["a"], 1, 1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        _titlekernel.blocking_lists([("a", 1)], ["a"], 1, 1, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _titlekernel.blocking_lists(postings, ["a", 3], 1, 1, 1)  # type: ignore[list-item]
    with pytest.raises(TypeError):
        _titlekernel.blocking_lists(postings, 5, 1, 1, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="block_tokens"):
        _titlekernel.blocking_lists(postings, ["a"], 1, 0, 1)
    with pytest.raises(TypeError):
        _titlekernel.blocking_lists({"a": 5}, ["a"], 1, 1, 1)  # type: ignore[dict-item]


def test_catalog_uses_the_compiled_choice_when_built(monkeypatch: pytest.MonkeyPatch) -> None:
    papers = [Paper(title=f"deep learning model {w}") for w in ("alpha", "beta", "gamma", "beta")]
    catalog = cat_module.Catalog(papers)
    title = normalize_title("Deep learning of the beta model")
    expected = cat_module.Catalog.blocking_ids(catalog, title)
    assert expected  # the titles share tokens
    calls: list[object] = []
    if _titles.blocking_lists is not None:
        real = _titles.blocking_lists

        def spy(*args: Any) -> Any:
            calls.append(args)
            return real(*args)

        monkeypatch.setattr(cat_module, "_compiled_blocking", spy)
        assert catalog.blocking_ids(title) == expected
        assert calls  # the compiled choice answered
    monkeypatch.setattr(cat_module, "_compiled_blocking", None)
    assert catalog.blocking_ids(title) == expected  # and the Python one agrees
