"""Bad bytes and wrong shapes: typed errors or cleaned values, at the narrowest scope."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import citeledger as cl
from citeledger.errors import (
    CiteledgerError,
    DeserializationError,
    InvalidResponseError,
    ModelError,
    PagingStopped,
)
from citeledger.formats import jats, tei
from citeledger.formats.dumps import iter_opencitations_csv
from citeledger.identifiers import normalize_doi
from citeledger.model import Paper, Reference
from citeledger.serialize import loads
from citeledger.sources import (
    arxiv,
    crossref,
    openalex,
    opencitations,
    retractionwatch,
    semanticscholar,
)
from citeledger.sources import semanticscholar as s2
from citeledger.sources._common import decode_json, load_json
from citeledger.sources._paging import PageGuard, PageStop
from citeledger.sources._transport import Response
from citeledger.testing._hostile import HEX_REFERENCE_JATS

# --------------------------------------------------------------------------- the pager guard


def test_a_next_offset_creeping_inside_the_page_stops() -> None:
    guard = PageGuard(source="semanticscholar")
    guard.page(list(range(100)))
    with pytest.raises(PagingStopped) as info:
        guard.next_offset(1, read_to=100, total=None)
    assert info.value.reason == PageStop.OFFSET_OVERLAP


def test_a_next_offset_past_the_total_stops() -> None:
    guard = PageGuard(source="semanticscholar")
    with pytest.raises(PagingStopped, match="past the announced total"):
        guard.next_offset(101, read_to=101, total=100)


def test_a_page_of_only_old_items_stops_even_reordered() -> None:
    guard = PageGuard(source="arxiv")
    guard.page(["a", "b", "c"])
    with pytest.raises(PagingStopped) as info:
        guard.page(["c", "a"])
    assert info.value.reason == PageStop.NO_NEW_ITEMS


def test_items_that_cannot_be_hashed_are_compared_by_repr() -> None:
    guard = PageGuard(source="x")
    guard.page([{"a": [1]}])
    with pytest.raises(PagingStopped):
        guard.page([{"a": [1]}])


# --------------------------------------------------------------------------- bytes


def test_arxiv_total_of_5000_digits_is_unknown_not_a_crash() -> None:
    feed = (
        b'<feed xmlns="http://www.w3.org/2005/Atom" '
        b'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">'
        b"<opensearch:totalResults>" + b"9" * 5000 + b"</opensearch:totalResults></feed>"
    )
    assert arxiv.parse_feed(feed).total is None


def test_hexadecimal_character_references_decode_in_identifiers() -> None:
    assert normalize_doi("10.1234/a&#x41;") == normalize_doi("10.1234/aA")
    assert str(normalize_doi("10.1234/a&#xD800;")).isprintable()  # a surrogate stays as written


def test_a_jats_reference_with_a_hex_character_reference_keeps_the_document() -> None:
    refs = jats.parse_jats_references(HEX_REFERENCE_JATS)
    assert len(refs) == 2


def test_a_lone_surrogate_in_a_title_is_cleaned() -> None:
    paper = Paper(title=json.loads('"broken \\ud83d title"'))
    assert paper.title == "broken \ufffd title"
    assert paper.title.encode("utf-8")


# --------------------------------------------------------------------------- shapes


def test_wrong_types_are_refused_naming_the_field() -> None:
    with pytest.raises(ModelError, match="title"):
        Paper(title=5)
    with pytest.raises(ModelError, match="year"):
        Paper(title="x", year="abc")
    for year in (10**30, -5):
        with pytest.raises(ModelError, match="plausible range"):
            Paper(year=year)
        with pytest.raises(ModelError, match="plausible range"):
            Reference(year=year)
    assert Paper(year="forthcoming").year is None
    assert Reference(year="abc").extra == (("year", "abc"),)  # a reference keeps the raw text


def test_loads_refuses_an_object_where_an_array_belongs() -> None:
    with pytest.raises(DeserializationError, match=r"Paper\.authors: expected an array"):
        loads('{"authors": {}}', Paper)
    with pytest.raises(DeserializationError, match="expected an array"):
        loads("{}", list[Paper])


def test_a_crossref_reference_field_that_is_a_string_is_one_unreadable_entry() -> None:
    body = {
        "message-type": "work",
        "message": {"DOI": "10.1000/x1", "title": ["T"], "reference": "notalist"},
    }
    work = crossref.parse_work(json.dumps(body).encode())
    assert work.paper.title == "T"
    assert len(work.references) == 1
    assert "not a list" in (work.references[0].unreadable or "")


# --------------------------------------------------------------------------- dumps


def test_a_csv_dump_recovers_at_the_next_line_and_counts_exactly(tmp_path: Path) -> None:
    lines = [b"oci,citing,cited,creation,timespan,journal_sc,author_sc"]
    lines += [
        f"oci:{i},doi:10.1000/a{i},doi:10.1000/b{i},2020,P1Y,no,no".encode() for i in range(1, 1201)
    ]
    lines[100] = lines[100].replace(b"oci:", b"oci:\xff")  # invalid UTF-8
    lines[200] = lines[200].replace(b"doi:10.1000/a200", b'"doi:10.1000/a200')  # stray quote
    lines[300] = b"x" * 5000  # over-long
    lines[400] = b"only,three,fields"
    path = tmp_path / "dump.csv"
    path.write_bytes(b"\n".join(lines) + b"\n")
    bad: list[Any] = []
    links = list(iter_opencitations_csv(path, on_unreadable=bad.append, max_record_bytes=4096))
    assert len(links) == 1196
    assert len(bad) == 4
    assert [b.reason.split(": line ")[1].split(":")[0] for b in bad] == ["101", "201", "301", "401"]


# --------------------------------------------------------------------------- fuzz

PARSERS = [
    crossref.parse_work,
    crossref.parse_work_list,
    openalex.parse_work,
    openalex.parse_work_list,
    semanticscholar.parse_paper,
    semanticscholar.parse_references_page,
    semanticscholar.parse_citations_page,
    semanticscholar.parse_search_page,
    arxiv.parse_feed,
    opencitations.parse_link_list,
    jats.parse_jats_references,
    tei.parse_tei_references,
]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True)
    | st.text(alphabet=st.characters(codec=None), max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
KEYS = [
    "message",
    "message-type",
    "items",
    "DOI",
    "title",
    "reference",
    "results",
    "meta",
    "data",
    "offset",
    "next",
    "paperId",
    "id",
    "citing",
    "cited",
    "year",
    "author",
]
shaped = st.one_of(
    st.dictionaries(st.sampled_from(KEYS), json_values, max_size=6),
    st.builds(
        lambda kind, message: {"message-type": kind, "message": message},
        st.sampled_from(["work", "work-list"]),
        st.dictionaries(st.sampled_from(KEYS), json_values, max_size=6),
    ),
)


def _only_typed(parser: Any, body: bytes) -> None:
    with contextlib.suppress(CiteledgerError):
        parser(body)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PARSERS), st.binary(max_size=300))
def test_random_bytes_give_values_or_typed_errors(parser: Any, body: bytes) -> None:
    _only_typed(parser, body)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PARSERS[:10]), shaped)
def test_random_json_in_the_recorded_shapes_gives_values_or_typed_errors(
    parser: Any, doc: dict[str, Any]
) -> None:
    body = json.dumps(doc, ensure_ascii=True).encode()
    _only_typed(parser, body)


# --- Robustness review: hostile JSON to the source parsers get a typed error, not a leaked builtin exception.


DEEP = b"[" * 100_000

DEEP_OBJECT = b'{"a":' * 100_000

HUGE_INT = b'{"year": ' + b"9" * 5000 + b"}"

NOT_UTF8 = b'{"title": "\xff\xfe"}'


def test_load_json_turns_every_decoder_failure_into_parse_error() -> None:
    for body in (DEEP, NOT_UTF8[:-2] + b"\xff", HUGE_INT, b"{"):
        with pytest.raises(cl.ParseError):
            load_json(body, source="x")


def test_decode_json_deep_nesting_is_an_invalid_response() -> None:
    with pytest.raises(InvalidResponseError, match="nested too deeply"):
        decode_json(Response(status=200, body=DEEP), source="x")


@pytest.mark.parametrize(
    "parse",
    [
        crossref.parse_work,
        crossref.parse_work_list,
        crossref.parse_failure,
        openalex.parse_work,
        openalex.parse_work_list,
        s2.parse_paper,
        s2.parse_references_page,
        s2.parse_search,
        opencitations.parse_links,
        opencitations.parse_count,
        retractionwatch.parse_open_retractions,
    ],
)
@pytest.mark.parametrize("body", [DEEP, DEEP_OBJECT, HUGE_INT, NOT_UTF8])
def test_source_parsers_reject_hostile_json_with_parse_error(parse: Any, body: bytes) -> None:
    with pytest.raises(cl.ParseError):
        parse(body)


def _crossref_item(doi: str, **fields: Any) -> dict[str, Any]:
    return {"DOI": doi, "title": ["T " + doi], "type": "journal-article", **fields}


def _crossref_list(*items: Any) -> bytes:
    message = {"items": list(items), "total-results": len(items)}
    return json.dumps({"status": "ok", "message-type": "work-list", "message": message}).encode()


@pytest.mark.parametrize(
    "odd",
    [
        {"author": 5},
        {"subject": 5},
        {"institution": 5, "type": "posted-content"},
        {"updated-by": [{"type": 5}]},
        {"volume": ["1"]},
    ],
)
def test_crossref_list_keeps_good_items_beside_an_odd_one(odd: dict[str, Any]) -> None:
    good = _crossref_item("10.1234/good")
    bad = _crossref_item("10.1234/bad", **odd)
    with pytest.raises(cl.ParseError, match="unexpected shape"):
        crossref.work_from_message(bad)
    page = crossref.parse_work_list(_crossref_list(good, bad, good | {"DOI": "10.1234/good2"}))
    assert [str(w.doi) for w in page.works] == ["doi:10.1234/good", "doi:10.1234/good2"]


def test_crossref_items_not_a_list_is_a_parse_error() -> None:
    body = json.dumps({"status": "ok", "message-type": "work-list", "message": {"items": -1}})
    with pytest.raises(cl.ParseError, match="not an array"):
        crossref.parse_work_list(body.encode())


def test_crossref_odd_reference_entry_is_kept_not_the_whole_work_lost() -> None:
    refs = [
        {"key": "r1", "unstructured": "Smith J. A title. 2020."},
        {"key": "r2", "unstructured": "Jones K. Another. 2019.", "author": 5, "year": []},
        {"key": "r3", "DOI": "10.1234/x"},
    ]
    work = crossref.work_from_message(_crossref_item("10.1234/w", reference=refs))
    assert [r.key for r in work.references] == ["r1", "r2", "r3"]
    kept = work.references[1]
    assert kept.position == 2
    assert kept.raw == "Jones K. Another. 2019."
    assert "unexpected shape" in (kept.unreadable or "")


@pytest.mark.parametrize(
    "odd",
    [
        {"abstract_inverted_index": 5},
        {"abstract_inverted_index": {"word": 5}},
        {"authorships": [{"author": {"display_name": 5}}]},
        {"topics": 5},
        {"biblio": {"volume": ["1"]}},
    ],
)
def test_openalex_list_keeps_good_results_beside_an_odd_one(odd: dict[str, Any]) -> None:
    good = {"id": "https://openalex.org/W1", "title": "Good"}
    bad = {"id": "https://openalex.org/W2", "title": "Odd", **odd}
    body = json.dumps({"results": [good, bad, {**good, "id": "https://openalex.org/W3"}]})
    page = openalex.parse_work_list(body.encode())
    ids = [str(w.id) for w in page.works]
    assert ids[0] == "openalex:W1"
    assert ids[-1] == "openalex:W3"


def test_openalex_junk_abstract_index_loses_only_the_abstract() -> None:
    junk: dict[str, Any] = {"a": [0], "b": 5, "c": [1]}
    assert openalex.rebuild_abstract(junk) == "a c"
    work = openalex.parse_work(b'{"id": "https://openalex.org/W1", "abstract_inverted_index": 5}')
    assert str(work.id) == "openalex:W1"
    assert work.paper.abstract is None


@pytest.mark.parametrize(
    "odd",
    [
        {"externalIds": -1},
        {"journal": "x"},
        {"authors": [5]},
        {"authors": [{"name": 5}]},
        {"publicationTypes": 5},
        {"s2FieldsOfStudy": [5]},
    ],
)
def test_s2_odd_paper_is_a_parse_error_and_an_error_item_in_a_batch(odd: dict[str, Any]) -> None:
    bad = {"paperId": "a" * 40, "title": "Odd", **odd}
    with pytest.raises(cl.ParseError, match="unexpected shape"):
        s2.paper_from_json(bad)
    body = json.dumps([{"title": "One"}, bad, None, {"title": "Three"}]).encode()
    items = s2.parse_batch(body, ["a", "b", "c", "d"])
    assert [i.status for i in items] == [
        s2.BatchStatus.FOUND,
        s2.BatchStatus.ERROR,
        s2.BatchStatus.NOT_FOUND,
        s2.BatchStatus.FOUND,
    ]
    assert items[0].paper is not None
    assert items[0].paper.title == "One"
    assert items[3].paper is not None
    assert items[3].paper.title == "Three"
    assert "unexpected shape" in (items[1].reason or "")


def test_s2_listing_contexts_not_an_array_is_recorded_as_unreadable() -> None:
    # The element is unreadable; it is recorded with its reason (not the whole page lost).
    body = b'{"offset": 0, "data": [{"contexts": -1, "citedPaper": {"title": "X"}}]}'
    page = s2.parse_references_page(body)
    assert page.items == ()
    (item,) = page.skipped
    assert item.index == 0
    assert "contexts/intents that are not arrays" in item.reason


def test_open_retractions_updates_not_a_list_is_a_parse_error() -> None:
    body = b'{"retracted": true, "identifier": {"doi": "10.1234/a"}, "updates": -1}'
    with pytest.raises(cl.ParseError, match="updates"):
        retractionwatch.parse_open_retractions(body)
