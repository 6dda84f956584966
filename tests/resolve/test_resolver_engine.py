"""The resolver engine at scale (issue 16): batches equal single calls, cached keys equal fresh ones.

The speed work must not change a decision; these tests pin what the faster paths compute to what
the plain ones do.
"""

from __future__ import annotations

import datetime as dt
import itertools
import pickle
from typing import Any
from unittest.mock import patch

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

import citeledger as cl
from citeledger.model import Agreement, Relation
from citeledger.model._work import paper_order_key
from citeledger.resolve import _rules as resolver_module
from citeledger.resolve import _select as resolver_engine
from citeledger.resolve import resolver as resolver_impl
from citeledger.resolve._rules import _order, _Scored, _tie_key
from citeledger.resolve.names import name_keys
from citeledger.resolve.normalize import normalize_title
from citeledger.resolve.resolver import verify_many
from citeledger.resolve.scoring import (
    Comparison,
    ReferenceFeatures,
    _year_agreement_of_year,
    compare,
    compare_year,
    field_points_bound,
    title_bounds,
    title_part,
    title_similarity,
    without_session_label,
    year_agreement,
)
from tests.resolve.conftest import CLONING

_WORDS = (  # noqa: SIM905 - a word list reads better as text
    "neural quantum protein graph memory stochastic retrieval genome lattice entropy photon "
    "kernel fusion spectral cortex enzyme galaxy carbon ocean tensor manifold cohort"
).split()
_FAMILIES = ["García", "Müller", "Smith", "Nguyen", "Rossi", "Tanaka", "Li", "Wei", "Moore"]


@st.composite
def _paper(draw: st.DrawFn) -> cl.Paper:
    # Few words and names, so titles overlap, authors collide and ranks tie.
    words = draw(st.lists(st.sampled_from(_WORDS), min_size=2, max_size=6))
    families = draw(st.lists(st.sampled_from(_FAMILIES), min_size=0, max_size=3))
    ident = draw(st.one_of(st.none(), st.integers(1, 6)))
    return cl.Paper(
        title=" ".join(words),
        authors=[
            cl.Author(family=f, given=draw(st.sampled_from(["A", "B", "Wei"]))) for f in families
        ],
        year=draw(st.one_of(st.none(), st.integers(2000, 2003))),
        venue=draw(st.sampled_from([None, "Nature", "Proc. VLDB", "VLDB Journal"])),
        volume=draw(st.one_of(st.none(), st.sampled_from(["1", "2"]))),
        pages=draw(st.one_of(st.none(), st.sampled_from(["1-5", "7"]))),
        identifiers=[] if ident is None else [f"10.5555/e.{ident}"],
    )


@st.composite
def _item(draw: st.DrawFn, catalog: list[cl.Paper]) -> cl.Reference | cl.Paper | str:
    kind = draw(st.integers(0, 3))
    if kind == 0 and catalog:
        return draw(st.sampled_from(catalog))  # a paper cited with all its fields
    if kind == 1:
        return draw(_paper())
    if kind == 2 and catalog:
        p = draw(st.sampled_from(catalog))
        return cl.Reference(title=(p.title or "").upper(), authors=p.authors[:1], year=p.year)
    words = draw(st.lists(st.sampled_from(_WORDS), min_size=2, max_size=5))
    return f"Smith A. {' '.join(words)}. Nature. 2001;1:7."


