"""Resolve the references of an OpenAlex snapshot on a Dask cluster.

Reads works in the OpenAlex snapshot format (JSON Lines, gzip or plain: ``data/works/
updated_date=*/part_*.gz`` or your own extract), builds the catalog from them, resolves every
work's ``referenced_works`` on a ``dask.distributed.LocalCluster``, and writes one row per
reference as JSON Lines (and Parquet when pyarrow is installed). Columns: ``citing``,
``position``, ``identifiers`` and citeledger.frames.RESULT_COLUMNS (``state``, ``method``,
``score``, ``target_key``, ...).

Usage::

    python examples/dask_resolve.py                      # generate 2,000 works, resolve, write to a temp dir
    python examples/dask_resolve.py --generate 50000 --workers 2
    python examples/dask_resolve.py path/to/works/ --out results/
    python examples/dask_resolve.py works.jsonl --scheduler tcp://scheduler:8786   # a real cluster

Output goes to ``--out`` (default: a new temporary directory, printed; never the checkout). The
Dask dashboard's address is printed when the cluster starts, and a progress bar runs on a
terminal. Needs the ``dask`` extra: ``pip install -e ".[dask]"`` from a checkout. Runs offline.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import dask.bag as db
import pandas as pd
from distributed import Client, LocalCluster, progress

import citeledger as cl
from citeledger.dask import resolve_dataframe
from citeledger.formats.dumps import iter_openalex_works
from citeledger.sources.openalex import work_from_json

WORDS = [
    "adaptive",
    "attention",
    "bayesian",
    "boosting",
    "causal",
    "compression",
    "contrastive",
    "convolutional",
    "data",
    "deep",
    "diffusion",
    "distributed",
    "efficient",
    "embedding",
    "federated",
    "generative",
    "graph",
    "hierarchical",
    "inference",
    "kernel",
    "language",
    "large",
    "latent",
    "learning",
    "memory",
    "meta",
    "model",
    "models",
    "multimodal",
    "network",
    "networks",
    "neural",
    "optimization",
    "parallel",
    "pretraining",
    "probabilistic",
    "quantization",
    "reinforcement",
    "representation",
    "retrieval",
    "robust",
    "scalable",
    "segmentation",
    "semantic",
    "sparse",
    "spectral",
    "stochastic",
    "streaming",
    "structured",
    "temporal",
    "training",
    "transformer",
    "uncertainty",
    "unsupervised",
    "variational",
    "vision",
]
FAMILIES = [
    "Smith",
    "Chen",
    "Wang",
    "Garcia",
    "Müller",
    "Rossi",
    "Tanaka",
    "Kowalski",
    "Nguyen",
    "Okafor",
    "Silva",
    "Haddad",
    "Novak",
    "Ivanova",
    "Dubois",
    "Larsen",
    "Kim",
    "Patel",
    "Cohen",
    "Andersson",
    "Moreau",
    "Yilmaz",
    "Costa",
    "Sato",
]
GIVEN = [
    "Alex",
    "Bo",
    "Carla",
    "Dmitri",
    "Eun",
    "Farah",
    "Gita",
    "Hugo",
    "Ines",
    "Jun",
    "Kofi",
    "Lena",
    "Mei",
    "Nils",
    "Omar",
    "Pia",
]
TOPICS = (
    "Machine learning",
    "Natural language processing",
    "Computer vision",
    "Distributed computing",
    "Bioinformatics",
    "Statistics",
)


def generate_works(n: int, seed: int = 7) -> list[dict[str, Any]]:
    """``n`` works in the OpenAlex snapshot format; references point at earlier works (and a few
    at works outside the extract, as real snapshots slices do).
    """
    rng = random.Random(seed)
    works: list[dict[str, Any]] = []
    for i in range(n):
        wid = f"https://openalex.org/W{3_000_000_000 + i}"
        year = rng.randint(1998, 2025)
        title = " ".join(rng.sample(WORDS, rng.randint(5, 11))).capitalize()
        refs = [works[j]["id"] for j in sorted(rng.sample(range(i), min(i, rng.randint(3, 25))))]
        if rng.random() < 0.2:  # a work outside this extract: resolves to nothing
            refs.append(f"https://openalex.org/W{2_000_000_000 + rng.randrange(10**6)}")
        topic = rng.choice(TOPICS)
        work = {
            "id": wid,
            "doi": f"https://doi.org/10.5555/dask-example.{i}" if rng.random() < 0.7 else None,
            "title": title,
            "display_name": title,
            "publication_year": year,
            "publication_date": f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            "type": "article",
            "ids": {"openalex": wid},
            "authorships": [
                {"author": {"display_name": f"{rng.choice(GIVEN)} {rng.choice(FAMILIES)}"}}
                for _ in range(rng.randint(1, 6))
            ],
            "primary_location": {
                "source": {"display_name": rng.choice(["NeurIPS", "ICML", "JMLR"])}
            },
            "biblio": {"volume": str(rng.randint(1, 40)), "first_page": str(rng.randint(1, 900))},
            "primary_topic": {"display_name": topic},
            "topics": [{"display_name": topic}],
            "referenced_works": refs,
            "referenced_works_count": len(refs),
            "cited_by_count": 0,
            "counts_by_year": [],
        }
        works.append(work)
    return works


def write_works(works: list[dict[str, Any]], directory: Path, parts: int = 8) -> None:
    """Write ``works`` as ``part_000.gz`` ... like the snapshot's ``updated_date=*/part_*.gz``."""
    directory.mkdir(parents=True, exist_ok=True)
    for k in range(parts):
        with gzip.open(directory / f"part_{k:03d}.gz", "wt", encoding="utf-8") as fh:
            for work in works[k::parts]:
                fh.write(json.dumps(work) + "\n")


