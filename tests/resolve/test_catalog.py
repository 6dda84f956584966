"""The in-memory catalog: identifier aliasing, blocking, streaming, pickling."""

from __future__ import annotations

import gc
import pickle
import unittest.mock
from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citeledger as cl
from citeledger.errors import InvalidArgument
from citeledger.identifiers import version_key
from citeledger.model import Relation
from citeledger.resolve import _rows
from citeledger.resolve import catalog as catalog_module
from citeledger.resolve.normalize import normalize_title, title_tokens

A = cl.Paper(
    title="Attention is all you need",
    authors=["Ashish Vaswani"],
    year=2017,
    identifiers=["arXiv:1706.03762v5", "10.5555/3295222.3295349"],
)
B = cl.Paper(
    title="Deep residual learning for image recognition",
    authors=["Kaiming He"],
    year=2016,
    identifiers=["10.1109/CVPR.2016.90"],
    related=[Relation(kind="has_preprint", identifier="arXiv:1512.03385")],
)
C = cl.Paper(title="Residual networks behave like ensembles of shallow networks", year=2016)


def _stream() -> Iterator[cl.Paper]:
    yield from (A, B, C)


def test_streaming_build_and_len() -> None:
    cat = cl.Catalog(_stream())
    assert len(cat) == 3
    assert cat[1] is B
    assert "3 papers" in repr(cat)
    cat.add(cl.Paper(title="Another one"))
    assert len(cat) == 4


def test_identifier_aliases() -> None:
    cat = cl.Catalog([A, B, C])
    assert cat.by_identifier(cl.parse_identifier("arXiv:1706.03762")) == [A]
    assert cat.by_identifier(cl.parse_identifier("arXiv:1706.03762v1")) == [A]
    assert cat.by_identifier(cl.normalize_doi("10.48550/arXiv.1706.03762")) == [A]
    assert cat.by_identifier(cl.normalize_doi("10.1109/cvpr.2016.90")) == [B]
    # A preprint named only in B's relations finds B.
    assert cat.by_identifier(cl.parse_identifier("arXiv:1512.03385v1")) == [B]
    assert cat.by_identifier(cl.normalize_doi("10.1000/none")) == []


def test_direct_hits_win_over_relations() -> None:
    preprint = cl.Paper(
        title="Deep residual learning (preprint)", identifiers=["arXiv:1512.03385v1"]
    )
    cat = cl.Catalog([B, preprint])
    assert cat.by_identifier(cl.parse_identifier("arXiv:1512.03385")) == [preprint]


def test_shared_identifier_lists_both() -> None:
    dup = cl.Paper(
        title="Attention is all you need (copy)", identifiers=["10.5555/3295222.3295349"]
    )
    cat = cl.Catalog([A, dup])
    assert cat.by_identifier(cl.normalize_doi("10.5555/3295222.3295349")) == [A, dup]


def test_blocking_uses_rare_tokens() -> None:
    cat = cl.Catalog([A, B, C])
    assert cat.document_frequency("residual") == 2
    assert cat.document_frequency("the") == 0  # stopwords are not indexed
    ref = cl.Reference(title="Deep Residual Learning for Image Recognition.")
    assert cat.candidates(ref, limit=5)[0] is B
    assert cat.candidates(cl.Reference(title="Quantum chromodynamics"), limit=5) == []
    assert cat.candidates(cl.Reference(), limit=5) == []


def test_blocking_tolerates_one_misspelt_word() -> None:
    cat = cl.Catalog([A, B, C])
    ref = cl.Reference(title="Deep residaul learning for image recognition")
    assert B in cat.candidates(ref, limit=5)


def test_common_tokens_are_skipped_not_truncated() -> None:
    papers = [cl.Paper(title=f"learning study number{i}") for i in range(30)]
    cat = cl.Catalog(papers, max_df=10)
    # "learning" and "study" are too common: only the rare token selects candidates.
    assert cat.blocking_ids(normalize_title("learning study number7")) == [7]
    assert cat.blocking_ids(normalize_title("learning study")) == []


def test_scored_candidates_keep_ties_and_order_by_key() -> None:
    twins = [cl.Paper(title="Same title of a paper", year=y) for y in (2003, 2001, 2002)]
    cat = cl.Catalog(twins)
    scored = cat.scored_candidates(normalize_title("Same title of a paper"), limit=1)
    assert len(scored) == 3  # ties at the limit are all kept
    assert [cat[i].year for _, i in scored] == [2001, 2002, 2003]


