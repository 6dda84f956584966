"""citeledger.dask on a real two-process LocalCluster: same results as resolve_many, in order,
with the resolver shipped once per worker, and no lost or duplicated results when a worker dies.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("dask")
pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")

import dask.bag as db  # noqa: E402 - after the skips
import dask.dataframe as dd  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

import citeledger as cl  # noqa: E402
from citeledger.dask import (  # noqa: E402
    as_reference,
    build_records,
    resolve_bag,
    resolve_dataframe,
    scatter_resolver,
)
from citeledger.frames import RESULT_COLUMNS, reference_from_row, result_row  # noqa: E402

pytestmark = [
    pytest.mark.slow,
    # distributed closes its comms and event loops from other threads and at interpreter exit;
    # these are its own housekeeping warnings, not citeledger's.
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore:.*unclosed.*:pytest.PytestUnraisableExceptionWarning"),
    # The scheduler's HTTP server (health checks) falls back to a free port when another
    # cluster (the module's) holds 8787, and says so in a UserWarning.
    pytest.mark.filterwarnings("ignore:Port 8787 is already in use:UserWarning"),
]

#: The Dask example script (examples/dask_resolve.py), loaded as a module: its vocabulary makes
#: this test's corpus too, so the two stay one list.
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "dask_resolve.py"


def _load_example() -> Any:
    spec = importlib.util.spec_from_file_location("dask_resolve_example", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_EXAMPLE = _load_example()
_WORDS: list[str] = _EXAMPLE.WORDS
_FAMILIES: list[str] = _EXAMPLE.FAMILIES


def _title(rng: random.Random) -> str:
    return " ".join(rng.sample(_WORDS, rng.randint(5, 9))).capitalize()


def _corpus(seed: int = 7) -> tuple[list[cl.Paper], list[Any]]:
    """A small seeded catalog and a mix of references: identifier, structured, string, absent."""
    rng = random.Random(seed)
    papers = []
    for i in range(300):
        ids = []
        if i % 2 == 0:
            ids.append(f"doi:10.5555/cl.{i}")
        if i % 3 == 0:
            ids.append(f"arXiv:2101.{10000 + i}")
        papers.append(
            cl.Paper(
                title=_title(rng),
                authors=[
                    f"{rng.choice('ABCDEFGHJK')}. {rng.choice(_FAMILIES)}"
                    for _ in range(rng.randint(1, 4))
                ],
                year=rng.randint(1995, 2024),
                venue=rng.choice(["NeurIPS", "ICML", "Nature", "J. Mach. Learn. Res."]),
                identifiers=ids,
            )
        )
    refs: list[Any] = []
    for n, paper in enumerate(rng.sample(papers, 120)):
        kind = n % 4
        if kind == 0 and paper.identifiers:
            refs.append(cl.Reference(identifiers=paper.identifiers[:1], position=n + 1))
        elif kind == 1:
            refs.append(
                cl.Reference(
                    title=paper.title.lower() if paper.title else None,
                    authors=paper.authors,
                    year=paper.year,
                    position=n + 1,
                )
            )
        elif kind == 2:
            names = ", ".join(f"{a.family} {a.given or ''}".strip(" .") for a in paper.authors)
            refs.append(f"{names}. {paper.title}. {paper.venue}. {paper.year}.")
        else:
            # A work the catalog does not hold.
            refs.append(cl.Reference(title=_title(rng), year=2020, authors=["Q. Nobody"]))
    return papers, refs


@pytest.fixture(scope="module")
def corpus() -> tuple[cl.Resolver, list[Any], list[cl.Resolution]]:
    papers, refs = _corpus()
    resolver = cl.Resolver(papers)
    expected = resolver.resolve_many([as_reference(r) for r in refs])
    states = {r.state for r in expected}
    # The mix must exercise more than one route, or equality would prove little.
    assert {cl.ResolutionState.VERIFIED_EXACT, cl.ResolutionState.VERIFIED_FUZZY} <= states
    assert cl.ResolutionState.UNRESOLVED in states
    return resolver, refs, expected


def _cluster() -> LocalCluster:
    return LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        scheduler_port=0,
        dashboard_address=None,  # no web server, no "port in use" warning
        # Worker scratch space in the temp dir, not a dask-scratch-space/ in the checkout.
        local_directory=tempfile.gettempdir(),
        silence_logs=logging.CRITICAL,
    )


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    # set_as_default=False: the local-scheduler tests below must not pick this client up.
    with _cluster() as cluster, Client(cluster, set_as_default=False) as c:
        yield c


def test_resolve_bag_equals_resolve_many(client: Client, corpus: Any) -> None:
    resolver, refs, expected = corpus
    bag = db.from_sequence(refs, npartitions=7)
    got = client.compute(resolve_bag(bag, resolver, client=client)).result(timeout=120)
    assert len(got) == len(expected)
    for i, (a, b) in enumerate(zip(got, expected, strict=True)):
        assert a == b, f"item {i} differs"


def test_scattered_future_is_reused(client: Client, corpus: Any) -> None:
    resolver, refs, expected = corpus
    future = scatter_resolver(resolver, client)
    assert len(client.who_has(future)[future.key]) == 2  # on both workers before any task
    first = client.compute(resolve_bag(db.from_sequence(refs[:40], npartitions=3), future))
    second = client.compute(resolve_bag(db.from_sequence(refs[40:], npartitions=3), future))
    assert first.result(timeout=120) + second.result(timeout=120) == expected


class CountingResolver:
    """Wraps a resolver; records the pid of every process that unpickles it."""

    def __init__(self, inner: cl.Resolver, log: Path) -> None:
        self.inner = inner
        self.log = log

    def __getstate__(self) -> dict[str, Any]:
        return {"inner": self.inner, "log": self.log}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.inner = state["inner"]
        self.log = state["log"]
        with self.log.open("a") as fh:
            fh.write(f"{os.getpid()}\n")

    def resolve_many(self, refs: list[cl.Reference], **kwargs: Any) -> list[cl.Resolution]:
        return self.inner.resolve_many(refs, **kwargs)


def test_resolver_is_shipped_once_per_worker(client: Client, corpus: Any, tmp_path: Path) -> None:
    resolver, refs, expected = corpus
    log = tmp_path / "unpickled.txt"
    counting = CountingResolver(resolver, log)
    bag = db.from_sequence(refs, npartitions=12)
    got = client.compute(resolve_bag(bag, counting, client=client)).result(timeout=120)
    assert got == expected
    pids = log.read_text().split()
    # 12 tasks, but the resolver was unpickled about once per worker process, not once per
    # task (per-task shipping gives 12). On a loaded machine Dask may deserialize the scattered
    # value a second time in one worker (a replica fetched while a task waits), so allow two
    # per worker, and never more than two workers' worth.
    assert 1 <= len(pids) <= 4
    assert all(pids.count(p) <= 2 for p in set(pids))
    assert len(set(pids)) <= 2


def _frame(refs: list[Any]) -> Any:
    rows = []
    for r in refs:
        if isinstance(r, str):
            rows.append({"raw": r, "title": None, "year": None, "identifiers": None})
        else:
            rows.append(
                {
                    "raw": None,
                    "title": r.title,
                    "year": r.year,
                    "identifiers": " ".join(str(i) for i in r.identifiers) or None,
                }
            )
    frame = pd.DataFrame(rows).astype(
        {"raw": "string", "title": "string", "year": "Int64", "identifiers": "string"}
    )
    frame["row"] = range(len(frame))
    return frame


def test_resolve_dataframe_equals_resolve_many(client: Client, corpus: Any) -> None:
    resolver, refs, _ = corpus
    frame = _frame(refs)
    expected = resolver.resolve_many([reference_from_row(r) for r in frame.to_dict("records")])
    ddf = dd.from_pandas(frame, npartitions=4)
    lazy = resolve_dataframe(ddf, resolver, client=client)
    assert list(lazy.columns) == [*frame.columns, *(n for n, _ in RESULT_COLUMNS)]
    got = client.compute(lazy).result(timeout=120)
    assert list(got["row"]) == list(range(len(frame)))  # order and index kept
    # List columns (identifiers, alternatives, evidence) hold Python lists: object in pandas.
    assert {n: str(t) for n, t in got.dtypes.items() if n in dict(RESULT_COLUMNS)} == {
        n: "object" if t.startswith("list<") else t for n, t in RESULT_COLUMNS
    }
    for i, res in enumerate(expected):
        row = got.iloc[i]
        for name, cell in result_row(res).items():
            value = row[name]
            if cell is None:
                assert pd.isna(value), (i, name)
            else:
                assert value == cell, (i, name)


def test_resolve_dataframe_refuses_clashing_columns(corpus: Any) -> None:
    resolver, _, _ = corpus
    frame = pd.DataFrame({"title": ["x"], "state": ["mine"]})
    with pytest.raises(ValueError, match="prefix"):
        resolve_dataframe(frame, resolver)
    out = resolve_dataframe(frame, resolver, prefix="r_").compute(scheduler="sync")
    assert list(out.columns) == ["title", "state", *("r_" + n for n, _ in RESULT_COLUMNS)]
    assert out["state"].tolist() == ["mine"]


def test_local_scheduler_without_client(corpus: Any) -> None:
    resolver, refs, expected = corpus
    got = resolve_bag(db.from_sequence(refs, npartitions=5), resolver).compute(scheduler="threads")
    assert got == expected


def test_a_bad_item_in_a_partition_keeps_every_other_item(corpus: Any) -> None:
    resolver, refs, expected = corpus
    items = [refs[0], None, refs[1]]
    got = resolve_bag(db.from_sequence(items, npartitions=1), resolver).compute(scheduler="sync")
    assert [got[0], got[2]] == expected[:2]
    assert got[1].state is cl.ResolutionState.PARSE_UNCERTAIN
    assert got[1].reason == "item 1 is a NoneType, not a reference: None"


def _die_once(partition: Iterator[Any], marker: Path) -> list[Any]:
    """Kill this worker process the first time any task runs it (a crash mid-run)."""
    items = list(partition)
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return items
    os.close(fd)
    os._exit(13)


def test_killed_worker_loses_and_duplicates_nothing(corpus: Any, tmp_path: Path) -> None:
    resolver, refs, expected = corpus
    marker = tmp_path / "killed"
    with _cluster() as cluster, Client(cluster, set_as_default=False) as c:
        before = set(c.run(os.getpid).values())
        bag = db.from_sequence(refs, npartitions=8).map_partitions(_die_once, marker)
        got = c.compute(resolve_bag(bag, resolver, client=c)).result(timeout=180)
        c.wait_for_workers(2, timeout=60)
        after = set(c.run(os.getpid).values())
    assert marker.exists()  # a task really killed its worker
    assert before != after  # the nanny replaced the dead process
    assert len(got) == len(expected)
    assert got == expected


def _fake_build(paper_id: str, sources: list[str], *, suffix: str) -> str:
    return f"{paper_id}:{'+'.join(sources)}:{suffix}"


def test_build_records_in_order(client: Client) -> None:
    ids = [f"arXiv:2104.{i:05d}" for i in range(25)]
    calls: list[tuple[int, int | None]] = []
    got = build_records(
        ids,
        ["a", "b"],
        client=client,
        build=_fake_build,
        suffix="x",
        progress=lambda d, t: calls.append((d, t)),
    )
    assert got == [f"{i}:a+b:x" for i in ids]
    assert calls[-1] == (25, 25)
    assert len(calls) == 25
    local = build_records(ids, ["a"], build=_fake_build, suffix="y")
    assert local == [f"{i}:a:y" for i in ids]
