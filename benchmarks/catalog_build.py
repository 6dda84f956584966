"""Speed and memory of ``Catalog.from_records`` on the papers of the shared workload.

Usage::

    python benchmarks/catalog_build.py /tmp/speed-1m.json [--arrow] [--check 5000]
    python benchmarks/catalog_build.py /tmp/speed-200k.json --check 5000

The workload file is ``../shared/bench/speed.py gen`` output. Its papers become records of
``Paper`` fields (``{"title", "authors", "year", "venue", "volume", "pages", "identifiers":
[doi]}``; the workload's first page is the ``pages`` field) and ``Catalog.from_records`` builds a
catalog of them. Reported: CPU seconds of the build and the peak resident memory it added (the
kernel's high-water mark, reset just before the build, minus the resident memory before it),
both also per million records, and what the built catalog holds once the records are gone.

``--arrow``: the records as a pyarrow ``Table`` (built before timing) instead of dicts.
``--check N``: resolve the first ``N`` references of the workload with ``Resolver(catalog)``
and with ``Resolver([Paper(**r) for r in records])``, compare every result, and count the
records the first built as papers (those it compared or returned; the rest stay rows). The
second resolve runs in a process that has built, used and freed the first catalog: at 1M
records it took about twice its time in a fresh process (23-26 CPU-s against 12.1, 2026-12-07),
so compare the first figure between trees, not the two figures of one run.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import citeledger as cl


def rss_mb() -> float:
    """Resident memory of this process now."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def reset_peak() -> bool:
    """Reset the kernel's peak-RSS mark (VmHWM, Linux 4.0+); False where that is impossible."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def peak_mb() -> float:
    """The peak resident memory since :func:`reset_peak` (VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def records_of(papers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The workload's papers as mappings of Paper fields."""
    return [
        {
            "title": p["title"],
            "authors": p["authors"],
            "year": p["year"],
            "venue": p["venue"],
            "volume": p["volume"],
            "pages": p["first_page"],
            "identifiers": [p["doi"]],
        }
        for p in papers
    ]


def refs_of(rows: list[dict[str, Any]]) -> list[cl.Reference]:
    """The workload's references, built as ``speed.py run`` builds them."""
    refs = []
    for r in rows:
        if r["kind"] == "string":
            refs.append(cl.Reference.from_string(r["raw"]))
            continue
        kw = {k: r[k] for k in ("title", "authors", "year") if r.get(k) is not None}
        if r.get("doi"):
            kw["identifiers"] = [cl.parse_identifier(r["doi"], scheme="doi")]
        refs.append(cl.Reference(**kw))
    return refs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("workload", type=Path)
    ap.add_argument("--arrow", action="store_true", help="build from a pyarrow Table")
    ap.add_argument("--check", type=int, default=0, help="compare decisions on N references")
    ap.add_argument("--limit", type=int, default=0, help="only the first N papers")
    args = ap.parse_args(argv)

    data = json.loads(args.workload.read_text())
    papers = data["papers"][: args.limit] if args.limit else data["papers"]
    ref_rows = data["refs"][: args.check]
    del data
    records: Any = records_of(papers)
    del papers
    if args.arrow:
        import pyarrow as pa  # noqa: PLC0415

        records = pa.Table.from_pylist(records)
    n = len(records)
    gc.collect()
    before = rss_mb()
    resettable = reset_peak()
    c0, t0 = time.process_time(), time.perf_counter()
    catalog = cl.Catalog.from_records(records)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    peak = peak_mb() - before if resettable else float("nan")
    after = rss_mb()
    per = 1_000_000 / n
    print(
        f"Catalog.from_records, {n:,} {'arrow rows' if args.arrow else 'dict records'}: "
        f"{cpu:.2f} CPU-s ({wall:.2f} wall), peak +{peak:,.0f} MB, held +{after - before:,.0f} MB"
    )
    print(
        f"  per million records: {cpu * per:.2f} CPU-s, peak +{peak * per:,.0f} MB, "
        f"held +{(after - before) * per:,.0f} MB"
    )

    if args.check:
        rows = records.to_pylist() if args.arrow else records
        refs = refs_of(ref_rows)
        c0 = time.process_time()
        got = cl.Resolver(catalog).resolve_many(refs)
        t_cat = time.process_time() - c0
        # Records the resolver built as papers (the ones it compared or returned); the others
        # stay rows of the catalog's columns.
        built_n = sum(1 for i in range(n) if catalog._papers[i] is not None)  # noqa: SLF001
        del catalog
        built = [cl.Paper(**r) for r in rows]
        c0 = time.process_time()
        expected = cl.Resolver(built).resolve_many(refs)
        t_pap = time.process_time() - c0
        same = sum(a == b for a, b in zip(got, expected, strict=True))
        print(
            f"decisions on {len(refs):,} references: {same:,} identical "
            f"(resolve {t_cat:.1f} CPU-s from the records' catalog, {t_pap:.1f} from Papers); "
            f"{built_n:,} of {n:,} records built as papers while resolving"
        )
        if same != len(refs):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
