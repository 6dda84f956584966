"""Streaming readers for bulk dumps: OpenAlex works, the Crossref public data file, OpenCitations.

For users who outgrow the APIs. Every reader is a generator that reads one record at a time, so
memory stays constant whatever the dump's size:

* :func:`iter_openalex_works`: the OpenAlex snapshot's works (``data/works/updated_date=*/
  part_*.gz``), JSON Lines compressed with gzip; one dict per work.
* :func:`iter_crossref_items`: the Crossref public data file, ``*.json.gz`` files each holding
  ``{"items": [...]}`` (streamed element by element, never loaded whole) or ``*.jsonl.gz``.
* :func:`iter_opencitations_csv`: OpenCitations Index CSV dumps (``.zip`` of CSVs, ``.csv.gz`` or
  ``.csv``) as :class:`~citeledger.sources.opencitations.CitationLink` values, and
  :func:`iter_opencitations_meta_csv`: OpenCitations Meta dumps as papers.

Each takes a file, a directory (searched recursively, in sorted order) or a list of them, an
optional ``progress`` callback (called with the number of records read so far, every
``progress_every`` records and after each file; ``True`` draws a tqdm bar on a terminal) and
limits that bound a hostile or broken file (a "gzip bomb" expands a few megabytes into
terabytes):

* ``max_record_bytes``: the largest single line / record (decompressed);
* ``max_bytes``: the most decompressed bytes read in one call, over all files;
* ``max_ratio``: the largest decompressed-to-compressed ratio of a file once it has expanded
  past 64 MiB (real JSON and CSV compress 5-15x; a bomb of zeros ~1000x).

Exceeding any limit raises :class:`~citeledger.errors.ParseError` naming the file.

A record that cannot be read (a line that is not a JSON object, an array element that is not
one, a CSV row or ``parse`` result that fails) raises :class:`~citeledger.errors.ParseError`
by default. Pass ``on_unreadable`` to go on instead: it is called with an
:class:`~citeledger.sources.UnreadableItem` naming the file and line for each such record, and
every other record is still yielded. Limits, corrupt compression and JSON that cannot be
resynchronised always raise.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io
import json
import os
import zipfile
import zlib
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Final, Generic, TypedDict, TypeVar, Unpack

from attrs import frozen

from citeledger._progress import progress_callback
from citeledger.errors import ParseError
from citeledger.formats._items import UnreadableItem
from citeledger.formats.opencitations import CitationLink, link_from_row, paper_from_meta_row

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from citeledger.model import Paper

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_RATIO",
    "DEFAULT_MAX_RECORD_BYTES",
    "DumpLimits",
    "DumpOptions",
    "iter_crossref_items",
    "iter_openalex_works",
    "iter_opencitations_csv",
    "iter_opencitations_meta_csv",
]

_T = TypeVar("_T")

#: Largest decompressed record (line) accepted: OpenAlex works with thousands of authorships
#: reach a few megabytes; 32 MiB leaves a wide margin.
DEFAULT_MAX_RECORD_BYTES: Final = 32 * 1024 * 1024
#: Most decompressed bytes one call reads (all files together). The full OpenAlex works
#: snapshot is larger: pass a bigger value (or None) deliberately when streaming all of it.
DEFAULT_MAX_BYTES: Final = 256 * 1024**3
#: Largest decompressed/compressed ratio of one file after :data:`RATIO_WARMUP` bytes.
DEFAULT_MAX_RATIO: Final = 200.0
#: Decompressed bytes a file may produce before its ratio is checked.
RATIO_WARMUP: Final = 64 * 1024 * 1024

_CHUNK: Final = 64 * 1024
_GZIP_MAGIC: Final = b"\x1f\x8b"
_ZIP_MAGIC: Final = b"PK\x03\x04"

PathLike = str | os.PathLike[str]
# Errors a corrupt or truncated compressed stream raises while being read.
_CORRUPT: Final = (OSError, EOFError, zipfile.BadZipFile, zlib.error)


@frozen(kw_only=True)
class DumpLimits:
    """The bounds a dump reader enforces (see the module docs).

    Args:
        max_record_bytes: Largest decompressed record / line.
        max_bytes: Most decompressed bytes per call (None: unbounded).
        max_ratio: Largest decompressed/compressed ratio per file after 64 MiB (None: off).
    """

    max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES
    max_bytes: int | None = DEFAULT_MAX_BYTES
    max_ratio: float | None = DEFAULT_MAX_RATIO


class DumpOptions(TypedDict, total=False):
    """The keyword options every dump reader takes (none required; see the module docs).

    The keys:

    * ``progress``: Called with the number of records read so far (``True``: a tqdm bar).
    * ``progress_every``: Records between two progress calls (default 10,000).
    * ``max_record_bytes``: Largest decompressed record / line (default 32 MiB).
    * ``max_bytes``: Most decompressed bytes in this call (default 256 GiB; None: unbounded).
    * ``max_ratio``: Largest decompression ratio per file (default 200; None: off).
    * ``on_unreadable``: Called with each record that cannot be read (what that is, each reader
      says), and reading goes on; None raises a ParseError instead.

    .. versionadded:: 0.2.0
       The options each reader took as keywords before, stated once.
    """

    progress: Callable[[int], None] | bool | None
    progress_every: int
    max_record_bytes: int
    max_bytes: int | None
    max_ratio: float | None
    on_unreadable: Callable[[UnreadableItem], None] | None


@frozen
class _Reading:
    """One reader call's :class:`DumpOptions`, defaults filled in."""

    limits: DumpLimits
    progress: Callable[[int], None] | bool | None
    progress_every: int
    on_unreadable: Callable[[UnreadableItem], None] | None

    @classmethod
    def of(cls, reader: str, options: DumpOptions) -> _Reading:
        """The options given to ``reader``; an unknown one is a TypeError, as for a keyword."""
        unknown = sorted(options.keys() - DumpOptions.__optional_keys__)
        if unknown:
            raise TypeError(f"{reader}() got an unexpected keyword argument {unknown[0]!r}")
        limits = DumpLimits(
            max_record_bytes=options.get("max_record_bytes", DEFAULT_MAX_RECORD_BYTES),
            max_bytes=options.get("max_bytes", DEFAULT_MAX_BYTES),
            max_ratio=options.get("max_ratio", DEFAULT_MAX_RATIO),
        )
        every = options.get("progress_every", 10_000)
        return cls(limits, options.get("progress"), every, options.get("on_unreadable"))

    def start(self) -> tuple[_Meter, _Counter]:
        """The byte meter and the progress counter of the call, when reading starts."""
        return _Meter(self.limits), _Counter(self.progress, self.progress_every)


