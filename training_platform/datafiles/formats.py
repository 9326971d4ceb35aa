"""The check of a dataset's rows and files against what its kind needs (datafiles/kinds.py).

A prompt may be a string or a chat message list; a response, chosen or rejected a string or a list of assistant
messages. An assistant message may carry OpenAI-style `tool_calls` (its content then may be null or empty), a tool
message `tool_call_id`/`name` (datafiles/presets.py: `chat_problem`, shared with the format presets). An eval row's
chat is a question: it ends with the user's turn; its optional references, tests and choices are checked where a row
has them (datafiles/evalrows.py).
"""

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import polars as pl

from training_platform.contract.data import DataFormat
from training_platform.contract.params import Algorithm
from training_platform.datafiles.errors import DatasetFileError, RowProblem
from training_platform.datafiles.evalrows import (
    choices_problem,
    question_chat_problem,
    reference_problem,
    tests_problem,
    unnamed_choice_problem,
)
from training_platform.datafiles.kinds import KIND_FIELDS, KindFields
from training_platform.datafiles.limits import DEFAULT_LIMITS, ReadLimits
from training_platform.datafiles.meaning import KTO_LABEL, meaning_problems
from training_platform.datafiles.presets import chat_problem, tools_problem
from training_platform.datafiles.rows import apply_format
from training_platform.datafiles.table import ROW, DatasetTable, load_table
from training_platform.errors import FieldError

COMPLETION_FIELDS = ("response", "chosen", "rejected")


LABELS_LOOKED_AT = 100  # a `label` column's first values, to tell KTO-style true/false labels (meaning.py)


@dataclass(frozen=True)
class Schema:
    text_fields: tuple[str, ...]
    alternative: "Schema | None" = None  # SFT accepts prompt/response or messages
    optional: tuple[str, ...] = ()  # checked where a row has them
    numeric: tuple[str, ...] = ()  # text fields a number may stand for (answers: datafiles/kinds.py)
    question: bool = False  # a chat in the text fields is a question to answer (eval), not a chat to learn from

    def describe(self) -> str:
        names = " + ".join(self.text_fields)
        return f"{names} (or {self.alternative.describe()})" if self.alternative else names


def _schema(fields: KindFields) -> Schema:
    optional = fields.checked + fields.optional
    alternative = None
    if fields.alternative:
        alternative = Schema(fields.alternative, optional=optional, question=fields.question)
    return Schema(fields.text, alternative, optional=optional, numeric=fields.numeric, question=fields.question)


SCHEMAS: dict[str, Schema] = {kind: _schema(fields) for kind, fields in KIND_FIELDS.items()}


def schema_for(kind: str, answer_fields: Iterable[str] = ()) -> Schema:
    """The kind's schema; a reward's answer fields are required too, and may hold numbers."""
    base = SCHEMAS[kind]
    extra = tuple(name for name in answer_fields if name not in base.text_fields)
    return replace(base, text_fields=base.text_fields + extra, numeric=base.numeric + extra) if extra else base


@dataclass
class ValidationReport:
    path: Path
    kind: str
    num_rows: int = 0
    num_invalid: int = 0
    problems: list[RowProblem] = field(default_factory=list)
    columns: set[str] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        return self.num_invalid == 0 and self.num_rows > 0


def _chat_field_problem(name: str, value: list[Any]) -> str | None:
    """A chat list in a field: a prompt's or the messages' turns, or a completion's assistant messages."""
    if not value:
        return f"field '{name}' is empty"
    completion = name in COMPLETION_FIELDS
    if (problem := chat_problem(value, name, completion)) is None:
        return None
    what = "must be text or a list of assistant messages" if completion else "is not a list of chat messages"
    return f"field '{name}' {what} with role/content: {' '.join(problem)}"


def _field_problem(name: str, value: Any, numeric: tuple[str, ...] = ()) -> str | None:
    """What is wrong with a required field's value. Text fields hold text (a number only where `numeric` says: an
    answer compared with the output); a number is not turned into its text."""
    if value is None:
        return f"missing required field '{name}'"
    if name in ("prompt", "messages", *COMPLETION_FIELDS) and isinstance(value, list):
        return _chat_field_problem(name, value)
    if name == "messages":
        return f"field 'messages' must be a list of chat messages, got {type(value).__name__}"
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not isinstance(value, str) and not (number and name in numeric):
        return f"field '{name}' must be text, got {type(value).__name__}"
    if isinstance(value, str) and not value.strip():
        return f"field '{name}' is empty"
    return None


def _tools_problem(value: Any) -> str | None:
    if (problem := tools_problem(value)) is None:
        return None
    path, what = problem
    return (
        f"field 'tools' {what}" if path == "tools" else f"field 'tools' must be a list of tool schemas: {path} {what}"
    )


_OPTIONAL_CHECKS = {
    "tools": _tools_problem,
    "reference": reference_problem,
    "tests": tests_problem,
    "choices": choices_problem,
}


def _question_problems(row: dict[str, Any], schema: Schema) -> list[str]:
    """An eval row's chat prompt ends with the user's turn; its references name its choices."""
    problems = [
        problem
        for name in schema.text_fields
        if isinstance(row.get(name), list) and (problem := question_chat_problem(name, row[name]))
    ]
    choices, reference = row.get("choices"), row.get("reference")
    both = choices is not None and reference is not None
    if both and not choices_problem(choices) and not reference_problem(reference):
        if problem := unnamed_choice_problem(reference, choices):
            problems.append(problem)
    return problems


