"""Row-by-row reading of dataset files, one reader per format, with 1-based row numbers.

Everything streams: JSON Lines a line at a time, Parquet a row group at a time, Arrow a record batch at a time,
CSV a record at a time and a JSON array an element at a time (so a truncated array still tells after which row it
breaks off). A line that is not valid JSON or not UTF-8, or a CSV record whose fields do not match its header, is
reported as a `RowProblem` instead of stopping the read. A CSV row is the header's columns mapped to text: an
empty cell is "", never None (a CSV file cannot tell an empty value from a missing one, and "NA" is text too).

A dataset folder is read a split at a time, its rows numbered on across the split's files (datafiles/layout.py).
"""

import codecs
import csv
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from training_platform.datafiles.depth import first_deep_element, too_deep
from training_platform.datafiles.errors import DatasetFileError, OverLimitError, RowProblem
from training_platform.datafiles.layout import content_format, data_files, file_format
from training_platform.datafiles.limits import (
    DEFAULT_LIMITS,
    ReadLimits,
    arrow_size,
    decoded_bytes,
    open_arrow,
    open_parquet,
    over_decoded_limit,
)

_READ_BLOCK = 1 << 20
_ROWS_AT_ONCE = 256  # Parquet and Arrow rows made Python objects at once
_WHITE_SPACE = re.compile(r"[ \t\r\n]*")
# Python's csv module refuses a field over 128 KiB; pyarrow's reader, which reads the same files as tables, takes one
# up to the 2 GiB an Arrow string holds.
csv.field_size_limit(2**31 - 1)
_NOT_UTF8 = re.compile("[\udc80-\udcff]")  # what undecodable bytes become, decoded with errors="surrogateescape"


def iter_rows(
    path: Path, start: int = 1, limits: ReadLimits = DEFAULT_LIMITS, *, split: str | None = None
) -> Iterator[tuple[int, dict[str, Any] | RowProblem]]:
    """Every row of a file or a split (`data_files`) from row `start` on; a split's rows are numbered on across its
    files. Rows before `start` are skipped as cheaply as the format allows (JSON Lines: not parsed)."""
    offset = 0
    for file in data_files(path, split=split):
        last = 0
        for last, row in _ROW_READERS[content_format(file)](file, max(1, start - offset), limits):
            yield offset + last, RowProblem(offset + last, row.message) if isinstance(row, RowProblem) else row
        offset += last or _last_row_number(file, limits)


def _jsonl_rows(
    path: Path, start: int = 1, limits: ReadLimits = DEFAULT_LIMITS
) -> Iterator[tuple[int, dict[str, Any] | RowProblem]]:
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if number < start or not raw.strip():
                continue
            if too_deep(raw, limits.max_json_depth):
                yield number, RowProblem(number, limits.too_deep_message())
                continue
            try:
                value = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError as error:
                yield number, RowProblem(number, f"not valid UTF-8 (byte {error.start + 1} of the line)")
                continue
            except json.JSONDecodeError as error:
                yield number, RowProblem(number, f"invalid JSON: {error.msg} at column {error.colno}")
                continue
            except RecursionError:  # a limit near Python's own recursion limit
                yield number, RowProblem(number, limits.too_deep_message())
                continue
            yield number, value if isinstance(value, dict) else RowProblem(number, "is not a JSON object")


def _json_rows(
    path: Path, start: int = 1, limits: ReadLimits = DEFAULT_LIMITS
) -> Iterator[tuple[int, dict[str, Any] | RowProblem]]:
    if (row := first_deep_element(path, limits.max_json_depth)) is not None:
        # One malformed element breaks a JSON array file whole (see _JsonArrayReader); so does this one.
        raise DatasetFileError(f"{path.name}: row {row} {limits.too_deep_message()}")
    for number, value in enumerate(_JsonArrayReader(path), start=1):
        if number >= start:
            yield number, value if isinstance(value, dict) else RowProblem(number, "is not a JSON object")