def test_pickle_roundtrip() -> None:
    cat = cl.Catalog([A, B, C])
    clone = pickle.loads(pickle.dumps(cat))
    assert len(clone) == 3
    assert clone.by_identifier(cl.parse_identifier("arXiv:1706.03762")) == [A]
    assert clone.candidates(cl.Reference(title=B.title), limit=3)[0] == B


def test_version_key_folds_only_known_registrant_suffixes() -> None:
    cases = {
        "10.6084/m9.figshare.5107054.v2": "doi:10.6084/m9.figshare.5107054",
        "10.20944/preprints202001.0001.v1": "doi:10.20944/preprints202001.0001",
        "10.21203/rs.2.18406/v1": "doi:10.21203/rs.2.18406",
        "10.31219/osf.io/abcde_v2": "doi:10.31219/osf.io/abcde",
        "10.1007/978-3-319-76887-8_61-1": "doi:10.1007/978-3-319-76887-8_61",
        "10.3403/30276345u": "doi:10.3403/30276345",
        # Other registrants' suffixes are left alone: ".v1" there is not known to be a version.
        "10.1000/abc.v1": "doi:10.1000/abc.v1",
        "10.1007/s11663-012-9771-y": "doi:10.1007/s11663-012-9771-y",
    }
    for doi, key in cases.items():
        assert version_key(cl.normalize_doi(doi)) == key
    assert version_key(cl.parse_identifier("arXiv:1706.03762v5")) == "arxiv:1706.03762"


def test_versioned_doi_finds_other_versions_after_direct_hits() -> None:
    v2 = cl.Paper(title="A dataset of things", identifiers=["10.6084/m9.figshare.123.v2"])
    concept = cl.Paper(title="A dataset of things", identifiers=["10.6084/m9.figshare.123"])
    cat = cl.Catalog([v2])
    assert cat.by_identifier(cl.normalize_doi("10.6084/m9.figshare.123.v1")) == [v2]
    assert cat.by_identifier(cl.normalize_doi("10.6084/m9.figshare.123")) == [v2]
    both = cl.Catalog([v2, concept])
    # A direct hit wins over another version.
    assert both.by_identifier(cl.normalize_doi("10.6084/m9.figshare.123")) == [concept]
    assert both.by_identifier(cl.normalize_doi("10.6084/m9.figshare.123.v1")) == [v2, concept]
    assert cat.by_identifier(cl.normalize_doi("10.1000/abc.v1")) == []


def test_blocking_tolerates_a_misspelling_into_another_rare_word() -> None:
    # "quasar" is the paper's rarest word; the reference misspells it as "quasi", which another
    # paper carries, so the paper must still be found through its next rarest word.
    target = cl.Paper(title="Spectral quasar survey of northern galaxies")
    other = cl.Paper(title="Quasi periodic oscillations")
    filler = [cl.Paper(title=f"Spectral galaxies northern number{i}") for i in range(5)]
    cat = cl.Catalog([target, other, *filler])
    ids = cat.blocking_ids(normalize_title("Spectral quasi survey of northern galaxies"))
    assert 0 in ids


_VOCAB = ["alpha", "beta", "gamma", "delta", "omega", "sigma"]


@settings(max_examples=80)
@given(
    titles=st.lists(
        st.lists(st.sampled_from(_VOCAB), min_size=1, max_size=4, unique=True),
        min_size=1,
        max_size=40,
    ),
    query=st.lists(st.sampled_from(_VOCAB), min_size=1, max_size=5, unique=True),
    budget=st.integers(min_value=1, max_value=12),
)
def test_blocking_follows_its_documented_rule(
    titles: list[list[str]], query: list[str], budget: int
) -> None:
    # The rule of Catalog.blocking_ids, restated from its docstring and checked by brute force
    # (a small budget reaches every branch: one token, the budget, two of the three rarest).
    cat = cl.Catalog([cl.Paper(title=" ".join(t)) for t in titles], max_df=len(titles))
    carrying = {w: {i for i, t in enumerate(titles) if w in t} for w in _VOCAB}
    known = sorted((len(carrying[w]), w) for w in set(query) if carrying[w])
    chosen = [carrying[w] for _, w in known[:4]]
    if not chosen:
        expected: set[int] = set()
    elif len(chosen) == 1:
        expected = chosen[0]
    elif len(chosen[0]) <= budget:
        expected, total = set(chosen[0]), len(chosen[0])
        for ids in chosen[1:]:
            total += len(ids)
            if total > budget:
                break
            expected |= ids
    elif len(chosen) == 2:
        expected = chosen[0] | chosen[1]
    else:
        a, b, c = chosen[:3]
        expected = (a & b) | (a & c) | (b & c)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(catalog_module, "_SCAN_BUDGET", budget)
        assert cat.blocking_ids(" ".join(query)) == sorted(expected)


