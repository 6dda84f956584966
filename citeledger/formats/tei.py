"""Reference lists and paper metadata from GROBID TEI XML.

GROBID writes the bibliography of a PDF as ``<listBibl>`` of ``<biblStruct xml:id="b0">``: an
``<analytic>`` part (the cited article: title, authors) when the work is part of a larger one, a
``<monogr>`` part (journal, proceedings or book: title, ``<imprint>`` with date, volume, pages,
publisher), ``<idno>`` identifiers when it found any, and the reference string it parsed as
``<note type="raw_reference">``. :func:`parse_tei_references` returns them as
:class:`~citeledger.model.Reference` values in order (``position`` 1, 2, 3..., ``key`` the
``xml:id``, ``raw`` the raw reference). :func:`parse_tei_paper` reads the header.

All XML goes through :func:`~citeledger.formats._xml.safe_xml`.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

import attrs

from citeledger.formats import _xml
from citeledger.formats._xml import descendants, flat_text, has_ancestor, kid, kids, local_name
from citeledger.model import Author, Paper, Reference

if TYPE_CHECKING:
    from lxml import etree

    from citeledger.identifiers import Identifier, MalformedFragment

__all__ = ["parse_tei_paper", "parse_tei_references"]

_XML_ID: Final = "{http://www.w3.org/XML/1998/namespace}id"
_YEAR_RE: Final = re.compile(r"\d{4}")


def _person(author: etree._Element) -> Author | None:
    pers = kid(author, "persName")
    if pers is None:
        raw = flat_text(kid(author, "orgName"))
        return Author(raw=raw) if raw else None
    given = " ".join(t for f in kids(pers, "forename") if (t := flat_text(f)))
    family = flat_text(kid(pers, "surname"))
    if not (given or family):
        return None
    return Author(family=family, given=given or None)


def _authors(part: etree._Element | None) -> list[Author]:
    if part is None:
        return []
    return [a for el in kids(part, "author") if (a := _person(el)) is not None]


def _title(part: etree._Element | None) -> str | None:
    if part is None:
        return None
    titles = list(kids(part, "title"))
    main = next((t for t in titles if t.get("type") == "main"), titles[0] if titles else None)
    return flat_text(main)


def _year(imprint: etree._Element | None) -> str | None:
    if imprint is None:
        return None
    for date in kids(imprint, "date"):
        when = date.get("when") or flat_text(date) or ""
        m = _YEAR_RE.search(when)
        if m:
            return m.group(0)
    return None


def _identifiers(el: etree._Element) -> tuple[list[Identifier], list[MalformedFragment]]:
    return _xml.typed_ids(descendants(el, "idno"), "type", _xml.ID_TYPE_SCHEMES)


def _reference(bibl: etree._Element, position: int) -> Reference:
    analytic = kid(bibl, "analytic")
    monogr = kid(bibl, "monogr")
    imprint = kid(monogr, "imprint")
    title = _title(analytic)
    venue = _title(monogr)
    if title is None:
        # No analytic part: the monograph itself is the cited work.
        title, venue = venue, None
    authors = _authors(analytic) or _authors(monogr)
    scopes = {s.get("unit"): s for s in kids(imprint, "biblScope")} if imprint is not None else {}
    page = scopes.get("page")
    first = last = None
    if page is not None:
        first = page.get("from") or flat_text(page)
        last = page.get("to")
    ids, bad = _identifiers(bibl)
    extra: list[tuple[str, str]] = []
    publisher = flat_text(kid(imprint, "publisher"))
    if publisher:
        extra.append(("publisher", publisher))
    for note in kids(bibl, "note"):
        text = flat_text(note)
        if text and note.get("type") != "raw_reference":
            extra.append(("note", text))
    raw = next((flat_text(n) for n in kids(bibl, "note") if n.get("type") == "raw_reference"), None)
    return Reference(
        position=position,
        raw=raw,
        key=bibl.get(_XML_ID),
        title=title,
        authors=authors,
        year=_year(imprint),
        venue=venue,
        volume=flat_text(scopes.get("volume")),
        issue=flat_text(scopes.get("issue")),
        first_page=first,
        last_page=last,
        identifiers=ids,
        malformed=bad,
        extra=extra,
    )


def parse_tei_references(body: bytes) -> list[Reference]:
    """Every ``<biblStruct>`` of the document's ``<listBibl>``, in document order.

    A plain ``<bibl>`` entry (TEI's unstructured reference, which other tools than GROBID
    write) is not dropped: its text is parsed as a reference string at its position; an
    empty one keeps its position with the reason in ``unreadable``. Entries of a
    ``<listBibl>`` nested in another keep their place in the document.

    >>> refs = parse_tei_references(
    ...     b'<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><back><listBibl>'
    ...     b'<biblStruct xml:id="b0"><analytic><title level="a" type="main">Deep nets</title>'
    ...     b'<author><persName><forename type="first">Ada</forename><surname>Lovelace</surname>'
    ...     b'</persName></author></analytic><monogr><title level="m">NAACL</title>'
    ...     b'<imprint><date type="published" when="2018"/></imprint></monogr>'
    ...     b"</biblStruct></listBibl></back></text></TEI>"
    ... )
    >>> r = refs[0]
    >>> r.position, r.key, r.title, r.venue, r.year, r.authors[0].family
    (1, 'b0', 'Deep nets', 'NAACL', 2018, 'Lovelace')

    Raises:
        ParseError: not well-formed XML.
        UnsafeXMLError: the document declares entities.
    """
    root = _xml.safe_xml(body, source="tei")
    bibls = [
        b
        for b in root.iter()
        if local_name(b) in ("biblStruct", "bibl")
        and (parent := b.getparent()) is not None
        and local_name(parent) == "listBibl"
        and not has_ancestor(parent, "teiHeader")
    ]
    return [
        _reference(b, i) if local_name(b) == "biblStruct" else _plain(b, i)
        for i, b in enumerate(bibls, start=1)
    ]


def _plain(bibl: etree._Element, position: int) -> Reference:
    """A ``<bibl>``: its text read as a reference string (TEI leaves it unstructured)."""
    text = flat_text(bibl)
    key = bibl.get(_XML_ID)
    if text is None:
        return Reference(position=position, key=key, unreadable="tei: <bibl> holds no text")
    return attrs.evolve(Reference.from_string(text, position=position), key=key)


def parse_tei_paper(body: bytes) -> Paper | None:
    """The paper's own metadata from the ``teiHeader``, or None when there is no header.

    >>> p = parse_tei_paper(
    ...     b'<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt>'
    ...     b'<title level="a" type="main">Literature Graph</title></titleStmt>'
    ...     b"</fileDesc></teiHeader></TEI>"
    ... )
    >>> p.title
    'Literature Graph'

    Raises:
        ParseError: not well-formed XML.
        UnsafeXMLError: the document declares entities.
    """
    root = _xml.safe_xml(body, source="tei")
    header = kid(root, "teiHeader")
    if header is None:
        return None
    file_desc = kid(header, "fileDesc")
    title = _title(kid(file_desc, "titleStmt"))
    source_bibl = kid(kid(file_desc, "sourceDesc"), "biblStruct")
    authors = _authors(kid(source_bibl, "analytic")) if source_bibl is not None else []
    ids: list[Identifier] = []
    year = None
    if source_bibl is not None:
        ids, _ = _identifiers(source_bibl)
        year = _year(kid(kid(source_bibl, "monogr"), "imprint"))
    if year is None:
        year = _year(kid(file_desc, "publicationStmt"))
    abstract = flat_text(kid(kid(header, "profileDesc"), "abstract"))
    return Paper(
        identifiers=ids,
        title=title,
        authors=authors,
        year=year,
        abstract=abstract,
        source="grobid",
    )