@given(data=st.data())
@settings(max_examples=40, deadline=None)
def test_resolve_many_equals_resolve_item_by_item(data: st.DataObject) -> None:
    catalog = data.draw(st.lists(_paper(), max_size=12))
    refs = data.draw(st.lists(_item(catalog), max_size=40))
    resolver = cl.Resolver(catalog)
    one_by_one = [resolver.resolve(r) for r in refs]
    assert resolver.resolve_many(refs) == one_by_one
    # Any worker count and batch size: the default batches (at least 25 references) and
    # chunks of any size, down to one reference per batch.
    workers = data.draw(st.integers(1, 3))
    chunk = data.draw(st.one_of(st.none(), st.integers(1, 30)))
    seen: list[int] = []
    # The batch engine's stages cut anywhere (children are forked with the patched size).
    with patch.object(resolver_impl, "_STAGE", data.draw(st.integers(1, 9))):
        out = resolver.resolve_many(
            refs * 2, workers=workers, chunk_size=chunk, progress=lambda d, _t: seen.append(d)
        )
    assert out == one_by_one * 2
    assert seen == sorted(seen)
    assert not refs or seen[-1] == len(refs) * 2
    if chunk is not None and refs:
        # progress comes once per chunk (in either path)
        assert len(seen) == -(-len(refs) * 2 // chunk)


def test_the_batch_engine_looks_up_each_title_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The engine finds the title hits of a stage's fuzzy-route references before deciding
    # them; the decisions must use those hits, not look the title up again. References with
    # an identifier are left to the lazy path (the identifier may decide them first).
    papers = [
        cl.Paper(title=f"{a} {b} networks", year=2001, identifiers=[f"10.5555/t.{k}"])
        for k, (a, b) in enumerate(itertools.combinations(_WORDS[:6], 2))
    ]
    resolver = cl.Resolver(papers)
    refs: list[cl.Reference | cl.Paper | str] = [
        cl.Reference(title=p.title, year=p.year) for p in papers[:10]
    ]
    refs.append(cl.Reference(title="unrelated words entirely", identifiers=["10.5555/t.3"]))
    refs.append("Smith A. protein memory networks. Nature. 2001;1:7.")
    calls: list[str] = []
    scored = cl.Catalog.scored_candidates

    def counting(self: cl.Catalog, title: str, **kw: object) -> object:
        calls.append(title)
        return scored(self, title, **kw)  # type: ignore[arg-type]

    decide = resolver_module.fuzzy_decision

    def deciding(*args: Any) -> Any:
        calls.append("(decision)")
        return decide(*args)

    expected = [resolver.resolve(r) for r in refs]
    monkeypatch.setattr(cl.Catalog, "scored_candidates", counting)
    monkeypatch.setattr(resolver_impl, "fuzzy_decision", deciding)
    assert resolver.resolve_many(refs) == expected
    titles = [c for c in calls if c != "(decision)"]
    # Each title once: the ten, the string's, and (looked up by the lazy path, as the DOI's
    # record disagrees) the one of the reference with an identifier ...
    assert len(titles) == len(set(titles)) == 12
    assert "unrelated words entirely" in titles
    # ... and those of the fuzzy route all before the first decision.
    assert calls[:11] == [*titles[:10], "protein memory networks"]


@given(data=st.data())
@settings(max_examples=60, deadline=None)
def test_catalog_keeps_the_keys_it_would_compute(data: st.DataObject) -> None:
    papers = data.draw(st.lists(_paper(), min_size=1, max_size=8))
    catalog = cl.Catalog(papers)
    pid = data.draw(st.integers(0, len(papers) - 1))
    for _ in range(2):  # computed, then read back
        assert catalog.title_of(pid) == normalize_title(papers[pid].title)
        assert catalog.author_keys(pid) == name_keys(papers[pid].authors)
    # A pickled catalog (as shipped to spawned workers) carries its kept keys and decides alike.
    copy = pickle.loads(pickle.dumps(catalog))
    assert copy.author_keys(pid) == catalog.author_keys(pid)


@given(data=st.data())
@settings(max_examples=80, deadline=None)
def test_compare_with_kept_author_keys_equals_compare(data: st.DataObject) -> None:
    ref = cl.Reference.from_paper(data.draw(_paper()))
    paper = data.draw(_paper())
    feats = ReferenceFeatures.of(ref)
    assert compare(feats, paper, paper_authors=name_keys(paper.authors)) == compare(feats, paper)


@st.composite
def _record_of(draw: st.DrawFn, paper: cl.Paper) -> cl.Paper:
    # Another record of ``paper``'s work: its key, title and year, other fields perhaps changed
    # (the abstract, which ``repr`` leaves out, among them).
    changes: dict[str, Any] = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "abstract": st.sampled_from(["One.", "Two."]),
                "venue": st.sampled_from(["Nature", "Science"]),
                "pages": st.sampled_from(["1-5", "9"]),
                "areas": st.sampled_from([("cs.DL",), ("cs.IR", "cs.DL")]),
                "date": st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2001, 1, 1)),
                "authors": st.sampled_from([[], [cl.Author(raw="A. Other")]]),
                "source": st.sampled_from(["crossref", "openalex"]),
            },
        )
    )
    return attrs.evolve(paper, **changes)


@given(papers=st.lists(_paper(), min_size=1, max_size=6), ranks=st.data())
@settings(max_examples=150, deadline=None)
def test_order_is_by_key_then_fields_whatever_the_input_order(
    papers: list[cl.Paper], ranks: st.DataObject
) -> None:
    # Equal ranks, and records of one work (equal key, title and year) that differ in one other
    # field, the abstract included: the order is that of sorting by (rank, key, every field),
    # for any order of the input, and no paper is formatted to find it.
    records = [ranks.draw(_record_of(p)) for p in papers[:3]]
    items = [
        _Scored(
            p,
            Comparison(
                title=None,
                prefix_title=None,
                rank=float(ranks.draw(st.integers(0, 2))),
                corroborations=0,
                hard=(),
                outcomes=(),
            ),
        )
        for p in papers + papers[:2] + records
    ]
    expected = sorted(
        items, key=lambda s: (-s.comparison.rank, *_tie_key(s.paper), paper_order_key(s.paper))
    )
    shuffled = ranks.draw(st.permutations(items))
    with patch.object(cl.Paper, "__repr__", side_effect=AssertionError("formatted")):
        got = _order(list(shuffled))
    assert [(s.comparison.rank, s.paper) for s in got] == [
        (s.comparison.rank, s.paper) for s in expected
    ]


@given(a=_paper(), data=st.data())
@settings(max_examples=200, deadline=None)
def test_paper_order_key_is_equal_for_equal_papers_only(a: cl.Paper, data: st.DataObject) -> None:
    # A total order of papers: the keys of two papers are equal exactly when the papers are, and
    # they sort as the papers' fields in declaration order, a missing value first.
    b = data.draw(st.one_of(st.just(a), _record_of(a), _paper()))
    assert (paper_order_key(a) == paper_order_key(b)) is (a == b)
    assert paper_order_key(attrs.evolve(a, abstract=None)) < paper_order_key(
        attrs.evolve(a, abstract="A.")
    )


def test_catalog_ties_are_ordered_by_fields_without_formatting() -> None:
    # Three records of one work with one title (equal scores, keys and titles): the catalog's
    # ordered candidates come by their fields, whatever order the catalog holds them in.
    base = cl.Paper(title="Entangled qubits", year=2007, identifiers=["10.5555/q"])
    records = [
        attrs.evolve(base, abstract="B."),
        attrs.evolve(base, abstract="A."),
        base,
    ]
    expected = sorted(records, key=paper_order_key)
    for held in itertools.permutations(records):
        catalog = cl.Catalog(held)
        with patch.object(cl.Paper, "__repr__", side_effect=AssertionError("formatted")):
            hits = catalog.scored_candidates(normalize_title(base.title), limit=1)
        assert [catalog[pid] for _, pid in hits] == expected


