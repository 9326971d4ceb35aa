"""The reward preview of the job form: a GRPO/GSPO job's rewards scored on a few rows of its dataset, with right
answers as the completions (rewards/preview.py says which and why), and a warning when no row would score above 0.

The rows are read and scored in a worker of their own (common/worker.py), under the decoding limits of memory, CPU
time and wall clock: a dataset file is decoded there, as every request's is, and a custom reward function is imported
and run there, never in the server (docs/security.md, "Custom reward functions"). Its fork server imports this
module alone, which stays light (no torch, no transformers, not the jobs service), so it starts in a second where
the preview worker with transformers takes many.
"""

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from training_platform.common.text import Language, Text
from training_platform.common.worker import Worker, WorkerLimits
from training_platform.contract.data import DataFormat
from training_platform.datafiles.errors import DatasetFileError, RowProblem
from training_platform.datafiles.layout import DATASET_REFERENCE, checked_data_path
from training_platform.datafiles.limits import ReadLimits
from training_platform.datafiles.presets import RowFormatError, normalise_row
from training_platform.datafiles.readers import iter_rows
from training_platform.engines.rewards import reward_code_dir
from training_platform.engines.trl.data import reward_columns
from training_platform.errors import ConflictError, FieldError, InvalidInputError, NotFoundError
from training_platform.rewards import RewardConfigError, RewardSpec, check_reward_code, reward_spec_problems
from training_platform.rewards.preview import (
    MAX_PREVIEW_ROWS,
    RewardPreviewRow,
    all_zero,
    always_zero,
    boxed_without_boxes,
    score_rows,
)

if TYPE_CHECKING:
    from training_platform.jobs.service import JobService

PRELOAD = ["training_platform.jobs.reward_preview"]


class RewardPreviewRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rewards: list[RewardSpec] = Field(min_length=1, max_length=64, description="As the job's params.rewards.")
    dataset: str = Field(
        min_length=1, max_length=4096, description="As an entry of the job's dataset_paths: 'dataset:<name>' or a path."
    )
    algorithm: Literal["grpo", "gspo"] = "grpo"
    rows: int = Field(default=8, ge=1, le=MAX_PREVIEW_ROWS, description="How many of the dataset's first rows.")


class RewardPreviewRead(BaseModel):
    rewards: list[str] = Field(description="Each reward's name, as its metrics name it (rewards/<name>/mean).")
    rows: list[RewardPreviewRow]
    all_zero: bool = Field(description="No right answer of any row scores above 0: training would learn nothing.")
    warnings: list[str] = Field(description="In the language the request asked for (Accept-Language).")


def preview_rewards(jobs: "JobService", request: RewardPreviewRequest, language: Language) -> RewardPreviewRead:
    """The rewards scored on the dataset's first rows; a reward or dataset that cannot be scored is a 422 naming
    it, as creating the job would name it (`rewards.<index>.<setting>`, `dataset`)."""
    path, data_format = _source(jobs, request.dataset)
    code_dir = reward_code_dir()
    errors = []
    for index, spec in enumerate(request.rewards):
        if spec.type == "custom":  # read here, as job creation reads it; imported only in the worker
            try:
                check_reward_code(spec.function, code_dir)
            except RewardConfigError as error:
                errors.append(FieldError(f"rewards.{index}.function", str(error)))
    if errors:
        raise InvalidInputError(errors)
    rows = _scoring_worker(jobs.templates.limits).run(
        read_and_score,
        path,
        data_format,
        request.algorithm,
        request.rows,
        request.rewards,
        code_dir,
        jobs.limits,
        field="dataset",
        what="scoring the rewards on the dataset's first rows",
    )
    warnings = _warnings(request.rewards, rows)
    return RewardPreviewRead(
        rewards=[spec.name for spec in request.rewards],
        rows=rows,
        all_zero=all_zero(rows),
        warnings=[warning.render(language) for warning in warnings],
    )


def _source(jobs: "JobService", entry: str) -> tuple[str, DataFormat]:
    """The file and format of a dataset entry, as job creation resolves it (a path only under the data roots)."""
    try:
        if entry.startswith(DATASET_REFERENCE):
            return jobs.resolve_dataset(entry)
        return str(checked_data_path(entry, jobs.path_roots, "dataset")), DataFormat()
    except (NotFoundError, ConflictError) as error:
        raise InvalidInputError([FieldError("dataset", str(error))]) from None


@functools.cache  # one per server: its places bound the scorings at once
def _scoring_worker(limits: WorkerLimits) -> Worker:
    return Worker(limits, PRELOAD, start_now=False)


def _warnings(specs: list[RewardSpec], rows: list[RewardPreviewRow]) -> list[Text]:
    if all_zero(rows):
        hint = Text.of("rewards.boxed_hint") if boxed_without_boxes(specs, rows) else None
        return [Text.join(Text.of("rewards.all_zero"), hint)]
    if len(specs) == 1:
        return []
    return [
        Text.of("rewards.always_zero", number=index + 1, name=specs[index].name)
        for index in always_zero(rows, len(specs))
    ]


def read_and_score(
    path: str,
    data_format: DataFormat,
    kind: str,
    count: int,
    specs: list[RewardSpec],
    code_dir: Path | None,
    limits: ReadLimits,
) -> list[RewardPreviewRow]:
    """In the worker: the first `count` rows the trainer would read (a row the job's checks would refuse is
    skipped), in the columns its reward functions receive, scored."""
    rows: list[tuple[int, dict[str, Any]]] = []
    try:
        for number, row in iter_rows(Path(path), limits=limits, split=data_format.split):
            if len(rows) == count:
                break
            if isinstance(row, RowProblem):
                continue
            try:
                rows.append((number, reward_columns(normalise_row(row, data_format, kind))))
            except RowFormatError:
                continue
    except (DatasetFileError, ValueError) as error:  # ValueError: a preset that reads no rows of this kind
        raise InvalidInputError([FieldError("dataset", str(error))]) from None
    if not rows:
        raise InvalidInputError([FieldError("dataset", f"it has no row a {kind} job could read")])
    columns = set().union(*(row.keys() for _, row in rows))
    problems = reward_spec_problems(specs, columns, "rewards")
    if problems:
        raise InvalidInputError(problems)
    return score_rows(specs, rows, code_dir)
