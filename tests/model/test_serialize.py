"""JSON (un)structuring: every model type round-trips; bad input gives one error listing everything."""

from __future__ import annotations

import datetime as dt
import json
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import citeledger as cl
from citeledger.errors import DeserializationError
from citeledger.model import (
    Author,
    Coverage,
    Evidence,
    Measurement,
    NoticeCheck,
    Observation,
    Paper,
    Resolution,
)
from citeledger.serialize import structure
from citeledger.testing import strategies as cst
from tests.model.conftest import MODEL_TYPES

NOW = dt.datetime(2026, 8, 5, 2, 28, 24, 338817, tzinfo=dt.UTC)


# One converter for the property tests: building one generates code for every class it meets,
# which would dominate each example (the tests below check fresh converters separately).
CONV = cl.make_converter()


def _through_json_text(value: Any, cls: type[Any]) -> Any:
    text = json.dumps(CONV.unstructure(value))
    return structure(json.loads(text), cls, converter=CONV)


@pytest.mark.parametrize("cls", MODEL_TYPES, ids=lambda c: c.__name__)
@given(data=st.data())
def test_every_model_type_round_trips_through_json(cls: type[Any], data: st.DataObject) -> None:
    # ``st.from_type`` draws from the strategy the plug-in registers: citeledger.testing's.
    value = data.draw(st.from_type(cls))
    assert _through_json_text(value, cls) == value
    assert cl.loads(cl.dumps(value, converter=CONV), cls, converter=CONV) == value


@given(cst.identifiers())
def test_the_identifier_union_round_trips(ident: cl.Identifier) -> None:
    back = _through_json_text(ident, cl.Identifier)  # type: ignore[arg-type]
    assert back == ident
    assert type(back) is type(ident)


def test_fields_typed_with_one_identifier_class_parse_only_that_scheme() -> None:
    conv = cl.make_converter()
    assert conv.structure("10.1234/ALPHA", cl.DOI) == cl.normalize_doi("10.1234/alpha")
    assert conv.structure("123", cl.PMID) == cl.parse_identifier("PMID:123")
    with pytest.raises(cl.InvalidIdentifier, match="as doi"):
        conv.structure("pmid:123", cl.DOI)
    with pytest.raises(TypeError, match="scheme arxiv or doi, got pmid:123"):
        conv.structure("pmid:123", cl.DOI | cl.ArxivId)  # type: ignore[arg-type]
    assert conv.structure("pmid:123", cl.Identifier) == cl.parse_identifier("PMID:123")  # type: ignore[arg-type]


def test_unstructured_form_is_plain_json() -> None:
    paper = Paper(
        identifiers=["10.1234/ALPHA", "arXiv:2104.07857v2"],
        title="T",
        date="2021-04-16",
        work_type="preprint",
    )
    data = cl.make_converter().unstructure(paper)
    assert data["identifiers"] == ["doi:10.1234/alpha", "arxiv:2104.07857v2"]
    assert data["date"] == "2021-04-16"
    assert data["work_type"] == "preprint"
    assert type(data["work_type"]) is str  # the value, not the StrEnum member
    assert data["authors"] == []
    check = NoticeCheck.none_found(sources=["crossref"], checked=NOW, subject="10.1234/alpha")
    data = cl.make_converter().unstructure(check)
    assert data["checked"] == "2026-08-05T02:28:24.338817+00:00"
    assert data["subject"] == "doi:10.1234/alpha"
    assert type(data["status"]) is str


def test_optional_identifier_fields_round_trip_both_ways() -> None:
    for subject in (None, "10.1234/alpha", "arXiv:2104.07857", "PMID:123", "W2741809807"):
        m = Measurement(value=3, source="openalex", observed=NOW, subject=subject)
        assert cl.loads(cl.dumps(m), Measurement) == m


