"""Resolve millions of references, and build many records, on a Dask cluster.

citeledger builds no cluster of its own: it runs on Dask (the ``dask`` extra). The same code
runs on a laptop's :class:`~distributed.LocalCluster`, on an HPC batch system through
dask-jobqueue, or on Kubernetes through dask-kubernetes: only the :class:`~distributed.Client`
changes.

The resolver (with its catalog) is shipped to each worker **once**: with a distributed client it
is broadcast with ``client.scatter(resolver, broadcast=True)`` and every task refers to that one
copy; the tasks themselves carry only references. Results keep the input order, and a task
whose worker dies is simply run again elsewhere (Dask retries it), so a lost worker neither
loses nor duplicates results.

Example::

    import dask.bag as db
    from distributed import Client, LocalCluster
    import citeledger as cl
    from citeledger.dask import resolve_bag

    resolver = cl.Resolver(papers)
    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
        refs = db.from_sequence(reference_strings, partition_size=5_000)
        resolutions = resolve_bag(refs, resolver, client=client).compute()

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

try:
    import dask.bag as db
    import pandas as pd
    from dask.delayed import delayed
except ImportError as exc:  # pragma: no cover - exercised without the extra
    msg = "citeledger.dask needs the dask extra: pip install 'citeledger[dask]'"
    raise ImportError(msg) from exc

from citeledger._progress import Progress, progress_callback
from citeledger.frames import RESULT_COLUMNS, reference_from_row, result_row
from citeledger.model import Reference, Resolution

if TYPE_CHECKING:
    from distributed import Client, Future

__all__ = [
    "as_reference",
    "build_records",
    "resolve_bag",
    "resolve_dataframe",
    "resolve_partition",
    "scatter_resolver",
]


def _client(client: Client | None) -> Client | None:
    """The given client, else the default distributed client if one is running, else None."""
    if client is not None:
        return client
    try:
        from distributed import default_client  # noqa: PLC0415 - distributed is optional
    except ImportError:  # pragma: no cover - dask without distributed
        return None
    try:
        found: Client = default_client()
    except ValueError:  # no client has been started
        return None
    return found


def _is_future(value: object) -> bool:
    try:
        from distributed import Future  # noqa: PLC0415 - distributed is optional
    except ImportError:  # pragma: no cover - dask without distributed
        return False
    return isinstance(value, Future)


def scatter_resolver(resolver: Any, client: Client) -> Future[Any]:
    """Broadcast ``resolver`` to every worker of ``client`` once and return its future.

    Pass the future instead of the resolver to :func:`resolve_bag` / :func:`resolve_dataframe`
    to reuse one broadcast across many calls. Workers that join later fetch it from a peer.

    Args:
        resolver: A :class:`~citeledger.resolve.Resolver` (anything with ``resolve_many``).
        client: A distributed client.

    Returns:
        A :class:`distributed.Future` of the resolver.
    """
    # hash=False: a random key, so the (large) catalog is never tokenised just to name it.
    future: Future[Any] = client.scatter(resolver, broadcast=True, hash=False)
    return future


def _shipped(resolver: Any, client: Client | None) -> Any:
    """What the tasks receive: a scattered future, or one named delayed value locally."""
    if _is_future(resolver):
        return resolver
    if client is not None:
        return scatter_resolver(resolver, client)
    # No distributed client: one graph node holds the resolver (threads share it in memory).
    # Naming it skips tokenising the whole catalog.
    return delayed(resolver, name=f"citeledger-resolver-{uuid.uuid4().hex}")


def as_reference(item: Reference | str | Mapping[str, Any]) -> Reference:
    """Coerce one bag item to a :class:`~citeledger.model.Reference`.

    Args:
        item: A reference, a reference string (parsed with :meth:`Reference.from_string`), or a
            mapping of reference fields (see :func:`citeledger.frames.reference_from_row`).

    Returns:
        The reference.
    """
    if isinstance(item, Reference):
        return item
    if isinstance(item, str):
        return Reference.from_string(item)
    if isinstance(item, Mapping):
        return reference_from_row(item)
    msg = f"cannot resolve a {type(item).__name__}; give References, strings or mappings"
    raise TypeError(msg)


def resolve_partition(items: Iterable[object], resolver: Any) -> list[Resolution]:
    """Resolve one partition of references with ``resolver.resolve_many``, in order.

    This is the function each Dask task runs; it is public so other engines (Spark's
    ``mapInPandas``, Ray, multiprocessing) can call it on their own batches.

    Args:
        items: References, reference strings or mappings.
        resolver: The resolver.

    Returns:
        One resolution per item, in order; an item that is not a reference gets a
        ``PARSE_UNCERTAIN`` result naming it.
    """
    # Anything that is not a reference, string or mapping is passed on as it is:
    # ``resolve_many`` gives that item a PARSE_UNCERTAIN result and keeps every other item.
    refs = [
        as_reference(item) if isinstance(item, (Reference, str, Mapping)) else item
        for item in items
    ]
    resolutions: list[Resolution] = resolver.resolve_many(refs, workers=1)
    return resolutions


def resolve_bag(bag: db.Bag, resolver: Any, *, client: Client | None = None) -> db.Bag:
    """Resolve every reference of a Dask bag; a lazy bag of resolutions in the same order.

    Args:
        bag: A bag of references, reference strings or mappings of reference fields.
        resolver: A resolver, or a future from :func:`scatter_resolver`.
        client: The distributed client (default: the running default client, if any; without
            one the bag runs on Dask's local scheduler and threads share the resolver).

    Returns:
        A bag of :class:`~citeledger.model.Resolution`, one per input item, same partitions.
    """
    shipped = _shipped(resolver, _client(client))
    resolved: db.Bag = bag.map_partitions(resolve_partition, shipped)
    return resolved


def _result_meta(frame: pd.DataFrame, prefix: str) -> pd.DataFrame:
    out = frame.iloc[:0].copy()
    for name, dtype in RESULT_COLUMNS:
        out[prefix + name] = pd.Series([], dtype=_pandas_dtype(dtype), index=out.index)
    return out


def _resolve_frame(
    frame: pd.DataFrame, resolver: Any, columns: Mapping[str, str] | None, prefix: str
) -> pd.DataFrame:
    rows = frame.to_dict("records")
    refs = [reference_from_row(row, columns=columns) for row in rows]
    results = resolver.resolve_many(refs, workers=1) if refs else []
    out = frame.copy()
    cells = [result_row(res) for res in results]
    for name, dtype in RESULT_COLUMNS:
        out[prefix + name] = pd.Series(
            [c[name] for c in cells], index=frame.index, dtype="object"
        ).astype(_pandas_dtype(dtype))
    return out


def _pandas_dtype(dtype: str) -> str:
    """A :data:`RESULT_COLUMNS` dtype in pandas: list columns hold Python lists (object)."""
    return "object" if dtype.startswith("list<") else dtype


def resolve_dataframe(
    ddf: Any,
    resolver: Any,
    *,
    columns: Mapping[str, str] | None = None,
    prefix: str = "",
    client: Client | None = None,
) -> Any:
    """Resolve one reference per row of a Dask (or pandas) DataFrame.

    Each row becomes a :class:`~citeledger.model.Reference` through
    :func:`citeledger.frames.reference_from_row`: a row with only ``raw`` text is parsed, a row
    with structured columns (``title``, ``authors``, ``year``, ``identifiers``, ...) is used as
    is. The result keeps every input column and index and appends the
    :data:`~citeledger.frames.RESULT_COLUMNS` (``state``, ``verified``, ``method``, ``score``,
    ``target_key``, ... with fixed dtypes), optionally prefixed.

    Args:
        ddf: A :class:`dask.dataframe.DataFrame` (a pandas DataFrame is converted to one
            partition per 10,000 rows).
        resolver: A resolver, or a future from :func:`scatter_resolver`.
        columns: Reference field -> column name where they differ, e.g. ``{"raw": "citation"}``.
        prefix: Prepended to the result column names (to avoid clashes with input columns).
        client: As for :func:`resolve_bag`.

    Returns:
        A lazy Dask DataFrame: the input columns followed by the result columns.

    Raises:
        ValueError: A result column name is already an input column.
    """
    import dask.dataframe as dd  # noqa: PLC0415 - heavy import, only when used

    if isinstance(ddf, pd.DataFrame):
        ddf = dd.from_pandas(ddf, chunksize=10_000, sort=False)
    clash = [prefix + name for name, _ in RESULT_COLUMNS if prefix + name in ddf.columns]
    if clash:
        msg = f"input already has result columns {clash}; pass prefix= (e.g. 'resolved_')"
        raise ValueError(msg)
    empty = pd.DataFrame(
        {c: pd.Series([], dtype=t) for c, t in ddf.dtypes.items()},
        index=pd.Index([], dtype=ddf.index.dtype),
    )
    meta = _result_meta(empty, prefix)
    shipped = _shipped(resolver, _client(client))
    return ddf.map_partitions(
        _resolve_frame, shipped, dict(columns or {}), prefix, meta=meta, align_dataframes=False
    )


def _build_one(paper_id: Any, sources: Any, kwargs: dict[str, Any]) -> Any:
    from citeledger.ledger import build_record  # noqa: PLC0415 - the ledger imports lazily

    return build_record(paper_id, sources, **kwargs)


def build_records(
    paper_ids: Sequence[Any],
    sources: Any,
    *,
    client: Client | None = None,
    progress: Progress = None,
    build: Callable[..., Any] | None = None,
    **kwargs: Any,
) -> list[Any]:
    """Build one citation record per paper id in parallel; records in ``paper_ids`` order.

    The sources (and a ``resolver=`` keyword, if given) are broadcast to the workers once; each
    task builds one record with :func:`citeledger.build_record`. A failing source never fails a
    record (the record says what it could not measure), so one bad paper does not stop the
    rest.

    Args:
        paper_ids: Identifiers of the papers (anything ``build_record`` accepts).
        sources: The sources, as ``build_record`` takes them; they must pickle.
        client: The distributed client (default: the running default client; without one the
            records are built on Dask's local threaded scheduler).
        progress: ``True`` for a bar, or a callable ``fn(done, total)``; see
            :mod:`citeledger._progress`.
        build: The builder to call instead of ``build_record`` (same signature).
        **kwargs: Passed to every ``build_record`` call (``resolver=``, ``now=``,
            ``inbound_cap=``).

    Returns:
        The records, one per paper id, in order.
    """
    ids = list(paper_ids)
    fn = _build_one if build is None else _call_build(build)
    advance, close = progress_callback(progress, total=len(ids), desc="building records")
    try:
        live = _client(client)
        if live is None:
            bag = db.from_sequence(ids, npartitions=max(1, min(len(ids), 64)))
            records: list[Any] = bag.map(fn, sources, kwargs).compute(scheduler="threads")
            advance(len(records))
            return records
        shipped_sources = live.scatter(sources, broadcast=True, hash=False)
        shipped_kwargs = dict(kwargs)
        if kwargs.get("resolver") is not None and not _is_future(kwargs["resolver"]):
            shipped_kwargs["resolver"] = scatter_resolver(kwargs["resolver"], live)
        futures = live.map(fn, ids, sources=shipped_sources, kwargs=shipped_kwargs, pure=False)
        from distributed import as_completed  # noqa: PLC0415 - distributed is optional

        # The client's own loop: the caller's client need not be the default one.
        for _ in as_completed(futures, loop=live.loop):
            advance(1)
        gathered: list[Any] = live.gather(futures)
        return gathered
    finally:
        close()


def _call_build(build: Callable[..., Any]) -> Callable[[Any, Any, dict[str, Any]], Any]:
    def call(paper_id: Any, sources: Any, kwargs: dict[str, Any]) -> Any:
        return build(paper_id, sources, **kwargs)

    return call
