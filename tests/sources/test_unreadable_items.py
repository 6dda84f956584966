"""Unreadable items of a listing: the others are kept in order, each bad one is recorded with its
reason, and the ledger's coverage says partial with the count (never a silently dropped record).

The hand-written payloads in tests/fixtures/ (the recorded shapes) are read, copied in memory and
mutated; small inline bodies cover the rest.
"""

from __future__ import annotations

import copy
import csv
import datetime as dt
import io
import json
import pickle
from collections.abc import Callable, Iterator
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

import citeledger as cl
from citeledger.formats import dumps, jats, tei
from citeledger.ledger import Outcome, SourceReport
from citeledger.model import CoverageState, Direction, Facet, NoticeStatus, Reference
from citeledger.serialize import structure
from citeledger.sources import (
    Capability,
    Paged,
    SearchResults,
    UnreadableItem,
    arxiv,
    crossref,
    describe_unreadable,
    openalex,
    opencitations,
)
from citeledger.sources import retractionwatch as rw
from citeledger.sources import semanticscholar as s2
from citeledger.sources._transport import Request, Response
from citeledger.testing import FakeSource, ReplayTransport
from tests.conftest import FIXTURES

NOW = dt.datetime(2026, 8, 8, 6, 32, tzinfo=dt.UTC)


def recorded(source: str, name: str) -> Any:
    """A fixture JSON payload in the recorded shape, parsed (a fresh copy each call: mutate freely)."""
    return json.loads((FIXTURES / source / name).read_bytes())


def crossref_list(*items: Any, total: int | None = None, cursor: str | None = None) -> bytes:
    message: dict[str, Any] = {"items": list(items), "total-results": total or len(items)}
    if cursor is not None:
        message["next-cursor"] = cursor
    return json.dumps({"status": "ok", "message-type": "work-list", "message": message}).encode()


# --------------------------------------------------------------------------- pure parsers


@pytest.mark.parametrize(
    "bad", [{"DOI": "10.1234/odd", "author": 5}, {"DOI": 5}, "a string", None, [1, 2]]
)
def test_crossref_page_keeps_the_others_and_records_the_bad_item(bad: Any) -> None:
    data = recorded("crossref", "journal-works-cursor-page-with-notices.json")
    items = data["message"]["items"]
    expected = [crossref.work_from_message(i).doi for i in items]
    middle = len(items) // 2
    items[middle] = bad
    page = crossref.parse_work_list(json.dumps(data).encode())
    assert [w.doi for w in page.works] == expected[:middle] + expected[middle + 1 :]
    (item,) = page.skipped
    assert (item.source, item.what, item.index) == ("crossref", "work record", middle)
    assert item.reason.startswith("crossref: ")
    # Text is kept as it came, anything else as its JSON (a null item leaves no excerpt).
    expected_excerpt = bad if isinstance(bad, str) else ("" if bad is None else json.dumps(bad))
    assert item.excerpt == expected_excerpt


def test_crossref_reason_says_what_was_wrong() -> None:
    page = crossref.parse_work_list(
        crossref_list(
            {"DOI": "10.1234/a"}, {"DOI": "10.1234/b", "subject": 5}, {"DOI": "10.1234/c"}
        )
    )
    assert [str(w.doi) for w in page.works] == ["doi:10.1234/a", "doi:10.1234/c"]
    (item,) = page.skipped
    assert item.index == 1
    assert "unexpected shape" in item.reason
    assert '"subject": 5' in item.excerpt


def test_crossref_reference_entry_that_is_not_an_object_is_kept_at_its_position() -> None:
    refs = [{"key": "r1", "DOI": "10.1234/x"}, "Smith J. A title. 2020.", 7, {"key": "r4"}]
    work = crossref.work_from_message({"DOI": "10.1234/w", "reference": refs})
    assert [r.position for r in work.references] == [1, 2, 3, 4]
    assert work.references[1].raw == "Smith J. A title. 2020."
    assert "of type str" in (work.references[1].unreadable or "")
    assert "of type int" in (work.references[2].unreadable or "")
    assert work.references[3].unreadable is None


def test_openalex_page_keeps_the_others_and_records_the_bad_result() -> None:
    data = recorded("openalex", "works-title-search-two-versions.json")
    good = [openalex.work_from_json(r).id for r in data["results"]]
    bad = copy.deepcopy(data["results"][0]) | {"topics": 5}
    data["results"].insert(1, bad)
    page = openalex.parse_work_list(data)
    assert [w.id for w in page.works] == good
    (item,) = page.skipped
    assert (item.source, item.what, item.index) == ("openalex", "work", 1)
    assert "unexpected shape" in item.reason


def test_openalex_result_without_an_id_is_recorded() -> None:
    body = {"results": [{"id": "https://openalex.org/W1"}, {"title": "no id"}]}
    page = openalex.parse_work_list(body)
    assert [str(w.id) for w in page.works] == ["openalex:W1"]
    assert page.skipped[0].index == 1
    assert "without a valid W id" in page.skipped[0].reason


S2_FIRST = "paper-citations-first-page.json"
S2_REFS = "paper-references-contexts-intents-page1.json"


