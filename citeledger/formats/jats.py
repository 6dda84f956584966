"""Reference lists and article metadata from JATS XML (PubMed Central ``.nxml`` and publishers).

JATS writes a reference either as an ``<element-citation>`` (structured fields, no punctuation)
or as a ``<mixed-citation>`` (the printed string with its fields tagged inline); both may sit
together in a ``<citation-alternatives>``. :func:`parse_jats_references` turns every ``<ref>`` of
the document's reference lists into :class:`~citeledger.model.Reference` values in document
order, ``position`` 1, 2, 3..., ``key`` the ``<ref id>``; a mixed citation also gives ``raw``,
the printed string. :func:`parse_jats_paper` reads the article's own metadata.

All XML goes through :func:`~citeledger.formats._xml.safe_xml`: entity declarations are refused
and the DTD that PMC files name (``JATS-archivearticle1.dtd``) is never loaded.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from citeledger.formats import _xml
from citeledger.formats._xml import descendants, flat_text, has_ancestor, kid, kids, local_name
from citeledger.identifiers import Scheme
from citeledger.model import Author, Paper, Reference, WorkType

if TYPE_CHECKING:
    from lxml import etree

__all__ = ["parse_jats_paper", "parse_jats_references"]

_CITATIONS: Final = ("element-citation", "mixed-citation", "nlm-citation", "citation")
# JATS pub-id-type -> citeledger scheme: the shared table, and PMC writes "pmc" too (others, e.g.
# "publisher-id", are kept in ``extra``).
_PUB_ID_SCHEMES: Final = {**_xml.ID_TYPE_SCHEMES, "pmc": Scheme.PMCID}
_ORCID_RE: Final = re.compile(r"(\d{4}-\d{4}-\d{4}-\d{3}[\dX])")


# --------------------------------------------------------------------------- references


def _name(el: etree._Element) -> Author | None:
    local = local_name(el)
    if local == "collab":
        raw = flat_text(el)
        return Author(raw=raw) if raw else None
    family = flat_text(kid(el, "surname"))
    given = flat_text(kid(el, "given-names"))
    if family or given:
        return Author(family=family, given=given)
    # <string-name>Smith J</string-name> without inner tags
    raw = flat_text(el)
    return Author.from_string(raw) if raw else None


def _authors(cit: etree._Element) -> tuple[list[Author], bool]:
    """Authors of a citation (person-group of type author, or bare names) and "et al."."""
    groups = [
        g for g in kids(cit, "person-group") if g.get("person-group-type") in (None, "author")
    ]
    holders = groups or [cit]
    authors: list[Author] = []
    etal = False
    for holder in holders:
        for el in holder:
            local = local_name(el)
            if local in ("name", "string-name", "collab"):
                author = _name(el)
                if author is not None:
                    authors.append(author)
            elif local == "etal":
                etal = True
    return authors, etal


def _reference(
    group: list[etree._Element], *, position: int, key: str | None, label: str | None
) -> Reference:
    structured = next(
        (c for c in group if local_name(c) in ("element-citation", "nlm-citation")), group[0]
    )
    mixed = next((c for c in group if local_name(c) in ("mixed-citation", "citation")), None)
    authors, etal = _authors(structured)
    article_title = flat_text(kid(structured, "article-title"))
    chapter_title = flat_text(kid(structured, "chapter-title"))
    source = flat_text(kid(structured, "source"))
    if article_title or chapter_title:
        title, venue = article_title or chapter_title, source
    else:
        # A book or report: <source> is the cited work's own title.
        title, venue = source, None
    ids, bad = _xml.typed_ids(descendants(structured, "pub-id"), "pub-id-type", _PUB_ID_SCHEMES)
    extra: list[tuple[str, str]] = []
    if label:
        extra.append(("label", label))
    pub_type = structured.get("publication-type") or structured.get("citation-type")
    if pub_type:
        extra.append(("publication_type", pub_type))
    if etal:
        extra.append(("etal", "true"))
    for tag in ("publisher-name", "publisher-loc", "edition", "comment", "conf-name"):
        value = flat_text(kid(structured, tag))
        if value:
            extra.append((tag, value))
    first = flat_text(kid(structured, "fpage")) or flat_text(kid(structured, "elocation-id"))
    return Reference(
        position=position,
        raw=flat_text(mixed) if mixed is not None else None,
        key=key,
        title=title,
        authors=authors,
        year=flat_text(kid(structured, "year")),
        venue=venue,
        volume=flat_text(kid(structured, "volume")),
        issue=flat_text(kid(structured, "issue")),
        first_page=first,
        last_page=flat_text(kid(structured, "lpage")),
        identifiers=ids,
        malformed=bad,
        extra=extra,
    )


def parse_jats_references(body: bytes) -> list[Reference]:
    """Every reference of a JATS document's reference lists, in document order.

    Each ``<ref>`` gives one reference per citation it holds (a ``<citation-alternatives>``
    counts once: fields from its structured citation, ``raw`` from its mixed one). A citation
    wrapped in another element (``<note><p><mixed-citation>``) is found too. A ``<ref>`` with
    no citation at all (only a ``<note>``, or empty) is not dropped: it keeps its position as
    a reference holding its text as ``raw`` and the reason in ``unreadable``, so
    the positions after it stay right and the ledger counts it.

    >>> refs = parse_jats_references(
    ...     b"<article><back><ref-list><ref id='R1'><label>1</label>"
    ...     b"<mixed-citation publication-type='journal'><person-group><name>"
    ...     b"<surname>Albert</surname><given-names>DM</given-names></name></person-group> "
    ...     b"<year>1991</year> <article-title>Bears</article-title>. "
    ...     b"<source>Wildl Soc Bull</source>. "
    ...     b"<volume>19</volume>:<fpage>339</fpage>-<lpage>349</lpage>.</mixed-citation>"
    ...     b"</ref></ref-list></back></article>"
    ... )
    >>> r = refs[0]
    >>> r.position, r.key, r.title, r.venue, r.year, r.first_page, r.authors[0].family
    (1, 'R1', 'Bears', 'Wildl Soc Bull', 1991, '339', 'Albert')

    Raises:
        ParseError: not well-formed XML.
        UnsafeXMLError: the document declares entities.
    """
    root = _xml.safe_xml(body, source="jats")
    out: list[Reference] = []
    for ref in (
        el for el in root.iter() if local_name(el) == "ref" and has_ancestor(el, "ref-list")
    ):
        key = ref.get("id")
        label = flat_text(kid(ref, "label"))
        groups = _citation_groups(ref, nested=False) or _citation_groups(ref, nested=True)
        for group in groups:
            out.append(_reference(group, position=len(out) + 1, key=key, label=label))
        if not groups:
            out.append(_unreadable_ref(ref, position=len(out) + 1, key=key, label=label))
    return out


def _citation_groups(el: etree._Element, *, nested: bool) -> list[list[etree._Element]]:
    """The citations of ``el``'s children (and, if ``nested``, of their descendants)."""
    groups: list[list[etree._Element]] = []
    for child in el:
        local = local_name(child)
        if local == "citation-alternatives":
            alts = [c for c in child if local_name(c) in _CITATIONS]
            if alts:
                groups.append(alts)
        elif local in _CITATIONS:
            groups.append([child])
        elif nested and local and local != "label":
            groups += _citation_groups(child, nested=True)
    return groups