class _CountingReader(io.RawIOBase):
    """A raw file wrapper counting the (compressed) bytes read from disk."""

    def __init__(self, raw: IO[bytes]) -> None:
        super().__init__()
        self._raw = raw
        self.count = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return self._raw.seekable()

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return self._raw.seek(offset, whence)

    def tell(self) -> int:
        return self._raw.tell()

    def readinto(self, buffer: Any) -> int:
        data = self._raw.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        self.count += n
        return n


class _Meter:
    """Counts decompressed bytes of one call and enforces the limits."""

    def __init__(self, limits: DumpLimits) -> None:
        self.limits = limits
        self.total = 0

    def add(
        self, n: int, *, name: str, file_bytes: int, compressed: _CountingReader | None
    ) -> None:
        self.total += n
        lim = self.limits
        if lim.max_bytes is not None and self.total > lim.max_bytes:
            raise ParseError(
                f"{name}: more than max_bytes={lim.max_bytes:,} decompressed bytes read "
                "(a gzip bomb or a larger dump than expected; raise max_bytes deliberately)"
            )
        if (
            lim.max_ratio is not None
            and compressed is not None
            and file_bytes > RATIO_WARMUP
            and file_bytes > lim.max_ratio * max(compressed.count, 1)
        ):
            raise ParseError(
                f"{name}: decompresses more than {lim.max_ratio:g}x ({file_bytes:,} bytes from "
                f"{compressed.count:,}): refusing a likely gzip bomb"
            )


