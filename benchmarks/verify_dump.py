"""Every field of ``verify(a, b)`` on the labelled pairs, one line per call, to compare checkouts.

Usage::

    PYTHONPATH=$PWD python benchmarks/verify_dump.py OUT.txt [--data PATH]

``--data``: the ``normalized`` folder of matching-dev (default: ``../shared/data/...`` as
``accuracy.py``); the shared ``bench/speed.py`` is looked for two folders above it.

Run it in two checkouts and ``cmp`` the outputs: a speed change to ``verify`` must leave every
line as it was. Each line holds the state, method, target, score, reason, evidence (read, so the
deferred fields render) and alternatives of one call. The calls: every fuzzycat (fatcat) pair
both ways, built as ``accuracy.py`` and as the shared ``speed.py`` build them, each record against
itself, the left record as a :class:`~citeledger.Reference` (``Reference.from_paper``), and with a
config that tightens the cutoffs; the DBLP-ACM pairs both ways; the glutton references (parsed
strings) against a paper made of their labelled fields. Each call is made twice on the same
objects, so results that a cache would change show up as a difference between the two lines.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import citeledger as cl
from citeledger.resolve._config import ResolverConfig

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from accuracy import DEFAULT_DATA, fatcat_paper, magellan_paper, read  # noqa: E402


def _speed_paper(data: Path) -> Any:
    """The shared benchmark's own fatcat conversion (``../shared/bench/speed.py``)."""
    path = data.parents[1] / "bench" / "speed.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("_shared_speed", path)
    assert spec is not None
    assert spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return lambda rel: mod._fatcat_paper(cl, rel)  # noqa: SLF001


def line(res: cl.Resolution) -> str:
    """Every field of ``res``, the deferred ones read."""
    return repr(
        (
            res.state,
            res.method,
            res.target,
            res.score,
            res.reason,
            res.evidence,
            res.alternatives,
        )
    )


def pairs(data: Path) -> Iterator[tuple[str, cl.Reference | cl.Paper, cl.Paper]]:
    """``(label, left, right)`` for every call."""
    builders = [("acc", fatcat_paper)]
    speed = _speed_paper(data)
    if speed is not None:
        builders.append(("speed", speed))
    for n, row in enumerate(read(data / "fuzzycat_verify_pairs.jsonl")):
        for name, build in builders:
            a, b = build(row["left"]), build(row["right"])
            yield f"fatcat {n} {name} ab", a, b
            yield f"fatcat {n} {name} ba", b, a
            yield f"fatcat {n} {name} aa", a, a
            yield f"fatcat {n} {name} ref-ab", cl.Reference.from_paper(a), b
    for n, row in enumerate(read(data / "magellan_dblp_acm.jsonl")):
        a, b = magellan_paper(row["left"]), magellan_paper(row["right"])
        yield f"acm {n} ab", a, b
        yield f"acm {n} ba", b, a
    for n, row in enumerate(read(data / "glutton_pmc1943_refs_doi_17k.jsonl")):
        left = row["left"]
        if n % 4 or not left.get("reference") or not left.get("atitle"):
            continue
        ref = cl.Reference.from_string(left["reference"])
        try:
            paper = cl.Paper(
                title=left["atitle"],
                authors=[left["firstAuthor"]] if left.get("firstAuthor") else [],
                venue=left.get("jtitle") or None,
                volume=left.get("volume") or None,
                pages=left.get("firstPage") or None,
            )
        except cl.ModelError:
            continue
        yield f"glutton {n}", ref, paper


def main() -> None:
    """Write the dump."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out", type=Path)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = ap.parse_args()
    strict = ResolverConfig(min_title_similarity=97.0, min_corroborations=2, exact_year_tolerance=0)
    count = 0
    with args.out.open("w", encoding="utf-8") as fh:
        for label, a, b in pairs(args.data):
            for config in (None, strict):
                tag = "" if config is None else " strict"
                for attempt in (1, 2):
                    fh.write(f"{label}{tag} #{attempt}\t{line(cl.verify(a, b, config=config))}\n")
                    count += 1
    print(json.dumps({"calls": count, "out": str(args.out)}))


if __name__ == "__main__":
    main()
