"""The six resolution states on real records from ../shared (skipped when it is absent)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import citeledger as cl
from citeledger.identifiers import find_identifiers
from citeledger.model import Method, ResolutionState
from tests.conftest import MATCHING, SOURCES, requires_shared

pytestmark = requires_shared

NORMALIZED = MATCHING / "normalized"


def _rows(name: str) -> list[dict[str, Any]]:
    with (NORMALIZED / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _by_id(name: str, ident: str) -> dict[str, Any]:
    return next(r for r in _rows(name) if r["id"] == ident)


def _magellan(rec: dict[str, str]) -> cl.Paper:
    return cl.Paper(
        title=rec["title"] or None,
        authors=rec["authors"] or None,
        venue=rec["venue"] or None,
        year=rec["year"] or None,
    )


def _glutton(row: dict[str, Any]) -> cl.Paper:
    left = row["left"]
    return cl.Paper(
        title=left["atitle"],
        authors=[left["firstAuthor"]] if left.get("firstAuthor") else [],
        venue=left.get("jtitle"),
        volume=left.get("volume"),
        pages=left.get("firstPage"),
        identifiers=[cl.normalize_doi(row["right"]["doi"])],
    )


def _openalex(path: Path) -> cl.Paper:
    work = json.loads(path.read_text(encoding="utf-8"))
    return cl.Paper(
        title=work["title"],
        authors=[a["author"]["display_name"] for a in work.get("authorships", [])],
        year=work["publication_year"],
        identifiers=[work["doi"], work["id"]],
    )


Labeled = tuple[list[dict[str, Any]], cl.Resolver, dict[int, str]]


@pytest.fixture(scope="module")
def acm() -> Labeled:
    rows = _rows("magellan_dblp_acm.jsonl")
    rights = {json.dumps(r["right"], sort_keys=True): _magellan(r["right"]) for r in rows}
    keys = {id(p): k for k, p in rights.items()}
    return rows, cl.Resolver(rights.values()), keys


def test_verified_exact_openalex_recording() -> None:
    paper = _openalex(SOURCES / "openalex" / "work-doi-10.1016_j.addr.2015.01.008.json")
    resolver = cl.Resolver([paper])
    ref = cl.Reference(
        title="Pharmacokinetics, biodistribution and cell uptake of antisense oligonucleotides",
        year=2015,
        identifiers=["https://doi.org/10.1016/J.ADDR.2015.01.008"],
    )
    res = resolver.resolve(ref)
    assert res.state is ResolutionState.VERIFIED_EXACT
    assert res.method is Method.DOI
    assert res.target is paper
    by_openalex = resolver.resolve(cl.Reference(identifiers=[paper.identifiers[1]]))
    assert by_openalex.method is Method.OPENALEX


def test_verified_fuzzy_dblp_acm_positive_pair(acm: Labeled) -> None:
    rows, resolver, _ = acm
    row = next(
        r for r in rows if r["expected"] == "1" and r["left"]["title"] == r["right"]["title"]
    )
    res = resolver.resolve(_magellan(row["left"]))
    assert res.state is ResolutionState.VERIFIED_FUZZY
    assert res.target is not None
    assert res.target.title == row["right"]["title"]


def test_unresolved_dblp_acm_negative_pair() -> None:
    row = _by_id("magellan_dblp_acm.jsonl", "magellan-DBLP-ACM:train:1")
    assert row["expected"] == "0"  # "oracle industrial exhibit" vs "objectivity industrial exhibit"
    res = cl.verify(_magellan(row["left"]), _magellan(row["right"]))
    assert res.state is ResolutionState.UNRESOLVED
    assert res.alternatives  # the candidate that was considered and rejected is named


def test_unresolved_ambiguous_fuzzycat_lookalikes() -> None:
    # "Anticoagulant therapy" (1963, DOI) vs "Anticoagulant therapy" (1953, PMID): DIFFERENT.
    row = next(
        r
        for r in _rows("fuzzycat_verify_pairs.jsonl")
        if r["left"].get("title") == "Anticoagulant therapy"
    )
    papers = [
        cl.Paper(
            title=s["title"], year=s["release_year"], volume=s.get("volume"), pages=s.get("pages")
        )
        for s in (row["left"], row["right"])
    ]
    resolver = cl.Resolver(papers)
    res = resolver.resolve(cl.Reference(title="Anticoagulant therapy"))
    assert res.state is ResolutionState.UNRESOLVED
    assert set(res.alternatives) == set(papers)
    dated = resolver.resolve(cl.Reference(title="Anticoagulant therapy", year=1963, volume="65"))
    assert dated.state is ResolutionState.VERIFIED_FUZZY
    assert dated.target is papers[0]


def test_crossref_structured_reference_without_title_resolves_by_journal_volume_page() -> None:
    # Half of the Crossref structured MATCH references carry no title: "Luga, Cell 151, 1542
    # (2012)". The journal, volume and first page find the record; the author and year confirm.
    row = _by_id("crossref_structured_tuning_2k.jsonl", "crossref-structured-tuning-2k:0")
    ref = row["left"]["reference"]
    reference = cl.Reference(
        authors=ref["author"],
        volume=ref["volume"],
        first_page=ref["first-page"],
        year=ref["year"],
        venue=ref["journal-title"],
    )
    luga = cl.Paper(
        title="Exosomes mediate stromal mobilization of autocrine Wnt-PCP signaling in breast "
        "cancer cell migration",
        authors=["Valbona Luga", "Liang Zhang", "Alicia M. Viloria-Petit"],
        year=2012,
        venue="Cell",
        volume="151",
        pages="1542-1556",
        identifiers=[row["right"]["target_gt"]["DOI"]],
    )
    # Another journal with the same volume and page: "Cell" is not "Cell Stem Cell".
    other = cl.model.replace(
        luga, title="Another article", venue="Cell Stem Cell", identifiers=["10.1016/x.1"]
    )
    res = cl.Resolver([other, luga]).resolve(reference)
    assert res.state is ResolutionState.VERIFIED_FUZZY
    assert res.method is cl.Method.JOURNAL_VOLUME_PAGE
    assert res.target is luga
    assert "the journal, volume and first page identify" in res.reason
    # Without the record: searched and not found, so UNRESOLVED (not "too little to parse").
    absent = cl.Resolver([other]).resolve(reference)
    assert absent.state is ResolutionState.UNRESOLVED
    assert "journal 'Cell Stem Cell' is not 'Cell'" in absent.reason
    # Without a volume there is nothing to match on.
    bare = cl.Resolver([luga]).resolve(cl.model.replace(reference, volume=None))
    assert bare.state is ResolutionState.PARSE_UNCERTAIN


def test_malformed_identifier_crossref_truncated_doi() -> None:
    row = _by_id("crossref_overall_2k.jsonl", "crossref-overall-2k:1894")
    found = find_identifiers(row["left"]["reference"]["DOI"])
    res = cl.Resolver([]).resolve(cl.Reference(malformed=found.malformed))
    assert res.state is ResolutionState.MALFORMED_IDENTIFIER
    assert "10.1007/BF0229355" in res.reason


def test_metadata_mismatch_glutton_wrong_doi() -> None:
    rows = _rows("glutton_pmc1943_refs_doi_17k.jsonl")[:50]
    a, b = rows[0], next(r for r in rows[1:] if r["left"]["atitle"] and r["left"]["volume"])
    resolver = cl.Resolver(_glutton(r) for r in (a, b))
    # b's metadata with a's DOI, as a publisher-asserted DOI gone wrong.
    left = b["left"]
    ref = cl.Reference(
        title=left["atitle"],
        authors=[left["firstAuthor"]],
        volume=left["volume"],
        first_page=left["firstPage"],
        identifiers=[a["right"]["doi"]],
    )
    res = resolver.resolve(ref)
    assert res.state is ResolutionState.METADATA_MISMATCH
    assert res.target is not None
    assert res.target.title == a["left"]["atitle"]
    assert "title" in res.reason
    # ...and the fuzzy route names b as what the metadata describe.
    assert res.alternatives[0].identifiers == _glutton(b).identifiers


def test_verified_exact_glutton_sample() -> None:
    rows = _rows("glutton_pmc1943_refs_doi_17k.jsonl")[:300]
    papers = [_glutton(r) for r in rows]
    resolver = cl.Resolver(papers)
    refs = [cl.Reference(title=r["left"]["atitle"], identifiers=[r["right"]["doi"]]) for r in rows]
    results = resolver.resolve_many(refs)
    assert all(res.state is ResolutionState.VERIFIED_EXACT for res in results)
    assert all(
        res.target is not None and res.target.identifiers == p.identifiers
        for res, p in zip(results, papers, strict=True)
    )


def test_dblp_acm_precision_floor(acm: Labeled) -> None:
    """A regression floor on real data: verified answers rarely go to labeled non-matches."""
    rows, resolver, keys = acm
    labels = {
        (json.dumps(r["left"], sort_keys=True), json.dumps(r["right"], sort_keys=True)): r[
            "expected"
        ]
        for r in rows
    }
    lefts = {json.dumps(r["left"], sort_keys=True): r["left"] for r in rows}
    tp = fp = 0
    for key, left in lefts.items():
        res = resolver.resolve(_magellan(left))
        if res.verified and res.target is not None:
            label = labels.get((key, keys[id(res.target)]))
            tp += label == "1"
            fp += label == "0"
    assert tp > 1000
    assert fp / (tp + fp) < 0.01
