"""The one way citeledger parses XML: no entities, no DTDs, no network.

Every XML payload (arXiv Atom feeds, JATS, GROBID TEI) goes through :func:`safe_xml`. Its parser
resolves no entities, loads no DTD, touches no network and keeps lxml's limits on tree depth and
text size (``huge_tree=False``). A document that *declares* entities in its DOCTYPE is refused
outright with :class:`~citeledger.errors.UnsafeXMLError`: that is how billion-laughs and XXE
payloads are built, and no source we read needs them. An external DTD reference (JATS files name
``JATS-archivearticle1.dtd``) is harmless once it is never loaded, so such documents parse.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from lxml import etree

from citeledger.errors import InvalidIdentifier, ParseError, UnsafeXMLError
from citeledger.identifiers import Identifier, MalformedFragment, Scheme, parse_identifier

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping

__all__ = [
    "ID_TYPE_SCHEMES",
    "asserted_id",
    "descendants",
    "flat_text",
    "has_ancestor",
    "kid",
    "kids",
    "local_name",
    "safe_parser",
    "safe_xml",
    "split_ids",
    "typed_ids",
]

#: Identifier types as JATS (``pub-id-type``) and GROBID TEI (``<idno type>``) write them,
#: lower-cased -> schemes. Other types (``publisher-id``, ...) are not identifiers we model.
ID_TYPE_SCHEMES: Final = {
    "doi": Scheme.DOI,
    "arxiv": Scheme.ARXIV,
    "pmid": Scheme.PMID,
    "pmcid": Scheme.PMCID,
}

# ``<!ENTITY`` in the bytes, in the encodings a document may start in (UTF-8/ASCII-compatible
# and both UTF-16 byte orders). Checked before parsing so a hostile document costs nothing.
_ENTITY_MARKERS = (
    b"<!ENTITY",
    "<!ENTITY".encode("utf-16-le"),
    "<!ENTITY".encode("utf-16-be"),
)


def safe_parser() -> etree.XMLParser:
    """A new lxml parser that resolves no entities, loads no DTD and uses no network.

    A new parser per document: lxml parsers keep state and are not meant to be shared across
    threads.
    """
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=False,
    )


def safe_xml(body: bytes, *, source: str) -> etree._Element:
    """Parse ``body`` as XML safely and return the root element.

    Args:
        body: The raw document bytes.
        source: Who produced it ("arxiv", a file name), for error messages.

    Raises:
        UnsafeXMLError: the document declares entities (billion laughs, XXE).
        ParseError: the bytes are empty or not well-formed XML.

    >>> safe_xml(b"<feed><title>0</title></feed>", source="arxiv").findtext("title")
    '0'
    >>> safe_xml(b'<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>', source="test")
    Traceback (most recent call last):
    ...
    citeledger.errors.UnsafeXMLError: test: XML declaring entities is refused (<!ENTITY found)
    """
    if not body or not body.strip():
        raise ParseError(f"{source}: empty XML document")
    if any(marker in body for marker in _ENTITY_MARKERS):
        raise UnsafeXMLError(f"{source}: XML declaring entities is refused (<!ENTITY found)")
    try:
        root = etree.fromstring(body, parser=safe_parser())
    except etree.XMLSyntaxError as exc:
        raise ParseError(f"{source}: not well-formed XML: {exc}") from exc
    if root is None:  # lxml returns None for some recoverable empty inputs
        raise ParseError(f"{source}: empty XML document")
    # Belt and braces: an encoding the byte scan does not cover (UTF-32, EBCDIC) could still
    # hide a declaration; the parsed internal subset cannot.
    dtd: etree.DTD | None = root.getroottree().docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):  # type: ignore[attr-defined]
        raise UnsafeXMLError(f"{source}: XML declaring entities is refused")
    return root


# --------------------------------------------------------------------------- reading helpers
# Shared by the JATS and TEI readers: namespace-blind element access, flattened text, and the
# identifiers a document asserts (a bad one kept as a malformed fragment, never dropped).


def local_name(el: etree._Element) -> str:
    """The element's name without namespace ("" for comments and processing instructions)."""
    tag = el.tag
    if not isinstance(tag, str):
        return ""
    return tag.rpartition("}")[2]


def has_ancestor(el: etree._Element, name: str) -> bool:
    """Whether an element above ``el`` is named ``name`` (any namespace)."""
    parent = el.getparent()
    while parent is not None:
        if local_name(parent) == name:
            return True
        parent = parent.getparent()
    return False


def kids(el: etree._Element, *names: str) -> Iterator[etree._Element]:
    """Child elements with one of ``names`` (any namespace), in order."""
    for child in el:
        if local_name(child) in names:
            yield child


def kid(el: etree._Element | None, *names: str) -> etree._Element | None:
    if el is None:
        return None
    return next(kids(el, *names), None)


def descendants(el: etree._Element, *names: str) -> Iterator[etree._Element]:
    for child in el.iter():
        if child is not el and local_name(child) in names:
            yield child


def flat_text(el: etree._Element | None) -> str | None:
    """The element's text with whitespace collapsed and a space between adjacent elements.

    ``<surname>Albert</surname><given-names>DM</given-names>`` reads "Albert DM", while
    ``<fpage>339</fpage>–<lpage>349</lpage>`` stays "339–349".
    """
    if el is None:
        return None
    pieces: list[str] = []

    def add(text: str | None, *, boundary: bool) -> None:
        if not text:
            return
        if boundary and pieces and pieces[-1][-1:].isalnum() and text[:1].isalnum():
            pieces.append(" ")
        pieces.append(text)

    def walk(node: etree._Element) -> None:
        add(node.text, boundary=True)
        for child in node:
            if isinstance(child.tag, str):
                walk(child)
            add(child.tail, boundary=False)

    walk(el)
    text = " ".join("".join(pieces).split())
    return text or None


def asserted_id(value: str | None, scheme: Scheme | str) -> Identifier | MalformedFragment | None:
    """Parse an identifier a document asserts; a bad one becomes a malformed fragment."""
    text = (value or "").strip()
    if not text:
        return None
    sch = Scheme(scheme)
    try:
        return parse_identifier(text, sch)
    except InvalidIdentifier as exc:
        return MalformedFragment(text=text, scheme=sch, reason=exc.reason, start=0, end=len(text))


def split_ids(
    found: Iterable[Identifier | MalformedFragment | None],
) -> tuple[list[Identifier], list[MalformedFragment]]:
    ids: list[Identifier] = []
    bad: list[MalformedFragment] = []
    for item in found:
        if isinstance(item, MalformedFragment):
            bad.append(item)
        elif item is not None and item not in ids:
            ids.append(item)
    return ids, bad


def typed_ids(
    elements: Iterable[etree._Element], attribute: str, schemes: Mapping[str, Scheme]
) -> tuple[list[Identifier], list[MalformedFragment]]:
    """The identifiers ``elements`` assert, each of the scheme its ``attribute`` names.

    The type is looked up lower-cased in ``schemes``; an element of another type is skipped, and
    a bad value becomes a malformed fragment (:func:`asserted_id`).
    """
    return split_ids(
        asserted_id(flat_text(el), schemes[t])
        for el in elements
        if (t := (el.get(attribute) or "").lower()) in schemes
    )
