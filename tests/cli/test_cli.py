"""The command line, run as a user runs it: ``python -m citeledger ...`` in a subprocess."""

from __future__ import annotations

import csv
import io
import json
import os
import pathlib
import subprocess
import sys
from typing import TYPE_CHECKING, Any

import pytest
from werkzeug.wrappers import Request, Response

import citeledger as cl
from citeledger.cli import (
    EXIT_NOTHING_MEASURED,
    EXIT_OK,
    EXIT_PARTIAL,
    EXIT_USAGE,
    build_parser,
    main,
)
from citeledger.ledger import SCHEMA
from citeledger.sources.sample import SampleSource

if TYPE_CHECKING:
    from pathlib import Path

ZI = "arXiv:2104.07857"
ZERO = "arXiv:1910.02054"
DEMO = "doi:10.5555/citeledger.sample.0001"


def run(
    *args: str, stdin: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "100"}
    return subprocess.run(
        [sys.executable, "-m", "citeledger", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        check=False,
    )


# ------------------------------------------------------------------------------- help, usage


def test_help_teaches_examples_and_exit_codes() -> None:
    out = run("--help")
    assert out.returncode == EXIT_OK
    assert "citeledger record --sample" in out.stdout
    for code in ("0  success", "1  partial", "2  usage error", "3  nothing could be measured"):
        assert code in out.stdout
    for sub in ("record", "resolve", "validate"):
        assert sub in out.stdout


@pytest.mark.parametrize("sub", ["record", "resolve", "validate"])
def test_subcommand_help_has_examples(sub: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([sub, "--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    assert "exit codes" in text
    assert f"citeledger {sub}" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "COMMAND"),
        (("record",), "give a paper ID"),
        (("record", "not an id at all"), "not a paper identifier"),
        (("record", ZI, "--source", "nosuch"), "no source named 'nosuch'"),
        (("record", ZI, "--base-url", "openalex"), "NAME=URL"),
        (("record", ZI, "--source", "openalex", "--base-url", "crossref=http://x"), "not asked"),
        (("record", ZI, "--retries", "0"), "--retries"),
        (("record", "--sample", "arXiv:2301.99999"), "not in the sample data"),
        (("record", "--sample", "--source", "openalex"), "--sample uses the embedded data"),
        (("record", "--sample", "--format", "docx"), "invalid choice"),
        (("record", "--sample", "--cap", "-1"), "--cap"),
        (("resolve", "refs.txt"), "--catalog"),
        (("resolve", "/nonexistent/refs.txt", "--catalog", "sample"), "cannot read"),
        (("resolve", "-", "--catalog", "/nonexistent/catalog.jsonl"), "no catalog file"),
        (("validate", "/nonexistent/record.json"), "cannot read"),
        (("record", "--sample", "-o", "/nonexistent/dir/record.txt"), "cannot write"),
        (
            ("resolve", "-", "--catalog", "sample", "-o", "/nonexistent/dir/out.jsonl"),
            "cannot write",
        ),
    ],
)
def test_usage_errors_exit_2_with_a_message(
    args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    # In process (the same main() the console script runs), to keep the suite fast; the
    # subprocess test below checks the exit status the shell sees.
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse's own usage errors
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code == EXIT_USAGE, err
    assert message in err


@pytest.mark.parametrize(
    "args",
    [("record", "not an id at all"), ("record", "--sample", "--format", "docx")],
)
def test_usage_errors_exit_2_in_the_shell(args: tuple[str, ...]) -> None:
    out = run(*args)
    assert out.returncode == EXIT_USAGE
    assert out.stderr.startswith(("citeledger record: error:", "usage: citeledger record"))
    assert "Traceback" not in out.stderr


# ------------------------------------------------------------------------------- record --sample


def test_record_sample_text_is_the_seed_ledger(tmp_path: Path) -> None:
    out = run("record", "--sample")
    assert out.returncode == EXIT_OK, out.stderr
    assert out.stdout.startswith("Paper Citation Record · LEDGER\n")
    assert "ZeRO-Infinity: Breaking the GPU Memory Wall" in out.stdout
    assert "8 inbound citation observations" in out.stdout
    # The CLI's text is the library's rendering of the same record, byte for byte.
    sample = SampleSource()
    record = cl.build_record(
        ZI, [sample], now=sample.as_of(ZI), inbound_cap=100, resolver=cl.Resolver(sample.catalog())
    )
    assert out.stdout == record.render("text")
    assert out.stderr == ""


def test_record_sample_json_validates_and_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    out = run("record", "--sample", DEMO, "--format", "json", "-o", str(path))
    assert out.returncode == EXIT_OK, out.stderr
    assert out.stdout == ""
    record = cl.CitationRecord.from_json(path.read_text(encoding="utf-8"))
    states = {c.state.value: c.count for c in record.resolution_counts()}
    assert all(n > 0 for n in states.values()), states  # the demo shows all six states
    checked = run("validate", str(path))
    assert checked.returncode == EXIT_OK, checked.stderr
    assert "valid citeledger.paper-citation-record.v1 record" in checked.stdout
    assert "JSON Schema and model checks passed" in checked.stdout


def test_validate_lists_every_problem_and_exits_2(tmp_path: Path) -> None:
    sample = SampleSource()
    data = json.loads(cl.build_record(ZI, [sample], now=sample.as_of(ZI)).to_json())
    data["outbound_total"] = "many"
    del data["paper"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = run("validate", str(path))
    assert out.returncode == EXIT_USAGE
    assert "not a valid record (2 problem(s))" in out.stderr
    assert "'paper' is a required property" in out.stderr
    assert "outbound_total: 'many' is not of type 'integer'" in out.stderr
    not_json = run("validate", "-", stdin="{nope")
    assert not_json.returncode == EXIT_USAGE
    assert "is not JSON" in not_json.stderr


def test_record_sample_html_to_a_file(tmp_path: Path) -> None:
    path = tmp_path / "zero.html"
    out = run("record", "--sample", ZERO, "--format", "html", "-o", str(path))
    assert out.returncode == EXIT_OK, out.stderr
    page = path.read_text(encoding="utf-8")
    assert page.count('class="cl-chart"') == 1
    assert "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models" in page


@pytest.mark.parametrize(("fmt", "marker"), [("bibtex", "@"), ("ris", "TY  - "), ("csl-json", "")])
def test_record_exports_the_ranked_citing_papers(fmt: str, marker: str) -> None:
    out = run("record", "--sample", ZERO, "--format", fmt)
    assert out.returncode == EXIT_OK, out.stderr
    sample = SampleSource()
    record = cl.build_record(ZERO, [sample], now=sample.as_of(ZERO), inbound_cap=100)
    titles = [w.paper.title for w in record.ranked_citing()]
    assert len(titles) > 10
    if fmt == "csl-json":
        items = json.loads(out.stdout)
        assert [i["title"] for i in items] == titles
    else:
        assert out.stdout.count(marker) == len(titles)
        # In ranked order: the most cited citing paper first.
        first = out.stdout.index(str(titles[0]))
        assert first < out.stdout.index(str(titles[1]))


# ------------------------------------------------------------------------------- resolve

REFS = [
    (
        "Rajbhandari S, et al. ZeRO-Infinity: breaking the GPU memory wall for extreme scale deep "
        "learning. SC21. 2021. arXiv:2104.07857"
    ),
    "",
    json.dumps(
        {
            "title": "ZeRO: memory optimizations toward training trillion parameter models",
            "authors": ["Rajbhandari S"],
            "year": 2019,
        }
    ),
    "Smith J. A paper nobody wrote about anything in particular. Nature. 1999;1:1-2.",
]


def test_resolve_keeps_input_order_and_summarises_states(tmp_path: Path) -> None:
    refs = tmp_path / "refs.txt"
    refs.write_text("\n".join(REFS) + "\n", encoding="utf-8")
    out = run("resolve", str(refs), "--catalog", "sample")
    assert out.returncode == EXIT_OK, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["position"] for r in rows] == [1, 2, 3]  # blank lines are not references
    assert [r["state"] for r in rows] == ["verified_exact", "verified_fuzzy", "unresolved"]
    assert rows[0]["target"] == "arxiv:2104.07857"
    assert rows[1]["target"] == "arxiv:1910.02054"
    assert rows[2]["target"] is None
    assert rows[0]["input"] == REFS[0]
    # The summary goes to stderr, never into the results; no progress bar outside a terminal.
    lines = out.stderr.splitlines()
    assert lines[0].split() == ["state", "count"]
    assert {ln.rsplit(maxsplit=1)[0].strip(): ln.rsplit(maxsplit=1)[1] for ln in lines[2:8]} == {
        "verified exact": "1",
        "verified fuzzy": "1",
        "unresolved": "1",
        "parse uncertain": "0",
        "malformed identifier": "0",
        "metadata mismatch": "0",
    }
    assert lines[-1].split() == ["total", "3"]
    assert "resolving" not in out.stderr


def test_resolve_csv_from_stdin_against_a_papers_jsonl_catalog(tmp_path: Path) -> None:
    catalog = tmp_path / "works.jsonl"
    conv = cl.make_converter()
    catalog.write_text(
        "\n".join(cl.dumps(p, converter=conv) for p in SampleSource().catalog()) + "\n",
        encoding="utf-8",
    )
    out = run("resolve", "-", "--catalog", str(catalog), "--format", "csv", stdin="\n".join(REFS))
    assert out.returncode == EXIT_OK, out.stderr
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert [r["state"] for r in rows] == ["verified_exact", "verified_fuzzy", "unresolved"]
    assert rows[0]["method"] == "arxiv_id"


def test_resolve_against_an_openalex_dump(tmp_path: Path) -> None:
    dump = tmp_path / "part_000.jsonl"
    work = {
        "id": "https://openalex.org/W3137489545",
        "doi": None,
        "title": "ZeRO-Infinity: Breaking the GPU Memory Wall for Extreme Scale Deep Learning",
        "publication_year": 2021,
        "authorships": [{"author": {"display_name": "Samyam Rajbhandari"}}],
        "ids": {"openalex": "https://openalex.org/W3137489545"},
    }
    dump.write_text(json.dumps(work) + "\n", encoding="utf-8")
    out = run("resolve", "-", "--catalog", str(dump), stdin=REFS[0] + "\n" + REFS[3] + "\n")
    assert out.returncode == EXIT_OK, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["state"] for r in rows] == ["verified_fuzzy", "unresolved"]
    assert rows[0]["target"] == "openalex:W3137489545"


def test_resolve_rejects_a_bad_line_with_its_number(tmp_path: Path) -> None:
    out = run("resolve", "-", "--catalog", "sample", stdin=REFS[0] + '\n{"titel": "x"}\n')
    assert out.returncode == EXIT_USAGE
    assert "line 2: unknown field(s) titel" in out.stderr


# ------------------------------------------------------------------------------- live-style


_WORK = {
    "id": "https://openalex.org/W1",
    "doi": "https://doi.org/10.1234/old",
    "title": "An old paper about something",
    "publication_year": 2010,
    "cited_by_count": 3,
    "counts_by_year": [],
    "is_retracted": False,
}


def _serve(httpserver: Any, mode: str) -> str:
    def handler(request: Request) -> Response:
        if mode == "down":
            return Response("boom", status=500)
        if request.path.startswith("/works/"):
            return Response(json.dumps(_WORK), content_type="application/json")
        if mode == "partial":  # the paper answers, the citation listing fails
            return Response("boom", status=500)
        empty = {"meta": {"count": 0, "next_cursor": None}, "results": []}
        return Response(json.dumps(empty), content_type="application/json")

    httpserver.expect_request(__import__("re").compile(r"^/.*$")).respond_with_handler(handler)
    return str(httpserver.url_for("/")).rstrip("/")


@pytest.mark.parametrize(
    ("mode", "code"),
    [("ok", EXIT_OK), ("partial", EXIT_PARTIAL), ("down", EXIT_NOTHING_MEASURED)],
)
def test_record_against_a_local_openalex(httpserver: Any, mode: str, code: int) -> None:
    url = _serve(httpserver, mode)
    out = run(
        "record",
        "doi:10.1234/old",
        "--source",
        "openalex",
        "--base-url",
        f"openalex={url}",
        "--retries",
        "1",
        "--format",
        "json",
    )
    assert out.returncode == code, out.stderr
    record = cl.CitationRecord.from_json(out.stdout)
    assert record.reports
    assert {r.source for r in record.reports} == {"openalex"}
    if mode == "ok":
        assert record.paper.title == "An old paper about something"
        assert out.stderr == ""
    if mode == "partial":
        assert "unavailable: openalex citations: error" in out.stderr
        inbound = record.coverage_of(cl.Facet.INBOUND_ITEMIZATION)
        assert inbound.state is cl.CoverageState.UNAVAILABLE
    if mode == "down":
        assert "nothing could be measured for doi:10.1234/old (no source answered)" in out.stderr


def test_validate_without_jsonschema_says_the_schema_check_was_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    sample = SampleSource()
    path = tmp_path / "record.json"
    path.write_text(cl.build_record(ZI, [sample], now=sample.as_of(ZI)).to_json(), "utf-8")
    monkeypatch.setitem(sys.modules, "jsonschema", None)  # import jsonschema -> ImportError
    assert main(["validate", str(path)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "model check passed; JSON Schema check skipped" in out
    text = path.read_text("utf-8")
    path.write_text(text.replace(SCHEMA, "someone-else.record.v9"), "utf-8")
    assert main(["validate", str(path)]) == EXIT_USAGE
    assert "not a valid record" in capsys.readouterr().err


def test_docs_page_shows_the_current_help(monkeypatch: Any) -> None:
    """docs/cli.md quotes `citeledger --help`: regenerate it when the options change."""
    monkeypatch.setenv("COLUMNS", "100")
    page = (pathlib.Path(__file__).parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    assert build_parser().format_help().rstrip() in page