class _Source:
    """One opened input: a decompressed binary stream plus what the meter needs."""

    def __init__(
        self, name: str, stream: IO[bytes] | io.BufferedIOBase, counter: _CountingReader | None
    ) -> None:
        self.name = name
        self.stream = stream
        self.counter = counter
        self.bytes = 0


def _files(paths: PathLike | Iterable[PathLike], patterns: tuple[str, ...]) -> list[Path]:
    items: Iterable[PathLike] = [paths] if isinstance(paths, str | os.PathLike) else paths
    out: list[Path] = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            out += sorted(p for p in path.rglob("*") if p.is_file() and p.name.endswith(patterns))
        else:
            out.append(path)
    return out


def _opened(path: Path, member_suffixes: tuple[str, ...]) -> Iterator[_Source]:
    """Open ``path`` (gzip, zip or plain, by magic bytes) and yield its decompressed streams."""
    with path.open("rb") as fh:
        magic = fh.read(4)
        fh.seek(0)
        counter = _CountingReader(fh)
        if magic.startswith(_GZIP_MAGIC):
            with gzip.GzipFile(fileobj=counter, mode="rb") as gz:
                yield _Source(str(path), gz, counter)
        elif magic.startswith(_ZIP_MAGIC):
            with zipfile.ZipFile(counter) as zf:
                for info in sorted(zf.infolist(), key=lambda i: i.filename):
                    if info.is_dir() or not info.filename.endswith(member_suffixes):
                        continue
                    with zf.open(info) as member:
                        yield _Source(f"{path}!{info.filename}", member, counter)
        else:
            yield _Source(str(path), fh, None)


def _read_line(src: _Source, meter: _Meter, cap: int) -> bytes:
    """The stream's next physical line, at most ``cap + 1`` bytes, metered (b"" at its end).

    Raises:
        ParseError: the compressed data is corrupt or truncated.
    """
    try:
        line = src.stream.readline(cap + 1)
    except _CORRUPT as exc:
        raise ParseError(f"{src.name}: corrupt or truncated compressed data: {exc}") from exc
    if line:
        src.bytes += len(line)
        meter.add(len(line), name=src.name, file_bytes=src.bytes, compressed=src.counter)
    return line


def _lines(src: _Source, meter: _Meter) -> Iterator[bytes]:
    """Lines of a stream, each bounded by ``max_record_bytes``."""
    cap = meter.limits.max_record_bytes
    lineno = 0
    while line := _read_line(src, meter, cap):
        lineno += 1
        if len(line) > cap:
            raise ParseError(f"{src.name}: line {lineno} is longer than max_record_bytes={cap:,}")
        yield line


class _Counter:
    def __init__(self, progress: Callable[[int], None] | bool | None, every: int) -> None:
        self.progress: Callable[[int], None] | None = None
        if progress is True:
            # The package-wide helper: a tqdm bar (extra ``progress``), drawn only on a terminal.
            advance, _close = progress_callback(progress, total=None, desc="records")
            done = 0

            def report(n: int) -> None:
                nonlocal done
                advance(n - done)
                done = n

            self.progress = report
        elif callable(progress):
            self.progress = progress
        self.every = max(1, every)
        self.n = 0

    def tick(self) -> None:
        self.n += 1
        if self.progress is not None and self.n % self.every == 0:
            self.progress(self.n)

    def flush(self) -> None:
        if self.progress is not None:
            self.progress(self.n)


def _unreadable(
    on_unreadable: Callable[[UnreadableItem], None] | None,
    error: ParseError,
    *,
    what: str,
    raw: object,
) -> None:
    """Report ``error`` about one record to ``on_unreadable``, or raise it without one."""
    if on_unreadable is None:
        raise error
    on_unreadable(UnreadableItem.of("dump", what, None, error, raw))