def test_order_reads_every_field_only_when_the_keys_collide() -> None:
    calls = 0

    def counting(paper: cl.Paper) -> tuple[object, ...]:
        nonlocal calls
        calls += 1
        return paper_order_key(paper)

    comp = Comparison(
        title=None, prefix_title=None, rank=1.0, corroborations=0, hard=(), outcomes=()
    )
    a = cl.Paper(title="alpha beta", identifiers=["10.5555/a"])
    b = cl.Paper(title="gamma delta", identifiers=["10.5555/b"])
    with patch.object(resolver_module, "paper_order_key", counting):
        _order([_Scored(b, comp), _Scored(a, comp)])
        assert calls == 0
        _order([_Scored(a, comp), _Scored(a, comp)])
        assert calls == 2


def _record(paper: cl.Paper, raw_authors: bool) -> dict[str, object]:
    rec: dict[str, object] = {
        "title": paper.title,
        "authors": [f"{a.given} {a.family}" for a in paper.authors]
        if raw_authors
        else paper.authors,
        "year": paper.year,
        "venue": paper.venue,
        "volume": paper.volume,
        "pages": paper.pages,
        "identifiers": [str(i) for i in paper.identifiers],
    }
    return {k: v for k, v in rec.items() if v not in (None, (), [])}


@given(data=st.data())
@settings(max_examples=40, deadline=None)
def test_from_records_decides_as_resolver_of_papers(data: st.DataObject) -> None:
    papers = data.draw(st.lists(_paper(), max_size=12))
    raw = data.draw(st.booleans())
    records = [_record(p, raw) for p in papers]
    built = [cl.Paper(**r) for r in records]  # type: ignore[arg-type]
    refs = data.draw(st.lists(_item(built), max_size=25))
    expected = cl.Resolver(built).resolve_many(refs)
    catalog = cl.Catalog.from_records(records)
    assert len(catalog) == len(records)
    assert cl.Resolver(catalog).resolve_many(refs) == expected
    # Worker processes build the papers they read themselves; the results are the same.
    again = cl.Resolver(cl.Catalog.from_records(records))
    assert again.resolve_many(refs * 2, workers=2) == expected * 2
    # The papers it builds are the papers the records describe; once built, they are kept.
    assert [catalog[i] for i in range(len(catalog))] == built
    assert all(catalog[i] is catalog[i] for i in range(len(catalog)))
    # Pickled (as for spawned workers) before or after its papers are built: the same decisions.
    fresh = pickle.loads(pickle.dumps(cl.Catalog.from_records(records)))
    assert cl.Resolver(fresh).resolve_many(refs) == expected


def test_from_records_refuses_what_paper_refuses() -> None:
    with pytest.raises(cl.ModelError, match="record 1: not Paper fields: colour"):
        cl.Catalog.from_records([{"title": "a b c"}, {"title": "x", "colour": "red"}])
    with pytest.raises(cl.ModelError, match="record 0: expected a mapping"):
        cl.Catalog.from_records(["a title"])  # type: ignore[list-item]
    with pytest.raises(cl.ModelError, match="record 0: authors must be"):
        cl.Catalog.from_records([{"title": "a b c", "authors": 3}])
    with pytest.raises(cl.ModelError, match="record 0: work_type"):
        cl.Catalog.from_records([{"title": "a b c", "work_type": "zzz"}])
    with pytest.raises(cl.ModelError, match="record 1: invalid identifier"):
        cl.Catalog.from_records([{"title": "a"}, {"title": "a b c", "identifiers": ["nonsense"]}])
    with pytest.raises(cl.ModelError, match="not a dict"):
        cl.Catalog.from_records({"title": "a b c"})  # type: ignore[dict-item]


@given(data=st.data())
@settings(max_examples=40, deadline=None)
def test_verify_many_equals_verify_pair_by_pair(data: st.DataObject) -> None:
    papers = data.draw(st.lists(_paper(), min_size=1, max_size=6))
    pairs = [
        (data.draw(st.sampled_from(papers)), data.draw(st.sampled_from(papers)))
        for _ in range(data.draw(st.integers(0, 8)))
    ]
    assert verify_many(pairs) == [cl.verify(a, b) for a, b in pairs]


def test_verify_many_keeps_every_good_pair_around_a_bad_one() -> None:
    a = cl.Paper(title="Local cloning of entangled qubits", authors=["S. K. Choudhary"], year=2007)
    got = verify_many([(a, a), (a, "not a paper"), "no pair", (a, a)])  # type: ignore[list-item]
    assert [r.state for r in got] == [
        cl.ResolutionState.VERIFIED_FUZZY,
        cl.ResolutionState.PARSE_UNCERTAIN,
        cl.ResolutionState.PARSE_UNCERTAIN,
        cl.ResolutionState.VERIFIED_FUZZY,
    ]
    assert got[1].reason.startswith("pair 1 is not (a reference or paper, a paper): ")
    assert "pair 2 is not" in got[2].reason
    assert got[0] == cl.verify(a, a)


_LABELLED_WORDS = [*_WORDS, "experience paper", "tutorial", "panel", "demo", "poster"]


@st.composite
def _title(draw: st.DrawFn) -> str:
    return normalize_title(" ".join(draw(st.lists(st.sampled_from(_LABELLED_WORDS), max_size=9))))


