"""A data file's rows in the platform's shape: its data format (contract/data.py) applied, for the checks, the
statistics and the engines alike.

Without a preset and with whole-column mappings only, the mapping is applied to the columns (datafiles/table.py);
otherwise each row goes through its preset (datafiles/presets.py), and a row the preset cannot read is reported
by its number, naming the file's own field, like any unreadable row.
"""

from pathlib import Path
from typing import Any

from training_platform.contract.data import DataFormat
from training_platform.datafiles.errors import RowProblem
from training_platform.datafiles.presets import RowFormatError, normalise_row
from training_platform.datafiles.readers import iter_rows
from training_platform.datafiles.table import ROW, DatasetTable, apply_field_mapping, frame_from_rows

PLATFORM_FORMAT = DataFormat()


def row_wise(data_format: DataFormat) -> bool:
    """Whether rows must be normalised one by one (a preset, or a dotted path into a nested value)."""
    return data_format.preset is not None or any("." in source for source in data_format.field_mapping.values())


def _without_nulls(value: Any) -> Any:
    """A row read from a table has every key any row has (missing ones are null); as the file had it, they are
    absent (a chat template tells `tool_calls: null` from no `tool_calls` at all)."""
    if isinstance(value, dict):
        return {key: _without_nulls(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [_without_nulls(item) for item in value]
    return value


def sample_rows(table: DatasetTable) -> list[dict[str, Any]]:
    """The table's rows as the file has them, without the keys the table filled with nulls."""
    return [_without_nulls(row) for row in table.frame.drop(ROW).iter_rows(named=True)]


def apply_format(table: DatasetTable, data_format: DataFormat, kind: str) -> DatasetTable:
    """The table's rows in the platform's shape; rows its preset cannot read join the table's problems."""
    if not row_wise(data_format):
        kept = table.frame.drop(data_format.drop_columns, strict=False)
        table.frame = apply_field_mapping(kept, data_format.field_mapping)
        return table
    rows, numbers, problems = [], [], list(table.problems)
    for number, row in zip(table.frame[ROW].to_list(), sample_rows(table), strict=True):
        try:
            rows.append(normalise_row(row, data_format, kind))
            numbers.append(number)
        except RowFormatError as error:
            problems.append(RowProblem(number, str(error)))
    problems.sort(key=lambda problem: problem.row)
    return DatasetTable(frame_from_rows(rows, numbers), problems, table.num_rows)


def read_rows(paths: list[str], formats: dict[str, DataFormat], kind: str) -> list[dict[str, Any]]:
    """Every row of every file in the platform's shape, each file through its own format: what the engines
    train on."""
    rows = []
    for path in paths:
        data_format = formats.get(path, PLATFORM_FORMAT)
        for number, row in iter_rows(Path(path), split=data_format.split):
            if isinstance(row, RowProblem):
                raise ValueError(f"{path} row {number}: {row.message}")
            try:
                rows.append(normalise_row(row, data_format, kind))
            except RowFormatError as error:
                raise ValueError(f"{path} row {number}: {error}") from None
    return rows
