"""More unreadable items: S2 search results, retraction updates and CSV rows, JATS/TEI entries.

One bad item in the middle keeps the others in order and is recorded with its reason; a notice
check with an unreadable notice is never "none found". The hand-written payloads in tests/fixtures/
(the recorded shapes) are read and mutated in memory; small inline bodies cover the rest.
"""

from __future__ import annotations

import copy
import csv
import datetime as dt
import io
import json
import pickle
from typing import Any

import pytest
from lxml import etree

import citeledger as cl
from citeledger.formats import jats, tei
from citeledger.ledger import Outcome
from citeledger.model import NoticeStatus
from citeledger.sources import (
    Capability,
    SearchResults,
    UnreadableItem,
    crossref,
    openalex,
)
from citeledger.sources import retractionwatch as rw
from citeledger.sources import semanticscholar as s2
from citeledger.testing import FakeSource, ReplayTransport
from tests.conftest import FIXTURES

NOW = dt.datetime(2026, 8, 8, 6, 32, tzinfo=dt.UTC)
S2_MATCH = FIXTURES / "semanticscholar" / "paper-search-match.json"
OPEN_RETRACTIONS = FIXTURES / "retractionwatch" / "open-retractions-labels-disagree.json"
RW_CSV = FIXTURES / "retractionwatch" / "retraction-watch-sample.csv"
JATS_MIXED = FIXTURES / "jats" / "mixed-citation-ref-list.xml"
GROBID = FIXTURES / "tei" / "grobid-references.tei.xml"


# --------------------------------------------------------------------------- S2 search


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


# --------------------------------------------------------------------------- openretractions


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


# --------------------------------------------------------------------------- Retraction Watch CSV


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


# --------------------------------------------------------------------------- JATS / TEI


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


def test_jats_citation_wrapped_in_a_note_is_found() -> None:
    doc = (
        b"<article><back><ref-list>"
        b"<ref id='a'><mixed-citation>First A. 2001.</mixed-citation></ref>"
        b"<ref id='b'><note><p><mixed-citation>Second B. Title. 2002.</mixed-citation></p>"
        b"</note></ref>"
        b"<ref id='c'><mixed-citation>Third C. 2003.</mixed-citation></ref>"
        b"</ref-list></back></article>"
    )
    refs = jats.parse_jats_references(doc)
    assert [(r.position, r.key, r.raw) for r in refs] == [
        (1, "a", "First A. 2001."),
        (2, "b", "Second B. Title. 2002."),
        (3, "c", "Third C. 2003."),
    ]
    assert all(r.unreadable is None for r in refs)


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


def test_tei_nested_list_keeps_document_order() -> None:
    doc = (
        b'<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><back><listBibl>'
        b'<biblStruct xml:id="b0"><monogr><title>One</title></monogr></biblStruct>'
        b'<listBibl><biblStruct xml:id="b1"><monogr><title>Two</title></monogr></biblStruct>'
        b"</listBibl>"
        b'<biblStruct xml:id="b2"><monogr><title>Three</title></monogr></biblStruct>'
        b"</listBibl></back></text></TEI>"
    )
    refs = tei.parse_tei_references(doc)
    assert [(r.position, r.key, r.title) for r in refs] == [
        (1, "b0", "One"),
        (2, "b1", "Two"),
        (3, "b2", "Three"),
    ]


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