# --------------------------------------------------------------------------- from_records


def _same_catalog(got: cl.Catalog, want: cl.Catalog) -> None:
    """Two catalogs hold the same papers and the same indexes."""
    assert len(got) == len(want)
    for name in ("_ids", "_related", "_versions", "_locators", "_normalized"):
        assert getattr(got, name) == getattr(want, name), name
    assert {k: list(v) for k, v in got._postings.items() if v} == {
        k: list(v) for k, v in want._postings.items() if v
    }
    assert type(got._postings) is dict
    assert [got._titles[i] for i in range(len(got))] == [want._titles[i] for i in range(len(want))]
    assert [got[i] for i in range(len(got))] == [want[i] for i in range(len(want))]


_TEXTS = st.one_of(
    st.sampled_from(
        [
            "Attention is all you need",
            "  Deep   residual\tlearning ",
            "CO<sub>2</sub> capture & storage",
            "Tom &amp; Jerry: a <i>survey</i>",
            "Über-Graphs: the ﬁrst Łukasiewicz study",
            "Ångström-scale imaging of a cell",
            "a of the in",
            "x",
            "",
            "   ",
            "broken \ud800 surrogate",
            "２２ full width",
        ]
    ),
    st.text(max_size=30),
    st.text(alphabet=st.characters(max_codepoint=127), max_size=30),
)
_YEARS = st.one_of(
    st.none(),
    st.integers(1990, 2005),
    st.sampled_from([1000, 2199, 999, 2200, 0, -5, True, 2001.0, 2001.5, "2001", "c. 1999"]),
    st.sampled_from(["in press", "n.d.", "abc", "", "  "]),
)
_CODES = st.one_of(
    st.none(),
    st.sampled_from(["12", " 12 ", "76", "4350-4", "4350 – 4354", "pp. 7A", "", "２２", "e1"]),
    st.integers(0, 20),
    st.sampled_from([[1], b"12", 1.5]),
)
_IDS = st.one_of(
    st.none(),
    st.sampled_from(
        [
            [],
            ["10.5555/a"],
            ["10.5555/A", "10.5555/a"],
            ["10.5555/b", "arXiv:1706.03762v5"],
            ["10.48550/arXiv.1706.03762"],
            ["10.6084/m9.figshare.123.v2"],
            ["10.1007/bf123"],
            ["10.1000/a%41b"],
            ["10.1000/a&amp;b"],
            ["https://doi.org/10.5555/C"],
            ["nonsense"],
            ["PMID:123", "10.5555/c"],
            [5],
            "10.5555/single",
            ("10.5555/t",),
            (cl.parse_identifier("10.5555/obj"),),
            [cl.parse_identifier("arXiv:1512.03385")],
        ]
    ),
)


@st.composite
def _records(draw: st.DrawFn) -> dict[str, object]:
    record: dict[str, object] = {}
    for name, values in (
        ("title", _TEXTS),
        ("year", _YEARS),
        ("venue", st.one_of(st.none(), _TEXTS, st.just(5))),
        ("volume", _CODES),
        ("issue", _CODES),
        ("pages", _CODES),
        ("identifiers", _IDS),
        (
            "authors",
            st.sampled_from(
                [
                    None,
                    [],
                    ["A. Smith", "B. Jones"],
                    "A and B",
                    ("C. Wu",),
                    [cl.Author(family="Li")],
                ]
            ),
        ),
    ):
        if draw(st.booleans()):
            record[name] = draw(values)
    if draw(st.integers(0, 5)) == 0:  # a record of other fields too: the Paper path
        record[draw(st.sampled_from(["work_type", "areas", "source"]))] = draw(
            st.sampled_from(["article", ["cs.LG"], None])
        )
    return record


