"""The ``citeledger`` command line: records, resolving reference lists, validating record files.

Three subcommands (``citeledger --help`` and ``citeledger SUBCOMMAND --help`` teach them):

* ``record``: the citation record of one paper, from live sources or (``--sample``) offline from
  the sample data embedded in the package;
* ``resolve``: a reference list resolved against a catalog file, streamed, in input order;
* ``validate``: checks a record's JSON against the record's JSON Schema.

Exit codes (:data:`EXIT_OK` ... :data:`EXIT_NOTHING_MEASURED`): 0 success; 1 partial (some
source was unavailable: the record says which); 2 usage error (bad arguments, an unreadable file,
an invalid record for ``validate``); 3 nothing could be measured (no source answered).

The ledger is reached through the public names of :mod:`citeledger` only.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter
from functools import cache
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

# What a subcommand needs (the ledger, the sources, the dump readers, the frames schema) is
# imported when it runs, so ``citeledger --help`` starts without them.
import citeledger as cl
from citeledger import exports
from citeledger._progress import progress_callback
from citeledger.errors import DeserializationError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from citeledger.ledger import SourceReport

__all__ = [
    "DEFAULT_SOURCES",
    "EXIT_NOTHING_MEASURED",
    "EXIT_OK",
    "EXIT_PARTIAL",
    "EXIT_USAGE",
    "build_parser",
    "main",
    "record_exit_code",
]

#: Success.
EXIT_OK = 0
#: The record was built but some source was unavailable (its coverage entry says which and why).
EXIT_PARTIAL = 1
#: Bad arguments, an unreadable input file, or (``validate``) a file that is not a valid record.
EXIT_USAGE = 2
#: Nothing could be measured: no source answered (each failed or does not know the paper).
EXIT_NOTHING_MEASURED = 3

#: The sources ``record`` asks when no ``--source`` is given (each failure is recorded, not fatal).
DEFAULT_SOURCES = ("arxiv", "crossref", "openalex", "semanticscholar")
#: The papers of the embedded sample data, for ``record --sample``.
SAMPLE_IDS = ("arXiv:2104.07857", "arXiv:1910.02054", "doi:10.5555/citeledger.sample.0001")
#: References resolved per batch by ``resolve``: output is written after each batch.
RESOLVE_BATCH = 256

_RECORD_FORMATS = ("text", "markdown", "html", "json", *exports.FORMATS)

_EPILOG = """\
examples:
  citeledger record --sample                       offline, on the embedded sample data
  citeledger record --sample arXiv:1910.02054 --format html -o zero.html
  citeledger record 10.1038/s42256-024-00832-8 --mailto you@example.org
  citeledger record arXiv:2104.07857 --source openalex --source crossref --format json
  citeledger record --sample arXiv:1910.02054 --format bibtex -o citing.bib
  citeledger resolve refs.txt --catalog works.jsonl > resolved.jsonl
  citeledger resolve refs.txt --catalog sample --format csv
  citeledger validate record.json

exit codes:
  0  success
  1  partial: some source was unavailable (the record says which and why)
  2  usage error: bad arguments, an unreadable file, an invalid record (validate)
  3  nothing could be measured: no source answered (each failed or does not know the paper)
"""

# Each subcommand's text: its one-line help, its description, a blank line, its epilog.
_RECORD_TEXT = """\
build the citation record of one paper
Build the citation record of one paper and print (or write) it.

examples:
  citeledger record --sample
  citeledger record --sample arXiv:1910.02054 --view page --format html -o zero.html
  citeledger record doi:10.1038/s42256-024-00832-8 --mailto you@example.org
  citeledger record 2104.07857 --source openalex --base-url openalex=http://localhost:8080

