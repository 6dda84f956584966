"""Retraction data: the fixtures in tests/fixtures/retractionwatch, plus the index and source."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

import pytest

from citeledger import DOI, PMID, NoticeStatus, ParseError, load_source
from citeledger.model import EventKind
from citeledger.sources import EventSource
from citeledger.sources import retractionwatch as rw
from tests.conftest import FIXTURES, SOURCES, requires_shared
from tests.sources.conftest import assert_protocols

if TYPE_CHECKING:
    from pathlib import Path

RW_DIR = SOURCES / "retraction"
RW_CSV = FIXTURES / "retractionwatch" / "retraction-watch-sample.csv"
OPEN_RETRACTIONS = FIXTURES / "retractionwatch" / "open-retractions-labels-disagree.json"
AS_OF = dt.datetime(2026, 3, 1, 12, tzinfo=dt.UTC)
HEADER = ",".join(rw.RETRACTION_WATCH_COLUMNS)


@requires_shared
def test_the_real_row() -> None:
    (rec,) = rw.parse_retraction_watch(
        (RW_DIR / "retraction-watch-csv-header-and-one-row.csv").read_bytes()
    )
    assert rec.original_doi == DOI("10.1155/2021/6907871")
    assert rec.original_pmid is None  # "0" means none
    assert rec.date == dt.date(2023, 8, 16)  # "8/16/2023 0:00", month first
    assert len(rec.reasons) == 8
    events = rw.parse_open_retractions(
        (RW_DIR / "open-retractions-api-10.1016_j.abb.2006.07.015.json").read_bytes()
    )
    assert [e.label for e in events] == ["erratum", "retracted: true"]


def test_rows_in_the_real_layout() -> None:
    rec, concern = rw.parse_retraction_watch(RW_CSV.read_bytes())
    assert rec.record_id == "90001"
    # A quoted title keeps its comma.
    assert rec.title == "Sleep Duration and Memory in Adolescent Zebrafish, a Cohort Study"
    assert (rec.journal, rec.publisher) == ("PLOS ONE", "PLOS")
    assert rec.original_doi == DOI("10.1371/journal.pone.0200077")
    assert rec.original_pmid is None  # "0" means none
    assert rec.notice_doi == DOI("10.1371/journal.pone.0300002")
    assert rec.notice_pmid == PMID("30620001")
    assert rec.date == dt.date(2019, 1, 8)  # "1/8/2019 0:00", month first
    assert rec.original_date == dt.date(2016, 11, 3)
    assert rec.nature == "Retraction"
    assert len(rec.reasons) == 3
    assert rec.reasons[0] == "Concerns/Issues About Data"  # "+" prefix and ";" removed
    assert rec.reasons[-1] == "Investigation by Journal/Publisher"
    assert rec.article_types == ("Research Article",)
    assert len(rec.urls) == 1
    assert rec.notes is not None
    assert rec.notes.startswith("See also: https://pubpeer.example/")
    ev = rec.event()
    assert ev.kind is EventKind.RETRACTION
    assert ev.label == "Retraction"
    assert ev.subject == DOI("10.1371/journal.pone.0200077")
    assert ev.notice == DOI("10.1371/journal.pone.0300002")
    assert ev.date == dt.date(2019, 1, 8)
    assert ev.source == "retractionwatch"
    assert ev.reason == (
        "Concerns/Issues About Data; Duplication of Image; Investigation by Journal/Publisher"
    )
    # The second row: not a retraction, empty URLs and notes, two article types.
    assert concern.event().kind is EventKind.EXPRESSION_OF_CONCERN
    assert concern.date == dt.date(2022, 12, 31)
    assert (concern.urls, concern.notes) == ((), None)
    assert concern.article_types == ("Research Article", "Letter")
    assert (concern.original_pmid, concern.notice_pmid) == (PMID("31999999"), None)


def test_source_on_the_file() -> None:
    src = rw.RetractionWatchSource(path=RW_CSV, as_of=AS_OF)
    check = src.events("https://doi.org/10.1371/journal.pone.0200077")
    assert check.status is NoticeStatus.EVENTS_FOUND
    assert check.retracted is True
    assert check.sources == ("retractionwatch",)
    assert check.checked == AS_OF
    assert check.subject == DOI("10.1371/journal.pone.0200077")
    clean = src.events("10.1371/journal.pone.0300002")  # the notice itself is not a retracted paper
    assert clean.status is NoticeStatus.NONE_FOUND
    assert clean.checked == AS_OF
    concern = src.events("10.5555/ecl.2020.3")
    assert concern.status is NoticeStatus.EVENTS_FOUND
    assert concern.retracted is False  # an expression of concern is not a retraction
    unavailable = src.events("W2741809807")
    assert unavailable.status is NoticeStatus.UNAVAILABLE
    assert unavailable.retracted is None
    assert len(src.index) == 2


def test_checked_defaults_to_file_date() -> None:
    src = rw.RetractionWatchSource(path=RW_CSV)
    expected = dt.datetime.fromtimestamp(RW_CSV.stat().st_mtime, tz=dt.UTC)
    assert src.events("10.1155/2099/1").checked == expected


def test_open_retractions_labels_disagree() -> None:
    events = rw.parse_open_retractions(OPEN_RETRACTIONS.read_bytes())
    assert [(e.kind, e.label) for e in events] == [
        (EventKind.ERRATUM, "erratum"),
        (EventKind.RETRACTION, "retracted: true"),
    ]
    erratum, flag = events
    assert erratum.subject == DOI("10.5555/abb.2010.42")
    assert erratum.notice == DOI("10.5555/erratum.2019.1")
    assert erratum.date == dt.date(2019, 5, 4)  # from the update's millisecond timestamp
    assert erratum.source == "openretractions"
    assert flag.subject == DOI("10.5555/abb.2010.42")
    assert flag.date == dt.date(2019, 1, 8)
    assert flag.reason is not None
    assert "erratum" in flag.reason
    assert "disagree" in flag.reason
    check = rw.open_retractions_check(OPEN_RETRACTIONS.read_bytes(), checked=AS_OF)
    assert check.status is NoticeStatus.EVENTS_FOUND
    assert check.retracted is True
    assert check.sources == ("openretractions",)


def test_open_retractions_agreeing_and_clean() -> None:
    events = rw.parse_open_retractions(
        b'{"retracted": true, "identifier": {"doi": "10.1000/a"},'
        b' "updates": [{"type": "retraction", "identifier": {"doi": "10.1000/n"}, "timestamp": 0}]}'
    )
    assert [e.kind for e in events] == [EventKind.RETRACTION, EventKind.RETRACTION]
    assert events[1].reason is None  # the labels agree
    clean = rw.open_retractions_check(
        b'{"retracted": false, "identifier": {"doi": "10.1000/a"}}', checked=AS_OF
    )
    assert clean.status is NoticeStatus.NONE_FOUND
    assert clean.subject == DOI("10.1000/a")
    with pytest.raises(ParseError):
        rw.parse_open_retractions(b"<html>")


def write_csv(tmp_path: Path, *rows: str) -> Path:
    path = tmp_path / "rw.csv"
    path.write_text("\n".join((HEADER, *rows)) + "\n", encoding="utf-8")
    return path


def row(
    record: str, nature: str, *, doi: str = "", pmid: str = "0", notice: str = "", date: str = ""
) -> str:
    cells = dict.fromkeys(rw.RETRACTION_WATCH_COLUMNS, "")
    cells.update(
        {
            "Record ID": record,
            "RetractionNature": nature,
            "OriginalPaperDOI": doi,
            "OriginalPaperPubMedID": pmid,
            "RetractionDOI": notice,
            "RetractionDate": date,
            "Reason": "+Error in Data;",
        }
    )
    return ",".join(f'"{cells[c]}"' for c in rw.RETRACTION_WATCH_COLUMNS)


def test_index_by_doi_and_pmid(tmp_path: Path) -> None:
    path = write_csv(
        tmp_path,
        row(
            "1",
            "Correction",
            doi="10.1000/paper.one",
            notice="10.1000/notice.1",
            date="1/2/2020 0:00",
        ),
        row("2", "Retraction", doi="10.1000/PAPER.ONE", pmid="12345", date="12/31/2021 0:00"),
        row("3", "Expression of concern", doi="Unavailable", pmid="777"),
        row("4", "Reinstatement", doi="10.1000/paper.four"),
        row("5", "Retraction and Replacement", doi="10.1000/paper.five"),
    )
    src = load_source("retractionwatch", path=str(path), as_of=AS_OF)
    assert isinstance(src, EventSource)  # narrows the type for what follows
    assert_protocols(src, EventSource)  # no stub: an absent capability is no method
    one = src.events("doi:10.1000/paper.one")
    assert [(e.kind, e.date) for e in one.events] == [
        (EventKind.CORRECTION, dt.date(2020, 1, 2)),
        (EventKind.RETRACTION, dt.date(2021, 12, 31)),
    ]
    assert one.events[0].notice == DOI("10.1000/notice.1")
    assert src.events("PMID:12345").events[0].kind is EventKind.RETRACTION
    concern = src.events("PMID:777")
    assert concern.events[0].kind is EventKind.EXPRESSION_OF_CONCERN
    assert concern.events[0].subject == PMID("777")  # no DOI: the PubMed id is the subject
    assert src.events("10.1000/paper.four").events[0].kind is EventKind.REINSTATEMENT
    other = src.events("10.1000/paper.five").events[0]
    assert (other.kind, other.label) == (EventKind.OTHER, "Retraction and Replacement")
    assert src.events("10.1000/paper.four").retracted is False
    assert_protocols(src, EventSource)


def test_not_a_retraction_watch_file(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(ParseError, match="missing columns"):
        rw.RetractionWatchSource(path=path, as_of=AS_OF).events("10.1000/x")


def test_windows_1252_file(tmp_path: Path) -> None:
    # Older exports were Windows-1252: bytes that are not UTF-8 must not stop the index.
    path = tmp_path / "rw.csv"
    line = row("9", "Retraction", doi="10.1000/cafe").replace(
        '"9","",', '"9","Caf\u00e9 study",', 1
    )
    path.write_bytes((HEADER + "\n" + line + "\n").encode("cp1252"))
    src = rw.RetractionWatchSource(path=path, as_of=AS_OF)
    assert src.events("10.1000/cafe").retracted is True
    assert src.index.records("10.1000/cafe")[0].title == "Caf\u00e9 study"