def _light(record: dict[str, object]) -> cl.Paper:
    return cl.Paper(**{k: v for k, v in record.items() if k != "authors"})  # type: ignore[arg-type]


def _papers_of(records: list[dict[str, object]]) -> list[cl.Paper]:
    # The papers of the records Paper accepts.
    papers = []
    for record in records:
        try:
            papers.append(cl.Paper(**record))  # type: ignore[arg-type]
        except (cl.ModelError, TypeError, ValueError):
            continue
    return papers


@settings(max_examples=300, deadline=None)
@given(records=st.lists(_records(), max_size=8), start=st.integers(0, 3))
def test_extend_indexes_papers_as_add_does(records: list[dict[str, object]], start: int) -> None:
    # A bulk load (Catalog(papers), extend) indexes the common titles with the title index of
    # from_records, compiled or not; one paper at a time (add) takes the Python steps. The same
    # catalog either way, also when extending a catalog that holds papers already.
    papers = _papers_of(records)
    one = cl.Catalog()
    for paper in papers:
        one.add(paper)
    for index in {_rows.TitleIndex, _rows.PyTitleIndex}:
        with unittest.mock.patch.object(_rows, "TitleIndex", index):
            bulk = cl.Catalog(papers[:start])
            bulk.extend(iter(papers[start:]))
        _same_catalog(bulk, one)
        assert gc.isenabled()


def test_extend_refusing_an_item_keeps_the_papers_before_it_indexed() -> None:
    papers = [cl.Paper(title=f"Study number {i} of graphs", year=2000 + i) for i in range(3)]
    cat = cl.Catalog()
    with pytest.raises(cl.ModelError, match="catalog item 2: expected a Paper, got str"):
        cat.extend([*papers[:2], "not a paper", papers[2]])  # type: ignore[list-item]
    assert gc.isenabled()
    assert len(cat) == 2
    assert list(cat._postings["graphs"]) == [0, 1]
    assert cat.blocking_ids("study number 1 of graphs") == [0, 1]


@settings(max_examples=300, deadline=None)
@given(records=st.lists(st.one_of(_records(), _records().map(lambda r: r)), max_size=8))
def test_from_records_builds_the_catalog_of_its_papers(records: list[dict[str, object]]) -> None:
    # The columns' fast path against the papers themselves: the same indexes and papers for
    # any mix of ordinary and unusual values, and a refused value refused with Paper's own
    # message, naming the same record.
    refused = None
    for i, record in enumerate(records):
        try:
            _light(record)
        except (cl.ModelError, TypeError, ValueError) as exc:
            refused = f"catalog record {i}: {exc}"
            break
    if refused is not None:
        with pytest.raises(cl.ModelError) as caught:
            cl.Catalog.from_records(records)
        assert str(caught.value) == refused
        return
    papers = [cl.Paper(**r) for r in records]  # type: ignore[arg-type]
    _same_catalog(cl.Catalog.from_records(records), cl.Catalog(papers))
    # One record at a time (add_record) and with Papers among the records: the same.
    one = cl.Catalog()
    for r in records:
        one.add_record(r)
    _same_catalog(one, cl.Catalog(papers))
    mixed = [p if i % 2 else r for i, (p, r) in enumerate(zip(papers, records, strict=True))]
    _same_catalog(cl.Catalog.from_records(mixed), cl.Catalog(papers))
    # Pickled before its papers are built.
    _same_catalog(pickle.loads(pickle.dumps(cl.Catalog.from_records(records))), cl.Catalog(papers))


@settings(max_examples=500)
@given(text=st.one_of(_TEXTS, st.text(alphabet=st.characters(max_codepoint=127))))
def test_title_words_are_normalize_text_and_title_tokens(text: str) -> None:
    words, tokens = _rows._title_words(text)
    normalized = normalize_title(text)
    assert " ".join(words) == normalized
    assert tokens == set(title_tokens(normalized))


