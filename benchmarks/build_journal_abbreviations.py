"""Rebuild ``citeledger/resolve/ltwa.tsv``, the title-word abbreviations behind journal names.

Usage::

    python benchmarks/build_journal_abbreviations.py [--csv PATH]

Source: the ISSN International Centre's *List of Title Word Abbreviations* (LTWA, the word list
that ISO 4 abbreviations are made from; version of 2021-07-02), as shipped in the wheel of the
``pyiso4`` package (PyPI, version 0.1.6, MIT licence, (c) 2021 Pierre Beaujean; file
``pyiso4/LTWA_20210702.csv``). The LTWA itself is published by the ISSN International Centre,
which makes it freely available (issn.org, "Access to the LTWA").
Without ``--csv`` the script fetches that wheel with ``pip download`` (the package index is the
only network it needs) and reads the CSV from it.

What is kept (about 21,000 of 56,000 rows): words and phrases that have an abbreviation ("n.a."
rows, which say a word is not abbreviated, are dropped), in the languages most citations use
(``LANGUAGES``), without the suffix patterns ("-logy"), normalised exactly as
:func:`citeledger.resolve.normalize.normalize_text` normalises a venue. A pattern that ends in
"-" matches any word it begins ("physic-" physics, physical). Output lines are
``pattern<TAB>abbreviation<TAB>major`` (major: 1 for an English, multilingual or Latin
word, which wins over an abbreviation spelled the same way), sorted, after a comment header; the file is package data read by
:mod:`citeledger.resolve.journals`.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from citeledger.resolve.normalize import normalize_text

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "citeledger" / "resolve" / "ltwa.tsv"
WHEEL = "pyiso4==0.1.6"
MEMBER = "pyiso4/LTWA_20210702.csv"
#: English, multilingual, Latin, undetermined, and the main other languages of science.
LANGUAGES = frozenset({"eng", "mul", "lat", "und", "fre", "ger", "spa", "ita", "por", "dut"})
_PRIORITY = {code: i for i, code in enumerate(("eng", "mul", "lat", "und"))}
_NOT_ABBREVIATED = frozenset({"n.a.", "n. a.", "n.a"})
_ANNOTATION = re.compile(r"\(.*?\)")


def fetch_csv() -> str:
    """The LTWA CSV text from the pinned ``pyiso4`` wheel (downloaded with pip)."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(  # a fixed command line
            [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", tmp, WHEEL],
            check=True,
        )
        (wheel,) = Path(tmp).glob("pyiso4-*.whl")
        with zipfile.ZipFile(wheel) as zf:
            return zf.read(MEMBER).decode("utf-8")


def rows(text: str) -> dict[str, tuple[str, bool]]:
    """Normalised ``pattern -> (abbreviation, major)`` (a pattern ending in "-" is a prefix).

    ``major``: listed for English, Latin or several languages (an English name's word).
    """
    out: dict[str, tuple[str, bool]] = {}
    ranks: dict[str, int] = {}
    for line in text.splitlines()[1:]:
        fields = line.split("\t")
        if len(fields) != 3:  # WORD, ABBREVIATIONS, LANGUAGE CODES
            continue
        word, abbreviation, languages = fields
        if abbreviation.strip() in _NOT_ABBREVIATED:
            continue
        if not {code.strip() for code in languages.split(",")} & LANGUAGES:
            continue
        word = _ANNOTATION.sub("", word).strip()
        if not word or word.startswith("-"):
            continue
        prefix = word.endswith("-")
        key = normalize_text(word)
        abbr = normalize_text(abbreviation)
        if not key or not abbr or (key == abbr and not prefix):
            continue
        key += "-" if prefix else ""
        # A pattern listed for several languages keeps the abbreviation of the most used one.
        rank = min(_PRIORITY.get(code.strip(), len(_PRIORITY)) for code in languages.split(","))
        if key not in out or rank < ranks[key]:
            out[key], ranks[key] = (abbr, rank < len(_PRIORITY)), rank
    return out


def main(argv: list[str] | None = None) -> int:
    """Write ``ltwa.tsv``."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--csv", type=Path, help="a local copy of LTWA_20210702.csv")
    args = ap.parse_args(argv)
    text = args.csv.read_text(encoding="utf-8") if args.csv else fetch_csv()
    table = rows(text)
    header = (
        "# ISSN International Centre, List of Title Word Abbreviations (LTWA), 2021-07-02,\n"
        f"# from the pyiso4 0.1.6 wheel ({MEMBER}, MIT). Regenerate with\n"
        "# benchmarks/build_journal_abbreviations.py; do not edit by hand.\n"
        "# pattern<TAB>abbreviation<TAB>1 if English/multilingual/Latin, normalised;\n"
        "# a pattern ending in '-' is a prefix.\n"
    )
    body = "".join(f"{k}\t{v}\t{int(major)}\n" for k, (v, major) in sorted(table.items()))
    OUT.write_text(header + body, encoding="utf-8")
    print(f"wrote {len(table)} patterns to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
