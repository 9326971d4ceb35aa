"""Row-by-row reading of dataset files, with 1-based row numbers, and the files a dataset path stands for.

Everything streams: JSON Lines a line at a time, Parquet a row group at a time, Arrow a record batch at a time,
CSV a record at a time and a JSON array an element at a time (so a truncated array still tells after which row it
breaks off). A line that is not valid JSON or not UTF-8, or a CSV record whose fields do not match its header, is
reported as a `RowProblem` instead of stopping the read. A CSV row is the header's columns mapped to text: an
empty cell is "", never None (a CSV file cannot tell an empty value from a missing one, and "NA" is text too).

A dataset path is a file or a folder. A folder is one of:
- what Hugging Face datasets' `save_to_disk` writes: a Dataset (its .arrow files in the order its state.json lists
  them), or a DatasetDict (dataset_dict.json naming one such folder per split);
- a folder whose file or folder names name splits, as a downloaded hub repository's do
  (data/train-00000-of-00001.parquet, train.jsonl and test.jsonl, train/ and validation/...), with the split names
  Hugging Face datasets gives them;
- any other folder: its data files of one format in name order (or, when it holds none itself, every data file
  below it), as one dataset.
Splits are never read together: a folder of splits read without naming one reads its train split.

What a file may cost to read is bounded (`ReadLimits`, docs/security.md): how deeply a JSON row nests, measured
before a parser sees it (datafiles/depth.py), and how large a Parquet or Arrow file decodes, from its metadata
before a value is decoded (Parquet: then also as its row groups are).
"""

import codecs
import csv
import io
import json
import os
import re
import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from training_platform.common.paths import checked_path
from training_platform.datafiles.depth import first_deep_element, too_deep

SUPPORTED_SUFFIXES = {".json": "json", ".jsonl": "jsonl", ".parquet": "parquet", ".csv": "csv", ".arrow": "arrow"}
SUPPORTED_TYPES = ".json, .jsonl, .parquet, .csv or .arrow"
# A job's data entry that names a registered dataset instead of a file: "dataset:<name or id>".
DATASET_REFERENCE = "dataset:"
_READ_BLOCK = 1 << 20
_WHITE_SPACE = re.compile(r"[ \t\r\n]*")
# Python's csv module refuses a field over 128 KiB; pyarrow's reader, which reads the same files as tables, takes one
# up to the 2 GiB an Arrow string holds.
csv.field_size_limit(2**31 - 1)
_NOT_UTF8 = re.compile("[\udc80-\udcff]")  # what undecodable bytes become, decoded with errors="surrogateescape"


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
        raise DatasetFileError(f"unsupported file type '{path.suffix or path.name}'; use {SUPPORTED_TYPES}") from None


# ---- what a dataset path stands for ----------------------------------------------------------------------

# The words Hugging Face datasets reads a split from in a file's or a folder's name, and the split each names.
_SPLIT_WORDS = {
    "train": "train",
    "training": "train",
    "validation": "validation",
    "valid": "validation",
    "val": "validation",
    "dev": "validation",
    "test": "test",
    "testing": "test",
    "eval": "test",
    "evaluation": "test",
}
# A word counts between separators, or at either end of the name: train.jsonl, my_valid_set, test-2/, not contest.
_SPLIT_WORD = re.compile(rf"(?:^|[-._ 0-9])({'|'.join(sorted(_SPLIT_WORDS, key=len, reverse=True))})(?=[-._ 0-9]|$)")
# A hub repository's shards name their split whatever it is: data/<split>-00000-of-00002.parquet.
_SHARD = re.compile(r"data/(\w+(?:\.\w+)*)-[0-9]{5}-of-[0-9]{5}[^/]*\.[^/]*")
# Files Hugging Face datasets never reads as data, and the metadata save_to_disk writes beside its .arrow files.
_NOT_DATA = {"config.json", "dataset_info.json", "dataset_infos.json", "dataset_dict.json", "state.json"}
_MAX_ENTRIES = 100_000  # files and folders looked at below a folder for its data files
_MAX_METADATA_BYTES = 1 << 24
_SPLIT_ORDER = ("train", "validation", "test")


