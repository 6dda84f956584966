"""The model on real reference data: Crossref's publisher-asserted references (../shared/data)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import citeledger as cl
from citeledger.identifiers import MalformedFragment, find_identifiers
from citeledger.model import Reference
from citeledger.serialize import structure


def _crossref_reference(ref: dict[str, Any], position: int) -> Reference:
    """Map one Crossref ``reference`` entry onto the model, as an adapter would (test-local)."""
    identifiers: list[cl.Identifier] = []
    malformed: tuple[MalformedFragment, ...] = ()
    if "DOI" in ref:
        try:
            identifiers.append(cl.parse_identifier(ref["DOI"], "doi"))
        except cl.InvalidIdentifier:
            malformed = find_identifiers(ref["DOI"]).malformed
    return Reference(
        position=position,
        raw=ref.get("unstructured"),
        key=ref.get("key"),
        title=ref.get("article-title") or ref.get("volume-title"),
        authors=ref.get("author"),  # one string, e.g. "CA Orengo"
        year=ref.get("year"),  # a string, sometimes "2004a"
        venue=ref.get("journal-title") or ref.get("series-title"),
        volume=ref.get("volume"),
        issue=ref.get("issue"),
        first_page=ref.get("first-page"),
        identifiers=identifiers,
        malformed=malformed,
        asserted_by=ref.get("doi-asserted-by"),
    )


@pytest.fixture
def crossref_references(shared_data: Path) -> list[dict[str, Any]]:
    """Crossref's reference entries of the matching-dev set (skips when ../shared is absent)."""
    path = shared_data / "matching-dev" / "normalized" / "crossref_overall_2k.jsonl"
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line)["left"]["reference"] for line in fh]


@pytest.mark.shared_data
def test_crossref_references_fit_the_model_and_round_trip(
    crossref_references: list[dict[str, Any]],
) -> None:
    conv = cl.make_converter()
    asserted = malformed = 0
    for position, raw in enumerate(crossref_references, start=1):
        ref = _crossref_reference(raw, position)
        back = structure(json.loads(json.dumps(conv.unstructure(ref))), Reference, converter=conv)
        assert back == ref
        if "DOI" in raw:
            asserted += 1
            assert raw["doi-asserted-by"] in {"publisher", "crossref"}
            assert len(ref.identifiers) + len(ref.malformed) >= 1, raw["DOI"]
            malformed += not ref.identifiers
        year = raw.get("year")
        digits = re.search(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)", year or "")
        assert ref.year == (int(digits.group(1)) if digits else None), year
        if year and year.strip() != str(ref.year):
            assert ref.get_extra("year") == year  # nothing is dropped
        if raw.get("author"):
            assert ref.authors, raw["author"]
    assert asserted == 616
    # Two asserted DOIs are malformed (a Kluwer DOI without its colon, a truncated Springer BF
    # DOI): reported as malformed fragments with reasons, never as identifiers.
    assert malformed == 2


@pytest.mark.shared_data
def test_malformed_asserted_dois_are_reported_with_reasons(
    crossref_references: list[dict[str, Any]],
) -> None:
    reasons = {}
    for position, raw in enumerate(crossref_references, start=1):
        ref = _crossref_reference(raw, position)
        if "DOI" in raw and not ref.identifiers:
            reasons[raw["DOI"]] = [m.reason for m in ref.malformed]
    assert set(reasons) == {"10.1023/A1006047319921", "10.1007/BF0229355"}
    assert "colon" in reasons["10.1023/A1006047319921"][0]
    assert "8 digits" in reasons["10.1007/BF0229355"][0]
