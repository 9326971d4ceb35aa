"""A dataset file, or one split of a dataset folder, as one columnar table (polars), for the checks and statistics
that look at every row.

JSON Lines, CSV, Parquet and Arrow load through Arrow's readers. When Arrow refuses a JSON Lines file (a broken line,
a value whose type changes between rows, bad UTF-8) or skips blank lines (which would shift row numbers), or a CSV
file (a record whose fields do not match the header, bad UTF-8, a record longer than a block), the file is read
again row by row, so that every unreadable row is named and the rest is kept. Every CSV column is text, an empty cell
"" (datafiles/readers.py).
A column whose values cannot share one type (a prompt that is text in one row and a message list in another)
is kept as Python objects rather than coerced.

Arrow never sees a JSON line nested deeper than the limit (its reader would overflow the stack: the file is read
row by row instead, and the line is reported). A Parquet file is decoded a row group at a time and a CSV file a
block at a time, counting what they decoded to against the limit; a Parquet or Arrow file's metadata passes the
same limit before anything is decoded (datafiles/limits.py).
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa

from training_platform.datafiles.depth import has_deep_line
from training_platform.datafiles.errors import DatasetFileError, RowProblem
from training_platform.datafiles.kinds import EVAL, KIND_FIELDS
from training_platform.datafiles.layout import content_format, data_files
from training_platform.datafiles.limits import (
    DEFAULT_LIMITS,
    ReadLimits,
    decoded_bytes,
    open_arrow,
    open_parquet,
    over_decoded_limit,
)
from training_platform.datafiles.readers import csv_header, iter_rows

ROW = "__row__"  # 1-based row number in the file (line number for JSON Lines), kept through every filter
_CSV_BLOCK = 1 << 24  # bytes pyarrow parses at once: a CSV record longer than this is read row by row


@dataclass
class DatasetTable:
    frame: pl.DataFrame  # the readable rows, with their numbers in ROW
    problems: list[RowProblem] = field(default_factory=list)  # rows that could not be read at all
    num_rows: int = 0  # every row of the file, readable or not

    @property
    def columns(self) -> list[str]:
        return [name for name in self.frame.columns if name != ROW]


def load_table(path: Path, limits: ReadLimits = DEFAULT_LIMITS, *, split: str | None = None) -> DatasetTable:
    """Read a file, or one split of a folder (`data_files`; rows numbered on across its files)."""
    parts = []
    for file in data_files(path, split=split):
        part = _load_file(file, limits)
        if parts:
            offset = parts[-1].num_rows
            part.frame = part.frame.with_columns(pl.col(ROW) + offset)
            part.problems = [RowProblem(p.row + offset, f"{file.name}: {p.message}") for p in part.problems]
            part.num_rows += offset
        parts.append(part)
    if len(parts) == 1:
        return parts[0]
    try:
        frame = pl.concat([part.frame for part in parts], how="diagonal_relaxed")
    except pl.exceptions.PolarsError as error:
        raise DatasetFileError(f"the files in {path} do not share compatible columns: {error}") from None
    return DatasetTable(frame, [p for part in parts for p in part.problems], parts[-1].num_rows)


def _load_file(path: Path, limits: ReadLimits) -> DatasetTable:
    kind = content_format(path)
    if kind == "parquet":
        return _numbered(_read_parquet(path, limits))
    if kind == "arrow":
        return _numbered(_read_arrow(path, limits))
    if kind == "csv" and (table := _arrow_csv(path, limits)) is not None:
        return table
    too_deep = kind == "jsonl" and has_deep_line(path, limits.max_json_depth)
    if kind == "jsonl" and not too_deep and (table := _arrow_jsonl(path)) is not None:
        return table
    return _row_by_row(path, limits)


def _read_parquet(path: Path, limits: ReadLimits) -> pa.Table:
    parquet = open_parquet(path, limits)
    groups, decoded = [], 0
    try:
        for index in range(parquet.num_row_groups):
            group = parquet.read_row_group(index)
            # The metadata is the file's own word: what it really decodes to is counted as well, dictionaries
            # expanded only once they are within the limit.
            decoded += decoded_bytes(group)
            if decoded > limits.max_decoded_bytes:
                raise over_decoded_limit(path.name, limits)
            groups.append(_without_dictionaries(group))
        return pa.concat_tables(groups) if groups else parquet.schema_arrow.empty_table()
    except DatasetFileError:
        raise
    except MemoryError:  # out of the decoding worker's memory: its limit, not a corrupt file
        raise
    except Exception as error:  # a footer that reads but data pages that do not
        raise DatasetFileError(f"{path.name} is not a readable Parquet file: {error}") from None


def _without_dictionaries(table: pa.Table) -> pa.Table:
    """Dictionary columns (open_parquet reads them so, to count them first) as plain ones, as the file means them."""
    fields = [
        field.with_type(field.type.value_type) if pa.types.is_dictionary(field.type) else field
        for field in table.schema
    ]
    return table.cast(pa.schema(fields, table.schema.metadata)) if fields != list(table.schema) else table


def _read_arrow(path: Path, limits: ReadLimits) -> pa.Table:
    reader = open_arrow(path, limits)
    batches, decoded = [], 0
    try:
        while (batch := _next_batch(reader)) is not None:
            decoded += decoded_bytes(batch)
            if decoded > limits.max_decoded_bytes:
                raise over_decoded_limit(path.name, limits)
            batches.append(batch)
        return pa.Table.from_batches(batches, reader.schema)
    except DatasetFileError:
        raise
    except MemoryError:  # out of the decoding worker's memory: its limit, not a corrupt file
        raise
    except Exception as error:  # metadata that reads but buffers that do not
        raise DatasetFileError(f"{path.name} is not a readable Arrow file: {error}") from None


def _next_batch(reader):
    try:
        return reader.read_next_batch()
    except StopIteration:
        return None


def _arrow_csv(path: Path, limits: ReadLimits) -> DatasetTable | None:
    """The fast path, or None when the file needs the row-by-row reader to report its rows exactly. Both parse
    alike: quoted values may span lines, blank lines are no records, nothing is read as missing."""
    import pyarrow.csv as pa_csv

    header = csv_header(path, limits)
    batches, decoded = [], 0
    try:
        reader = pa_csv.open_csv(
            path,
            read_options=pa_csv.ReadOptions(block_size=_CSV_BLOCK),
            parse_options=pa_csv.ParseOptions(newlines_in_values=True),
            convert_options=pa_csv.ConvertOptions(
                column_types={name: pa.string() for name in header}, null_values=[], strings_can_be_null=False
            ),
        )
        for batch in reader:
            decoded += batch.nbytes
            if decoded > limits.max_decoded_bytes:
                raise over_decoded_limit(path.name, limits)
            batches.append(batch)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    return _numbered(pa.Table.from_batches(batches, reader.schema))


def _numbered(arrow: pa.Table) -> DatasetTable:
    frame = pl.from_arrow(arrow).with_columns(pl.int_range(1, pl.len() + 1, dtype=pl.Int64).alias(ROW))
    return DatasetTable(frame, [], arrow.num_rows)


def _arrow_jsonl(path: Path) -> DatasetTable | None:
    """The fast path, or None when the file needs the row-by-row reader to report its rows exactly."""
    import pyarrow.json as pa_json

    try:
        arrow = pa_json.read_json(path)
        arrow.validate(full=True)  # the JSON reader passes invalid UTF-8 through into strings; this catches it
    except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError):
        return None
    return _numbered(arrow) if arrow.num_rows == _line_count(path) else None


def _line_count(path: Path) -> int:
    lines, last = 0, b"\n"
    with open(path, "rb") as handle:
        while block := handle.read(1 << 24):
            lines += block.count(b"\n")
            last = block[-1:]
    return lines + (last != b"\n")


def _row_by_row(path: Path, limits: ReadLimits) -> DatasetTable:
    rows, numbers, problems, total = [], [], [], 0
    for number, row in iter_rows(path, limits=limits):
        total = number
        if isinstance(row, RowProblem):
            problems.append(row)
        else:
            rows.append(row)
            numbers.append(number)
    return DatasetTable(frame_from_rows(rows, numbers), problems, total)


def frame_from_rows(rows: list[dict[str, Any]], numbers: Iterable[int]) -> pl.DataFrame:
    names = list(dict.fromkeys(name for row in rows for name in row))
    frame = pl.DataFrame({ROW: pl.Series(ROW, list(numbers), dtype=pl.Int64)})
    return frame.with_columns(_series(name, [row.get(name) for row in rows]) for name in names)


def _series(name: str, values: list[Any]) -> pl.Series:
    try:
        # Arrow infers one type from every value (polars would take the first ones and drop what differs).
        return pl.Series(name, pl.from_arrow(pa.array(values)))
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return pl.Series(name, values, dtype=pl.Object)


def apply_field_mapping(frame: pl.DataFrame, mapping: dict[str, str]) -> pl.DataFrame:
    """Expose each mapped column under the platform's field name (`{"prompt": "question"}`)."""
    present = {target: source for target, source in mapping.items() if source in frame.columns}
    return frame.with_columns(pl.col(source).alias(target) for target, source in present.items())


