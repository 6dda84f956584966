"""BibTeX, RIS and CSL-JSON for papers: a record's citing papers, a reference list's targets.

Pure functions from :class:`~citeledger.Paper` values to text; nothing is fetched. The three
formats are the ones reference managers import (habanero offers the same three by Crossref
content negotiation)::

    import citeledger as cl
    from citeledger import exports

    record = cl.build_record(...)
    bib = exports.to_bibtex(w.paper for w in record.ranked_citing())
    ris = exports.to_ris(exports.resolved_papers(resolver.resolve_many(refs)))

Only what a paper says is written: no field is invented, a missing year stays missing. Text is
kept as Unicode (biber, BibTeX with ``inputenc``, Zotero and CSL processors read UTF-8).

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import TYPE_CHECKING, Any

from citeledger.identifiers import Scheme
from citeledger.model import Paper, WorkType

if TYPE_CHECKING:
    from collections.abc import Iterable

    from citeledger.model import Author, Resolution

__all__ = [
    "FORMATS",
    "bibtex_entry",
    "bibtex_escape",
    "csl_item",
    "export",
    "resolved_papers",
    "ris_record",
    "to_bibtex",
    "to_csl_json",
    "to_ris",
]

#: The export formats :func:`export` knows.
FORMATS = ("bibtex", "ris", "csl-json")

# The ten characters special to (La)TeX in a BibTeX value, and how to write each literally.
_BIBTEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "%": r"\%",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_BIBTEX_RE = re.compile("[" + re.escape("".join(_BIBTEX_SPECIAL)) + "]")
_SPACE_RE = re.compile(r"\s+")
# RIS is line-oriented ("TY  - JOUR"): a value must stay on one line and hold no control
# characters (RIS format specification, Research Information Systems 2011, "Tags").
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")

_BIBTEX_TYPES = {
    WorkType.ARTICLE: "article",
    WorkType.PROCEEDINGS_ARTICLE: "inproceedings",
    WorkType.BOOK: "book",
    WorkType.CHAPTER: "incollection",
    WorkType.THESIS: "phdthesis",
    WorkType.REPORT: "techreport",
}
# Which BibTeX field names the venue of each entry type (BibTeX's standard styles).
_BIBTEX_VENUE = {
    "article": "journal",
    "inproceedings": "booktitle",
    "incollection": "booktitle",
    "phdthesis": "school",
    "techreport": "institution",
    "book": "publisher",
}
# RIS reference types (RIS specification's type list); preprints are unpublished work.
_RIS_TYPES = {
    WorkType.ARTICLE: "JOUR",
    WorkType.PREPRINT: "UNPB",
    WorkType.PROCEEDINGS_ARTICLE: "CPAPER",
    WorkType.BOOK: "BOOK",
    WorkType.CHAPTER: "CHAP",
    WorkType.DATASET: "DATA",
    WorkType.THESIS: "THES",
    WorkType.REPORT: "RPRT",
    WorkType.SOFTWARE: "COMP",
}
# CSL 1.0.2 item types; "article" is CSL's type for preprints and other unpublished articles.
_CSL_TYPES = {
    WorkType.ARTICLE: "article-journal",
    WorkType.PREPRINT: "article",
    WorkType.PROCEEDINGS_ARTICLE: "paper-conference",
    WorkType.BOOK: "book",
    WorkType.CHAPTER: "chapter",
    WorkType.DATASET: "dataset",
    WorkType.THESIS: "thesis",
    WorkType.REPORT: "report",
    WorkType.SOFTWARE: "software",
}


def _one_line(text: str) -> str:
    return _SPACE_RE.sub(" ", _CONTROL_RE.sub(" ", text)).strip()


def bibtex_escape(text: str) -> str:
    r"""Escape ``text`` for a braced BibTeX value: TeX's special characters become literals.

    >>> print(bibtex_escape("Profits & losses: 50% of {R&D} in C#_2 ~ $x^2$"))
    Profits \& losses: 50\% of \{R\&D\} in C\#\_2 \textasciitilde{} \$x\textasciicircum{}2\$
    >>> print(bibtex_escape("back\\slash"))
    back\textbackslash{}slash
    """
    return _BIBTEX_RE.sub(lambda m: _BIBTEX_SPECIAL[m.group()], _one_line(text))


def _ascii_word(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]", "", folded)


_STOP = frozenset({"a", "an", "the", "on", "of", "in", "for", "and", "to", "with"})


def _key_base(paper: Paper) -> str:
    first = paper.authors[0] if paper.authors else None
    name = _ascii_word((first.family or first.raw or "") if first else "").lower()
    words = [w for w in (_ascii_word(t).lower() for t in (paper.title or "").split()) if w]
    word = next((w for w in words if w not in _STOP), words[0] if words else "")
    year = str(paper.year) if paper.year is not None else ""
    return (name + year + word) or "untitled"


def _bib_name(author: Author) -> str:
    if author.family:
        family = bibtex_escape(author.family)
        # "and" separates names in BibTeX; a family name with a space or an "and" in it is
        # braced so it stays one name ("{van der Berg}" sorts under v, as written).
        if " " in family:
            family = "{" + family + "}"
        return f"{family}, {bibtex_escape(author.given)}" if author.given else family
    # An organisation or an unsplit name: braced, so BibTeX does not split it.
    return "{" + bibtex_escape(author.raw or "") + "}"


def _ident(paper: Paper, scheme: Scheme) -> str | None:
    ident = paper.identifier(scheme)
    return ident.value if ident is not None else None


def _pages(paper: Paper) -> tuple[str | None, str | None]:
    if not paper.pages:
        return None, None
    parts = re.split(r"\s*[-–—]+\s*", paper.pages, maxsplit=1)
    first = parts[0] or None
    last = parts[1] if len(parts) > 1 and parts[1] else None
    return first, last


def bibtex_entry(paper: Paper, *, key: str | None = None) -> str:
    r"""One BibTeX entry for ``paper`` (the key from first author, year and title by default).

    Titles are double-braced so BibTeX styles keep their capitals ("GPU", "ZeRO").

    >>> p = Paper(
    ...     title="ZeRO & friends: 100% of {GPU} memory",
    ...     authors=["Samyam Rajbhandari", "Yuxiong He"],
    ...     year=2021,
    ...     identifiers=["arXiv:2104.07857", "doi:10.1145/3458817.3476205"],
    ...     venue="SC21",
    ...     work_type="proceedings_article",
    ... )
    >>> print(bibtex_entry(p))
    @inproceedings{rajbhandari2021zero,
      title = {{ZeRO \& friends: 100\% of \{GPU\} memory}},
      author = {Rajbhandari, Samyam and He, Yuxiong},
      year = {2021},
      booktitle = {SC21},
      doi = {10.1145/3458817.3476205},
      eprint = {2104.07857},
      archiveprefix = {arXiv},
    }
    """
    arxiv = _ident(paper, Scheme.ARXIV)
    kind = _BIBTEX_TYPES.get(paper.work_type, "misc") if paper.work_type else "misc"
    fields: list[tuple[str, str]] = []
    if paper.title:
        fields.append(("title", "{" + bibtex_escape(paper.title) + "}"))
    if paper.authors:
        fields.append(("author", " and ".join(_bib_name(a) for a in paper.authors)))
    if paper.year is not None:
        fields.append(("year", str(paper.year)))
    if paper.date is not None:
        fields.append(("month", str(paper.date.month)))
    if paper.venue:
        fields.append((_BIBTEX_VENUE.get(kind, "howpublished"), bibtex_escape(paper.venue)))
    for name, value in (("volume", paper.volume), ("number", paper.issue)):
        if value:
            fields.append((name, bibtex_escape(value)))
    if paper.pages:
        first, last = _pages(paper)
        fields.append(("pages", bibtex_escape(f"{first}--{last}" if last else str(first))))
    doi = _ident(paper, Scheme.DOI)
    if doi:
        fields.append(("doi", bibtex_escape(doi)))
    if arxiv:
        fields += [("eprint", bibtex_escape(arxiv)), ("archiveprefix", "arXiv")]
    pmid = _ident(paper, Scheme.PMID)
    if pmid:
        fields.append(("pmid", pmid))
    body = "".join(f"  {name} = {{{value}}},\n" for name, value in fields)
    return f"@{kind}{{{key or _key_base(paper)},\n{body}}}"


def _unique_keys(papers: Iterable[Paper]) -> list[tuple[str, Paper]]:
    seen: dict[str, int] = {}
    out = []
    for paper in papers:
        base = _key_base(paper)
        n = seen.get(base, 0)
        seen[base] = n + 1
        # The second "smith2020deep" becomes "smith2020deepb", as BibTeX users write it.
        key = base if n == 0 else base + _suffix(n)
        out.append((key, paper))
    return out


def _suffix(n: int) -> str:
    letters = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(ord("a") + r) + letters
    return letters


def to_bibtex(papers: Iterable[Paper]) -> str:
    r"""A BibTeX file of ``papers``, keys made unique ("he2021zero", "he2021zerob").

    >>> p = Paper(title="Zero", authors=["Yuxiong He"], year=2021)
    >>> print(to_bibtex([p, p]))
    @misc{he2021zero,
      title = {{Zero}},
      author = {He, Yuxiong},
      year = {2021},
    }
    <BLANKLINE>
    @misc{he2021zerob,
      title = {{Zero}},
      author = {He, Yuxiong},
      year = {2021},
    }
    <BLANKLINE>
    """
    return "\n".join(bibtex_entry(p, key=k) + "\n" for k, p in _unique_keys(papers))


def _ris_value(text: str) -> str:
    return _one_line(text)


def ris_record(paper: Paper) -> str:
    r"""One RIS record for ``paper``, ``TY`` first and ``ER`` last, each value on one line.

    >>> p = Paper(
    ...     title="A title\nbroken over lines",
    ...     authors=["Jeff Rasley"],
    ...     year=2020,
    ...     venue="KDD",
    ...     pages="3505-3506",
    ...     work_type="proceedings_article",
    ...     identifiers=["doi:10.1145/3394486.3406703"],
    ... )
    >>> print(ris_record(p))
    TY  - CPAPER
    TI  - A title broken over lines
    AU  - Rasley, Jeff
    PY  - 2020
    T2  - KDD
    SP  - 3505
    EP  - 3506
    DO  - 10.1145/3394486.3406703
    ER  -
    """
    kind = _RIS_TYPES.get(paper.work_type, "GEN") if paper.work_type else "GEN"
    lines = [("TY", kind)]
    if paper.title:
        lines.append(("TI", paper.title))
    for a in paper.authors:
        name = f"{a.family}, {a.given}" if a.family and a.given else (a.family or a.raw or "")
        if name:
            lines.append(("AU", name))
    if paper.year is not None:
        lines.append(("PY", str(paper.year)))
    if paper.date is not None:
        lines.append(("DA", paper.date.strftime("%Y/%m/%d")))
    if paper.venue:
        lines.append(("T2", paper.venue))
    if paper.volume:
        lines.append(("VL", paper.volume))
    if paper.issue:
        lines.append(("IS", paper.issue))
    first, last = _pages(paper)
    if first:
        lines.append(("SP", first))
    if last:
        lines.append(("EP", last))
    doi = _ident(paper, Scheme.DOI)
    if doi:
        lines.append(("DO", doi))
    arxiv = _ident(paper, Scheme.ARXIV)
    if arxiv:
        lines.append(("UR", f"https://arxiv.org/abs/{arxiv}"))
    pmid = _ident(paper, Scheme.PMID)
    if pmid:
        lines.append(("AN", f"PMID:{pmid}"))
    lines += [("KW", area) for area in paper.areas]
    out = [f"{tag}  - {_ris_value(value)}" for tag, value in lines]
    out.append("ER  -")
    return "\n".join(out)


def to_ris(papers: Iterable[Paper]) -> str:
    """A RIS file of ``papers`` (records separated by a blank line).

    >>> print(to_ris([Paper(title="One"), Paper(title="Two")]))
    TY  - GEN
    TI  - One
    ER  -
    <BLANKLINE>
    TY  - GEN
    TI  - Two
    ER  -
    <BLANKLINE>
    """
    return "\n".join(ris_record(p) + "\n" for p in papers)


def csl_item(paper: Paper, *, item_id: str | None = None) -> dict[str, Any]:
    """One CSL-JSON item (CSL 1.0.2 variables) for ``paper``.

    >>> item = csl_item(
    ...     Paper(
    ...         title="ZeRO",
    ...         authors=["Samyam Rajbhandari"],
    ...         year=2019,
    ...         identifiers=["arXiv:1910.02054"],
    ...         work_type="preprint",
    ...     )
    ... )
    >>> item["type"], item["issued"], item["URL"]
    ('article', {'date-parts': [[2019]]}, 'https://arxiv.org/abs/1910.02054')
    >>> item["author"]
    [{'family': 'Rajbhandari', 'given': 'Samyam'}]
    """
    item: dict[str, Any] = {
        "id": item_id or _key_base(paper),
        "type": _CSL_TYPES.get(paper.work_type, "document") if paper.work_type else "document",
    }
    if paper.title:
        item["title"] = _one_line(paper.title)
    authors: list[dict[str, str]] = []
    for a in paper.authors:
        if a.family:
            authors.append({"family": a.family, **({"given": a.given} if a.given else {})})
        elif a.raw:
            authors.append({"literal": a.raw})
    if authors:
        item["author"] = authors
    if paper.date is not None:
        item["issued"] = {"date-parts": [[paper.date.year, paper.date.month, paper.date.day]]}
    elif paper.year is not None:
        item["issued"] = {"date-parts": [[paper.year]]}
    optional = (
        ("container-title", paper.venue),
        ("volume", paper.volume),
        ("issue", paper.issue),
        ("page", paper.pages),
        ("DOI", _ident(paper, Scheme.DOI)),
        ("PMID", _ident(paper, Scheme.PMID)),
        ("PMCID", _ident(paper, Scheme.PMCID)),
    )
    item.update({name: value for name, value in optional if value})
    arxiv = _ident(paper, Scheme.ARXIV)
    if arxiv:
        item["URL"] = f"https://arxiv.org/abs/{arxiv}"
        item["number"] = f"arXiv:{arxiv}"
    if paper.abstract:
        item["abstract"] = paper.abstract
    return item


def to_csl_json(papers: Iterable[Paper]) -> str:
    """A CSL-JSON array of ``papers`` (ids made unique as in :func:`to_bibtex`).

    >>> one = Paper(title="One", year=2020)
    >>> items = json.loads(to_csl_json([one, one]))
    >>> [item["id"] for item in items]
    ['2020one', '2020oneb']
    >>> items[0]
    {'id': '2020one', 'type': 'document', 'title': 'One', 'issued': {'date-parts': [[2020]]}}
    """
    items = [csl_item(p, item_id=k) for k, p in _unique_keys(papers)]
    return json.dumps(items, ensure_ascii=False, indent=2) + "\n"


def resolved_papers(results: Iterable[Resolution]) -> list[Paper]:
    """The works a reference list resolved to: verified targets only, in order, each once.

    A mismatch's target (the work an identifier points to, not the cited work) and unresolved
    references are left out: an export names only works the resolver backs.
    """
    out: list[Paper] = []
    for res in results:
        if res.verified and res.target is not None and res.target not in out:
            out.append(res.target)
    return out


def export(papers: Iterable[Paper], fmt: str) -> str:
    """``papers`` as "bibtex", "ris" or "csl-json" text.

    Raises:
        ValueError: an unknown format.
    """
    items = list(papers)
    if fmt == "bibtex":
        return to_bibtex(items)
    if fmt == "ris":
        return to_ris(items)
    if fmt == "csl-json":
        return to_csl_json(items)
    raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