@pytest.mark.parametrize(
    ("name", "parse", "key"),
    [
        (S2_FIRST, s2.parse_citations_page, "citingPaper"),
        (S2_REFS, s2.parse_references_page, "citedPaper"),
    ],
)
@pytest.mark.parametrize(
    "mutate",
    [
        lambda row, key: {**row, key: 5},
        lambda row, key: {**row, "contexts": "not a list"},
        lambda row, key: {**row, key: {**row[key], "authors": [5]}},
        lambda row, key: None,
    ],
    ids=["paper-not-object", "contexts-not-array", "author-not-object", "row-null"],
)
def test_s2_listing_page_keeps_every_readable_row(
    name: str, parse: Any, key: str, mutate: Any
) -> None:
    data = recorded("semanticscholar", name)
    rows = data["data"]
    whole = parse(json.dumps(data).encode())
    assert whole.skipped == ()
    middle = len(rows) // 2
    rows[middle] = mutate(rows[middle], key)
    page = parse(json.dumps(data).encode())
    kept = [link for link in whole.items if link.index != middle]
    assert page.items == tuple(kept)  # same links, same order, S2 indices unchanged
    (item,) = page.skipped
    assert (item.source, item.index) == ("semanticscholar", middle)
    assert item.reason.startswith("semanticscholar")
    assert page.next == whole.next


def test_opencitations_answer_keeps_the_others_and_records_the_bad_row() -> None:
    rows = recorded("opencitations", "coci-v1-citations.json")
    whole = opencitations.parse_link_list(json.dumps(rows).encode())
    middle = len(rows) // 2
    rows[middle] = {**rows[middle], "creation": "not a date"}
    page = opencitations.parse_link_list(json.dumps(rows).encode())
    assert page.links == whole.links[:middle] + whole.links[middle + 1 :]
    (item,) = page.skipped
    assert (item.what, item.index) == ("citation link", middle)
    assert "creation 'not a date'" in item.reason
    with pytest.raises(cl.ParseError, match="not a date"):
        opencitations.parse_links(json.dumps(rows).encode())


def test_opencitations_row_that_is_not_an_object_is_recorded() -> None:
    body = (
        b'[{"citing": "doi:10.1234/a", "cited": "doi:10.1234/b"}, 5, {"citing": "doi:10.1234/c"}]'
    )
    page = opencitations.parse_link_list(body)
    assert [link.citing for link in page.links] == [("doi:10.1234/a",)]
    assert [i.index for i in page.skipped] == [1, 2]
    assert "of type int" in page.skipped[0].reason
    assert "needs citing and cited ids" in page.skipped[1].reason


ATOM = "{http://www.w3.org/2005/Atom}"


def test_arxiv_feed_keeps_the_others_and_records_the_bad_entry() -> None:
    raw = (FIXTURES / "arxiv" / "search-page.xml").read_bytes()
    whole = arxiv.parse_feed(raw)
    root = etree.fromstring(raw)
    entries = root.findall(f"{ATOM}entry")
    middle = len(entries) // 2
    id_el = entries[middle].find(f"{ATOM}id")
    assert id_el is not None
    id_el.text = "http://arxiv.org/abs/not-an-id"
    feed = arxiv.parse_feed(etree.tostring(root))
    assert feed.entries == whole.entries[:middle] + whole.entries[middle + 1 :]
    (item,) = feed.skipped
    assert (item.source, item.what, item.index) == ("arxiv", "feed entry", middle)
    assert item.excerpt == "http://arxiv.org/abs/not-an-id"
    assert "not-an-id" in item.reason


# --------------------------------------------------------------------------- Paged


def _page(items: list[str], total: int | None, bad: list[int]) -> Any:
    return (
        items,
        total,
        [UnreadableItem(source="x", what="row", index=i, reason="b") for i in bad],
    )


def test_paged_counts_unreadable_apart_and_places_them_in_the_listing() -> None:
    pages = iter(
        [
            _page(["a", "b"], 7, [1]),  # listing: a ? b
            (["c"], 7),  # two-tuples still work
            _page(["d"], 7, [0, 2]),  # listing: ? d ?
        ]
    )
    paged: Paged[str] = Paged(pages)
    assert list(paged) == ["a", "b", "c", "d"]
    assert (paged.fetched, paged.unreadable, paged.total, paged.complete) == (4, 3, 7, True)
    assert [u.listing_index for u in paged.skipped] == [1, 4, 6]
    assert [u.index for u in paged.skipped] == [1, 0, 2]
    assert paged.describe() == (
        "received 4 of 7 announced, 3 unreadable (x row at index 1: b; x row at index 4: b; "
        "x row at index 6: b)"
    )


@given(
    st.lists(st.lists(st.one_of(st.integers(0, 99), st.none()), max_size=6), min_size=1, max_size=5)
)
def test_paged_keeps_every_readable_item_in_order(pages: list[list[int | None]]) -> None:
    # None stands for an unreadable item; its listing index must be where it stood.
    def gen() -> Iterator[Any]:
        for page in pages:
            bad = [i for i, v in enumerate(page) if v is None]
            yield _page([str(v) for v in page if v is not None], None, bad)

    paged: Paged[str] = Paged(gen())
    flat = [v for page in pages for v in page]
    assert list(paged) == [str(v) for v in flat if v is not None]
    assert paged.fetched + paged.unreadable == len(flat)
    assert [u.listing_index for u in paged.skipped] == [i for i, v in enumerate(flat) if v is None]


def test_describe_unreadable_counts_every_item_and_shows_few_reasons() -> None:
    items = [UnreadableItem(source="s", what="w", index=i, reason=f"r{i}") for i in range(5)]
    text = describe_unreadable(items)
    assert text.startswith("5 unreadable (s w at index 0: r0; ")
    assert text.endswith("; and 2 more)")


def test_excerpt_is_bounded() -> None:
    item = UnreadableItem.of("s", "w", 0, "r", {"title": "x" * 1000})
    assert len(item.excerpt) == 200
    assert item.excerpt.endswith("...")


