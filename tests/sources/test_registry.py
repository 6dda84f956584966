"""The source registry: explicit sources, built-ins by entry point, and a separately installed plug-in."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from importlib.metadata import distribution
from pathlib import Path
from typing import Any

import pytest

import citeledger as cl
from citeledger.errors import SourceNotFound
from citeledger.model import Paper
from citeledger.sources import (
    ENTRY_POINT_GROUP,
    Capability,
    PaperSource,
    ReferenceSource,
    SearchSource,
    Source,
    SourceRegistry,
)
from citeledger.sources.arxiv import ArxivSource
from citeledger.sources.crossref import CrossrefSource
from citeledger.sources.openalex import OpenAlexSource
from citeledger.testing import FakeSource


class _WithOptions:
    """A source class the registry builds with options (a factory, not an instance)."""

    name = "fake"
    capabilities = frozenset({Capability.PAPER})

    def __init__(self, **options: Any) -> None:
        self.options = options

    def paper(self, identifier: Any) -> Paper | None:
        return Paper(identifiers=[str(identifier)], title="Fake", source=self.name)


def test_registry_of_an_explicit_fake_instance() -> None:
    fake = FakeSource(papers=[Paper(identifiers=["doi:10.1234/x"], title="Fake")])
    reg = SourceRegistry([fake], load_entry_points=False)
    assert reg.names() == ["fake"]
    assert "fake" in reg
    src = reg.load("fake")
    assert src is fake
    assert isinstance(src, Source)
    assert isinstance(src, PaperSource)
    paper = src.paper("10.1234/x")
    assert paper is not None
    assert paper.title == "Fake"
    assert not isinstance(src, ReferenceSource)
    with pytest.raises(SourceNotFound, match="known: fake"):
        reg.load("crossref")


def test_registry_of_a_class_builds_with_options() -> None:
    reg = SourceRegistry([_WithOptions], load_entry_points=False)
    src = reg.load("fake", base_url="http://127.0.0.1:1")
    assert isinstance(src, _WithOptions)
    assert src.options == {"base_url": "http://127.0.0.1:1"}
    with pytest.raises(ValueError, match="no name"):
        reg.register(object())


def test_builtins_load_through_entry_points() -> None:
    reg = SourceRegistry()
    assert {"arxiv", "crossref", "openalex", "semanticscholar", "opencitations"} <= set(reg.names())
    crossref = cl.load_source(
        "crossref", base_url="http://127.0.0.1:8080", mailto="you@example.org"
    )
    assert isinstance(crossref, CrossrefSource)
    assert (crossref.name, crossref.base_url, crossref.mailto) == (
        "crossref",
        "http://127.0.0.1:8080",
        "you@example.org",
    )
    assert isinstance(cl.load_source("arxiv", base_url="http://127.0.0.1:8080"), ArxivSource)
    openalex = cl.load_source("openalex", registry=reg, api_key="k", mailto="you@example.org")
    assert isinstance(openalex, OpenAlexSource)
    assert "k'" not in repr(openalex)
    for name in ("arxiv", "crossref", "openalex"):
        assert isinstance(reg.load(name), Source)


@pytest.fixture
def installed_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A separately installed distribution: a package plus its .dist-info with an entry point."""
    pkg = tmp_path / "citeledger_ext_demo"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        textwrap.dedent(
            """
            from citeledger.sources import Capability


            class DemoSource:
                name = "demo"
                capabilities = frozenset({Capability.SEARCH})

                def __init__(self, *, base_url=None, mailto=None, **_):
                    self.base_url = base_url
                    self.mailto = mailto

                def search(self, query, *, limit=10):
                    return []
            """
        )
    )
    dist = tmp_path / "citeledger_ext_demo-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: citeledger-ext-demo\nVersion: 1.0\n"
    )
    (dist / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\ndemo = citeledger_ext_demo:DemoSource\nbroken = citeledger_ext_missing:Nope\n"
    )
    (dist / "RECORD").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("citeledger_ext_demo", None)


def test_a_separately_installed_distribution_is_found(installed_plugin: Path) -> None:
    assert distribution("citeledger-ext-demo").version == "1.0"  # really "installed"
    reg = SourceRegistry()
    assert {"demo", "broken", "crossref"} <= set(reg.names())
    demo = reg.load("demo", base_url="http://127.0.0.1:9", mailto="me@example.org")
    assert type(demo).__module__ == "citeledger_ext_demo"
    assert isinstance(demo, Source)
    assert demo.capabilities == {Capability.SEARCH}
    assert isinstance(demo, SearchSource)
    assert demo.search("anything") == []
    assert cl.load_source("demo").name == "demo"
    # A broken plug-in fails only when asked for, with a typed error; the rest keep working.
    with pytest.raises(SourceNotFound, match="failed to load"):
        reg.load("broken")
    assert isinstance(reg.load("crossref"), CrossrefSource)


def test_entry_point_loading_can_be_switched_off(installed_plugin: Path) -> None:
    reg = SourceRegistry(load_entry_points=False)
    assert reg.names() == []
    with pytest.raises(SourceNotFound, match="known: none"):
        reg.load("demo")
