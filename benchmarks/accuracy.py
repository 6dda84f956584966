"""Accuracy of the resolver on the development half of ../shared/data/matching-dev.

Usage::

    python benchmarks/accuracy.py [--data PATH] [--only NAME ...] [--show N]

Prints, per dataset, precision / recall / F1 of verified states and the count of each state.
See docs/resolver.md for what each figure means and the error analysis.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import citeledger as cl
from citeledger.errors import InvalidIdentifier
from citeledger.identifiers import MalformedFragment, find_identifiers
from citeledger.model import ResolutionState, WorkType
from citeledger.resolve.journals import _table as _ltwa_table
from citeledger.resolve.normalize import STOPWORDS, normalize_title
from citeledger.resolve.scoring import title_similarity

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "matching-dev" / "normalized"


def read(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def states(results: Iterable[cl.Resolution]) -> str:
    c = Counter(r.state.value for r in results)
    return ", ".join(f"{s.value}={c.get(s.value, 0)}" for s in ResolutionState)


def prf(tp: int, fp: int, fn: int) -> str:
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return f"P={p:.4f} R={r:.4f} F1={f:.4f} (tp={tp} fp={fp} fn={fn})"


# Per-item decisions, written by ``--dump PATH`` (one JSON line per resolved item) so two runs
# can be compared answer by answer (benchmarks/accuracy_diff.py).
DUMPED: list[dict[str, Any]] = []


def _target_key(res: cl.Resolution) -> str | None:
    t = res.target
    if t is None:
        return None
    ids = _ids(t)
    return f"{ids}|{t.title}|{t.venue}|{t.volume}|{t.first_page}|{t.year}"


def _ids(paper: cl.Paper) -> str:
    return ",".join(sorted(str(i.value) for i in paper.identifiers))


def dump(
    section: str,
    keys: Iterable[str],
    results: Iterable[cl.Resolution],
    texts: Iterable[str] | None = None,
    golds: Iterable[cl.Paper] | None = None,
) -> None:
    """Remember each item's decision under ``section`` by a key stable across runs.

    ``golds``: each item's gold record, when known (its identifiers are written as ``gold``).
    """
    keys = list(keys)
    shown = keys if texts is None else list(texts)
    gold = [None] * len(keys) if golds is None else [_ids(g) for g in golds]
    for n, (k, text, g, res) in enumerate(zip(keys, shown, gold, results, strict=True)):
        DUMPED.append(
            {
                "section": section,
                "n": n,
                "key": k,
                "item": text,
                "gold": g,
                "state": res.state.value,
                "target": _target_key(res),
                "score": res.score,
            }
        )


def parser_available() -> bool:
    try:
        cl.Reference.from_string("Smith J. A title. J Test. 2000;1:1-2.")
    except ModuleNotFoundError:
        return False
    return True


# --------------------------------------------------------------------------- magellan


def magellan_paper(rec: dict[str, str]) -> cl.Paper:
    fields: dict[str, Any] = {
        "title": rec.get("title") or None,
        "authors": rec.get("authors") or None,
        "venue": rec.get("venue") or None,
        "year": rec.get("year") or None,
    }
    try:
        return cl.Paper(**fields)
    except cl.ModelError:
        # DBLP-Scholar has years such as "41.0" that name no year: the record keeps the rest.
        return cl.Paper(**{**fields, "year": None})


def magellan(path: Path, show: int) -> None:
    rows = list(read(path))
    rights: dict[str, cl.Paper] = {}
    lefts: dict[str, cl.Paper] = {}
    pos: dict[str, set[str]] = {}
    neg: dict[str, set[str]] = {}
    for row in rows:
        lk = json.dumps(row["left"], sort_keys=True)
        rk = json.dumps(row["right"], sort_keys=True)
        lefts.setdefault(lk, magellan_paper(row["left"]))
        rights.setdefault(rk, magellan_paper(row["right"]))
        (pos if row["expected"] == "1" else neg).setdefault(lk, set()).add(rk)
    by_paper = {id(p): k for k, p in rights.items()}
    t0 = time.perf_counter()
    resolver = cl.Resolver(rights.values())
    build = time.perf_counter() - t0
    keys = sorted(lefts)
    t0 = time.perf_counter()
    results = resolver.resolve_many([cl.Reference.from_paper(lefts[k]) for k in keys])
    took = time.perf_counter() - t0
    dump(path.stem, keys, results)
    tp = fp = fn = unknown = twin = 0
    wrong: list[tuple[str, cl.Resolution]] = []
    missed: list[tuple[str, cl.Resolution]] = []
    for k, res in zip(keys, results, strict=True):
        target = by_paper.get(id(res.target)) if res.verified and res.target is not None else None
        p, n = pos.get(k, set()), neg.get(k, set())
        if target is not None and target in p:
            tp += 1
        elif target is not None and target in n:
            fp += 1
            wrong.append((k, res))
        elif target is not None:
            unknown += 1
        if p and (target is None or target not in p):
            fn += 1
            missed.append((k, res))
            # Scholar-style catalogs hold one work several times, and the labels name only one
            # of its records: a verified record whose title is the labeled match's is counted
            # separately (not as a true positive).
            if target is not None and normalize_title(rights[target].title) in {
                normalize_title(rights[g].title) for g in p
            }:
                twin += 1
    print(
        f"\n## {path.stem}: {len(rows)} labeled pairs, {len(lefts)} left records, "
        f"catalog = {len(rights)} right records (build {build:.2f}s, resolve {took:.2f}s)"
    )
    print(f"  states: {states(results)}")
    print(f"  verified vs labels: {prf(tp, fp, fn)}; verified to an unlabeled record: {unknown}")
    print(f"  left records with a labeled match: {sum(1 for k in keys if pos.get(k))}")
    print(
        f"  of the {fn} misses, {twin} verified another catalog record with the labeled match's "
        f"title (the same work recorded twice); counting those: {prf(tp + twin, fp, fn - twin)}"
    )
    for label, items in (("false positive", wrong), ("missed", missed)):
        for k, res in items[:show]:
            print(f"  [{label}] {json.loads(k)['title']!r}: {res.state.value}: {res.reason}")


# --------------------------------------------------------------------------- glutton


def glutton_paper(left: dict[str, Any], doi: str | None) -> cl.Paper:
    ids: list[cl.DOI] = []
    if doi:
        with contextlib.suppress(InvalidIdentifier):
            ids.append(cl.normalize_doi(doi))
    return cl.Paper(
        title=left.get("atitle") or None,
        authors=[left["firstAuthor"]] if left.get("firstAuthor") else None,
        venue=left.get("jtitle") or None,
        volume=left.get("volume") or None,
        pages=left.get("firstPage") or None,
        identifiers=ids,
    )


def distractors(data: Path) -> list[cl.Paper]:
    """Real records from the other files (Magellan right sides, fuzzycat releases)."""
    out: list[cl.Paper] = []
    for name in ("magellan_dblp_acm.jsonl", "magellan_dblp_scholar.jsonl"):
        seen: set[str] = set()
        for row in read(data / name):
            for side in ("left", "right"):
                k = json.dumps(row[side], sort_keys=True)
                if k not in seen:
                    seen.add(k)
                    out.append(magellan_paper(row[side]))
    for row in read(data / "fuzzycat_verify_pairs.jsonl"):
        out.extend((fatcat_paper(row["left"]), fatcat_paper(row["right"])))
    return out


def suspect_gold(ref: cl.Reference, gold: cl.Paper, ours: cl.Paper | None) -> bool:
    """The parsed title matches our target closely and the gold record's title poorly."""
    if ours is None or not ref.title:
        return False
    title = normalize_title(ref.title)
    return (
        title_similarity(title, normalize_title(ours.title)) >= 95
        and title_similarity(title, normalize_title(gold.title)) < 80
    )