def _json_lines(
    src: _Source,
    meter: _Meter,
    counter: _Counter,
    on_unreadable: Callable[[UnreadableItem], None] | None = None,
) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(where, record)`` per line; ``where`` is "file: line N" for error messages."""
    for lineno, line in enumerate(_lines(src, meter), start=1):
        if not line.strip():
            continue
        where = f"{src.name}: line {lineno}"
        try:
            record = json.loads(line)
        except RecursionError:
            error = ParseError(f"{where} is not JSON: nested too deeply")
            _unreadable(on_unreadable, error, what="JSON line", raw=line)
            continue
        except ValueError as exc:
            error = ParseError(f"{where} is not JSON: {exc}")
            error.__cause__ = exc
            _unreadable(on_unreadable, error, what="JSON line", raw=line)
            continue
        if not isinstance(record, dict):
            error = ParseError(f"{where} is not a JSON object")
            _unreadable(on_unreadable, error, what="JSON line", raw=line)
            continue
        counter.tick()
        yield where, record


def _parsed(
    records: Iterable[tuple[str, dict[str, Any]]],
    parse: Callable[[dict[str, Any]], _T] | None,
    on_unreadable: Callable[[UnreadableItem], None] | None,
) -> Iterator[Any]:
    """Each record, or ``parse(record)``; a ``parse`` failure is one unreadable record."""
    for where, record in records:
        if parse is None:
            yield record
            continue
        if on_unreadable is None:
            yield parse(record)  # fail fast, the parser's own error as before
            continue
        try:
            value = parse(record)
        except ParseError as exc:
            error = ParseError(f"{where}: {exc}")
            error.__cause__ = exc
            _unreadable(on_unreadable, error, what="dump record", raw=record)
            continue
        yield value


@frozen
class _JsonDump:
    """How a JSON dump is laid out: its files, and where in a file the records are.

    Args:
        files: The suffixes of the files a directory search takes.
        members: The suffixes of the decompressed files.
        items: The top-level array holding the records of a ``.json`` file; None: every file is
            JSON Lines, one record per line (a ``.jsonl`` file always is).
    """

    files: tuple[str, ...]
    members: tuple[str, ...]
    items: str | None = None

    def read(
        self,
        paths: PathLike | Iterable[PathLike],
        parse: Callable[[dict[str, Any]], _T] | None,
        reading: _Reading,
    ) -> Iterator[Any]:
        """Each record of ``paths`` (or ``parse(record)``), in file order."""
        meter, counter = reading.start()
        on_unreadable = reading.on_unreadable
        for path in _files(paths, self.files):
            items = None if ".jsonl" in path.name else self.items
            for src in _opened(path, self.members):
                records = (
                    _json_lines(src, meter, counter, on_unreadable)
                    if items is None
                    else _json_items(src, meter, counter, items, on_unreadable)
                )
                yield from _parsed(records, parse, on_unreadable)
            counter.flush()


_OPENALEX = _JsonDump(files=(".gz", ".jsonl", ".json"), members=(".jsonl", ".json"))
_CROSSREF = _JsonDump(
    files=(".json.gz", ".jsonl.gz", ".json", ".jsonl"),
    members=(".json", ".jsonl"),
    items="items",
)


def iter_openalex_works(
    paths: PathLike | Iterable[PathLike],
    *,
    parse: Callable[[dict[str, Any]], _T] | None = None,
    **options: Unpack[DumpOptions],
) -> Iterator[Any]:
    """Stream the works of an OpenAlex snapshot (JSON Lines, gzip or plain).

    Args:
        paths: A ``part_*.gz`` file, a directory (``*.gz``, ``*.jsonl``, ``*.json`` files found
            recursively, sorted) or a list of them.
        parse: Applied to each work dict (e.g. an OpenAlex work parser); dicts when None.
        **options: :class:`DumpOptions` (progress, limits); ``on_unreadable`` is called with
            each line that is not a JSON object (or that ``parse`` rejects with a ParseError).

    Yields:
        One dict (or ``parse(dict)``) per work, in file order.

    Raises:
        ParseError: a line is not a JSON object (without ``on_unreadable``), or a limit is
            exceeded.

    .. versionchanged:: 0.1.0
       ``on_unreadable``.
    """
    return _OPENALEX.read(paths, parse, _Reading.of("iter_openalex_works", options))


# --------------------------------------------------------------------------- Crossref


class _JSONStream:
    """Incremental reader of one large JSON document, value by value, in bounded memory."""

    def __init__(self, src: _Source, meter: _Meter) -> None:
        self.src = src
        self.meter = meter
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.json = json.JSONDecoder()
        self.buf = ""
        self.pos = 0
        self.eof = False

    def fill(self, want: int = _CHUNK) -> bool:
        if self.eof:
            return False
        try:
            data = self.src.stream.read(want)
        except _CORRUPT as exc:
            raise ParseError(
                f"{self.src.name}: corrupt or truncated compressed data: {exc}"
            ) from exc
        self.src.bytes += len(data)
        self.meter.add(
            len(data), name=self.src.name, file_bytes=self.src.bytes, compressed=self.src.counter
        )
        if self.pos > _CHUNK:
            self.buf, self.pos = self.buf[self.pos :], 0
        try:
            self.buf += self.decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            raise ParseError(f"{self.src.name}: not UTF-8: {exc}") from exc
        if not data:
            self.eof = True
        return bool(data)

    def peek(self) -> str:
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in " \t\r\n":
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self.fill():
                raise ParseError(f"{self.src.name}: unexpected end of JSON")

    def expect(self, chars: str) -> str:
        c = self.peek()
        if c not in chars:
            raise ParseError(f"{self.src.name}: expected one of {chars!r} in JSON, found {c!r}")
        self.pos += 1
        return c

    def value(self) -> Any:
        self.peek()
        cap = self.meter.limits.max_record_bytes
        while True:
            try:
                obj, end = self.json.raw_decode(self.buf, self.pos)
            except ValueError as exc:
                if self.eof:
                    raise ParseError(f"{self.src.name}: invalid or truncated JSON: {exc}") from exc
                if len(self.buf) - self.pos > cap:
                    raise ParseError(
                        f"{self.src.name}: a JSON value is longer than max_record_bytes={cap:,}"
                    ) from exc
                # Read as much again as is pending, so a large value costs O(log n) re-parses.
                self.fill(max(_CHUNK, len(self.buf) - self.pos))
                continue
            if end == len(self.buf) and not self.eof and not isinstance(obj, dict | list | str):
                # A number at the buffer's end may continue in the next chunk.
                self.fill()
                continue
            self.pos = end
            return obj


def _json_items(
    src: _Source,
    meter: _Meter,
    counter: _Counter,
    key: str,
    on_unreadable: Callable[[UnreadableItem], None] | None = None,
) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(where, element)`` for the array under top-level ``key`` of one JSON object."""
    stream = _JSONStream(src, meter)
    stream.expect("{")
    if stream.peek() == "}":
        return
    while True:
        name = stream.value()
        if not isinstance(name, str):
            raise ParseError(f"{src.name}: JSON object key is not a string")
        stream.expect(":")
        if name == key:
            stream.expect("[")
            if stream.peek() == "]":
                return
            index = 0
            while True:
                item = stream.value()
                where = f"{src.name}: {key}[{index}]"
                if isinstance(item, dict):
                    counter.tick()
                    yield where, item
                else:
                    # The element was read whole, so the stream goes on past it.
                    error = ParseError(f"{where}: an element of {key!r} is not an object")
                    _unreadable(on_unreadable, error, what="dump record", raw=item)
                index += 1
                if stream.expect(",]") == "]":
                    return
        stream.value()  # another top-level field: read and drop
        if stream.expect(",}") == "}":
            return


