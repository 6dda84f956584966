"""BibTeX, RIS and CSL-JSON exports: escaping, types, unique keys, resolved references."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import citeledger as cl
from citeledger import exports
from citeledger.sources.sample import SampleSource

NASTY = "Profits & losses: 50% of {R&D} in C#_2 ~ $x^2$ \\ end}"


def _brace_depths(value: str) -> list[int]:
    """Brace depth after each character, escaped braces (``\\{``) not counted."""
    depth, out, i = 0, [], 0
    while i < len(value):
        ch = value[i]
        if ch == "\\":
            i += 2
            out.append(depth)
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        out.append(depth)
        i += 1
    return out


@given(st.text())
def test_bibtex_escape_never_unbalances_braces_or_leaves_specials(text: str) -> None:
    escaped = exports.bibtex_escape(text)
    depths = _brace_depths(escaped)
    assert all(d >= 0 for d in depths)
    assert not depths or depths[-1] == 0
    assert "\n" not in escaped
    # Every special left in the output is part of an escape.
    bare = re.sub(r"\\(textbackslash|textasciitilde|textasciicircum)\{\}|\\[{}$&%#_]", "", escaped)
    assert not set(bare) & set("\\{}$&%#_~^")


def test_bibtex_entry_escapes_every_field_and_braces_names() -> None:
    paper = cl.Paper(
        title=NASTY,
        authors=[cl.Author(family="van der Berg", given="Anna"), cl.Author(raw="The ATLAS & CMS")],
        year=2020,
        venue="J. Money & Banking",
        volume="12",
        issue="3",
        pages="100-120",
        work_type="article",
        identifiers=["doi:10.1000/a_b%c"],
    )
    entry = exports.bibtex_entry(paper)
    assert entry.startswith("@article{vanderberg2020profits,\n")
    assert r"title = {{Profits \& losses: 50\% of \{R\&D\} in C\#\_2" in entry
    assert r"author = {{van der Berg}, Anna and {The ATLAS \& CMS}}" in entry
    assert r"journal = {J. Money \& Banking}" in entry
    assert "pages = {100--120}" in entry
    assert r"doi = {10.1000/a\_b\%c}" in entry
    assert entry.endswith("}")
    body = entry.split("\n", 1)[1]
    assert _brace_depths(body)[-1] == -1  # the entry's own closing brace, nothing else open


def test_bibtex_keys_are_unique_and_ascii() -> None:
    paper = cl.Paper(title="Über die Natur", authors=["Jürgen Müller"], year=1999)
    text = exports.to_bibtex([paper, paper, paper])
    assert re.findall(r"^@misc\{(\w+),$", text, flags=re.MULTILINE) == [
        "muller1999uber",
        "muller1999uberb",
        "muller1999uberc",
    ]
    assert "Über die Natur" in text  # values keep their Unicode


def test_ris_records_keep_one_value_per_line_and_the_tag_layout() -> None:
    paper = cl.Paper(
        title="Line one\nER  - injected\r\ttab",
        authors=["Ada Lovelace"],
        year=1843,
        identifiers=["arXiv:2104.07857v2"],
        work_type="preprint",
        areas=["cs.LG"],
    )
    text = exports.to_ris([paper, cl.Paper(title="Second")])
    lines = text.splitlines()
    assert lines[0] == "TY  - UNPB"
    assert "TI  - Line one ER - injected tab" in lines
    assert "UR  - https://arxiv.org/abs/2104.07857v2" in lines
    # Each record ends with ER and nothing but tags or blank separators appear.
    assert [ln for ln in lines if ln.startswith("ER")] == ["ER  -", "ER  -"]
    assert all(re.fullmatch(r"[A-Z][A-Z0-9]  - ?.*", ln) or ln == "" for ln in lines)


def test_csl_json_items() -> None:
    paper = cl.Paper(
        title="A study",
        authors=["Grace Hopper", cl.Author(raw="WHO")],
        date="2021-04-16",
        venue="Nature",
        pages="1-14",
        work_type="article",
        identifiers=["doi:10.1038/X", "pmid:123"],
    )
    (item,) = json.loads(exports.to_csl_json([paper]))
    assert item["type"] == "article-journal"
    assert item["author"] == [{"family": "Hopper", "given": "Grace"}, {"literal": "WHO"}]
    assert item["issued"] == {"date-parts": [[2021, 4, 16]]}
    assert item["DOI"] == "10.1038/x"
    assert item["PMID"] == "123"
    assert item["container-title"] == "Nature"
    assert item["page"] == "1-14"


def test_resolved_papers_are_the_verified_targets_only() -> None:
    sample = SampleSource()
    record = cl.build_record(
        "doi:10.5555/citeledger.sample.0001",
        [sample],
        now=sample.as_of("doi:10.5555/citeledger.sample.0001"),
        resolver=cl.Resolver(sample.catalog()),
    )
    results = [o.resolution for o in record.outbound if o.resolution is not None]
    papers = exports.resolved_papers(results)
    unique: list[cl.Paper] = []
    for r in results:
        if r.verified and r.target is not None and r.target not in unique:
            unique.append(r.target)
    assert papers == unique
    assert len(papers) >= 2
    # A mismatch names the work its identifier points to, not the cited work: never exported
    # on its account.
    mismatched = cl.ResolutionState.METADATA_MISMATCH
    only_mismatch = [r for r in results if r.state is mismatched]
    assert only_mismatch
    assert exports.resolved_papers(only_mismatch) == []
    assert exports.export(papers, "bibtex").count("@") == len(papers)


def test_export_refuses_unknown_formats() -> None:
    with pytest.raises(ValueError, match="bibtex, ris, csl-json"):
        exports.export([], "endnote")
    assert exports.export([], "bibtex") == ""
    assert exports.export([], "ris") == ""
    assert json.loads(exports.export([], "csl-json")) == []
