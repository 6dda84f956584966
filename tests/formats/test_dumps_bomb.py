"""Gzip bombs in dump readers are bounded: ParseError, in little memory, quickly.

Each test proves the bound without a clock (the error says where reading stopped; the traced
memory peak and the records read are counted); the wall-clock limits are the ``slow`` test at
the end.
"""

from __future__ import annotations

import gzip
import time
import tracemalloc
from typing import TYPE_CHECKING

import pytest

from citeledger import ParseError
from citeledger.formats import dumps

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

MIB = 1024 * 1024


def bomb(path: Path, *, chunk: bytes, repeats: int, head: bytes = b"") -> Path:
    """A gzip file of ``head`` then ``repeats`` identical members: ``len(chunk) * repeats`` bytes.

    Concatenated gzip members are one valid gzip stream (RFC 1952), so a 2 GiB bomb is written
    from one 1 MiB compression, in a fraction of a second.
    """
    member = gzip.compress(chunk, compresslevel=9)
    with path.open("wb") as fh:
        if head:
            fh.write(gzip.compress(head, compresslevel=9))
        for _ in range(repeats):
            fh.write(member)
    return path


@pytest.fixture
def zeros_2gib(tmp_path: Path) -> Path:
    path = bomb(tmp_path / "part_000.gz", chunk=b"\0" * MIB, repeats=2048)
    assert path.stat().st_size < 4 * MIB  # a few MiB that expand to 2 GiB
    return path


@pytest.fixture
def lines_2gib(tmp_path: Path) -> Path:
    # Short valid-looking lines: no single record is too long, only the whole is a bomb.
    line = b'{"id": "W1"}' + b" " * 1011 + b"\n"
    return bomb(tmp_path / "lines.gz", chunk=line * 1024, repeats=2048)


def measure(run: Callable[[], object]) -> tuple[Exception, float, int]:
    tracemalloc.start()
    started = time.monotonic()
    try:
        run()
    except ParseError as exc:
        error: Exception = exc
    else:
        pytest.fail("the bomb was read to the end")
    finally:
        elapsed = time.monotonic() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return error, elapsed, peak


def drain(it: Iterator[object]) -> None:
    for _ in it:
        pass


def test_zeros_bomb_stops_at_record_cap_with_defaults(zeros_2gib: Path) -> None:
    error, _, peak = measure(lambda: drain(dumps.iter_openalex_works(zeros_2gib)))
    assert "line 1 is longer than max_record_bytes" in str(error)  # stopped on the first line
    assert peak < 160 * MIB  # one capped line (32 MiB) and its buffers, not 2 GiB


def test_zeros_bomb_small_record_cap(zeros_2gib: Path) -> None:
    error, _, peak = measure(
        lambda: drain(dumps.iter_openalex_works(zeros_2gib, max_record_bytes=MIB))
    )
    assert "line 1 is longer than max_record_bytes=1,048,576" in str(error)
    assert peak < 16 * MIB


def test_lines_bomb_stops_at_ratio_with_defaults(lines_2gib: Path) -> None:
    count = 0

    def run() -> None:
        nonlocal count
        for _ in dumps.iter_openalex_works(lines_2gib):
            count += 1

    error, _, peak = measure(run)
    assert "refusing a likely gzip bomb" in str(error)
    assert 60_000 < count < 70_000  # stopped just after the 64 MiB warm-up, not at 2 GiB
    assert peak < 16 * MIB


def test_lines_bomb_stops_at_max_bytes(lines_2gib: Path) -> None:
    count = 0

    def run() -> None:
        nonlocal count
        for _ in dumps.iter_openalex_works(lines_2gib, max_bytes=8 * MIB, max_ratio=None):
            count += 1

    error, _, peak = measure(run)
    assert "more than max_bytes=8,388,608" in str(error)
    assert count <= 8 * 1024  # 1 KiB lines: no more than 8 MiB of them were read
    assert peak < 16 * MIB


@pytest.mark.parametrize(
    ("name", "head", "filler", "read", "message"),
    [
        # One endless string inside "items": the incremental JSON reader must give up early.
        (
            "0.json.gz",
            b'{"items": [{"title": "',
            b"a",
            lambda path: dumps.iter_crossref_items(path, max_record_bytes=4 * MIB),
            "longer than max_record_bytes",
        ),
        # One endless CSV field.
        (
            "dump.csv.gz",
            b"id,citing,cited,creation,timespan,journal_sc,author_sc\n",
            b"x",
            lambda path: dumps.iter_opencitations_csv(path, max_record_bytes=2 * MIB),
            "max_record_bytes",
        ),
    ],
    ids=["crossref_items", "csv"],
)
def test_one_endless_record_is_cut_at_max_record_bytes(
    tmp_path: Path,
    name: str,
    head: bytes,
    filler: bytes,
    read: Callable[[Path], Iterator[object]],
    message: str,
) -> None:
    path = bomb(tmp_path / name, head=head, chunk=filler * MIB, repeats=2048)
    error, _, peak = measure(lambda: drain(read(path)))
    assert message in str(error)
    assert peak < 64 * MIB  # the record cap and its buffers, not the 2 GiB stream


@pytest.mark.slow
@pytest.mark.parametrize(
    ("case", "limit"),
    [("zeros-defaults", 10.0), ("zeros-small-cap", 2.0), ("lines-max-bytes", 10.0)],
)
def test_bombs_are_refused_quickly(
    case: str, limit: float, zeros_2gib: Path, lines_2gib: Path
) -> None:
    runs: dict[str, Callable[[], object]] = {
        "zeros-defaults": lambda: drain(dumps.iter_openalex_works(zeros_2gib)),
        "zeros-small-cap": lambda: drain(
            dumps.iter_openalex_works(zeros_2gib, max_record_bytes=MIB)
        ),
        "lines-max-bytes": lambda: drain(
            dumps.iter_openalex_works(lines_2gib, max_bytes=8 * MIB, max_ratio=None)
        ),
    }
    _, elapsed, _ = measure(runs[case])
    assert elapsed < limit
