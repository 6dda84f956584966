"""Time the inbound check against a local HTTP server: requests per citing work, s per 100.

    python benchmarks/inbound_check.py [N] [ENTRIES]

Serves an OpenAlex ``filter=cites:`` listing of N citing works (default 100) and, for each, a
Crossref ``/works/{doi}`` with ENTRIES deposited references (default 40, one of them the paper)
from a local server (pytest-httpserver), then builds the record through the real OpenAlex and
Crossref adapters with no pacing (``min_interval=0``) and prints the requests sent per citing
work and the build time, with and without ``check_inbound``. The real APIs add their pacing:
Crossref's default ``min_interval`` is 0.2 s, Semantic Scholar's 1 s.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

from pytest_httpserver import HTTPServer
from werkzeug.wrappers import Request, Response

import citeledger as cl
from citeledger.sources import RetryPolicy
from citeledger.sources.crossref import CrossrefSource
from citeledger.sources.openalex import OpenAlexSource

NOW = dt.datetime(2026, 8, 8, tzinfo=dt.UTC)
KW: dict[str, Any] = {"policy": RetryPolicy(max_attempts=1), "min_interval": 0.0}
WORK = (
    Path(__file__).resolve().parents[1] / "tests/fixtures/inbound/openalex-work-zero-infinity.json"
)
ENTRY = (
    "Rajbhandari S, Ruwase O, Rasley J, Smith S, He Y (2021) ZeRO-Infinity: breaking the GPU "
    "memory wall for extreme scale deep learning. arXiv:2104.07857"
)


def _serve(server: HTTPServer, n: int, entries: int) -> dict[str, int]:
    results = [
        {
            "id": f"https://openalex.org/W6{i:09d}",
            "doi": f"https://doi.org/10.5555/bench.{i}",
            "title": f"Benchmark citing work {i}",
            "publication_year": 2024,
            "type": "article",
            "authorships": [],
        }
        for i in range(n)
    ]
    refs: list[dict[str, str]] = [
        {"key": f"r{j}", "unstructured": f"Author{j} A (2019) Another title number {j}. J Ex 1:{j}"}
        for j in range(entries - 1)
    ]
    refs.insert(entries // 2, {"key": "rp", "unstructured": ENTRY})
    counts = {"list": 0, "other": 0}
    per_page = 200

    def handler(request: Request) -> Response:
        path = request.path
        if path.startswith("/openalex/works/"):
            counts["other"] += 1
            return Response(WORK.read_bytes(), content_type="application/json")
        if path == "/openalex/works":
            counts["other"] += 1
            cursor = request.args.get("cursor", "*")
            start = 0 if cursor == "*" else int(cursor)
            page = results[start : start + per_page]
            nxt = str(start + per_page) if start + per_page < n else None
            meta = {"count": n, "next_cursor": nxt, "per_page": per_page}
            return Response(
                json.dumps({"meta": meta, "results": page}), content_type="application/json"
            )
        if path.startswith("/crossref/works/10.5555/bench."):
            counts["list"] += 1
            msg = {
                "DOI": path.removeprefix("/crossref/works/"),
                "title": ["x"],
                "type": "journal-article",
                "reference": refs,
            }
            body = {"status": "ok", "message-type": "work", "message": msg}
            return Response(json.dumps(body), content_type="application/json")
        counts["other"] += 1
        return Response("Resource not found.", status=404)

    server.expect_request(re.compile(r"^/.*$")).respond_with_handler(handler)
    return counts


def main(n: int = 100, entries: int = 40) -> None:
    """Print the figures for ``n`` citing works with ``entries``-entry lists."""
    server = HTTPServer()
    server.start()
    try:
        counts = _serve(server, n, entries)
        base = server.url_for("/").rstrip("/")
        for check in (False, True):
            counts.update(list=0, other=0)
            srcs: list[Any] = [
                OpenAlexSource(base_url=base + "/openalex", clock=lambda: NOW, **KW),
                CrossrefSource(base_url=base + "/crossref", mailto="b@example.org", **KW),
            ]
            start = time.perf_counter()
            record = cl.build_record("arXiv:2104.07857", srcs, now=NOW, check_inbound=check)
            elapsed = time.perf_counter() - start
            cov = record.coverage_of(cl.Facet.INBOUND_RESOLUTION)
            print(
                f"check_inbound={check}: {n} citing works, {counts['list']} reference-list "
                f"requests ({counts['list'] / n:.2f} per citing work), {counts['other']} other "
                f"requests; {elapsed:.2f} s ({elapsed / n * 100:.2f} s per 100); "
                f"{cov.describe()}"
            )
    finally:
        server.clear()
        server.stop()


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