def test_times_with_an_offset_are_read_as_utc() -> None:
    data = {"value": 3, "source": "crossref", "observed": "2026-08-05T04:28:24+02:00"}
    m = structure(data, Measurement)
    assert m.observed == dt.datetime(2026, 8, 5, 2, 28, 24, tzinfo=dt.UTC)
    assert m.observed.tzinfo is dt.UTC


def test_observation_ids_are_checked_on_input() -> None:
    obs = Observation(
        direction="outbound",
        citing=Paper(identifiers=["10.1234/citing"]),
        position=3,
        source="crossref",
        observed=NOW,
    )
    data = json.loads(cl.dumps(obs))
    assert data["id"] == obs.id
    data["position"] = 4  # edited by hand, id left stale
    with pytest.raises(DeserializationError) as info:
        structure(data, Observation)
    assert len(info.value.problems) == 1
    assert "does not match" in info.value.problems[0]
    del data["id"]  # no id: computed
    assert (
        structure(data, Observation).id
        == Observation(
            direction="outbound",
            citing=Paper(identifiers=["10.1234/citing"]),
            position=4,
            source="crossref",
            observed=NOW,
        ).id
    )


# ----------------------------------------------------------------------------- errors


def _problems(data: Any, cls: type[Any]) -> tuple[str, ...]:
    with pytest.raises(DeserializationError) as info:
        structure(data, cls)
    assert isinstance(info.value, ValueError)
    # One error, not a traceback from inside cattrs.
    assert info.value.__cause__ is None
    assert info.value.__suppress_context__
    return info.value.problems


def test_every_problem_is_listed_in_one_error() -> None:
    problems = _problems(
        {
            "title": 3,
            "bogus": 1,
            "also_bogus": None,
            "year": [2021],
            "identifiers": ["10.1234/ok", "nope", 7],
            "authors": [{"family": "Doe", "middle": "Q"}],
            "work_type": "novel",
        },
        Paper,
    )
    assert problems == (
        "Paper.identifiers[1]: invalid identifier: 'nope': not recognised as any supported identifier",
        (
            "Paper.identifiers[2]: expected an identifier string such as 'doi:10.1234/abc', got the "
            "number 7"
        ),
        "Paper.title: expected a string, got the number 3",
        "Paper.authors[0]: extra fields found (middle)",
        "Paper.year: expected an integer, got an array",
        (
            "Paper.work_type: expected one of 'article', 'preprint', 'proceedings_article', 'book', "
            "'chapter', 'dataset', 'thesis', 'report', 'software', 'notice', 'other'"
        ),
        "Paper: extra fields found (also_bogus, bogus)",
    )


def test_wrong_kinds_are_not_coerced() -> None:
    problems = _problems(
        {"value": True, "source": 12, "observed": 1234567890, "kind": "cited_by"}, Measurement
    )
    assert problems == (
        "Measurement.value: expected an integer, got a boolean",
        "Measurement.source: expected a string, got the number 12",
        "Measurement.observed: expected an ISO-8601 time string, got the number 1234567890",
    )
    assert _problems({"value": 2.5, "source": "x", "observed": NOW.isoformat()}, Measurement) == (
        "Measurement.value: expected an integer, got the number 2.5",
    )


def test_required_fields_and_naive_times() -> None:
    problems = _problems({"observed": "2026-01-01T00:00:00"}, Measurement)
    assert problems == (
        "Measurement.value: required field missing",
        "Measurement.source: required field missing",
        (
            "Measurement.observed: naive datetime 2026-01-01T00:00:00 has no timezone; pass an aware "
            "UTC time (e.g. datetime.now(timezone.utc))"
        ),
    )


