"""Bulk dump readers: streaming, progress, formats, and OpenCitations dump samples (fixtures)."""

from __future__ import annotations

import gzip
import json
import zipfile
from typing import TYPE_CHECKING, Any

import pytest

from citeledger import DOI, OpenAlexId, ParseError
from citeledger.formats import dumps
from citeledger.sources.opencitations import DatePrecision
from tests.conftest import FIXTURES, SOURCES, fixture_bytes, requires_shared

if TYPE_CHECKING:
    from pathlib import Path

OC_DIR = SOURCES / "opencitations"
OC_FIXTURES = FIXTURES / "opencitations"


def works(n: int) -> list[dict[str, Any]]:
    return [
        {"id": f"https://openalex.org/W{i + 1}", "title": f"Work {i}", "n": i} for i in range(n)
    ]


def jsonl_gz(path: Path, records: list[dict[str, Any]]) -> Path:
    with gzip.open(path, "wb") as fh:
        for rec in records:
            fh.write(json.dumps(rec).encode() + b"\n")
    return path


def test_openalex_jsonl_gzip_with_progress(tmp_path: Path) -> None:
    part_dir = tmp_path / "works" / "updated_date=2024-01-01"
    part_dir.mkdir(parents=True)
    jsonl_gz(part_dir / "part_000.gz", works(25))
    jsonl_gz(part_dir / "part_001.gz", works(5))
    (part_dir / "manifest").write_text("ignored")
    seen: list[int] = []
    got = list(
        dumps.iter_openalex_works(tmp_path / "works", progress=seen.append, progress_every=10)
    )
    assert [w["n"] for w in got] == list(range(25)) + list(range(5))
    assert seen == [10, 20, 25, 30, 30]  # every 10 records and after each file


def test_openalex_parse_hook_and_bad_line(tmp_path: Path) -> None:
    path = jsonl_gz(tmp_path / "part.gz", works(3))
    titles = list(dumps.iter_openalex_works(path, parse=lambda w: w["title"]))
    assert titles == ["Work 0", "Work 1", "Work 2"]
    bad = tmp_path / "bad.gz"
    bad.write_bytes(gzip.compress(b'{"id": 1}\n{"id": \n'))
    reader = dumps.iter_openalex_works(bad)
    assert next(reader) == {"id": 1}  # records before the bad line are delivered
    with pytest.raises(ParseError, match="line 2 is not JSON"):
        next(reader)


def test_streaming_is_lazy(tmp_path: Path) -> None:
    # A broken last line is only reached when the stream gets there: records come one by one.
    data = b"".join(json.dumps(w).encode() + b"\n" for w in works(1000)) + b"{broken\n"
    path = tmp_path / "part.gz"
    path.write_bytes(gzip.compress(data))
    reader = dumps.iter_openalex_works(path)
    assert [next(reader)["n"] for _ in range(3)] == [0, 1, 2]
    with pytest.raises(ParseError, match="line 1001"):
        list(reader)


def test_crossref_items_array_streamed(tmp_path: Path) -> None:
    items = [
        {"DOI": f"10.1000/{i}", "title": ["x" * (i * 37 % 5000)], "score": i / 3}
        for i in range(3000)
    ]
    doc = {"status": "ok", "message-type": "work-list", "items": items, "next-cursor": "abc"}
    (tmp_path / "0.json.gz").write_bytes(gzip.compress(json.dumps(doc).encode()))
    (tmp_path / "1.jsonl.gz").write_bytes(gzip.compress(b'{"DOI": "10.1000/jsonl"}\n'))
    seen: list[int] = []
    got = list(dumps.iter_crossref_items(tmp_path, progress=seen.append, progress_every=1000))
    assert len(got) == 3001
    assert got[:3000] == items
    assert got[-1] == {"DOI": "10.1000/jsonl"}
    assert seen == [1000, 2000, 3000, 3000, 3001]