class _JsonArrayReader:
    """The elements of a JSON array file, decoded one at a time from a window of the text (never the whole file)."""

    def __init__(self, path: Path):
        self.path = path
        self.rows = 0
        self._decoder = json.JSONDecoder()
        self._utf8 = codecs.getincrementaldecoder("utf-8")()
        self._bytes = 0
        self._text = ""
        self._position = 0
        self._eof = False

    def __iter__(self) -> Iterator[Any]:
        with open(self.path, "rb") as self._file:
            first = self._peek()
            if first is None:
                raise DatasetFileError(f"{self.path.name} is not valid JSON: the file is empty")
            if first != "[":
                raise DatasetFileError(
                    f"{self.path.name} must hold a JSON array of objects or JSON Lines (one object per line)"
                )
            self._position += 1
            if self._peek() == "]":
                self._position += 1
            else:
                while True:
                    yield self._element()
                    self.rows += 1
                    separator = self._peek()
                    self._position += 1
                    if separator == "]":
                        break
                    if separator != ",":
                        found = "the end of the file" if separator is None else repr(separator)
                        raise self._broken(f"expected ',' or ']' after row {self.rows} but found {found}")
            if self._peek() is not None:
                raise self._broken(f"unexpected content after the closing ']' (after row {self.rows})")

    def _element(self) -> Any:
        self._peek()
        while True:
            try:
                value, end = self._decoder.raw_decode(self._text, self._position)
            except json.JSONDecodeError as error:
                if self._fill():
                    continue  # the element may go on past the window
                raise self._broken(f"row {self.rows + 1} is malformed or cut off ({error.msg})") from None
            if end == len(self._text) and self._fill():
                continue  # a number ending the window may go on too
            self._position = end
            return value

    def _peek(self) -> str | None:
        """The next character that is not white space, or None at the end of the file."""
        while True:
            self._position = _WHITE_SPACE.match(self._text, self._position).end()
            if self._position < len(self._text):
                return self._text[self._position]
            if not self._fill():
                return None

    def _fill(self) -> bool:
        if self._eof:
            return False
        if self._position > _READ_BLOCK:
            self._text, self._position = self._text[self._position :], 0
        chunk = self._file.read(_READ_BLOCK)
        try:
            self._text += self._utf8.decode(chunk, final=not chunk)
        except UnicodeDecodeError as error:
            offset = self._bytes + error.start
            raise DatasetFileError(
                f"{self.path.name} is not valid UTF-8 (byte offset {offset}, in row {self.rows + 1})"
            ) from None
        self._bytes += len(chunk)
        self._eof = not chunk
        return True

    def _broken(self, reason: str) -> DatasetFileError:
        return DatasetFileError(f"{self.path.name} is not valid JSON: {reason}")


def _parquet_rows(
    path: Path, start: int = 1, limits: ReadLimits = DEFAULT_LIMITS
) -> Iterator[tuple[int, dict[str, Any] | RowProblem]]:
    parquet = open_parquet(path, limits)
    decoded = _DecodedCount(path, limits)
    number = 0
    for group in range(parquet.num_row_groups):
        size = parquet.metadata.row_group(group).num_rows
        if number + size < start:
            number += size  # a whole row group before the start is never decoded
            continue
        try:
            table = parquet.read_row_group(group)
        except MemoryError:  # out of the decoding worker's memory: its limit, not a corrupt file
            raise
        except Exception as error:  # a footer that reads but data pages that do not
            raise DatasetFileError(f"{path.name} is not a readable Parquet file: {error}") from None
        yield from _sliced_rows(decoded.counted(table), number, start)
        number += size