def references_of(line: str) -> list[dict[str, Any]]:
    """One row per reference of one snapshot line; runs on the workers."""
    work = work_from_json(json.loads(line))
    return [
        {
            "citing": str(work.id),
            "position": ref.position,
            "identifiers": " ".join(str(i) for i in ref.identifiers),
        }
        for ref in work.references
    ]


def shard_files(path: Path) -> list[str]:
    if path.is_dir():
        return sorted(str(p) for p in path.rglob("*") if p.suffix in {".gz", ".jsonl", ".json"})
    return [str(path)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("works", nargs="?", type=Path, help="OpenAlex works: a file or a directory")
    ap.add_argument("--generate", type=int, default=2000, help="works to generate without a path")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument(
        "--out", type=Path, help="output directory (default: a new temporary directory)"
    )
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes")
    ap.add_argument(
        "--scheduler", help="address of an existing scheduler instead of a LocalCluster"
    )
    args = ap.parse_args(argv)
    if args.out is None:
        args.out = Path(tempfile.mkdtemp(prefix="citeledger-dask-"))
    args.out.mkdir(parents=True, exist_ok=True)
    print(f"writing to {args.out}/")

    path = args.works
    if path is None:
        path = args.out / "works"
        write_works(generate_works(args.generate, args.seed), path)
        print(f"generated {args.generate} works in the OpenAlex snapshot format under {path}/")

    t0 = time.perf_counter()
    # The catalog is built here, streaming; the resolver is then broadcast to each worker once.
    resolver = cl.Resolver(w.paper for w in iter_openalex_works(path, parse=work_from_json))
    t1 = time.perf_counter()
    print(f"catalog of {len(resolver.catalog or ())} works built in {t1 - t0:.1f} s")

    if args.scheduler:
        cluster = None
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True)
        client = Client(cluster)
    print(f"Dask dashboard: {client.dashboard_link}")
    try:
        # The workers read the shards themselves: millions of references never pass through
        # this process or the scheduler. One partition per shard file.
        rows = db.read_text(shard_files(path)).map(references_of).flatten()
        meta = pd.DataFrame(
            {
                "citing": pd.Series(dtype="string"),
                "position": pd.Series(dtype="Int64"),
                "identifiers": pd.Series(dtype="string"),
            }
        )
        resolved = resolve_dataframe(rows.to_dataframe(meta=meta), resolver, client=client)
        resolved = resolved.persist()
        if sys.stdout.isatty():  # a bar for a person watching; logs stay clean
            progress(resolved)
            print()
        # Per-partition counts, summed here: a reduction without a shuffle.
        per_part = resolved.map_partitions(
            lambda df: df["state"].value_counts(), meta=pd.Series(dtype="int64", name="count")
        )
        counts = per_part.compute().groupby(level=0).sum()
        total = int(counts.sum())
        t2 = time.perf_counter()
        print(f"resolved {total} references in {t2 - t1:.1f} s ({total / (t2 - t1):,.0f}/s)")
        jsonl = resolved.to_json(
            str(args.out / "resolutions-*.jsonl"), orient="records", lines=True
        )
        print(f"wrote {len(jsonl)} JSON Lines files: {args.out}/resolutions-*.jsonl")
        if importlib.util.find_spec("pyarrow") is not None:
            resolved.to_parquet(str(args.out / "resolutions.parquet"), write_index=False)
            print(f"wrote {args.out}/resolutions.parquet/")
        else:
            print("pyarrow not installed: skipped Parquet", file=sys.stderr)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    for state, count in counts.sort_values(ascending=False).items():
        print(f"  {state:22} {count:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
