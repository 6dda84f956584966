"""A loopback HTTP server whose handlers script faults, and the hostile inputs it serves.

Shared by the pytest suite (``tests/hostile/``) and the harness that re-runs every class of
hostile input outside pytest (``benchmarks/hostile_harness.py``), so that both script the same
faults: endless cursors, dripped bodies and headers, gzip bombs, redirects. It lives in the
package, not under ``tests/``, because the harness runs as a plain script from any directory,
where ``tests`` is not importable. Standard library only; nothing listens beyond 127.0.0.1.
Private: no part of the public API.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from citeledger.sources._transport import RetryPolicy

__all__ = [
    "HEX_REFERENCE_JATS",
    "FaultServer",
    "Handler",
    "crossref_page",
    "drip_body",
    "drip_headers",
    "fast",
    "reply",
]

#: A request handler: answers one request on the handler it is given.
Handler = Callable[[BaseHTTPRequestHandler], None]

#: A JATS reference list whose first DOI holds an escaped hexadecimal character reference
#: (``&amp;#x41;``): the document must still give both references.
HEX_REFERENCE_JATS = (
    b"<article><back><ref-list>"
    b'<ref id="r1"><mixed-citation>One. <pub-id pub-id-type="doi">10.1234/a&amp;#x41;'
    b"</pub-id></mixed-citation></ref>"
    b'<ref id="r2"><mixed-citation>Two.</mixed-citation></ref>'
    b"</ref-list></back></article>"
)


class FaultServer:
    """Routes each request path to a scripted handler and records every request.

    ``routes`` maps a path (without its query) to a :data:`Handler`; an unknown path is a 404.
    ``log`` holds each request's path and query, ``headers`` its headers (lower-cased names).
    """

    def __init__(self) -> None:
        self.routes: dict[str, Handler] = {}
        self.log: list[str] = []
        self.headers: list[dict[str, str]] = []
        server = self

        class _Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server.log.append(self.path)
                server.headers.append({k.lower(): v for k, v in self.headers.items()})
                route = server.routes.get(self.path.split("?", 1)[0])
                if route is None:
                    self.send_error(404)
                    return
                # The client giving up mid-answer is the expected end of many faults.
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    route(self)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def reset(self) -> None:
        """Forget every route and every request seen."""
        self.routes.clear()
        self.log.clear()
        self.headers.clear()

    def close(self) -> None:
        """Stop serving and release the port."""
        self.httpd.shutdown()
        self.httpd.server_close()


def reply(
    handler: BaseHTTPRequestHandler,
    body: bytes,
    *,
    status: int = 200,
    content_type: str = "application/json",
    headers: dict[str, str] | None = None,
) -> None:
    """Send a complete answer."""
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    for k, v in (headers or {}).items():
        handler.send_header(k, v)
    handler.end_headers()
    handler.wfile.write(body)


def drip_body(handler: BaseHTTPRequestHandler, *, size: int = 100, interval: float = 0.1) -> None:
    """Announce ``size`` bytes and send them one every ``interval`` seconds (10 s by default)."""
    handler.send_response(200)
    handler.send_header("Content-Length", str(size))
    handler.end_headers()
    for _ in range(size):
        handler.wfile.write(b"x")
        handler.wfile.flush()
        time.sleep(interval)


def drip_headers(handler: BaseHTTPRequestHandler, *, interval: float, body: bytes = b"{}") -> None:
    """Send the status line and headers one byte every ``interval`` seconds, then ``body``.

    Every byte resets a per-read timeout: only a deadline on the whole attempt bounds this.
    The drip ends when the client goes away (a write fails) or after a minute at most.
    """
    head = (
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        f"X-Padding: {'p' * 40}\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    handler.close_connection = True
    deadline = time.monotonic() + 60
    for i in range(len(head)):
        if time.monotonic() > deadline:
            return
        handler.wfile.write(head[i : i + 1])
        handler.wfile.flush()
        time.sleep(interval)
    handler.wfile.write(body)


def fast(**options: Any) -> RetryPolicy:
    """A policy with short deadlines and no backoff, so faults are cheap to run."""
    base: dict[str, Any] = {
        "max_attempts": 2,
        "backoff_base": 0.0,
        "jitter": False,
        "connect_timeout": 1.0,
        "read_timeout": 1.0,
        "attempt_deadline": 1.0,
        "call_deadline": 3.0,
    }
    base.update(options)
    return RetryPolicy(**base)


def crossref_page(n: int, start: int, cursor: str, total: int | None = None) -> bytes:
    """A Crossref work-list page of ``n`` works numbered from ``start``, with its next cursor."""
    items = [{"DOI": f"10.1000/w{start + i}", "title": [f"Work {start + i}"]} for i in range(n)]
    message: dict[str, Any] = {"items": items, "next-cursor": cursor}
    if total is not None:
        message["total-results"] = total
    return json.dumps({"status": "ok", "message-type": "work-list", "message": message}).encode()
