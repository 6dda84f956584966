"""The identifier classes: one frozen value per scheme, holding its canonical form.

.. versionadded:: 0.2.0
   Split out of ``citeledger/identifiers.py``; import from :mod:`citeledger.identifiers`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final, TypeAlias, TypeVar

import attrs

from citeledger.errors import InvalidIdentifier

if TYPE_CHECKING:
    from collections.abc import Callable

from citeledger.identifiers._normalize import _NORMALIZERS, _arxiv_value, _split_arxiv_version
from citeledger.identifiers._schemes import _ARXIV_DOI_PREFIX, Scheme

__all__ = [
    "DOI",
    "IDENTIFIER_TYPES",
    "PMCID",
    "PMID",
    "ArxivId",
    "CorpusId",
    "Identifier",
    "OpenAlexId",
    "S2PaperId",
]


def _check_canonical(
    instance: _IdentifierBase, _attribute: attrs.Attribute[str], value: str
) -> None:
    """The attrs validator of every scheme: the value must be a fixed point of its normaliser."""
    scheme = instance.scheme
    if not isinstance(value, str):
        raise InvalidIdentifier(repr(value), "the value must be a string", scheme.value)
    canonical = _NORMALIZERS[scheme](value)  # raises InvalidIdentifier with the precise reason
    if canonical != value:
        raise InvalidIdentifier(
            value,
            f"not in canonical form (expected {canonical!r}); "
            "use parse_identifier() to canonicalise messy text",
            scheme.value,
        )


@attrs.frozen(order=False)  # the ordering below is across schemes
class _IdentifierBase:
    """Shared by every scheme: the canonical ``value``, ``str()``, ordering across schemes.

    Each subclass names its ``scheme``; the one ``value`` field checks values against that
    scheme's normaliser. Ordering is by ``(scheme, value)``.
    """

    scheme: ClassVar[Scheme]
    value: str = attrs.field(validator=_check_canonical)

    def __str__(self) -> str:
        return f"{self.scheme}:{self.value}"

    def _sort_key(self) -> tuple[str, str]:
        return (self.scheme.value, self.value)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, _IdentifierBase):
            return NotImplemented
        return self._sort_key() < other._sort_key()

    def __le__(self, other: object) -> bool:
        if not isinstance(other, _IdentifierBase):
            return NotImplemented
        return self._sort_key() <= other._sort_key()

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, _IdentifierBase):
            return NotImplemented
        return self._sort_key() > other._sort_key()

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, _IdentifierBase):
            return NotImplemented
        return self._sort_key() >= other._sort_key()


@attrs.frozen(order=False)  # ordering across schemes comes from _IdentifierBase
class DOI(_IdentifierBase):
    """A Digital Object Identifier, canonically lower-case ``10.<registrant>/<suffix>``.

    DOIs are case-insensitive (DOI Handbook 2.4), so the canonical value is lower-cased. Build one
    from messy text with :func:`normalize_doi` or :func:`parse_identifier`.

    Attributes:
        value: The canonical DOI, e.g. ``"10.1038/nature12373"``.

    Example:
        >>> from citeledger.identifiers import normalize_arxiv, normalize_doi
        >>> normalize_doi("https://doi.org/10.1038/NATURE12373.")
        DOI(value='10.1038/nature12373')

    .. versionadded:: 0.1.0
    """

    scheme: ClassVar[Scheme] = Scheme.DOI

    @property
    def prefix(self) -> str:
        """The ``10.<registrant>`` part."""
        return self.value.partition("/")[0]

    @property
    def suffix(self) -> str:
        """Everything after the first ``/``."""
        return self.value.partition("/")[2]

    def as_arxiv(self) -> ArxivId | None:
        """The arXiv id this arXiv DataCite DOI (``10.48550/arXiv.<id>``) names, else ``None``.

        >>> from citeledger.identifiers import normalize_arxiv, normalize_doi
        >>> normalize_doi("10.48550/arXiv.2104.07857").as_arxiv()
        ArxivId(value='2104.07857')
        """
        if not self.value.startswith(_ARXIV_DOI_PREFIX):
            return None
        try:
            return _make(ArxivId, _arxiv_value(self.value[len(_ARXIV_DOI_PREFIX) :]))
        except InvalidIdentifier:
            return None


@attrs.frozen(order=False)  # ordering across schemes comes from _IdentifierBase
class ArxivId(_IdentifierBase):
    """An arXiv identifier, new style (``2104.07857``) or old style (``hep-th/9901001``).

    Canonical value: new style ``YYMM.NNNN`` (0704-1412) or ``YYMM.NNNNN`` (1501 on); old style
    ``archive/YYMMNNN`` or ``archive.SUBJ/YYMMNNN`` with the archive lower-case and a two-letter
    subject class upper-case (``math.GT/0309136``); an optional ``vN`` version (N >= 1, no leading
    zero). The subject class of an old-style id is kept (it is part of what was written), but
    :func:`work_key` drops it, since arXiv resolves ``math.GT/0309136`` and ``math/0309136`` to the
    same paper.

    Attributes:
        value: The canonical id, e.g. ``"2104.07857v2"``.

    Example:
        >>> from citeledger.identifiers import normalize_arxiv, normalize_doi
        >>> x = normalize_arxiv("https://arxiv.org/pdf/2104.07857v2.pdf")
        >>> x.base, x.version
        ('2104.07857', 2)

    .. versionadded:: 0.1.0
    """

    scheme: ClassVar[Scheme] = Scheme.ARXIV

    @property
    def base(self) -> str:
        """The value without its version (``"2104.07857"``)."""
        return _split_arxiv_version(self.value)[0]

    @property
    def version(self) -> int | None:
        """The version number, or ``None`` when the id names no version."""
        return _split_arxiv_version(self.value)[1]

    @property
    def is_old_style(self) -> bool:
        """Whether this is a pre-2007 ``archive/YYMMNNN`` id."""
        return "/" in self.value

    @property
    def work_base(self) -> str:
        """The base without an old-style subject class (``math/0309136``): one key per paper."""
        base = self.base
        head, slash, tail = base.partition("/")
        if not slash:
            return base
        return f"{head.partition('.')[0]}/{tail}"

    def with_version(self, version: int) -> ArxivId:
        """This id with the given version (>= 1).

        Raises:
            InvalidIdentifier: when ``version`` is below 1.
        """
        if isinstance(version, bool) or version < 1:
            raise InvalidIdentifier(f"{self.base}v{version}", "version must be >= 1", "arxiv")
        return ArxivId(f"{self.base}v{version}")

    def unversioned(self) -> ArxivId:
        """This id without a version."""
        return self if self.version is None else ArxivId(self.base)

    def as_doi(self) -> DOI:
        """ArXiv's DataCite DOI for this paper, ``10.48550/arxiv.<base>`` (no version).

        >>> ArxivId("2104.07857v1").as_doi()
        DOI(value='10.48550/arxiv.2104.07857')
        """
        return DOI(_ARXIV_DOI_PREFIX + self.work_base.lower())


@attrs.frozen(order=False)  # ordering across schemes comes from _IdentifierBase
class PMID(_IdentifierBase):
    """A PubMed id: 1-8 digits without leading zeros (PMIDs are below 100,000,000).

    .. versionadded:: 0.1.0
    """

    scheme: ClassVar[Scheme] = Scheme.PMID


@attrs.frozen(order=False)  # ordering across schemes comes from _IdentifierBase
class PMCID(_IdentifierBase):
    """A PubMed Central id, canonically ``PMC`` followed by digits (``"PMC3531190"``).

    .. versionadded:: 0.1.0
    """

    scheme: ClassVar[Scheme] = Scheme.PMCID


@attrs.frozen(order=False)  # ordering across schemes comes from _IdentifierBase
class OpenAlexId(_IdentifierBase):
    """An OpenAlex *work* id, canonically ``W`` followed by digits (``"W2741809807"``).

    Only works are modelled; author, source, institution ... ids (``A…``, ``S…``, ``I…``) are
    rejected with a reason rather than being mistaken for works.

    .. versionadded:: 0.1.0
    """

    scheme: ClassVar[Scheme] = Scheme.OPENALEX


@attrs.frozen(order=False)  # ordering across schemes comes from _IdentifierBase
class S2PaperId(_IdentifierBase):
    """A Semantic Scholar paper id: the 40 lower-case hex digits of its SHA.

    .. versionadded:: 0.1.0
    """

    scheme: ClassVar[Scheme] = Scheme.S2


@attrs.frozen(order=False)  # ordering across schemes comes from _IdentifierBase
class CorpusId(_IdentifierBase):
    """A Semantic Scholar CorpusId: digits without leading zeros.

    .. versionadded:: 0.1.0
    """

    scheme: ClassVar[Scheme] = Scheme.CORPUSID


Identifier: TypeAlias = DOI | ArxivId | PMID | PMCID | OpenAlexId | S2PaperId | CorpusId
"""Any one of the seven identifier classes."""

IDENTIFIER_TYPES: Final[tuple[type[Identifier], ...]] = (
    DOI,
    ArxivId,
    PMID,
    PMCID,
    OpenAlexId,
    S2PaperId,
    CorpusId,
)

_I = TypeVar("_I", bound=_IdentifierBase)
_CLASS_BY_SCHEME: Final[dict[Scheme, type[Identifier]]] = {t.scheme: t for t in IDENTIFIER_TYPES}


def _make(cls: type[_I], value: str) -> _I:
    """Build an identifier from a normaliser's output without re-running the normaliser.

    The normalisers build canonical values (the attrs validator re-checks values that users
    pass in); the one way their output could still change on a second pass is a value that
    decodes again ("%2541" -> "%41" -> "A", "&amp;lt;" -> "&lt;" -> "<"), so those go through
    the validating constructor.
    """
    if "%" in value or "&" in value:
        validating: Callable[[str], _I] = cls  # the attrs __init__ takes the value
        return validating(value)
    ident = object.__new__(cls)
    object.__setattr__(ident, "value", value)
    return ident