def iter_crossref_items(
    paths: PathLike | Iterable[PathLike],
    *,
    parse: Callable[[dict[str, Any]], _T] | None = None,
    **options: Unpack[DumpOptions],
) -> Iterator[Any]:
    """Stream the work records of the Crossref public data file.

    ``*.json(.gz)`` files hold one object ``{"items": [...]}``; its array is read element by
    element. ``*.jsonl(.gz)`` files hold one work per line.

    Args:
        paths: A file, a directory (searched recursively for ``.json.gz``, ``.jsonl.gz``,
            ``.json``, ``.jsonl``) or a list of them.
        parse: Applied to each item dict (e.g. a Crossref work parser); dicts when None.
        **options: :class:`DumpOptions` (progress, limits); ``on_unreadable`` is called with
            each element or line that is not a JSON object (or that ``parse`` rejects).

    Raises:
        ParseError: invalid JSON, an element that is not an object (without
            ``on_unreadable``), or a limit exceeded.

    .. versionchanged:: 0.1.0
       ``on_unreadable``.
    """
    return _CROSSREF.read(paths, parse, _Reading.of("iter_crossref_items", options))


# --------------------------------------------------------------------------- OpenCitations


#: Physical lines one quoted CSV field may span (a Meta title with a line break). A quote left
#: open longer than this is a stray quote: its line alone is unreadable and reading resumes at
#: the next line, so one bad byte never swallows the rows after it.
_MAX_CSV_CONTINUATION = 4


