"""The in-memory catalog: identifier aliasing, blocking, streaming, pickling."""

from __future__ import annotations

import pickle
from collections.abc import Iterator

import citeledger as cl
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
    related=[cl.Relation(kind="has_preprint", identifier="arXiv:1512.03385")],
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