def _sliced_rows(data, number: int, start: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """The rows of a table or batch after row `number`, from `start` on: made Python objects a slice at a time, so
    a reader stopping after a page holds no more than a slice of them."""
    first = max(0, start - number - 1)
    for offset in range(first, data.num_rows, _ROWS_AT_ONCE):
        yield from enumerate(data.slice(offset, _ROWS_AT_ONCE).to_pylist(), start=number + offset + 1)


class _DecodedCount:
    """Bytes decoded so far, each row group or batch counted before a row of it is made Python objects
    (datafiles/limits.py `decoded_bytes`)."""

    def __init__(self, path: Path, limits: ReadLimits):
        self.path, self.limits, self.total = path, limits, 0

    def counted(self, data):
        self.total += decoded_bytes(data)
        if self.total > self.limits.max_decoded_bytes:
            raise over_decoded_limit(self.path.name, self.limits)
        return data


def _csv_rows(
    path: Path, start: int = 1, limits: ReadLimits = DEFAULT_LIMITS
) -> Iterator[tuple[int, dict[str, Any] | RowProblem]]:
    """Data records after the header, numbered from 1; blank lines are no records (pyarrow's reader skips them too)."""
    with open(path, "rb") as handle:
        records = _csv_records(handle, path)
        header = _csv_header(next(records, None), path, limits)
        for number, fields in enumerate(records, start=1):
            if number < start:
                continue
            if len(fields) != len(header):
                yield number, RowProblem(number, f"has {len(fields)} fields where the header has {len(header)}")
                continue
            undecodable = [name for name, value in zip(header, fields, strict=True) if _NOT_UTF8.search(value)]
            if undecodable:
                yield number, RowProblem(number, f"not valid UTF-8 (column '{undecodable[0]}')")
            else:
                yield number, dict(zip(header, fields, strict=True))


def csv_header(path: Path, limits: ReadLimits = DEFAULT_LIMITS) -> list[str]:
    """The column names a CSV file's first record gives, refused when they cannot name a row's fields."""
    with open(path, "rb") as handle:
        return _csv_header(next(_csv_records(handle, path), None), path, limits)


def _csv_records(handle, path: Path) -> Iterator[list[str]]:
    """The file's records as Python's csv module parses them the way pyarrow's reader does (a quoted value may span
    lines; a quote not closed runs on to the end of the file), blank lines left out."""
    # A byte order mark is dropped, undecodable bytes kept as surrogates for the row that holds them to be told.
    text = io.TextIOWrapper(handle, encoding="utf-8-sig", errors="surrogateescape", newline="")
    try:
        yield from (fields for fields in csv.reader(text, strict=False) if fields)
    except csv.Error as error:
        raise DatasetFileError(f"{path.name} is not a readable CSV file: {error}") from None


def _csv_header(header: list[str] | None, path: Path, limits: ReadLimits) -> list[str]:
    """Checked before a row is read: a header of many columns makes every row a dictionary of as many keys (a
    1 MB header of 100,000 columns cost hundreds of MB and seconds per read)."""
    if header is None:
        raise DatasetFileError(f"{path.name} is empty: a CSV file starts with a header row naming its columns")
    if len(header) > limits.max_csv_columns:
        raise OverLimitError(
            f"{path.name} has {len(header)} columns, over the limit of {limits.max_csv_columns} "
            f"(PLATFORM_MAX_CSV_COLUMNS)"
        )
    if any(_NOT_UTF8.search(name) for name in header):
        raise DatasetFileError(f"{path.name}: the header row is not valid UTF-8")
    if len(set(header)) < len(header):
        repeated = next(name for name in header if header.count(name) > 1)
        raise DatasetFileError(f"{path.name}: the header names the column '{repeated}' twice")
    return header


def _arrow_rows(
    path: Path, start: int = 1, limits: ReadLimits = DEFAULT_LIMITS
) -> Iterator[tuple[int, dict[str, Any] | RowProblem]]:
    reader = open_arrow(path, limits)
    decoded = _DecodedCount(path, limits)
    number = 0
    while (batch := _next_batch(reader, path)) is not None:
        if number + batch.num_rows < start:
            number += batch.num_rows  # zero-copy from the mapped file: a batch before the start is never converted
            continue
        yield from _sliced_rows(decoded.counted(batch), number, start)
        number += batch.num_rows


def _next_batch(reader, path: Path):
    try:
        return reader.read_next_batch()
    except StopIteration:
        return None
    except MemoryError:  # out of the decoding worker's memory: its limit, not a corrupt file
        raise
    except Exception as error:  # metadata that reads but buffers that do not
        raise DatasetFileError(f"{path.name} is not a readable Arrow file: {error}") from None


_ROW_READERS = {
    "json": _json_rows,
    "jsonl": _jsonl_rows,
    "parquet": _parquet_rows,
    "csv": _csv_rows,
    "arrow": _arrow_rows,
}


def _last_row_number(file: Path, limits: ReadLimits = DEFAULT_LIMITS) -> int:
    return max((number for number, _row in _ROW_READERS[content_format(file)](file, 1, limits)), default=0)


def count_rows(path: Path, *, split: str | None = None) -> int:
    files = data_files(path, split=split)
    kind = file_format(files[0])
    if kind == "parquet":
        return sum(open_parquet(file, limits=None).metadata.num_rows for file in files)
    if kind == "arrow":
        return sum(arrow_size(file)[0] for file in files)
    return sum(1 for _ in iter_rows(path, split=split))
