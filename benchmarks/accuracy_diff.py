"""Compare two ``benchmarks/accuracy.py --dump`` files answer by answer.

Usage::

    python benchmarks/accuracy_diff.py BEFORE.jsonl AFTER.jsonl [--all]

Lists every item whose verified answer changed (gained, lost or moved to another target),
grouped by section, plus a count of state changes that touch no verified answer (``--all``
lists those too).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

VERIFIED = {"verified_exact", "verified_fuzzy"}


def load(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    out: dict[tuple[str, str], dict[str, Any]] = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            key = (d["section"], d["key"])
            seen = 1
            while key in out:  # the same key twice in one section (a repeated string)
                seen += 1
                key = (d["section"], f"{d['key']} ({seen})")
            out[key] = d
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--all", action="store_true", help="also list non-verified state changes")
    ap.add_argument(
        "--quiet", action="store_true", help="count, but do not list, gains to the gold record"
    )
    args = ap.parse_args(argv)
    before, after = load(args.before), load(args.after)
    changed: Counter[str] = Counter()
    other: Counter[str] = Counter()
    for key in sorted(before.keys() | after.keys()):
        b, a = before.get(key), after.get(key)
        if b is None or a is None:
            print(f"[only in {'after' if b is None else 'before'}] {key}")
            continue
        bv, av = b["state"] in VERIFIED, a["state"] in VERIFIED
        bt = b["target"] if bv else None
        at = a["target"] if av else None
        if bt != at:
            kind = "gained" if not bv else "lost" if not av else "moved"
            gold = a.get("gold")
            if gold:
                # right/wrong by the gold record's identifiers (the target key starts with them)
                now = (at or "").split("|", 1)[0]
                then = (bt or "").split("|", 1)[0]
                kind += (
                    " right"
                    if kind == "gained" and now == gold
                    else " WRONG"
                    if kind == "gained"
                    else " (was right)"
                    if then == gold
                    else " (was wrong)"
                )
            changed[f"{key[0]}: {kind}"] += 1
            if args.quiet and kind == "gained right":
                continue
            print(f"[{kind}] {key[0]} {key[1][:40]}: {a['item'][:150]!r}")
            print(f"    before {b['state']} {b['score']}: {bt}")
            print(f"    after  {a['state']} {a['score']}: {at}")
        elif b["state"] != a["state"]:
            other[f"{key[0]}: {b['state']} -> {a['state']}"] += 1
            if args.all:
                print(
                    f"[state] {key[0]} #{key[1]}: {a['item'][:150]!r} {b['state']} -> {a['state']}"
                )
    print("\nverified answers changed per section:")
    for section, n in sorted(changed.items()):
        print(f"  {section}: {n}")
    print("other state changes:")
    for what, n in sorted(other.items()):
        print(f"  {what}: {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
