"""The in-memory catalog: identifier aliasing, blocking, streaming, pickling."""

from __future__ import annotations

import pickle
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citeledger as cl
from citeledger.identifiers import version_key
from citeledger.model import Relation
from citeledger.resolve import catalog as catalog_module
from citeledger.resolve.normalize import normalize_title

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
