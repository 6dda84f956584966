"""Re-run every class of hostile input of issue 13 against the public API, outside pytest.

    python benchmarks/hostile_harness.py

Starts its own loopback fault server (two, for cross-host redirects), scripts each fault, and
prints one line per class: PASS or FAIL, the attempts the server saw (or the calls made) and the
time taken. Exits 1 if any class fails. Nothing leaves the machine: every server listens on
127.0.0.1 and the redirect targets that are not loopback are refused before any connection.

The classes: endless paging, cross-host redirects with keys, drip/deadline (a dripped body and
dripped headers), gzip bomb, bad bytes, plug-in faults, a failing provider in resolve_many, a
shared DOI, dump bad rows, secrets in 2xx details and logs, wrong types.
"""

from __future__ import annotations

import datetime as dt
import gzip
import io
import json
import logging
import pickle
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import citeledger as cl
from citeledger.errors import (
    DeadlineExceeded,
    DeserializationError,
    InvalidResponseError,
    ModelError,
    PagingStopped,
    RedirectRefused,
    ResponseTooLarge,
)
from citeledger.formats import jats
from citeledger.formats.dumps import iter_opencitations_csv
from citeledger.ledger import Outcome
from citeledger.serialize import loads
from citeledger.sources import Paged, arxiv, crossref
from citeledger.sources._common import decode_json
from citeledger.sources._paging import PageBounds, PageGuard, PageStop
from citeledger.sources._transport import Request, RequestsTransport
from citeledger.sources._transport import parse_retry_after as retry_after
from citeledger.sources.crossref import CrossrefSource
from citeledger.testing import FakeSource
from citeledger.testing import _hostile as hostile

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from http.server import BaseHTTPRequestHandler

SECRET = "sk-harness-0123456789"
NOW = dt.datetime(2026, 8, 8, tzinfo=dt.UTC)


class Failed(AssertionError):
    """A check of the harness did not hold."""


def check(condition: object, what: str) -> None:
    if not condition:
        raise Failed(what)


# ------------------------------------------------------------------------------ the classes


def endless_paging(srv: hostile.FaultServer) -> str:
    srv.routes["/works"] = lambda h: hostile.reply(h, hostile.crossref_page(5, 0, "same"))
    paged = CrossrefSource(base_url=srv.url, policy=hostile.fast(), min_interval=0).works(
        query="x", rows=5
    )
    got = list(paged)
    check(len(got) == 5, f"kept {len(got)} of 5")
    check(isinstance(paged.error, PagingStopped), "no PagingStopped")
    same = len(srv.log)
    srv.reset()
    calls = {"n": 0}

    def fresh(h: BaseHTTPRequestHandler) -> None:
        calls["n"] += 1
        hostile.reply(h, hostile.crossref_page(5, 5 * calls["n"], f"c{calls['n']}"))

    srv.routes["/works"] = fresh
    src = CrossrefSource(base_url=srv.url, policy=hostile.fast(), min_interval=0)
    src.page_bounds = PageBounds(max_pages=4)
    paged = src.works(query="x", rows=5)
    got = list(paged)
    check(len(got) == 20, f"page bound kept {len(got)} of 20")
    stop = paged.error
    check(isinstance(stop, PagingStopped), "page bound: no PagingStopped")
    check(isinstance(stop, PagingStopped) and stop.reason == PageStop.PAGE_BOUND, "wrong reason")
    guard = PageGuard(source="semanticscholar")
    guard.page(list(range(100)))
    try:
        guard.next_offset(1, read_to=100, total=None)
    except PagingStopped as exc:
        check(exc.reason == PageStop.OFFSET_OVERLAP, "creeping offset: wrong reason")
    else:
        raise Failed("a creeping S2 offset was followed")
    check(same == 2, f"same cursor: {same} requests")
    return f"same cursor: {same} requests; page bound: {len(srv.log)} requests"


def cross_host_redirects(srv: hostile.FaultServer, other: hostile.FaultServer) -> str:
    targets = [
        f"http://localhost:{other.port}/steal",
        "http://169.254.169.254/latest/meta-data/",
        "http://example.org/steal",
        "file:///etc/passwd",
    ]
    for location in targets:

        def redirect(h: BaseHTTPRequestHandler, loc: str = location) -> None:
            hostile.reply(h, b"", status=302, headers={"Location": loc})

        srv.routes["/w"] = redirect
        request = Request(
            url=srv.url + "/w",
            params={"api_key": SECRET},
            headers={"x-api-key": SECRET, "Crossref-Plus-API-Token": f"Bearer {SECRET}"},
        )
        try:
            RequestsTransport(policy=hostile.fast()).send(request, source="x")
        except RedirectRefused as exc:
            check(exc.attempt == 1, f"{location}: retried")
            check(SECRET not in str(exc), f"{location}: key in the error")
        else:
            raise Failed(f"followed a redirect to {location}")
    check(not other.log, f"the other host saw {len(other.log)} requests")
    return f"{len(targets)} targets refused, {len(srv.log)} requests, 0 reached the other host"