def split_name(name: str) -> str:
    """The name a split is known by: "valid", "val" and "dev" name the validation split."""
    return "validation" if name in ("valid", "val", "dev") else name


def dataset_splits(path: Path) -> dict[str, list[Path]]:
    """Each split of a dataset path with its files, in reading order: train, validation and test first. A file, or
    a folder of no splits, is its own train split."""
    return _layout(path)[0]


def data_files(path: Path, *, split: str | None = None) -> list[Path]:
    """The files of one split of a dataset path (None: its train split, the whole dataset of a file or a folder of
    no splits)."""
    splits = dataset_splits(path)
    wanted = "train" if split is None else split_name(split)
    if wanted in splits:
        return splits[wanted]
    if split is None:
        raise DatasetFileError(f"{path} has no train split to read by default; name one of: {', '.join(splits)}")
    raise DatasetFileError(f"{path} has no split '{split}'; its splits: {', '.join(splits)}")


def _layout(
    path: Path, before_reading: Callable[[Path], None] | None = None
) -> tuple[dict[str, list[Path]], list[Path]]:
    """The splits of `path`, and the metadata files that told them (each passed to `before_reading` first)."""
    check = before_reading or (lambda _file: None)
    if not path.is_dir():
        file_format(path)
        if not path.is_file():
            raise DatasetFileError(f"{path} does not exist or is not a file")
        return {"train": [path]}, []
    if (path / "dataset_dict.json").is_file():
        return _saved_dataset_dict(path, check)
    if (path / "state.json").is_file():
        return {"train": _saved_dataset(path, check)}, [path / "state.json"]
    return _named_splits(path), []


def _saved_dataset_dict(path: Path, before_reading: Callable[[Path], None]) -> tuple[dict[str, list[Path]], list[Path]]:
    metadata = [path / "dataset_dict.json"]
    names = _metadata(metadata[0], before_reading).get("splits")
    if not isinstance(names, list) or not names or not all(_plain_name(name) for name in names):
        raise DatasetFileError(f"{path / 'dataset_dict.json'} must list the folders of the splits under 'splits'")
    splits: dict[str, list[Path]] = {}
    for name in names:
        if split_name(name) in splits:
            raise DatasetFileError(f"{path / 'dataset_dict.json'} names the split '{split_name(name)}' twice")
        splits[split_name(name)] = _saved_dataset(path / name, before_reading)
        metadata.append(path / name / "state.json")
    return _in_split_order(splits), metadata


def _saved_dataset(folder: Path, before_reading: Callable[[Path], None]) -> list[Path]:
    """A save_to_disk folder's .arrow files, in the order of its state.json (dataset_info.json describes them)."""
    state = folder / "state.json"
    if not state.is_file():
        raise DatasetFileError(f"{folder} holds no state.json: it is not a folder save_to_disk wrote")
    entries = _metadata(state, before_reading).get("_data_files")
    names = [entry.get("filename") for entry in entries if isinstance(entry, dict)] if isinstance(entries, list) else []
    if not names or not all(_plain_name(name) and name.endswith(".arrow") for name in names):
        raise DatasetFileError(f"{state} must list the folder's .arrow files under '_data_files'")
    files = [folder / name for name in names]
    if missing := [file.name for file in files if not file.is_file()]:
        raise DatasetFileError(f"{state} lists {', '.join(missing)}, missing from {folder}")
    return files


def _metadata(file: Path, before_reading: Callable[[Path], None]) -> dict:
    before_reading(file)
    if file.stat().st_size > _MAX_METADATA_BYTES:
        raise DatasetFileError(f"{file} is larger than {_MAX_METADATA_BYTES} bytes: it is not save_to_disk's")
    raw = file.read_bytes()
    try:
        value = None if too_deep(raw, DEFAULT_LIMITS.max_json_depth) else json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        value = None
    if not isinstance(value, dict):
        raise DatasetFileError(f"{file} is not a JSON object")
    return value


def _plain_name(name: Any) -> bool:
    """A name that stays in its folder (metadata names files and folders: none may lead out)."""
    return isinstance(name, str) and name not in ("", ".", "..") and "/" not in name and "\\" not in name


