"""The reference parser on real strings from ../shared/data/matching-dev (skipped when absent).

Gold fields of the PMC strings (``atitle``, ``firstAuthor``, ``volume``, ``firstPage``) come from
biblio-glutton's benchmark; ``benchmarks/parse_accuracy.py`` prints the full figures. The floors
asserted here sit a little under the measured values so that a regression fails the suite.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from rapidfuzz import fuzz

import citeledger as cl
from citeledger.identifiers import find_identifiers
from citeledger.model import Reference
from citeledger.refparse._clean import _may_hold_identifier
from citeledger.resolve.normalize import normalize_name, normalize_title
from tests.conftest import MATCHING

# ../shared beside the checkout, as tests/conftest.py locates it; the conftest's shared_data
# fixture skips every test here when it is absent.
NORMALIZED = MATCHING / "normalized"

pytestmark = [pytest.mark.usefixtures("shared_data"), pytest.mark.shared_data]


@cache
def _items(name: str) -> tuple[dict[str, Any], ...]:
    path = NORMALIZED / name
    if not path.is_file():
        pytest.skip(f"{path} is not present")
    with path.open(encoding="utf-8") as fh:
        return tuple(json.loads(line) for line in fh if line.strip())


def _glutton(item_id: str) -> dict[str, Any]:
    for item in _items("glutton_pmc1943_refs_doi_17k.jsonl"):
        if item["id"] == item_id:
            left: dict[str, Any] = item["left"]
            return left
    pytest.skip(f"{item_id} is not in this half of the data")


@pytest.mark.parametrize(
    ("item_id", "family", "year", "title_start"),
    [
        ("glutton-pmc:3", "Cotton", 1991, "Endoscopic sphincterotomy complications"),  # Vancouver
        ("glutton-pmc:289", "Hughes", 2003, "Climate change, human impacts"),  # Royal Society
        ("glutton-pmc:314", "Greenstein", 2008, "Escaping the heat"),  # Harvard, split DOI
        ("glutton-pmc:862", "Cavanaugh", 2006, "Pain generation in lumbar"),  # initials first
        ("glutton-pmc:925", "Girsh", 2007, "Cloprostenol, a prostaglandin"),  # Springer, et al
        ("glutton-pmc:3929", "Orcutt", 2004, "The course of PTSD symptoms"),  # Springer
        ("glutton-pmc:4441", "Weichenrieder", 2004, "Crystal structure of the"),  # BMC
        ("glutton-pmc:8871", "Kravdal", 2007, "A fixed-effects multilevel"),  # APA, Ø.
        ("glutton-pmc:16226", "Bean", 2009, "Parental psychological control"),  # APA
    ],
)
def test_real_pmc_strings(item_id: str, family: str, year: int, title_start: str) -> None:
    gold = _glutton(item_id)
    ref = Reference.from_string(gold["reference"])
    assert ref.raw == gold["reference"]
    assert ref.authors[0].family == family
    assert ref.year == year
    assert ref.title is not None
    assert ref.title.startswith(title_start)
    assert normalize_title(ref.title) == normalize_title(gold["atitle"])
    assert ref.volume == gold["volume"]
    assert ref.first_page == gold["firstPage"]


def test_glutton_field_accuracy_floors() -> None:
    n = {"title": 0, "author": 0, "volume": 0, "page": 0}
    ok = dict.fromkeys(n, 0)
    for item in _items("glutton_pmc1943_refs_doi_17k.jsonl"):
        gold = item["left"]
        ref = Reference.from_string(gold["reference"])
        if gold.get("atitle"):
            n["title"] += 1
            ok["title"] += (
                fuzz.ratio(normalize_title(gold["atitle"]), normalize_title(ref.title)) >= 90
            )
        if gold.get("firstAuthor"):
            n["author"] += 1
            got = ref.authors[0].family if ref.authors else None
            ok["author"] += normalize_name(got) == normalize_name(gold["firstAuthor"])
        if gold.get("volume"):
            n["volume"] += 1
            ok["volume"] += ref.volume == gold["volume"]
        if gold.get("firstPage"):
            n["page"] += 1
            ok["page"] += ref.first_page == gold["firstPage"]
    rate = {k: ok[k] / n[k] for k in n}
    # Measured: title 91.5 %, first author 95.7 %, volume 97.9 %, first page 97.5 %
    # (see docs/parsing.md).
    assert rate["title"] >= 0.90, rate
    assert rate["author"] >= 0.95, rate
    assert rate["volume"] >= 0.96, rate
    assert rate["page"] >= 0.96, rate


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("crossref_unstructured_real_2k.jsonl", "ref_string"),
        ("crossref_unstructured_tuning_1k.jsonl", "ref_string"),
    ],
)
def test_crossref_strings_parse_without_internal_errors(name: str, key: str) -> None:
    confident = 0
    items = _items(name)
    for item in items:
        text = item["left"][key]
        ref = Reference.from_string(text)
        assert ref.raw == text
        reason = ref.parse_doubt or ""
        assert "internal parser error" not in reason, text
        confident += (ref.parse_confidence or 0.0) >= 0.5
    # Almost all deposited strings are real references; a few are fragments ("2001").
    assert confident / len(items) >= 0.9


def test_crossref_gold_doi_in_string_is_found() -> None:
    checked = 0
    for item in _items("crossref_unstructured_real_2k.jsonl"):
        text = item["left"]["ref_string"]
        gold = item["right"]["target_gt"]["DOI"]
        golds = gold if isinstance(gold, list) else [gold]
        for doi in golds:
            if doi and doi.lower() in text.lower():
                checked += 1
                ref = Reference.from_string(text)
                assert cl.normalize_doi(doi) in ref.identifiers, text
                # The identifier text is cut out of the fields.
                assert ref.title is None or "10." not in ref.title, text
                break
    assert checked > 10


_RAMOS = ["Ramos-Casals", "Roberto-Perez-Alvarez", "Diaz-Lagares", "Cuadrado", "Khamashta"]
_BREWSTER = ["Brewster", "Cronenwett", "Hallet", "Johnston", "Krupsky", "Matsumura"]
_JOINT_COUNCIL = (
    "Joint Council of the American Association for Vascular Surgery and Society for Vascular "
    "Surgery"
)


@pytest.mark.parametrize(
    ("item_id", "families", "volume", "first_page"),
    [
        # stray layout number inside the list ("Wetzel P, \n12. \nMcCallum RW")
        (
            "glutton-pmc:1524",
            ["Forster", "Damjanov", "Lin", "Sarosiek", "Wetzel", "McCallum"],
            "9",
            "102",
        ),
        # author without initials and a group author in one Vancouver list
        (
            "glutton-pmc:1248",
            [*_RAMOS, "BIOGEAS Study Group"],
            "9",
            "188",
        ),
        # a long group author ending the list (split over a line break)
        ("glutton-pmc:1211", [*_BREWSTER, _JOINT_COUNCIL], "37", "1106"),
        ("glutton-pmc:1406", ["Bijl", "Ravelli", "Van Zessen"], "33", "587"),  # APA, no initials
        (
            "glutton-pmc:741",
            ["Lombardi", "Gaetani", "Marzatico", "Cafe", "Rodriguez y Baena"],
            "111",
            "13",
        ),
        ("glutton-pmc:1392", ["Mendel", "Kerlero de Rosbo", "Ben-Nun"], "26", "2470"),  # Chicago
    ],
)
def test_real_author_list_gaps(
    item_id: str, families: list[str], volume: str, first_page: str
) -> None:
    gold = _glutton(item_id)
    ref = Reference.from_string(gold["reference"])
    assert [a.family for a in ref.authors] == families
    assert normalize_name(ref.authors[0].family) == normalize_name(gold["firstAuthor"])
    assert (ref.volume, ref.first_page) == (volume, first_page)
    assert ref.title is not None
    assert fuzz.ratio(normalize_title(ref.title), normalize_title(gold["atitle"])) >= 90


def _crossref(item_id: str) -> dict[str, Any]:
    for item in _items("crossref_overall_2k.jsonl"):
        if item["id"] == item_id:
            ref: dict[str, Any] = item["left"]["reference"]
            return ref
    pytest.skip(f"{item_id} is not in this half of the data")


@pytest.mark.parametrize(
    ("item_id", "families"),
    [
        ("crossref-overall-2k:371", ["Bean", "Livingston"]),  # "C P Bean and J D Livingston,J."
        ("crossref-overall-2k:581", ["Slater", "Koster"]),  # "Slater andG. F. Koster:Phys."
        ("crossref-overall-2k:51", ["Bunge", "Bunge", "Peterson", "Murray"]),  # "andM. R."
        ("crossref-overall-2k:367", ["Winogard", "Broen"]),  # "Broen, EM (1990)"
        ("crossref-overall-2k:1577", ["Schnietz", "Epstein"]),  # "…, and Marc J. Epstein."
        ("crossref-overall-2k:1967", ["Grünbaum"]),  # "Grünbaum, B: Convex"
    ],
)
def test_real_crossref_author_lists(item_id: str, families: list[str]) -> None:
    gold = _crossref(item_id)
    ref = Reference.from_string(gold["unstructured"])
    assert [a.family for a in ref.authors] == families
    assert ref.year == int(gold["year"][:4])


def test_identifier_prefilter_on_every_real_string() -> None:
    # The parser skips find_identifiers when _may_hold_identifier says no; on real strings that
    # must never lose an identifier or a malformed fragment.
    texts = [i["left"]["reference"] for i in _items("glutton_pmc1943_refs_doi_17k.jsonl")]
    for name in ("crossref_unstructured_real_2k.jsonl", "crossref_unstructured_tuning_1k.jsonl"):
        texts += [i["left"]["ref_string"] for i in _items(name)]
    skipped = 0
    for text in texts:
        if not _may_hold_identifier(text):
            skipped += 1
            found = find_identifiers(text)
            assert (found.identifiers, found.malformed) == ((), ()), text
    assert skipped > len(texts) // 2  # the fast path is the common case
