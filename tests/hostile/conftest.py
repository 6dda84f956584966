"""A loopback HTTP server whose handlers script faults (endless cursors, drips, bombs...)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

Handler = Callable[[BaseHTTPRequestHandler], None]


class FaultServer:
    """Routes each request path to a scripted handler and records every request line."""

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
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def fault_server() -> Iterator[FaultServer]:
    """A fresh loopback fault server per test."""
    server = FaultServer()
    yield server
    server.close()


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