def _named_splits(folder: Path) -> dict[str, list[Path]]:
    names = _data_file_names(folder)
    if not names:
        raise DatasetFileError(f"directory {folder} holds no {SUPPORTED_TYPES} file")
    splits = (
        _shard_splits(folder, names)
        or _word_splits(folder, names, in_folders=True)
        or _word_splits(folder, names, in_folders=False)
    )
    if not splits:
        # No split is named: the folder is one dataset, its own files (or, if it has none, every one below it).
        splits = {"train": [name for name in names if "/" not in name] or names}
    for split, files in splits.items():
        formats = {file_format(Path(name)) for name in files}
        if len(formats) > 1:
            where = f"directory {folder}" if list(splits) == ["train"] else f"split '{split}' of {folder}"
            raise DatasetFileError(f"{where} mixes formats ({', '.join(sorted(formats))}); use one format")
    return {split: [folder / name for name in files] for split, files in _in_split_order(splits).items()}


def _data_file_names(folder: Path) -> list[str]:
    """Every data file below `folder`, as a path relative to it in name order; hidden files and folders, and
    Hugging Face's metadata, are left out."""
    names, seen = [], 0
    for root, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith((".", "__"))]
        seen += len(folders) + len(files)
        if seen > _MAX_ENTRIES:
            raise DatasetFileError(f"directory {folder} holds more than {_MAX_ENTRIES} files and folders")
        for name in files:
            file = Path(root, name)
            if (
                not name.startswith((".", "__"))
                and name not in _NOT_DATA
                and file.suffix.lower() in SUPPORTED_SUFFIXES
                and file.is_file()
            ):
                names.append(file.relative_to(folder).as_posix())
    return sorted(names)


def _shard_splits(folder: Path, names: list[str]) -> dict[str, list[str]]:
    shards = {name: match[1] for name in names if (match := _SHARD.fullmatch(name))}
    if not shards:
        return {}
    _refuse_strays(folder, names, shards)
    splits: dict[str, list[str]] = {}
    for name, split in shards.items():
        splits.setdefault(split, []).append(name)
    if len({split_name(split) for split in splits}) < len(splits):
        raise DatasetFileError(f"directory {folder} has shards of two validation splits: {', '.join(splits)}")
    return {split_name(split): files for split, files in splits.items()}


def _word_splits(folder: Path, names: list[str], in_folders: bool) -> dict[str, list[str]]:
    """Splits named by a word of a file's folders or of its own name, as Hugging Face datasets tries them."""
    found = {}
    for name in names:
        parts = name.split("/")[:-1] if in_folders else [name.rsplit("/", 1)[-1]]
        splits = {_SPLIT_WORDS[word] for part in parts for word in _SPLIT_WORD.findall(part)}
        if len(splits) > 1:
            raise DatasetFileError(f"{folder / name} is named for two splits ({', '.join(sorted(splits))})")
        if splits:
            found[name] = splits.pop()
    if not found:
        return {}
    _refuse_strays(folder, names, found)
    splits: dict[str, list[str]] = {}
    for name, split in found.items():
        splits.setdefault(split, []).append(name)
    return splits


def _refuse_strays(folder: Path, names: list[str], placed: dict[str, str]) -> None:
    """Files beside a folder's splits that belong to none of them are refused, not dropped or guessed at."""
    if strays := [name for name in names if name not in placed]:
        shown = ", ".join(strays[:5]) + (f" and {len(strays) - 5} more" if len(strays) > 5 else "")
        raise DatasetFileError(
            f"directory {folder} has splits ({', '.join(sorted(set(placed.values())))}), but {shown} belongs to "
            f"none: name each data file or its folder for its split (train, validation, test)"
        )


def _in_split_order(splits: dict[str, list]) -> dict[str, list]:
    order = [name for name in _SPLIT_ORDER if name in splits] + sorted(set(splits) - set(_SPLIT_ORDER))
    return {name: splits[name] for name in order}


def checked_data_path(value: str, roots: Sequence[Path], field: str) -> Path:
    """A data path a request names, under the data roots (common/paths.py), and so is every file a directory
    stands for, in every split, and every metadata file that says which they are (before it is read): a link
    among them may point anywhere."""
    path = checked_path(value, roots, field)

    def inside(file: Path) -> None:
        checked_path(file, roots, field)

    if path.is_dir():
        try:
            splits, metadata = _layout(path, inside)
        except DatasetFileError:
            return path  # the read that follows says what is wrong with it
        for file in [*metadata, *(file for files in splits.values() for file in files)]:
            inside(file)
    return path


