"""Bad bytes and wrong shapes: typed errors or cleaned values, at the narrowest scope."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citeledger.errors import CiteledgerError, DeserializationError, ModelError, PagingStopped
from citeledger.formats import jats, tei
from citeledger.formats.dumps import iter_opencitations_csv
from citeledger.identifiers import normalize_doi
from citeledger.model import Paper, Reference
from citeledger.serialize import loads
from citeledger.sources import arxiv, crossref, openalex, opencitations, semanticscholar
from citeledger.sources._paging import PageGuard, PageStop

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
    doc = (
        b"<article><back><ref-list>"
        b'<ref id="r1"><mixed-citation>One. <pub-id pub-id-type="doi">10.1234/a&amp;#x41;'
        b"</pub-id></mixed-citation></ref>"
        b'<ref id="r2"><mixed-citation>Two.</mixed-citation></ref>'
        b"</ref-list></back></article>"
    )
    refs = jats.parse_jats_references(doc)
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
