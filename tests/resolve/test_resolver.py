"""The resolver: the six states, evidence, providers, batches and the properties of issue 3."""

from __future__ import annotations

import gc
import json
import multiprocessing
import os
import pickle
import time
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import citeledger as cl
from citeledger.errors import WorkerLost
from citeledger.identifiers import find_identifiers, same_work
from citeledger.model import Agreement, Evidence, Method, Relation, ResolutionState, replace
from citeledger.resolve import CandidateProvider
from citeledger.resolve.normalize import normalize_title, strip_accents
from citeledger.resolve.scoring import ReferenceFeatures, compare, title_similarity
from tests import _data
from tests.conftest import SOURCES, requires_shared
from tests.resolve.conftest import CLONING, cite, resolved, review_column_issues

if TYPE_CHECKING:
    from collections.abc import Callable

# --------------------------------------------------------------------------- strategies

# Words with and without diacritics; titles are drawn from disjoint random word sets.
_WORDS = (  # noqa: SIM905 - a word list reads better as text
    "neural quantum protein graph memory café naïve élan stochastic retrieval genome "
    "lattice entropy photon kernel fusion spectral bayesian cortex enzyme galaxy carbon "
    "ocean migration müller señal façade coöperation zürich rôle déjà garçon piñata "
    "tensor manifold cohort glacier polymer vaccine plasma tokenizer allocation latency "
    "inference sampling topology hormone sediment isotope cellular rhythm dialect syntax"
).split()
_FAMILIES = (  # noqa: SIM905
    "García Müller Smith Nguyen Øster Kowalski Dubois Rossi Ivanova O'Neil Schäfer Łukasz "
    "Tanaka Haddad Novák Johansson Pereira Brontë Yılmaz Fernández"
).split()
_GIVEN = ["Anna", "José", "Li", "Chloé", "Jörg", "Mary", "Søren", "Ana", "Björn", "Kai", "Zoë"]


@st.composite
def _authors(draw: st.DrawFn) -> list[cl.Author]:
    n = draw(st.integers(1, 4))
    fams = draw(st.lists(st.sampled_from(_FAMILIES), min_size=n, max_size=n, unique=True))
    return [cl.Author(family=f, given=draw(st.sampled_from(_GIVEN))) for f in fams]


@st.composite
def _papers(draw: st.DrawFn, *, ids: bool | None = None) -> cl.Paper:
    words = draw(st.lists(st.sampled_from(_WORDS), min_size=5, max_size=9, unique=True))
    with_ids = draw(st.booleans()) if ids is None else ids
    suffix = draw(st.integers(1, 10**9))
    return cl.Paper(
        title=" ".join(words).capitalize(),
        authors=draw(_authors()),
        year=draw(st.integers(1950, 2024)),
        venue=draw(st.sampled_from(["Nature", "Physical Review Letters", "VLDB", None])),
        volume=draw(st.one_of(st.none(), st.integers(1, 300).map(str))),
        pages=draw(st.one_of(st.none(), st.integers(1, 9000).map(str))),
        identifiers=[f"10.5555/t.{suffix}"] if with_ids else [],
    )


def _distinct(papers: list[cl.Paper]) -> bool:
    """No two papers share an identifier or have look-alike titles."""
    keys = [k for p in papers for k in p.work_keys]
    if len(keys) != len(set(keys)):
        return False
    titles = [normalize_title(p.title) for p in papers]
    return all(title_similarity(a, b) < 75 for i, a in enumerate(titles) for b in titles[i + 1 :])


@st.composite
def _catalogs(draw: st.DrawFn, *, min_size: int = 1, max_size: int = 6) -> list[cl.Paper]:
    papers = draw(st.lists(_papers(), min_size=min_size, max_size=max_size))
    assume(_distinct(papers))
    return papers


def _case(text: str, mode: int) -> str:
    return (text, text.upper(), text.lower(), text.title(), text.swapcase())[mode]


@st.composite
def _noisy_text(draw: st.DrawFn, text: str) -> str:
    """Case, Unicode normal form, diacritics, whitespace and punctuation noise."""
    text = _case(text, draw(st.integers(0, 4)))
    if draw(st.booleans()):
        text = strip_accents(text)
    text = unicodedata.normalize(draw(st.sampled_from(["NFC", "NFD", "NFKC"])), text)
    seps = st.sampled_from([" ", "  ", " - ", ": ", ", ", " . ", "\n", "\t"])
    words = text.split(" ")
    out = words[0]
    for w in words[1:]:
        out += draw(seps) + w
    return (
        draw(st.sampled_from(["", " ", "\u00a0"]))
        + out
        + draw(st.sampled_from(["", ".", " ?", "!"]))
    )


@st.composite
def _noisy_author(draw: st.DrawFn, author: cl.Author) -> cl.Author:
    def noise(s: str | None) -> str | None:
        if s is None:
            return None
        s = _case(s, draw(st.integers(0, 2)))
        if draw(st.booleans()):
            s = strip_accents(s)
        return unicodedata.normalize(draw(st.sampled_from(["NFC", "NFD"])), s)

    return cl.Author(family=noise(author.family), given=noise(author.given))


def _ref(paper: cl.Paper, *, ids: bool = True) -> cl.Reference:
    ref = cl.Reference.from_paper(paper)
    return ref if ids else replace(ref, identifiers=())


# --------------------------------------------------------------------------- fixtures

ZERO = cl.Paper(
    title="ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme Scale Deep Learning",
    authors=["Samyam Rajbhandari", "Olatunji Ruwase", "Jeff Rasley", "Shaden Smith", "Yuxiong He"],
    year=2021,
    venue="SC21",
    identifiers=["arXiv:2104.07857v1"],
)
KNUTH = cl.Paper(
    title="The art of computer programming, volume 1: fundamental algorithms",
    authors=["Donald E. Knuth"],
    year=1968,
)
EDITORIAL_2019 = cl.Paper(title="Editorial", authors=["Jane Doe"], year=2019, venue="Nature")
EDITORIAL_2020 = cl.Paper(title="Editorial", authors=["Jane Doe"], year=2020, venue="Nature")
CATALOG = [ZERO, CLONING, KNUTH, EDITORIAL_2019, EDITORIAL_2020]


@pytest.fixture(scope="module")
def resolver() -> cl.Resolver:
    return cl.Resolver(CATALOG)


# --------------------------------------------------------------------------- the six states


def test_verified_exact_by_arxiv_version(resolver: cl.Resolver) -> None:
    res = resolver.resolve(cl.Reference(title="ZeRO-Infinity", identifiers=["arXiv:2104.07857v3"]))
    assert res.state is ResolutionState.VERIFIED_EXACT
    assert res.method is Method.ARXIV_ID
    assert res.target is ZERO
    ev = res.evidence_for("arxiv")
    assert ev is not None
    assert ev.agreement is Agreement.AGREE
    assert ev.right == "arxiv:2104.07857v1"


def test_verified_exact_by_datacite_doi_alias(resolver: cl.Resolver) -> None:
    res = resolver.resolve(cl.Reference(identifiers=["10.48550/arXiv.2104.07857"]))
    assert res.state is ResolutionState.VERIFIED_EXACT
    assert res.method is Method.DOI
    assert res.target is ZERO


def test_verified_exact_via_related_version() -> None:
    published = cl.Paper(
        title="A published paper on things",
        year=2022,
        identifiers=["10.1000/journal.1"],
        related=[Relation(kind="has_preprint", identifier="arXiv:2101.00001")],
    )
    res = cl.Resolver([published]).resolve(
        cl.Reference(title="A published paper on things", identifiers=["arXiv:2101.00001v2"])
    )
    assert res.state is ResolutionState.VERIFIED_EXACT
    assert res.target is published
    assert "related version" in res.reason


