"""Which data format a dataset's rows are read with: the one a request names, or for "auto" the one its first
rows fit.

The platform's own fields win when every row fits them: nothing is detected. Else the one preset every row fits
is chosen, and never a guess between several: when none or several fit, the rows stay in the platform's fields,
their problems said row by row, with why no preset was chosen when no row fits the platform's fields either.
Only a format that reads every key of the field mapping is a candidate (LLaMA-Factory's `query` is read by the
alpaca preset, not by the platform's own fields), and a key no format reads is refused (datafiles/presets.py
`mapping_problems`); so are files whose columns mean what the platform does not train (datafiles/meaning.py).
"""

from collections.abc import Sequence
from typing import Any

from training_platform.common.text import ENGLISH, Language, Text
from training_platform.contract.data import DataFormat
from training_platform.datafiles.errors import RowProblem
from training_platform.datafiles.formats import row_problem, schema_for
from training_platform.datafiles.meaning import KTO_LABEL, MEDIA_COLUMNS, meaning_problems
from training_platform.datafiles.presets import (
    Detection,
    RowFormatError,
    candidate_formats,
    detect_presets,
    format_reads_key,
    mapping_problems,
    normalise_row,
    preset_problem,
    unused_columns,
)
from training_platform.datafiles.rows import sample_rows
from training_platform.datafiles.table import DatasetTable
from training_platform.datasets.preview import row_out
from training_platform.datasets.schemas import DatasetFields, DetectRequest, DetectResult, PresetTried
from training_platform.datasets.texts import no_preset_text, text_error
from training_platform.errors import FieldError, InvalidInputError
from training_platform.rewards import RewardSpec

DETECTION_ROWS = 100  # the rows a format is detected from


def requested_format(
    table: DatasetTable, kind: str, fields: DatasetFields, field: str = "file"
) -> tuple[DataFormat, Text | None]:
    """The format the request names; for "auto", the platform's own when the first rows fit it, else the one
    preset they fit. When none or several do, the platform's own, with why no preset was chosen (said next to
    the rows' own problems). Refused: a file whose columns the platform cannot train as they mean, a mapping key
    the format does not read (`field` names the file in the refusal)."""
    chosen = None if fields.preset in ("auto", "platform") else fields.preset
    data_format = DataFormat(
        preset=chosen,
        field_mapping=fields.field_mapping,
        tags=fields.tags,
        split=fields.split,
        drop_columns=fields.drop_columns,
    )
    if problem := preset_problem(data_format, kind):
        raise InvalidInputError([FieldError("preset", problem)])
    kept = [name for name in table.columns if name not in fields.drop_columns]
    labels = table.frame[KTO_LABEL].drop_nulls().head(DETECTION_ROWS).to_list() if KTO_LABEL in kept else []
    asked = "auto" if fields.preset == "auto" else chosen
    refuse_unreadable(kept, labels, kind, data_format, fields.label_fields, asked, field)
    if fields.preset != "auto":
        return data_format, None
    sample = DatasetTable(table.frame.head(DETECTION_ROWS), [], min(table.num_rows, DETECTION_ROWS))
    data_format, detection = choose_format(sample_rows(sample), kind, data_format)
    if unread := _unread_keys(data_format, kind, fields.label_fields):
        why = _no_preset(detection) or Text.of("dataset.mapping_unread")
        raise InvalidInputError([text_error(f"field_mapping.{key}", why) for key in unread])
    return data_format, _no_preset(detection)


def refuse_unreadable(
    columns: Sequence[str],
    label_values: list[Any],
    kind: str,
    data_format: DataFormat,
    label_fields: Sequence[str],
    preset: str | None,
    field: str = "file",
) -> None:
    """Refused with the reasons: columns the platform cannot train as they mean, mapping keys the format (`preset`:
    a preset, None for the platform's own, or "auto" for any) does not read. A label field may be mapped too."""
    problems = meaning_problems(columns, label_values, kind, data_format.field_mapping, field)
    keys = {k: v for k, v in data_format.field_mapping.items() if k not in MEDIA_COLUMNS and k not in label_fields}
    formats = candidate_formats(kind) if preset == "auto" else [preset]
    problems += [
        (f"field_mapping.{key}" if key else "field_mapping", why) for key, why in mapping_problems(keys, formats, kind)
    ]
    if problems:
        raise InvalidInputError([text_error(name, message) for name, message in problems])


def _unread_keys(data_format: DataFormat, kind: str, label_fields: Sequence[str]) -> list[str]:
    return [
        key
        for key in data_format.field_mapping
        if key not in label_fields and not format_reads_key(data_format.preset, key, kind)
    ]


def detect(request: DetectRequest, language: Language = ENGLISH) -> DetectResult:
    """The format a file's first rows would register with, and those rows as the engines would receive them, said
    in `language`. What registration would refuse (datafiles/meaning.py, an unknown mapping key) is refused here
    too."""
    base = DataFormat(field_mapping=request.field_mapping, tags=request.tags, drop_columns=request.drop_columns)
    columns = list(dict.fromkeys(name for row in request.rows for name in row))
    kept = [name for name in columns if name not in request.drop_columns]
    labels = [row[KTO_LABEL] for row in request.rows if row.get(KTO_LABEL) is not None]
    refuse_unreadable(kept, labels, request.kind, base, [], "auto", "rows")
    data_format, detection = choose_format(request.rows, request.kind, base)
    rows = []
    for number, row in enumerate(request.rows, start=1):
        try:
            rows.append(row_out(number, normalise_row(row, data_format, request.kind)))
        except RowFormatError as error:
            rows.append(row_out(number, RowProblem(number, str(error))))
    return DetectResult(
        preset=data_format.preset,
        detected=detection is None or detection.detected is not None,
        message=why.render(language) if (why := _no_preset(detection)) else None,
        tried=[PresetTried(preset=name, problem=problem) for name, problem in detection.tried] if detection else [],
        rows=rows,
        unused_columns=unused_columns(columns, data_format, request.kind),
    )


def choose_format(rows: list[dict], kind: str, base: DataFormat) -> tuple[DataFormat, Detection | None]:
    """The platform's own fields when every row fits them (no detection needed); else the one preset every row
    fits, with the detection; else the platform's own, with the detection that says why no preset was chosen when
    no row fits the platform's fields either (when some do, the others are rows with problems, said row by row).
    A mapping key the platform reads (`prompt`) is read in LLaMA-Factory's sense (alpaca's `instruction`) only
    when no row fits the platform's fields."""
    platform_reads = all(format_reads_key(None, key, kind) for key in base.field_mapping)
    fitting = sum(_fits(row, base, kind) for row in rows) if platform_reads else 0
    if fitting == len(rows):
        return base, None
    detection = detect_presets(rows, kind, base, aliases=fitting == 0)
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


def _no_preset(detection: Detection | None) -> Text | None:
    if detection is None or detection.detected is not None or not detection.tried:
        return None
    return no_preset_text(detection)