ID is anything citeledger.parse_identifier reads: a DOI (bare, doi: or https://doi.org/...),
an arXiv id, pmid:..., pmcid:..., an OpenAlex W id or a Semantic Scholar id.
Default sources: {sources}.
--format bibtex|ris|csl-json exports the record's citing papers (ranked) instead of the record.

exit codes: 0 complete, 1 partial (some source unavailable), 2 usage error, 3 nothing measured
"""

_RESOLVE_TEXT = """\
resolve a reference list against a catalog
Resolve references (one per line) against a catalog, in input order.

REFS holds one reference per line: a reference string as printed ("Rajbhandari S, et al.
ZeRO-Infinity ... 2021. arXiv:2104.07857") or a JSON object of fields ({"title": ..., "authors":
[...], "year": 2021, "venue": ..., "volume": ..., "first_page": ..., "identifiers": [...]}).
Blank lines are skipped; "-" reads standard input.

--catalog reads JSON Lines of papers (citeledger's Paper JSON), an OpenAlex works snapshot part
or a Crossref public data file (plain or gzip; --catalog-format picks the reader, default: by
the first record), or "sample" for the embedded sample catalog.

Results keep the input order, one line (jsonl) or row (csv) per reference; a table of states
goes to standard error at the end, with a progress bar when standard error is a terminal.

examples:
  citeledger resolve refs.txt --catalog works.jsonl > resolved.jsonl
  citeledger resolve refs.txt --catalog openalex-part_000.gz --format csv -o resolved.csv
  printf 'Rajbhandari S. ZeRO-Infinity. SC21. 2021. arXiv:2104.07857\\n' | \\
      citeledger resolve - --catalog sample

exit codes: 0 resolved (whatever the states), 2 usage error (bad arguments, an unreadable line
or file)
"""

_VALIDATE_TEXT = """\
check a record JSON file against the record's JSON Schema
Check a citation record JSON file.

Checks that FILE (or "-") is a citeledger.paper-citation-record.v1 record: it must load as a
CitationRecord, and it is checked against the record's JSON Schema (the one shipped as
docs/citation-record.schema.json) when the optional jsonschema package is installed
(pip install -e ".[validate]"); without it the schema check is skipped and says so.

