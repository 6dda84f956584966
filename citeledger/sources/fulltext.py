"""Reference lists from full-text files the caller supplies: JATS and GROBID TEI.

:class:`FullTextFiles` is a :class:`~citeledger.sources.FullTextSource` (and a
:class:`~citeledger.sources.ReferenceSource`) over files you hand it, keyed by the work's
identifier. The ledger's inbound check asks it first for each citing work, since a full text
keeps what the APIs lose: the printed order, each entry's label and its text. The format is
told by the root element (``<article>``: JATS; ``<TEI>``: TEI), parsed with
:func:`~citeledger.formats.jats.parse_jats_references` or
:func:`~citeledger.formats.tei.parse_tei_references`.

>>> src = FullTextFiles({"arXiv:2201.00001": b"<article><back><ref-list/></back></article>"})
>>> src.full_text_references("arXiv:2201.00001")
[]
>>> src.full_text_references("arXiv:2201.00002") is None
True

.. versionadded:: 0.2.0
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from citeledger.errors import NotFoundError, ParseError
from citeledger.formats.jats import parse_jats_references
from citeledger.formats.tei import parse_tei_references
from citeledger.identifiers import Identifier, work_key
from citeledger.sources._common import as_identifier
from citeledger.sources._protocols import Capability

if TYPE_CHECKING:
    from collections.abc import Mapping

    from citeledger.model import Reference

__all__ = ["FullTextFiles", "parse_full_text_references"]

NAME = "fulltext"

# The first element after the prolog, comments and processing instructions.
_ROOT = re.compile(rb"<\s*(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s/>]")


def _root_name(body: bytes) -> str | None:
    head = body[:4096]
    for m in _ROOT.finditer(head):
        start = m.start()
        if head[start + 1 : start + 2] in (b"?", b"!"):
            continue
        return m.group(1).decode("ascii")
    return None


def parse_full_text_references(body: bytes) -> list[Reference]:
    """The reference list of a JATS or TEI document, told apart by its root element.

    >>> parse_full_text_references(b'<TEI xmlns="http://www.tei-c.org/ns/1.0"/>')
    []

    Raises:
        ParseError: neither JATS (``<article>``) nor TEI (``<TEI>``), or not well-formed.
        UnsafeXMLError: the document declares entities.
    """
    root = _root_name(body.lstrip())
    if root == "article":
        return parse_jats_references(body)
    if root == "TEI":
        return parse_tei_references(body)
    raise ParseError(f"not a JATS <article> or TEI <TEI> document (root {root!r})")


class FullTextFiles:
    """Full-text files (JATS or GROBID TEI) for some works, each keyed by an identifier.

    Args:
        files: identifier (or any string :func:`~citeledger.parse_identifier` accepts) ->
            the file's bytes or its path. Every identifier of the work finds it (keys are work
            keys: ``arXiv:2104.07857v2`` and ``10.48550/arXiv.2104.07857`` are one work).
        name: The source's name in provenance.
    """

    capabilities = frozenset({Capability.REFERENCES})

    def __init__(
        self, files: Mapping[Identifier | str, bytes | str | Path], *, name: str = NAME
    ) -> None:
        self.name = name
        self._files: dict[str, bytes | Path] = {}
        for ident, body in files.items():
            key = work_key(as_identifier(ident))
            self._files[key] = body if isinstance(body, bytes) else Path(body)

    def __repr__(self) -> str:
        return f"FullTextFiles({len(self._files)} files, name={self.name!r})"

    def full_text_references(self, identifier: Identifier | str) -> list[Reference] | None:
        """The work's references in printed order, or None when no file was given for it.

        Raises:
            ParseError: the file is neither JATS nor TEI, or not well-formed.
            UnsafeXMLError: the file declares entities.
        """
        body = self._files.get(work_key(as_identifier(identifier)))
        if body is None:
            return None
        data = body.read_bytes() if isinstance(body, Path) else body
        return parse_full_text_references(data)

    def references(self, identifier: Identifier | str) -> list[Reference]:
        """The same list, as a :class:`~citeledger.sources.ReferenceSource`.

        Raises:
            NotFoundError: no file was given for the work.
        """
        refs = self.full_text_references(identifier)
        if refs is None:
            raise NotFoundError(f"no full-text file for {identifier}", source=self.name)
        return refs
