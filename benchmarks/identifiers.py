"""Identifier detection + normalisation: citeledger vs idutils on ../shared/data.

Usage::

    pip install -e '.[bench]'
    python benchmarks/identifiers.py [--repeat 5] [--show 15]

Corpus (every DOI and arXiv id as it appears in ../shared/data):

* id fields: Crossref ``DOI`` keys, OpenAlex ``ids.doi`` URLs, Semantic Scholar ``externalIds``
  DOI/ArXiv, arXiv Atom ``<id>`` URLs and ``<arxiv:doi>``, JATS/TEI DOI elements, and the
  DOI / gold-DOI fields and fatcat ``ext_ids`` of the matching-dev files;
* reference strings: every matching-dev reference string that mentions ``10.``, ``doi`` or
  ``arxiv``.

citeledger runs ``parse_identifier`` on fields and ``find_identifiers`` on strings. idutils has
no free-text extractor, so on strings it runs ``detect_identifier_schemes`` +
``normalize_pid`` over whitespace tokens (the closest like-for-like). Identifiers per second
counts the identifiers each library returned. Prints markdown tables.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lxml import etree

from citeledger.errors import InvalidIdentifier
from citeledger.identifiers import ArxivId, find_identifiers, parse_identifier

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _walk(obj: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield key, value
            yield from _walk(value)
    elif isinstance(obj, list):
        for item in obj:
            yield from _walk(item)


def id_fields() -> list[str]:
    out: list[str] = []
    sources = SHARED / "sources"
    for path in sorted(sources.rglob("*.json")):
        for key, value in _walk(json.loads(path.read_text(encoding="utf-8"))):
            if key in {"DOI", "doi"} and isinstance(value, str):
                out.append(value)
            elif key == "externalIds" and isinstance(value, dict):
                out.extend(str(value[k]) for k in ("DOI", "ArXiv") if value.get(k))
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    for path in sorted(sources.rglob("*.xml")):
        for el in etree.parse(str(path), parser).iter():
            if not isinstance(el.tag, str) or not el.text:
                continue
            tag = etree.QName(el).localname
            kind = el.get("pub-id-type") or el.get("type") or ""
            if (tag == "id" and "/abs/" in el.text) or tag == "doi" or kind.lower() == "doi":
                out.append(el.text.strip())
    for path in sorted((SHARED / "matching-dev" / "normalized").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            for key, value in _walk(json.loads(line)):
                if key in {"DOI", "gt", "doi", "arxiv"} and isinstance(value, str) and value:
                    out.append(value)
    return out


def reference_strings() -> list[str]:
    out = []
    for path in sorted((SHARED / "matching-dev" / "normalized").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            left = json.loads(line).get("left")
            if not isinstance(left, dict):
                continue
            text = left.get("ref_string") or left.get("reference")
            if isinstance(text, dict):
                text = text.get("unstructured")
            if isinstance(text, str):
                low = text.lower()
                if "10." in low or "doi" in low or "arxiv" in low:
                    out.append(text)
    return out


# -- the two contenders ----------------------------------------------------------------------


def ours_field(text: str) -> list[tuple[str, str]]:
    try:
        x = parse_identifier(text)
    except InvalidIdentifier:
        return []
    return [(x.scheme.value, x.value)]


def ours_string(text: str) -> list[tuple[str, str]]:
    return [(x.scheme.value, x.value) for x in find_identifiers(text).identifiers]


def _idutils_one(token: str) -> list[tuple[str, str]]:
    import idutils  # noqa: PLC0415 - optional bench dependency

    for scheme in idutils.detect_identifier_schemes(token):
        if scheme in {"doi", "arxiv"}:
            return [(scheme, idutils.normalize_pid(token, scheme))]
    return []


def idutils_field(text: str) -> list[tuple[str, str]]:
    return _idutils_one(text.strip())


def idutils_string(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for token in text.split():
        for found in _idutils_one(token):
            if found not in out:
                out.append(found)
    return out


def _time(
    fn: Callable[[str], list[tuple[str, str]]], corpus: list[str], repeat: int
) -> tuple[float, int]:
    best = float("inf")
    count = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        count = sum(len(fn(text)) for text in corpus)
        best = min(best, time.perf_counter() - t0)
    return best, count


def _key(scheme: str, value: str) -> str:
    """Compare like for like: DOIs case-insensitively, arXiv without idutils' 'arXiv:' prefix."""
    if scheme == "arxiv":
        return "arxiv:" + value.removeprefix("arXiv:").lower()
    return f"{scheme}:{value.lower()}"