@given(left=_title(), right=_title(), ref_paper=_paper(), paper=_paper())
@settings(max_examples=300, deadline=None)
def test_rank_bounds_bound_the_rank(
    left: str, right: str, ref_paper: cl.Paper, paper: cl.Paper
) -> None:
    if not left:
        return
    labelled = without_session_label(left) is not left
    # Unrelated titles, and one that starts or ends with the other (a prefix match).
    for other in (right, f"{left} {right}".strip(), f"{right} {left}".strip()):
        sim = title_similarity(left, other)
        part = title_part(left, other, sim)
        assert part == title_part(left, other)
        for ratio in (None, float(fuzz.ratio(left, other))):
            bounds = title_bounds(left, other, sim, labelled=labelled, ratio=ratio)
            assert bounds.title >= part.title
            assert bounds.points >= part.points
            assert (bounds.prefix is None) is (part.prefix is None)
            assert part.prefix is None or bounds.prefix is None or bounds.prefix >= part.prefix
    # A candidate's rank is at most its title points plus the reference's field bound.
    ref = cl.Reference.from_paper(attrs.evolve(ref_paper, title=left))
    feats = ReferenceFeatures.of(ref)
    candidate = attrs.evolve(paper, title=right)
    comp = compare(feats, candidate)
    assert comp.rank <= title_part(feats.title, normalize_title(right)).points + (
        field_points_bound(feats)
    )


@st.composite
def _lookalikes(draw: st.DrawFn) -> tuple[list[cl.Paper], list[cl.Reference]]:
    # One or two base titles, each recorded several times with a word dropped or swapped, other
    # years, authors and pages (series, versions, look-alikes); references cite one of them with
    # its title edited, some of its authors and a year that may be off.
    bases = draw(
        st.lists(st.lists(st.sampled_from(_WORDS), min_size=3, max_size=8), min_size=1, max_size=2)
    )
    catalog = []
    for paper in draw(st.lists(_paper(), min_size=1, max_size=14)):
        words = list(draw(st.sampled_from(bases)))
        edit = draw(st.integers(0, 3))
        if edit == 1:
            del words[draw(st.integers(0, len(words) - 1))]
        elif edit == 2:
            words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(_WORDS))
        catalog.append(attrs.evolve(paper, title=" ".join(words)))
    refs = []
    for _ in range(draw(st.integers(1, 6))):
        cited = draw(st.sampled_from(catalog))
        words = (cited.title or "").split()
        if len(words) > 3 and draw(st.booleans()):
            del words[draw(st.integers(0, len(words) - 1))]
        year = None if cited.year is None else cited.year + draw(st.sampled_from([0, 0, 1, -1]))
        refs.append(
            cl.Reference(
                title=" ".join(words),
                authors=cited.authors[: draw(st.integers(0, 2))],
                year=draw(st.sampled_from([year, None])) if year is not None else None,
                venue=draw(st.sampled_from([cited.venue, None])),
                volume=draw(st.sampled_from([cited.volume, None])),
                first_page=draw(st.sampled_from([cited.first_page, None])),
            )
        )
    return catalog, refs


@given(data=st.data())
@settings(max_examples=200, deadline=None)
def test_pruned_candidates_decide_as_comparing_every_candidate(data: st.DataObject) -> None:
    # Candidates that cannot matter are not compared (Resolver._compared); with the pruning off
    # every candidate is. States, targets and methods agree, and so do a verified result's
    # score and evidence (an unresolved one's reason may name another failing candidate, and a
    # verified one's a runner-up beyond the margin or none).
    catalog, refs = data.draw(_lookalikes())
    resolver = cl.Resolver(catalog)
    pruned = resolver.resolve_many(refs)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(resolver_engine, "_PRUNE", False)
        every = resolver.resolve_many(refs)
    for a, b in zip(pruned, every, strict=True):
        assert (a.state, a.target, a.method) == (b.state, b.target, b.method)
        if a.state.verified:
            assert (a.score, a.evidence) == (b.score, b.evidence)


def test_the_series_rule_sees_issues_that_are_not_compared() -> None:
    # Issues of a column in other years rank 24+ points below the cited one (their years
    # disagree), so they are not compared in full; the series rule still counts them.
    title = "Reminiscences on influential papers"
    cited = cl.Paper(title=title, authors=["K. A. Ross"], year=2001, venue="SIGMOD Record")
    issues = [
        cl.Paper(title=title, authors=["K. A. Ross"], year=year, venue="SIGMOD Record")
        for year in (1998, 2004)
    ]
    ref = cl.Reference(title=title, authors=["K. A. Ross"], year=2001)
    assert cl.Resolver([cited]).resolve(ref).state is cl.ResolutionState.VERIFIED_FUZZY
    for catalog in ([cited, *issues], [*issues, cited]):
        result = cl.Resolver(catalog).resolve(ref)
        assert result.state is cl.ResolutionState.UNRESOLVED
        assert "the title recurs" in result.reason


# --------------------------------------------------------------------------- verify's pair route

_PAIR_IDS = (
    "10.5555/e.1",
    "10.5555/e.2",
    "arXiv:2104.07857v1",
    "arXiv:2104.07857v2",
    "10.48550/arXiv.2104.07857",
    "10.1101/2020.01.01.123456",
    "10.6084/m9.figshare.9.v1",
    "10.6084/m9.figshare.9.v2",
    "pmid:123456",
    "PMC123456",
)


@st.composite
def _pair_paper(draw: st.DrawFn) -> cl.Paper:
    # _paper() with identifiers that may be versions, preprints or relations of each other.
    paper = draw(_paper())
    related = draw(st.lists(st.sampled_from(_PAIR_IDS[2:6]), max_size=1))
    return attrs.evolve(
        paper,
        identifiers=draw(st.lists(st.sampled_from(_PAIR_IDS), max_size=3, unique=True)),
        related=[Relation(kind="has_preprint", identifier=i) for i in related],
    )