# --------------------------------------------------------------------------- edges


class Routes:
    """A transport answering each (path, cursor/offset) from a dict; records what was asked."""

    def __init__(self, answers: dict[tuple[str, str | None], Any]) -> None:
        self.answers = answers
        self.asked: list[tuple[str, str | None]] = []

    def send(self, request: Request, *, source: str) -> Response:
        params = dict(request.params)
        at = params.get("cursor", params.get("offset"))
        key = (request.url.split("://", 1)[1].split("/", 1)[1], None if at is None else str(at))
        self.asked.append(key)
        body = self.answers[key]
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        return Response(status=200, body=raw, url=request.url)


def test_crossref_paging_does_not_stop_on_a_page_shortened_by_an_unreadable_item() -> None:
    routes = Routes(
        {
            ("works", "*"): crossref_list(
                {"DOI": "10.1234/a"}, {"DOI": 5}, {"DOI": "10.1234/c"}, total=4, cursor="next"
            ),
            ("works", "next"): crossref_list({"DOI": "10.1234/d"}, total=4),
        }
    )
    src = crossref.CrossrefSource(transport=routes, rows=3)
    paged = src.works()
    papers = list(paged)
    assert [str(p.identifiers[0]) for p in papers] == [
        "doi:10.1234/a",
        "doi:10.1234/c",
        "doi:10.1234/d",
    ]
    assert routes.asked == [("works", "*"), ("works", "next")]
    assert (paged.fetched, paged.total, paged.complete) == (3, 4, True)
    (item,) = paged.skipped
    assert (item.index, item.listing_index) == (1, 1)


def test_crossref_unreadable_update_notice_makes_the_check_unavailable_not_none_found() -> None:
    routes = Routes(
        {
            ("works/10.1234/w", None): {
                "status": "ok",
                "message-type": "work",
                "message": {"DOI": "10.1234/w"},
            },
            ("works", "*"): crossref_list({"DOI": "10.1234/notice", "update-to": 5}),
        }
    )
    check = crossref.CrossrefSource(transport=routes, clock=lambda: NOW).events("doi:10.1234/w")
    assert check.status is cl.NoticeStatus.UNAVAILABLE
    assert "1 unreadable" in (check.reason or "")


def test_openalex_citations_page_through_and_record_unreadable_results() -> None:
    cited = {"id": "https://openalex.org/W9", "title": "Cited"}
    routes = Routes(
        {
            ("works/W9", None): cited,
            ("works", "*"): {
                "meta": {"count": 4, "next_cursor": "c2"},
                "results": [{"id": "https://openalex.org/W1"}, {"id": 5}],
            },
            ("works", "c2"): {
                "meta": {"count": 4, "next_cursor": None},
                "results": [{"id": "https://openalex.org/W3"}, {"id": "https://openalex.org/W4"}],
            },
        }
    )
    src = openalex.OpenAlexSource(transport=routes, per_page=2, clock=lambda: NOW)
    paged = src.citations("openalex:W9")
    assert [str(o.citing.identifiers[0]) for o in paged] == [
        "openalex:W1",
        "openalex:W3",
        "openalex:W4",
    ]
    assert (paged.fetched, paged.unreadable, paged.total) == (3, 1, 4)
    assert paged.skipped[0].listing_index == 1


def test_openalex_batch_id_whose_record_was_unreadable_is_not_reported_not_found() -> None:
    routes = Routes({("works", None): {"results": [{"id": "https://openalex.org/W1"}, {"id": 7}]}})
    src = openalex.OpenAlexSource(transport=routes)
    (one, two) = src.papers(["openalex:W1", "openalex:W2"])
    assert one[1] is not None
    assert one[2] is None
    assert two[1] is None
    assert isinstance(two[2], cl.ParseError)
    assert "1 unreadable" in str(two[2])


def _s2_routes(rows: list[Any], kind: str) -> Routes:
    return Routes(
        {
            ("paper/CorpusId:1", None): {"citationCount": len(rows), "referenceCount": len(rows)},
            (f"paper/CorpusId:1/{kind}", "0"): {"offset": 0, "data": rows},
        }
    )


def test_s2_citations_keep_readable_rows_and_record_the_rest() -> None:
    rows = [
        {"citingPaper": {"title": "A"}},
        {"citingPaper": None},
        {"citingPaper": {"title": "C"}},
    ]
    src = s2.SemanticScholarSource(
        transport=_s2_routes(rows, "citations"), base_url="http://x", now=lambda: NOW
    )
    paged = src.citations("CorpusId:1")
    assert [o.citing.title for o in paged] == ["A", "C"]
    assert (paged.fetched, paged.unreadable, paged.total, paged.complete) == (2, 1, 3, True)
    assert paged.skipped[0].listing_index == 1


def test_s2_references_keep_an_unreadable_row_at_its_position() -> None:
    rows = [{"citedPaper": {"title": "A"}}, {"citedPaper": 5}, {"citedPaper": {"title": "C"}}]
    src = s2.SemanticScholarSource(
        transport=_s2_routes(rows, "references"), base_url="http://x", now=lambda: NOW
    )
    refs = src.references("CorpusId:1")
    assert [(r.position, r.title) for r in refs] == [(1, "A"), (2, None), (3, "C")]
    assert "has no 'citedPaper'" in (refs[1].unreadable or "")