def cut_off(transport: RequestsTransport, url: str, what: str) -> tuple[int, float]:
    """Send to ``url``, which must end in DeadlineExceeded: its attempts and the seconds taken."""
    started = time.monotonic()
    try:
        transport.send(Request(url=url), source="x")
    except DeadlineExceeded as exc:
        return exc.attempt, time.monotonic() - started
    raise Failed(f"{what} was read to the end")


def drip_deadline(srv: hostile.FaultServer) -> str:
    srv.routes["/drip"] = hostile.drip_body
    attempts, took = cut_off(
        RequestsTransport(policy=hostile.fast(attempt_deadline=0.5, call_deadline=5.0)),
        srv.url + "/drip",
        "a 10 s drip",
    )
    check(took < 2.5, f"{took:.1f} s for two 0.5 s attempts")

    # The status line and headers dripped one byte every 0.2 s (~16 s in all): each byte
    # resets the read timeout, so only the attempt deadline (its watchdog) bounds them.
    srv.routes["/drip-head"] = lambda h: hostile.drip_headers(h, interval=0.2)
    srv.routes["/ok"] = lambda h: hostile.reply(h, b"{}")
    transport = RequestsTransport(policy=hostile.fast(attempt_deadline=0.5, call_deadline=5.0))
    head_attempts, head_took = cut_off(
        transport, srv.url + "/drip-head", "~16 s of dripped headers"
    )
    check(head_took < 2.5, f"{head_took:.1f} s for two 0.5 s attempts at dripped headers")
    check(transport.send(Request(url=srv.url + "/ok"), source="x").body == b"{}", "no reuse")
    watchdogs = [t for t in threading.enumerate() if t.name == "citeledger-watchdog"]
    check(not watchdogs, f"{len(watchdogs)} watchdog threads left running")
    return (
        f"body: {attempts} attempts cut at 0.5 s each ({took:.2f} s); headers: "
        f"{head_attempts} attempts cut at 0.5 s each ({head_took:.2f} s), then a normal request"
    )


def gzip_bomb(srv: hostile.FaultServer) -> str:
    bomb = gzip.compress(b"\0" * (64 * 1024 * 1024), compresslevel=9)
    srv.routes["/bomb"] = lambda h: hostile.reply(h, bomb, headers={"Content-Encoding": "gzip"})
    try:
        RequestsTransport(policy=hostile.fast(max_response_bytes=1024 * 1024)).send(
            Request(url=srv.url + "/bomb"), source="x"
        )
    except ResponseTooLarge as exc:
        check(exc.attempt == 1, "retried")
    else:
        raise Failed("a 64 MiB bomb was inflated past the 1 MiB cap")
    return f"{len(bomb) // 1024} KiB bomb refused at the 1 MiB cap"


def bad_bytes(srv: hostile.FaultServer) -> str:
    for value in ["\u00b2", "\u0663", "9" * 5000]:
        got = retry_after(value)
        check(got is None or got >= 0, f"Retry-After {value[:5]!r}: {got}")
    feed = (
        b'<feed xmlns="http://www.w3.org/2005/Atom" '
        b'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">'
        b"<opensearch:totalResults>" + b"9" * 5000 + b"</opensearch:totalResults></feed>"
    )
    check(arxiv.parse_feed(feed).total is None, "a 5,000-digit total was taken")
    check(
        len(jats.parse_jats_references(hostile.HEX_REFERENCE_JATS)) == 2,
        "a hex reference lost the JATS document",
    )
    paper = cl.Paper(title=json.loads('"broken \\ud83d title"'), identifiers=["doi:10.1234/s"])
    rec = cl.build_record("doi:10.1234/s", [FakeSource(papers=[paper], citations={})], now=NOW)
    rec.to_json().encode("utf-8")
    rec.render("html").encode("utf-8")
    return "Retry-After, 5,000 digits, &#x41;, lone surrogate: all typed or cleaned"


class _Plugin:
    def __init__(self, **answers: Any) -> None:
        self.name = "plugin"
        self.capabilities = frozenset(cl.Capability)
        self.answers = answers

    def _answer(self, method: str, default: Any) -> Any:
        value = self.answers.get(method, default)
        if isinstance(value, BaseException):
            raise value
        return value() if callable(value) else value

    def paper(self, ident: Any) -> Any:
        return self._answer("paper", None)

    def references(self, ident: Any) -> Any:
        return self._answer("references", [])

    def citations(self, ident: Any) -> Any:
        return self._answer("citations", Paged(iter([])))

    def citation_counts(self, ident: Any) -> Any:
        return self._answer("citation_counts", [])

    def events(self, ident: Any) -> Any:
        return self._answer("events", cl.NoticeCheck.none_found(sources=["plugin"], checked=NOW))