def test_metadata_mismatch_names_fields() -> None:
    ref = cl.Reference(
        title="A survey of protein folding with recurrent networks",
        year=1990,
        identifiers=["10.1103/PhysRevA.76.052305"],
    )
    res = resolved(CATALOG, ref, ResolutionState.METADATA_MISMATCH, "title", "year")
    assert res.target is CLONING
    assert res.method is Method.DOI
    title = res.evidence_for("title")
    assert title is not None
    assert title.agreement is Agreement.DISAGREE


def test_metadata_mismatch_names_the_fuzzy_match(resolver: cl.Resolver) -> None:
    ref = cl.Reference(
        title=KNUTH.title,
        authors=["Knuth DE"],
        year=1968,
        identifiers=["10.1103/PhysRevA.76.052305"],
    )
    res = resolver.resolve(ref)
    assert res.state is ResolutionState.METADATA_MISMATCH
    assert res.target is CLONING
    assert res.alternatives == (KNUTH,)


def test_verified_fuzzy(resolver: cl.Resolver) -> None:
    ref = cl.Reference(
        title="Zero-infinity: breaking the GPU memory-wall for extreme-scale deep learning",
        authors="Rajbhandari S, Ruwase O, Rasley J",
        year="2021",
    )
    res = resolver.resolve(ref)
    assert res.state is ResolutionState.VERIFIED_FUZZY
    assert res.method is Method.FUZZY_TITLE
    assert res.target is ZERO
    assert {e.field for e in res.evidence} >= {"title", "authors", "year"}
    assert res.evidence_for("authors").agreement is Agreement.AGREE  # type: ignore[union-attr]


def test_valid_identifier_not_in_catalog_falls_through(resolver: cl.Resolver) -> None:
    ref = cl.Reference(
        title=KNUTH.title, authors="D. Knuth", year=1968, identifiers=["10.9999/nope"]
    )
    res = resolver.resolve(ref)
    assert res.state is ResolutionState.VERIFIED_FUZZY
    assert res.target is KNUTH
    ev = res.evidence_for("doi")
    assert ev is not None
    assert ev.agreement is Agreement.MISSING
    assert "not in catalog" in (ev.note or "")
    assert "not in catalog" in res.reason


def test_unresolved_no_candidate(resolver: cl.Resolver) -> None:
    res = resolver.resolve(
        cl.Reference(title="Glaciers and sediment isotopes of the late Pleistocene")
    )
    assert res.state is ResolutionState.UNRESOLVED
    assert res.target is None
    assert "no candidate" in res.reason


def test_unresolved_below_threshold(resolver: cl.Resolver) -> None:
    res = resolver.resolve(
        cl.Reference(
            title="Breaking the CPU cache wall for small scale shallow learning", year=2021
        )
    )
    assert res.state is ResolutionState.UNRESOLVED
    assert "below" in res.reason
    assert res.alternatives[0] is ZERO


def test_unresolved_ambiguous_names_both() -> None:
    a = cl.Paper(title="Deep residual learning for image recognition", authors=["K. He"], year=2016)
    b = cl.Paper(title="Deep residual learning for image recognition", authors=["K. He"], year=2015)
    res = cl.Resolver([a, b]).resolve(
        cl.Reference(title="Deep residual learning for image recognition", authors=["He K"])
    )
    assert res.state is ResolutionState.UNRESOLVED
    assert "ambiguous" in res.reason
    assert set(res.alternatives) == {a, b}


def test_generic_title_needs_exact_year(resolver: cl.Resolver) -> None:
    ok = resolver.resolve(
        cl.Reference(title="Editorial", authors=["Doe J"], year=2019, venue="Nature")
    )
    assert ok.state is ResolutionState.VERIFIED_FUZZY
    assert ok.target is EDITORIAL_2019
    no_year = resolver.resolve(cl.Reference(title="Editorial", authors=["Doe J"], venue="Nature"))
    assert no_year.state is ResolutionState.UNRESOLVED
    resolved(
        [EDITORIAL_2019], cl.Reference(title="Editorial"), ResolutionState.UNRESOLVED, "generic"
    )


def test_disagreeing_authors_block_fuzzy(resolver: cl.Resolver) -> None:
    res = resolver.resolve(
        cl.Reference(title=CLONING.title, authors=["Zhang W", "Li Q"], year=2007)
    )
    assert res.state is ResolutionState.UNRESOLVED
    assert "authors" in res.reason


def test_parse_uncertain_without_title_or_identifier(resolver: cl.Resolver) -> None:
    res = resolver.resolve(cl.Reference(authors="Luga", volume="151", first_page="1542", year=2012))
    assert res.state is ResolutionState.PARSE_UNCERTAIN
    assert res.method is None
    assert "no identifier and no title" in res.reason


def test_parse_uncertain_low_confidence(resolver: cl.Resolver) -> None:
    ref = cl.Reference(title=KNUTH.title, authors="Knuth", year=1968, parse_confidence=0.1, raw="x")
    res = resolver.resolve(ref)
    assert res.state is ResolutionState.PARSE_UNCERTAIN
    assert "confidence" in res.reason
    assert (
        resolver.resolve(replace(ref, parse_confidence=0.9)).state is ResolutionState.VERIFIED_FUZZY
    )


def _malformed_ref(**kw: object) -> cl.Reference:
    found = find_identifiers("doi: 10.1007/BF0229355")
    assert found.malformed, "fixture needs a malformed fragment"
    return cl.Reference(malformed=found.malformed, **kw)  # type: ignore[arg-type]


def test_malformed_identifier(resolver: cl.Resolver) -> None:
    res = resolver.resolve(_malformed_ref())
    assert res.state is ResolutionState.MALFORMED_IDENTIFIER
    assert "10.1007/BF0229355" in res.reason
    ev = res.evidence_for("doi")
    assert ev is not None
    assert ev.agreement is Agreement.DISAGREE
    assert ev.note is not None
    assert ev.note.startswith("malformed doi")


def test_malformed_but_fuzzy_verifies(resolver: cl.Resolver) -> None:
    res = resolver.resolve(_malformed_ref(title=KNUTH.title, authors="Knuth DE", year=1968))
    assert res.state is ResolutionState.VERIFIED_FUZZY
    assert res.target is KNUTH
    ev = res.evidence_for("doi")
    assert ev is not None
    assert "malformed" in (ev.note or "")


def test_malformed_and_fuzzy_fails(resolver: cl.Resolver) -> None:
    res = resolver.resolve(
        _malformed_ref(title="Something else entirely about oceans and glaciers")
    )
    assert res.state is ResolutionState.MALFORMED_IDENTIFIER


def test_valid_id_absent_and_no_title_is_unresolved(resolver: cl.Resolver) -> None:
    res = resolver.resolve(cl.Reference(identifiers=["10.9999/absent"]))
    assert res.state is ResolutionState.UNRESOLVED
    assert "not in catalog" in res.reason


def test_resolve_accepts_paper_and_verify(resolver: cl.Resolver) -> None:
    assert resolver.resolve(CLONING).state is ResolutionState.VERIFIED_EXACT
    other = cl.Paper(
        title="Local Cloning of Entangled Qubits", authors=["S. K. Choudhary"], year=2007
    )
    assert cl.verify(other, CLONING).state is ResolutionState.VERIFIED_FUZZY
    assert cl.verify(other, KNUTH).state is ResolutionState.UNRESOLVED


# --------------------------------------------------------------------------- config, providers