def test_opencitations_references_keep_an_unreadable_row_at_its_position() -> None:
    rows = [
        {"citing": "doi:10.1234/w", "cited": "doi:10.1234/a"},
        {"citing": "doi:10.1234/w", "cited": ""},
        {"citing": "doi:10.1234/w", "cited": "doi:10.1234/c"},
    ]
    routes = Routes({("references/doi:10.1234/w", None): rows})
    src = opencitations.OpenCitationsSource(transport=routes, version="v2", base_url="http://x")
    refs = src.references("doi:10.1234/w")
    assert [r.position for r in refs] == [1, 2, 3]
    assert [str(i) for i in refs[2].identifiers] == ["doi:10.1234/c"]
    assert refs[1].identifiers == ()
    assert "needs citing and cited ids" in (refs[1].unreadable or "")


# --------------------------------------------------------------------------- the ledger


class ListingSource:
    """A fake source whose citations are a real Paged with unreadable items.

    Kept bespoke (not ``citeledger.testing.FakeSource``): it scripts the listing page by page,
    unreadable items included, which FakeSource's one complete page cannot.
    """

    name = "fake"
    capabilities = frozenset({Capability.PAPER, Capability.REFERENCES, Capability.CITATIONS})

    def __init__(self, pages: list[Any], references: list[cl.Reference] | None = None) -> None:
        self._pages = pages
        self._references = references or []

    def paper(self, identifier: Any) -> cl.Paper:
        return cl.Paper(identifiers=[identifier], title="The cited paper", year=2020)

    def references(self, identifier: Any) -> list[cl.Reference]:
        del identifier
        return list(self._references)

    def citations(self, identifier: Any) -> Paged[cl.Observation]:
        del identifier
        return Paged(iter(self._pages))


def _observations(page: s2.S2Page[s2.S2Link]) -> list[cl.Observation]:
    subject = cl.Paper(identifiers=["CorpusId:14514057"])
    return [
        s2.link_observation(link, subject=subject, direction=Direction.INBOUND, observed=NOW)
        for link in page.items
    ]


def test_ledger_inbound_coverage_is_partial_with_the_unreadable_count() -> None:
    data = recorded("semanticscholar", S2_FIRST)
    data["data"][1] = {"citingPaper": "junk"}
    data["data"][2] = {"citingPaper": {"title": "T", "authors": 5}}
    page = s2.parse_citations_page(json.dumps(data).encode())
    src = ListingSource([(_observations(page), None, page.skipped)])
    record = cl.build_record("CorpusId:14514057", [src], now=NOW)
    cov = record.coverage_of(Facet.INBOUND_ITEMIZATION)
    assert cov.state is CoverageState.PARTIAL
    assert (cov.measured, cov.total) == (1, 3)
    assert "2 unreadable" in (cov.reason or "")
    assert "listing element 1 has no 'citingPaper'" in (cov.reason or "")
    (report,) = [r for r in record.reports if r.capability == "citations"]
    assert report.outcome is Outcome.PARTIAL
    assert report.fetched == 1
    assert [u.listing_index for u in report.unreadable] == [1, 2]
    assert "1 received, 2 unreadable (" in report.describe()


def test_ledger_inbound_all_readable_stays_complete() -> None:
    obs = cl.Observation(
        direction="inbound",
        citing=cl.Paper(identifiers=["doi:10.1234/c"], title="Citing"),
        cited=cl.Paper(identifiers=["doi:10.1234/w"]),
        source="fake",
        observed=NOW,
    )
    record = cl.build_record("doi:10.1234/w", [ListingSource([([obs], None, ())])], now=NOW)
    cov = record.coverage_of(Facet.INBOUND_ITEMIZATION)
    assert cov.state is CoverageState.COMPLETE
    assert (cov.measured, cov.total) == (1, 1)


def test_ledger_inbound_with_only_unreadable_items_is_partial_not_nothing_to_measure() -> None:
    bad = UnreadableItem(source="fake", what="row", index=0, reason="no citing paper")
    record = cl.build_record("doi:10.1234/w", [ListingSource([([], None, [bad])])], now=NOW)
    cov = record.coverage_of(Facet.INBOUND_ITEMIZATION)
    assert cov.state is CoverageState.PARTIAL
    assert (cov.measured, cov.total) == (0, 1)
    assert "1 unreadable (fake row at index 0: no citing paper)" in (cov.reason or "")


def test_ledger_reference_coverage_counts_unreadable_entries() -> None:
    work = crossref.work_from_message(
        {
            "DOI": "10.1234/w",
            "reference": [{"key": "r1", "DOI": "10.1234/a"}, {"key": "r2", "author": 5}, 7],
        }
    )
    src = ListingSource([], references=list(work.references))
    record = cl.build_record("doi:10.1234/w", [src], now=NOW)
    cov = record.coverage_of(Facet.REFERENCE_RESOLUTION)
    assert cov.state is CoverageState.PARTIAL
    assert (cov.measured, cov.total) == (1, 3)
    assert "2 unreadable" in (cov.reason or "")
    assert len(record.outbound) == 3  # the unreadable entries are kept, not dropped
    (report,) = [r for r in record.reports if r.capability == "references"]
    assert (report.outcome, report.fetched, report.total) == (Outcome.PARTIAL, 1, 3)
    assert [u.index for u in report.unreadable] == [1, 2]


def test_record_with_unreadable_items_round_trips_and_fits_the_schema() -> None:
    data = recorded("semanticscholar", S2_FIRST)
    data["data"][1] = None
    page = s2.parse_citations_page(json.dumps(data).encode())
    record = cl.build_record(
        "CorpusId:14514057", [ListingSource([(_observations(page), 100, page.skipped)])], now=NOW
    )
    text = record.to_json()
    jsonschema.validate(json.loads(text), cl.CitationRecord.json_schema())
    back = cl.CitationRecord.from_json(text)
    assert back == record
    (report,) = [r for r in back.reports if r.capability == "citations"]
    assert [(u.index, u.listing_index) for u in report.unreadable] == [(1, 1)]


