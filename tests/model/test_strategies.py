"""citeledger.testing.strategies: valid values, honoured options, realistic noisy citations."""

from __future__ import annotations

import importlib.metadata
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import citeledger as cl
from citeledger.model import Event, EventKind, WorkType, utc
from citeledger.testing import _hypothesis_plugin, _vocab, _works, strategies
from citeledger.testing import strategies as cst
from tests.model.conftest import MODEL_TYPES

_FOLD = str.maketrans({"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "ı": "i", "ß": "ss"})


def norm_tokens(text: str | None) -> list[str]:
    """An independent normaliser: fold accents and case, punctuation to spaces."""
    decomposed = unicodedata.normalize("NFKD", (text or "").translate(_FOLD))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return re.sub(r"[^\w]+", " ", bare).split()


def fold(text: str | None) -> str:
    return " ".join(norm_tokens(text))


# A paper that gives every kind of noise room to show.
RICH = cl.Paper(
    identifiers=["10.1234/endo.2020.1", "arXiv:2104.07857v2"],
    title="Endoscopic Segmentation of Gastrointestinal Lesions: A Schrödinger Bridge Approach",
    authors=[
        cl.Author(family="Müller", given="Jean-Pierre"),
        cl.Author(family="Sørensen", given="Zoë"),
        cl.Author(family="Doe", given="Mary Ann"),
        cl.Author(family="van der Berg", given="Håkon"),
        cl.Author(family="Smith", given="John"),
    ],
    year=2020,
    venue="Gastrointestinal Endoscopy",
    volume="91",
    issue="6",
    pages="1234-1245",
)

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ----------------------------------------------------------------------------- registration


@pytest.mark.parametrize("cls", MODEL_TYPES, ids=lambda c: c.__name__)
@FAST
@given(data=st.data())
def test_from_type_draws_every_model_type(cls: type[Any], data: st.DataObject) -> None:
    value = data.draw(st.from_type(cls))
    assert type(value) is cls


@FAST
@given(st.from_type(cl.Identifier))  # type: ignore[arg-type]
def test_from_type_draws_the_identifier_union(ident: cl.Identifier) -> None:
    assert isinstance(ident, cl.identifiers.IDENTIFIER_TYPES)
    assert cl.parse_identifier(str(ident)) == ident


def test_the_hypothesis_entry_point_is_declared_and_idempotent() -> None:
    eps = importlib.metadata.entry_points(group="hypothesis")
    ours = [ep for ep in eps if ep.value.startswith("citeledger.")]
    assert [ep.value for ep in ours] == [
        "citeledger.testing._hypothesis_plugin:_hypothesis_setup_hook"
    ]
    assert ours[0].load() is _hypothesis_plugin._hypothesis_setup_hook
    _hypothesis_plugin._hypothesis_setup_hook()  # a second registration replaces the first

    @settings(max_examples=5, database=None)
    @given(st.from_type(cl.Paper))
    def draw(paper: cl.Paper) -> None:
        assert isinstance(paper, cl.Paper)

    draw()


def test_strategies_module_exports() -> None:
    for name in strategies.__all__:
        assert callable(getattr(strategies, name)), name
    for name in ("dois", "arxiv_ids", "identifiers", "malformed_identifier_strings", "papers"):
        assert name in strategies.__all__
    assert len(_vocab._TITLE_WORDS) >= 300
    assert len(set(_vocab._TITLE_WORDS)) == len(_vocab._TITLE_WORDS)


# ----------------------------------------------------------------------------- options


@FAST
@given(cst.papers(with_identifiers=True, min_title_words=5, max_title_words=6, max_authors=2))
def test_papers_options_with_identifiers(paper: cl.Paper) -> None:
    assert paper.identifiers
    assert 1 <= len(paper.authors) <= 2
    content = [w for w in (paper.title or "").split() if w.lower() not in _vocab._STOPWORDS]
    assert 5 <= len(content) <= 6
    if paper.date is not None:
        assert paper.date.year == paper.year


@FAST
@given(cst.papers(with_identifiers=False, work_types=(WorkType.PREPRINT,)))
def test_papers_options_without_identifiers(paper: cl.Paper) -> None:
    assert paper.identifiers == ()
    assert paper.work_type in (None, WorkType.PREPRINT)
    assert paper.key.startswith("title:")


def test_strategy_arguments_are_validated() -> None:
    with pytest.raises(ValueError, match="min_words"):
        cst.titles(min_words=0)
    with pytest.raises(ValueError, match="min_words"):
        cst.titles(min_words=5, max_words=4)
    with pytest.raises(ValueError, match="max_authors"):
        cst.papers(max_authors=0)
    with pytest.raises(ValueError, match="title"):
        cst.noisy_references(cl.Paper(identifiers=["10.1234/x"]))


@FAST
@given(cst.titles(min_words=4, max_words=9, subtitle=True))
def test_titles_with_a_subtitle(title: str) -> None:
    assert title.count(":") == 1
    head, tail = title.split(": ")
    assert head
    assert tail[0].isupper()
    assert title[0].isupper()
    assert title == " ".join(title.split())
    assert not re.search(r"\b(of|for|in|and|with|on|via|from|to|under|the):", title)


@FAST
@given(cst.titles(subtitle=False))
def test_titles_without_a_subtitle(title: str) -> None:
    assert ":" not in title


def _orcid_ok(orcid: str) -> bool:
    digits = orcid.replace("-", "")
    total = 0
    for d in digits[:-1]:
        total = (total + int(d)) * 2
    check = (12 - total % 11) % 11
    return digits[-1] == ("X" if check == 10 else str(check))


@FAST
@given(cst.authors(with_orcid=True, with_raw=True, ascii_only=True))
def test_authors_options(author: cl.Author) -> None:
    assert author.orcid is not None
    assert re.fullmatch(r"\d{4}-\d{4}-\d{4}-\d{3}[\dX]", author.orcid)
    assert _orcid_ok(author.orcid)
    assert author.raw == f"{author.given} {author.family}"
    assert author.name.isascii()


def test_orcid_checksum_matches_orcids_documented_example() -> None:
    # ORCID's own example iD (support.orcid.org: "structure of the ORCID identifier").
    assert _works._orcid_checksum("000000021825009") == "7"
    assert _orcid_ok("0000-0002-1825-0097")
    assert not _orcid_ok("0000-0002-1825-0098")


@FAST
@given(cst.authors(with_orcid=False, with_raw=False))
def test_authors_without_orcid_or_raw(author: cl.Author) -> None:
    assert author.orcid is None
    assert author.raw is None


@FAST
@given(
    cst.resolutions(
        states=(cl.ResolutionState.VERIFIED_FUZZY, cl.ResolutionState.METADATA_MISMATCH)
    )
)
def test_resolutions_are_consistent_with_their_state(res: cl.Resolution) -> None:
    assert res.target is not None
    if res.state is cl.ResolutionState.VERIFIED_FUZZY:
        assert res.method is cl.Method.FUZZY_TITLE
    else:
        assert res.method not in (cl.Method.FUZZY_TITLE, cl.Method.NO_RESOLVER_LINK, None)
    assert 0 <= res.score <= 100


@FAST
@given(cst.resolutions(states=(cl.ResolutionState.UNRESOLVED, cl.ResolutionState.PARSE_UNCERTAIN)))
def test_unverified_resolutions_have_no_target(res: cl.Resolution) -> None:
    assert res.target is None
    assert not res.verified


@FAST
@given(
    cst.notice_checks(status=cl.NoticeStatus.UNAVAILABLE),
    cst.coverages(states=(cl.CoverageState.PARTIAL,)),
)
def test_status_and_state_options(check: cl.NoticeCheck, cov: cl.Coverage) -> None:
    assert check.status is cl.NoticeStatus.UNAVAILABLE
    assert cov.state is cl.CoverageState.PARTIAL
    assert cov.total is None or cov.measured < cov.total


@FAST
@given(
    cst.measurements(sources=("crossref",), max_value=5),
    cst.events(kinds=(EventKind.RETRACTION,)),
)
def test_measurement_and_event_options(m: cl.Measurement, event: Event) -> None:
    assert m.source == "crossref"
    assert 0 <= m.value <= 5
    assert event.kind is EventKind.RETRACTION


@FAST
@given(cst.observations(direction=cl.Direction.INBOUND))
def test_observations_carry_their_computed_id(obs: cl.Observation) -> None:
    assert obs.direction is cl.Direction.INBOUND
    if obs.resolution is not None:
        assert obs.cited == obs.resolution.target


@FAST
@given(cst.malformed_identifier_strings())
def test_malformed_identifier_strings_are_rejected(text: str) -> None:
    with pytest.raises(cl.InvalidIdentifier):
        cl.parse_identifier(text)


@FAST
@given(cst.utc_datetimes())
def test_datetimes_are_utc(when: Any) -> None:
    assert when.tzinfo is utc(when).tzinfo


# ----------------------------------------------------------------------------- noisy references


def _check_cites(ref: cl.Reference, paper: cl.Paper) -> None:
    """What every noisy citation keeps: enough of the paper for a sound rule to find it."""
    ref_title = norm_tokens(ref.title)
    assert ref_title, ref
    paper_title = norm_tokens(paper.title)
    assert paper_title[: len(ref_title)] == ref_title  # the subtitle may be dropped
    if ":" in (paper.title or ""):
        assert len(ref_title) >= len(norm_tokens(paper.title.split(":")[0]))  # type: ignore[union-attr]
    assert ref.authors, ref
    assert len(ref.authors) <= len(paper.authors)
    for cited, original in zip(ref.authors, paper.authors, strict=False):
        assert fold(cited.family) == fold(original.family)
        if cited.given:
            assert fold(cited.given)[0] == fold(original.given)[0]
    assert ref.year in (None, paper.year)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_structured_noisy_references_still_cite_the_paper(data: st.DataObject) -> None:
    paper = data.draw(cst.papers(max_authors=6))
    ref = data.draw(cst.noisy_references(paper, raw=False, position=7))
    assert ref.position == 7
    assert ref.raw is None
    assert ref.identifiers in ((), paper.identifiers)
    _check_cites(ref, paper)


@FAST
@given(st.data())
def test_keep_identifiers_and_drop_fields_options(data: st.DataObject) -> None:
    paper = data.draw(cst.papers(with_identifiers=True))
    kept = data.draw(
        cst.noisy_references(paper, raw=False, keep_identifiers=True, drop_fields=False)
    )
    assert kept.identifiers == paper.identifiers
    assert kept.year == paper.year
    assert len(kept.authors) == len(paper.authors)
    assert (kept.venue is None) == (paper.venue is None)
    assert (kept.volume, kept.issue, kept.first_page) == (
        paper.volume,
        paper.issue,
        paper.first_page,
    )
    dropped = data.draw(cst.noisy_references(paper, keep_identifiers=False))
    assert not set(dropped.identifiers) & set(paper.identifiers)


def test_raw_noisy_references_go_through_the_parser() -> None:
    @FAST
    @given(cst.noisy_references(RICH, raw=True))
    def check(ref: cl.Reference) -> None:
        assert ref.raw is not None
        assert ref == cl.Reference.from_string(ref.raw, position=ref.position)

    check()


def _sample(strategy: st.SearchStrategy[cl.Reference], n: int = 300) -> list[cl.Reference]:
    """``n`` derandomised draws (no shrinking): a fixed sample to look for each kind of noise."""
    out: list[cl.Reference] = []

    @settings(
        max_examples=n, database=None, deadline=None, derandomize=True, phases=[Phase.generate]
    )
    @given(strategy)
    def collect(ref: cl.Reference) -> None:
        out.append(ref)

    collect()
    return out


def test_the_noise_is_realistic() -> None:
    structured = _sample(cst.noisy_references(RICH, raw=False))
    raw = _sample(cst.noisy_references(RICH, raw=True, keep_identifiers=True))
    titles = [r.title or "" for r in structured]
    authors = [r.authors for r in structured]
    texts = [r.raw or "" for r in raw]

    # Case changes.
    assert any(t.isupper() for t in titles)
    assert any(t == t.lower() for t in titles)
    assert any(t.startswith("Endoscopic segmentation of gastrointestinal") for t in titles)
    # Diacritics stripped, and added where the paper had none.
    assert any("Schrodinger" in unicodedata.normalize("NFC", t) for t in titles)
    assert any(a[0].family == "Muller" for a in authors)
    assert any(len(a) > 2 and a[2].family in {"Döe", "Dóe", "Doé"} for a in authors)
    # Unicode normal forms: NFD appears, and NFC too.
    assert any(not unicodedata.is_normalized("NFC", t) for t in titles)
    assert any(unicodedata.is_normalized("NFC", t) and "ö" in t for t in titles)
    # Initials, Vancouver initials and upper-cased family names.
    assert any(a[0].given == "J.-P." for a in authors)
    assert any(a[0].given == "JP" for a in authors)
    assert any(len(a) > 2 and a[2].given == "M. A." for a in authors)
    assert any(x.family == "SMITH" for a in authors for x in a)
    # Abbreviated venue, dropped fields, dropped subtitle, authors cut to "et al.".
    assert any(r.venue == "Gastrointest. Endosc." for r in structured)
    assert any(r.venue == "Gastrointestinal Endoscopy" for r in structured)
    assert any(r.year is None for r in structured)
    assert any(r.year == 2020 for r in structured)
    assert any(":" not in t and len(norm_tokens(t)) == 5 for t in titles)
    assert any(len(a) < len(RICH.authors) for a in authors)
    assert any(r.identifiers == () for r in structured)
    assert any(r.identifiers == RICH.identifiers for r in structured)
    # In the raw string: PDF hyphenation, line breaks, "et al.", stray spaces, DOI forms.
    assert any(re.search(r"[a-z]-\n[a-z]", t) for t in texts)
    assert any(re.search(r"[^-]\n", t) for t in texts)
    assert any("et al." in t for t in texts)
    assert any(" ." in t or " ," in t for t in texts)
    assert any("https://doi.org/10.1234/endo.2020.1" in t for t in texts)
    assert any("doi:10.1234/endo.2020.1" in t for t in texts)
    # Sometimes nothing at all is changed, as careful authors cite.
    assert any(t == RICH.title for t in titles)


@FAST
@given(cst.noisy_references(RICH, raw=False, drop_fields=False))
def test_without_dropping_fields_every_author_is_cited(ref: cl.Reference) -> None:
    assert [fold(a.family) for a in ref.authors] == [fold(a.family) for a in RICH.authors]
    assert ref.year == 2020


# ----------------------------------------------------------------------------- the documented example

DOC = Path(__file__).resolve().parents[2] / "docs" / "model.md"


def _worked_example_blocks() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### Worked example", 1)[1]
    return re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)


@pytest.mark.skipif(not DOC.is_file(), reason="docs/ not shipped here")
def test_the_worked_example_in_docs_runs_as_documented() -> None:
    naive, fixed, converse = _worked_example_blocks()
    ns: dict[str, Any] = {"__name__": "docs_model_example"}
    exec(naive, ns)
    # The documented failure: NFKD leaves the stroke on "ø".
    sorensen = cl.Paper(
        title="Sparse Kernel Methods", authors=[cl.Author(family="Sørensen", given="Ana")]
    )
    cited = cl.Reference(
        title="Sparse kernel methods", authors=[cl.Author(family="Sorensen", given="A.")]
    )
    assert not ns["cites"](cited, sorensen)
    exec(fixed, ns)
    assert ns["cites"](cited, sorensen)
    # These run here to prove the page right, not to test citeledger: a few examples suffice.
    few = settings(max_examples=30, deadline=None)
    few(ns["test_my_rule_accepts_every_noisy_citation"])()
    exec(converse, ns)
    few(ns["test_my_rule_rejects_other_papers"])()