def test_config_validation_and_thresholds() -> None:
    with pytest.raises(ValueError, match="0-100"):
        cl.ResolverConfig(min_title_similarity=120)
    with pytest.raises(ValueError, match=">= 0"):
        cl.ResolverConfig(min_corroborations=-1)
    fields = {f.name for f in cl.ResolverConfig.__attrs_attrs__}
    assert set(cl.ResolverConfig.THRESHOLDS) <= fields
    assert all(name.startswith("min_") for name in cl.ResolverConfig.THRESHOLDS)


def test_stricter_config_rejects() -> None:
    ref = cl.Reference(title="Local cloning of entangled qubit", authors=["Choudhary"], year=2007)
    assert cl.Resolver(CATALOG).resolve(ref).verified
    strict = cl.Resolver(CATALOG, config=cl.ResolverConfig(min_title_similarity=99.5))
    assert not strict.resolve(ref).verified


class ListProvider:
    """A toy provider standing in for a source's lookup/search."""

    def __init__(self, papers: list[cl.Paper]) -> None:
        self.papers = papers
        self.calls = 0

    def by_identifier(self, ident: cl.Identifier) -> list[cl.Paper]:
        return [p for p in self.papers if any(same_work(i, ident) for i in p.identifiers)]

    def candidates(self, ref: cl.Reference, *, limit: int) -> list[cl.Paper]:
        self.calls += 1
        return self.papers[:limit]


def test_extra_provider() -> None:
    provider = ListProvider([KNUTH, CLONING])
    assert isinstance(provider, CandidateProvider)
    resolver = cl.Resolver(providers=[provider])
    assert resolver.resolve(cl.Reference(identifiers=[CLONING.identifiers[0]])).target is CLONING
    res = resolver.resolve(cl.Reference(title=KNUTH.title, authors="Knuth", year=1968))
    assert res.state is ResolutionState.VERIFIED_FUZZY
    assert res.target is KNUTH
    assert provider.calls == 1
    # The same paper from the catalog and a provider is one candidate, not two look-alikes.
    both = cl.Resolver([KNUTH], providers=[provider])
    assert both.resolve(cl.Reference(title=KNUTH.title, authors="Knuth", year=1968)).verified


def test_resolver_pickles() -> None:
    resolver = cl.Resolver(CATALOG)
    clone = pickle.loads(pickle.dumps(resolver))
    ref = cl.Reference(title=KNUTH.title, authors="Knuth", year=1968)
    assert clone.resolve(ref) == resolver.resolve(ref)


def test_resolve_many_progress_and_workers() -> None:
    resolver = cl.Resolver(CATALOG)
    refs = [_ref(p, ids=i % 2 == 0) for i, p in enumerate(CATALOG * 3)]
    seen: list[tuple[int, int]] = []
    one = resolver.resolve_many(refs, progress=lambda d, t: seen.append((d, t)))
    assert one == [resolver.resolve(r) for r in refs]
    assert seen[-1] == (len(refs), len(refs))
    assert resolver.resolve_many(refs, workers=2) == one
    assert resolver.resolve_many(refs, progress=True) == one
    assert resolver.resolve_many([]) == []


_FORK = "fork" in multiprocessing.get_all_start_methods()


def _before_resolve(
    monkeypatch: pytest.MonkeyPatch,
    *,
    in_child: Callable[[], object] = lambda: None,
    in_parent: Callable[[], object] = lambda: None,
) -> None:
    """Patch the resolver's step for one reference to call ``in_child`` first in a worker,
    ``in_parent`` here (``_resolve``: ``resolve`` and the batch engine both go through it)."""
    parent = os.getpid()
    original = cl.Resolver._resolve

    def patched(self: cl.Resolver, ref: Any, *rest: Any) -> cl.Resolution:
        (in_parent if os.getpid() == parent else in_child)()
        return original(self, ref, *rest)

    monkeypatch.setattr(cl.Resolver, "_resolve", patched)