def test_nested_problems_have_full_paths() -> None:
    data = json.loads(
        cl.dumps(
            Resolution(
                state="verified_exact",
                method="doi",
                target=Paper(identifiers=["10.1234/alpha"], title="T"),
                score=100,
                evidence=[Evidence(field="title", agreement="agree", score=100)],
            )
        )
    )
    data["target"]["identifiers"] = ["10.1234"]
    data["evidence"][0]["agreement"] = "sort of"
    data["score"] = "high"
    problems = _problems(data, Resolution)
    assert problems == (
        (
            "Resolution.target.identifiers[0]: invalid identifier as doi: '10.1234': "
            "prefix '10.1234' has no '/' and no suffix"
        ),
        "Resolution.score: expected a number, got the string 'high'",
        "Resolution.evidence[0].agreement: expected one of 'agree', 'partial', 'disagree', 'missing'",
    )


def test_model_invariants_surface_as_deserialization_errors() -> None:
    problems = _problems({"status": "none_found", "sources": []}, NoticeCheck)
    assert problems == ("NoticeCheck: 'none found' must name the queried sources and the time",)
    problems = _problems(
        {"facet": "inbound_itemization", "measured": 9, "total": 3, "state": "complete"}, Coverage
    )
    assert problems == ("Coverage: coverage measured 9 > total 3",)
    problems = _problems({"state": "unresolved", "score": 250}, Resolution)
    assert problems == ("Resolution: score must be within 0-100, got 250.0",)


def test_input_that_is_not_an_object() -> None:
    assert _problems([1, 2], Paper) == ("Paper: expected an object, got an array",)
    assert _problems("a paper", Paper) == ("Paper: expected an object, got the string 'a paper'",)
    assert _problems(None, Measurement) == ("Measurement: expected an object, got null",)


def test_lists_of_values() -> None:
    papers = [Paper(title="A"), Paper(title="B", year=2020)]
    conv = cl.make_converter()
    data = json.loads(json.dumps(conv.unstructure(papers)))
    assert structure(data, list[Paper]) == papers
    data[1]["year"] = "2020"
    assert _problems(data, list[Paper]) == (
        "list[1].year: expected an integer, got the string '2020'",
    )


def test_loads_invalid_json_and_pickling_the_error() -> None:
    with pytest.raises(DeserializationError) as info:
        cl.loads("{not json", Paper)
    assert info.value.problems
    assert info.value.problems[0].startswith("Expecting property name")
    err = pickle.loads(pickle.dumps(info.value))
    assert err.problems == info.value.problems
    assert str(err) == str(info.value)


def test_converters_are_fresh_and_customisable() -> None:
    a, b = cl.make_converter(), cl.make_converter()
    assert a is not b
    a.register_unstructure_hook(dt.datetime, lambda d: d.timestamp())
    m = Measurement(value=1, source="x", observed=NOW)
    assert isinstance(a.unstructure(m)["observed"], float)
    assert b.unstructure(m)["observed"] == NOW.isoformat()


def test_dumps_keeps_unicode_readable() -> None:
    text = cl.dumps(Author(family="Müller", given="Zoë"))
    assert "Müller" in text
    assert json.loads(text)["given"] == "Zoë"
    assert cl.dumps(Author(family="X"), indent=2).startswith("{\n")


# --- Robustness review: bad JSON to serialize get a typed error, not a leaked builtin exception.


DEEP = b"[" * 100_000

DEEP_OBJECT = b'{"a":' * 100_000

HUGE_INT = b'{"year": ' + b"9" * 5000 + b"}"

NOT_UTF8 = b'{"title": "\xff\xfe"}'


@pytest.mark.parametrize("text", [NOT_UTF8, DEEP, DEEP_OBJECT, HUGE_INT, None, 5])
def test_loads_bad_json_is_a_deserialization_error(text: Any) -> None:
    with pytest.raises(DeserializationError) as info:
        cl.loads(text, cl.Paper)
    assert str(info.value).startswith("invalid JSON")


def test_record_from_json_bad_json_is_a_deserialization_error() -> None:
    for text in ("[" * 100_000, NOT_UTF8):
        with pytest.raises(DeserializationError):
            cl.CitationRecord.from_json(text)