items = st.builds(
    UnreadableItem,
    source=st.sampled_from(["crossref", "openalex", "semanticscholar"]),
    what=st.text(min_size=1, max_size=20),
    index=st.none() | st.integers(0, 10_000),
    listing_index=st.none() | st.integers(0, 10_000),
    reason=st.text(max_size=80),
    excerpt=st.text(max_size=200),
)


@given(items)
def test_unreadable_item_round_trips_through_json(item: UnreadableItem) -> None:
    conv = cl.make_converter()
    assert structure(json.loads(json.dumps(conv.unstructure(item))), UnreadableItem) == item


@given(st.lists(items, max_size=3))
def test_source_report_with_unreadable_items_round_trips(unread: list[UnreadableItem]) -> None:
    report = SourceReport(
        source="s", capability="citations", outcome="partial", fetched=1, unreadable=unread
    )
    conv = cl.make_converter()
    assert structure(conv.unstructure(report), SourceReport) == report


# --------------------------------------------------------------------------- dump readers


def test_jsonl_dump_bad_line_raises_by_default_and_is_recorded_on_request(tmp_path: Any) -> None:
    path = tmp_path / "part_000.jsonl"
    path.write_text('{"id": "W1"}\n[1, 2]\nnot json\n{"id": "W4"}\n')
    with pytest.raises(cl.ParseError, match="line 2 is not a JSON object"):
        list(dumps.iter_openalex_works(path))
    bad: list[UnreadableItem] = []
    records = list(dumps.iter_openalex_works(path, on_unreadable=bad.append))
    assert records == [{"id": "W1"}, {"id": "W4"}]
    assert [(u.what, u.excerpt) for u in bad] == [
        ("JSON line", "[1, 2]"),
        ("JSON line", "not json"),
    ]
    assert "part_000.jsonl: line 2" in bad[0].reason
    assert "part_000.jsonl: line 3 is not JSON" in bad[1].reason