def classify(text: str, ours: set[str], theirs: set[str]) -> str:
    """A first classification of a disagreement; docs/identifiers.md reviews each class."""
    if ours and not theirs:
        low = text.lower()
        if "arxiv.org" in low:
            return "arXiv URL: idutils detects only 'url'"
        if "\n" in text:
            return "DOI broken across a PDF line: idutils sees two tokens"
        if "doi:" in low and "10." in low:
            return "'doi:10...' glued to text: idutils needs a clean token"
        return "only citeledger finds an id"
    if theirs and not ours:
        if any("arxiv" in t for t in theirs):
            return "idutils takes a non-arXiv token for an arXiv id"
        return "idutils accepts what citeledger rejects (malformed DOI)"
    if any(t.startswith("arxiv:") for t in ours ^ theirs):
        return "arXiv: different value"
    return "DOI: different value (punctuation / trailing text)"


def compare(
    corpus: list[str],
    fa: Callable[[str], list[tuple[str, str]]],
    fb: Callable[[str], list[tuple[str, str]]],
) -> Counter[str]:
    classes: Counter[str] = Counter()
    examples: dict[str, list[tuple[str, set[str], set[str]]]] = {}
    for text in corpus:
        a = {_key(s, v) for s, v in fa(text)}
        b = {_key(s, v) for s, v in fb(text)}
        # arXiv DataCite DOIs: idutils says doi, we say doi too; compare values only
        if a != b:
            c = classify(text, a - b, b - a)
            classes[c] += 1
            examples.setdefault(c, []).append((text, a - b, b - a))
    compare.examples = examples  # type: ignore[attr-defined]
    return classes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--show", type=int, default=3, help="examples per disagreement class")
    args = ap.parse_args()
    if not SHARED.is_dir():
        print(f"{SHARED} not found: the benchmark needs ../shared/data", file=sys.stderr)
        return 2
    try:
        import idutils  # noqa: F401, PLC0415
    except ImportError:
        print("pip install idutils (the 'bench' extra) first", file=sys.stderr)
        return 2

    fields, strings = id_fields(), reference_strings()
    print(f"corpus: {len(fields)} id fields, {len(strings)} reference strings\n")
    print("| corpus | library | identifiers found | seconds | identifiers / s | speed-up |")
    print("|---|---|---:|---:|---:|---:|")
    for name, corpus, ours, theirs in (
        ("id fields", fields, ours_field, idutils_field),
        ("reference strings", strings, ours_string, idutils_string),
    ):
        t_ours, n_ours = _time(ours, corpus, args.repeat)
        t_theirs, n_theirs = _time(theirs, corpus, args.repeat)
        # identifiers per second: each library's own count over its own time
        r_ours, r_theirs = n_ours / t_ours, n_theirs / t_theirs
        print(
            f"| {name} | citeledger | {n_ours} | {t_ours:.3f} | {r_ours:,.0f} | {r_ours / r_theirs:.1f}x |"
        )
        print(f"| {name} | idutils | {n_theirs} | {t_theirs:.3f} | {r_theirs:,.0f} | 1.0x |")
        # items per second is the fairer figure when counts differ
        print(
            f"| {name} | (items/s: citeledger {len(corpus) / t_ours:,.0f}, "
            f"idutils {len(corpus) / t_theirs:,.0f}) | | | | {t_theirs / t_ours:.1f}x |"
        )
    for name, corpus, ours, theirs in (
        ("id fields", fields, ours_field, idutils_field),
        ("reference strings", strings, ours_string, idutils_string),
    ):
        classes = compare(corpus, ours, theirs)
        print(f"\n### Disagreements on {name}: {sum(classes.values())} of {len(corpus)}\n")
        print("| class | count |")
        print("|---|---:|")
        for c, n in classes.most_common():
            print(f"| {c} | {n} |")
        for c, items in compare.examples.items():  # type: ignore[attr-defined]
            print(f"\n{c}:")
            for text, a, b in items[: args.show]:
                shown = text if len(text) <= 110 else "..." + text[-107:]
                print(
                    f"  - {shown!r}\n      citeledger only: {sorted(a)}  idutils only: {sorted(b)}"
                )
    print(f"\n(arXiv ids are compared without idutils' 'arXiv:' prefix; {ArxivId.__name__} values)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