def _unreadable_ref(
    ref: etree._Element, *, position: int, key: str | None, label: str | None
) -> Reference:
    """A ``<ref>`` holding no citation, kept at its position with its text and the reason."""
    parts = [ref.text or ""]
    parts += [f"{flat_text(c) or ''} {c.tail or ''}" for c in ref if local_name(c) != "label"]
    text = " ".join(" ".join(parts).split()) or None
    shown = f" id={key!r}" if key else ""
    return Reference(
        position=position,
        raw=text,
        key=key,
        unreadable=f"jats: <ref{shown}> holds no citation element",
        extra=[("label", label)] if label else (),
    )


# --------------------------------------------------------------------------- paper metadata


def _orcid(contrib: etree._Element) -> str | None:
    for cid in kids(contrib, "contrib-id"):
        if (cid.get("contrib-id-type") or "").lower() == "orcid":
            m = _ORCID_RE.search(flat_text(cid) or "")
            if m:
                return m.group(1)
    return None


def parse_jats_paper(body: bytes) -> Paper | None:
    """The article's own metadata (``front/article-meta``), or None when there is none.

    >>> p = parse_jats_paper(
    ...     b"<article><front><article-meta><article-id pub-id-type='doi'>10.1093/beheco/ary157"
    ...     b"</article-id><title-group><article-title>Counting crows</article-title>"
    ...     b"</title-group></article-meta></front></article>"
    ... )
    >>> p.title, [str(i) for i in p.identifiers]
    ('Counting crows', ['doi:10.1093/beheco/ary157'])

    Raises:
        ParseError: not well-formed XML.
        UnsafeXMLError: the document declares entities.
    """
    root = _xml.safe_xml(body, source="jats")
    front = kid(root, "front")
    meta = kid(front, "article-meta")
    if meta is None:
        return None
    ids, _ = _xml.typed_ids(kids(meta, "article-id"), "pub-id-type", _PUB_ID_SCHEMES)
    authors: list[Author] = []
    for group in kids(meta, "contrib-group"):
        for contrib in kids(group, "contrib"):
            if contrib.get("contrib-type") not in (None, "author"):
                continue
            name = kid(contrib, "name", "string-name", "collab")
            author = _name(name) if name is not None else None
            if author is not None:
                orcid = _orcid(contrib)
                authors.append(
                    Author(family=author.family, given=author.given, raw=author.raw, orcid=orcid)
                )
    year: str | None = None
    for date in kids(meta, "pub-date"):
        year = flat_text(kid(date, "year"))
        if year:
            break
    journal_meta = kid(front, "journal-meta")
    venue = flat_text(kid(kid(journal_meta, "journal-title-group"), "journal-title")) or flat_text(
        kid(journal_meta, "journal-title")
    )
    fpage = flat_text(kid(meta, "fpage")) or flat_text(kid(meta, "elocation-id"))
    lpage = flat_text(kid(meta, "lpage"))
    categories = kid(meta, "article-categories")
    subjects = [
        s
        for group in kids(categories if categories is not None else meta, "subj-group")
        for el in kids(group, "subject")
        if (s := flat_text(el))
    ]
    return Paper(
        identifiers=ids,
        title=flat_text(kid(kid(meta, "title-group"), "article-title")),
        authors=authors,
        year=year,
        venue=venue,
        volume=flat_text(kid(meta, "volume")),
        issue=flat_text(kid(meta, "issue")),
        pages=f"{fpage}-{lpage}" if fpage and lpage else fpage,
        work_type=WorkType.ARTICLE,
        areas=subjects,
        abstract=flat_text(kid(meta, "abstract")),
        source="jats",
    )
