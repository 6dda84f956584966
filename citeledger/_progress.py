"""One progress helper for every long-running call (resolve_many, dump readers, record building).

Every such call takes ``progress=``:

* ``None`` or ``False`` (the default): no output at all, so scripts, CI logs and notebooks stay
  quiet unless asked;
* ``True``: a tqdm bar when tqdm is installed (the ``progress`` extra), else a plain line on
  standard error at most once a second; tqdm itself hides the bar when standard error is not a
  terminal, so ``progress=True`` in a cron job writes nothing;
* a callable ``fn(done, total)``: called as work advances with the number of items done so far
  and the total when it is known (``None`` for a stream), e.g. to feed a GUI or a log.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from typing import TextIO

__all__ = ["Progress", "ProgressCallback", "progress_callback"]

#: A user callback: ``fn(done, total)``; ``total`` is None when the size is unknown.
ProgressCallback: TypeAlias = Callable[[int, int | None], None]
#: What every ``progress=`` parameter accepts.
Progress: TypeAlias = bool | ProgressCallback | None

#: Seconds between two lines of the plain-text fallback, so a log is not flooded.
_TEXT_INTERVAL = 1.0


def _noop_advance(n: int = 1) -> None:  # noqa: ARG001 - same signature as a real advance
    return None


def _noop_close() -> None:
    return None


def progress_callback(
    progress: Progress,
    *,
    total: int | None,
    desc: str,
    stream: TextIO | None = None,
) -> tuple[Callable[[int], None], Callable[[], None]]:
    """Turn a ``progress=`` argument into an ``advance(n)`` and a ``close()`` function.

    Call ``advance(n)`` after each ``n`` items are done and ``close()`` once at the end (also on
    error: use ``try``/``finally``).

    Args:
        progress: ``None``/``False`` (silent), ``True`` (tqdm, or a text line without tqdm), or a
            callable ``fn(done, total)``.
        total: The number of items, or None for a stream of unknown length.
        desc: A short label for the bar ("resolving").
        stream: Where ``True`` writes (default: standard error).

    Returns:
        ``(advance, close)``.

    Example:
        >>> seen = []
        >>> advance, close = progress_callback(lambda d, t: seen.append((d, t)), total=3, desc="x")
        >>> advance(1)
        >>> advance(2)
        >>> close()
        >>> seen
        [(1, 3), (3, 3)]
    """
    if progress is None or progress is False:
        return _noop_advance, _noop_close
    if progress is True:
        return _bar(total=total, desc=desc, stream=stream)
    if not callable(progress):
        msg = f"progress must be None, a bool or a callable fn(done, total), got {progress!r}"
        raise TypeError(msg)
    return _calling(progress, total=total)


def _calling(
    fn: ProgressCallback, *, total: int | None
) -> tuple[Callable[[int], None], Callable[[], None]]:
    done = 0

    def advance(n: int = 1) -> None:
        nonlocal done
        done += n
        fn(done, total)

    return advance, _noop_close


def _bar(
    *, total: int | None, desc: str, stream: TextIO | None
) -> tuple[Callable[[int], None], Callable[[], None]]:
    try:
        from tqdm.auto import tqdm  # noqa: PLC0415 - optional extra, imported on demand
    except ImportError:
        return _text(total=total, desc=desc, stream=stream)
    # disable=None: tqdm turns itself off when the stream is not a terminal (CI, cron, pipes).
    bar: Any = tqdm(total=total, desc=desc, unit="it", file=stream, disable=None, leave=False)
    return bar.update, bar.close


def _text(
    *, total: int | None, desc: str, stream: TextIO | None
) -> tuple[Callable[[int], None], Callable[[], None]]:
    out = stream if stream is not None else sys.stderr
    done = 0
    last = 0.0
    interactive = bool(getattr(out, "isatty", lambda: False)())

    def line() -> str:
        of = "" if total is None else f"/{total}"
        return f"{desc}: {done}{of}"

    def advance(n: int = 1) -> None:
        nonlocal done, last
        done += n
        now = time.monotonic()
        if interactive and now - last >= _TEXT_INTERVAL:
            last = now
            out.write("\r" + line())
            out.flush()

    def close() -> None:
        if interactive:
            out.write("\r" + line() + "\n")
            out.flush()

    return advance, close
