"""The resolution of a citation that a source asserts itself.

OpenAlex (``filter=cites``), Semantic Scholar (its citation listings) and OpenCitations (its
index, API or dump) each assert that one work cites another: the cited work is not found by
matching, so its resolution is verified exact, score 100, by the source's method. Shared by the
OpenCitations format and the source adapters, so it lives in the lower of the two layers.

.. versionadded:: 0.2.0
"""

from __future__ import annotations

from citeledger.model import Method, Paper, Resolution, ResolutionState

__all__ = ["asserted_resolution"]


def asserted_resolution(cited: Paper, method: Method, reason: str) -> Resolution:
    """``cited`` as the verified exact target of a citation the source asserts (``reason``).

    >>> r = asserted_resolution(Paper(title="T"), Method.S2, "S2 asserts it")
    >>> r.state.name, r.score, r.target.title
    ('VERIFIED_EXACT', 100.0, 'T')
    """
    return Resolution(
        state=ResolutionState.VERIFIED_EXACT,
        method=method,
        target=cited,
        score=100.0,
        reason=reason,
    )