@st.composite
def _pair_item(draw: st.DrawFn, paper: cl.Paper) -> cl.Reference | cl.Paper:
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return paper  # a record verified against itself
    if kind == 1:
        return draw(_pair_paper())
    title = paper.title or ""
    if kind == 2:  # the paper cited with noise: case, a dropped word, a substituted word
        words = title.upper().split() if draw(st.booleans()) else title.split()
        if len(words) > 2 and draw(st.booleans()):
            del words[draw(st.integers(0, len(words) - 1))]
        substitute = draw(st.booleans())
        if words and substitute:
            words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(_WORDS))
        return cl.Reference(
            title=" ".join(words) or None,
            authors=paper.authors[: draw(st.integers(0, 2))],
            year=draw(st.sampled_from([paper.year, None, 2001])),
            volume=draw(st.sampled_from([paper.volume, None, "9"])),
            first_page=draw(st.sampled_from([paper.first_page, None, "3"])),
            venue=draw(st.sampled_from([paper.venue, None, "Nature"])),
            identifiers=draw(st.lists(st.sampled_from(_PAIR_IDS), max_size=2, unique=True)),
        )
    if kind == 3:  # title-less: identifiers, or journal, volume and page
        return cl.Reference(
            venue=paper.venue,
            volume=paper.volume,
            first_page=paper.first_page,
            identifiers=draw(st.lists(st.sampled_from(_PAIR_IDS), max_size=2, unique=True)),
        )
    # a string: parse confidence, doubt, malformed fragments
    tail = draw(st.sampled_from(["", " doi:10.55/x", " doi:10.5555/e.1", " arXiv:2104.07857"]))
    return cl.Reference.from_string(f"Smith A. {title}. Nature. 2001;1:7.{tail}")


@given(data=st.data())
@settings(max_examples=300, deadline=None)
def test_verify_pair_route_equals_a_one_paper_catalog(data: st.DataObject) -> None:
    # verify() decides most pairs in _pair.pair_route (no resolver); what it decides there and
    # what it leaves to the resolver are what a one-paper catalog gives, evidence and reason too.
    from citeledger.resolve._pair import _OnePaper, pair_route  # noqa: PLC0415
    from citeledger.resolve.resolver import _DEFAULT_CONFIG  # noqa: PLC0415

    paper = data.draw(_pair_paper())
    item = data.draw(_pair_item(paper))
    expected = cl.Resolver([paper]).resolve(item)
    got = cl.verify(item, paper)
    assert got == expected
    assert got.evidence == expected.evidence
    assert got.reason == expected.reason
    assert verify_many([(item, paper)]) == [expected]
    routed = pair_route(_DEFAULT_CONFIG, item, ReferenceFeatures.of(item), _OnePaper(paper))
    assert routed is None or routed == expected


def _same_result(got: cl.Resolution, expected: cl.Resolution) -> None:
    # Every field, the evidence and the reason rendered.
    assert got == expected
    assert got.evidence == expected.evidence
    assert got.reason == expected.reason


@given(data=st.data())
@settings(max_examples=200, deadline=None)
def test_verify_on_records_it_has_seen_equals_a_one_paper_catalog(data: st.DataObject) -> None:
    # verify() keeps each record's keys while the record lives (_verifykeys.pair_keys): the same
    # objects verified again, in either role and against other records, give what a one-paper
    # catalog gives each time.
    paper = data.draw(_pair_paper())
    other = data.draw(_pair_paper())
    item = data.draw(_pair_item(paper))
    calls = [(item, paper), (paper, other), (other, paper), (item, other), (paper, paper)]
    if isinstance(item, cl.Paper):
        calls.append((paper, item))
    for given_, target in data.draw(st.lists(st.sampled_from(calls), min_size=1, max_size=8)):
        _same_result(cl.verify(given_, target), cl.Resolver([target]).resolve(given_))
    _same_result(cl.verify(item, paper), cl.Resolver([paper]).resolve(item))


@given(data=st.data())
@settings(max_examples=200, deadline=None)
def test_kept_pair_keys_equal_fresh_ones(data: st.DataObject) -> None:
    # Whatever was made first (the features, the title, the name keys), each key equals the
    # one computed afresh: those of a record's first call (made for that call) and those kept
    # from its second.
    from citeledger.identifiers import version_key, work_key  # noqa: PLC0415
    from citeledger.resolve._verifykeys import _SEEN, pair_keys  # noqa: PLC0415

    paper = data.draw(_pair_paper())
    record = data.draw(_pair_item(paper))
    _SEEN.clear()  # (an id noted for a collected record would keep the first call's keys)
    first = pair_keys(record)
    keys = pair_keys(record)
    assert keys is not first
    assert pair_keys(record) is keys
    order = data.draw(st.permutations(["feats", "title", "authors", "versions", "related"]))
    for made, name in itertools.product((first, keys), order):
        if name == "feats":
            assert made.feats(record) == ReferenceFeatures.of(record)
        elif name == "title":
            assert made.title(record) == normalize_title(record.title)
        elif name == "authors":
            assert made.authors(record) == name_keys(record.authors)
        elif name == "versions":
            assert made.versions == tuple(version_key(i) for i in record.identifiers)
            assert made.version_set() == {
                *(work_key(i) for i in record.identifiers),
                *(version_key(i) for i in record.identifiers),
            }
        elif isinstance(record, cl.Paper):
            assert made.related(record) == {work_key(r.identifier) for r in record.related}
    assert first.keys == keys.keys == tuple(work_key(i) for i in record.identifiers)
    assert pair_keys(record) is keys


