"""The public parsing API: :func:`parse_identifier`, :func:`normalize_doi`, :func:`normalize_arxiv`.

.. versionadded:: 0.2.0
   Split out of ``citeledger/identifiers.py``; import from :mod:`citeledger.identifiers`.
"""

from __future__ import annotations

from citeledger.errors import InvalidIdentifier
from citeledger.identifiers._normalize import (
    _ARXIV_HOSTS,
    _ARXIV_NEW_RE,
    _ARXIV_TAG_RE,
    _CORPUSID_HOSTS,
    _CORPUSID_LABEL_RE,
    _DOI_HOSTS,
    _DOI_LABEL_RE,
    _FAST_DOI_RE,
    _HEX40_RE,
    _NORMALIZERS,
    _OPENALEX_HOSTS,
    _PMCID_HOSTS,
    _PMID_HOSTS,
    _S2_HOSTS,
    _after_host,
    _arxiv_value,
    _clean,
    _doi_value,
)
from citeledger.identifiers._schemes import ARXIV_ARCHIVES, Scheme
from citeledger.identifiers._types import (
    _CLASS_BY_SCHEME,
    DOI,
    ArxivId,
    Identifier,
    _make,
)


def normalize_doi(text: str) -> DOI:
    """Parse a DOI from messy text: bare, ``doi:``-prefixed or as a doi.org URL.

    Strips whitespace, ``doi:`` / ``DOI`` / ``https://doi.org/`` / ``http://dx.doi.org/``
    prefixes, trailing sentence punctuation (a ``)`` only when unbalanced), percent-encoding and
    the HTML entities ``&lt; &gt; &amp; &quot;``; then lower-cases.

    Raises:
        InvalidIdentifier: with the reason, when the text is no DOI.

    Example:
        >>> normalize_doi("doi: 10.1002/(SICI)1097-4636(199709)36:4<543::AID-JBM14>3.0.CO;2-D.")
        DOI(value='10.1002/(sici)1097-4636(199709)36:4<543::aid-jbm14>3.0.co;2-d')

    .. versionadded:: 0.1.0
    """
    if not isinstance(text, str):
        raise InvalidIdentifier(repr(text), "an identifier must be given as a string", None)
    return _make(DOI, _doi_value(text))


def normalize_arxiv(text: str) -> ArxivId:
    """Parse an arXiv id from messy text: bare, ``arXiv:``-prefixed, abs/pdf URLs, DataCite DOI.

    Raises:
        InvalidIdentifier: with the reason (month 13, too early, wrong digit count, ...).

    Example:
        >>> normalize_arxiv("arXiv:2104.07857v2 [cs.LG]")
        ArxivId(value='2104.07857v2')
        >>> normalize_arxiv("arXiv:1913.01234")
        Traceback (most recent call last):
        ...
        citeledger.errors.InvalidIdentifier: invalid identifier as arxiv: 'arXiv:1913.01234': month 13 is not a month (01-12)

    .. versionadded:: 0.1.0
    """  # noqa: E501
    if not isinstance(text, str):
        raise InvalidIdentifier(repr(text), "an identifier must be given as a string", None)
    return _make(ArxivId, _arxiv_value(text))


def _detect_scheme(s: str) -> Scheme | None:
    """Pick the scheme of a cleaned string from its prefix, URL host or shape."""
    low = s.lower()
    if low.startswith("10.") or _after_host(s, _DOI_HOSTS) is not None or _DOI_LABEL_RE.match(s):
        return Scheme.DOI
    if _after_host(s, _ARXIV_HOSTS) is not None or low.startswith("arxiv"):
        return Scheme.ARXIV
    if _after_host(s, _CORPUSID_HOSTS) is not None or _CORPUSID_LABEL_RE.match(s):
        return Scheme.CORPUSID
    if _after_host(s, _PMCID_HOSTS) is not None or low.startswith("pmc"):
        return Scheme.PMCID
    if _after_host(s, _PMID_HOSTS) is not None or low.startswith(("pmid", "pubmed")):
        return Scheme.PMID
    if _after_host(s, _OPENALEX_HOSTS) is not None or low.startswith("openalex"):
        return Scheme.OPENALEX
    if _after_host(s, _S2_HOSTS) is not None or low.startswith("s2") or _HEX40_RE.fullmatch(s):
        return Scheme.S2
    if low[:1] == "w" and low[1:].isdigit():
        return Scheme.OPENALEX
    # A listing's trailing category tag ("2104.07857 [cs.LG]") does not change the scheme.
    bare = _ARXIV_TAG_RE.sub("", s).rstrip() if s.endswith("]") else s
    if _ARXIV_NEW_RE.fullmatch(bare) or (
        "/" in bare and bare.partition("/")[0].partition(".")[0].lower() in ARXIV_ARCHIVES
    ):
        return Scheme.ARXIV
    return None


def parse_identifier(text: str, scheme: str | Scheme | None = None) -> Identifier:
    """Parse one identifier from what a user pasted.

    Accepts bare values, prefixed forms (``doi:``, ``DOI``, ``arXiv:``, ``PMID:``, ``PMCID:``,
    ``CorpusId:``, ``openalex:``, ``s2:``, and every ``str()`` of an identifier), URL forms
    (doi.org, dx.doi.org, arxiv.org abs/pdf, openalex.org, api.openalex.org/works,
    semanticscholar.org/paper/<slug>/<sha>, api.semanticscholar.org/CorpusID:<n>,
    pubmed.ncbi.nlm.nih.gov/<n>, ncbi PMC article URLs), percent-encoding, surrounding whitespace
    and trailing sentence punctuation.

    A bare number is rejected without a ``scheme``: it could be a PMID or a CorpusId, and guessing
    would silently name the wrong paper. Pass ``scheme="pmid"`` or write ``PMID:123``.

    Args:
        text: The text to parse.
        scheme: Parse only this scheme (``"doi"``, ``Scheme.ARXIV``, ...); None detects it.

    Raises:
        InvalidIdentifier: with a human reason when the text is not an identifier (of ``scheme``).

    Example:
        >>> parse_identifier("https://arxiv.org/abs/hep-th/9901001v1")
        ArxivId(value='hep-th/9901001v1')
        >>> str(parse_identifier("12345", scheme="pmid"))
        'pmid:12345'

    .. versionadded:: 0.1.0
    """
    if not isinstance(text, str):
        raise InvalidIdentifier(repr(text), "an identifier must be given as a string", None)
    if not isinstance(text, str):
        raise InvalidIdentifier(repr(text), "an identifier must be given as a string", None)
    if scheme is not None:
        try:
            sch = Scheme(str(scheme).lower())
        except ValueError:
            known = ", ".join(s.value for s in Scheme)
            raise InvalidIdentifier(
                text, f"unknown scheme {scheme!r} (known: {known})", str(scheme)
            ) from None
        return _make(_CLASS_BY_SCHEME[sch], _NORMALIZERS[sch](text))
    if _FAST_DOI_RE.fullmatch(text):  # the common case: a clean bare DOI
        return _make(DOI, _doi_value(text))
    cleaned = _clean(text)
    if not cleaned:
        raise InvalidIdentifier(text, "empty identifier", None)
    detected = _detect_scheme(cleaned)
    if detected is None:
        if cleaned.isdigit():
            raise InvalidIdentifier(
                text,
                "a bare number is ambiguous (PMID or CorpusId?): prefix it "
                "('PMID:', 'CorpusId:') or pass scheme=",
                None,
            )
        raise InvalidIdentifier(text, "not recognised as any supported identifier", None)
    return _make(_CLASS_BY_SCHEME[detected], _NORMALIZERS[detected](text))
