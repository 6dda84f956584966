"""Unreadable items of a listing: the others are kept in order, each bad one is recorded with its
reason, and the ledger's coverage says partial with the count (never a silently dropped record).

The hand-written payloads in tests/fixtures/ (the recorded shapes) are read, copied in memory and
mutated; small inline bodies cover the rest.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

import citeledger as cl
from citeledger.formats import dumps
from citeledger.ledger import Outcome, SourceReport
from citeledger.model import CoverageState, Direction, Facet
from citeledger.serialize import structure
from citeledger.sources import (
    Capability,
    Paged,
    UnreadableItem,
    arxiv,
    crossref,
    describe_unreadable,
    openalex,
    opencitations,
)
from citeledger.sources import semanticscholar as s2
from citeledger.sources._transport import Request, Response
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