def test_pair_keys_go_with_their_record() -> None:
    # The side table holds a record's keys only while the record lives (no strong reference
    # to it): a collected record's entry is dropped, and a new record never gets another's keys.
    import gc  # noqa: PLC0415
    import weakref  # noqa: PLC0415

    from citeledger.resolve import _verifykeys  # noqa: PLC0415

    paper = cl.Paper(title="Local cloning of entangled qubits", identifiers=["10.5555/e.1"])
    other = cl.Paper(title="Something else entirely", identifiers=["10.5555/e.2"])
    cl.verify(paper, other)
    cl.verify(paper, other)  # kept from the second call
    alive = weakref.ref(paper)
    key = id(paper)
    assert _verifykeys._TABLE[key].keys == ("doi:10.5555/e.1",)
    del paper
    gc.collect()
    assert alive() is None
    assert key not in _verifykeys._TABLE
    again = cl.Paper(title="Local cloning of entangled qubits", identifiers=["10.5555/e.3"])
    assert _verifykeys.pair_keys(again).keys == ("doi:10.5555/e.3",)


def test_pair_keys_are_kept_from_a_records_second_call() -> None:
    # A record verified once keeps nothing (verifying fresh records adds no objects for the
    # garbage collector to walk); its second call keeps its keys, which later calls reuse. A
    # record verified against itself is one call.
    from citeledger.resolve import _verifykeys  # noqa: PLC0415

    # (An id noted for a record since collected would make a new record's keys kept at once.)
    _verifykeys._SEEN.clear()
    paper = cl.Paper(title="Local cloning of entangled qubits", identifiers=["10.5555/e.4"])
    other = cl.Paper(title="Local cloning of entangled qubits", identifiers=["10.5555/e.5"])
    expected = cl.Resolver([other]).resolve(paper)
    _same_result(cl.verify(paper, other), expected)
    assert id(paper) not in _verifykeys._TABLE
    assert id(other) not in _verifykeys._TABLE
    assert id(paper) in _verifykeys._SEEN
    _same_result(cl.verify(paper, other), expected)
    kept = _verifykeys._TABLE[id(paper)]
    assert kept() is paper
    assert _verifykeys._TABLE[id(other)]() is other
    assert id(paper) not in _verifykeys._SEEN
    _same_result(cl.verify(paper, other), expected)
    assert _verifykeys._TABLE[id(paper)] is kept
    alone = cl.Paper(title="Entangled qubits cloned locally", identifiers=["10.5555/e.6"])
    _same_result(cl.verify(alone, alone), cl.Resolver([alone]).resolve(alone))
    assert id(alone) not in _verifykeys._TABLE


def test_a_full_table_of_pair_keys_is_emptied(monkeypatch: pytest.MonkeyPatch) -> None:
    # At most MAX_KEPT records keep their keys; past that the table starts again, and records
    # whose keys were dropped are verified as before.
    from citeledger.resolve import _verifykeys  # noqa: PLC0415

    monkeypatch.setattr(_verifykeys, "MAX_KEPT", 3)
    _verifykeys._TABLE.clear()
    _verifykeys._SEEN.clear()
    papers = [
        cl.Paper(title=f"{w} kernel fusion retrieval", year=2001, identifiers=[f"10.5555/e.{n}"])
        for n, w in enumerate(_WORDS[:6])
    ]
    sizes = set()
    for _ in range(2):
        for a in papers:
            for b in papers[:3]:
                _same_result(cl.verify(a, b), cl.Resolver([b]).resolve(a))
                sizes.add(len(_verifykeys._TABLE))
                assert len(_verifykeys._SEEN) <= 3
    assert max(sizes) == 3


@given(data=st.data())
@settings(max_examples=300, deadline=None)
def test_a_candidate_that_fails_whatever_its_fields_fails(data: st.DataObject) -> None:
    # verify() leaves the other fields uncompared when the title and the year already fail the
    # candidate (_select.fails_whatever_fields): best_failures must then find a failure, under
    # any thresholds.
    from citeledger.resolve._rules import best_failures  # noqa: PLC0415
    from citeledger.resolve._select import (  # noqa: PLC0415
        fails_whatever_fields,
        scored_candidate,
    )

    cfg = cl.ResolverConfig(
        min_title_similarity=data.draw(st.sampled_from([80.0, 90.0, 97.0])),
        min_generic_title_similarity=data.draw(st.sampled_from([90.0, 97.0])),
        min_prefix_title_similarity=data.draw(st.sampled_from([85.0, 95.0])),
        min_prefix_corroborations=data.draw(st.integers(0, 3)),
        year_tolerance=data.draw(st.integers(0, 2)),
        preprint_year_tolerance=data.draw(st.integers(0, 3)),
    )
    paper = data.draw(_pair_paper())
    item = data.draw(_pair_item(paper))
    feats = ReferenceFeatures.of(item)
    theirs = normalize_title(paper.title)
    if not feats.title or not theirs:
        return
    sim = title_similarity(feats.title, theirs)
    parts = title_part(feats.title, theirs, sim)
    best = scored_candidate(cfg, feats, paper, theirs, sim)
    failures, _, _ = best_failures(cfg, feats, item, best)
    if fails_whatever_fields(cfg, feats, parts, paper):
        assert failures
    quick, _, _ = best_failures(cfg, feats, item, best, quick=True)
    assert bool(quick) == bool(failures)


def test_verify_compares_the_other_fields_of_a_failed_candidate_when_read() -> None:
    # A year that disagrees fails the candidate: the result is built without comparing authors
    # and venue, and its evidence and reason, rendered when read, are the resolver's.
    from citeledger.model._observation import _Deferred  # noqa: PLC0415
    from citeledger.resolve._pair import _LaterScored  # noqa: PLC0415
    from citeledger.resolve._results import _EVIDENCE_SLOT  # noqa: PLC0415

    paper = attrs.evolve(CLONING, identifiers=())  # found by its fields, not its DOI
    for other in (
        attrs.evolve(paper, year=2015),
        attrs.evolve(paper, title="Local cloning of entangled mixed states by telecloning"),
    ):
        got = cl.verify(other, paper)
        deferred = _EVIDENCE_SLOT.__get__(got, cl.Resolution)
        assert isinstance(deferred, _Deferred)
        assert any(isinstance(a, _LaterScored) for a in deferred.args)
        expected = cl.Resolver([paper]).resolve(other)
        assert got.state is cl.ResolutionState.UNRESOLVED
        _same_result(got, expected)
        assert got.evidence_for("authors") is not None


