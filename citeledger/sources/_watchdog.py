"""The watchdog: a thread that cuts the connection of an attempt past its deadline.

The read timeout applies per read, so only a thread watching the clock bounds a server that
drips its status line, headers or body one byte at a time. Used by
:class:`~citeledger.sources._transport.RequestsTransport`.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Mapping
from typing import Any

import requests
import requests.adapters

__all__ = ["Watchdog", "watch_adapters"]

_WATCH_POLL = 0.05

#: The watchdog of each thread with an attempt in flight, by thread id: the instrumented pools
#: hand it each connection they give that thread.
_WATCHES: dict[int, Watchdog] = {}
_WATCHES_LOCK = threading.Lock()


class Watchdog:
    """Cuts the connection of one attempt when the attempt's deadline passes.

    The read timeout applies per read, so a server dripping its status line and headers one
    byte at a time holds ``session.send`` for as long as it likes. The watchdog is a helper
    thread that waits until the deadline, then shuts down the socket of the connection the
    attempt's thread took from the pool (the blocked read returns at once); the attempt then
    reports :class:`~citeledger.errors.DeadlineExceeded`. A connection still being opened when
    the deadline passes is cut as soon as it has a socket.

    :meth:`cancel` stops and joins the thread: call it in a ``finally``.
    """

    def __init__(self, seconds: float) -> None:
        self.fired = False
        self._ident = threading.get_ident()
        self._conns: list[Any] = []
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(max(seconds, 0.0),), name="citeledger-watchdog", daemon=True
        )
        with _WATCHES_LOCK:
            _WATCHES[self._ident] = self
        self._thread.start()

    def track(self, conn: Any) -> None:
        """Note a connection the attempt's thread took; cut it now if the deadline passed."""
        with self._lock:
            self._conns.append(conn)
            fired = self.fired
        if fired:
            _shut(conn)

    def _run(self, seconds: float) -> None:
        if self._done.wait(seconds):
            return
        with self._lock:
            self.fired = True
        while True:
            with self._lock:
                conns = list(self._conns)
            for conn in conns:
                _shut(conn)
            if self._done.wait(_WATCH_POLL):
                return

    def cancel(self) -> None:
        """Stop the watchdog and wait for its thread to end."""
        with _WATCHES_LOCK:
            if _WATCHES.get(self._ident) is self:
                del _WATCHES[self._ident]
        self._done.set()
        self._thread.join()


def _shut(conn: Any) -> None:
    """Shut down the socket of ``conn`` (both ways) so a read blocked on it returns."""
    sock = getattr(conn, "sock", None)
    if sock is None:
        return
    with contextlib.suppress(OSError, ValueError):
        # socket.socket's own shutdown: an SSLSocket's would drop its TLS object under the
        # reading thread's feet.
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


def _watch_pool(pool: Any) -> Any:
    """Make ``pool`` (a urllib3 connection pool) hand the connections it gives to the watchdog.

    Only threads with a watchdog are affected; other users of the pool see no change.
    """
    if getattr(pool, "_citeledger_watched", False) or not hasattr(pool, "_get_conn"):
        return pool
    get_conn = pool._get_conn  # noqa: SLF001

    def _get_conn(*args: Any, **kwargs: Any) -> Any:
        conn = get_conn(*args, **kwargs)
        with _WATCHES_LOCK:
            watch = _WATCHES.get(threading.get_ident())
        if watch is not None:
            watch.track(conn)
        return conn

    with contextlib.suppress(AttributeError, TypeError):
        pool._get_conn = _get_conn  # noqa: SLF001
        pool._citeledger_watched = True  # noqa: SLF001
    return pool


#: The HTTPAdapter methods that hand a request its connection pool (requests >= 2.32.2, older).
_POOL_GETTERS = ("get_connection_with_tls_context", "get_connection")


def _watching(getter: Callable[..., Any]) -> Callable[..., Any]:
    def _wrapped(*args: Any, **kwargs: Any) -> Any:
        return _watch_pool(getter(*args, **kwargs))

    return _wrapped


def watch_adapters(session: requests.Session) -> None:
    """Make every HTTPAdapter of ``session`` instrument the pools it uses (see _watch_pool)."""
    adapters = getattr(session, "adapters", None)  # a duck-typed session may have none
    if not isinstance(adapters, Mapping):
        return
    for adapter in list(adapters.values()):
        if not isinstance(adapter, requests.adapters.HTTPAdapter) or getattr(
            adapter, "_citeledger_watched", False
        ):
            continue
        for name in _POOL_GETTERS:
            getter = getattr(adapter, name, None)
            if getter is None:
                continue

            setattr(adapter, name, _watching(getter))
            break
        adapter._citeledger_watched = True  # type: ignore[attr-defined]  # noqa: SLF001