def dataset_format(path: Path, *, split: str | None = None) -> str:
    return file_format(data_files(path, split=split)[0])


def iter_rows(
    path: Path, start: int = 1, limits: ReadLimits = DEFAULT_LIMITS, *, split: str | None = None
) -> Iterator[tuple[int, dict[str, Any] | RowProblem]]:
    """Every row of a file or a split (`data_files`) from row `start` on; a split's rows are numbered on across its
    files. Rows before `start` are skipped as cheaply as the format allows (JSON Lines: not parsed)."""
    offset = 0
    for file in data_files(path, split=split):
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


def _csv_rows(
    path: Path, start: int = 1, limits: ReadLimits = DEFAULT_LIMITS
) -> Iterator[tuple[int, dict[str, Any] | RowProblem]]:
    """Data records after the header, numbered from 1; blank lines are no records (pyarrow's reader skips them too)."""
    with open(path, "rb") as handle:
        records = _csv_records(handle, path)
        header = _csv_header(next(records, None), path)
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


def csv_header(path: Path) -> list[str]:
    """The column names a CSV file's first record gives, refused when they cannot name a row's fields."""
    with open(path, "rb") as handle:
        return _csv_header(next(_csv_records(handle, path), None), path)


def _csv_records(handle, path: Path) -> Iterator[list[str]]:
    """The file's records as Python's csv module parses them the way pyarrow's reader does (a quoted value may span
    lines; a quote not closed runs on to the end of the file), blank lines left out."""
    # A byte order mark is dropped, undecodable bytes kept as surrogates for the row that holds them to be told.
    text = io.TextIOWrapper(handle, encoding="utf-8-sig", errors="surrogateescape", newline="")
    try:
        yield from (fields for fields in csv.reader(text, strict=False) if fields)
    except csv.Error as error:
        raise DatasetFileError(f"{path.name} is not a readable CSV file: {error}") from None


def _csv_header(header: list[str] | None, path: Path) -> list[str]:
    if header is None:
        raise DatasetFileError(f"{path.name} is empty: a CSV file starts with a header row naming its columns")
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
    number = 0
    while (batch := _next_batch(reader, path)) is not None:
        if number + batch.num_rows < start:
            number += batch.num_rows  # zero-copy from the mapped file: a batch before the start is never converted
            continue
        for row in batch.to_pylist():
            number += 1
            if number >= start:
                yield number, row


def open_arrow(path: Path, limits: ReadLimits = DEFAULT_LIMITS):
    """A reader of an Arrow IPC file's record batches (stream format, as save_to_disk writes it, or file format),
    refused before any is decoded when the file decodes to more than the limit or nests deeper than JSON rows may."""
    import pyarrow as pa

    rows, size = arrow_size(path)
    if size > limits.max_decoded_bytes:
        raise DatasetFileError(
            f"{path.name} decodes to {size} bytes ({rows} rows), over the limit of {limits.max_decoded_bytes} "
            f"bytes (PLATFORM_MAX_DECODED_BYTES)"
        )
    try:
        reader = pa.ipc.open_stream(_arrow_stream(path))
    except Exception as error:  # pyarrow raises several unrelated types for a corrupt file
        raise DatasetFileError(f"{path.name} is not a readable Arrow file: {error}") from None
    if _nests_deeper(reader.schema, limits.max_json_depth):
        raise DatasetFileError(f"{path.name}: a column {limits.too_deep_message()}")
    return reader


def _next_batch(reader, path: Path):
    try:
        return reader.read_next_batch()
    except StopIteration:
        return None
    except Exception as error:  # metadata that reads but buffers that do not
        raise DatasetFileError(f"{path.name} is not a readable Arrow file: {error}") from None


def _arrow_stream(path: Path):
    """The file memory-mapped (batches are read from it without a copy), at its first message: an IPC file holds a
    stream after its 8 bytes of magic."""
    import pyarrow as pa

    source = pa.memory_map(str(path))
    source.seek(8 if source.read(6) == b"ARROW1" else 0)
    return source