# ---- the text the model reads ---------------------------------------------------------------------------

# The text the model reads, and the answers compared with what it says (an eval row's references): their lengths and
# duplicates are audited alike.
TEXT_FIELDS = {
    kind: fields.text + tuple(name for name in fields.numeric if name not in fields.text)
    for kind, fields in KIND_FIELDS.items()
}


def message_text(messages: list[dict[str, Any]]) -> str:
    return "\n".join(str(m.get("content") or "") for m in messages if isinstance(m, dict))


def _as_text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list):  # chat messages, or an eval row's several references
        if all(isinstance(item, dict) for item in value):
            return message_text(value)
        return "\n".join(str(item) for item in value)
    return str(value)


def _column_text(frame: pl.DataFrame, name: str) -> pl.Series:
    if name not in frame.columns:
        return pl.Series(name, [None] * frame.height, dtype=pl.String)
    column = frame[name]
    if column.dtype == pl.String:
        return column
    if column.dtype.is_numeric() or column.dtype == pl.Null:
        return column.cast(pl.String)
    return pl.Series(name, [_as_text(value) for value in column.to_list()], dtype=pl.String)


def _sft_from_messages(frame: pl.DataFrame, prompt: pl.Series, response: pl.Series) -> tuple[pl.Series, pl.Series]:
    """Chat rows: the conversation up to the last assistant turn is the prompt, that turn the response
    (what engines/trl/data.py trains on)."""
    if "messages" not in frame.columns:
        return prompt, response
    prompts, responses = prompt.to_list(), response.to_list()
    for index, messages in enumerate(frame["messages"].to_list()):
        if responses[index] is not None or not isinstance(messages, list):
            continue
        turns = [i for i, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "assistant"]
        if turns:
            prompts[index] = message_text(messages[: turns[-1]])
            responses[index] = message_text([messages[turns[-1]]])
    return pl.Series(prompt.name, prompts, dtype=pl.String), pl.Series(response.name, responses, dtype=pl.String)