# Titles that recur: generic ones (years must agree exactly) and a longer one (a year off is
# another version, and the preprint rule applies), with word-order and one-word variants.
_RECURRING = (
    "guest editorial",
    "editorial",
    "editorial guest",
    "protein graph memory kernel fusion retrieval",
    "protein graph memory kernel fusion",
    "graph protein memory kernel fusion retrieval",
)


@st.composite
def _tie_groups(draw: st.DrawFn) -> tuple[list[cl.Paper], list[cl.Reference]]:
    # Many papers sharing a few titles (ties at the candidate cut), varied years, authors and
    # identifiers (arXiv ids and preprint venues for the preprint rule); references cite one of
    # them, or none, with a year that may be off and perhaps as a preprint.
    titles = draw(st.lists(st.sampled_from(_RECURRING), min_size=1, max_size=3, unique=True))
    catalog = []
    for k, paper in enumerate(draw(st.lists(_paper(), min_size=2, max_size=40))):
        kind = draw(st.integers(0, 3))
        ids = [f"arXiv:2001.{k + 1:05d}"] if kind == 0 else [f"10.5555/t.{k}"] if kind < 3 else []
        catalog.append(
            attrs.evolve(
                paper,
                title=draw(st.sampled_from(titles)),
                year=draw(st.one_of(st.none(), st.integers(1998, 2005))),
                venue=draw(st.sampled_from([None, "Nature", "arXiv", "bioRxiv"])),
                identifiers=ids,
            )
        )
    refs = []
    for _ in range(draw(st.integers(1, 6))):
        cited = draw(st.sampled_from(catalog))
        year = draw(st.one_of(st.none(), st.integers(1997, 2006), st.just(cited.year)))
        refs.append(
            cl.Reference(
                title=draw(st.sampled_from([cited.title, *titles])),
                authors=cited.authors[: draw(st.integers(0, 2))],
                year=year,
                venue=draw(st.sampled_from([cited.venue, None, "arXiv"])),
                volume=draw(st.sampled_from([cited.volume, None])),
                first_page=draw(st.sampled_from([cited.first_page, None])),
                identifiers=draw(st.sampled_from([[], ["arXiv:2101.00001"]])),
            )
        )
    return catalog, refs


def _outcome(res: cl.Resolution) -> tuple[object, ...]:
    return (
        res.state,
        res.target,
        res.score,
        res.method,
        res.reason,
        res.alternatives,
        res.evidence,
    )


@given(data=st.data())
@settings(max_examples=200, deadline=None)
def test_many_candidates_decide_as_few(data: st.DataObject) -> None:
    # The batched paths (bounds once per distinct title and year in compared(), the candidate
    # stage's columns, the pool held as columns with NumPy) give every field of every resolution
    # of the one-by-one paths, and the decisions of comparing every candidate.
    catalog, refs = data.draw(_tie_groups())
    # Papers, or records whose papers are built as they are read (each run on a fresh catalog,
    # so the batched one meets papers not built yet).
    records = data.draw(st.booleans())
    raw = data.draw(st.booleans())

    def resolver() -> cl.Resolver:
        config = cl.ResolverConfig(candidate_limit=3)
        if not records:
            return cl.Resolver(catalog, config=config)
        built = cl.Catalog.from_records([_record(p, raw) for p in catalog])
        # The year column holds the papers' years (0 for none).
        assert built.years_of(range(len(built))) == [p.year or 0 for p in catalog]
        return cl.Resolver(built, config=config)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(resolver_engine, "_MANY", 2)
        patched.setattr(resolver_impl, "_MANY_HITS", 2)
        # the pool as columns (ManyPool, NumPy), then as a list of items
        patched.setattr(resolver_impl, "_COLUMN_HITS", 2)
        columns = [resolver().resolve(ref) for ref in refs]
        patched.setattr(resolver_impl, "_COLUMN_HITS", 10**9)
        batched = [resolver().resolve(ref) for ref in refs]
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(resolver_engine, "_MANY", 10**9)
        patched.setattr(resolver_impl, "_MANY_HITS", 10**9)
        plain = [resolver().resolve(ref) for ref in refs]
        patched.setattr(resolver_engine, "_PRUNE", False)
        every = [resolver().resolve(ref) for ref in refs]
    for z, a, b, c in zip(columns, batched, plain, every, strict=True):
        assert _outcome(z) == _outcome(a)
        assert _outcome(a) == _outcome(b)
        assert (a.state, a.target, a.method) == (c.state, c.target, c.method)
        if a.state.verified:
            assert (a.score, a.evidence) == (c.score, c.evidence)


@given(ref=_paper(), paper=_paper(), preprint=st.booleans(), tolerances=st.data())
@settings(max_examples=300, deadline=None)
def test_year_agreement_of_year_is_the_papers(
    ref: cl.Paper, paper: cl.Paper, preprint: bool, tolerances: st.DataObject
) -> None:
    # Once per distinct year, the agreement of every paper of that year, or None when the
    # preprint rule reads the paper.
    tol = tolerances.draw(st.integers(0, 2))
    preprint_tol = tolerances.draw(st.integers(0, 3))
    ids = ["arXiv:2001.00001"] if preprint else []
    feats = ReferenceFeatures.of(attrs.evolve(ref, identifiers=ids))
    if feats.year is None:
        return
    for venue in (None, "arXiv", "Nature"):
        for extra in ([], ["arXiv:2002.00002"]):
            candidate = attrs.evolve(paper, venue=venue, identifiers=extra)
            got = _year_agreement_of_year(
                feats, candidate.year, tolerance=tol, preprint_tolerance=preprint_tol
            )
            want = year_agreement(feats, candidate, tolerance=tol, preprint_tolerance=preprint_tol)
            assert got is None or got is want
            if got is None:  # only where the preprint rule may apply
                assert compare_year(feats.year, candidate.year, tolerance=tol) is (
                    Agreement.DISAGREE
                )


