"""Hypothesis plug-in: teach ``st.from_type`` the citeledger model.

Hypothesis runs :func:`_hypothesis_setup_hook` when it is imported, through the ``hypothesis``
entry point declared in ``pyproject.toml`` (hypothesis docs: extensions, "Hypothesis
integration via setuptools entry points"). The hook only registers *callables*:
:mod:`citeledger.testing.strategies` is imported the first time ``st.from_type`` asks for one
of our types, so importing Hypothesis stays cheap for projects that merely have citeledger
installed.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy


def _lazy(name: str) -> Any:
    """A strategy function for ``register_type_strategy`` calling ``strategies.<name>()``."""

    def resolve(_: type[Any]) -> SearchStrategy[Any]:
        from citeledger.testing import strategies  # noqa: PLC0415 - deferred on purpose

        factory = getattr(strategies, name)
        return factory()  # type: ignore[no-any-return]

    return resolve


def _hypothesis_setup_hook() -> None:
    """Register a strategy for every citeledger value type with Hypothesis.

    Afterwards ``st.from_type(Paper)``, ``st.from_type(DOI)`` and ``st.builds(...)`` over
    functions annotated with citeledger types draw valid values.
    """
    from hypothesis import strategies as st  # noqa: PLC0415 - hypothesis is importing us

    from citeledger import identifiers as ids  # noqa: PLC0415
    from citeledger import model  # noqa: PLC0415

    table: tuple[tuple[type[Any], str], ...] = (
        (ids.DOI, "dois"),
        (ids.ArxivId, "arxiv_ids"),
        (ids.PMID, "pmids"),
        (ids.PMCID, "pmcids"),
        (ids.OpenAlexId, "openalex_ids"),
        (ids.S2PaperId, "s2_ids"),
        (ids.CorpusId, "corpus_ids"),
        (ids.MalformedFragment, "malformed_fragments"),
        (model.Author, "authors"),
        (model.Relation, "relations"),
        (model.Paper, "papers"),
        (model.Reference, "references"),
        (model.Evidence, "evidences"),
        (model.Resolution, "resolutions"),
        (model.Observation, "observations"),
        (model.Event, "events"),
        (model.NoticeCheck, "notice_checks"),
        (model.Measurement, "measurements"),
        (model.Coverage, "coverages"),
    )
    for cls, name in table:
        st.register_type_strategy(cls, _lazy(name))
