"""Two workers against one, beside what two independent processes reach on the same machine.

Usage::

    python benchmarks/two_workers.py /tmp/speed-200k.json [--rounds 3]

Issue 16 asks ``resolve_many(workers=2)`` for >= 1.6x the wall-clock speed of one worker on two
cores. On a machine whose two cores share caches and memory bandwidth, two processes that share
nothing (two whole runs, each with its own catalog, started at the same instant) do not reach
2x either: that is the ceiling any two-worker design can reach there. Each round runs, in fresh
processes and in an order that alternates between rounds:

* ``one``: load the shared workload (``../shared/bench/speed.py gen``), build the resolver, then
  ``resolve_many(refs)`` with one worker;
* ``two``: the same with ``workers=2`` (this process and one forked child);
* ``pair``: two ``one`` processes at once, their resolving started at the same instant (both
  load and build first, then wait for an agreed time).

It prints each round's wall-clock seconds of ``resolve_many`` and, on the means over the
rounds: ``two`` as a speed-up of ``one``, and the ``pair`` ceiling (``2 * one / slower of the
pair``), so the two-worker figure can be read against what this machine allows. Every figure
is of the same session: the machine is shared, compare within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# (benchmarks/ is this script's folder, first on sys.path)
from catalog_build import refs_of
from paper_build import build

import citeledger as cl


def load(path: Path) -> tuple[list[Any], list[Any]]:
    """The workload's papers and references, built as ``speed.py run`` builds them."""
    data = json.loads(path.read_text())
    return build(data["papers"]), refs_of(data["refs"])


def child(path: Path, workers: int, start_at: float | None) -> None:
    """One measured process: load, build, (wait), resolve; print the seconds as JSON."""
    papers, refs = load(path)
    resolver = cl.Resolver(papers)
    # A first RapidFuzz cdist imports NumPy (once per process): not part of the batch.
    import numpy as np  # noqa: F401, PLC0415

    late = 0.0
    if start_at is not None:
        late = max(0.0, time.time() - start_at)
        time.sleep(max(0.0, start_at - time.time()))
    t0, c0 = time.perf_counter(), time.process_time()
    out = resolver.resolve_many(refs, workers=workers)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(json.dumps({"wall": wall, "cpu": cpu, "refs": len(out), "late": round(late, 2)}))


def run_child(path: Path, workers: int, start_at: float | None = None) -> subprocess.Popen[str]:
    args = [sys.executable, __file__, str(path), "--child", str(workers)]
    if start_at is not None:
        args += ["--start-at", repr(start_at)]
    return subprocess.Popen(args, stdout=subprocess.PIPE, text=True)


def result(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, _ = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"a measured process failed (exit code {proc.returncode})")
    value: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("workload", type=Path, help="../shared/bench/speed.py gen output")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--lead", type=float, default=None, help="seconds to load before a pair starts")
    ap.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--start-at", type=float, default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child is not None:
        child(a.workload, a.child, a.start_at)
        return
    # Loading and building take about 20 s at 200k papers, 80 s at 1M (two at once: longer).
    lead = a.lead if a.lead is not None else max(30.0, a.workload.stat().st_size / 2.5e6)
    print(f"citeledger from {Path(cl.__file__).parent}; load average {os.getloadavg()[0]:.2f}")
    kinds = ["one", "two", "pair"]
    walls: dict[str, list[float]] = {k: [] for k in kinds}
    for k in range(a.rounds):
        for kind in kinds if k % 2 == 0 else kinds[::-1]:
            if kind == "pair":
                start = time.time() + lead
                procs = [run_child(a.workload, 1, start), run_child(a.workload, 1, start)]
                got = [result(p) for p in procs]
                if any(g["late"] > 0 for g in got):
                    print(
                        f"  (a process of the pair was ready {max(g['late'] for g in got)} s late:"
                        " raise --lead)"
                    )
                walls[kind].append(max(g["wall"] for g in got))
                shown = " / ".join(f"{g['wall']:.2f}" for g in got)
            else:
                got1 = result(run_child(a.workload, 1 if kind == "one" else 2))
                walls[kind].append(got1["wall"])
                shown = f"{got1['wall']:.2f}"
            print(f"round {k + 1} {kind:4s} resolve_many wall {shown} s", flush=True)
    one = statistics.mean(walls["one"])
    two = statistics.mean(walls["two"])
    pair = statistics.mean(walls["pair"])
    print(
        f"means: one {one:.2f} s, two {two:.2f} s, pair (slower of the two) {pair:.2f} s; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    per_round = [o / t for o, t in zip(walls["one"], walls["two"], strict=True)]
    ceilings = [2 * o / p for o, p in zip(walls["one"], walls["pair"], strict=True)]
    print(
        f"two workers / one: {one / two:.2f}x on the means "
        f"(rounds {', '.join(f'{x:.2f}' for x in per_round)})"
    )
    print(
        f"two independent processes / one (the machine's ceiling): {2 * one / pair:.2f}x "
        f"(rounds {', '.join(f'{x:.2f}' for x in ceilings)})"
    )


if __name__ == "__main__":
    main()
