"""Which data format a dataset's rows are read with: the one a request names, or for "auto" the one its first
rows fit.

The platform's own fields win when every row fits them: nothing is detected. Else the one preset every row fits
is chosen, and never a guess between several: when none or several fit, the rows stay in the platform's fields,
their problems said row by row, with why no preset was chosen when no row fits the platform's fields either.
"""

from training_platform.contract.data import DataFormat
from training_platform.datafiles.errors import RowProblem
from training_platform.datafiles.formats import row_problem, schema_for
from training_platform.datafiles.presets import (
    Detection,
    RowFormatError,
    detect_presets,
    no_preset_fits_message,
    normalise_row,
    preset_problem,
    unused_columns,
)
from training_platform.datafiles.rows import sample_rows
from training_platform.datafiles.table import DatasetTable
from training_platform.datasets.preview import row_out
from training_platform.datasets.schemas import DatasetFields, DetectRequest, DetectResult, PresetTried
from training_platform.errors import FieldError, InvalidInputError
from training_platform.rewards import RewardSpec

DETECTION_ROWS = 100  # the rows a format is detected from


def requested_format(table: DatasetTable, kind: str, fields: DatasetFields) -> tuple[DataFormat, str | None]:
    """The format the request names; for "auto", the platform's own when the first rows fit it, else the one
    preset they fit. When none or several do, the platform's own, with why no preset was chosen (said next to
    the rows' own problems)."""
    chosen = None if fields.preset in ("auto", "platform") else fields.preset
    data_format = DataFormat(preset=chosen, field_mapping=fields.field_mapping, tags=fields.tags, split=fields.split)
    if problem := preset_problem(data_format, kind):
        raise InvalidInputError([FieldError("preset", problem)])
    if fields.preset != "auto":
        return data_format, None
    sample = DatasetTable(table.frame.head(DETECTION_ROWS), [], min(table.num_rows, DETECTION_ROWS))
    data_format, detection = choose_format(sample_rows(sample), kind, data_format)
    return data_format, _no_preset(detection)


def detect(request: DetectRequest) -> DetectResult:
    """The format a file's first rows would register with, and those rows as the engines would receive them."""
    base = DataFormat(field_mapping=request.field_mapping, tags=request.tags)
    data_format, detection = choose_format(request.rows, request.kind, base)
    rows = []
    for number, row in enumerate(request.rows, start=1):
        try:
            rows.append(row_out(number, normalise_row(row, data_format, request.kind)))
        except RowFormatError as error:
            rows.append(row_out(number, RowProblem(number, str(error))))
    columns = list(dict.fromkeys(name for row in request.rows for name in row))
    return DetectResult(
        preset=data_format.preset,
        detected=detection is None or detection.detected is not None,
        message=_no_preset(detection),
        tried=[PresetTried(preset=name, problem=problem) for name, problem in detection.tried] if detection else [],
        rows=rows,
        unused_columns=unused_columns(columns, data_format, request.kind),
    )


def choose_format(rows: list[dict], kind: str, base: DataFormat) -> tuple[DataFormat, Detection | None]:
    """The platform's own fields when every row fits them (no detection needed); else the one preset every row
    fits, with the detection; else the platform's own, with the detection that says why no preset was chosen when
    no row fits the platform's fields either (when some do, the others are rows with problems, said row by row)."""
    fitting = sum(_fits(row, base, kind) for row in rows)
    if fitting == len(rows):
        return base, None
    detection = detect_presets(rows, kind, base)
    if detection.detected is None:
        return base, None if fitting else detection
    return base.model_copy(update={"preset": detection.detected}), detection


def _fits(row: dict, data_format: DataFormat, kind: str) -> bool:
    # Rule-rewarded rows fit the platform's fields with the default answer field: verl's layout nests the answer.
    answers = [RewardSpec().answer_field] if kind in ("grpo", "gspo") else []
    try:
        return row_problem(normalise_row(row, data_format, kind), schema_for(kind, answers)) is None
    except RowFormatError:
        return False


def _no_preset(detection: Detection | None) -> str | None:
    if detection is None or detection.detected is not None or not detection.tried:
        return None
    return no_preset_fits_message(detection)