class _Oversized:
    """A physical line longer than ``max_record_bytes`` (its bytes are skipped, not kept)."""

    def __init__(self, lineno: int) -> None:
        self.lineno = lineno


def _csv_lines(src: _Source, meter: _Meter) -> Iterator[tuple[int, bytes | _Oversized]]:
    """Physical lines, numbered from 1; an over-long line is drained and yielded as a marker."""
    cap = meter.limits.max_record_bytes
    lineno = 0
    while line := _read_line(src, meter, cap):
        lineno += 1
        if len(line) <= cap:
            yield lineno, line
            continue
        # Reported first (without on_unreadable that raises at once), drained on resume.
        yield lineno, _Oversized(lineno)
        while line and not line.endswith(b"\n"):  # drain the rest of the over-long line
            line = _read_line(src, meter, cap)


def _csv_row(text: str) -> list[str]:
    """One CSV record from its text (raises csv.Error when it is not exactly one record)."""
    rows = list(csv.reader(io.StringIO(text)))
    if len(rows) != 1:
        raise csv.Error(f"{len(rows)} records where one was expected")
    return rows[0]


@frozen
class _CsvDump(Generic[_T]):
    """An OpenCitations CSV dump: the columns it must have, and what a row becomes.

    Args:
        required: Columns the header must name.
        what: The kind of dump, for errors ("citation": "not an OpenCitations citation CSV").
        convert: A row (column name to value) as the value yielded.
    """

    required: tuple[str, ...]
    what: str
    convert: Callable[[dict[str, str]], _T]

    def read(self, paths: PathLike | Iterable[PathLike], reading: _Reading) -> Iterator[_T]:
        """The records of ``paths``, in file order."""
        return _csv_records(self, paths, reading)


