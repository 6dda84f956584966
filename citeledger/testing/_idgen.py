"""Hypothesis strategies for valid and malformed identifiers of every scheme.

Plain strategy functions with keyword-only options (hypothesis guides/api-style.rst);
``citeledger.testing.strategies`` re-exports them. Needs the ``testing`` extra (hypothesis).

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from hypothesis import strategies as st

from citeledger import identifiers as ids
from citeledger.errors import InvalidIdentifier

__all__ = [
    "arxiv_ids",
    "corpus_ids",
    "dois",
    "identifiers",
    "malformed_identifier_strings",
    "openalex_ids",
    "pmcids",
    "pmids",
    "s2_ids",
]

# Characters seen in real DOI suffixes (Crossref recommends [-._;()/:A-Z0-9]; SICI DOIs add <>).
_SUFFIX_FIRST = "abcdefghijklmnopqrstuvwxyz0123456789("
_SUFFIX_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-._;()/:<>"
_SUFFIX_LAST = "abcdefghijklmnopqrstuvwxyz0123456789"
_SUBJECTS = ("AG", "AT", "CO", "DG", "GT", "NT", "PR", "AI", "LG", "CL")


def _valid_doi(value: str) -> bool:
    # "</" and a glued "http://" end a DOI in running text (find_identifiers); no real DOI
    # contains them, so the generator does not either.
    if "</" in value or "http://" in value or "https://" in value:
        return False
    try:
        ids.DOI(value)
    except InvalidIdentifier:
        return False
    return True


@st.composite
def _doi_values(draw: st.DrawFn, *, max_suffix_size: int) -> str:
    registrant = str(draw(st.integers(1000, 99999)))
    if draw(st.booleans()) and draw(st.booleans()):
        registrant += f".{draw(st.integers(1, 999))}"
    middle = draw(st.text(alphabet=_SUFFIX_CHARS, max_size=max(0, max_suffix_size - 2)))
    first = draw(st.sampled_from(_SUFFIX_FIRST))
    last = draw(st.sampled_from(_SUFFIX_LAST))
    return f"10.{registrant}/{first}{middle}{last}"


def dois(*, max_suffix_size: int = 30, arxiv: bool = True) -> st.SearchStrategy[ids.DOI]:
    """Valid canonical DOIs; with ``arxiv`` some are arXiv DataCite DOIs (10.48550/arxiv.…)."""
    plain = _doi_values(max_suffix_size=max_suffix_size).filter(_valid_doi).map(ids.DOI)
    if not arxiv:
        return plain
    return st.one_of(plain, arxiv_ids(versioned=False).map(lambda a: a.as_doi()))


@st.composite
def _new_style(draw: st.DrawFn, versioned: bool | None) -> str:
    yymm = draw(st.integers(704, 2612).filter(lambda v: 1 <= v % 100 <= 12))
    digits = 4 if yymm <= 1412 else 5
    number = draw(st.integers(1, 10**digits - 1))
    return f"{yymm:04d}.{number:0{digits}d}" + _version(draw, versioned)


@st.composite
def _old_style(draw: st.DrawFn, versioned: bool | None) -> str:
    archive = draw(st.sampled_from(sorted(ids.ARXIV_ARCHIVES)))
    if archive in {"math", "cs"} and draw(st.booleans()):
        archive += "." + draw(st.sampled_from(_SUBJECTS))
    year = draw(st.integers(1991, 2007))
    low = 8 if year == 1991 else 1
    high = 3 if year == 2007 else 12
    month = draw(st.integers(low, high))
    number = draw(st.integers(1, 999))
    return f"{archive}/{year % 100:02d}{month:02d}{number:03d}" + _version(draw, versioned)


def _version(draw: st.DrawFn, versioned: bool | None) -> str:
    if versioned is None:
        versioned = draw(st.booleans())
    return f"v{draw(st.integers(1, 30))}" if versioned else ""


def arxiv_ids(
    *, old_style: bool = True, versioned: bool | None = None
) -> st.SearchStrategy[ids.ArxivId]:
    """Valid arXiv ids; ``versioned`` None mixes both, True/False forces a version or none."""
    new = _new_style(versioned)
    values = st.one_of(new, _old_style(versioned)) if old_style else new
    return values.map(ids.ArxivId)


def pmids() -> st.SearchStrategy[ids.PMID]:
    """Valid PubMed ids."""
    return st.integers(1, 99_999_999).map(lambda n: ids.PMID(str(n)))


def pmcids() -> st.SearchStrategy[ids.PMCID]:
    """Valid PubMed Central ids (``PMC…``)."""
    return st.integers(1, 99_999_999).map(lambda n: ids.PMCID(f"PMC{n}"))


def openalex_ids() -> st.SearchStrategy[ids.OpenAlexId]:
    """Valid OpenAlex work ids (``W…``)."""
    return st.integers(1, 10**11).map(lambda n: ids.OpenAlexId(f"W{n}"))


def s2_ids() -> st.SearchStrategy[ids.S2PaperId]:
    """Valid Semantic Scholar paper ids (40 lower-case hex digits)."""
    return st.text(alphabet="0123456789abcdef", min_size=40, max_size=40).map(ids.S2PaperId)


def corpus_ids() -> st.SearchStrategy[ids.CorpusId]:
    """Valid Semantic Scholar CorpusIds."""
    return st.integers(1, 10**10).map(lambda n: ids.CorpusId(str(n)))


def identifiers() -> st.SearchStrategy[ids.Identifier]:
    """Any valid identifier of any scheme."""
    return st.one_of(dois(), arxiv_ids(), pmids(), pmcids(), openalex_ids(), s2_ids(), corpus_ids())


@st.composite
def _malformed(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 7))
    if kind == 0:  # DOI without slash or suffix
        return f"doi:10.{draw(st.integers(1000, 99999))}"
    if kind == 1:  # the slash replaced by a dot
        doi = draw(_doi_values(max_suffix_size=20))
        prefix, _, suffix = doi.partition("/")
        letter = draw(st.sampled_from("abcdefghijklmnopqrstuvwxyz"))
        return f"{prefix}.{letter}{suffix}"
    if kind == 2:  # empty suffix
        return f"doi:10.{draw(st.integers(1000, 99999))}/"
    if kind == 3:  # month 00 or 13-99
        yy = draw(st.integers(8, 99))
        mm = draw(st.one_of(st.just(0), st.integers(13, 99)))
        return f"arXiv:{yy:02d}{mm:02d}.{draw(st.integers(10000, 99999))}"
    if kind == 4:  # truncated: one digit short for the period
        new = draw(_new_style(versioned=False))
        return f"arXiv:{new[:-1]}"
    if kind == 5:  # new style before April 2007
        yy = draw(st.integers(0, 7))
        mm = draw(st.integers(1, 12 if yy < 7 else 3))
        return f"arXiv:{yy:02d}{mm:02d}.{draw(st.integers(1000, 9999))}"
    if kind == 6:  # unknown or mistyped archive
        archive = draw(st.sampled_from(("hep-xx", "astroph", "maths", "cond-matt", "q-phys")))
        return f"arXiv:{archive}/{draw(st.integers(9201, 9912))}{draw(st.integers(1, 999)):03d}"
    # truncated Springer BF DOI (7 digits instead of 8)
    return f"doi:10.1007/BF{draw(st.integers(1_000_000, 9_999_999))}"


def malformed_identifier_strings() -> st.SearchStrategy[str]:
    """Labelled identifier-looking strings that are invalid (parse raises, find reports).

    Covers a DOI missing its slash or suffix, a slash replaced by a dot, impossible arXiv
    months, truncated and too-early new-style arXiv ids, unknown archives and truncated
    Springer ``10.1007/BF`` DOIs.
    """
    return _malformed()
