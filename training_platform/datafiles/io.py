"""Row-by-row reading of JSON, JSON Lines and Parquet files, with 1-based row numbers.

Everything streams: JSON Lines a line at a time, Parquet a row group at a time, and a JSON array an element
at a time (so a truncated array still tells after which row it breaks off). A line that is not valid JSON or
not UTF-8 is reported as a `RowProblem` instead of stopping the read. A dataset may also be a directory of
files of one format, read in name order as one sequence of rows.

What a file may cost to read is bounded (`ReadLimits`, docs/security.md): how deeply a JSON row nests, measured
before a parser sees it (datafiles/depth.py), and how large a Parquet file decodes, from its metadata before a
page is decoded and then as its row groups are.
"""

import codecs
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from training_platform.common.paths import OUTSIDE_ROOTS, under_roots
from training_platform.datafiles.depth import first_deep_element, too_deep
from training_platform.errors import FieldError, InvalidInputError

SUPPORTED_SUFFIXES = {".json": "json", ".jsonl": "jsonl", ".parquet": "parquet"}
# A job's data entry that names a registered dataset instead of a file: "dataset:<name or id>".
DATASET_REFERENCE = "dataset:"
_READ_BLOCK = 1 << 20
_WHITE_SPACE = re.compile(r"[ \t\r\n]*")


class DatasetFileError(ValueError):
    """The file as a whole cannot be read (missing, unsupported type, not a JSON array...)."""


@dataclass(frozen=True)
class ReadLimits:
    """What reading one file may cost; the server reads with its settings' values (PLATFORM_MAX_JSON_DEPTH,
    PLATFORM_MAX_DECODED_BYTES), the training process and the CLI with these defaults, the settings' own."""

    max_json_depth: int = 64
    max_decoded_bytes: int = 8 * 2**30

    def too_deep_message(self) -> str:
        return f"nests deeper than {self.max_json_depth} levels of JSON objects and arrays"


DEFAULT_LIMITS = ReadLimits()


@dataclass(frozen=True)
class RowProblem:
    row: int
    message: str


def file_format(path: Path) -> str:
    try:
        return SUPPORTED_SUFFIXES[path.suffix.lower()]
    except KeyError:
        raise DatasetFileError(
            f"unsupported file type '{path.suffix or path.name}'; use .json, .jsonl or .parquet"
        ) from None


def data_files(path: Path) -> list[Path]:
    """The files a dataset path stands for: the file itself, or a directory's data files in name order."""
    if not path.is_dir():
        file_format(path)
        if not path.is_file():
            raise DatasetFileError(f"{path} does not exist or is not a file")
        return [path]
    files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES)
    if not files:
        raise DatasetFileError(f"directory {path} holds no .json, .jsonl or .parquet file")
    formats = {file_format(p) for p in files}
    if len(formats) > 1:
        raise DatasetFileError(f"directory {path} mixes formats ({', '.join(sorted(formats))}); use one format")
    return files


def checked_path(value: str, roots: Sequence[Path], field: str) -> Path:
    """`value` resolved under one of `roots`, or a 422 on `field` that tells nothing about the path."""
    path = under_roots(value, roots)
    if path is None:
        raise InvalidInputError([FieldError(field, OUTSIDE_ROOTS)])
    return path


def checked_data_path(value: str, roots: Sequence[Path], field: str) -> Path:
    """A data path a request names, under the data roots (common/paths.py), and so is every file a directory
    stands for: a link among them may point anywhere."""
    path = checked_path(value, roots, field)
    if path.is_dir():
        try:
            files = data_files(path)
        except DatasetFileError:
            return path  # the read that follows says what is wrong with it
        if any(under_roots(file, roots) is None for file in files):
            raise InvalidInputError([FieldError(field, OUTSIDE_ROOTS)])
    return path


def dataset_format(path: Path) -> str:
    return file_format(data_files(path)[0])


