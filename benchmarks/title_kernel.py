"""Micro-benchmark of the resolver's candidate stage: the C title kernel vs Python vs today.

Builds a catalog from the shared resolver workload (``../shared/bench/speed.py gen`` writes one:
``python ../shared/bench/speed.py gen ../shared/data/matching-dev /tmp/speed-200k.json 200000
5000``), takes the posting lists the catalog's blocking picks for each reference title, and times
per title, in one run (CPU time, ``time.process_time``):

* ``today``: ``Catalog.scored_candidates(title, limit=10, ordered=False)`` (blocking with sets,
  then ``process.extract``) plus the resolver's window of 30 below the best;
* ``today_scoring``: the same minus the choice of lists (ids precomputed: gather titles,
  ``process.extract``, the limit rule, the window);
* ``lists``: choosing the posting lists alone (what any path pays before scoring);
* ``python_top`` / ``c_top``: ``PyTitleTable.top`` / the compiled ``TitleTable.top`` on those lists.

Every title's results are checked equal between the three paths before timing.

Usage: python benchmarks/title_kernel.py [/tmp/speed-200k.json] [N_QUERIES] [REPEAT]
"""

# The benchmark measures the catalog's internals (posting lists, stored titles) on purpose.
# ruff: noqa: SLF001

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from citeledger.resolve import _titles
from citeledger.resolve.catalog import Catalog
from citeledger.resolve.normalize import normalize_title

if TYPE_CHECKING:
    from array import array

LIMIT, CUTOFF, WINDOW = 10, 50.0, 30.0


def blocking_lists(cat: Catalog, title: str) -> tuple[list[array[int]], int]:
    """The posting lists ``Catalog._blocking`` unions (mode 0) or takes two of three of (mode 1)."""
    chosen = cat._blocking_lists(title)
    return ([], 0) if chosen is None else chosen


def today(cat: Catalog, title: str) -> list[tuple[float, int]]:
    scored = cat.scored_candidates(title, limit=LIMIT, score_cutoff=CUTOFF, ordered=False)
    if scored:
        floor = scored[0][0] - WINDOW
        scored = [s for s in scored if s[0] >= floor]
    return scored


def today_scoring(titles: list[str], query: str, ids: list[int]) -> list[tuple[float, int]]:
    # PyTitleTable.top's scoring step on the catalog's blocked ids (no lists, no final sort)
    return _titles.scored_ids(titles, query, ids, LIMIT, CUTOFF, WINDOW)


def main() -> None:
    data = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/speed-200k.json")
    n_queries = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    d = json.loads(data.read_text())
    cat = Catalog.from_records({"title": p["title"]} for p in d["papers"])
    titles = cat._titles
    compiled_cls = _titles._compiled
    if compiled_cls is None:
        sys.exit("the C title kernel is not built: pip install -e . with a C compiler")
    c_table, py_table = compiled_cls(), _titles.PyTitleTable()
    for t in titles:
        c_table.append(t)
        py_table.append(t)
    queries = []
    for r in d["refs"]:
        title = normalize_title(r.get("title"))
        if title:
            queries.append(title)
        if len(queries) == n_queries:
            break
    prepared = []
    candidates = 0
    for title in queries:
        lists, mode = blocking_lists(cat, title)
        ids = cat._blocking(title)
        counts = Counter(i for arr in lists for i in arr)
        assert {i for i, n in counts.items() if n > mode} == set(ids)
        query = " ".join(sorted(title.split()))
        prepared.append((title, query, lists, mode, ids))
        candidates += len(ids)
        want = sorted(today(cat, title), key=lambda s: (-s[0], s[1]))
        assert sorted(today_scoring(titles, query, ids), key=lambda s: (-s[0], s[1])) == want
        assert py_table.top(query, lists, mode, LIMIT, CUTOFF, WINDOW) == want
        assert c_table.top(query, lists, mode, LIMIT, CUTOFF, WINDOW) == want

    def run_today() -> None:
        for title, *_ in prepared:
            today(cat, title)

    def run_today_scoring() -> None:
        for _, query, _, _, ids in prepared:
            today_scoring(titles, query, ids)

    def run_lists() -> None:
        for title, *_ in prepared:
            blocking_lists(cat, title)

    def run_py() -> None:
        top = py_table.top
        for _, query, lists, mode, _ in prepared:
            top(query, lists, mode, LIMIT, CUTOFF, WINDOW)

    def run_c() -> None:
        top = c_table.top
        for _, query, lists, mode, _ in prepared:
            top(query, lists, mode, LIMIT, CUTOFF, WINDOW)

    runs = {
        "today": run_today,
        "today_scoring": run_today_scoring,
        "lists": run_lists,
        "python_top": run_py,
        "c_top": run_c,
    }
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeat):
        for name, fn in runs.items():
            t0 = time.process_time()
            fn()
            best[name] = min(best[name], time.process_time() - t0)
    us = {name: round(1e6 * t / len(prepared), 1) for name, t in best.items()}
    print(
        json.dumps(
            {
                "papers": len(cat),
                "queries": len(prepared),
                "mean_candidates": round(candidates / len(prepared), 1),
                "us_per_title": us,
                "c_vs_today_scoring": round(us["today_scoring"] / us["c_top"], 1),
                "c_vs_python_top": round(us["python_top"] / us["c_top"], 1),
            }
        )
    )


if __name__ == "__main__":
    main()
