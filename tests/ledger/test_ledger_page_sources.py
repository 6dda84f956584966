"""Paper-page data through the real adapters, the per-build memo, progress, 404s and grouping.

Hand-written bodies in the recorded shapes (``tests/fixtures/``) are served over a local HTTP
server:

- ``openalex/work-W-id.json``: the cited work (10.5555/ledger.2024.017), with ``counts_by_year``
  2024-2026 summing to 57 next to ``cited_by_count`` 59, and OpenAlex topics;
- ``openalex/works-title-search-two-versions.json``: an OpenAlex list of two works (ZeRO-Infinity's
  proceedings version and its arXiv preprint under a 10.48550 DataCite DOI), served as the
  ``filter=cites:`` page (the list's shape is the same);
- ``semanticscholar/citation-item-with-contexts-intents.json``: one ``/citations`` element (with
  ``citingPaper.citationCount`` 2), and ``semanticscholar/paper-arxiv-doi.json``: an S2 paper
  object (``citationCount`` 800, DOI and arXiv id) used as a second element's ``citingPaper``; the
  ``{"offset": 0, "data": [...]}`` envelope around the two is S2's documented shape;
- ``semanticscholar/error-404-paper-id-not-found.json`` for a 404 on the first page.

The rest use small in-memory sources.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import pytest
from werkzeug.wrappers import Request, Response

import citeledger as cl
from citeledger.errors import NotFoundError
from citeledger.page import CitingWork
from citeledger.sources import Paged, RetryPolicy
from citeledger.sources._transport import Request as SourceRequest
from citeledger.sources._transport import Response as SourceResponse
from citeledger.sources.crossref import CrossrefSource
from citeledger.sources.openalex import OpenAlexSource
from citeledger.sources.semanticscholar import SemanticScholarSource
from tests.conftest import fixture_bytes
from tests.ledger.conftest import inbound

NOW = dt.datetime(2026, 8, 8, tzinfo=dt.UTC)
PEERJ = "doi:10.5555/ledger.2024.017"
KW: dict[str, Any] = {"policy": RetryPolicy(max_attempts=1), "min_interval": 0.0}


# ============================================================================ fixtures over HTTP


def _serve(httpserver: Any, *, s2_citations: bool = True) -> dict[str, int]:
    """Route fixture bodies by path; count requests per route; anything else is a 404."""
    work = fixture_bytes("openalex", "work-W-id.json")
    cites = fixture_bytes("openalex", "works-title-search-two-versions.json")
    item = json.loads(fixture_bytes("semanticscholar", "citation-item-with-contexts-intents.json"))
    zero = json.loads(fixture_bytes("semanticscholar", "paper-arxiv-doi.json"))
    s2_page = json.dumps({"offset": 0, "data": [item, {"citingPaper": zero}]}).encode()
    s2_404 = fixture_bytes("semanticscholar", "error-404-paper-id-not-found.json")
    hits: dict[str, int] = {}

    def count(name: str) -> None:
        hits[name] = hits.get(name, 0) + 1

    def handler(request: Request) -> Response:
        path = request.path
        if path.startswith("/openalex/works/") and "ledger.2024.017" in path:
            count("openalex-work")
            return Response(work, status=200, content_type="application/json")
        if path == "/openalex/works" and "cites:" in request.args.get("filter", ""):
            count("openalex-cites")
            return Response(cites, status=200, content_type="application/json")
        if path.startswith("/s2/paper/") and path.endswith("/citations") and s2_citations:
            count("s2-citations")
            return Response(s2_page, status=200, content_type="application/json")
        count("404 " + path.split("/")[1])
        if path.startswith("/s2/"):
            return Response(s2_404, status=404, content_type="application/json")
        return Response("<!doctype html><title>404 Not Found</title>", status=404)

    httpserver.expect_request(__import__("re").compile(r"^/.*$")).respond_with_handler(handler)
    return hits


def _sources(httpserver: Any) -> tuple[OpenAlexSource, SemanticScholarSource]:
    base = httpserver.url_for("/").rstrip("/")
    openalex = OpenAlexSource(base_url=base + "/openalex", clock=lambda: NOW, **KW)
    s2 = SemanticScholarSource(base_url=base + "/s2", announce_total=False, now=lambda: NOW, **KW)
    return openalex, s2


def test_openalex_counts_by_year_become_the_per_year_series(httpserver: Any) -> None:
    _serve(httpserver)
    openalex, _ = _sources(httpserver)
    record = cl.build_record(PEERJ, [openalex], now=NOW)
    (cby,) = record.cited_by_year
    assert cby.source == "openalex"
    assert [(y.year, y.count) for y in record.per_year()] == [(2024, 7), (2025, 30), (2026, 20)]
    assert (cby.total, cby.source_total, cby.note) == (57, 59, None)  # 2024 <= 2025: covered
    rec = record.reconciliation()
    assert (rec.per_year_source, rec.per_year_total, rec.itemized) == ("openalex", 57, 2)
    assert not rec.agrees
    # Why the per-year total differs from OpenAlex's own count and from what is itemized.
    assert "openalex's own total count is 59, 2 more than its per-year counts" in rec.explanation
    assert "2 citing works are itemized here" in rec.explanation
    # The external measurement stays its own figure, never replaced by the series' sum.
    assert [(m.source, m.value) for m in record.measurements] == [("openalex", 59)]


def test_citing_counts_from_openalex_and_s2_rank_by_a_named_source(httpserver: Any) -> None:
    hits = _serve(httpserver)
    openalex, s2 = _sources(httpserver)
    record = cl.build_record(PEERJ, [openalex, s2], now=NOW)

    # OpenAlex's journal version, OpenAlex's preprint (10.48550 DataCite DOI) and S2's record
    # (DOI and arXiv id) are one citing work, linked by identifiers, each link with its reason.
    chem = next(w for w in record.citing_works if "GPU Memory Wall" in (w.paper.title or ""))
    assert len(chem.observations) == 3
    assert set(chem.sources) == {"openalex", "semanticscholar"}
    (why,) = chem.grouping
    assert why.startswith("3 observations of one citing work")
    assert "arXiv DataCite DOI doi:10.48550/arxiv.2104.07857 is arxiv:2104.07857" in why
    assert "same identifier doi:10.1145/3458817.3476205" in why
    assert len(record.citing_works) == 2

    # Counts stay per source: OpenAlex counted the two versions separately (300 and 95),
    # S2 says 800; nothing is summed.
    got = sorted((m.source, m.value) for m in chem.cited_by)
    assert got == [("openalex", 95), ("openalex", 300), ("semanticscholar", 800)]
    assert chem.count("openalex") is not None
    assert chem.count("openalex").value == 300  # type: ignore[union-attr]
    assert record.ranking_source == "openalex"
    (dis,) = [d for d in record.disagreements if d.topic == "citing work's cited_by count"]
    assert {c.source: c.value for c in dis.claims} == {"openalex": "300", "semanticscholar": "800"}

    # Ranked by OpenAlex, the S2-only citing paper follows (no OpenAlex count); by S2, 800 > 2.
    by_oa = record.ranked_citing()
    assert [w.count("openalex") is not None for w in by_oa] == [True, False]
    by_s2 = record.ranked_citing(source="semanticscholar")
    assert [w.count("semanticscholar").value for w in by_s2] == [800, 2]  # type: ignore[union-attr]
    page = record.render("text", view="page")
    assert "cited by 300 (semanticscholar: 800)" in page

    # Areas: OpenAlex topics and S2 fields of study, filterable.
    assert record.ranked_citing(area="Parallel Computing and Optimization Techniques") == (chem,)
    throw = next(w for w in record.citing_works if w is not chem)
    assert "Computer Science" in throw.paper.areas
    # The area profile compares OpenAlex topics with OpenAlex's own primary topic of the paper.
    (prof,) = record.area_profiles
    assert prof.source == "openalex"
    assert prof.own_placement == "scientometrics and bibliometrics research"
    assert prof.explanation() == (
        "Cited by 1 in Parallel Computing and Optimization Techniques, but placed by its own "
        "OpenAlex primary topic in scientometrics and bibliometrics research."
    )

    # One request for the OpenAlex work although paper, citations, events, counts and the
    # per-year series all read it.
    assert hits["openalex-work"] == 1
    assert hits["openalex-cites"] == 1
    assert hits["s2-citations"] == 1
    assert cl.CitationRecord.from_json(record.to_json()) == record


def test_404_on_the_first_citations_page_is_not_found_not_partial(httpserver: Any) -> None:
    _serve(httpserver, s2_citations=False)
    _, s2 = _sources(httpserver)
    record = cl.build_record(PEERJ, [s2], now=NOW)
    (rep,) = [r for r in record.reports if r.capability == "citations"]
    assert rep.outcome is cl.Outcome.NOT_FOUND
    assert rep.fetched is None
    assert rep.error_type == "NotFoundError"
    cov = record.coverage_of(cl.Facet.INBOUND_ITEMIZATION)
    assert cov.state is cl.CoverageState.UNAVAILABLE
    assert cov.reason is not None
    assert "semanticscholar citations: not found" in cov.reason
    assert "0 received" not in cov.reason


def test_crossref_work_is_fetched_once_per_build(httpserver: Any) -> None:
    body = fixture_bytes("crossref", "work-references-mixed.json")
    hits: dict[str, int] = {}

    def handler(request: Request) -> Response:
        key = "filter" if request.args.get("filter") else request.path
        hits[key] = hits.get(key, 0) + 1
        if key == "filter":
            return Response("Resource not found.", status=404, content_type="text/plain")
        return Response(body, status=200, content_type="application/json")

    httpserver.expect_request(__import__("re").compile(r"^/.*$")).respond_with_handler(handler)
    crossref = CrossrefSource(
        base_url=httpserver.url_for("/").rstrip("/"), mailto="t@example.org", **KW
    )
    record = cl.build_record("doi:10.5555/ledger.2024.017", [crossref], now=NOW)
    # paper, references, events (the work itself) and citation_counts: one request.
    assert hits["/works/10.5555/ledger.2024.017"] == 1
    assert len(record.outbound) == 5
    assert [(m.source, m.value) for m in record.measurements] == [("crossref", 12)]
    # A second build asks again: nothing is remembered between builds.
    cl.build_record("doi:10.5555/ledger.2024.017", [crossref], now=NOW)
    assert hits["/works/10.5555/ledger.2024.017"] == 2


# ============================================================================ in memory


class _Counting:
    """A transport answering from a dict of bodies, counting sends per URL."""

    def __init__(self, bodies: dict[str, bytes]) -> None:
        self.bodies = bodies
        self.sent: dict[str, int] = {}

    def send(self, request: SourceRequest, *, source: str) -> SourceResponse:
        self.sent[request.url] = self.sent.get(request.url, 0) + 1
        for suffix, body in self.bodies.items():
            if request.url.endswith(suffix):
                return SourceResponse(status=200, body=body, url=request.url)
        raise NotFoundError("not here", source=source, url=request.url, status=404)


def _openalex_work(**extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "https://openalex.org/W1",
        "doi": "https://doi.org/10.1234/old",
        "title": "An old paper about something",
        "publication_year": 2010,
        "cited_by_count": 120,
        "counts_by_year": [
            {"year": 2016, "cited_by_count": 4},
            {"year": 2018, "cited_by_count": 6},
        ],
        "is_retracted": False,
    }
    base.update(extra)
    return base


def test_openalex_series_that_starts_late_says_so() -> None:
    """OpenAlex bins recent years only: the record says which years its series leaves out."""
    transport = _Counting(
        {"/works/https://doi.org/10.1234/old": json.dumps(_openalex_work()).encode()}
    )
    src = OpenAlexSource(transport=transport, clock=lambda: NOW)
    record = cl.build_record("doi:10.1234/old", [src], now=NOW)
    (cby,) = record.cited_by_year
    assert cby.note is not None
    assert "recent years only" in cby.note
    assert "2010-2015" in cby.note
    assert [(y.year, y.count) for y in record.per_year()] == [(2016, 4), (2017, 0), (2018, 6)]
    rec = record.reconciliation()
    assert not rec.agrees
    assert "unknown, not zero" in rec.explanation
    assert "own total count is 120, 110 more" in rec.explanation
    # paper, events, citation_counts and cited_by_year share one request for the work.
    (work_url,) = [u for u in transport.sent if u.endswith("/works/https://doi.org/10.1234/old")]
    assert transport.sent[work_url] == 1


def test_memo_replays_failures_without_asking_again() -> None:
    transport = _Counting({})
    src = CrossrefSource(transport=transport, clock=lambda: NOW)
    record = cl.build_record("doi:10.1234/nowhere", [src], now=NOW)
    assert transport.sent == {"https://api.crossref.org/works/10.1234/nowhere": 1}
    outcomes = {r.capability: r.outcome for r in record.reports}
    assert outcomes[cl.Capability.REFERENCES] is cl.Outcome.NOT_FOUND
    assert outcomes[cl.Capability.CITATION_COUNTS] is cl.Outcome.NOT_FOUND


def _cited() -> cl.Paper:
    return cl.Paper(identifiers=["doi:10.1234/cited"], title="The cited paper", year=2020)


def _obs(src: str, citing: cl.Paper, pos: int = 1, cited: cl.Paper | None = None) -> cl.Observation:
    return inbound(src, citing, cited or _cited(), observed=NOW, position=pos)


class _Src:
    def __init__(self, name: str, observations: list[cl.Observation]) -> None:
        self.name = name
        self.capabilities = frozenset(cl.Capability)
        self._obs = observations
        self.event_calls: list[str] = []
        self.paper_calls: list[str] = []
        self.refs: list[cl.Reference] = []

    def paper(self, identifier: Any) -> cl.Paper:
        self.paper_calls.append(str(identifier))
        return _cited()

    def references(self, identifier: Any) -> list[cl.Reference]:
        return self.refs

    def citations(self, identifier: Any) -> Iterator[cl.Observation]:
        return iter(self._obs)

    def events(self, identifier: Any) -> cl.NoticeCheck:
        self.event_calls.append(str(identifier))
        return cl.NoticeCheck.none_found(sources=[self.name], checked=NOW)

    def citation_counts(self, identifier: Any) -> list[cl.Measurement]:
        return []

    def search(self, query: Any, *, limit: int = 10) -> list[cl.Paper]:
        return []


TITLE = "Deep learning for protein structure prediction"


def test_same_title_and_year_without_a_shared_author_is_two_works() -> None:
    a = cl.Paper(title=TITLE, year=2021, authors=["Ada Lovelace"])
    b = cl.Paper(title=TITLE, year=2021, authors=["Alan Turing"])
    rec = cl.build_record(
        "doi:10.1234/cited", [_Src("x", [_obs("x", a, 1), _obs("x", b, 2)])], now=NOW
    )
    assert len(rec.citing_works) == 2
    for w in rec.citing_works:
        (note,) = w.unlinked
        assert "not grouped (no shared author" in note
    assert "not grouped" in rec.render("text")


def test_same_title_year_and_shared_family_name_is_one_work_with_the_reason() -> None:
    a = cl.Paper(title=TITLE, year=2021, authors=["Ada Lovelace", "Charles Babbage"])
    b = cl.Paper(title=TITLE, year=2021, authors=["A. Lovelace"])
    rec = cl.build_record(
        "doi:10.1234/cited", [_Src("x", [_obs("x", a, 1), _obs("y", b, 1)])], now=NOW
    )
    (work,) = rec.citing_works
    assert "same title and year (2021) and shared author lovelace" in work.grouping[0].casefold()


def test_same_title_different_year_is_two_works() -> None:
    a = cl.Paper(title=TITLE, year=2021, authors=["Ada Lovelace"])
    b = cl.Paper(title=TITLE, year=2023, authors=["Ada Lovelace"])
    rec = cl.build_record("doi:10.1234/cited", [_Src("x", [_obs("x", a), _obs("y", b)])], now=NOW)
    assert len(rec.citing_works) == 2
    assert "years differ (2021, 2023)" in rec.citing_works[0].unlinked[0]


def test_arxiv_datacite_doi_and_arxiv_id_group_across_titles() -> None:
    a = cl.Paper(
        identifiers=["doi:10.48550/arXiv.2304.05376"], title="ChemCrow preprint", year=2023
    )
    b = cl.Paper(identifiers=["arXiv:2304.05376v2"], title="Augmenting LLMs with chemistry tools")
    rec = cl.build_record("doi:10.1234/cited", [_Src("x", [_obs("x", a), _obs("y", b)])], now=NOW)
    (work,) = rec.citing_works
    assert (
        "arXiv DataCite DOI doi:10.48550/arxiv.2304.05376 is arxiv:2304.05376v2" in work.grouping[0]
    )


def test_each_source_capability_and_identifier_is_asked_once() -> None:
    # The paper cites itself: with network=True the resolver looks the reference's identifier
    # up through paper(), which was already asked about that identifier for the record.
    src = _Src("x", [])
    src.refs = [
        cl.Reference(position=1, identifiers=["doi:10.1234/cited"], title="The cited paper")
    ]
    rec = cl.build_record("doi:10.1234/cited", [src], now=NOW, network=True)
    assert src.paper_calls == ["doi:10.1234/cited"]
    assert len(rec.outbound) == 1
    # events() for the one cited work (the paper itself) once, too.
    assert src.event_calls == ["doi:10.1234/cited"]


def test_progress_callable_and_quiet_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    citing = [cl.Paper(identifiers=[f"doi:10.9999/{i}"], title=f"Citing {i}") for i in range(5)]
    src = _Src("x", [_obs("x", p, i) for i, p in enumerate(citing, start=1)])
    seen: list[tuple[int, int | None]] = []
    rec = cl.build_record(
        "doi:10.1234/cited", [src], now=NOW, progress=lambda d, t: seen.append((d, t))
    )
    assert len(rec.inbound) == 5
    dones = [d for d, _ in seen]
    assert dones == sorted(dones)
    assert dones == list(range(1, len(dones) + 1))  # one step at a time
    assert {t for _, t in seen} == {None}  # the number of citing papers is not known up front
    assert len(dones) >= 5 + 4  # five observations plus paper/references/citations/counts calls
    cl.build_record("doi:10.1234/cited", [src], now=NOW)  # default: quiet
    cl.build_record("doi:10.1234/cited", [src], now=NOW, progress=True)  # not a terminal: quiet
    assert capsys.readouterr().err == ""
    with pytest.raises(TypeError):
        cl.build_record("doi:10.1234/cited", [src], now=NOW, progress="yes")  # type: ignore[arg-type]


class _NotFoundFirstPage(_Src):
    def citations(self, identifier: Any) -> Paged[cl.Observation]:
        def pages() -> Iterator[tuple[list[cl.Observation], int | None]]:
            raise NotFoundError("no such paper", source=self.name, url="http://x/cites", status=404)
            yield [], None  # pragma: no cover - makes this a generator

        return Paged(pages())


def test_404_on_first_page_with_another_source_listing() -> None:
    ok = _Src("ok", [_obs("ok", cl.Paper(identifiers=["doi:10.9999/a"], title="A"))])
    rec = cl.build_record("doi:10.1234/cited", [_NotFoundFirstPage("nf", []), ok], now=NOW)
    (rep,) = [r for r in rec.reports if r.capability == "citations" and r.source == "nf"]
    assert rep.outcome is cl.Outcome.NOT_FOUND
    cov = rec.coverage_of(cl.Facet.INBOUND_ITEMIZATION)
    assert cov.sources == ("ok",)  # the source that did not know the work measured nothing
    assert cov.state is cl.CoverageState.PARTIAL
    assert cov.reason is not None
    assert "nf citations: not found" in cov.reason


def test_citing_work_count_picks_per_source_and_shows_others() -> None:
    m = [
        cl.Measurement(value=106, source="openalex", observed=NOW),
        cl.Measurement(value=500, source="semanticscholar", observed=NOW),
        cl.Measurement(value=236, source="openalex", observed=NOW),
    ]
    w = CitingWork(key="k", paper=cl.Paper(title="T"), cited_by=m)
    assert w.count().value == 236  # type: ignore[union-attr]  # first source, its larger count
    assert w.count("semanticscholar").value == 500  # type: ignore[union-attr]
    assert [(o.source, o.value) for o in w.other_counts("openalex")] == [("semanticscholar", 500)]
    same = CitingWork(key="k", paper=cl.Paper(title="T"), cited_by=[m[1], attrs_evolve(m[1])])
    assert same.other_counts("semanticscholar") == ()


def attrs_evolve(m: cl.Measurement) -> cl.Measurement:
    return cl.Measurement(value=m.value, source="other", observed=m.observed)
