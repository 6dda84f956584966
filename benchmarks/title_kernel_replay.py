"""The title kernel on the resolver's own calls: recorded once, replayed against two builds.

``record`` resolves the first references of a shared workload (``../shared/bench/speed.py gen``
writes one) with a recording shim in place of the catalog's title table, and pickles the table's
state with every ``TitleTable.top`` call's arguments. ``replay`` loads two builds of the
extension side by side (each ``.so`` under its own package name, so the baseline can be a copy of
another checkout's), checks that every call returns the same ``(score, id)`` list, scores compared
bit for bit, at each SIMD level this CPU has, then times them in CPU time (``time.process_time``)
per call: chunks of calls alternating between the builds (the first one switching every round),
``ROUNDS`` rounds, medians printed.

Usage:
    python benchmarks/title_kernel_replay.py record /tmp/speed-1m.json /tmp/calls.pkl [N_REFS]
    python benchmarks/title_kernel_replay.py replay /tmp/calls.pkl OLD.so [NEW.so] [ROUNDS]

``NEW.so`` defaults to the extension ``citeledger.resolve._titlekernel`` imports; ``SEL=union`` or
``SEL=two`` in the environment replays only the union or the two-of-three calls.
"""

# The benchmark records the catalog's internals (its title table) on purpose.
# ruff: noqa: SLF001

from __future__ import annotations

import importlib.util
import json
import os
import pickle
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import citeledger as cl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from catalog_build import refs_of  # the workload's references, as speed.py builds them
from paper_build import build  # and its papers

if TYPE_CHECKING:
    from types import ModuleType

CHUNK = 200


def _load(package: str, path: str) -> ModuleType:
    """The extension at ``path`` imported as ``package._titlekernel`` (its init symbol's name)."""
    spec = importlib.util.spec_from_file_location(f"{package}._titlekernel", path)
    if spec is None or spec.loader is None:
        sys.exit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Recorder:
    """The catalog's title table with its ``top`` calls recorded."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.calls: list[tuple[Any, ...]] = []

    def __len__(self) -> int:
        return len(self.table)

    def __getitem__(self, i: int) -> str:
        return self.table[i]  # type: ignore[no-any-return]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)

    def top(self, *args: Any) -> Any:
        self.calls.append(args)
        return self.table.top(*args)


def record(data: Path, out: Path, n_refs: int) -> None:
    d = json.loads(data.read_text())
    papers = build(d["papers"])
    refs = refs_of(d["refs"][:n_refs])
    del d
    resolver = cl.Resolver(papers)
    catalog = resolver.catalog
    if catalog is None:
        sys.exit("the resolver has no catalog")
    table = catalog._titles
    if not hasattr(table, "_state"):
        sys.exit("the C title kernel is not built: nothing to record")
    shim = _Recorder(table)
    catalog._titles = shim  # type: ignore[assignment]
    try:
        for ref in refs:
            resolver.resolve(ref)
    finally:
        catalog._titles = table
    with out.open("wb") as fh:
        pickle.dump((table._state(), shim.calls), fh, protocol=pickle.HIGHEST_PROTOCOL)
    print(json.dumps({"papers": len(papers), "refs": len(refs), "calls": len(shim.calls)}))


def _same(a: list[tuple[float, int]], b: list[tuple[float, int]]) -> bool:
    return [(s.hex(), i) for s, i in a] == [(s.hex(), i) for s, i in b]


def replay(calls_path: Path, old_so: str, new_so: str | None, rounds: int) -> None:
    old = _load("_old_kernel", old_so)
    new = (
        importlib.import_module("citeledger.resolve._titlekernel")
        if new_so is None
        else _load("_new_kernel", new_so)
    )
    with calls_path.open("rb") as fh:
        state, calls = pickle.load(fh)
    sel = os.environ.get("SEL")
    if sel in {"union", "two"}:
        calls = [c for c in calls if c[2] == (sel == "two")]
    old_table, new_table = old.TitleTable._from_state(*state), new.TitleTable._from_state(*state)
    print(f"{len(calls)} calls, {len(old_table)} titles")
    for level in new.simd_levels():
        old.set_simd(level)
        new.set_simd(level)
        differing = sum(not _same(old_table.top(*c), new_table.top(*c)) for c in calls)
        print(f"{level}: {differing} of {len(calls)} calls differ")
    old.set_simd(old.simd_levels()[-1])
    new.set_simd(new.simd_levels()[-1])

    def timed(table: Any, chunk: list[tuple[Any, ...]]) -> float:
        top = table.top
        t0 = time.process_time()
        for c in chunk:
            top(*c)
        return time.process_time() - t0

    chunks = [calls[i : i + CHUNK] for i in range(0, len(calls), CHUNK)]
    per_round: dict[str, list[float]] = {"old": [], "new": []}
    for r in range(rounds + 1):  # round 0 warms both up
        spent = {"old": 0.0, "new": 0.0}
        for i, chunk in enumerate(chunks):
            order = ("old", "new") if (i + r) % 2 else ("new", "old")
            for name in order:
                spent[name] += timed(old_table if name == "old" else new_table, chunk)
        if r:
            for name, total in spent.items():
                per_round[name].append(total / len(calls) * 1e6)
            print(
                f"round {r}: old {per_round['old'][-1]:.2f} new {per_round['new'][-1]:.2f} us/call"
            )
    m_old, m_new = statistics.median(per_round["old"]), statistics.median(per_round["new"])
    print(
        json.dumps(
            {
                "calls": len(calls),
                "rounds": rounds,
                "old_us_per_call": round(m_old, 2),
                "new_us_per_call": round(m_new, 2),
                "ratio": round(m_new / m_old, 3),
            }
        )
    )


def main() -> None:
    cmd, args = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("", [])
    if cmd == "record" and len(args) >= 2:
        record(Path(args[0]), Path(args[1]), int(args[2]) if len(args) > 2 else 10_000)
    elif cmd == "replay" and len(args) >= 2:
        new_so = args[2] if len(args) > 2 and args[2].endswith(".so") else None
        rest = args[3:] if new_so else args[2:]
        replay(Path(args[0]), args[1], new_so, int(rest[0]) if rest else 5)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