def test_crossref_edge_shapes(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json.gz"
    empty.write_bytes(gzip.compress(b'{"items": []}'))
    assert list(dumps.iter_crossref_items(empty)) == []
    none = tmp_path / "none.json"
    none.write_bytes(b'{"status": "ok", "count": 12345678901234567890}')
    assert list(dumps.iter_crossref_items(none)) == []
    truncated = tmp_path / "trunc.json.gz"
    truncated.write_bytes(gzip.compress(b'{"items": [{"DOI": "10.1/a"}, {"DOI": "10.1/'))
    reader = dumps.iter_crossref_items(truncated)
    assert next(reader) == {"DOI": "10.1/a"}
    with pytest.raises(ParseError, match="invalid or truncated JSON"):
        next(reader)
    not_obj = tmp_path / "list.json"
    not_obj.write_bytes(b'{"items": [1]}')
    with pytest.raises(ParseError, match="not an object"):
        list(dumps.iter_crossref_items(not_obj))


def test_crossref_record_cap(tmp_path: Path) -> None:
    path = tmp_path / "big.json.gz"
    path.write_bytes(gzip.compress(json.dumps({"items": [{"abstract": "a" * 200_000}]}).encode()))
    with pytest.raises(ParseError, match="max_record_bytes"):
        list(dumps.iter_crossref_items(path, max_record_bytes=100_000))
    assert len(list(dumps.iter_crossref_items(path, max_record_bytes=300_000))) == 1


def test_truncated_gzip(tmp_path: Path) -> None:
    path = tmp_path / "part.gz"
    data = gzip.compress(b"".join(json.dumps(w).encode() + b"\n" for w in works(2000)))
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ParseError, match="corrupt or truncated"):
        list(dumps.iter_openalex_works(path))


@requires_shared
def test_recorded_dump_samples() -> None:
    links = list(dumps.iter_opencitations_csv(OC_DIR / "index-v2-dump-citations-sample.csv"))
    assert (len(links), links[9].timespan) == (10, "P2Y3M")
    papers = list(dumps.iter_opencitations_meta_csv(OC_DIR / "meta-dump-sample.csv"))
    assert set(papers[4].identifiers) == {DOI("10.1364/ao.475915"), OpenAlexId("W4318195161")}


def test_opencitations_index_dump_sample(tmp_path: Path) -> None:
    sample = OC_FIXTURES / "index-v2-dump-citations-sample.csv"
    links = list(dumps.iter_opencitations_csv(sample))
    assert len(links) == 4
    assert links[0].oci == "0610001-0620002"
    assert links[0].cited == ("omid:br/0620002",)
    assert links[2].creation_precision is DatePrecision.YEAR
    assert links[3].timespan == "P2Y"
    # the same rows zipped (as OpenCitations distributes them) and gzipped
    with zipfile.ZipFile(tmp_path / "dump.zip", "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("part1.csv", sample.read_bytes())
        zf.writestr("README.txt", "not a csv")
        zf.writestr("part2.csv", sample.read_bytes())
    (tmp_path / "more.csv.gz").write_bytes(gzip.compress(sample.read_bytes()))
    seen: list[int] = []
    streamed = list(
        dumps.iter_opencitations_csv(tmp_path, progress=seen.append, progress_every=100)
    )
    assert len(streamed) == 12
    assert streamed[:4] == links
    assert seen == [8, 12]


def test_opencitations_meta_dump_sample() -> None:
    papers = list(dumps.iter_opencitations_meta_csv(OC_FIXTURES / "meta-dump-sample.csv"))
    assert len(papers) == 3
    assert set(papers[1].identifiers) == {DOI("10.5555/review.2015.42"), OpenAlexId("W2000000042")}
    assert papers[1].title == "Uptake Of Small Molecules By Cultured Cells"
    # a Meta dump is not a citation dump, and the reader says so
    with pytest.raises(ParseError, match="not an OpenCitations citation CSV"):
        list(dumps.iter_opencitations_csv(OC_FIXTURES / "meta-dump-sample.csv"))


def test_openalex_snapshot_line_with_adapter_parser(tmp_path: Path) -> None:
    from citeledger.sources.openalex import work_from_json  # noqa: PLC0415

    line = fixture_bytes("openalex", "work-W-id.json").strip()
    path = tmp_path / "part_000.gz"
    path.write_bytes(gzip.compress(line + b"\n" + line + b"\n"))
    got = list(dumps.iter_openalex_works(path, parse=work_from_json))
    assert len(got) == 2
    assert got[0].paper.title == "Counting citations with provenance"
    assert OpenAlexId("W4390000017") in got[0].paper.identifiers


def test_crossref_file_with_fixture_items(tmp_path: Path) -> None:
    from citeledger.sources.crossref import work_from_message  # noqa: PLC0415

    page = json.loads(fixture_bytes("crossref", "journal-works-cursor-page-with-notices.json"))
    items = page["message"]["items"]
    path = tmp_path / "0.json.gz"
    path.write_bytes(gzip.compress(json.dumps({"items": items}).encode()))
    got = list(dumps.iter_crossref_items(path, parse=work_from_message))
    assert len(got) == 5
    dois = [w.paper.identifier("doi") for w in got]
    assert DOI("10.1371/journal.pone.0300002") in dois
