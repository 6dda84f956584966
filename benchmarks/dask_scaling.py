"""References per second on Dask with 1 and 2 workers, and memory per worker.

Usage::

    python benchmarks/dask_scaling.py [--papers 1000000] [--refs 100000] [--workers 1 2]
                                      [--partition-size 5000] [--seed 7]

Uses the seeded generator of ``benchmarks/resolve_speed.py`` (same catalog, same reference mix:
a third with identifiers, the rest noisy strings or structured fields, a tenth citing papers not
in the catalog). The references are written as JSON Lines shards and read *by the workers*
(``dask.bag.read_text``), as a real run over a snapshot would: they never pass through the
client or the scheduler. Each worker count gets a fresh ``LocalCluster(processes=True,
threads_per_worker=1)``; the resolver is broadcast once (``client.scatter(broadcast=True)``).

Prints: catalog build time and pickled size, the single-process baseline (decode + parse +
resolve, no Dask), then per worker count the broadcast time, the resolve time and references/s
(cluster start-up excluded), whether the results equal the baseline, and each worker's RSS.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import pickle
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dask.bag as db
import psutil
import resolve_speed as rs  # the seeded generator of the resolver benchmark
from distributed import Client, LocalCluster, wait

import citeledger as cl
from citeledger.dask import resolve_bag


def encode(item: cl.Reference | str, conv: Any) -> str:
    if isinstance(item, str):
        return json.dumps({"raw": item})
    return json.dumps({"ref": conv.unstructure(item)})


def decode_partition(lines: Any) -> list[cl.Reference | str]:
    """Runs on the workers: JSON lines -> references (strings are parsed by resolve_partition)."""
    conv = cl.make_converter()
    out: list[cl.Reference | str] = []
    for line in lines:
        obj = json.loads(line)
        out.append(obj["raw"] if "raw" in obj else conv.structure(obj["ref"], cl.Reference))
    return out


def worker_rss_mb() -> float:
    return psutil.Process().memory_info().rss / 2**20


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--papers", type=int, default=1_000_000)
    ap.add_argument("--refs", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, nargs="*", default=[1, 2])
    ap.add_argument("--partition-size", type=int, default=5000, help="references per shard/task")
    args = ap.parse_args(argv)
    if len(args.workers) > 1:
        # One fresh process per cluster size: a second LocalCluster started in the process that
        # ran the first (the scheduler lives here, next to a 2.5 GB catalog and the first run's
        # results) measured 2 workers at half the speed of 1 with the 1M catalog, while a fresh
        # process measured 1.5-1.8x. Each run regenerates the same seeded catalog.
        rest = [
            f"--papers={args.papers}",
            f"--refs={args.refs}",
            f"--seed={args.seed}",
            f"--partition-size={args.partition_size}",
        ]
        for n in args.workers:
            subprocess.run([sys.executable, __file__, *rest, "--workers", str(n)], check=True)
        return 0

    rng = random.Random(args.seed)
    dist = rs.Distributions()
    t0 = time.perf_counter()
    papers = [rs.make_paper(rng, dist, i) for i in range(args.papers)]
    print(f"generated {len(papers):,} papers in {time.perf_counter() - t0:.1f}s")
    t0 = time.perf_counter()
    resolver = cl.Resolver(papers)
    print(f"catalog build {time.perf_counter() - t0:.1f}s")
    absent = [rs.make_paper(rng, dist, args.papers + i) for i in range(args.refs // 10)]
    items: list[cl.Reference | str] = []
    for _ in range(args.refs):
        pool = absent if rng.random() < 0.1 else papers
        ref, _kind = rs.make_ref(rng, pool[rng.randrange(len(pool))])
        items.append(ref)
    del papers, absent
    t0 = time.perf_counter()
    size = len(pickle.dumps(resolver, protocol=pickle.HIGHEST_PROTOCOL))
    print(f"resolver pickles to {size / 2**20:,.0f} MB in {time.perf_counter() - t0:.1f}s")
    print(f"client RSS {psutil.Process().memory_info().rss / 2**20:,.0f} MB")

    conv = cl.make_converter()
    with tempfile.TemporaryDirectory() as tmp:
        shards = []
        for k in range(0, len(items), args.partition_size):
            path = Path(tmp) / f"refs-{k // args.partition_size:05d}.jsonl"
            path.write_text(
                "".join(encode(it, conv) + "\n" for it in items[k : k + args.partition_size])
            )
            shards.append(str(path))
        print(f"{len(items):,} references in {len(shards)} shards of {args.partition_size:,}")

        # Baseline: the same per-item work (decode, parse, resolve) in this process, no Dask.
        t0 = time.perf_counter()
        baseline: list[cl.Resolution] = []
        for shard in shards:
            with Path(shard).open(encoding="utf-8") as fh:
                refs = decode_partition(fh)
            baseline.extend(
                resolver.resolve_many(
                    [cl.Reference.from_string(r) if isinstance(r, str) else r for r in refs]
                )
            )
        took = time.perf_counter() - t0
        print(f"single process, no Dask: {took:.1f}s, {len(items) / took:,.0f} refs/s")

        # LocalCluster runs its scheduler in this process, next to the catalog, the baseline and
        # every gathered result (millions of objects): a full garbage collection here stalls the
        # scheduler thread and, with it, the whole cluster. Move what exists now out of the
        # collector's reach (Python docs: gc.freeze), as resolve_many does in its workers.
        gc.collect()
        gc.freeze()
        for n in args.workers:
            t0 = time.perf_counter()
            with (
                LocalCluster(
                    n_workers=n,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    memory_limit=None,
                ) as cluster,
                Client(cluster) as client,
            ):
                started = time.perf_counter() - t0
                idle = sorted(client.run(worker_rss_mb).values())
                t0 = time.perf_counter()
                future = client.scatter(resolver, broadcast=True, hash=False)
                client.wait_for_workers(n)
                scattered = time.perf_counter() - t0
                bag = db.read_text(shards, blocksize=None).map_partitions(decode_partition)
                # Resolve, keeping the results on the workers (as a pipeline that writes them
                # from the workers does); then, timed apart, bring every result to this process
                # to check it against the baseline.
                t0 = time.perf_counter()
                resolved = resolve_bag(bag, future, client=client).persist()
                wait(resolved)
                took = time.perf_counter() - t0
                t0 = time.perf_counter()
                parts = client.gather(client.compute(resolved.to_delayed()))
                gathered = time.perf_counter() - t0
                results = [res for part in parts for res in part]
                rss = sorted(client.run(worker_rss_mb).values())
            same = results == baseline
            del results, parts, resolved
            print(
                f"dask {n} worker(s): start {started:.1f}s, broadcast {scattered:.1f}s, "
                f"resolve {took:.1f}s = {len(items) / took:,.0f} refs/s "
                f"({len(items) / took / n:,.0f} per worker); gathering every result to the "
                f"client {gathered:.1f}s; equal to baseline: {same}"
            )
            print(
                "  worker RSS idle "
                + ", ".join(f"{r:,.0f}" for r in idle)
                + " MB; after "
                + ", ".join(f"{r:,.0f}" for r in rss)
                + " MB"
            )
    print(f"cpu count {os.cpu_count()}; load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