@dataclass(frozen=True)
class GluttonSet:
    """The glutton strings, their gold papers and parsed references, the distractors, and the
    items whose target work is removed from the reduced catalog."""

    rows: list[dict[str, Any]]
    papers: list[cl.Paper]
    refs: list[cl.Reference]
    extra: list[cl.Paper]
    removed: set[int]

    @classmethod
    def load(cls, path: Path, data: Path) -> GluttonSet:
        rows = list(read(path))
        papers = [glutton_paper(r["left"], r["right"].get("doi")) for r in rows]
        extra = distractors(data)
        refs = [cl.Reference.from_string(r["left"]["reference"]) for r in rows]
        # Remove a fifth of the target *works*: every item citing a removed DOI loses its target
        # (several PMC papers cite the same work, so removing items one by one would leave
        # copies).
        works = sorted({p.key for p in papers})
        gone = set(random.Random(1943).sample(works, len(works) // 5))
        removed = {i for i, p in enumerate(papers) if p.key in gone}
        return cls(rows=rows, papers=papers, refs=refs, extra=extra, removed=removed)


def glutton(path: Path, data: Path, show: int) -> None:
    if not parser_available():
        print(
            f"\n## {path.stem}: SKIPPED: reference-string parser (citeledger.refparse) "
            "is not available yet, and the queries are raw strings"
        )
        return
    gset = GluttonSet.load(path, data)
    rows, papers, refs, extra, removed = gset.rows, gset.papers, gset.refs, gset.extra, gset.removed
    for label, catalog_ids in (
        ("all targets in catalog", range(len(rows))),
        ("1/5 of target works removed", [i for i in range(len(rows)) if i not in removed]),
    ):
        t0 = time.perf_counter()
        resolver = cl.Resolver([*(papers[i] for i in catalog_ids), *extra])
        build = time.perf_counter() - t0
        t0 = time.perf_counter()
        results = resolver.resolve_many(refs)
        took = time.perf_counter() - t0
        dump(
            f"{path.stem} ({label})",
            (str(r["id"]) for r in rows),
            results,
            (r["left"]["reference"] for r in rows),
            papers,
        )
        tp = fp = fn = fp_absent = suspect = 0
        wrong: list[tuple[int, cl.Resolution]] = []
        for i, res in enumerate(results):
            present = i not in removed or label.startswith("all")
            if res.verified:
                if present and res.target is papers[i]:
                    tp += 1
                elif present:
                    # Two glutton items can cite the same work (same DOI): also correct.
                    same = (
                        res.target is not None
                        and res.target.identifiers
                        and res.target.identifiers == papers[i].identifiers
                    )
                    if same:
                        tp += 1
                    else:
                        fp += 1
                        wrong.append((i, res))
                        if suspect_gold(refs[i], papers[i], res.target):
                            suspect += 1
                else:
                    fp_absent += 1
                    wrong.append((i, res))
            elif present:
                fn += 1
        n_present = sum(1 for i in range(len(rows)) if i not in removed or label.startswith("all"))
        print(
            f"\n## {path.stem} ({label}): {len(rows)} strings, catalog {len(resolver.catalog or [])} "
            f"papers incl. {len(extra)} distractors (build {build:.2f}s, resolve {took:.2f}s)"
        )
        print(f"  states: {states(results)}")
        print(f"  targets in catalog: {n_present}; {prf(tp, fp, fn)}")
        print(
            f"  of the {fp} wrong targets, {suspect} look like gold-label errors (the string's "
            "title matches our target, not the gold record's atitle); excluding them: "
            f"{prf(tp, fp - suspect, fn)}"
        )
        if not label.startswith("all"):
            print(
                f"  verified answers for the {len(removed)} removed targets (false positives): {fp_absent}"
            )
        by_method = Counter(r.method.value for r in results if r.verified and r.method)
        print(f"  verified by method: {dict(by_method)}")
        for i, res in wrong[:show]:
            print(
                f"  [wrong] {rows[i]['left']['reference'][:100]!r} -> {res.state.value} "
                f"{res.target.title if res.target else None!r}: {res.reason}"
            )
        unresolved = [
            (i, r)
            for i, r in enumerate(results)
            if not r.verified and (i not in removed or label.startswith("all"))
        ]
        for i, res in unresolved[:show]:
            print(
                f"  [missed] {rows[i]['left']['reference'][:100]!r}: {res.state.value}: {res.reason[:160]}"
            )
    without_titles(gset, show)
    title_less(gset, show)


def without_titles(gset: GluttonSet, show: int) -> None:
    """The journal/volume/page route alone: the parsed strings without title and identifiers.

    The glutton records carry a journal, volume, first page and first author (no year), so the
    route must find the record by the first three and confirm it by the author.
    """
    rows, papers, refs, extra, removed = gset.rows, gset.papers, gset.refs, gset.extra, gset.removed
    bare = [cl.model.replace(r, title=None, identifiers=(), malformed=()) for r in refs]
    usable = [i for i, r in enumerate(bare) if r.venue and r.volume and r.first_page]
    for label, catalog_ids in (
        ("all targets in catalog", range(len(rows))),
        ("1/5 of target works removed", [i for i in range(len(rows)) if i not in removed]),
    ):
        resolver = cl.Resolver([*(papers[i] for i in catalog_ids), *extra])
        results = resolver.resolve_many([bare[i] for i in usable])
        dump(
            f"without titles ({label})",
            (str(rows[i]["id"]) for i in usable),
            results,
            (rows[i]["left"]["reference"] for i in usable),
            (papers[i] for i in usable),
        )
        tp = fp = fn = fp_absent = suspect = 0
        wrong: list[tuple[int, cl.Resolution]] = []
        for i, res in zip(usable, results, strict=True):
            present = label.startswith("all") or i not in removed
            right = (
                res.target is not None
                and bool(res.target.identifiers)
                and res.target.identifiers == papers[i].identifiers
            )
            if res.verified and present and right:
                tp += 1
            elif res.verified:
                fp_absent += not present
                fp += present
                # The string's own title (removed for this run) tells gold errors apart.
                suspect += present and suspect_gold(refs[i], papers[i], res.target)
                wrong.append((i, res))
            elif present:
                fn += 1
        print(
            f"\n## {len(rows)} glutton strings without their title and identifiers ({label}): "
            f"{len(usable)} have a journal, volume and first page"
        )
        print(f"  states: {states(results)}")
        print(f"  {prf(tp, fp, fn)}; verified for removed targets: {fp_absent}")
        print(
            f"  of the {fp} wrong targets, {suspect} look like gold-label errors (the string's "
            f"title matches our target, not the gold record's); excluding them: "
            f"{prf(tp, fp - suspect, fn)}"
        )
        for i, res in wrong[:show]:
            print(
                f"  [wrong] {rows[i]['left']['reference'][:100]!r} -> "
                f"{res.target.venue if res.target else None!r}: {res.reason[:160]}"
            )


# --------------------------------------------------------------------------- title-less styles


def _initials(author: cl.Author) -> str:
    return " ".join(f"{p[0]}." for p in (author.given or "").replace(".", " ").split() if p)


def _dotted(venue: str) -> str:
    # The dotted ISO 4 form physics and chemistry print ("Gastrointest. Endosc.", "Kidney
    # Int.", "J. Am. Soc. Nephrol."): an abbreviated word of an NLM abbreviation gets its
    # period, a whole word ("Kidney", "Diabetes Care") none; abbreviated means the word is an
    # LTWA abbreviation and not itself a listed word. A one-word title ("Lancet") stays bare.
    # (Until the title-less parser was written every word got a period, "Diabetes. Care.",
    # which no journal prints.)
    words = venue.replace(".", " ").split()
    if len(words) == 1:
        return venue
    truncated = _truncations()
    return " ".join(f"{w}." if w.lower() in truncated else w for w in words)


@functools.cache
def _truncations() -> frozenset[str]:
    """LTWA abbreviations that cut a longer word and are not a word of their own.

    "int" (international), "gastrointest", "j"; not "free" or "minor" (the LTWA's own stems,
    "free-" -> "free"), not a listed word ("journal"), nor function words. A few whole words
    remain ("cell", "new").
    """
    table = _ltwa_table()
    stems: set[str] = set()
    cut: set[str] = set()
    for pattern, abbr in (*table.exact.items(), *table.prefixes.items()):
        (stems if pattern == abbr else cut).add(abbr)
    return frozenset(cut - stems - set(table.exact) - STOPWORDS)


def render_title_less(style: str, ref: cl.Reference, gold: cl.Paper) -> str:
    """A reference to ``gold`` as physics, chemistry, medicine and Nature print it (no title).

    Journal, volume and first page come from the gold record, the year and the author names
    from the parsed original string (the glutton records have neither).
    """
    authors = list(ref.authors)[:6]
    venue, volume, page, year = gold.venue or "", gold.volume, gold.first_page, ref.year
    if style == "vancouver":
        names = ", ".join(
            f"{a.family} {_initials(a).replace('.', '').replace(' ', '')}".strip() for a in authors
        )
        return f"{names}. {venue}. {year};{volume}:{page}."
    if style == "acs":
        names = "; ".join(f"{a.family}, {_initials(a)}".rstrip(", ") for a in authors)
        return f"{names} {_dotted(venue)} {year}, {volume}, {page}."
    names = ", ".join(f"{_initials(a)} {a.family}".strip() for a in authors)
    return f"{names}, {_dotted(venue)} {volume}, {page} ({year})."  # aps, nature


TITLE_LESS_STYLES = ("aps", "acs", "vancouver", "nature")


def title_less(gset: GluttonSet, show: int) -> None:
    """The PMC gold records cited without a title, per style, as strings and as fields.

    Each gold record with a journal, volume and first page (and a year in its string) is
    rendered in APS (``Phys. Rev. Lett. 116, 061102 (2016)``), ACS (``J. Am. Chem. Soc. 2005,
    127, 1234-1240``), Vancouver-short (``Garfield E. Science. 1972;178(4060):471-9.``) and
    Nature (``Y. LeCun, ..., Nature 521, 436 (2015).``) styles. The *string* route parses the
    rendering; the *fields* route hands the same values over as a structured ``Reference`` (so
    the journal matching is measured apart from the parser). Both run against the full catalog
    and against the one with a fifth of the target works removed (answers there are wrong).
    """
    rows, papers, refs, extra, removed = gset.rows, gset.papers, gset.refs, gset.extra, gset.removed
    usable = [
        i
        for i, (r, p) in enumerate(zip(refs, papers, strict=True))
        if p.venue and p.volume and p.first_page and r.year and r.authors
    ]
    catalogs = {
        "all": cl.Resolver([*papers, *extra]),
        "removed": cl.Resolver([*(p for i, p in enumerate(papers) if i not in removed), *extra]),
    }
    print(
        f"\n## title-less styles from {len(usable)} PMC gold records (journal, volume, page, year)"
    )
    for style in TITLE_LESS_STYLES:
        strings = [render_title_less(style, refs[i], papers[i]) for i in usable]
        fields = [
            cl.Reference(
                authors=list(refs[i].authors)[:6],
                venue=papers[i].venue if style == "vancouver" else _dotted(papers[i].venue or ""),
                volume=papers[i].volume,
                first_page=papers[i].first_page,
                year=refs[i].year,
            )
            for i in usable
        ]
        for route, queries in (
            ("string", [cl.Reference.from_string(s) for s in strings]),
            ("fields", fields),
        ):
            line = [f"  {style:9} {route:6}"]
            for label, resolver in catalogs.items():
                results = resolver.resolve_many(queries)
                dump(
                    f"titleless {style} {route} {label}",
                    (str(rows[i]["id"]) for i in usable),
                    results,
                    strings,
                    (papers[i] for i in usable),
                )
                tp = fp = fn = absent = 0
                misses: list[tuple[str, cl.Resolution]] = []
                for i, s, res in zip(usable, strings, results, strict=True):
                    present = label == "all" or i not in removed
                    right = (
                        res.verified
                        and res.target is not None
                        and bool(res.target.identifiers)
                        and res.target.identifiers == papers[i].identifiers
                    )
                    if res.verified and present and right:
                        tp += 1
                    elif res.verified:
                        fp += present
                        absent += not present
                    elif present:
                        fn += 1
                        misses.append((s, res))
                line.append(f"{label}: {prf(tp, fp, fn)}")
                if label == "removed":
                    line.append(f"verified for removed targets: {absent}")
                elif show:
                    line.extend(
                        f"\n    [missed] {s[:90]!r}: {r.reason[:110]}" for s, r in misses[:2]
                    )
            print("; ".join(line))
    print(
        "  e.g. "
        + " | ".join(
            render_title_less(s, refs[usable[0]], papers[usable[0]]) for s in TITLE_LESS_STYLES
        )
    )


def crossref_title_less(data: Path, records: dict[str, cl.Paper], extra: list[cl.Paper]) -> None:
    """Crossref structured references without a title against the offline records.

    Their targets are mostly absent offline (only the glutton records exist), so this counts
    verified answers: right ones where the gold DOI has a record, and any other is wrong.
    """
    resolver = cl.Resolver([*records.values(), *extra])
    for name in ("crossref_structured_eval_2k", "crossref_structured_tuning_2k"):
        refs: list[cl.Reference] = []
        golds: list[set[str]] = []
        for row in read(data / f"{name}.jsonl"):
            ref = row["left"]["reference"]
            if ref.get("article-title") or ref.get("volume-title") or ref.get("DOI"):
                continue
            refs.append(structured_reference(ref))
            golds.append(gold_dois(row["right"]["target_gt"]["DOI"]))
        results = resolver.resolve_many(refs)
        dump(
            f"crossref title-less {name}",
            (f"{n}: {r.raw or r.venue}" for n, r in enumerate(refs)),
            results,
        )
        present = sum(bool(g & records.keys()) for g in golds)
        right = wrong = 0
        for res, gold in zip(results, golds, strict=True):
            if not res.verified:
                continue
            got = {str(i.value).lower() for i in (res.target.identifiers if res.target else ())}
            right += bool(got & gold)
            wrong += not got & gold
        print(
            f"  {name}: {len(refs)} title-less structured references, {present} with an offline "
            f"target record: verified right {right}, wrong {wrong}; states: {states(results)}"
        )


# --------------------------------------------------------------------------- crossref


def gold_dois(value: Any) -> set[str]:
    if value is None:
        return set()
    values = value if isinstance(value, list) else [value]
    return {str(v).lower().replace("//", "/") for v in values if v}


def structured_reference(ref: dict[str, Any]) -> cl.Reference:
    ids: list[cl.Identifier] = []
    malformed: list[MalformedFragment] = []
    if ref.get("DOI"):
        found = find_identifiers(str(ref["DOI"]))
        ids.extend(found.identifiers)
        malformed.extend(found.malformed)
        if not found.identifiers and not found.malformed:
            malformed.append(
                MalformedFragment(
                    text=str(ref["DOI"]),
                    scheme=cl.Scheme.DOI,
                    reason="not recognised as a DOI",
                    start=0,
                    end=len(str(ref["DOI"])),
                )
            )
    has_title = any(ref.get(k) for k in ("article-title", "volume-title"))
    if ref.get("unstructured") and not has_title and parser_available():
        parsed = cl.Reference.from_string(ref["unstructured"])
        return cl.model.replace(
            parsed,
            identifiers=[*ids, *parsed.identifiers],
            malformed=[*malformed, *parsed.malformed],
        )
    return cl.Reference(
        title=ref.get("article-title") or ref.get("volume-title") or None,
        authors=ref.get("author") or None,
        year=ref.get("year") or None,
        venue=ref.get("journal-title") or ref.get("series-title") or None,
        volume=ref.get("volume") or None,
        issue=ref.get("issue") or None,
        first_page=ref.get("first-page") or None,
        identifiers=ids,
        malformed=malformed,
        raw=ref.get("unstructured"),
    )


def crossref(data: Path, show: int, extra: list[cl.Paper]) -> None:
    print("\n## Crossref files (no Crossref metadata index is available offline; see docs)")
    # Identifier extraction: a gold DOI printed in the string must be found.
    for name in ("crossref_unstructured_real_2k", "crossref_unstructured_tuning_1k"):
        rows = list(read(data / f"{name}.jsonl"))
        present = found = 0
        misses: list[str] = []
        for row in rows:
            text = row["left"]["ref_string"]
            gold = gold_dois(row["right"]["target_gt"]["DOI"])
            in_text = {g for g in gold if g in text.lower().replace("//", "/")}
            if not in_text:
                continue
            present += 1
            got = {
                str(i.value).lower()
                for i in find_identifiers(text).identifiers
                if i.scheme == cl.Scheme.DOI
            }
            if in_text & got:
                found += 1
            else:
                misses.append(text)
        print(
            f"  {name}: gold DOI printed in {present} of {len(rows)} strings; "
            f"find_identifiers recovers it in {found} ({found / max(present, 1):.1%})"
        )
        for text in misses[:show]:
            print(f"    [missed DOI] {text[:140]!r}")
    rows = list(read(data / "crossref_overall_2k.jsonl"))
    asserted = agree = differ = flagged = 0
    for row in rows:
        ref = row["left"]["reference"]
        if not ref.get("DOI"):
            continue
        asserted += 1
        gold = gold_dois(row["right"]["gt"])
        sref = structured_reference(ref)
        ours = {str(i.value).lower() for i in sref.identifiers if i.scheme == cl.Scheme.DOI}
        if ours & gold:
            agree += 1
        else:
            differ += 1
            if sref.malformed:
                flagged += 1
    print(
        f"  crossref_overall_2k: {asserted} publisher/Crossref-asserted DOIs; valid and equal to the "
        f"gold DOI: {agree}; differ or invalid: {differ} (of which flagged malformed: {flagged})"
    )

    # NO_MATCH items never verify against a catalog that lacks their target.
    resolver = cl.Resolver(extra)
    for name in (
        "crossref_structured_eval_2k",
        "crossref_structured_tuning_2k",
        "crossref_overall_2k",
        "crossref_unstructured_real_2k",
        "crossref_unstructured_tuning_1k",
    ):
        rows = [r for r in read(data / f"{name}.jsonl") if r["expected"] == "NO_MATCH"]
        refs: list[cl.Reference] = []
        for row in rows:
            left = row["left"]
            if "reference" in left:
                refs.append(structured_reference(left["reference"]))
            elif parser_available():
                refs.append(cl.Reference.from_string(left["ref_string"]))
        if not refs:
            print(f"  {name}: NO_MATCH check skipped (string parser not available)")
            continue
        results = resolver.resolve_many(refs)
        dump(f"NO_MATCH {name}", (str(r["id"]) for r in rows), results)
        bad = sum(r.verified for r in results)
        print(
            f"  {name}: {len(refs)} NO_MATCH references vs a catalog of {len(extra)} unrelated real "
            f"records: verified {bad}; states: {states(results)}"
        )
    side_by_side(data, extra, show)
    crossref_title_less(data, glutton_records(data), extra)
    print(
        "  Published baselines (recomputed in the data README; shown for reference, since our resolver "
        "cannot be run end to end on these files without a Crossref metadata index):"
    )
    print(
        "    unstructured_2k SBMV@0.34 P=0.9830 R=0.9475 F1=0.9649; STQ P=0.9943 R=0.8541; "
        "structured_eval SBMV@0.78 P=0.9824 R=0.9558; OpenURL_legacy P=0.9908 R=0.9244"
    )


def glutton_records(data: Path) -> dict[str, cl.Paper]:
    """The glutton target records (as in :func:`glutton`), one per gold DOI (lower case)."""
    out: dict[str, cl.Paper] = {}
    for row in read(data / "glutton_pmc1943_refs_doi_17k.jsonl"):
        doi = row["right"].get("doi")
        if doi and doi.lower() not in out:
            out[doi.lower()] = glutton_paper(row["left"], doi)
    return out


def side_by_side(data: Path, extra: list[cl.Paper], show: int) -> None:
    """Crossref items whose target has a record offline: ours next to each published baseline.

    The only target metadata available offline is the glutton file's (one record per gold DOI,
    from the citing item's gold fields); Crossref items whose gold DOI is among them are
    resolved against all 8,000+ glutton records plus the distractors, and each published
    matcher's per-item answer (its DOI, before any threshold) is scored on the same items.
    """
    records = glutton_records(data)
    resolver = cl.Resolver([*records.values(), *extra])
    names = (
        "crossref_structured_eval_2k",
        "crossref_structured_tuning_2k",
        "crossref_unstructured_real_2k",
        "crossref_unstructured_tuning_1k",
        "crossref_overall_2k",
    )
    ours_right = ours_wrong = 0
    items = 0
    right: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    lines: list[str] = []
    for name in names:
        for row in read(data / f"{name}.jsonl"):
            target = row["right"].get("target_gt") or row["right"].get("gt")
            if isinstance(target, dict):
                target = target.get("DOI")
            gold = gold_dois(target)
            if row["expected"] != "MATCH" or not gold & records.keys():
                continue
            left = row["left"]
            if "reference" in left:
                ref = structured_reference(left["reference"])
            elif parser_available():
                ref = cl.Reference.from_string(left["ref_string"])
            else:
                continue
            items += 1
            res = resolver.resolve(ref)
            dump(f"side by side {name}", [str(row["id"])], [res])
            got = {
                str(i.value).lower()
                for i in (res.target.identifiers if res.verified and res.target else ())
                if i.scheme == cl.Scheme.DOI
            }
            ok = bool(got & gold)
            ours_right += ok
            ours_wrong += res.verified and not ok
            answers = []
            for base, answer in sorted((row.get("baselines") or {}).items()):
                seen[base] += 1
                hit = bool(gold_dois(answer.get("DOI")) & gold)
                right[base] += hit
                answers.append(f"{base} {'right' if hit else 'wrong/none'}")
            lines.append(
                f"    {row['id']}: ours {res.state.value} ({'right' if ok else 'not right'}); "
                + ", ".join(answers)
            )
    if not items:
        print("  side by side: no Crossref item's target has an offline record")
        return
    print(
        f"  side by side where a catalog can be built ({items} MATCH items whose gold DOI has a "
        f"glutton record; catalog {len(records):,} glutton records + {len(extra):,} distractors): "
        f"ours verified right {ours_right}, wrong {ours_wrong}; "
        + ", ".join(f"{b} right {right[b]}/{seen[b]}" for b in sorted(seen))
    )
    for line in lines[: max(show, 0)]:
        print(line)


# --------------------------------------------------------------------------- fuzzycat

_RELEASE_TYPES = {
    "article-journal": WorkType.ARTICLE,
    "article": WorkType.PREPRINT,
    "paper-conference": WorkType.PROCEEDINGS_ARTICLE,
    "book": WorkType.BOOK,
    "chapter": WorkType.CHAPTER,
    "dataset": WorkType.DATASET,
    "thesis": WorkType.THESIS,
    "report": WorkType.REPORT,
    "software": WorkType.SOFTWARE,
}


def fatcat_paper(rel: dict[str, Any]) -> cl.Paper:
    ids: list[cl.Identifier] = []
    ext = rel.get("ext_ids") or {}
    for scheme in ("doi", "arxiv", "pmid", "pmcid"):
        value = ext.get(scheme)
        if value:
            with contextlib.suppress(InvalidIdentifier):
                ids.append(cl.parse_identifier(str(value), scheme))
    authors = []
    for c in rel.get("contribs") or []:
        if c.get("role") not in (None, "author"):
            continue
        if c.get("surname"):
            authors.append(
                cl.Author(family=c["surname"], given=c.get("given_name"), raw=c.get("raw_name"))
            )
        elif c.get("raw_name"):
            authors.append(cl.Author.from_string(c["raw_name"]))
    container = rel.get("container") or {}
    return cl.Paper(
        title=rel.get("title") or None,
        authors=authors,
        year=rel.get("release_year"),
        venue=container.get("name") or (rel.get("extra") or {}).get("container_name") or None,
        volume=rel.get("volume") or None,
        issue=rel.get("issue") or None,
        pages=rel.get("pages") or None,
        work_type=_RELEASE_TYPES.get(
            rel.get("release_type") or "", WorkType.OTHER if rel.get("release_type") else None
        ),
        identifiers=ids,
        source="fatcat",
    )


def fuzzycat(path: Path, show: int) -> None:
    rows = list(read(path))
    agree = Counter[str]()
    dis: list[tuple[dict[str, Any], cl.Resolution]] = []
    tp = fp = fn = 0
    states_seen: list[cl.Resolution] = []
    for n, row in enumerate(rows):
        res = cl.verify(fatcat_paper(row["left"]), fatcat_paper(row["right"]))
        dump(path.stem, [str(n)], [res])
        states_seen.append(res)
        label = row["expected"].removeprefix("Status.")
        same = res.verified
        if label in ("EXACT", "STRONG"):
            tp += same
            fn += not same
            ok = same
        elif label == "DIFFERENT":
            fp += same
            ok = not same
        else:  # AMBIGUOUS: undecidable; a verified answer is a disagreement worth listing
            ok = not same
        agree[f"{label}:{'agree' if ok else 'disagree'}"] += 1
        if not ok:
            dis.append((row, res))
    print(f"\n## {path.stem}: {len(rows)} pairs via cl.verify(left, right)")
    print(f"  states: {states(states_seen)}")
    print(f"  same-work (EXACT/STRONG) vs DIFFERENT: {prf(tp, fp, fn)}")
    print(f"  per label: {dict(sorted(agree.items()))}")
    for row, res in dis[: max(show, 0) or len(dis)]:
        print(
            f"  [disagree] {row['expected']} {row.get('expected_reason') or ''}: "
            f"{row['left'].get('title')!r} | {row['right'].get('title')!r} -> {res.state.value}: {res.reason[:150]}"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument(
        "--only", nargs="*", default=None, help="magellan glutton crossref fuzzycat titleless"
    )
    ap.add_argument("--show", type=int, default=5, help="examples of errors to print per dataset")
    ap.add_argument("--dump", type=Path, default=None, help="write per-item decisions (JSON lines)")
    args = ap.parse_args(argv)
    data: Path = args.data
    if not data.is_dir():
        print(f"data not found: {data}", file=sys.stderr)
        return 2
    only = set(args.only or ["magellan", "glutton", "crossref", "fuzzycat"])
    print(f"citeledger {cl.__version__}; config {cl.ResolverConfig()}")
    if "magellan" in only:
        magellan(data / "magellan_dblp_acm.jsonl", args.show)
        magellan(data / "magellan_dblp_scholar.jsonl", args.show)
    if "fuzzycat" in only:
        fuzzycat(data / "fuzzycat_verify_pairs.jsonl", args.show)
    if "glutton" in only:
        glutton(data / "glutton_pmc1943_refs_doi_17k.jsonl", data, args.show)
    if "crossref" in only:
        crossref(data, args.show, distractors(data))
    if "titleless" in only and "glutton" not in only:  # the title-less part alone
        gset = GluttonSet.load(data / "glutton_pmc1943_refs_doi_17k.jsonl", data)
        title_less(gset, args.show)
        if "crossref" not in only:
            crossref_title_less(data, glutton_records(data), gset.extra)
    if args.dump is not None:
        with args.dump.open("w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(d, sort_keys=True) + "\n" for d in DUMPED)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
