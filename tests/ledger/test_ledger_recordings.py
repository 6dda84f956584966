"""A record built through the real adapters from fixture responses, over a local server.

One paper (10.5555/ledger.2024.017) as two sources describe it, hand-written in the recorded
shapes (``tests/fixtures/``): Crossref's work record with 5 references (some with a deposited DOI,
some unstructured only) and Semantic Scholar's paper lookup, which disagree on the year and the
count. Anything the fixtures do not cover answers 404, so the record must say what it could not
measure.
"""

from __future__ import annotations

import datetime as dt
import importlib
import json
import re
from typing import Any

import pytest
from werkzeug.wrappers import Request, Response

import citeledger as cl
from citeledger.sources import RetryPolicy
from tests.conftest import fixture_bytes

DOI = "10.5555/ledger.2024.017"
NOW = dt.datetime(2026, 8, 8, tzinfo=dt.UTC)


def _adapter(module: str, cls: str) -> Any:
    try:
        mod = importlib.import_module(f"citeledger.sources.{module}")
    except ImportError:
        pytest.skip(f"adapter citeledger.sources.{module} is not available")
    return getattr(mod, cls)


def _serve(httpserver: Any) -> dict[str, int]:
    """Route fixture bodies by path; count requests per route."""
    crossref = fixture_bytes("crossref", "work-references-mixed.json")
    s2 = fixture_bytes("semanticscholar", "paper-doi.json")
    hits: dict[str, int] = {}

    def handler(request: Request) -> Response:
        path = request.path
        if (
            path.startswith("/crossref/works/")
            and "10.5555" in path
            and not request.args.get("filter")
        ):
            hits["crossref-work"] = hits.get("crossref-work", 0) + 1
            return Response(crossref, status=200, content_type="application/json")
        if (
            path.startswith("/s2/paper/")
            and "10.5555" in path
            and not path.endswith(("/citations", "/references"))
        ):
            hits["s2-paper"] = hits.get("s2-paper", 0) + 1
            return Response(s2, status=200, content_type="application/json")
        hits["404 " + path.split("/")[1]] = hits.get("404 " + path.split("/")[1], 0) + 1
        if path.startswith("/crossref/"):
            return Response("Resource not found.", status=404, content_type="text/plain")
        return Response(
            json.dumps({"error": "Paper not found"}), status=404, content_type="application/json"
        )

    httpserver.expect_request(re.compile(r"^/.*$")).respond_with_handler(handler)
    return hits


def test_record_from_crossref_and_semantic_scholar_fixtures(httpserver: Any) -> None:
    crossref_cls = _adapter("crossref", "CrossrefSource")
    s2_cls = _adapter("semanticscholar", "SemanticScholarSource")
    hits = _serve(httpserver)
    base = httpserver.url_for("/").rstrip("/")
    kwargs: dict[str, Any] = {"policy": RetryPolicy(max_attempts=1), "min_interval": 0.0}
    crossref = crossref_cls(base_url=base + "/crossref", mailto="test@example.org", **kwargs)
    s2 = s2_cls(base_url=base + "/s2", **kwargs)
    record = cl.build_record(f"doi:{DOI}", [crossref, s2], now=NOW)

    assert hits.get("crossref-work", 0) >= 1
    assert record.paper.title is not None
    assert "citations with provenance" in record.paper.title.casefold()
    # 5 references from Crossref, each resolved (against an empty catalog: nothing verified)
    crossref_refs = [o for o in record.outbound if o.source == "crossref"]
    assert len(crossref_refs) == 5
    assert record.outbound_total >= 5
    counts = {c.state: c.count for c in record.resolution_counts()}
    assert sum(counts.values()) == len(record.outbound)
    assert counts[cl.ResolutionState.VERIFIED_EXACT] == 0
    # what the fixtures did not cover is reported, not hidden
    assert record.coverage_of(cl.Facet.REFERENCE_RESOLUTION).measured == len(record.outbound)
    problems = [r for r in record.reports if r.outcome in (cl.Outcome.ERROR, cl.Outcome.NOT_FOUND)]
    assert problems, "the 404s for unrecorded calls must show up as reports"
    inbound = record.coverage_of(cl.Facet.INBOUND_ITEMIZATION)
    assert inbound.state in (
        cl.CoverageState.UNAVAILABLE,
        cl.CoverageState.PARTIAL,
        cl.CoverageState.NOTHING_TO_MEASURE,
    )
    # every measurement names its source; Crossref and S2 counts are kept apart
    assert all(m.source for m in record.measurements)
    assert hits.get("s2-paper", 0) >= 1
    by_source = {(m.source, m.kind.value): m.value for m in record.measurements}
    assert by_source[("crossref", "cited_by")] == 12
    assert by_source[("semanticscholar", "cited_by")] == 41
    # the two sources disagree on the year and the count: both visible, each with its source
    topics = {d.topic: {c.source: c.value for c in d.claims} for d in record.disagreements}
    assert topics["year"] == {"crossref": "2024", "semanticscholar": "2023"}
    assert topics["cited_by count"]["crossref"] == "12"
    assert topics["cited_by count"]["semanticscholar"] == "41"
    assert len(record.paper_descriptions) == 2
    # the record survives JSON and renders
    assert cl.CitationRecord.from_json(record.to_json()) == record
    assert "measured" in record.render("text")


def test_catalog_from_crossref_fixture_resolves_references(httpserver: Any) -> None:
    """Resolving against the references' own DOIs as a catalog verifies the DOI-bearing ones."""
    crossref_cls = _adapter("crossref", "CrossrefSource")
    _serve(httpserver)
    base = httpserver.url_for("/").rstrip("/")
    crossref = crossref_cls(
        base_url=base + "/crossref",
        mailto="test@example.org",
        min_interval=0.0,
        policy=RetryPolicy(max_attempts=1),
    )
    refs = crossref.references(f"doi:{DOI}")
    catalog = [
        cl.Paper(identifiers=dois, title=r.title, authors=r.authors, year=r.year)
        for r in refs
        if (dois := [i for i in r.identifiers if i.scheme is cl.Scheme.DOI]) and r.title
    ]
    record = cl.build_record(f"doi:{DOI}", [crossref], now=NOW, resolver=cl.Resolver(catalog))
    counts = {c.state: c.count for c in record.resolution_counts()}
    assert counts[cl.ResolutionState.VERIFIED_EXACT] >= 1
    assert sum(counts.values()) == 5
