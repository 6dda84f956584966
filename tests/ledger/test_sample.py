"""The embedded sample source."""

from __future__ import annotations

from importlib import resources

import pytest

import citeledger as cl
from citeledger.errors import NotFoundError
from citeledger.sources.sample import DEMO, ZERO, ZERO_INFINITY, SampleSource


def test_is_a_source_and_loads_through_the_entry_point() -> None:
    src = SampleSource()
    assert isinstance(src, cl.Source)
    loaded = cl.load_source("sample")
    assert isinstance(loaded, SampleSource)


def test_data_ships_inside_the_package() -> None:
    assert resources.files("citeledger.sources").joinpath("sample_data.json").is_file()


def test_lookup_by_any_version_and_unknown_works() -> None:
    src = SampleSource()
    assert src.paper("arXiv:2104.07857v1") == src.paper(ZERO_INFINITY)
    assert src.paper("10.48550/arXiv.2104.07857") == src.paper(ZERO_INFINITY)
    assert src.paper("doi:10.9999/unknown") is None
    with pytest.raises(NotFoundError):
        src.references("doi:10.9999/unknown")
    assert src.citation_counts("doi:10.9999/unknown") == []
    check = src.events("doi:10.9999/unknown")
    assert check.status is cl.NoticeStatus.UNAVAILABLE


def test_seed_papers_have_no_reference_list_and_demo_has_twelve() -> None:
    src = SampleSource()
    assert src.references(ZERO_INFINITY) == []
    assert src.references(ZERO) == []
    refs = src.references(DEMO)
    assert [r.position for r in refs] == list(range(1, 13))
    assert refs[9].malformed
    assert refs[9].malformed[0].text == "arXiv:2001.0836"


def test_citations_page_and_announce_totals() -> None:
    src = SampleSource()
    paged = src.citations(ZERO)
    items = list(paged)
    assert (len(items), paged.total, paged.complete) == (50, 1301, True)
    assert len(src.citing_counts(ZERO)) == 50
    cby = src.cited_by_year(ZERO)
    assert cby is not None
    assert cby.total == 1301
    assert str(cby.through) == "2026-10-14"
    assert src.cited_by_year(ZERO_INFINITY) is None


def test_search_finds_titles() -> None:
    src = SampleSource()
    hits = src.search("mixed precision training", limit=3)
    assert hits
    assert hits[0].title == "Mixed Precision Training"
    assert src.search("") == []