def plugin_faults(srv: hostile.FaultServer) -> str:
    pid = "doi:10.1234/target"
    cited = cl.Paper(identifiers=[pid], title="Target", year=2020)
    good_obs = [
        cl.Observation(
            direction="inbound",
            citing=cl.Paper(identifiers=[f"doi:10.1234/c{i}"], title=f"C{i}", year=2022),
            cited=cited,
            source="good",
            observed=NOW,
        )
        for i in range(3)
    ]
    good = FakeSource(name="good", papers=[cited], citations={pid: good_obs})

    def later_page() -> Paged[cl.Observation]:
        def pages() -> Iterator[tuple[list[cl.Observation], int | None]]:
            yield good_obs[:1], 3
            raise RuntimeError("page 2")

        return Paged(pages())

    release = threading.Event()

    def hang() -> Any:
        release.wait(30)

    cases: list[tuple[str, dict[str, Any], str]] = [
        ("RuntimeError", {"citations": RuntimeError("x")}, "RuntimeError"),
        ("KeyError", {"paper": KeyError("k")}, "KeyError"),
        ("ValueError", {"references": ValueError("v")}, "ValueError"),
        ("Paged after page 1", {"citations": later_page}, "RuntimeError"),
        ("wrong items", {"citations": lambda: iter(["s", {}, None])}, ""),
        ("citations None", {"citations": lambda: None}, "WrongType"),
        ("never returns", {"citations": hang}, "DeadlineExceeded"),
    ]
    started = time.monotonic()
    calls = 0
    try:
        for label, answers, expected in cases:
            rec = cl.build_record(pid, [_Plugin(**answers), good], now=NOW, source_deadline=0.3)
            calls += len(rec.reports)
            check(len(rec.inbound) >= 3, f"{label}: the other source's listing was lost")
            mine = [r for r in rec.reports if r.source == "plugin"]
            if expected:
                check(any(r.error_type == expected for r in mine), f"{label}: not recorded")
            else:
                listed = [r for r in mine if r.capability == "citations"]
                check(listed and len(listed[0].unreadable) == 3, f"{label}: not unreadable")
                check(listed[0].outcome is Outcome.PARTIAL, f"{label}: not partial")
        for exc in (KeyboardInterrupt(), SystemExit(3)):
            try:
                cl.build_record(pid, [_Plugin(paper=exc)], now=NOW)
            except (KeyboardInterrupt, SystemExit):
                pass
            else:
                raise Failed(f"{type(exc).__name__} was swallowed")
    finally:
        release.set()
    took = time.monotonic() - started
    check(took < 5, f"{took:.1f} s")
    return f"{len(cases)} faults contained, {calls} source calls reported"


class _Flaky:
    def __init__(self) -> None:
        self.calls = 0

    def by_identifier(self, ident: Any) -> list[cl.Paper]:
        return []

    def candidates(self, ref: cl.Reference, *, limit: int) -> list[cl.Paper]:
        self.calls += 1
        if ref.title and "boom" in ref.title:
            raise RuntimeError("provider down")
        return []


def failing_provider(srv: hostile.FaultServer) -> str:
    provider = _Flaky()
    refs = [cl.Reference(title=f"an ordinary title number {i}", year=2020) for i in range(999)]
    refs.insert(500, cl.Reference(title="boom goes the provider", year=2020))
    results = cl.Resolver(providers=[provider]).resolve_many(refs, workers=1)
    check(len(results) == 1000, f"{len(results)} of 1000 results")
    check("provider down" in (results[500].reason or ""), "the failure is not the reason")
    return f"1000 of 1000 results, {provider.calls} provider calls"


def shared_doi(srv: hostile.FaultServer) -> str:
    doi = "doi:10.1234/shared"
    a = cl.Paper(identifiers=[doi], title="Deep learning of protein folding", year=2019)
    b = cl.Paper(identifiers=[doi], title="A history of medieval trade routes", year=2003)
    resolver = cl.Resolver([a, b])
    bare = resolver.resolve(cl.Reference(identifiers=[doi]))
    check(not bare.state.verified, f"a bare DOI verified: {bare.state}")
    check(len(bare.alternatives) == 2, "both candidates not named")
    told = resolver.resolve(cl.Reference(identifiers=[doi], title=b.title))
    check(told.state.verified and told.target is not None, "matching metadata did not decide")
    check(told.target is not None and told.target.title == b.title, "decided for the wrong one")
    return f"bare: {bare.state.value}; with a title: {told.state.value}"