def row_problem(row: dict[str, Any], schema: Schema) -> str | None:
    problems = [p for name in schema.text_fields if (p := _field_problem(name, row.get(name), schema.numeric))]
    if problems and schema.alternative is not None and row.get(schema.alternative.text_fields[0]) is not None:
        return row_problem(row, schema.alternative)
    learns = schema.text_fields == KIND_FIELDS[Algorithm.SFT.value].alternative and not schema.question
    if learns and not problems:  # a chat to learn from
        if not any(m["role"] == "assistant" for m in row["messages"]):
            problems.append("field 'messages' has no assistant message to learn from")
    if schema.question and not problems:
        problems += _question_problems(row, schema)
    for name in schema.optional:
        if row.get(name) is not None and (problem := _OPTIONAL_CHECKS[name](row[name])):
            problems.append(problem)
    return "; ".join(problems) or None


def _suspect_rows(frame: pl.DataFrame, names: list[str], numeric: tuple[str, ...]) -> pl.DataFrame:
    """The rows that may break a rule: any row when a field is not a plain text column (or a number column where
    numbers may stand for text), else only rows with a missing or blank value. The rules themselves are applied by
    `row_problem`, row by row."""
    if any(name not in frame.columns for name in names):
        return frame
    conditions = []
    for name in names:
        dtype = frame[name].dtype
        if dtype == pl.String:
            # Python's str.strip() also strips the separators \x1c-\x1f, which Unicode does not call white space.
            conditions.append(pl.col(name).is_null() | pl.col(name).str.contains(r"^[\s\x1c-\x1f]*$"))
        elif dtype.is_numeric() and name in numeric:
            conditions.append(pl.col(name).is_null())
        else:
            return frame
    return frame.filter(pl.any_horizontal(conditions)) if conditions else frame


def table_problems(frame: pl.DataFrame, schema: Schema) -> list[RowProblem]:
    """Every row of the table that breaks the schema, in row order."""
    # A row whose own fields are fine never falls back to the alternative schema, so only they decide suspicion;
    # an optional field (a list, never a plain column) puts every row under suspicion where any row has it.
    optional = [name for name in schema.optional if name in frame.columns and frame[name].null_count() < frame.height]
    suspects = frame if optional else _suspect_rows(frame, list(schema.text_fields), schema.numeric)
    names = list(schema.text_fields) + (list(schema.alternative.text_fields) if schema.alternative else []) + optional
    present = [name for name in names if name in suspects.columns]
    values = {name: suspects[name].to_list() for name in present}
    problems = []
    for index, number in enumerate(suspects[ROW].to_list()):
        if message := row_problem({name: values[name][index] for name in present}, schema):
            problems.append(RowProblem(number, message))
    return problems


def validate_table(table: DatasetTable, schema: Schema) -> list[RowProblem]:
    """Unreadable rows and rows breaking the schema, in row order."""
    return sorted(table.problems + table_problems(table.frame, schema), key=lambda problem: problem.row)


def validate_file(
    path: Path,
    kind: str,
    answer_fields: Iterable[str] = (),
    keep: int = 20,
    data_format: DataFormat = DataFormat(),
    limits: ReadLimits = DEFAULT_LIMITS,
) -> ValidationReport:
    """Check every row through the file's data format; keep the first `keep` problems, count them all. Raises
    DatasetFileError for unreadable files, and for files the platform cannot train as they mean (meaning.py): a
    job given a file by path is held to what registration holds a dataset to."""
    raw = load_table(path, limits, split=data_format.split)
    kept = [name for name in raw.columns if name not in data_format.drop_columns]
    labels = raw.frame[KTO_LABEL].drop_nulls().head(LABELS_LOOKED_AT).to_list() if KTO_LABEL in kept else []
    if problems := meaning_problems(kept, labels, kind, data_format.field_mapping, path.name):
        raise DatasetFileError("; ".join(f"{path.name}: {message.render()}" for _, message in problems))
    table = apply_format(raw, data_format, kind)
    if table.num_rows == 0:
        raise DatasetFileError(f"{path.name} has no rows")
    problems = validate_table(table, schema_for(kind, answer_fields))
    return ValidationReport(
        path=path,
        kind=kind,
        num_rows=table.num_rows,
        num_invalid=len(problems),
        problems=problems[:keep],
        columns=set(table.columns),
    )


def row_problem_errors(
    field: str, listed: list[RowProblem], num_rows: int, num_invalid: int, full_list: str = ""
) -> list[FieldError]:
    """Row problems as field errors naming their rows, then how many rows are invalid in all when not every one
    is listed (and where the full list is, when it was kept)."""
    errors = [FieldError(field, problem.message, row=problem.row) for problem in listed]
    if num_invalid > len(listed) or full_list:
        where = f", all of them in {full_list}" if full_list else ""
        message = f"{num_invalid} of {num_rows} rows are invalid; the first {len(listed)} are listed{where}"
        errors.append(FieldError(field, message))
    return errors
