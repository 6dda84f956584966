"""Inbound check end to end: a chain of the project's fixtures served from a local HTTP server.

OpenAlex lists six works citing ZeRO-Infinity (``filter=cites:``); each citing work's own
reference list then comes from Crossref (deposited references with keys), Semantic Scholar
(references), a JATS file the caller supplies, or nowhere (404, HTTP 500). The real adapters
send every request; the text rendering has the seed's structure: observation blocks with
reference numbers and mixed states.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import time
from typing import Any

import pytest
from werkzeug.wrappers import Request, Response

import citeledger as cl
from citeledger.model import CheckStatus, NotChecked
from citeledger.sources import RetryPolicy
from citeledger.sources.crossref import CrossrefSource
from citeledger.sources.fulltext import FullTextFiles
from citeledger.sources.openalex import OpenAlexSource
from citeledger.sources.semanticscholar import SemanticScholarSource
from tests.conftest import FIXTURES

NOW = dt.datetime(2026, 8, 8, 6, 32, tzinfo=dt.UTC)
KW: dict[str, Any] = {"policy": RetryPolicy(max_attempts=1), "min_interval": 0.0}
INBOUND = FIXTURES / "inbound"
P = "arXiv:2104.07857"


def _body(name: str) -> bytes:
    return (INBOUND / name).read_bytes()


def _serve(httpserver: Any) -> dict[str, int]:
    """Route the fixtures by path; count requests per route; anything else is a 404."""
    crossref = {
        "10.5555/inbound.mtnlg": _body("crossref-work-mtnlg-references.json"),
        "10.5555/inbound.fastsafetensors": _body("crossref-work-fastsafetensors-references.json"),
    }
    hits: dict[str, int] = {}

    def count(name: str) -> None:
        hits[name] = hits.get(name, 0) + 1

    def handler(request: Request) -> Response:
        path = request.path
        json_type = "application/json"
        if path.startswith("/openalex/works/") and "2104.07857" in path:
            count("openalex-work")
            return Response(_body("openalex-work-zero-infinity.json"), content_type=json_type)
        if path == "/openalex/works" and "cites:" in request.args.get("filter", ""):
            count("openalex-cites")
            return Response(_body("openalex-cites-zero-infinity.json"), content_type=json_type)
        if path == "/openalex/works/https://doi.org/10.5555/inbound.infinite":
            # referenced_works only: an identifier hint, never a check
            count("openalex-hint")
            listing = json.loads(_body("openalex-cites-zero-infinity.json"))
            return Response(json.dumps(listing["results"][3]), content_type=json_type)
        if path.startswith("/crossref/works/"):
            doi = path.removeprefix("/crossref/works/").lower()
            count("crossref " + doi)
            if doi == "10.5555/inbound.roundpipe":
                return Response("Internal Server Error", status=500)
            if doi in crossref:
                return Response(crossref[doi], content_type=json_type)
            return Response("Resource not found.", status=404)
        if path.startswith("/s2/paper/") and path.endswith("/references"):
            count("s2 " + path)
            if "2208.07339" in path:
                return Response(_body("s2-references-llm-int8.json"), content_type=json_type)
            return Response(b'{"error": "Paper not found"}', status=404, content_type=json_type)
        count("404 " + path)
        if path.startswith("/s2/"):
            return Response(b'{"error": "Paper not found"}', status=404, content_type=json_type)
        return Response("<!doctype html><title>404 Not Found</title>", status=404)

    httpserver.expect_request(re.compile(r"^/.*$")).respond_with_handler(handler)
    return hits


def _sources(httpserver: Any) -> list[Any]:
    base = httpserver.url_for("/").rstrip("/")
    openalex = OpenAlexSource(base_url=base + "/openalex", clock=lambda: NOW, **KW)
    crossref = CrossrefSource(base_url=base + "/crossref", mailto="t@example.org", **KW)
    s2 = SemanticScholarSource(base_url=base + "/s2", announce_total=False, now=lambda: NOW, **KW)
    full = FullTextFiles({"doi:10.5555/inbound.hitchhiker": _body("jats-hitchhiker-ref-list.xml")})
    return [openalex, crossref, s2, full]


def _by_title(record: cl.CitationRecord) -> dict[str, list[cl.Observation]]:
    out: dict[str, list[cl.Observation]] = {}
    for obs in record.inbound:
        out.setdefault(obs.citing.title or "", []).append(obs)
    return out


def _one(got: dict[str, list[cl.Observation]], prefix: str) -> cl.Observation:
    """The one inbound observation of the citing work whose title starts with ``prefix``."""
    (obs,) = got[next(t for t in got if t.startswith(prefix))]
    return obs


def _entry(obs: cl.Observation) -> tuple[int | None, Any, Any]:
    """Where the check found the entry, and what it resolved to: (number, state, method)."""
    return (obs.position, obs.state, obs.method)


def test_chain_checks_each_citing_work_against_its_own_list(httpserver: Any) -> None:
    hits = _serve(httpserver)
    record = cl.build_record(P, _sources(httpserver), now=NOW)
    got = _by_title(record)
    assert len(got) == 6  # six citing works listed by OpenAlex

    mtnlg = _one(got, "Using DeepSpeed")
    assert _entry(mtnlg) == (5, cl.ResolutionState.VERIFIED_EXACT, cl.Method.ARXIV_ID)
    assert mtnlg.reference is not None
    assert mtnlg.reference.key == "ref5"
    assert "ZeRO-Infinity" in (mtnlg.reference.raw or "")
    assert mtnlg.check is not None
    assert (mtnlg.check.status, mtnlg.check.source, mtnlg.check.entries) == (
        CheckStatus.CHECKED,
        "crossref",
        6,
    )
    assert mtnlg.check.checked == NOW
    assert mtnlg.source == "openalex"  # who listed it; the check names whose list was read

    int8 = _one(got, "LLM.int8()")
    assert _entry(int8) == (2, cl.ResolutionState.METADATA_MISMATCH, cl.Method.ARXIV_ID)
    assert int8.check is not None
    assert int8.check.source == "semanticscholar"

    (fast,) = got["Speeding up Model Loading with fastsafetensors"]
    assert (fast.state, fast.method) == (cl.ResolutionState.UNRESOLVED, cl.Method.NO_RESOLVER_LINK)
    assert fast.resolution is not None
    assert "no entry of its 4-entry reference list (crossref)" in fast.resolution.reason

    infinite = _one(got, "Infinite Sampling")
    assert infinite.resolution is None
    assert infinite.check is not None
    assert infinite.check.status is CheckStatus.NOT_CHECKED
    assert infinite.check.not_checked is NotChecked.NO_SOURCE
    assert "openalex's identifier list (1 ids, not the printed list) names the paper" in (
        infinite.check.reason or ""
    )

    (roundpipe,) = got["Efficient Training on Multiple Consumer GPUs with RoundPipe"]
    assert roundpipe.resolution is None
    assert roundpipe.check is not None
    assert roundpipe.check.not_checked is NotChecked.FETCH_FAILED
    assert "crossref" in (roundpipe.check.reason or "")

    # Two entries of one citing paper pointing to the paper: two observations of one work.
    hitch = got["The Hitchhiker's Guide to Agentic AI: From Foundations to Systems"]
    assert [_entry(o) for o in hitch] == [
        (2, cl.ResolutionState.VERIFIED_EXACT, cl.Method.ARXIV_ID),
        (4, cl.ResolutionState.METADATA_MISMATCH, cl.Method.DOI),
    ]
    assert all(o.check is not None and o.check.source == "fulltext" for o in hitch)
    assert len({o.id for o in hitch}) == 2
    assert len(record.citing_works) == 6

    # Coverage: 4 of 6 citing works had their list read; itemization still counts 6 listed.
    cov = record.coverage_of(cl.Facet.INBOUND_RESOLUTION)
    assert (cov.measured, cov.total, cov.state) == (4, 6, cl.CoverageState.PARTIAL)
    assert cov.reason is not None
    assert "1 not checked: no source has the reference list" in cov.reason
    assert "1 not checked: reference list fetch failed" in cov.reason
    assert set(cov.sources) == {"crossref", "semanticscholar", "fulltext"}
    assert cov.describe() == "measured 4 of 6 inbound resolution"
    items = record.coverage_of(cl.Facet.INBOUND_ITEMIZATION)
    assert (items.measured, items.total) == (6, 6)

    # One reference-list request per citing work and source tried, never two.
    assert all(n == 1 for k, n in hits.items() if k.startswith(("crossref ", "s2 ")))
    assert hits["crossref 10.5555/inbound.mtnlg"] == 1


def test_chain_text_rendering_has_the_seed_structure(httpserver: Any) -> None:
    _serve(httpserver)
    record = cl.build_record(P, _sources(httpserver), now=NOW)
    text = record.render("text")
    lines = text.splitlines()
    assert "measured 4 of 6 inbound resolution" in lines
    blocks = [i for i, line in enumerate(lines) if re.match(r"^Observation \S+ · inbound$", line)]
    assert len(blocks) == 7
    first = lines[blocks[0] : blocks[1]]
    assert first[2].endswith(" cites this paper.")
    assert "Reference 5" in first
    assert "Resolution: verified exact; arxiv_id, observed 2026-08-08T06:32:00Z" in first
    assert any(line.startswith("Entry [ref5] (crossref): Rajbhandari S") for line in first)
    states = {m.group(1) for line in lines if (m := re.match(r"^Resolution: ([a-z ]+?);", line))}
    assert {
        "verified exact",
        "metadata mismatch",
        "unresolved",
        "not checked: no source has the reference list",
    } <= {
        *states,
        *(
            line.removeprefix("Resolution: ").split(" (")[0].split(";")[0]
            for line in lines
            if line.startswith("Resolution: not checked")
        ),
    }
    assert "Resolution: unresolved; no resolver link, observed 2026-08-08T06:32:00Z" in lines
    md = record.render("markdown")
    assert "not checked: reference list fetch failed" in md
    html = record.render("html")
    assert "Entry [ref5] (crossref)" in html


def test_check_inbound_false_takes_the_sources_word(httpserver: Any) -> None:
    hits = _serve(httpserver)
    record = cl.build_record(P, _sources(httpserver), now=NOW, check_inbound=False)
    # Only the paper's own requests: no citing work's list is asked for.
    asked = [k for k in hits if k.startswith(("crossref 10.5555", "s2 ", "openalex-hint"))]
    assert asked == ["s2 /s2/paper/ARXIV:2104.07857/references"]
    assert len(record.inbound) == 6
    for obs in record.inbound:
        assert obs.check is not None
        assert obs.check.status is CheckStatus.ASSERTED
        assert obs.check.describe() == "as asserted by openalex"
    cov = record.coverage_of(cl.Facet.INBOUND_RESOLUTION)
    assert (cov.measured, cov.total, cov.state) == (0, 6, cl.CoverageState.UNAVAILABLE)
    assert "as asserted by openalex" in record.render("text")


def test_check_cap_is_disclosed(httpserver: Any) -> None:
    _serve(httpserver)
    record = cl.build_record(P, _sources(httpserver), now=NOW, check_cap=2)
    capped = [o for o in record.inbound if o.check and o.check.not_checked is NotChecked.CAP]
    assert len(capped) == 4
    cov = record.coverage_of(cl.Facet.INBOUND_RESOLUTION)
    assert (cov.measured, cov.total) == (2, 6)
    assert cov.note == "at most the first 2 citing works checked"
    with pytest.raises(ValueError, match="check_cap"):
        cl.build_record(P, _sources(httpserver), now=NOW, check_cap=-1)


def test_records_round_trip_with_checks(httpserver: Any) -> None:
    _serve(httpserver)
    record = cl.build_record(P, _sources(httpserver), now=NOW)
    again = cl.CitationRecord.from_json(record.to_json())
    assert again == record
    rows = [r for r in cl.frames.observation_rows(record) if r["direction"] == "inbound"]
    assert {r["check"] for r in rows} == {"checked", "not_checked"}
    assert {r["not_checked"] for r in rows} == {None, "no_source", "fetch_failed"}
    assert "ref5" in {r["reference_key"] for r in rows}


def test_time_per_hundred_citing_works(httpserver: Any) -> None:
    """100 citing works, each a 30-entry Crossref list: one request each, timed (figure in docs)."""
    n = 100
    results = [
        {
            "id": f"https://openalex.org/W50000{i:05d}",
            "doi": f"https://doi.org/10.5555/bench.{i}",
            "title": f"Benchmark citing work number {i} on sharded optimizers",
            "publication_year": 2024,
            "ids": {"doi": f"https://doi.org/10.5555/bench.{i}"},
            "type": "article",
            "authorships": [],
        }
        for i in range(n)
    ]
    cites = json.dumps({"meta": {"count": n, "next_cursor": None}, "results": results}).encode()
    refs = [
        {"key": f"r{j}", "unstructured": f"Author {j} (2019) Some other title {j}. J Ex 1:{j}"}
        for j in range(29)
    ]
    refs.insert(
        10,
        {
            "key": "r-p",
            "unstructured": "Rajbhandari S, Ruwase O, Rasley J, Smith S, He Y (2021) ZeRO-Infinity: "
            "breaking the GPU memory wall for extreme scale deep learning. arXiv:2104.07857",
        },
    )
    requests = {"n": 0}

    def handler(request: Request) -> Response:
        path = request.path
        if path.startswith("/openalex/works/"):
            return Response(
                _body("openalex-work-zero-infinity.json"), content_type="application/json"
            )
        if path == "/openalex/works":
            return Response(cites, content_type="application/json")
        if path.startswith("/crossref/works/10.5555/bench."):
            requests["n"] += 1
            doi = path.removeprefix("/crossref/works/")
            msg = {"DOI": doi, "title": ["x"], "type": "journal-article", "reference": refs}
            return Response(
                json.dumps({"status": "ok", "message-type": "work", "message": msg}),
                content_type="application/json",
            )
        return Response("Resource not found.", status=404)

    httpserver.expect_request(re.compile(r"^/.*$")).respond_with_handler(handler)
    base = httpserver.url_for("/").rstrip("/")
    srcs: list[Any] = [
        OpenAlexSource(base_url=base + "/openalex", clock=lambda: NOW, **KW),
        CrossrefSource(base_url=base + "/crossref", mailto="t@example.org", **KW),
    ]
    start = time.perf_counter()
    record = cl.build_record(P, srcs, now=NOW)
    elapsed = time.perf_counter() - start
    assert requests["n"] == n  # one reference-list request per citing work
    assert all(
        o.position == 11 and o.state is cl.ResolutionState.VERIFIED_EXACT for o in record.inbound
    )
    assert record.coverage_of(cl.Facet.INBOUND_RESOLUTION).measured == n
    print(f"\n{n} citing works checked in {elapsed:.2f} s, {requests['n']} list requests")