def test_dump_record_the_parser_rejects_is_recorded(tmp_path: Any) -> None:
    path = tmp_path / "part_000.jsonl"
    rows = [{"id": "https://openalex.org/W1"}, {"id": "x"}, {"id": "https://openalex.org/W3"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(cl.ParseError, match="without a valid W id"):
        list(dumps.iter_openalex_works(path, parse=openalex.work_from_json))
    bad: list[UnreadableItem] = []
    works = list(
        dumps.iter_openalex_works(path, parse=openalex.work_from_json, on_unreadable=bad.append)
    )
    assert [str(w.id) for w in works] == ["openalex:W1", "openalex:W3"]
    (item,) = bad
    assert item.what == "dump record"
    assert "line 2: openalex: work without a valid W id" in item.reason


def test_crossref_dump_element_that_is_not_an_object_is_recorded(tmp_path: Any) -> None:
    path = tmp_path / "0.json"
    path.write_text(json.dumps({"items": [{"DOI": "10.1234/a"}, "junk", {"DOI": "10.1234/c"}]}))
    with pytest.raises(cl.ParseError, match="not an object"):
        list(dumps.iter_crossref_items(path))
    bad: list[UnreadableItem] = []
    items = list(dumps.iter_crossref_items(path, on_unreadable=bad.append))
    assert items == [{"DOI": "10.1234/a"}, {"DOI": "10.1234/c"}]
    (item,) = bad
    assert "items[1]" in item.reason
    assert item.excerpt == "junk"


def test_opencitations_dump_bad_row_is_recorded(tmp_path: Any) -> None:
    lines = (FIXTURES / "opencitations" / "index-v2-dump-citations-sample.csv").read_text()
    rows = lines.splitlines()
    whole = [link.oci for link in dumps.iter_opencitations_csv(_write(tmp_path, "a.csv", rows))]
    cells = rows[3].split(",")
    cells[3] = "29 June 2018"  # creation
    rows[3] = ",".join(cells)
    path = _write(tmp_path, "b.csv", rows)
    with pytest.raises(cl.ParseError, match="line 4"):
        list(dumps.iter_opencitations_csv(path))
    bad: list[UnreadableItem] = []
    kept = [link.oci for link in dumps.iter_opencitations_csv(path, on_unreadable=bad.append)]
    assert kept == whole[:2] + whole[3:]
    (item,) = bad
    assert (item.what, item.index) == ("CSV row", None)
    assert "b.csv: line 4" in item.reason
    assert "29 June 2018" in item.excerpt


def _write(tmp_path: Any, name: str, rows: list[str]) -> Any:
    path = tmp_path / name
    path.write_text("\n".join(rows) + "\n")
    return path


# --- More unreadable items: S2 search results, retraction updates and CSV rows, JATS/TEI entries.


S2_MATCH = FIXTURES / "semanticscholar" / "paper-search-match.json"

OPEN_RETRACTIONS = FIXTURES / "retractionwatch" / "open-retractions-labels-disagree.json"

RW_CSV = FIXTURES / "retractionwatch" / "retraction-watch-sample.csv"

JATS_MIXED = FIXTURES / "jats" / "mixed-citation-ref-list.xml"

GROBID = FIXTURES / "tei" / "grobid-references.tei.xml"


def _three_results() -> dict[str, Any]:
    """The fixture search answer's paper, three times with distinct titles."""
    data = json.loads(S2_MATCH.read_bytes())
    paper = data["data"][0]
    rows = [copy.deepcopy(paper) | {"title": f"Paper {c}", "paperId": None} for c in "ABC"]
    return {"total": 3, "offset": 0, "data": rows}


@pytest.mark.parametrize(
    "mutate",
    [
        lambda row: None,
        lambda row: "a string",
        lambda row: {**row, "authors": 5},
        lambda row: {**row, "journal": [1]},
    ],
    ids=["null", "string", "authors-not-array", "journal-not-object"],
)
def test_s2_search_page_keeps_the_others_in_order_and_records_the_bad_one(mutate: Any) -> None:
    data = _three_results()
    data["data"][1] = mutate(data["data"][1])
    body = json.dumps(data).encode()
    page = s2.parse_search_page(body)
    assert [p.title for p in page.items] == ["Paper A", "Paper C"]
    assert page.total == 3
    (item,) = page.skipped
    assert (item.source, item.what, item.index) == ("semanticscholar", "search result", 1)
    assert item.reason.startswith("semanticscholar: ")
    # The strict parser still never returns a list that looks complete but is not.
    with pytest.raises(cl.ParseError, match=r"result 1 cannot be read"):
        s2.parse_search(body)


def test_s2_strict_parse_search_unchanged_on_a_readable_answer() -> None:
    raw = S2_MATCH.read_bytes()
    (paper,) = s2.parse_search(raw)
    assert s2.parse_search_page(raw).items == (paper,)
    assert s2.parse_search_page(raw).skipped == ()


def test_s2_source_search_returns_readable_papers_and_the_unreadable_ones() -> None:
    data = _three_results()
    data["data"][1] = {"title": "B", "authors": [5]}
    src = s2.SemanticScholarSource(
        transport=ReplayTransport(fallback=data), base_url="http://x", now=lambda: NOW
    )
    found = src.search("paper", limit=10)
    assert isinstance(found, SearchResults)
    assert [p.title for p in found] == ["Paper A", "Paper C"]
    assert [(u.index, u.what) for u in found.skipped] == [(1, "search result")]
    # Still the list the protocol promises, and the record survives pickling.
    assert isinstance(found, list)
    assert found == [found[0], found[1]]
    back = pickle.loads(pickle.dumps(found))
    assert back == found
    assert back.skipped == found.skipped


def test_s2_search_limit_keeps_the_unreadable_record() -> None:
    body = {"data": [{"title": "A"}, 5, {"title": "C"}, {"title": "D"}]}
    src = s2.SemanticScholarSource(
        transport=ReplayTransport(fallback=body), base_url="http://x", now=lambda: NOW
    )
    found = src.search("q", limit=2)
    assert [p.title for p in found] == ["A", "C"]
    assert isinstance(found, SearchResults)
    assert [u.index for u in found.skipped] == [1]


def test_crossref_and_openalex_search_carry_unreadable_candidates() -> None:
    cr_body = {
        "status": "ok",
        "message-type": "work-list",
        "message": {"items": [{"DOI": "10.1234/a"}, {"DOI": 5}, {"DOI": "10.1234/c"}]},
    }
    found = crossref.CrossrefSource(transport=ReplayTransport(fallback=cr_body)).search(
        "a title", limit=5
    )
    assert [str(p.identifiers[0]) for p in found] == ["doi:10.1234/a", "doi:10.1234/c"]
    assert isinstance(found, SearchResults)
    assert [u.index for u in found.skipped] == [1]
    oa_body = {"results": [{"id": "https://openalex.org/W1"}, {"id": 7}]}
    found = openalex.OpenAlexSource(transport=ReplayTransport(fallback=oa_body)).search("a title")
    assert [str(p.identifiers[0]) for p in found] == ["openalex:W1"]
    assert isinstance(found, SearchResults)
    assert [u.index for u in found.skipped] == [1]


def search_only(results: list[cl.Paper], skipped: list[UnreadableItem]) -> FakeSource:
    """A source answering the paper, its references and searches (holding ``skipped``)."""
    return FakeSource(
        papers=[cl.Paper(identifiers=["doi:10.1234/w"], title="The citing paper", year=2020)],
        references={
            "doi:10.1234/w": [
                cl.Reference(position=1, title="Augmenting large language models with tools")
            ]
        },
        search=SearchResults(results, skipped=skipped),
        capabilities=[Capability.PAPER, Capability.REFERENCES, Capability.SEARCH],
    )


def searched(src: FakeSource) -> bool:
    return any(method == "search" for method, _ in src.calls)


def test_ledger_reports_unreadable_search_candidates_and_still_uses_the_others() -> None:
    good = cl.Paper(
        identifiers=["doi:10.1038/s42256-024-00832-8"],
        title="Augmenting large language models with tools",
        year=2024,
    )
    bad = UnreadableItem(source="fake", what="search result", index=0, reason="no title")
    src = search_only([good], [bad])
    record = cl.build_record("doi:10.1234/w", [src], now=NOW, network=True)
    assert searched(src)  # the search path was taken
    (report,) = [r for r in record.reports if r.capability == "search"]
    assert report.outcome is Outcome.PARTIAL
    assert (report.fetched, report.total) == (1, 2)
    assert report.unreadable == (bad,)
    assert report.subject == "Augmenting large language models with tools"
    assert "1 unreadable (fake search result at index 0: no title)" in report.describe()
    # The readable candidate was offered to the resolver: the reference resolved to it.
    (obs,) = record.outbound
    assert obs.resolution is not None
    assert obs.resolution.target is not None
    assert obs.resolution.target.identifiers[0] == good.identifiers[0]


def test_ledger_plain_list_search_makes_no_partial_report() -> None:
    src = search_only([], [])
    record = cl.build_record("doi:10.1234/w", [src], now=NOW, network=True)
    assert searched(src)
    assert [r for r in record.reports if r.capability == "search"] == []


def _open_retractions(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(OPEN_RETRACTIONS.read_bytes())
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        (5, "update is of type int, not an object"),
        (["x"], "update is of type list"),
        ({"type": {"label": "retraction"}}, "update type is of type dict"),
        ({"type": "correction", "timestamp": 1e30}, "timestamp 1e+30 is not a valid time"),
    ],
)
def test_open_retractions_keeps_the_other_updates_and_records_the_bad_one(
    bad: Any, why: str
) -> None:
    data = _open_retractions()
    (erratum,) = data["updates"]
    second = copy.deepcopy(erratum) | {"type": "correction"}
    data["updates"] = [erratum, bad, second]
    record = rw.parse_open_retractions_record(json.dumps(data).encode())
    assert [(e.kind.value, e.label) for e in record.events] == [
        ("erratum", "erratum"),
        ("correction", "correction"),
        ("retraction", "retracted: true"),
    ]
    (item,) = record.skipped
    assert (item.source, item.what, item.index) == ("openretractions", "update", 1)
    assert why in item.reason
    with pytest.raises(cl.ParseError, match="update 1 cannot be read"):
        rw.parse_open_retractions(json.dumps(data).encode())
    # The flag still says retracted: the retraction is certain, and the check names the rest.
    check = rw.open_retractions_check(json.dumps(data).encode(), checked=NOW)
    assert check.status is NoticeStatus.EVENTS_FOUND
    assert check.retracted is True
    assert "1 unreadable (openretractions update at index 1" in (check.reason or "")


def test_open_retractions_unreadable_update_is_unavailable_never_none_found() -> None:
    data = _open_retractions(retracted=False, updates=[None])
    check = rw.open_retractions_check(json.dumps(data).encode(), checked=NOW)
    assert check.status is NoticeStatus.UNAVAILABLE
    assert check.retracted is None
    assert "updates of the openretractions.com record could not be read" in (check.reason or "")
    # The same record with no update at all is a clean "none found".
    clean = rw.open_retractions_check(
        json.dumps(_open_retractions(retracted=False, updates=[])).encode(), checked=NOW
    )
    assert clean.status is NoticeStatus.NONE_FOUND


def test_open_retractions_erratum_plus_unreadable_update_does_not_read_as_not_retracted() -> None:
    data = _open_retractions(retracted=False)
    data["updates"].append("junk")
    check = rw.open_retractions_check(json.dumps(data).encode(), checked=NOW)
    assert check.status is NoticeStatus.UNAVAILABLE  # not "events found, no retraction"
    assert check.retracted is None
    assert [e.label for e in check.events] == ["erratum"]  # what was read is kept
    assert "no retraction among those read (erratum)" in (check.reason or "")


def test_open_retractions_unusable_record_timestamp_keeps_the_flag() -> None:
    data = _open_retractions(timestamp="yesterday")
    events = rw.parse_open_retractions(json.dumps(data).encode())
    flag = events[-1]
    assert (flag.kind.value, flag.date) == ("retraction", None)
    assert "record timestamp 'yesterday' is not a valid time" in (flag.reason or "")


def _rw_lines(bad_at: int, n: int = 5) -> tuple[str, list[str]]:
    """A CSV of ``n`` copies of the fixture's first row (distinct ids and DOIs), one made malformed."""
    header, row = RW_CSV.read_text(encoding="utf-8-sig").splitlines()[:2]
    cells = next(csv.reader([row]))
    out = []
    for i in range(n):
        c = list(cells)
        c[0] = str(1000 + i)
        c[14] = f"10.9999/rw.{i}"  # OriginalPaperDOI
        if i == bad_at:
            # A cell over the csv module's field size limit: it rejects the row.
            c[19] = "x" * (csv.field_size_limit() + 1)
        line = io.StringIO()
        csv.writer(line, lineterminator="\n").writerow(c)
        out.append(line.getvalue())
    return header + "\n", out


def test_retraction_watch_bad_row_raises_by_default_and_is_recorded_on_request() -> None:
    header, rows = _rw_lines(bad_at=2)
    with pytest.raises(cl.ParseError, match="malformed CSV at line 4"):
        list(rw.iter_retraction_watch([header, *rows]))
    bad: list[UnreadableItem] = []
    records = list(rw.iter_retraction_watch([header, *rows], on_unreadable=bad.append))
    assert [r.record_id for r in records] == ["1000", "1001", "1003", "1004"]
    (item,) = bad
    assert (item.source, item.what) == ("retractionwatch", "CSV row")
    assert "line 4" in item.reason
    assert item.excerpt.startswith("1002")


def test_retraction_watch_source_keeps_the_file_and_never_says_none_found_for_a_bad_row(
    tmp_path: Any,
) -> None:
    header, rows = _rw_lines(bad_at=2)
    path = tmp_path / "rw.csv"
    path.write_text(header + "".join(rows), encoding="utf-8", newline="")
    src = rw.RetractionWatchSource(path=path, as_of=NOW)
    assert src.events("10.9999/rw.3").status is NoticeStatus.EVENTS_FOUND  # after the bad row
    assert len(src.index) == 4
    assert len(src.index.skipped) == 1
    # The bad row mentions this DOI: it may be its notice.
    check = src.events("10.9999/RW.2")
    assert check.status is NoticeStatus.UNAVAILABLE
    assert "rows of the Retraction Watch file that mention the work" in (check.reason or "")
    # A DOI no row mentions, readable or not, is still a clean "none found".
    assert src.events("10.9999/other").status is NoticeStatus.NONE_FOUND


def test_jats_ref_without_a_citation_keeps_its_position() -> None:
    root = etree.fromstring(JATS_MIXED.read_bytes())
    whole = jats.parse_jats_references(etree.tostring(root))
    refs = list(root.iter("ref"))
    middle = len(refs) // 2
    target = refs[middle]
    for child in list(target):
        target.remove(child)
    note = etree.SubElement(target, "note")
    note.text = "Personal communication, 2017."
    got = jats.parse_jats_references(etree.tostring(root))
    assert [r.position for r in got] == list(range(1, len(whole) + 1))
    assert got[:middle] == whole[:middle]
    assert got[middle + 1 :] == whole[middle + 1 :]
    kept = got[middle]
    assert (kept.key, kept.raw) == (whole[middle].key, "Personal communication, 2017.")
    assert "holds no citation element" in (kept.unreadable or "")


TEI_NS = "{http://www.tei-c.org/ns/1.0}"


def test_tei_plain_bibl_in_the_middle_is_read_not_dropped() -> None:
    root = etree.fromstring(GROBID.read_bytes())
    whole = tei.parse_tei_references(etree.tostring(root))
    (lst,) = list(root.iter(f"{TEI_NS}listBibl"))
    structs = list(lst)
    middle = len(structs) // 2
    plain = etree.Element(f"{TEI_NS}bibl")
    plain.text = "Smith, J. (2015). A plain reference string. Journal of Things, 3, 1-10."
    structs[middle].addprevious(plain)
    empty = etree.Element(f"{TEI_NS}bibl")
    structs[middle].addprevious(empty)
    got = tei.parse_tei_references(etree.tostring(root))
    assert len(got) == len(whole) + 2
    assert [r.position for r in got] == list(range(1, len(got) + 1))
    assert [r.key for r in got[:middle]] == [r.key for r in whole[:middle]]
    assert [r.key for r in got[middle + 2 :]] == [r.key for r in whole[middle:]]
    read, blank = got[middle], got[middle + 1]
    assert read.year == 2015
    assert read.raw is not None
    assert "plain reference string" in read.raw
    assert blank.unreadable == "tei: <bibl> holds no text"


@pytest.mark.parametrize(
    ("parse", "doc", "field", "expected"),
    [
        pytest.param(
            jats.parse_jats_references,
            b"<article><back><ref-list>"
            b"<ref id='a'><mixed-citation>First A. 2001.</mixed-citation></ref>"
            b"<ref id='b'><note><p><mixed-citation>Second B. Title. 2002.</mixed-citation></p>"
            b"</note></ref>"
            b"<ref id='c'><mixed-citation>Third C. 2003.</mixed-citation></ref>"
            b"</ref-list></back></article>",
            "raw",
            [
                (1, "a", "First A. 2001."),
                (2, "b", "Second B. Title. 2002."),
                (3, "c", "Third C. 2003."),
            ],
            id="jats-citation-wrapped-in-a-note",
        ),
        pytest.param(
            tei.parse_tei_references,
            b'<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><back><listBibl>'
            b'<biblStruct xml:id="b0"><monogr><title>One</title></monogr></biblStruct>'
            b'<listBibl><biblStruct xml:id="b1"><monogr><title>Two</title></monogr></biblStruct>'
            b"</listBibl>"
            b'<biblStruct xml:id="b2"><monogr><title>Three</title></monogr></biblStruct>'
            b"</listBibl></back></text></TEI>",
            "title",
            [(1, "b0", "One"), (2, "b1", "Two"), (3, "b2", "Three")],
            id="tei-nested-listBibl",
        ),
    ],
)
def test_nested_references_are_found_in_document_order(
    parse: Callable[[bytes], list[Reference]],
    doc: bytes,
    field: str,
    expected: list[tuple[int, str, str]],
) -> None:
    refs = parse(doc)
    assert [(r.position, r.key, getattr(r, field)) for r in refs] == expected
    assert all(r.unreadable is None for r in refs)


def test_retraction_watch_rows_with_the_wrong_cell_count_are_unreadable() -> None:
    # A stray line break splits row 2 in two; row 3 has an unquoted comma. Their values would
    # land in the wrong columns, so neither is read as a record; rows 1 and 4 are.
    from citeledger.sources.retractionwatch import iter_retraction_watch  # noqa: PLC0415

    lines = [
        "Record ID,OriginalPaperDOI,OriginalPaperPubMedID,RetractionNature\n",
        "1,10.1/a,0,Retraction\n",
        "2,10.1/b\n",
        ",0,Retraction\n",
        "3,10.1/c,0,Retraction,extra\n",
        "4,10.1/d,0,Retraction\n",
    ]
    bad: list[UnreadableItem] = []
    rows = list(iter_retraction_watch(lines, on_unreadable=bad.append))
    assert [r.record_id for r in rows] == ["1", "4"]
    assert [b.reason for b in bad] == [
        "retractionwatch: row at line 3 has 2 cells, the header 4",
        "retractionwatch: row at line 4 has 3 cells, the header 4",
        "retractionwatch: row at line 5 has 5 cells, the header 4",
    ]
    with pytest.raises(cl.ParseError, match="has 2 cells"):
        list(iter_retraction_watch(lines))
