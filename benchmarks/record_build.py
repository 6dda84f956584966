"""Benchmark: build a citation record with 10,000 inbound observations from a synthetic source.

    python benchmarks/record_build.py [N]

Reports wall time of build_record, of to_json and of render("text"), and peak traced memory
(tracemalloc) plus the process's max RSS. The source is in memory (no I/O): this measures the
ledger itself (grouping, notice checks, coverage), not the network.
"""

from __future__ import annotations

import datetime as dt
import resource
import sys
import time
import tracemalloc
from typing import TYPE_CHECKING, Any

import citeledger as cl
from citeledger.sources import Paged

if TYPE_CHECKING:
    from collections.abc import Iterator

NOW = dt.datetime(2026, 8, 8, tzinfo=dt.UTC)
CITED = cl.Paper(identifiers=["arXiv:2104.07857"], title="ZeRO-Infinity", year=2021)


def _page(start: int, stop: int) -> list[cl.Observation]:
    page = []
    for i in range(start, stop):
        citing = cl.Paper(
            identifiers=[f"doi:10.5555/bench.{i}"],
            title=f"Synthetic citing paper {i} on memory efficient training",
            year=2021 + i % 6,
            authors=[f"Author{i % 97} Person"],
            areas=["cs.LG" if i % 3 else "cs.CL"],
        )
        state = "verified_exact" if i % 5 else "unresolved"
        res = cl.Resolution(
            state=state, method="doi" if i % 5 else None, target=CITED if i % 5 else None
        )
        page.append(
            cl.Observation(
                direction="inbound",
                citing=citing,
                cited=CITED,
                position=1 + i % 80,
                resolution=res,
                source="synthetic",
                observed=NOW,
            )
        )
    return page


class SyntheticSource:
    name = "synthetic"
    capabilities = frozenset(cl.Capability)

    def __init__(self, n: int) -> None:
        self.n = n
        # Observations are made once, up front, so the timings below measure the ledger only.
        self.pages = [_page(start, min(n, start + 500)) for start in range(0, n, 500)]

    def paper(self, identifier: Any) -> cl.Paper:
        return cl.Paper(
            identifiers=["arXiv:2104.07857v1"],
            title="ZeRO-Infinity",
            year=2021,
            authors=["Samyam Rajbhandari"],
        )

    def references(self, identifier: Any) -> list[cl.Reference]:
        return []

    def citations(self, identifier: Any) -> Paged[cl.Observation]:
        pages = self.pages

        def gen() -> Iterator[tuple[list[cl.Observation], int | None]]:
            for page in pages:
                yield page, self.n

        return Paged(gen())

    def events(self, identifier: Any) -> cl.NoticeCheck:
        return cl.NoticeCheck.none_found(sources=[self.name], checked=NOW)

    def citation_counts(self, identifier: Any) -> list[cl.Measurement]:
        return [cl.Measurement(value=self.n, source=self.name, observed=NOW)]

    def search(self, query: Any, *, limit: int = 10) -> list[cl.Paper]:
        return []


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    t = time.perf_counter()
    src = SyntheticSource(n)
    made = time.perf_counter() - t
    builds = []
    for _ in range(3):  # best of 3, without tracemalloc (it slows Python code several-fold)
        t0 = time.perf_counter()
        record = cl.build_record("arXiv:2104.07857", [src], now=NOW)
        builds.append(time.perf_counter() - t0)
    tracemalloc.start()
    cl.build_record("arXiv:2104.07857", [src], now=NOW)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    t2 = time.perf_counter()
    text = record.to_json()
    t3 = time.perf_counter()
    rendered = record.render("text")
    t4 = time.perf_counter()
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cov = record.coverage_of(cl.Facet.INBOUND_ITEMIZATION)
    print(f"inbound observations:     {len(record.inbound):,} ({cov.describe()})")
    print(f"distinct citing works:    {len(record.citing_works):,}")
    print(f"making the observations:  {made:.2f} s (the synthetic source, not timed below)")
    print(f"build_record:             {min(builds):.2f} s (best of 3)")
    print(f"peak traced memory:       {peak / 2**20:.1f} MiB (tracemalloc, during build_record)")
    print(f"to_json:                  {t3 - t2:.2f} s, {len(text) / 2**20:.1f} MiB of JSON")
    print(f"render('text'):           {t4 - t3:.2f} s, {len(rendered) / 2**20:.1f} MiB")
    print(f"max RSS of the process:   {rss_kb / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