def iter_rows(
    path: Path, start: int = 1, limits: ReadLimits = DEFAULT_LIMITS
) -> Iterator[tuple[int, dict[str, Any] | RowProblem]]:
    """Every row of a file or directory from row `start` on; a directory's rows are numbered on across its files.
    Rows before `start` are skipped as cheaply as the format allows (JSON Lines: not parsed)."""
    offset = 0
    for file in data_files(path):
        last = 0
        for last, row in _ROW_READERS[file_format(file)](file, max(1, start - offset), limits):
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
                    f"{self.path.name} must hold a JSON array of objects (use .jsonl for one object per line)"
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
    number = 0
    for group in range(parquet.num_row_groups):
        size = parquet.metadata.row_group(group).num_rows
        if number + size < start:
            number += size  # a whole row group before the start is never decoded
            continue
        for row in parquet.read_row_group(group).to_pylist():
            number += 1
            if number >= start:
                yield number, row


def open_parquet(path: Path, limits: ReadLimits | None = DEFAULT_LIMITS):
    """The file with its metadata read; refused when the metadata says it decodes to more than the limit
    (`limits=None`: the metadata alone is wanted, nothing will be decoded)."""
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(path)
    except Exception as error:  # pyarrow raises several unrelated types for a corrupt file
        raise DatasetFileError(f"{path.name} is not a readable Parquet file: {error}") from None
    if limits is not None:
        check_parquet(parquet, path.name, limits)
    return parquet


# Bytes one value takes once decoded, by Parquet physical type (a byte array: its 4-byte offset at least).
_VALUE_BYTES = {"BOOLEAN": 1, "INT32": 4, "INT64": 8, "INT96": 12, "FLOAT": 4, "DOUBLE": 8, "BYTE_ARRAY": 4}


def decoded_size(metadata) -> int:
    """A lower bound of what a Parquet file decodes to, from its metadata: per column chunk, its uncompressed
    size or its values times their width, whichever is larger (run-length and dictionary encodings shrink a
    column far below its decoded size even before compression: 450 bytes of file can hold 200 MB of values)."""
    widths = [
        _VALUE_BYTES.get(column.physical_type, column.length or 1)
        for column in (metadata.schema.column(i) for i in range(metadata.num_columns))
    ]
    total = 0
    for index in range(metadata.num_row_groups):
        group = metadata.row_group(index)
        for position in range(group.num_columns):
            chunk = group.column(position)
            values = max(chunk.num_values, group.num_rows)
            total += max(chunk.total_uncompressed_size, values * widths[position])
    return total


def check_parquet(parquet, name: str, limits: ReadLimits) -> None:
    """Refuse a file before any page is decoded: nested deeper than JSON rows may be, or decoding to more than
    the limit."""
    metadata = parquet.metadata
    schema = metadata.schema
    # A list takes two levels of a column's path (`x.list.element`), a struct one.
    deepest = max((len(schema.column(i).path.split(".")) for i in range(metadata.num_columns)), default=0)
    if deepest > 2 * limits.max_json_depth:
        raise DatasetFileError(f"{name}: a column {limits.too_deep_message()}")
    size = decoded_size(metadata)
    if size > limits.max_decoded_bytes:
        raise DatasetFileError(
            f"{name} decodes to at least {size} bytes ({metadata.num_rows} rows), over the limit of "
            f"{limits.max_decoded_bytes} bytes (PLATFORM_MAX_DECODED_BYTES)"
        )


_ROW_READERS = {"json": _json_rows, "jsonl": _jsonl_rows, "parquet": _parquet_rows}


def _last_row_number(file: Path, limits: ReadLimits = DEFAULT_LIMITS) -> int:
    return max((number for number, _row in _ROW_READERS[file_format(file)](file, 1, limits)), default=0)


def count_rows(path: Path) -> int:
    files = data_files(path)
    if file_format(files[0]) == "parquet":
        return sum(open_parquet(file, limits=None).metadata.num_rows for file in files)
    return sum(1 for _ in iter_rows(path))