def arrow_size(path: Path) -> tuple[int, int]:
    """The rows and decoded bytes of an Arrow IPC file, from its messages' metadata without decoding a buffer."""
    import pyarrow as pa

    rows = size = 0
    try:
        for message in pa.ipc.MessageReader.open_stream(_arrow_stream(path)):
            batch_rows, batch_size = _batch_size(message)
            rows, size = rows + batch_rows, size + batch_size
    except Exception as error:  # pyarrow's several types, or metadata that points outside itself
        raise DatasetFileError(f"{path.name} is not a readable Arrow file: {error}") from None
    return rows, size


def _batch_size(message) -> tuple[int, int]:
    """Rows and decoded bytes of one message: the lengths of its buffers, read from its metadata (the flatbuffer
    the IPC format defines), or for a compressed buffer the decoded length its first 8 bytes hold. A message of no
    record batch (the schema) decodes to nothing."""
    meta = message.metadata.to_pybytes()
    root = _offset(meta, 0)
    header_type = _field(meta, root, 1)
    kind = meta[header_type] if header_type is not None else 0
    if kind not in (_RECORD_BATCH, _DICTIONARY_BATCH):
        return 0, 0
    header = _offset(meta, _field(meta, root, 2))
    batch = _offset(meta, _field(meta, header, 1)) if kind == _DICTIONARY_BATCH else header
    length = _field(meta, batch, 0)
    rows = struct.unpack_from("<q", meta, length)[0] if length is not None and kind == _RECORD_BATCH else 0
    buffers = _offset(meta, _field(meta, batch, 2))
    compressed = _field(meta, batch, 3) is not None
    size = 0
    for index in range(struct.unpack_from("<I", meta, buffers)[0]):
        offset, length = struct.unpack_from("<qq", meta, buffers + 4 + 16 * index)
        if compressed and length >= 8:
            decoded = struct.unpack_from("<q", message.body, offset)[0]
            size += length - 8 if decoded == -1 else decoded  # -1: the buffer was left uncompressed
        elif not compressed:
            size += length
    return rows, size


_RECORD_BATCH, _DICTIONARY_BATCH = 3, 2  # MessageHeader's union types


def _field(meta: bytes, table: int, index: int) -> int | None:
    """Where field `index` of the flatbuffer table at `table` lies, or None when it is absent."""
    vtable = table - struct.unpack_from("<i", meta, table)[0]
    entry = 4 + 2 * index
    if entry + 2 > struct.unpack_from("<H", meta, vtable)[0]:
        return None
    offset = struct.unpack_from("<H", meta, vtable + entry)[0]
    return table + offset if offset else None


def _offset(meta: bytes, position: int) -> int:
    return position + struct.unpack_from("<I", meta, position)[0]


def _nests_deeper(schema, limit: int) -> bool:
    """Whether a row of this schema nests deeper than `limit` levels, as a JSON object would (the row one level, each
    struct, list or map in it one more); told without recursion, whatever the schema."""
    pending = [(field.type, 2) for field in schema]
    while pending:
        arrow_type, depth = pending.pop()
        if arrow_type.num_fields and depth > limit:
            return True
        pending.extend((arrow_type.field(i).type, depth + 1) for i in range(arrow_type.num_fields))
    return False


_ROW_READERS = {
    "json": _json_rows,
    "jsonl": _jsonl_rows,
    "parquet": _parquet_rows,
    "csv": _csv_rows,
    "arrow": _arrow_rows,
}


def _last_row_number(file: Path, limits: ReadLimits = DEFAULT_LIMITS) -> int:
    return max((number for number, _row in _ROW_READERS[file_format(file)](file, 1, limits)), default=0)


def count_rows(path: Path, *, split: str | None = None) -> int:
    files = data_files(path, split=split)
    kind = file_format(files[0])
    if kind == "parquet":
        return sum(open_parquet(file, limits=None).metadata.num_rows for file in files)
    if kind == "arrow":
        return sum(arrow_size(file)[0] for file in files)
    return sum(1 for _ in iter_rows(path, split=split))
