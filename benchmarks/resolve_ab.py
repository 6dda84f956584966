"""Resolving the shared workload with two checkouts at the same time: speed ratio and results.

On a shared machine the same run moves by a third from one hour to the next, so two versions of
the resolver are only comparable when they run side by side. Each checkout runs in its own
process (its directory first on ``PYTHONPATH``, its own compiled kernels): it builds the
workload's papers and references as ``speed.py run`` does, then ``Resolver(papers)``, then
waits at a barrier until the other has built too, and only then resolves every reference (one
worker, CPU clock), so both resolve while the other does the same. Each writes every result
(state, method, target key, score, reason, evidence fields, alternatives' keys) to a file; the
files are compared line by line.

Usage::

    python benchmarks/resolve_ab.py /tmp/speed-1m.json --against ../other-checkout [--rounds 2]

Prints per round the refs per CPU-second of each, their ratio, the build's CPU seconds and peak
RSS, and whether every result is the same (else the first items that differ). Both sides need
the memory of a whole run (about 2.5 GB each at a million papers).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

#: How long (seconds) a side waits at the barrier for the other before it resolves anyway.
_BARRIER_TIMEOUT = 1800.0


def _built(workload: Path) -> tuple[Any, list[Any]]:
    """The workload's resolver and references, built as ``speed.py run`` builds them."""
    # (imported here, in the side's own process: the package of the checkout asked for)
    from catalog_build import refs_of  # noqa: PLC0415 - benchmarks/, beside this script
    from paper_build import build  # noqa: PLC0415

    import citeledger as cl  # noqa: PLC0415

    data = json.loads(workload.read_text())
    return cl.Resolver(build(data["papers"])), refs_of(data["refs"])


def _result_line(res: Any) -> str:
    """One result as a JSON line of the fields a decision shows."""
    return json.dumps(
        [
            res.state.value,
            res.method and res.method.value,
            res.target and res.target.key,
            res.score,
            res.reason,
            [(e.field, e.agreement.value, e.score, e.left, e.right) for e in res.evidence],
            [a.key for a in res.alternatives],
        ]
    )


def one_side(workload: Path, barrier: Path, out: Path) -> dict[str, Any]:
    """Build, wait for the other side, resolve, write the results; the figures as a dict."""
    t = time.process_time()
    resolver, refs = _built(workload)
    build_s = time.process_time() - t
    (barrier / str(os.getpid())).touch()
    deadline = time.monotonic() + _BARRIER_TIMEOUT
    while len(list(barrier.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    t = time.process_time()
    results = resolver.resolve_many(refs)
    resolve_s = time.process_time() - t
    with out.open("w", encoding="utf-8") as f:
        for res in results:
            f.write(_result_line(res) + "\n")
    return {
        "refs_per_cpu_s": round(len(refs) / resolve_s),
        "objects_and_build_cpu_s": round(build_s, 2),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
    }


def _side(workload: Path, root: Path, barrier: Path, out: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    args = [sys.executable, str(HERE / "resolve_ab.py"), str(workload), "--one", str(barrier)]
    args += ["--out", str(out)]
    return subprocess.Popen(args, env=env, cwd=root, stdout=subprocess.PIPE, text=True)


def _differences(a: Path, b: Path, most: int = 5) -> tuple[int, list[int]]:
    """How many result lines differ between two files, and the first few item numbers."""
    differ = [
        i
        for i, (x, y) in enumerate(
            zip(a.read_text().splitlines(), b.read_text().splitlines(), strict=True)
        )
        if x != y
    ]
    return len(differ), differ[:most]


def main(argv: list[str] | None = None) -> int:
    """Run the comparison (or, with ``--one``, one side of it)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("workload", type=Path, help="../shared/bench/speed.py gen output")
    ap.add_argument("--against", type=Path, default=None, help="the other checkout")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--one", type=Path, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if not args.workload.is_file():
        print(f"no workload at {args.workload}: run ../shared/bench/speed.py gen first")
        return 2
    if args.one is not None:
        print(json.dumps(one_side(args.workload, args.one, args.out)))
        return 0
    if args.against is None:
        print("--against DIR: the checkout to compare with")
        return 2
    this, other = HERE.parent, args.against.resolve()
    print(f"this: {this}; against: {other}; load average {os.getloadavg()[0]:.2f}")
    for r in range(args.rounds):
        with tempfile.TemporaryDirectory() as tmp:
            barrier = Path(tmp, "barrier")
            barrier.mkdir()
            outs = [Path(tmp, "this.jsonl"), Path(tmp, "other.jsonl")]
            sides = [
                _side(args.workload, root, barrier, out)
                for root, out in zip((this, other), outs, strict=True)
            ]
            here, there = (json.loads(p.communicate()[0]) for p in sides)
            if any(p.returncode for p in sides):
                print(f"round {r + 1}: a side failed")
                return 1
            n, first = _differences(*outs)
            same = "every result the same" if n == 0 else f"{n} results differ (items {first})"
            print(
                f"round {r + 1}: this {here['refs_per_cpu_s']:,} refs per CPU-s, against "
                f"{there['refs_per_cpu_s']:,} (ratio {here['refs_per_cpu_s'] / there['refs_per_cpu_s']:.2f}); "
                f"objects and build {here['objects_and_build_cpu_s']} / "
                f"{there['objects_and_build_cpu_s']} CPU-s; peak RSS {here['peak_rss_mb']} / "
                f"{there['peak_rss_mb']} MB; {same}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
