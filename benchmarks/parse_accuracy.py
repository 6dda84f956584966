"""Field accuracy and speed of the reference-string parser on real data.

Usage::

    python benchmarks/parse_accuracy.py [--shared PATH] [--errors FIELD] [--limit N] [--repeat N]

Reads ``../shared/data/matching-dev/normalized`` (beside the checkout) and reports:

* ``glutton_pmc1943_refs_doi_17k``: PMC reference strings extracted from PDFs, with gold
  ``atitle``, ``firstAuthor``, ``jtitle``, ``volume`` and ``firstPage``. Title is scored exact
  after :func:`~citeledger.resolve.normalize.normalize_title` and fuzzy (rapidfuzz ratio >= 90 on
  the normalised strings); first author by normalised family name; volume and first page exactly;
  venue fuzzy (ratio >= 90, or one normalised form is a prefix of the other).
* ``crossref_overall_2k``: the deposited references that carry both an ``unstructured`` string
  and structured fields (``article-title``, ``author``, ``year``, ``volume``, ``first-page``,
  ``journal-title``); the first author there is one display name ("VL Dawson", "Ma"), so it is
  scored as "the parsed family name is one of its words".
* Speed: strings per second over every reference string of the glutton and Crossref
  unstructured files (single process, after a warm-up pass), and the worst time for one string.

Gold values are other people's labels; a few are wrong or partial (``atitle`` sometimes lacks an
italic species name, ``firstAuthor`` is missing for about a third of the glutton items). Figures
are reported over the items where the gold field is present.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from rapidfuzz import fuzz

from citeledger.model import Reference
from citeledger.resolve.normalize import normalize_name, normalize_title

DEFAULT_SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def _load(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


class Score:
    def __init__(self) -> None:
        self.n = Counter()
        self.ok = Counter()
        self.errors: dict[str, list[tuple[str, str, str]]] = {}

    def add(self, field: str, ok: bool, raw: str, gold: str, got: str) -> None:
        self.n[field] += 1
        if ok:
            self.ok[field] += 1
        else:
            self.errors.setdefault(field, []).append((raw, gold, got))

    def report(self, name: str) -> None:
        print(f"\n{name}")
        for field in self.n:
            n, ok = self.n[field], self.ok[field]
            print(f"  {field:<22} {ok / n:7.2%}  ({ok}/{n})")


def _title_scores(score: Score, raw: str, gold: str | None, got: str | None) -> None:
    if not gold or not normalize_title(gold):
        return
    g, p = normalize_title(gold), normalize_title(got)
    score.add("title exact (norm.)", g == p, raw, gold, got or "")
    score.add("title fuzzy >= 90", fuzz.ratio(g, p) >= 90, raw, gold, got or "")


def _venue_ok(gold: str, got: str | None) -> bool:
    g, p = normalize_title(gold), normalize_title(got)
    if not g or not p:
        return False
    return fuzz.ratio(g, p) >= 90 or g.startswith(p) or p.startswith(g)


def _locator_scores(
    score: Score,
    raw: str,
    ref: Reference,
    volume: str | None,
    first_page: str | None,
    venue: str | None,
) -> None:
    """Volume, first page and venue (fuzzy), each scored where the gold record gives it."""
    if volume:
        score.add("volume", ref.volume == volume, raw, volume, ref.volume or "")
    if first_page:
        score.add("first page", ref.first_page == first_page, raw, first_page, ref.first_page or "")
    if venue:
        score.add("venue (fuzzy)", _venue_ok(venue, ref.venue), raw, venue, ref.venue or "")


def glutton(shared: Path, limit: int | None) -> Score:
    items = _load(shared / "data/matching-dev/normalized/glutton_pmc1943_refs_doi_17k.jsonl")
    score = Score()
    for item in items[:limit]:
        left = item["left"]
        raw = left["reference"]
        ref = Reference.from_string(raw)
        _title_scores(score, raw, left.get("atitle"), ref.title)
        if left.get("firstAuthor"):
            got = ref.authors[0].family if ref.authors else None
            ok = normalize_name(got) == normalize_name(left["firstAuthor"])
            score.add("first author family", ok, raw, left["firstAuthor"], got or "")
        _locator_scores(
            score, raw, ref, left.get("volume"), left.get("firstPage"), left.get("jtitle")
        )
        score.add("year found", ref.year is not None, raw, "", "")
        score.add(
            "confidence >= 0.5",
            (ref.parse_confidence or 0) >= 0.5,
            raw,
            "",
            str(ref.parse_confidence),
        )
    return score


def crossref_overall(shared: Path, limit: int | None) -> Score:
    items = _load(shared / "data/matching-dev/normalized/crossref_overall_2k.jsonl")
    score = Score()
    for item in items[:limit]:
        left = item["left"]["reference"]
        raw = left.get("unstructured")
        if not raw:
            continue
        ref = Reference.from_string(raw)
        _title_scores(score, raw, left.get("article-title"), ref.title)
        if left.get("author"):
            got = ref.authors[0].family if ref.authors else None
            words = {normalize_name(w) for w in left["author"].replace(".", " ").split()}
            score.add(
                "first author family", normalize_name(got) in words, raw, left["author"], got or ""
            )
        if left.get("year") and left["year"][:4].isdigit():
            score.add("year", ref.year == int(left["year"][:4]), raw, left["year"], str(ref.year))
        _locator_scores(
            score, raw, ref, left.get("volume"), left.get("first-page"), left.get("journal-title")
        )
    return score


def speed(shared: Path, repeat: int = 5) -> None:
    """Throughput in CPU time of this process (best of ``repeat`` passes), so other load on the
    host counts less."""
    base = shared / "data/matching-dev/normalized"
    strings = [i["left"]["reference"] for i in _load(base / "glutton_pmc1943_refs_doi_17k.jsonl")]
    for name in ("crossref_unstructured_real_2k.jsonl", "crossref_unstructured_tuning_1k.jsonl"):
        strings += [i["left"]["ref_string"] for i in _load(base / name)]
    for s in strings[:500]:
        Reference.from_string(s)
    best_cpu = best_wall = float("inf")
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        for s in strings:
            Reference.from_string(s)
        best_cpu = min(best_cpu, time.process_time() - c0)
        best_wall = min(best_wall, time.perf_counter() - w0)
    n = len(strings)
    print(
        f"\nspeed: {n} real strings, best of {repeat}: {n / best_cpu:,.0f} strings/s of CPU time "
        f"({best_cpu / n * 1e6:.0f} us each); wall clock {n / best_wall:,.0f} strings/s"
    )
    garbage = ("x(" * 10 + "[12] A. B. " + "Smith, " * 5 + "10.1/ doi: arXiv " + "-\n" * 3) * 2000
    garbage = garbage[:100_000]
    c0 = time.process_time()
    ref = Reference.from_string(garbage)
    print(
        f"{len(garbage):,}-character garbage string: {(time.process_time() - c0) * 1e3:.1f} ms CPU "
        f"(confidence {ref.parse_confidence}, {ref.parse_doubt})"
    )
    worst = 0.0
    for unit in ("A. ", "Smith J, ", "Smith, J., ", "a-\nb ", "(((", "1999; ", "Ab Cd Ef "):
        text = (unit * (2990 // len(unit)))[:2990]
        c0 = time.process_time()
        Reference.from_string(text)
        worst = max(worst, time.process_time() - c0)
    print(f"worst adversarial 2,990-character string: {worst * 1e3:.1f} ms CPU")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    ap.add_argument("--errors", help="print failures of this field (e.g. 'title fuzzy >= 90')")
    ap.add_argument("--dataset", default="glutton", choices=["glutton", "crossref"])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--show", type=int, default=40)
    ap.add_argument("--no-speed", action="store_true")
    ap.add_argument("--repeat", type=int, default=5, help="timed passes; the best is reported")
    args = ap.parse_args()
    if not (args.shared / "data").is_dir():
        print(f"no shared data at {args.shared}", file=sys.stderr)
        return 1
    g = glutton(args.shared, args.limit)
    g.report(f"glutton_pmc1943_refs_doi_17k (PMC strings from PDFs), n = {g.n['year found']}")
    c = crossref_overall(args.shared, args.limit)
    c.report(
        "crossref_overall_2k (deposited unstructured strings with structured fields), n = "
        f"{max(c.n.values())} strings"
    )
    if args.errors:
        errs = (g if args.dataset == "glutton" else c).errors.get(args.errors, [])
        for raw, gold, got in errs[: args.show]:
            print("----")
            print(repr(raw))
            print("  gold:", gold)
            print("  got: ", got)
    if not args.no_speed:
        speed(args.shared, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
