"""Regression tests from the adversarial robustness review of the public API.

Each case is an input that used to leak a builtin exception (``TypeError``, ``AttributeError``,
``RecursionError``, ``UnicodeDecodeError``, ``ValueError``) or silently read nonsense, and now
gets a typed error from :mod:`citeledger.errors` or a typed state.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

import citeledger as cl
from citeledger.errors import DeserializationError, InvalidResponseError
from citeledger.identifiers import find_identifiers, normalize_arxiv
from citeledger.sources import crossref, openalex, opencitations, retractionwatch
from citeledger.sources import semanticscholar as s2
from citeledger.sources._common import decode_json, load_json
from citeledger.sources._transport import Response

DEEP = b"[" * 100_000
DEEP_OBJECT = b'{"a":' * 100_000
HUGE_INT = b'{"year": ' + b"9" * 5000 + b"}"
NOT_UTF8 = b'{"title": "\xff\xfe"}'

# ---------------------------------------------------------------------------- model


@pytest.mark.parametrize(
    "kwargs",
    [
        {"authors": 123},
        {"authors": b"Smith"},
        {"authors": {"family": "Smith"}},
        {"authors": [{"surname": "Smith"}]},
        {"identifiers": 123},
        {"title": []},
        {"title": b"x"},
        {"venue": {}},
        {"year": []},
        {"year": b"2020"},
        {"year": 2020.5},
    ],
)
@pytest.mark.parametrize("cls", [cl.Paper, cl.Reference])
def test_constructors_reject_wrong_types_with_model_error(
    cls: type[Any], kwargs: dict[str, Any]
) -> None:
    with pytest.raises(cl.ModelError):
        cls(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"extra": 5},
        {"extra": [None]},
        {"extra": [("a",)]},
        {"malformed": 5},
        {"malformed": [None]},
        {"raw": 5},
    ],
)
def test_reference_rejects_wrong_shapes_with_model_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(cl.ModelError):
        cl.Reference(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"work_type": "nope"},
        {"areas": 5},
        {"related": [None]},
        {"related": [{"kind": "nope", "identifier": "doi:10.1234/a"}]},
        {"related": [{"kind": "preprint_of"}]},
    ],
)
def test_paper_rejects_wrong_shapes_with_model_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(cl.ModelError):
        cl.Paper(**kwargs)


def test_author_from_string_rejects_non_text() -> None:
    with pytest.raises(cl.ModelError):
        cl.Author.from_string(5)  # type: ignore[arg-type]


def test_accepted_coercions_still_work() -> None:
    # What users legitimately pass keeps working: numbers as text, integral floats as years.
    paper = cl.Paper(title="T", volume=3, year=2020.0, authors="A Smith and B Jones")
    assert (paper.volume, paper.year, len(paper.authors)) == ("3", 2020, 2)
    ref = cl.Reference(year="n.d.", extra={"k": 1})
    assert ref.year is None
    assert ref.get_extra("year") == "n.d."
    assert ref.get_extra("k") == "1"


# ---------------------------------------------------------------------------- serialize


@pytest.mark.parametrize("text", [NOT_UTF8, DEEP, DEEP_OBJECT, HUGE_INT, None, 5])
def test_loads_bad_json_is_a_deserialization_error(text: Any) -> None:
    with pytest.raises(DeserializationError) as info:
        cl.loads(text, cl.Paper)
    assert str(info.value).startswith("invalid JSON")


def test_record_from_json_bad_json_is_a_deserialization_error() -> None:
    for text in ("[" * 100_000, NOT_UTF8):
        with pytest.raises(DeserializationError):
            cl.CitationRecord.from_json(text)


# ---------------------------------------------------------------------------- sources: JSON


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


# --------------------------------------------------------------------------- lead's files


@pytest.mark.slow
@pytest.mark.parametrize("label", ["doi:", "PMID:", "CorpusId:", "PMCID:"])
def test_find_identifiers_is_linear_on_a_repeated_label(label: str) -> None:
    # Each label scanned its whole unbroken remainder: 100 KB of "doi:" took 7 s. The token a
    # label reads is now bounded, so ten times the text costs about ten times the time.
    small, large = label * (5_000 // len(label)), label * (50_000 // len(label))
    t0 = time.perf_counter()
    find_identifiers(small)
    t_small = time.perf_counter() - t0
    t0 = time.perf_counter()
    find_identifiers(large)
    t_large = time.perf_counter() - t0
    assert t_large < 25 * max(t_small, 1e-3)
    assert t_large < 2.0


@pytest.mark.parametrize("value", [None, b"10.1234/abc", 5, ["10.1234/abc"]])
def test_identifier_functions_reject_non_strings_with_a_typed_error(value: object) -> None:
    for func in (cl.normalize_doi, normalize_arxiv, find_identifiers):
        with pytest.raises(cl.InvalidIdentifier):
            func(value)  # type: ignore[arg-type]


def test_percent_escapes_that_are_not_utf8_are_left_alone() -> None:
    # Decoding them with replacement characters made up "doi:10.1234/\ufffd\ufffd".
    assert str(cl.normalize_doi("https://doi.org/10.1234/%ff%fe")) == "doi:10.1234/%ff%fe"
    assert "\ufffd" not in str(cl.normalize_doi("10.1234/%E9%ZZ"))
    assert str(cl.normalize_doi("10.1234/abc%2Fdef")) == "doi:10.1234/abc/def"  # still decoded


@pytest.mark.parametrize("papers", [[None], [cl.Paper(title="A paper"), 123], "abc", 5, b"x"])
def test_a_catalog_of_non_papers_is_a_typed_error(papers: object) -> None:
    with pytest.raises(cl.ModelError, match="catalog"):
        cl.Resolver(papers)  # type: ignore[arg-type]


def test_a_catalog_error_names_the_item() -> None:
    with pytest.raises(cl.ModelError, match="catalog item 1: expected a Paper, got int"):
        cl.Catalog([cl.Paper(title="A paper"), 7])  # type: ignore[list-item]


@pytest.mark.parametrize("refs", [None, 5, "Smith J (2020) A title. Nature 1:2", b"x"])
def test_resolve_many_of_a_non_iterable_is_a_typed_error(refs: object) -> None:
    resolver = cl.Resolver([cl.Paper(title="A paper")])
    with pytest.raises(cl.ModelError, match="resolve_many takes an iterable"):
        resolver.resolve_many(refs)  # type: ignore[arg-type]


@pytest.mark.parametrize("paper", [None, 123, "a paper", cl.Reference(title="A paper")])
def test_verify_against_a_non_paper_is_a_typed_error(paper: object) -> None:
    with pytest.raises(cl.ModelError, match="verify compares with a Paper"):
        cl.verify(cl.Reference(title="A paper"), paper)  # type: ignore[arg-type]