def _prompt_from_messages(frame: pl.DataFrame, prompt: pl.Series) -> pl.Series:
    """An eval row given as a chat: its turns are the prompt."""
    if "messages" not in frame.columns:
        return prompt
    prompts = prompt.to_list()
    for index, messages in enumerate(frame["messages"].to_list()):
        if prompts[index] is None and isinstance(messages, list):
            prompts[index] = message_text(messages)
    return pl.Series(prompt.name, prompts, dtype=pl.String)


def with_text(texts: pl.DataFrame, field: str) -> pl.DataFrame:
    """The rows whose `field` has some text (empty ones are reported as empty fields, never compared)."""
    return texts.filter(pl.col(field).str.strip_chars() != "")


def text_frame(frame: pl.DataFrame, kind: str) -> pl.DataFrame:
    """ROW plus one text column per field the model reads for this kind (chat turns joined by newlines)."""
    columns = {name: _column_text(frame, name) for name in TEXT_FIELDS[kind]}
    if kind == "sft":
        columns["prompt"], columns["response"] = _sft_from_messages(frame, columns["prompt"], columns["response"])
    if kind == EVAL:
        columns["prompt"] = _prompt_from_messages(frame, columns["prompt"])
    return pl.DataFrame([frame[ROW], *columns.values()])
