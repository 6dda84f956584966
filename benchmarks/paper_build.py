"""Building ``Paper`` objects as the shared workload's ``speed.py run`` builds them.

``speed.py run`` reports ``objects_s``: the papers of the workload built as ``Paper(title=...,
authors=[name strings], year=..., venue=..., identifiers=[parse_identifier(doi)])`` before any
index. At a million papers it is the largest figure of the run; this script measures it alone, in
CPU microseconds per paper, with the garbage collector on (as a caller's loop runs) and off (the
library's own share).

Usage::

    python benchmarks/paper_build.py /tmp/speed-200k.json [--limit N] [--rounds R]
    python benchmarks/paper_build.py /tmp/speed-200k.json --against ../other-checkout

``--against DIR``: the same build with the ``citeledger`` package of another checkout (its
directory first on ``PYTHONPATH``), each build in its own process and the two at the same time
(one per core), so that both see the same neighbours on a shared machine; the ratio of each pair
is printed.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def build(papers: list[dict[str, Any]]) -> list[Any]:
    """The workload's papers as ``speed.py run`` builds them."""
    import citeledger as cl  # noqa: PLC0415 - the package of the checkout asked for

    return [
        cl.Paper(
            title=p["title"],
            authors=p["authors"],
            year=p["year"],
            venue=p["venue"],
            identifiers=[cl.parse_identifier(p["doi"], scheme="doi")],
        )
        for p in papers
    ]


def measure(workload: Path, limit: int | None, collector: bool) -> float:
    """CPU microseconds per paper for one build of the workload's papers."""
    papers = json.loads(workload.read_text())["papers"][:limit]
    if not collector:
        gc.disable()
    t = time.process_time()
    built = build(papers)
    spent = time.process_time() - t
    gc.enable()
    return spent / len(built) * 1e6


def _child(workload: Path, limit: int | None, collector: bool, root: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    args = [sys.executable, str(HERE / "paper_build.py"), str(workload), "--one"]
    if limit is not None:
        args += ["--limit", str(limit)]
    if not collector:
        args.append("--no-gc")
    return subprocess.Popen(args, env=env, cwd=root, stdout=subprocess.PIPE, text=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("workload", type=Path, help="../shared/bench/speed.py gen output")
    ap.add_argument("--limit", type=int, default=None, help="only the first N papers")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--against", type=Path, default=None, help="another checkout to compare")
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--no-gc", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if not args.workload.is_file():
        print(f"no workload at {args.workload}: run ../shared/bench/speed.py gen first")
        return 2
    if args.one:
        import citeledger  # noqa: PLC0415

        spent = measure(args.workload, args.limit, not args.no_gc)
        print(f"{spent:.2f} {Path(citeledger.__file__).parent.parent}")
        return 0
    this = HERE.parent
    print(f"citeledger from {this}; load average {os.getloadavg()[0]:.2f}")
    for collector in (True, False):
        label = "collector on " if collector else "collector off"
        for r in range(args.rounds):
            if args.against is None:
                out, _ = _child(args.workload, args.limit, collector, this).communicate()
                spent, where = out.split()
                print(f"{label}  round {r + 1}: {float(spent):.2f} µs per Paper ({where})")
                continue
            pair = [
                _child(args.workload, args.limit, collector, this),
                _child(args.workload, args.limit, collector, args.against.resolve()),
            ]
            (here, here_at), (there, there_at) = (p.communicate()[0].split() for p in pair)
            print(
                f"{label}  round {r + 1}: {here_at} {float(here):.2f} µs, {there_at} "
                f"{float(there):.2f} µs per Paper (ratio {float(here) / float(there):.2f})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
