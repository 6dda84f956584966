"""The one progress helper: quiet by default, callables get (done, total), True uses tqdm."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

import citeledger as cl
from citeledger._progress import progress_callback
from citeledger.formats.dumps import iter_openalex_works


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("progress", [None, False])
def test_quiet_by_default(progress: bool | None, capsys: pytest.CaptureFixture[str]) -> None:
    advance, close = progress_callback(progress, total=3, desc="x")
    advance(2)
    close()
    out = capsys.readouterr()
    assert (out.out, out.err) == ("", "")


def test_callable_gets_done_and_total() -> None:
    seen: list[tuple[int, int | None]] = []
    advance, close = progress_callback(lambda d, t: seen.append((d, t)), total=None, desc="x")
    advance(1)
    advance(4)
    close()
    assert seen == [(1, None), (5, None)]


def test_rejects_other_values() -> None:
    with pytest.raises(TypeError, match="progress must be"):
        progress_callback("yes", total=1, desc="x")  # type: ignore[arg-type]


def test_true_without_tqdm_writes_only_to_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # import tqdm.auto -> ImportError
    pipe = io.StringIO()
    advance, close = progress_callback(True, total=10, desc="resolving", stream=pipe)
    advance(10)
    close()
    assert pipe.getvalue() == ""
    tty = _Tty()
    advance, close = progress_callback(True, total=10, desc="resolving", stream=tty)
    advance(10)
    close()
    assert tty.getvalue().strip().endswith("resolving: 10/10")


def test_true_with_tqdm_is_silent_when_not_a_terminal() -> None:
    pytest.importorskip("tqdm")
    pipe = io.StringIO()
    advance, close = progress_callback(True, total=5, desc="resolving", stream=pipe)
    for _ in range(5):
        advance(1)
    close()
    assert pipe.getvalue() == ""


def test_true_with_tqdm_draws_on_a_terminal() -> None:
    pytest.importorskip("tqdm")
    tty = _Tty()
    advance, close = progress_callback(True, total=5, desc="resolving", stream=tty)
    advance(5)
    close()
    assert "resolving" in tty.getvalue()


def test_resolve_many_and_dump_readers_take_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paper = cl.Paper(title="Attention is all you need", year=2017, identifiers=["arXiv:1706.03762"])
    resolver = cl.Resolver([paper])
    refs = [cl.Reference(identifiers=["arXiv:1706.03762v2"])] * 3
    seen: list[tuple[int, int | None]] = []
    got = resolver.resolve_many(refs, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (3, 3)
    assert resolver.resolve_many(refs, progress=True) == got  # same results, bar or not
    works = tmp_path / "works.jsonl"
    works.write_text(
        "".join(
            json.dumps({"id": f"https://openalex.org/W{i}", "title": "t"}) + "\n" for i in range(5)
        )
    )
    counts: list[int] = []
    assert len(list(iter_openalex_works(works, progress=counts.append, progress_every=2))) == 5
    assert counts == [2, 4, 5]
    assert len(list(iter_openalex_works(works, progress=True))) == 5
    out = capsys.readouterr()
    assert (out.out, out.err) == ("", "")  # not a terminal: quiet