@pytest.mark.skipif(not _FORK, reason="the children must inherit the patched resolve (fork)")
@pytest.mark.parametrize("workers", [2, 3])
def test_resolve_many_shares_the_work_between_this_process_and_its_children(
    workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    parent = os.getpid()
    resolver = cl.Resolver(CATALOG)
    refs = [_ref(p, ids=i % 2 == 0) for i, p in enumerate(CATALOG * 60)]
    expected = [resolver.resolve(r) for r in refs]
    original = cl.Resolver._resolve  # the step for one reference (resolve's and the engine's)

    def tagged(self: cl.Resolver, ref: Any, *rest: Any) -> cl.Resolution:
        res = original(self, ref, *rest)
        return attrs.evolve(
            res, reason=f"{res.reason} @{'parent' if os.getpid() == parent else 'child'}"
        )

    monkeypatch.setattr(cl.Resolver, "_resolve", tagged)
    seen: list[int] = []
    out = resolver.resolve_many(refs, workers=workers, progress=lambda d, _t: seen.append(d))
    where = {r.reason.rsplit("@", 1)[1] for r in out}
    assert where == {"parent", "child"}
    assert [attrs.evolve(r, reason=r.reason.rsplit(" @", 1)[0]) for r in out] == expected
    assert seen == sorted(seen)
    assert seen[-1] == len(refs)


def test_resolve_many_with_spawned_children_equals_one_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Where fork is unavailable (Windows, macOS default) the children get the resolver pickled.
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    resolver = cl.Resolver(CATALOG)
    refs = [_ref(p, ids=i % 2 == 0) for i, p in enumerate(CATALOG * 60)]
    expected = [resolver.resolve(r) for r in refs]
    original = cl.Resolver._resolve  # the step for one reference (resolve's and the engine's)

    def slow(self: cl.Resolver, ref: Any, *rest: Any) -> cl.Resolution:
        # Only in this process (a spawned child imports citeledger afresh): the parent is slow,
        # so the child, once started, resolves most batches.
        time.sleep(0.02)
        res = original(self, ref, *rest)
        return attrs.evolve(res, reason=res.reason + " @parent")

    monkeypatch.setattr(cl.Resolver, "_resolve", slow)
    out = resolver.resolve_many(refs, workers=2)
    by_child = [r for r in out if not r.reason.endswith(" @parent")]
    assert by_child
    assert [attrs.evolve(r, reason=r.reason.removesuffix(" @parent")) for r in out] == expected


@pytest.mark.skipif(not _FORK, reason="the children must inherit the patched resolve (fork)")
def test_resolve_many_raises_a_childs_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail() -> None:
        raise cl.ParseError("broken in the child")

    _before_resolve(monkeypatch, in_child=fail)
    refs = [_ref(p, ids=False) for p in CATALOG * 60]
    with pytest.raises(cl.ParseError, match="broken in the child"):
        cl.Resolver(CATALOG).resolve_many(refs, workers=2)


@pytest.mark.skipif(not _FORK, reason="the children must inherit the patched resolve (fork)")
@pytest.mark.parametrize("code", [3, 0])
def test_resolve_many_reports_a_dead_child_instead_of_waiting(
    code: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    _before_resolve(
        monkeypatch,
        in_child=lambda: os._exit(code),  # killed, crashed or exited: no exception, no message
        in_parent=lambda: time.sleep(0.001),  # the parent is slower, so the child claims a batch
    )
    refs = [_ref(p, ids=False) for p in CATALOG * 60]
    started = time.monotonic()
    with pytest.raises(WorkerLost, match="died" if code else "without reporting") as info:
        cl.Resolver(CATALOG).resolve_many(refs, workers=2)
    assert info.value.exitcode == code
    assert time.monotonic() - started < 30
    assert pickle.loads(pickle.dumps(info.value)).exitcode == code
    assert gc.get_freeze_count() == 0  # the collector is unfrozen on the way out


@pytest.mark.skipif(not _FORK, reason="the children must inherit the patched functions (fork)")
def test_resolve_many_survives_a_child_killed_while_holding_the_batch_counter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from citeledger.resolve import _batch as module  # noqa: PLC0415

    parent = os.getpid()
    original_claim = module._claim

    def claim(counter: Any, n: int, check: Any = None) -> int | None:
        if os.getpid() != parent:
            counter.get_lock().acquire()
            os._exit(5)  # dies holding the lock: nobody will ever release it
        return original_claim(counter, n, check)

    monkeypatch.setattr(module, "_claim", claim)
    # Slow, so the child reaches the counter while the parent works.
    _before_resolve(
        monkeypatch, in_child=lambda: time.sleep(0.002), in_parent=lambda: time.sleep(0.002)
    )
    refs = [_ref(p, ids=False) for p in CATALOG * 60]
    started = time.monotonic()
    with pytest.raises(WorkerLost) as info:
        cl.Resolver(CATALOG).resolve_many(refs, workers=2)
    assert info.value.exitcode == 5
    assert time.monotonic() - started < 30


def _resolve_in_daemon(queue: Any) -> None:
    resolver = cl.Resolver(CATALOG)
    refs = [_ref(p, ids=False) for p in CATALOG * 3]
    try:
        out = resolver.resolve_many(refs, workers=2)
        queue.put(out == [resolver.resolve(r) for r in refs])
    except BaseException as exc:  # reported to the test, whatever it is
        queue.put(repr(exc))


def test_resolve_many_inside_a_daemonic_process_runs_in_it() -> None:
    # Pool and Dask workers are daemonic and may not start children of their own.
    ctx: Any = multiprocessing.get_context("fork" if _FORK else "spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_resolve_in_daemon, args=(queue,), daemon=True)
    proc.start()
    result = queue.get(timeout=120)
    proc.join(timeout=30)
    assert result is True


def test_resolve_many_one_worker_freezes_the_collector_only_during_the_batch() -> None:
    resolver = cl.Resolver(CATALOG)
    refs = [_ref(p, ids=i % 2 == 0) for i, p in enumerate(CATALOG * 40)]
    assert len(refs) >= 100
    frozen_during: list[int] = []
    gc.unfreeze()
    out = resolver.resolve_many(
        refs, progress=lambda d, t: frozen_during.append(gc.get_freeze_count())
    )
    assert out == [resolver.resolve(r) for r in refs]
    # The catalog was out of the collector's walks while the batch ran, and is back afterwards.
    assert frozen_during
    assert all(n > 0 for n in frozen_during)
    assert gc.get_freeze_count() == 0
    # A caller's own freeze is left as it was.
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        assert resolver.resolve_many(refs) == out
        # Still frozen (an unfreeze would empty the permanent generation); the count itself
        # may drop by a few when frozen objects are freed by reference counting meanwhile.
        assert 0 < gc.get_freeze_count() <= before
    finally:
        gc.unfreeze()


def _every_state() -> list[cl.Reference | str]:
    """References that take every route and end in every state, over ``CATALOG``."""
    return [
        *(_ref(p) for p in CATALOG),  # identifier route
        *(_ref(p, ids=False) for p in CATALOG),  # fuzzy route
        # an identifier whose record disagrees
        cl.Reference(
            title="Quantum teleportation revisited", year=1993, identifiers=CLONING.identifiers
        ),
        cl.Reference(title="A title nobody ever wrote about anything", authors="Nobody", year=2001),
        "Smith, J. (2020).",  # nothing to match on
        cl.Reference(title=CLONING.title, year=2007, identifiers=["10.1103/physreva.76.05230x"]),
        cl.Reference(venue="Phys. Rev. A", volume="76", first_page="052305", year=2007),
        "J. Smith. An unknown work on nothing at all. 2001. arXiv:2401.999999",  # malformed
    ]


def test_resolving_makes_no_reference_cycles() -> None:
    # resolve_many pauses the collector on this promise: reference counting frees everything.
    resolver = cl.Resolver(CATALOG)
    refs = _every_state()
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        out = [resolver.resolve(r) for r in refs]
        shown = [(r.reason, r.evidence, r.alternatives) for r in out]  # deferred parts too
        assert gc.collect() == 0
        assert gc.garbage == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
    assert len(shown) == len(refs)
    states = {r.state for r in out}
    assert states == set(ResolutionState)


def test_resolve_many_pauses_the_collector_only_during_the_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from citeledger.resolve import _gc as module  # noqa: PLC0415

    resolver = cl.Resolver(CATALOG)
    refs = _every_state() * 3
    seen: list[bool] = []
    assert gc.isenabled()
    out = resolver.resolve_many(refs, progress=lambda d, t: seen.append(gc.isenabled()))
    assert out == [resolver.resolve(r) for r in refs]
    assert seen
    assert not any(seen)
    assert gc.isenabled()
    # The youngest generation is still collected every _COLLECT_EVERY items, so cycles a
    # plug-in provider makes are freed during the batch.
    monkeypatch.setattr(module, "_COLLECT_EVERY", 4)
    young: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 0:
            young.append(info["collected"])

    gc.callbacks.append(count)
    try:
        resolver.resolve_many(refs)
    finally:
        gc.callbacks.remove(count)
    assert len(young) >= len(refs) // 4
    # A caller's disabled collector stays disabled, and is not collected behind its back.
    gc.disable()
    young.clear()
    gc.callbacks.append(count)
    try:
        assert resolver.resolve_many(refs) == out
        assert not gc.isenabled()
        assert young == []
    finally:
        gc.callbacks.remove(count)
        gc.enable()


def test_a_long_batch_of_the_library_own_code_is_not_collected_and_keeps_results_old(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A batch long enough to freeze the catalog, with no plug-in provider, makes no cycles:
    # nothing is collected during it, and what it keeps joins the oldest generation unwalked.
    from citeledger.resolve import _gc as module  # noqa: PLC0415

    monkeypatch.setattr(module, "_COLLECT_EVERY", 4)
    refs = _every_state() * 10
    assert len(refs) >= 100  # resolve_many's _FREEZE_MIN
    young: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 0:
            young.append(info["collected"])

    resolver = cl.Resolver(CATALOG)
    gc.collect()
    gc.callbacks.append(count)
    try:
        out = resolver.resolve_many(refs)
        assert young == []
        assert gc.isenabled()
        assert gc.get_freeze_count() == 0
        oldest = {id(o) for o in gc.get_objects(generation=2)}
        assert all(id(r) in oldest for r in out)
        # With a plug-in provider (which may make cycles), young collections go on.
        plugged = cl.Resolver(CATALOG, providers=[ListProvider([KNUTH])])
        assert len(plugged.resolve_many(refs)) == len(refs)
        assert len(young) >= len(refs) // 4
    finally:
        gc.callbacks.remove(count)
    assert out == [resolver.resolve(r) for r in refs]


def test_resolve_many_with_workers_pauses_the_collector_before_building_anything(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With children, the parent builds an index of the catalog's papers, a queue and the
    # processes; with the collector still running, those allocations could set off a full
    # collection over the whole catalog first (a second at 200k papers). So the pause and the
    # freeze come before them, and the children are forked from a frozen heap.
    from citeledger.resolve import _batch as module  # noqa: PLC0415

    resolver = cl.Resolver(CATALOG)
    refs = _every_state() * 10
    seen: list[tuple[bool, int]] = []
    real = module._paper_index

    def index(res: cl.Resolver) -> dict[int, int]:
        seen.append((gc.isenabled(), gc.get_freeze_count()))
        return real(res)

    monkeypatch.setattr(module, "_paper_index", index)
    assert gc.isenabled()
    out = resolver.resolve_many(refs, workers=2)
    assert out == [resolver.resolve(r) for r in refs]
    assert len(seen) == 1
    enabled, frozen = seen[0]
    assert not enabled
    assert frozen > 0
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


class _Sent:
    """A results queue for a ``resolve_many`` child run in this process (what it was sent)."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, object]] = []

    def put(self, message: tuple[int, object]) -> None:
        self.sent.append(message)

    def close(self) -> None:
        pass

    def join_thread(self) -> None:
        pass


@pytest.mark.parametrize("acyclic", [True, False])
def test_a_child_collects_only_when_its_batch_may_make_cycles(
    monkeypatch: pytest.MonkeyPatch, acyclic: bool
) -> None:
    # A child forked for resolve_many resolves as the parent does: with no plug-in provider no
    # cycles are made, and it collects nothing; otherwise its youngest generation is collected
    # every _COLLECT_EVERY items. (The child's loop run in this process, with the collector.)
    import multiprocessing  # noqa: PLC0415

    from citeledger.resolve import _batch  # noqa: PLC0415
    from citeledger.resolve import _gc as module  # noqa: PLC0415

    monkeypatch.setattr(module, "_COLLECT_EVERY", 4)
    resolver = cl.Resolver(CATALOG)
    refs: list[cl.Reference | cl.Paper | str] = list(_every_state() * 3)
    ranges = _batch._guided_ranges(len(refs), 2, 7)
    queue = _Sent()
    young: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 0:
            young.append(info["collected"])

    gc.callbacks.append(count)
    gc.disable()  # as a child is forked: from the parent's paused collector
    try:
        _batch._child_main(
            resolver=resolver,
            items=refs,
            index=None,
            ranges=ranges,
            counter=multiprocessing.get_context().Value("q", 0),
            queue=queue,
            acyclic=acyclic,
        )
    finally:
        gc.callbacks.remove(count)
        paused = not gc.isenabled()
        gc.enable()
    # A child of an acyclic batch leaves its collector paused: the process ends with the batch.
    assert paused is acyclic
    assert [k for k, _ in queue.sent] == [*range(len(ranges)), _batch._CHILD_DONE]
    assert sum(len(cast("list[object]", wire)) for _, wire in queue.sent[:-1]) == len(refs)
    if acyclic:
        assert young == []
    else:
        assert len(young) >= len(refs) // 4


# --------------------------------------------------------------------------- properties


@given(st.data())
def test_reference_from_paper_verifies_to_it(data: st.DataObject) -> None:
    papers = data.draw(_catalogs())
    i = data.draw(st.integers(0, len(papers) - 1))
    resolver = cl.Resolver(papers)
    exact = resolver.resolve(_ref(papers[i]))
    assert exact.verified
    assert exact.target is papers[i]
    if papers[i].identifiers:
        assert exact.state is ResolutionState.VERIFIED_EXACT
    fuzzy = resolver.resolve(_ref(papers[i], ids=False))
    assert fuzzy.state is ResolutionState.VERIFIED_FUZZY
    assert fuzzy.target is papers[i]


@given(st.data())
def test_invariant_under_text_noise(data: st.DataObject) -> None:
    papers = data.draw(_catalogs())
    resolver = cl.Resolver(papers)
    paper = papers[data.draw(st.integers(0, len(papers) - 1))]
    # A reference whose title differs a little, so decisions near thresholds are exercised too.
    words = (paper.title or "").split(" ")
    words = words[: data.draw(st.integers(3, len(words)))]
    clean = cl.Reference(
        title=" ".join(words),
        authors=paper.authors[: data.draw(st.integers(0, len(paper.authors)))],
        year=paper.year,
        volume=paper.volume,
    )
    noisy = replace(
        clean,
        title=data.draw(_noisy_text(clean.title or "")),
        authors=[data.draw(_noisy_author(a)) for a in clean.authors],
    )
    a, b = resolver.resolve(clean), resolver.resolve(noisy)
    assert (a.state, a.target, a.score, a.alternatives) == (
        b.state,
        b.target,
        b.score,
        b.alternatives,
    )


@given(st.data())
def test_unrelated_papers_never_change_verified_exact(data: st.DataObject) -> None:
    papers = data.draw(_catalogs(max_size=4))
    more = data.draw(st.lists(_papers(), max_size=4))
    assume(_distinct(papers + more))
    base = cl.Resolver(papers)
    bigger = cl.Resolver(papers + more)
    for paper in papers:
        ref = _ref(paper)
        res = base.resolve(ref)
        if res.state is ResolutionState.VERIFIED_EXACT:
            assert bigger.resolve(ref) == res


@st.composite
def _lookalike_catalogs(draw: st.DrawFn) -> list[cl.Paper]:
    """Catalogs with look-alikes: copies differing in year, authors or one title word."""
    papers = draw(st.lists(_papers(), min_size=1, max_size=4))
    out = list(papers)
    for p in papers:
        kind = draw(st.integers(0, 3))
        if kind == 1:
            out.append(replace(p, year=(p.year or 2000) + draw(st.integers(-2, 2)), identifiers=()))
        elif kind == 2:
            out.append(replace(p, authors=p.authors[:1], identifiers=()))
        elif kind == 3:
            words = (p.title or "").split()
            words[-1] = draw(st.sampled_from(_WORDS))
            out.append(replace(p, title=" ".join(words), identifiers=()))
    return out


@st.composite
def _queries(draw: st.DrawFn, papers: list[cl.Paper]) -> list[cl.Reference]:
    refs = []
    for p in papers:
        words = (p.title or "").split()
        cut = draw(st.integers(max(1, len(words) - 2), len(words)))
        refs.append(
            cl.Reference(
                title=" ".join(words[:cut]),
                authors=p.authors[: draw(st.integers(0, 2))],
                year=draw(st.one_of(st.none(), st.just(p.year), st.integers(1950, 2024))),
                identifiers=p.identifiers if draw(st.booleans()) else (),
            )
        )
    return refs


@st.composite
def _lookalike_cases(draw: st.DrawFn) -> tuple[list[cl.Paper], list[cl.Reference]]:
    """A catalog with look-alikes and the queries against it."""
    papers = draw(_lookalike_catalogs())
    return papers, draw(_queries(papers))


@given(st.data())
def test_insertion_order_never_changes_a_result(data: st.DataObject) -> None:
    papers, refs = data.draw(_lookalike_cases())
    shuffled = data.draw(st.permutations(papers))
    a, b = cl.Resolver(papers), cl.Resolver(shuffled)
    for ref in refs:
        assert a.resolve(ref) == b.resolve(ref)


@given(st.data())
def test_raising_a_threshold_never_adds_a_verified_match(data: st.DataObject) -> None:
    papers, refs = data.draw(_lookalike_cases())
    name = data.draw(st.sampled_from(cl.ResolverConfig.THRESHOLDS))
    base_cfg = cl.ResolverConfig(
        min_title_similarity=data.draw(st.floats(60, 100)),
        min_margin=data.draw(st.floats(0, 20)),
        min_corroborations=data.draw(st.integers(0, 3)),
        min_exact_title_similarity=data.draw(st.floats(0, 90)),
    )
    current = getattr(base_cfg, name)
    raised: float
    if isinstance(current, int):
        raised = current + data.draw(st.integers(1, 3))
    else:
        top = 1.0 if name == "min_parse_confidence" else 100.0
        raised = data.draw(st.floats(current, top))
    strict_cfg = replace(base_cfg, **{name: raised})
    base, strict = cl.Resolver(papers, config=base_cfg), cl.Resolver(papers, config=strict_cfg)
    for ref in refs:
        loose, tight = base.resolve(ref), strict.resolve(ref)
        if tight.verified:
            assert loose.verified
            assert loose.target is tight.target


@settings(max_examples=5)
@given(st.data())
def test_resolve_many_equals_resolve(data: st.DataObject) -> None:
    papers, refs = data.draw(_lookalike_cases())
    resolver = cl.Resolver(papers)
    expected = [resolver.resolve(r) for r in refs]
    assert resolver.resolve_many(refs, workers=1) == expected
    assert resolver.resolve_many(refs, workers=2) == expected


# --------------------------------------------------------------------------- precision rules


def test_substituted_title_word_is_a_sibling_paper() -> None:
    # fuzzycat's DIFFERENT pair: one author's series of papers, title similarity 90.
    a = cl.Paper(
        title="Response to Thermal Exposure of Ball-Milled Aluminum-Borax Powder Blends",
        authors=["Yucel Birol"],
        year=2012,
        volume="44",
        pages="359-364",
    )
    b = replace(
        a,
        title="Response to Thermal Exposure of Ball-Milled Cu-Mg/B2O3 Powder Blends",
        year=2013,
        pages="969-973",
    )
    res = cl.verify(a, b)
    assert res.state is ResolutionState.UNRESOLVED
    assert "titles differ (words on both sides" in res.reason
    # A misspelt or abbreviated word is not a substitution.
    typo = replace(
        a, title="Respnse to thermal exposure of ball-milled aluminium-borax powder blends"
    )
    assert cl.verify(typo, a).state is ResolutionState.VERIFIED_FUZZY


def test_part_number_on_one_side_is_not_verified_by_title_alone() -> None:
    part2 = cl.Paper(title="Constructing optimal entanglement witnesses. II", year=2010)
    part1 = cl.Paper(title="Constructing optimal entanglement witnesses", year=2010)
    res = cl.verify(part2, part1)
    assert not res.verified
    assert "number on one side: '2'" in res.reason
    assert cl.verify(part2, part2).state is ResolutionState.VERIFIED_FUZZY


def test_series_title_needs_year_and_volume_or_page() -> None:
    issues = review_column_issues((2001, 30), (2002, 31), (2003, 32))
    resolver = cl.Resolver(issues)
    ref = cl.Reference(
        title="Book Review Column", authors="K Aberer", year=2002, venue="SIGMOD Record"
    )
    res = resolver.resolve(ref)
    assert res.state is ResolutionState.UNRESOLVED
    assert "a series needs the same year and an agreeing volume or first page" in res.reason
    res = resolver.resolve(replace(ref, volume="31"))
    assert res.state is ResolutionState.VERIFIED_FUZZY
    assert res.target is issues[1]
    # Two works with one title (a conference and a journal version) are not a series.
    pair = cl.Resolver([replace(issues[0], year=1995), issues[1]])
    assert pair.resolve(ref).target is issues[1]


#: A Research Square preprint (versioned DOIs) and an SSRN working paper (a preprint DOI).
_GODEFAY = cl.Paper(
    title="Beyond health system contact: measuring quality of childbirth care",
    authors=["Hagos Godefay"],
    year=2020,
    identifiers=["10.21203/rs.2.18406/v1"],
)
_RODANO = cl.Paper(
    title="Bankruptcy law and bank financing",
    authors=["Giacomo Rodano"],
    year=2016,
    identifiers=["10.2139/ssrn.2645730"],
)


@pytest.mark.parametrize(
    ("paper", "doi", "state", "reason"),
    [
        pytest.param(
            _GODEFAY,
            "10.21203/rs.2.18406/v2",
            ResolutionState.VERIFIED_EXACT,
            "another version of the DOI",
            id="versioned",
        ),
        pytest.param(
            _RODANO,
            "10.1016/j.jfineco.2016.01.016",
            ResolutionState.VERIFIED_FUZZY,
            None,
            id="preprint",
        ),
    ],
)
def test_versioned_and_preprint_dois_are_not_conflicting_identifiers(
    paper: cl.Paper, doi: str, state: ResolutionState, reason: str | None
) -> None:
    res = cl.verify(paper, replace(paper, identifiers=[doi]))
    assert res.state is state
    if reason is not None:
        assert reason in res.reason


def test_two_publisher_dois_still_need_the_extra_corroborating_field() -> None:
    journal = replace(_RODANO, identifiers=["10.1016/j.jfineco.2016.01.016"])
    other = replace(_RODANO, identifiers=["10.1000/other.1"], authors=())
    assert not cl.verify(replace(journal, authors=()), other).verified


@settings(max_examples=60)
@given(st.data())
def test_verify_equals_a_one_paper_resolver(data: st.DataObject) -> None:
    paper = data.draw(_papers())
    other = data.draw(_papers())
    cited = data.draw(st.sampled_from([paper, other]))
    ref = _ref(cited, ids=data.draw(st.booleans()))
    if data.draw(st.booleans()):
        ref = replace(ref, title=data.draw(_noisy_text(ref.title or "")))
    assert cl.verify(ref, paper) == cl.Resolver([paper]).resolve(ref)
    assert cl.verify(cited, paper) == cl.Resolver([paper]).resolve(cited)


def test_verify_matches_catalog_on_versions_and_relations() -> None:
    v1 = cl.Paper(title="Some deposit of data", identifiers=["10.6084/m9.figshare.9.v1"])
    published = cl.Paper(
        title="Deep residual learning for image recognition",
        identifiers=["10.1109/CVPR.2016.90"],
        related=[Relation(kind="has_preprint", identifier="arXiv:1512.03385")],
    )
    refs = [
        cl.Reference(identifiers=["10.6084/m9.figshare.9.v2"]),
        cl.Reference(identifiers=["10.6084/m9.figshare.9"]),
        cl.Reference(identifiers=["arXiv:1512.03385v2"], title="Deep residual learning"),
        cl.Reference(title="Residual learning, deep"),
        cl.Reference(title="Unrelated words entirely"),
    ]
    for paper in (v1, published):
        for ref in refs:
            assert cl.verify(ref, paper) == cl.Resolver([paper]).resolve(ref)


# --------------------------------------------------------------------------- fast paths


@settings(max_examples=40)
@given(st.data())
def test_trusted_construction_equals_the_validating_constructors(data: st.DataObject) -> None:
    # The resolver builds Resolution and Evidence values without re-running their converters
    # (the values are already typed); rebuilding them through the public constructors must give
    # equal values of the same types.
    papers, refs = data.draw(_lookalike_cases())
    resolver = cl.Resolver(papers)
    for ref in refs:
        res = resolver.resolve(ref)
        again = cl.Resolution(
            state=res.state,
            method=res.method,
            target=res.target,
            score=res.score,
            evidence=[Evidence(**attrs.asdict(e, recurse=False)) for e in res.evidence],
            reason=res.reason,
            alternatives=res.alternatives,
        )
        assert again == res
        assert type(res.score) is float
        assert type(res.evidence) is tuple
        assert type(res.alternatives) is tuple
        for e in res.evidence:
            assert type(e.agreement) is Agreement
            assert e.score is None or type(e.score) is float


@settings(max_examples=60)
@given(st.data())
def test_compare_with_a_known_title_score_equals_compare_from_scratch(
    data: st.DataObject,
) -> None:
    paper = data.draw(_papers())
    ref = _ref(data.draw(st.sampled_from([paper, data.draw(_papers())])), ids=False)
    if data.draw(st.booleans()):
        ref = replace(ref, title=data.draw(_noisy_text(ref.title or "")))
    feats = ReferenceFeatures.of(ref)
    title = normalize_title(paper.title)
    sim = title_similarity(feats.title, title)
    assert compare(feats, paper, paper_title=title, title_score=sim) == compare(feats, paper)


@settings(max_examples=60)
@given(st.from_type(cl.Paper))
def test_the_resolvers_reference_from_a_paper_equals_reference_from_paper(
    paper: cl.Paper,
) -> None:
    # resolve(paper) and verify() build the reference without re-running its converters.
    from citeledger.resolve._items import _reference_from_paper  # noqa: PLC0415

    built = _reference_from_paper(paper)
    assert built == cl.Reference.from_paper(paper)
    assert {a.name: type(getattr(built, a.name)) for a in attrs.fields(cl.Reference)} == {
        a.name: type(getattr(cl.Reference.from_paper(paper), a.name))
        for a in attrs.fields(cl.Reference)
    }


@settings(max_examples=60)
@given(st.from_type(cl.Reference))
def test_features_of_equal_the_constructors_features(ref: cl.Reference) -> None:
    # ReferenceFeatures.of sets the slots itself (tokens computed once); the result must be the
    # value the public constructor builds from the same fields.
    from citeledger.resolve.names import name_keys  # noqa: PLC0415
    from citeledger.resolve.normalize import is_generic_title  # noqa: PLC0415
    from citeledger.resolve.scoring import is_preprint  # noqa: PLC0415

    title = normalize_title(ref.title)
    built = ReferenceFeatures(
        title=title,
        generic=is_generic_title(title) if title else True,
        authors=name_keys(ref.authors),
        year=ref.year,
        volume=ref.volume,
        first_page=ref.first_page,
        venue=ref.venue,
        preprint=is_preprint(ref.identifiers, ref.venue),
    )
    assert ReferenceFeatures.of(ref) == built
    assert repr(ReferenceFeatures.of(ref)) == repr(built)


def test_comparison_keeps_outcomes_raw_and_renders_them_as_evidence() -> None:
    long_title = "A study of " + "very " * 40 + "long titles"
    paper = cl.Paper(
        title=long_title,
        authors=["Anna García", "Li Nguyen"],
        year=2020,
        volume="12",
        pages="100-110",
        venue="Physical Review Letters",
    )
    ref = cl.Reference(
        title=long_title,
        authors="García A, Smith J",
        year=2021,
        volume="vol. 12",
        first_page="101",
        venue="Phys. Rev. Lett.",
    )
    feats = ReferenceFeatures.of(ref)
    assert feats.volume_code == "12"  # the "vol." label is not part of the volume
    assert feats.page_code == "101"
    assert ReferenceFeatures.of(cl.Reference(title="x", first_page="pp. 7A")).page_code == "7a"
    assert ReferenceFeatures.of(cl.Reference(title="x", volume="Suppl 2")).volume_code == "suppl2"
    assert feats.tokens[:2] == ("study", "very")
    comp = compare(feats, paper)
    assert comp.agreement("title") is Agreement.AGREE
    assert comp.agreement("authors") is Agreement.AGREE  # first author found, half the names
    assert comp.agreement("year") is Agreement.PARTIAL
    assert comp.agreement("volume") is Agreement.AGREE
    assert comp.agreement("first_page") is Agreement.DISAGREE
    assert comp.agreement("issue") is None
    assert comp.hard == ()
    assert comp.agreement("venue") is Agreement.AGREE  # a dotted abbreviation
    # authors, volume and venue; the year is only within the tolerance
    assert comp.corroborations == 3
    by_field = {e.field: e for e in comp.evidence}
    assert by_field["authors"].left == "garcia, smith"
    assert by_field["authors"].right == "garcia, nguyen"
    assert (by_field["year"].left, by_field["year"].right) == ("2021", "2020")
    title = by_field["title"]
    assert title.left is not None
    assert len(title.left) == 120
    assert title.left.endswith("…")
    assert by_field["first_page"].right == "100"
    # The rendered keyword arguments build the same values through the public constructor.
    assert tuple(Evidence(**kw) for kw in comp.fields) == comp.evidence


def test_a_work_recorded_twice_with_a_typo_is_not_a_look_alike() -> None:
    # Google Scholar-style duplicates (real DBLP-Scholar records): one work, two records, one
    # title with a typo. Neither is a look-alike of the other, so the margin rule does not apply.
    a = cl.Paper(
        title="A research status report on adaptation for mobile data access",
        authors=["M Satyanarayanan", "BD Noble"],
        venue="SIGMOD Record",
    )
    ref = cite(a, authors="B Noble, M Satyanarayanan", year=1995)
    b = cl.Paper(
        title="A research status report on adaptation for mobile data acess",
        authors=["M Satyanarayanan", "B Noble"],
        venue="SIGMOD Record",
    )
    res = resolved([a, b], ref, cl.ResolutionState.VERIFIED_FUZZY)
    assert res.target is a
    # A substituted word is another work even when the titles are this close; so is a
    # typo-level twin by other authors or of another year.
    from citeledger.resolve._rules import _duplicate_record, _Scored  # noqa: PLC0415

    def twins(x: cl.Paper, y: cl.Paper) -> bool:
        comp = compare(ReferenceFeatures.of(ref), x)
        return _duplicate_record(_Scored(x, comp), _Scored(y, comp))

    assert twins(a, b)
    assert twins(b, a)
    c = cl.Paper(
        title="Querying heterogeneous information sources using source definitions",
        authors=["A Levy", "A Rajaraman", "J Ordille"],
    )
    d = attrs.evolve(c, title=c.title.replace("definitions", "descriptions"))  # type: ignore[union-attr]
    assert not twins(c, d)
    assert not twins(a, attrs.evolve(b, authors=["J Smith"]))
    assert not twins(attrs.evolve(a, year=1995), attrs.evolve(b, year=1997))
    assert not twins(  # short titles: a one-letter difference is another title
        cl.Paper(title="Data grids", authors=["A Jagatheesan"]),
        cl.Paper(title="Data grid", authors=["A Jagatheesan"]),
    )


def test_undated_scraped_duplicates_sharing_an_author_are_one_work() -> None:
    # Real DBLP-Scholar records: one work, three undated Scholar records, author lists in other
    # orders and lengths.
    ref = cl.Reference(
        title="Data grid management systems",
        authors="A Jagatheesan, A Rajasekar",
        year=2003,
        venue="SIGMOD Conference",
    )
    records = [
        cl.Paper(title="data grid management systems", authors="rw moore , a jagatheesan"),
        cl.Paper(
            title="data grid management systems",
            authors="a rajasekar , a jagatheesan",
            venue="proceedings of the 2003 acm sigmod international conference",
        ),
        cl.Paper(title="data grid management systems", authors="a jagatheesan , a rajasekar"),
    ]
    resolved(records, ref, cl.ResolutionState.VERIFIED_FUZZY)
    # A year on both sides tells versions apart: then they are look-alikes again.
    dated = [attrs.evolve(records[0], year=2001), attrs.evolve(records[2], year=2003)]
    res2 = resolved(
        dated, attrs.evolve(ref, authors=ref.authors[:1], year=None), cl.ResolutionState.UNRESOLVED
    )
    assert res2.reason.startswith("ambiguous")


def test_resolve_accepts_a_reference_string_and_rejects_other_types() -> None:
    paper = cl.Paper(
        title="ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme Scale Deep Learning",
        year=2021,
        identifiers=["arXiv:2104.07857"],
    )
    resolver = cl.Resolver([paper])
    res = resolver.resolve("Rajbhandari S, et al. ZeRO-Infinity. SC21. 2021. arXiv:2104.07857")
    assert res.state is cl.ResolutionState.VERIFIED_EXACT
    assert res.target == paper
    with pytest.raises(cl.ModelError, match="cannot resolve a NoneType"):
        resolver.resolve(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("workers", [1, 2])
def test_resolve_many_keeps_every_good_item_when_some_are_not_references(workers: int) -> None:
    paper = cl.Paper(
        title="ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme Scale Deep Learning",
        year=2021,
        identifiers=["arXiv:2104.07857"],
    )
    items: list[object] = [
        cl.Reference(identifiers=["arXiv:2104.07857v1"]),
        None,
        42,
        "Ibid.",
        cl.Reference(identifiers=["doi:10.48550/arXiv.2104.07857"]),
    ]
    out = cl.Resolver([paper]).resolve_many(items, workers=workers)  # type: ignore[arg-type]
    assert [r.state.value for r in out] == [
        "verified_exact",
        "parse_uncertain",
        "parse_uncertain",
        "parse_uncertain",
        "verified_exact",
    ]
    assert out[1].reason == "item 1 is a NoneType, not a reference: None"
    assert out[2].reason == "item 2 is a int, not a reference: 42"
    # The parser's own reason for giving up is passed on.
    assert "back-reference" in out[3].reason
    assert out[0].target == out[4].target == paper


# --- The six resolution states on real records from ../shared (skipped when it is absent).


def _openalex(path: Path) -> cl.Paper:
    work = json.loads(path.read_text(encoding="utf-8"))
    return cl.Paper(
        title=work["title"],
        authors=[a["author"]["display_name"] for a in work.get("authorships", [])],
        year=work["publication_year"],
        identifiers=[work["doi"], work["id"]],
    )


Labeled = tuple[tuple[dict[str, Any], ...], cl.Resolver, dict[int, str]]


@pytest.fixture(scope="module")
def acm() -> Labeled:
    rows = _data.rows("magellan_dblp_acm.jsonl")
    rights = {
        json.dumps(r["right"], sort_keys=True): _data.magellan_paper(r["right"]) for r in rows
    }
    keys = {id(p): k for k, p in rights.items()}
    return rows, cl.Resolver(rights.values()), keys


@requires_shared
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


@requires_shared
def test_verified_fuzzy_dblp_acm_positive_pair(acm: Labeled) -> None:
    rows, resolver, _ = acm
    row = next(
        r for r in rows if r["expected"] == "1" and r["left"]["title"] == r["right"]["title"]
    )
    res = resolver.resolve(_data.magellan_paper(row["left"]))
    assert res.state is ResolutionState.VERIFIED_FUZZY
    assert res.target is not None
    assert res.target.title == row["right"]["title"]


@requires_shared
def test_unresolved_dblp_acm_negative_pair() -> None:
    row = _data.row("magellan_dblp_acm.jsonl", "magellan-DBLP-ACM:train:1")
    assert row["expected"] == "0"  # "oracle industrial exhibit" vs "objectivity industrial exhibit"
    res = cl.verify(_data.magellan_paper(row["left"]), _data.magellan_paper(row["right"]))
    assert res.state is ResolutionState.UNRESOLVED
    assert res.alternatives  # the candidate that was considered and rejected is named


@requires_shared
def test_unresolved_ambiguous_fuzzycat_lookalikes() -> None:
    # "Anticoagulant therapy" (1963, DOI) vs "Anticoagulant therapy" (1953, PMID): DIFFERENT.
    row = next(
        r
        for r in _data.rows("fuzzycat_verify_pairs.jsonl")
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


@requires_shared
def test_crossref_structured_reference_without_title_resolves_by_journal_volume_page() -> None:
    # Half of the Crossref structured MATCH references carry no title: "Luga, Cell 151, 1542
    # (2012)". The journal, volume and first page find the record; the author and year confirm.
    row = _data.row("crossref_structured_tuning_2k.jsonl", "crossref-structured-tuning-2k:0")
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
    res = resolved([other, luga], reference, ResolutionState.VERIFIED_FUZZY)
    assert res.method is cl.Method.JOURNAL_VOLUME_PAGE
    assert res.target is luga
    assert "the journal, volume and first page identify" in res.reason
    # Without the record: searched and not found, so UNRESOLVED (not "too little to parse").
    resolved(
        [other], reference, ResolutionState.UNRESOLVED, "journal 'Cell Stem Cell' is not 'Cell'"
    )
    # Without a volume there is nothing to match on.
    resolved([luga], cl.model.replace(reference, volume=None), ResolutionState.PARSE_UNCERTAIN)


@requires_shared
def test_malformed_identifier_crossref_truncated_doi() -> None:
    row = _data.row("crossref_overall_2k.jsonl", "crossref-overall-2k:1894")
    found = find_identifiers(row["left"]["reference"]["DOI"])
    resolved(
        [],
        cl.Reference(malformed=found.malformed),
        ResolutionState.MALFORMED_IDENTIFIER,
        "10.1007/BF0229355",
    )


@requires_shared
def test_metadata_mismatch_glutton_wrong_doi() -> None:
    rows = _data.rows("glutton_pmc1943_refs_doi_17k.jsonl")[:50]
    a, b = rows[0], next(r for r in rows[1:] if r["left"]["atitle"] and r["left"]["volume"])
    resolver = cl.Resolver(_data.glutton_paper(r) for r in (a, b))
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
    assert res.alternatives[0].identifiers == _data.glutton_paper(b).identifiers


@requires_shared
def test_verified_exact_glutton_sample() -> None:
    rows = _data.rows("glutton_pmc1943_refs_doi_17k.jsonl")[:300]
    papers = [_data.glutton_paper(r) for r in rows]
    resolver = cl.Resolver(papers)
    refs = [cl.Reference(title=r["left"]["atitle"], identifiers=[r["right"]["doi"]]) for r in rows]
    results = resolver.resolve_many(refs)
    assert all(res.state is ResolutionState.VERIFIED_EXACT for res in results)
    assert all(
        res.target is not None and res.target.identifiers == p.identifiers
        for res, p in zip(results, papers, strict=True)
    )


@requires_shared
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
        res = resolver.resolve(_data.magellan_paper(left))
        if res.verified and res.target is not None:
            label = labels.get((key, keys[id(res.target)]))
            tp += label == "1"
            fp += label == "0"
    assert tp > 1000
    assert fp / (tp + fp) < 0.01


# --- Robustness review: catalog and resolver inputs of the wrong type get a typed error, not a leaked builtin exception.


DEEP = b"[" * 100_000

DEEP_OBJECT = b'{"a":' * 100_000

HUGE_INT = b'{"year": ' + b"9" * 5000 + b"}"

NOT_UTF8 = b'{"title": "\xff\xfe"}'


@pytest.mark.parametrize("papers", [[None], [cl.Paper(title="A paper"), 123], "abc", 5, b"x"])
def test_a_catalog_of_non_papers_is_a_typed_error(papers: object) -> None:
    with pytest.raises(cl.ModelError, match="catalog"):
        cl.Resolver(papers)  # type: ignore[arg-type]


def test_a_catalog_error_names_the_item() -> None:
    with pytest.raises(cl.ModelError, match="catalog item 1: expected a Paper, got int"):
        cl.Catalog([cl.Paper(title="A paper"), 7])  # type: ignore[list-item]


@pytest.mark.parametrize("refs", [None, 5, "Smith J (2020) A title. Nature 1:2", b"x"])
def test_resolve_many_of_a_non_iterable_is_a_typed_error(refs: object) -> None:
    resolver = cl.Resolver([cl.Paper(title="A paper")])
    with pytest.raises(cl.ModelError, match="resolve_many takes an iterable"):
        resolver.resolve_many(refs)  # type: ignore[arg-type]


@pytest.mark.parametrize("paper", [None, 123, "a paper", cl.Reference(title="A paper")])
def test_verify_against_a_non_paper_is_a_typed_error(paper: object) -> None:
    with pytest.raises(cl.ModelError, match="verify compares with a Paper"):
        cl.verify(cl.Reference(title="A paper"), paper)  # type: ignore[arg-type]