def dump_bad_rows(srv: hostile.FaultServer) -> str:
    lines = [b"oci,citing,cited,creation,timespan,journal_sc,author_sc"]
    lines += [
        f"oci:{i},doi:10.1000/a{i},doi:10.1000/b{i},2020,P1Y,no,no".encode() for i in range(1, 1201)
    ]
    lines[100] = lines[100].replace(b"oci:", b"oci:\xff")
    lines[200] = lines[200].replace(b"doi:10.1000/a200", b'"doi:10.1000/a200')
    lines[300] = b"x" * 5000
    lines[400] = b"only,three,fields"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "dump.csv"
        path.write_bytes(b"\n".join(lines) + b"\n")
        bad: list[Any] = []
        links = list(iter_opencitations_csv(path, on_unreadable=bad.append, max_record_bytes=4096))
    check(len(links) == 1196, f"{len(links)} of 1196 rows")
    check(len(bad) == 4, f"{len(bad)} unreadable, not 4")
    return f"{len(links)} rows kept, {len(bad)} counted unreadable"


def secrets_in_2xx(srv: hostile.FaultServer) -> str:
    page = f"<html><head><title>Hello {SECRET}</title></head></html>".encode()
    srv.routes["/w"] = lambda h: hostile.reply(h, page, content_type="text/html")
    response = RequestsTransport(policy=hostile.fast()).send(
        Request(url=srv.url + "/w", params={"token": SECRET}), source="opencitations"
    )
    try:
        decode_json(response, source="opencitations")
    except InvalidResponseError as exc:
        texts = (str(exc), repr(exc), exc.detail, repr(response))
        check(not any(SECRET in t for t in texts), "the key is in the error")
        check(SECRET.encode() not in pickle.dumps(exc), "the key is in the pickle")
    else:
        raise Failed("an HTML page was read as JSON")
    srv.routes["/j"] = lambda h: hostile.reply(h, b"{}")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    log = logging.getLogger("urllib3")
    old = log.level
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    try:
        RequestsTransport(policy=hostile.fast()).send(
            Request(url=srv.url + "/j", params={"sig": SECRET}, secret_params={"sig"}), source="x"
        )
    finally:
        log.removeHandler(handler)
        log.setLevel(old)
    check("/j?sig=" in stream.getvalue(), "no DEBUG line was logged")
    check(SECRET not in stream.getvalue(), "the key is in urllib3's DEBUG log")
    return f"{len(srv.log)} requests; no key in detail, repr, pickle or log"


def wrong_types(srv: hostile.FaultServer) -> str:
    body = {
        "message-type": "work",
        "message": {"DOI": "10.1000/x1", "title": ["T"], "reference": "notalist"},
    }
    work = crossref.parse_work(json.dumps(body).encode())
    check(len(work.references) == 1, f"'notalist' became {len(work.references)} references")
    refused = 0
    for build in (
        lambda: loads("{}", list[cl.Paper]),
        lambda: cl.Paper(title=5),
        lambda: cl.Paper(year=10**30),
        lambda: cl.Paper(year=-5),
    ):
        try:
            build()
        except (ModelError, DeserializationError):
            refused += 1
    check(refused == 4, f"{4 - refused} wrong types accepted")
    return "notalist: 1 unreadable entry; {}, title=5, year 10^30 and -5 refused"


def main() -> int:
    server, other = hostile.FaultServer(), hostile.FaultServer()
    classes: list[tuple[str, Callable[[], str]]] = [
        ("endless paging", lambda: endless_paging(server)),
        ("cross-host redirects with keys", lambda: cross_host_redirects(server, other)),
        ("drip / deadline", lambda: drip_deadline(server)),
        ("gzip bomb", lambda: gzip_bomb(server)),
        ("bad bytes", lambda: bad_bytes(server)),
        ("plug-in faults", lambda: plugin_faults(server)),
        ("failing provider in resolve_many", lambda: failing_provider(server)),
        ("shared DOI", lambda: shared_doi(server)),
        ("dump bad rows", lambda: dump_bad_rows(server)),
        ("secrets in 2xx details / logs", lambda: secrets_in_2xx(server)),
        ("wrong types", lambda: wrong_types(server)),
    ]
    failed = 0
    try:
        for name, run in classes:
            server.reset()
            started = time.monotonic()
            try:
                detail = run()
                verdict = "PASS"
            except Exception as exc:
                detail = f"{type(exc).__name__}: {exc}"
                verdict = "FAIL"
                failed += 1
            took = time.monotonic() - started
            print(f"{verdict}  {name:<34} {took:6.2f} s  {detail}")
    finally:
        server.close()
        other.close()
    print(f"{len(classes) - failed} of {len(classes)} classes hold")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