exit codes: 0 valid, 2 not valid (every problem is listed) or unreadable
"""


class _UsageError(Exception):
    """A problem with the arguments or an input file: exit code 2."""


# ------------------------------------------------------------------------------------- parser


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``citeledger`` (also what the docs page shows)."""
    parser = argparse.ArgumentParser(
        prog="citeledger",
        description=(
            "Citation ledgers: typed, provenance-carrying citation records and a reference "
            "resolver that never claims a match it cannot back."
        ),
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {cl.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    rec = _command(
        sub, "record", _run_record, _RECORD_TEXT.format(sources=", ".join(DEFAULT_SOURCES))
    )
    rec.add_argument(
        "paper_id",
        nargs="?",
        metavar="ID",
        help=f"the paper; with --sample one of {', '.join(SAMPLE_IDS)} (default the first)",
    )
    rec.add_argument(
        "--sample",
        action="store_true",
        help="offline: use the sample data embedded in the package (no network)",
    )
    rec.add_argument(
        "--source",
        action="append",
        metavar="NAME",
        dest="sources",
        help=f"a source to ask (repeat for several; default: {', '.join(DEFAULT_SOURCES)})",
    )
    rec.add_argument("--mailto", help="contact address for the polite pools (Crossref, OpenAlex)")
    rec.add_argument(
        "--base-url",
        action="append",
        default=[],
        metavar="NAME=URL",
        help="send source NAME's requests to URL (a mirror, a proxy, a local test server)",
    )
    rec.add_argument(
        "--retries",
        type=int,
        metavar="N",
        help="attempts per request, the first included (default: each source's policy, 4)",
    )
    rec.add_argument(
        "--cap",
        type=int,
        default=100,
        metavar="N",
        help="itemize at most N citing observations per source (the disclosed page cap; "
        "default %(default)s)",
    )
    rec.add_argument(
        "--view",
        choices=("full", "ledger", "page"),
        default="full",
        help="text/markdown/html: the ledger, the paper page, or both (default)",
    )
    rec.add_argument(
        "--format",
        choices=_RECORD_FORMATS,
        default="text",
        help="output format (default %(default)s); bibtex, ris and csl-json export the citing "
        "papers",
    )
    _output_option(rec)

    res = _command(sub, "resolve", _run_resolve, _RESOLVE_TEXT)
    res.add_argument("refs", metavar="REFS", help='the reference file ("-": standard input)')
    res.add_argument(
        "--catalog",
        metavar="FILE",
        required=True,
        help='papers to resolve against: JSON Lines, an OpenAlex or Crossref dump, or "sample"',
    )
    res.add_argument(
        "--catalog-format",
        choices=("auto", "papers", "openalex", "crossref"),
        default="auto",
        help="how to read --catalog (default: %(default)s, by its first record)",
    )
    res.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    _output_option(res)

    val = _command(sub, "validate", _run_validate, _VALIDATE_TEXT)
    val.add_argument("file", metavar="FILE", help='the record\'s JSON ("-": standard input)')
    return parser


def _command(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    run: Callable[[argparse.Namespace], int],
    text: str,
) -> argparse.ArgumentParser:
    """One subcommand: its parser, run by ``run``.

    ``text`` holds the one-line help, the description, a blank line and the epilog (printed as
    written).
    """
    help_line, description, epilog = text.split("\n", 2)
    cmd = sub.add_parser(
        name,
        help=help_line,
        description=description,
        epilog=epilog.removeprefix("\n"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    cmd.set_defaults(run=run)
    return cmd


def _output_option(cmd: argparse.ArgumentParser) -> None:
    cmd.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the console script exits with it)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except _UsageError as exc:
        print(f"citeledger {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # piped into `head`: stop quietly
        sys.stderr.close()
        return EXIT_OK
    return code


# ------------------------------------------------------------------------------------- record


def _failed(record: cl.CitationRecord) -> list[SourceReport]:
    return [
        r
        for r in record.reports
        if r.outcome is cl.Outcome.ERROR or (r.outcome is cl.Outcome.PARTIAL and r.error)
    ]


def record_exit_code(record: cl.CitationRecord) -> int:
    """The exit code a record earns: 0 complete, 1 partial (some source unavailable), 3 nothing.

    "Nothing could be measured" means no source call succeeded: every source failed, does not
    know the paper or lacks every capability asked. "Partial" means some call failed (an
    error, or an error while paging); a source that does not know the paper, lacks a capability
    or stopped at the disclosed page cap is not a failure.
    """
    from citeledger.ledger import RecordStatus  # noqa: PLC0415

    # One definition: the record's own status (CitationRecord.status).
    return {
        RecordStatus.OK: EXIT_OK,
        RecordStatus.PARTIAL: EXIT_PARTIAL,
        RecordStatus.NOTHING_MEASURED: EXIT_NOTHING_MEASURED,
    }[record.status]


def _base_urls(pairs: Iterable[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, url = pair.partition("=")
        if not sep or not name or not url:
            raise _UsageError(f"--base-url wants NAME=URL, got {pair!r}")
        out[name.strip()] = url.strip()
    return out


def _live_sources(args: argparse.Namespace) -> list[cl.Source]:
    registry = cl.SourceRegistry()
    names: list[str] = list(args.sources or DEFAULT_SOURCES)
    urls = _base_urls(args.base_url)
    unknown = sorted(set(urls) - set(names))
    if unknown:
        raise _UsageError(f"--base-url for a source not asked: {', '.join(unknown)}")
    if args.retries is not None and args.retries < 1:
        raise _UsageError("--retries must be >= 1")
    sources: list[cl.Source] = []
    for name in names:
        if name not in registry:
            raise _UsageError(f"no source named {name!r} (known: {', '.join(registry.names())})")
        options: dict[str, Any] = {}
        if name in urls:
            options["base_url"] = urls[name]
        if args.retries is not None:
            from citeledger.sources import RetryPolicy  # noqa: PLC0415

            options["policy"] = RetryPolicy(max_attempts=args.retries)
        if args.mailto:
            options["mailto"] = args.mailto
        try:
            sources.append(registry.load(name, **options))
        except TypeError:
            # A source without a polite pool (Semantic Scholar) takes no mailto.
            options.pop("mailto", None)
            sources.append(registry.load(name, **options))
    return sources


def _build(args: argparse.Namespace) -> cl.CitationRecord:
    if args.cap is not None and args.cap < 0:
        raise _UsageError("--cap must be >= 0")
    if args.sample:
        if args.sources or args.base_url or args.mailto:
            raise _UsageError("--sample uses the embedded data: drop --source/--base-url/--mailto")
        from citeledger.sources.sample import SampleSource  # noqa: PLC0415

        paper_id = args.paper_id or SAMPLE_IDS[0]
        sample = SampleSource()
        try:
            now = sample.as_of(paper_id)
        except cl.CiteledgerError:
            known = ", ".join(SAMPLE_IDS)
            raise _UsageError(f"{paper_id!r} is not in the sample data (known: {known})") from None
        # The embedded catalog resolves the demo paper's references (all six states).
        return cl.build_record(
            paper_id,
            [sample],
            now=now,
            inbound_cap=args.cap,
            resolver=cl.Resolver(sample.catalog()),
        )
    if not args.paper_id:
        raise _UsageError("give a paper ID (or --sample for the offline sample)")
    try:
        cl.parse_identifier(args.paper_id)
    except cl.InvalidIdentifier as exc:
        raise _UsageError(f"not a paper identifier: {exc}") from None
    sources = _live_sources(args)
    interactive = sys.stderr.isatty()
    return cl.build_record(
        args.paper_id, sources, inbound_cap=args.cap, network=True, progress=interactive or None
    )


def _render_record(record: cl.CitationRecord, fmt: str, view: str) -> str:
    if fmt == "json":
        return record.to_json() + "\n"
    if fmt in exports.FORMATS:
        return exports.export([w.paper for w in record.ranked_citing(limit=None)], fmt)
    return record.render(fmt, view=view)


def _explain(record: cl.CitationRecord, code: int) -> None:
    if code == EXIT_OK:
        return
    if code == EXIT_NOTHING_MEASURED:
        why = "no source answered" if _failed(record) else "no source knows the paper"
        print(
            f"citeledger record: nothing could be measured for {record.requested} ({why})",
            file=sys.stderr,
        )
    for r in _failed(record):
        print(f"citeledger record: unavailable: {r.describe()}", file=sys.stderr)


def _run_record(args: argparse.Namespace) -> int:
    record = _build(args)
    text = _render_record(record, args.format, args.view)
    _write(text, args.output)
    code = record_exit_code(record)
    _explain(record, code)
    return code


def _write(text: str, output: str | None) -> None:
    if output is None or output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise _UsageError(f"cannot write {output}: {exc.strerror or exc}") from None


# ------------------------------------------------------------------------------------ resolve


@cache
def _ref_fields() -> tuple[str, ...]:
    """The fields a JSON line of references may give.

    The table's (``frames.REFERENCE_FIELDS``) but the position, which is the line's number,
    and the key.
    """
    from citeledger import frames  # noqa: PLC0415

    return tuple(f for f in frames.REFERENCE_FIELDS if f not in {"position", "key"})


def _reference(line: str, position: int) -> cl.Reference:
    text = line.strip()
    if not text.startswith("{"):
        return cl.Reference.from_string(text, position=position)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _UsageError(f"line {position}: not valid JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise _UsageError(f"line {position}: expected a JSON object of fields")
    known = _ref_fields()
    unknown = sorted(set(data) - set(known) - {"position"})
    if unknown:
        raise _UsageError(
            f"line {position}: unknown field(s) {', '.join(unknown)} (known: {', '.join(known)})"
        )
    fields = {k: v for k, v in data.items() if k in known}
    if set(fields) == {"raw"}:
        return cl.Reference.from_string(str(fields["raw"]), position=position)
    try:
        return cl.Reference(position=position, **fields)
    except (cl.CiteledgerError, TypeError, ValueError) as exc:
        raise _UsageError(f"line {position}: {exc}") from None


def _open_text(name: str) -> TextIO:
    if name == "-":
        return sys.stdin
    try:
        return Path(name).open(encoding="utf-8")
    except OSError as exc:
        raise _UsageError(f"cannot read {name}: {exc.strerror or exc}") from None


def _open_out(name: str | None) -> TextIO:
    if name is None or name == "-":
        return sys.stdout
    try:
        return Path(name).open("w", encoding="utf-8")
    except OSError as exc:
        raise _UsageError(f"cannot write {name}: {exc.strerror or exc}") from None


def _references(stream: TextIO) -> Iterator[tuple[str, cl.Reference]]:
    position = 0
    for line in stream:
        if not line.strip():
            continue
        position += 1
        yield line.strip(), _reference(line, position)


def _sniff_catalog(path: Path) -> str:
    import gzip  # noqa: PLC0415 - only to peek at a compressed catalog

    opener = gzip.open if path.suffix == ".gz" else Path.open
    try:
        with opener(path, "rt", encoding="utf-8") as fh:
            head = fh.read(4096).lstrip()
    except (OSError, UnicodeDecodeError, EOFError) as exc:
        raise _UsageError(f"cannot read catalog {path}: {exc}") from None
    if head.startswith('{"items"') or '"is-referenced-by-count"' in head or '"DOI"' in head:
        return "crossref"
    if '"https://openalex.org/W' in head:
        return "openalex"
    return "papers"


def _catalog(name: str, fmt: str) -> list[cl.Paper]:
    if name == "sample":
        from citeledger.sources.sample import SampleSource  # noqa: PLC0415

        return list(SampleSource().catalog())
    path = Path(name)
    if not path.exists():
        raise _UsageError(f"no catalog file {name}")
    kind = _sniff_catalog(path) if fmt == "auto" else fmt
    try:
        if kind == "openalex":
            from citeledger.formats.dumps import iter_openalex_works  # noqa: PLC0415
            from citeledger.sources.openalex import parse_work  # noqa: PLC0415

            return [w.paper for w in iter_openalex_works(path, parse=parse_work)]
        if kind == "crossref":
            from citeledger.formats.dumps import iter_crossref_items  # noqa: PLC0415
            from citeledger.sources.crossref import parse_work as crossref_work  # noqa: PLC0415

            return [w.paper for w in iter_crossref_items(path, parse=crossref_work)]
        converter = cl.make_converter()
        papers = []
        with path.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, start=1):
                if line.strip():
                    try:
                        papers.append(cl.loads(line, cl.Paper, converter=converter))
                    except DeserializationError as exc:
                        raise _UsageError(f"catalog {name} line {n}: {exc}") from None
    except cl.CiteledgerError as exc:
        raise _UsageError(f"cannot read catalog {name}: {exc}") from None
    except OSError as exc:
        raise _UsageError(f"cannot read catalog {name}: {exc.strerror or exc}") from None
    return papers


def _target_id(res: cl.Resolution) -> str:
    if res.target is None or not res.target.identifiers:
        return ""
    return str(res.target.identifiers[0])


def _result_row(position: int, text: str, res: cl.Resolution) -> dict[str, Any]:
    target = res.target
    return {
        "position": position,
        "input": text,
        "state": res.state.value,
        "method": res.method.value if res.method is not None else None,
        "score": round(res.score, 1),
        "target": _target_id(res) or None,
        "target_title": target.title if target is not None else None,
        "target_year": target.year if target is not None else None,
        "reason": res.reason,
    }


_CSV_COLUMNS = (
    "position",
    "input",
    "state",
    "method",
    "score",
    "target",
    "target_title",
    "target_year",
    "reason",
)


def _state_table(counts: Counter[cl.ResolutionState], total: int) -> str:
    width = max(len(s.label) for s in cl.ResolutionState) + 2
    lines = [f"{'state':<{width}}{'count':>7}", "-" * (width + 7)]
    lines += [f"{s.label:<{width}}{counts.get(s, 0):>7,}" for s in cl.ResolutionState]
    lines += ["-" * (width + 7), f"{'total':<{width}}{total:>7,}"]
    return "\n".join(lines) + "\n"


def _run_resolve(args: argparse.Namespace) -> int:
    resolver = cl.Resolver(_catalog(args.catalog, args.catalog_format))
    stream = _open_text(args.refs)
    try:
        out = _open_out(args.output)
    except _UsageError:
        if stream is not sys.stdin:
            stream.close()
        raise
    counts: Counter[cl.ResolutionState] = Counter()
    # A bar only for a person watching: never in a pipe, a log or a CI job.
    advance, close = progress_callback(
        True if sys.stderr.isatty() else None, total=None, desc="resolving"
    )
    writer = csv.DictWriter(out, fieldnames=_CSV_COLUMNS) if args.format == "csv" else None
    if writer is not None:
        writer.writeheader()
    total = 0
    try:
        items = _references(stream)
        while batch := list(islice(items, RESOLVE_BATCH)):
            results = resolver.resolve_many([ref for _, ref in batch])
            for (text, ref), res in zip(batch, results, strict=True):
                row = _result_row(ref.position or 0, text, res)
                counts[res.state] += 1
                if writer is not None:
                    writer.writerow(row)
                else:
                    out.write(json.dumps(row, ensure_ascii=False) + "\n")
            total += len(batch)
            out.flush()
            advance(len(batch))
    finally:
        close()
        if stream is not sys.stdin:
            stream.close()
        if out is not sys.stdout:
            out.close()
    sys.stderr.write(_state_table(counts, total))
    return EXIT_OK


# ----------------------------------------------------------------------------------- validate


def _run_validate(args: argparse.Namespace) -> int:
    stream = _open_text(args.file)
    try:
        text = stream.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise _UsageError(f"cannot read {args.file}: {exc}") from None
    finally:
        if stream is not sys.stdin:
            stream.close()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _UsageError(f"{args.file} is not JSON: {exc}") from None
    problems: list[str] = []
    schema_checked = False
    try:
        import jsonschema  # noqa: PLC0415 - optional: the "validate" extra
    except ImportError:
        jsonschema = None
    if jsonschema is not None:
        schema = cl.CitationRecord.json_schema()
        validator = jsonschema.Draft202012Validator(schema)
        for err in sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(p) for p in err.absolute_path) or "(top level)"
            problems.append(f"{where}: {err.message}")
        schema_checked = True
    if not problems:
        try:
            cl.CitationRecord.from_json(text)
        except DeserializationError as exc:
            problems.append(str(exc))
    if problems:
        print(f"{args.file}: not a valid record ({len(problems)} problem(s))", file=sys.stderr)
        for p in problems[:50]:
            print(f"  {p}", file=sys.stderr)
        if len(problems) > 50:
            print(f"  ... and {len(problems) - 50} more", file=sys.stderr)
        return EXIT_USAGE
    how = (
        "JSON Schema and model checks passed"
        if schema_checked
        else "model check passed; JSON Schema check skipped (pip install jsonschema, or the "
        "'validate' extra)"
    )
    from citeledger.ledger import SCHEMA  # noqa: PLC0415

    print(f"{args.file}: valid {SCHEMA} record ({how})")
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover - python -m citeledger.cli
    sys.exit(main())
