"""Row-by-row reading of JSON, JSON Lines and Parquet files, with 1-based row numbers.

Streaming for JSON Lines and Parquet (a row group at a time); a JSON array is parsed whole.
A line that is not valid JSON or not UTF-8 is reported as a `RowProblem` instead of stopping the read.
"""

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SUPPORTED_SUFFIXES = {".json": "json", ".jsonl": "jsonl", ".parquet": "parquet"}


class DatasetFileError(ValueError):
    """The file as a whole cannot be read (missing, unsupported type, not a JSON array...)."""


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


def iter_rows(path: Path) -> Iterator[tuple[int, dict[str, Any] | RowProblem]]:
    reader = {"json": _json_rows, "jsonl": _jsonl_rows, "parquet": _parquet_rows}[file_format(path)]
    if not path.is_file():
        raise DatasetFileError(f"{path} does not exist or is not a file")
    yield from reader(path)


def _jsonl_rows(path: Path) -> Iterator[tuple[int, dict[str, Any] | RowProblem]]:
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                value = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError as error:
                yield number, RowProblem(number, f"not valid UTF-8 (byte {error.start + 1} of the line)")
                continue
            except json.JSONDecodeError as error:
                yield number, RowProblem(number, f"invalid JSON: {error.msg} at column {error.colno}")
                continue
            yield number, value if isinstance(value, dict) else RowProblem(number, "is not a JSON object")


def _json_rows(path: Path) -> Iterator[tuple[int, dict[str, Any] | RowProblem]]:
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError as error:
        raise DatasetFileError(f"{path.name} is not valid UTF-8 (byte offset {error.start})") from None
    except json.JSONDecodeError as error:
        raise DatasetFileError(f"{path.name} is not valid JSON: {error.msg} at line {error.lineno}") from None
    if not isinstance(data, list):
        raise DatasetFileError(f"{path.name} must hold a JSON array of objects (use .jsonl for one object per line)")
    for number, value in enumerate(data, start=1):
        yield number, value if isinstance(value, dict) else RowProblem(number, "is not a JSON object")


def _parquet_rows(path: Path) -> Iterator[tuple[int, dict[str, Any] | RowProblem]]:
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(path)
    except Exception as error:  # pyarrow raises several unrelated types for a corrupt file
        raise DatasetFileError(f"{path.name} is not a readable Parquet file: {error}") from None
    number = 0
    for batch in parquet.iter_batches(batch_size=4096):
        for row in batch.to_pylist():
            number += 1
            yield number, row


def count_rows(path: Path) -> int:
    if file_format(path) == "parquet":
        import pyarrow.parquet as pq

        return pq.ParquetFile(path).metadata.num_rows
    return sum(1 for _ in iter_rows(path))
