"""The datasets domain's words as texts (common/text.py), rendered in the reader's language: a file's row problems,
grouped one per distinct problem, and why no format preset was chosen.

A row's problem is said by the data format's checks (datafiles/formats.py, datafiles/presets.py) in English; the
ones users meet most (a field missing, empty or not text) are read back into their codes here, the rest travel as
they are, inside the texts that group them.
"""

import re
from collections.abc import Sequence

from training_platform.common.text import LITERAL, Text
from training_platform.datafiles.errors import RowProblem
from training_platform.datafiles.presets import Detection
from training_platform.errors import FieldError

ROWS_NAMED = 5  # the first rows of a problem named in its line
_KNOWN_PROBLEMS = (
    (re.compile(r"missing required field '(?P<field>[^']+)'"), "dataset.field_missing"),
    (re.compile(r"field '(?P<field>[^']+)' is empty"), "dataset.field_empty"),
    (re.compile(r"field '(?P<field>[^']+)' must be text, got (?P<type>\w+)"), "dataset.field_not_text"),
)


def problem_text(problem: str) -> Text:
    """One of a row's problems (the parts of `RowProblem.message`) as a text."""
    for pattern, code in _KNOWN_PROBLEMS:
        if found := pattern.fullmatch(problem):
            return Text.of(code, **found.groupdict())
    return Text.literal(problem)


def is_missing_field(problem: str) -> bool:
    return _KNOWN_PROBLEMS[0][0].fullmatch(problem) is not None


def rows_named(rows: Sequence[int]) -> str:
    """`1, 2, 3, 4, 5, …`: the first rows, and an ellipsis when there are more."""
    named = ", ".join(str(row) for row in rows[:ROWS_NAMED])
    return named + (", …" if len(rows) > ROWS_NAMED else "")


def rows_by_problem(problems: Sequence[RowProblem]) -> dict[str, list[int]]:
    """Each distinct problem with its rows, in order of their first row (a row may have several problems)."""
    grouped: dict[str, list[int]] = {}
    for problem in problems:
        for part in problem.message.split("; "):
            grouped.setdefault(part, []).append(problem.row)
    return grouped


def grouped_problem_errors(
    field: str,
    problems: Sequence[RowProblem],
    num_rows: int,
    columns: Sequence[str],
    report: str,
    limit: int,
) -> list[FieldError]:
    """One error per distinct problem (the first `limit`), with its row count and first rows, and the file's
    columns where a field is missing; then how many rows are invalid and where every one of them is listed. A
    problem of a single row names it as its row, as a row's own error does."""
    errors = []
    grouped = rows_by_problem(problems)
    for problem, rows in list(grouped.items())[:limit]:
        what = problem_text(problem)
        if len(rows) == 1:
            errors.append(text_error(field, what, row=rows[0]))
            continue
        params = {"problem": what.as_dict(), "count": len(rows), "total": num_rows, "rows": rows_named(rows)}
        if is_missing_field(problem):
            text = Text.of("dataset.rows_problem_columns", **params, columns=", ".join(columns) or "—")
        else:
            text = Text.of("dataset.rows_problem", **params)
        errors.append(text_error(field, text))
    listed = min(limit, len(grouped))
    invalid = len({problem.row for problem in problems})
    summary = Text.of(
        "dataset.rows_invalid", invalid=invalid, total=num_rows, listed=listed, problems=len(grouped), report=report
    )
    return [*errors, text_error(field, summary)]


def text_error(field: str, text: Text, row: int | None = None) -> FieldError:
    """A field error saying `text`, answered in the reader's language (api/errors.py)."""
    code = None if text.code == LITERAL else text.code
    return FieldError(field, text.render(), row=row, code=code, params=text.params)


def no_preset_text(detection: Detection) -> Text:
    """Why no preset was chosen: each preset tried and why it failed, or the presets the rows fit alike."""
    if not detection.tried:
        return Text.of("dataset.presets_none_for_kind", kind=detection.kind)
    fits = [name for name, reason in detection.tried if reason is None]
    if len(fits) > 1:
        return Text.of("dataset.presets_several", presets=", ".join(fits))
    if len(fits) == 1:
        return Text.of("dataset.presets_one", preset=fits[0])
    tried = "; ".join(f"{name}: {reason}" for name, reason in detection.tried)
    return Text.of("dataset.presets_none_fit", kind=detection.kind, tried=tried)