def test_from_records_refuses_bad_rows_naming_them() -> None:
    good = {"title": "A good title", "year": 2001, "identifiers": ["10.5555/g"]}
    for bad, message in (
        ({"title": 5}, "title: expected a string"),
        ({"title": "t", "year": 3000}, "year: 3000 is outside"),
        ({"title": "t", "year": "abc"}, "year: no year in 'abc'"),
        ({"title": "t", "identifiers": ["nonsense"]}, "invalid identifier"),
        ({"title": "t", "identifiers": ["10.1007/bf123"]}, "exactly 8 digits"),
        ({"title": "t", "identifiers": [5]}, "expected an identifier or a string"),
        ({"title": "t", "volume": [1]}, "expected a string, got list"),
        ({"title": "t", "authors": 3}, "authors must be names or Authors"),
        ({"title": "t", "colour": "red"}, "not Paper fields: colour"),
    ):
        with pytest.raises(cl.ModelError, match=f"^catalog record 2: .*{message}"):
            cl.Catalog.from_records([good, good, bad, good])


def test_from_records_takes_papers_as_the_dump_readers_yield() -> None:
    items: list[cl.Paper | dict[str, object]] = [A, {"title": "Another title", "year": 2001}, B]
    cat = cl.Catalog.from_records(iter(items))
    assert cat[0] is A
    assert cat[2] is B
    assert cat[1] == cl.Paper(title="Another title", year=2001)
    assert cat.by_identifier(cl.parse_identifier("arXiv:1512.03385v1")) == [B]


def test_from_records_reads_a_pyarrow_table() -> None:
    pa = pytest.importorskip("pyarrow")
    records = [
        {
            "title": "Attention is all you need",
            "authors": ["Ashish Vaswani", "Noam Shazeer"],
            "year": 2017,
            "venue": "NeurIPS",
            "volume": "30",
            "pages": "5998-6008",
            "identifiers": ["10.5555/3295222.3295349", "arXiv:1706.03762v5"],
        },
        {
            "title": "Über-Graphs",
            "authors": None,
            "year": None,
            "venue": None,
            "volume": None,
            "pages": None,
            "identifiers": [],
        },
        {
            "title": None,
            "authors": ["X. Y"],
            "year": 1999,
            "venue": "Nature",
            "volume": "76",
            "pages": "4350",
            "identifiers": ["10.5555/z"],
        },
    ]
    table = pa.Table.from_pylist(records * 3)
    papers = [cl.Paper(**r) for r in records * 3]  # type: ignore[arg-type]
    _same_catalog(cl.Catalog.from_records(table), cl.Catalog(papers))
    _same_catalog(cl.Catalog.from_records(table.to_batches()[0]), cl.Catalog(papers))
    with pytest.raises(cl.ModelError, match="columns that are not Paper fields: colour"):
        cl.Catalog.from_records(pa.Table.from_pylist([{"title": "t", "colour": "red"}]))
    bad = pa.Table.from_pylist([{"title": "t", "year": 2001}, {"title": "t", "year": 3000}])
    with pytest.raises(cl.ModelError, match=r"^catalog record 1: year: 3000"):
        cl.Catalog.from_records(bad)


@pytest.mark.shared_data
def test_from_records_decides_as_its_papers_on_real_rows() -> None:
    from tests import _data  # noqa: PLC0415 - reads the shared data

    records: list[dict[str, object]] = []
    for r in _data.rows("glutton_pmc1943_refs_doi_17k.jsonl")[:1500]:
        left = r["left"]
        records.append(
            {
                "title": left.get("atitle"),
                "authors": [left["firstAuthor"]] if left.get("firstAuthor") else [],
                "venue": left.get("jtitle"),
                "volume": left.get("volume"),
                "pages": left.get("firstPage"),
                "year": left.get("year"),
                "identifiers": [r["right"]["doi"]] if r["right"].get("doi") else [],
            }
        )
    for r in _data.rows("magellan_dblp_acm.jsonl")[:1500]:
        right = r["right"]
        records.append({k: right[k] or None for k in ("title", "authors", "venue", "year")})
    papers = [cl.Paper(**r) for r in records]  # type: ignore[arg-type]
    catalog = cl.Catalog.from_records(records)
    _same_catalog(catalog, cl.Catalog(papers))
    refs = [
        cl.Reference(title=(p.title or "").upper(), authors=p.authors[:1], year=p.year)
        for p in papers[::7]
    ] + [cl.Reference(identifiers=p.identifiers[:1]) for p in papers[:1500:11]]
    fresh = cl.Catalog.from_records(records)
    assert cl.Resolver(fresh).resolve_many(refs) == cl.Resolver(papers).resolve_many(refs)


