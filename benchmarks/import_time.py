"""How long a fresh interpreter takes to load citeledger, by what it is asked to load.

Usage::

    python benchmarks/import_time.py [--rounds 15] [--tree DIR ...]

Each case runs in its own fresh interpreter, ``--rounds`` times, and the medians and minimums of
its CPU and wall seconds are printed (the machine is shared: compare medians of one run, not
figures of two runs). Bytecode is written and used, as for an installed package (the first
run compiles it, and is not counted). With ``--tree`` (one or more source trees, each put first on
``PYTHONPATH``), the trees take turns within each round, so that they meet the same load. The
cases:

* ``import citeledger``;
* the names a resolving notebook uses (``from citeledger import Paper, Reference, Resolver,
  verify``);
* the first reference string parsed (``Reference.from_string``: the parser's grammars compile);
* the command line's parser built (what ``citeledger --help`` costs before printing);
* everything (``import citeledger.ledger``, which reaches every layer below it).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CASES = {
    "import citeledger": "import citeledger",
    "resolving names": "from citeledger import Paper, Reference, Resolver, verify",
    "first parse": (
        "import citeledger as cl; cl.Reference.from_string('Smith J. A title. J Foo. 2001;3:1-9.')"
    ),
    "command line parser": "import citeledger.cli as cli; cli.build_parser()",
    "everything": "import citeledger.ledger",
}

PROBE = """
import time
c0, t0 = time.process_time(), time.perf_counter()
{code}
print(time.process_time() - c0, time.perf_counter() - t0)
"""


def once(code: str, tree: Path | None) -> tuple[float, float]:
    """CPU and wall seconds of ``code`` in a fresh interpreter (``tree`` first on the path)."""
    env = dict(os.environ)
    # As an installed package is: with its bytecode cached (pip compiles it at install).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree), env.get("PYTHONPATH")]))
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(code=code)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=tree or Path.cwd(),
    )
    cpu, wall = map(float, out.stdout.split()[-2:])
    return cpu, wall


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--tree", type=Path, action="append", help="a source tree to load from")
    args = ap.parse_args(argv)
    trees: list[Path | None] = list(args.tree) if args.tree else [None]
    # Compile every tree's bytecode first: the first import of a tree writes its .pyc files.
    for tree in trees:
        once(CASES["first parse"] + "; import citeledger.ledger, citeledger.cli", tree)
    seen: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for _ in range(args.rounds):
        for case, code in CASES.items():
            for tree in trees:
                seen.setdefault((case, str(tree or "installed")), []).append(once(code, tree))
    rows = []
    for (case, tree), runs in seen.items():
        cpu = [c for c, _ in runs]
        wall = [w for _, w in runs]
        rows.append(
            {
                "case": case,
                "tree": tree,
                "cpu_median_s": round(statistics.median(cpu), 3),
                "cpu_min_s": round(min(cpu), 3),
                "wall_median_s": round(statistics.median(wall), 3),
                "rounds": len(runs),
            }
        )
    for row in rows:
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