def test_a_title_recorded_hundreds_of_times_decides_as_the_list_of_its_candidates() -> None:
    # "Editorial" 300 times (every year 1990-2019 ten times, each with its own editor and
    # volume): its references take the column path (ManyPool, NumPy) at the default thresholds,
    # and every field of every result is the list path's.
    names = ["Abbott", "Baker", "Carter", "Dawson", "Ellis", "Fisher", "Graham", "Harper"]
    papers = [
        cl.Paper(
            title="Editorial",
            authors=[f"{chr(65 + k % 26)}. {names[k % 8]}{k}"],
            year=1990 + k % 30,
            venue="Journal of Examples",
            volume=str(k + 1),
            pages="1-2",
            identifiers=[f"10.5555/ed.{k}"],
        )
        for k in range(300)
    ]
    papers.append(cl.Paper(title="Editorial note on examples", authors=["Ann Other"], year=2001))
    refs = [
        cl.Reference(
            title="Editorial", authors=["H. Harper7"], year=1997, volume="8", first_page="1"
        ),
        cl.Reference(title="Editorial", authors=["H. Harper7"], year=1997),
        cl.Reference(title="Editorial", year=2005),
        cl.Reference(title="Editorial", authors=["Nobody Known"]),
        cl.Reference(title="editorial", authors=["N. Harper299"], year=2019, venue="arXiv"),
        cl.Reference(title="Editorial", authors=["M. Ellis12"], year=2030),
    ]
    used: list[object] = []
    many_pool = resolver_engine.many_pool

    def spy(*args: Any, **kwargs: Any) -> Any:
        pool = many_pool(*args, **kwargs)
        used.append(pool)
        return pool

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(resolver_impl, "many_pool", spy)
        columns = cl.Resolver(papers).resolve_many(refs)
    assert len(used) == len(refs)
    assert all(isinstance(pool, resolver_engine.ManyPool) for pool in used)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(resolver_impl, "_COLUMN_HITS", 10**9)
        listed = cl.Resolver(papers).resolve_many(refs)
    assert [_outcome(a) for a in columns] == [_outcome(b) for b in listed]
    # The editorial of volume 8 is told from the other nine of 1997; without the volume, the
    # recurring title is a series that the reference does not pin down.
    assert columns[0].state is cl.ResolutionState.VERIFIED_FUZZY
    assert columns[0].target is papers[7]
    assert [r.state for r in columns[1:]] == [cl.ResolutionState.UNRESOLVED] * 5


@given(data=st.data())
@settings(max_examples=200, deadline=None)
def test_column_bounds_are_the_many_bounds_of_the_same_candidates(data: st.DataObject) -> None:
    # _column_bounds (a ManyPool, NumPy) gives every candidate the rough bound, refined bound
    # and hopeless flag _many_bounds gives the same candidates as a list: for references with
    # and without a year, the preprint rule's years, and similarities that differ within one
    # title (which the candidate stage never makes: the class-by-class fallback).
    papers, refs = data.draw(_tie_groups())
    catalog = cl.Catalog(papers)
    pids = data.draw(st.lists(st.sampled_from(range(len(papers))), min_size=1, max_size=60))
    distinct = list(dict.fromkeys(catalog.title_of(pid) for pid in pids))
    tids = [distinct.index(catalog.title_of(pid)) for pid in pids]
    ratios = data.draw(st.lists(st.floats(0, 100), min_size=len(distinct), max_size=len(distinct)))
    per_title = data.draw(
        st.lists(st.floats(0, 100), min_size=len(distinct), max_size=len(distinct))
    )
    sims = [per_title[t] for t in tids]
    if data.draw(st.booleans()):
        sims = data.draw(st.lists(st.floats(0, 100), min_size=len(pids), max_size=len(pids)))
    import numpy as np  # noqa: PLC0415 - the library imports it when first needed too

    pool = resolver_engine.ManyPool(
        catalog,
        np.asarray(sims, dtype=np.float64),
        np.asarray(pids, dtype=np.intp),
        np.asarray(tids, dtype=np.intp),
        distinct,
        ratios,
    )
    cfg = cl.ResolverConfig()
    for ref in refs:
        feats = ReferenceFeatures.of(ref)
        tol, preprint_tol = resolver_engine.year_tolerances(cfg, feats)
        needs = resolver_engine._Needs(
            lambda i: catalog[pids[i]],
            tol,
            preprint_tol,
            field_points_bound(feats),
            cfg.min_generic_title_similarity if feats.generic else cfg.min_title_similarity,
            float("inf") if feats.generic else cfg.min_prefix_title_similarity,
            without_session_label(feats.title) is not feats.title,
        )
        rough, reach, lost = resolver_engine._column_bounds(feats, pool, needs)
        want_rough, want_refined = resolver_engine._many_bounds(feats, pool.items(), needs)
        assert rough.tolist() == want_rough
        assert list(zip(reach.tolist(), lost.tolist(), strict=True)) == want_refined
        # and the order of a subset by rough bound is the stable sort's
        among = np.asarray(lost)
        assert resolver_engine._by_rough(rough, ~among) == sorted(
            (i for i in range(len(pids)) if not lost[i]), key=want_rough.__getitem__, reverse=True
        )