def test_the_fuzzy_route_builds_only_the_records_it_compares() -> None:
    # Five records with look-alike titles: the reference's year rules four out on the catalog's
    # year column, so only the record of its year is built (and compared); the others stay
    # rows. Building them anyway would not change the decision, only its cost: at 200k records
    # building every title hit was a fifth of a first pass's time.
    titles = [
        "Graph kernels for chemical informatics",
        "Graph kernel for chemical informatics",
        "Graph kernels in chemical informatics",
        "Graph kernels for chemical informatic",
        "Graph kernels and chemical informatics",
    ]
    records = [
        {"title": t, "authors": ["Liva Ralaivola"], "year": y}
        for t, y in zip(titles, (2005, 1991, 1993, 1995, 1997), strict=True)
    ]
    catalog = cl.Catalog.from_records(records)
    hits = catalog.scored_candidates(normalize_title(titles[0]), limit=10, ordered=False)
    assert len(hits) == 5  # every record is a title hit
    ref = cl.Reference(title=titles[0], authors=["L. Ralaivola"], year=2005)
    res = cl.Resolver(catalog).resolve(ref)
    assert res.state is cl.ResolutionState.VERIFIED_FUZZY
    assert res.target == cl.Paper(**records[0])  # type: ignore[arg-type]
    assert [pid for pid in range(len(catalog)) if catalog._papers[pid] is not None] == [0]
    # ... and the same decision as with the papers built up front
    papers = [cl.Paper(**r) for r in records]  # type: ignore[arg-type]
    assert cl.Resolver(papers).resolve(ref) == res


def test_a_paper_built_from_its_row_is_the_papers_equal_in_every_field() -> None:
    # _Rows.paper sets the slots directly (no Paper(...) call): every field must still be set,
    # equal, hashed and pickled as Paper(**record) is, whichever fields the row holds.
    record: dict[str, object] = {
        "title": "  Deep   residual learning ",
        "authors": ["Kaiming He", "X. Zhang"],
        "year": 2016,
        "venue": "CVPR",
        "volume": " 12 ",
        "issue": "3",
        "pages": "770 – 778",
        "identifiers": ["10.1109/CVPR.2016.90", "arXiv:1512.03385"],
    }
    assert set(record) == set(_rows._ROW_FIELDS)
    built = cl.Catalog.from_records([record, {"title": ""}])
    whole = cl.Paper(**record)  # type: ignore[arg-type]
    for got, want in ((built[0], whole), (built[1], cl.Paper(title=""))):
        for field in attrs.fields(cl.Paper):
            assert getattr(got, field.name) == getattr(want, field.name), field.name
        assert got == want
        assert hash(got) == hash(want)
        assert pickle.loads(pickle.dumps(got)) == want


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"block_tokens": 0}, "block_tokens"),
        ({"block_tokens": -2}, "block_tokens"),
        ({"block_tokens": 2.0}, "block_tokens"),
        ({"block_tokens": True}, "block_tokens"),
        ({"max_df": -1}, "max_df"),
        ({"max_df": "10"}, "max_df"),
    ],
)
def test_blocking_settings_are_checked_when_the_catalog_is_made(
    kwargs: dict[str, object], match: str
) -> None:
    # Before, Catalog(block_tokens=0) was made and failed at its first query (an IndexError).
    papers = [cl.Paper(title="Attention is all you need")]
    with pytest.raises(InvalidArgument, match=match):
        cl.Catalog(papers, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match=match):
        cl.Catalog.from_records([{"title": "Attention is all you need"}], **kwargs)  # type: ignore[arg-type]


def test_smallest_blocking_settings_work() -> None:
    papers = [cl.Paper(title="Attention is all you need"), cl.Paper(title="Deep residual learning")]
    one = cl.Catalog(papers, block_tokens=1, max_df=0)
    assert one.blocking_ids("attention is all you need") == []  # every token over max_df 0
    assert cl.Catalog(papers, block_tokens=1).blocking_ids("attention is all you need") == [0]
    # NumPy integers are whole numbers too (and are kept as ints)
    numpy = pytest.importorskip("numpy")
    cat = cl.Catalog(papers, block_tokens=numpy.int64(2), max_df=numpy.int32(5))
    assert cat.blocking_ids("attention is all you need") == [0]
    assert type(cat._block_tokens) is int
    assert type(cat._max_df) is int