def _csv_records(
    dump: _CsvDump[_T], paths: PathLike | Iterable[PathLike], reading: _Reading
) -> Iterator[_T]:
    """Records of CSV dumps, read line by line so every bad line costs that line only.

    A line that is not UTF-8, longer than ``max_record_bytes``, opens a quote it never closes,
    or has the wrong number of fields is one unreadable record (reported with its line number,
    or raised without ``on_unreadable``); reading resumes at the next line.
    """
    meter, counter = reading.start()
    limits, on_unreadable, what = reading.limits, reading.on_unreadable, dump.what
    for path in _files(paths, (".zip", ".csv.gz", ".csv")):
        for src in _opened(path, (".csv",)):
            lines = _csv_lines(src, meter)
            pending: list[tuple[int, bytes | _Oversized]] = []

            def bad(lineno: int, reason: str, raw: object, name: str = src.name) -> None:
                error = ParseError(f"{name}: line {lineno}: {reason}")
                _unreadable(on_unreadable, error, what="CSV row", raw=raw)

            first = next(lines, None)
            if first is None or isinstance(first[1], _Oversized):
                raise ParseError(f"{src.name}: not an OpenCitations {what} CSV (no header)")
            try:
                header = _csv_row(first[1].decode("utf-8-sig"))
            except (csv.Error, UnicodeDecodeError) as exc:
                raise ParseError(f"{src.name}: malformed CSV header: {exc}") from exc
            if any(col not in header for col in dump.required):
                raise ParseError(f"{src.name}: not an OpenCitations {what} CSV (header {header})")
            while True:
                item = pending.pop(0) if pending else next(lines, None)
                if item is None:
                    break
                lineno, data = item
                if isinstance(data, _Oversized):
                    bad(lineno, f"longer than max_record_bytes={limits.max_record_bytes:,}", "")
                    continue
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError as exc:
                    bad(lineno, f"not UTF-8 ({exc.reason} at byte {exc.start})", data)
                    continue
                if not text.strip():
                    continue
                used: list[tuple[int, bytes | _Oversized]] = []
                while text.count('"') % 2 and len(used) < _MAX_CSV_CONTINUATION:
                    more = pending.pop(0) if pending else next(lines, None)
                    if more is None:
                        break
                    used.append(more)
                    if isinstance(more[1], _Oversized):
                        break
                    try:
                        text += more[1].decode("utf-8")
                    except UnicodeDecodeError:
                        break
                row: list[str] | None = None
                reason = ""
                if text.count('"') % 2:
                    reason = "a quote that is never closed"
                else:
                    try:
                        row = _csv_row(text)
                    except csv.Error as exc:
                        reason = f"malformed CSV: {exc}"
                    else:
                        if len(row) != len(header):
                            reason = f"{len(row)} fields where the header has {len(header)}"
                if row is None or reason:
                    # Only this line is lost: the lines read ahead are read again.
                    pending[:0] = used
                    bad(lineno, reason, data)
                    continue
                try:
                    record = dump.convert(dict(zip(header, row, strict=True)))
                except ParseError as exc:
                    error = ParseError(f"{src.name}: line {lineno}: {exc}")
                    error.__cause__ = exc
                    _unreadable(on_unreadable, error, what="CSV row", raw=row)
                    continue
                counter.tick()
                yield record
        counter.flush()


_CITATIONS = _CsvDump(required=("citing", "cited"), what="citation", convert=link_from_row)
_META = _CsvDump(required=("id", "title"), what="Meta", convert=paper_from_meta_row)


def iter_opencitations_csv(
    paths: PathLike | Iterable[PathLike], **options: Unpack[DumpOptions]
) -> Iterator[CitationLink]:
    """Stream the citations of OpenCitations CSV dumps (Index v2 or COCI).

    The header names the columns (``id``/``oci``, ``citing``, ``cited``, ``creation``,
    ``timespan``, ``journal_sc``, ``author_sc``); zip archives are read member by member.

    Args:
        paths: A ``.zip``, ``.csv.gz`` or ``.csv`` file, a directory of them, or a list.
        **options: :class:`DumpOptions` (progress, limits); ``on_unreadable`` is called with
            each row that cannot be read (no citing or cited id, a bad date).

    Raises:
        ParseError: a file without ``citing``/``cited`` columns, a bad row (without
            ``on_unreadable``), or a limit exceeded.

    .. versionchanged:: 0.1.0
       ``on_unreadable``.
    """
    return _CITATIONS.read(paths, _Reading.of("iter_opencitations_csv", options))


def iter_opencitations_meta_csv(
    paths: PathLike | Iterable[PathLike], **options: Unpack[DumpOptions]
) -> Iterator[Paper]:
    """Stream the works of OpenCitations Meta CSV dumps as :class:`~citeledger.model.Paper`.

    Columns: ``id, title, author, issue, volume, venue, page, pub_date, type, publisher,
    editor`` (see :func:`~citeledger.sources.opencitations.paper_from_meta_row`). Arguments as
    :func:`iter_opencitations_csv`.

    Raises:
        ParseError: a file without ``id``/``title`` columns, a bad row, or a limit exceeded.
    """
    return _META.read(paths, _Reading.of("iter_opencitations_meta_csv", options))
