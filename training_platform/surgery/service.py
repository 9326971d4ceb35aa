"""Model surgery: a merge, an average or a LoRA fold is validated here, every input resolved to a model directory
and checked against the others from their headers alone (no weights read in the server), then run as a job of its
own kind (contract/surgery.py, merging/engine.py). Its result is registered as a model, with its lineage, when the
run completes; a run that ends otherwise leaves nothing, its staging directory removed.

Checkpoint selection reads a job's recorded metrics: the complete checkpoint whose value (recorded at its step, or
the latest before it) is best, and the runner-up; a job that never recorded the key is refused, not guessed at.
"""

import math
import shutil
from pathlib import Path

from pydantic import ValidationError

from training_platform.contract.surgery import (
    AverageParams,
    LoraFoldParams,
    MergeModel,
    MergeParams,
    ModelSource,
    SurgeryOperation,
    SurgeryParams,
    located,
)
from training_platform.db.tables import Job
from training_platform.engines.base import CheckpointInfo
from training_platform.errors import FieldError, InvalidInputError, field_errors_from_pydantic
from training_platform.jobs.runs import layout_of
from training_platform.jobs.schemas import JobRead
from training_platform.jobs.service import JOB_REFERENCE, MODEL_REFERENCE, JobService
from training_platform.jobs.states import JobStatus
from training_platform.merging.compatibility import (
    IncompatibleModels,
    adapter_problem,
    first_difference,
    model_signature,
)
from training_platform.merging.engine import staging_dir
from training_platform.merging.process import read_record
from training_platform.merging.recipe import RecipeError, parse_recipe
from training_platform.metrics.service import MetricsService
from training_platform.models.service import ModelService
from training_platform.surgery.schemas import (
    AverageRequest,
    LoraFoldRequest,
    MergeRequest,
    ModelChoice,
    SelectedCheckpoint,
    SelectionRead,
    SelectRequest,
)

RULES = {"lowest_eval_loss": ("eval_loss", "min"), "highest_reward_mean": ("reward_mean", "max")}
# The values shown beside a checkpoint where a model is chosen.
CHOICE_KEYS = ("loss", "eval_loss", "reward_mean")
MAX_CHOICE_JOBS = 200  # the most recent jobs whose outputs are offered
ADAPTER_WEIGHTS = "adapter_model.safetensors"


class SurgeryService:
    def __init__(self, jobs: JobService, metrics: MetricsService, models: ModelService):
        self.jobs = jobs
        self.metrics = metrics
        self.models = models

    # ---- runs ------------------------------------------------------------------------------------

    def merge(self, request: MergeRequest) -> JobRead:
        if request.recipe is not None:
            given = [name for name in ("method", "models", "base_model") if getattr(request, name)]
            if given or request.parameters:
                message = f"a recipe says everything about the merge: leave out {', '.join(given) or 'parameters'}"
                raise InvalidInputError([FieldError("recipe", message)])
            try:
                recipe = parse_recipe(request.recipe)
            except RecipeError as error:
                raise InvalidInputError([FieldError(f"recipe.{error.field}".rstrip("."), str(error))]) from None
            models = [(entry.model.path, entry.parameters) for entry in recipe.models]
            base = recipe.base_model.path if recipe.base_model else None
            method, parameters, seed, prefix = recipe.method, recipe.parameters, recipe.random_seed, "recipe."
            dtype = request.dtype or recipe.dtype
        else:
            if request.method is None or not request.models:
                raise InvalidInputError([FieldError("method", "name a method and its models, or send a recipe")])
            models = [(entry.model, entry.parameters) for entry in request.models]
            base, method, parameters = request.base_model, request.method, request.parameters
            seed, prefix, dtype = request.random_seed, "", request.dtype
        errors: list[FieldError] = []
        sources = [
            self._source(reference, f"{prefix}models.{i}.model", errors) for i, (reference, _) in enumerate(models)
        ]
        base_source = self._source(base, f"{prefix}base_model", errors) if base else None
        if errors:
            raise InvalidInputError(errors)
        params = _validated(
            MergeParams,
            prefix,
            method=method,
            models=[MergeModel(model=source, parameters=p) for source, (_, p) in zip(sources, models, strict=True)],
            base_model=base_source,
            parameters=parameters,
            random_seed=seed,
            dtype=dtype,
            num_gpus=request.num_gpus,
        )
        fields = [f"{prefix}models.{i}.model" for i in range(len(sources))]
        if params.base_listed_apart:
            fields.insert(0, f"{prefix}base_model")
        self._check_compatible(params.sources, fields)
        return self.jobs.create_run(request.name, params, request.start, run_mode=request.run_mode)

    def average(self, request: AverageRequest) -> JobRead:
        job = self.jobs.find(request.job)
        complete = [c for c in self.jobs.complete_checkpoints(job) if c.kind == "checkpoint"]
        checkpoints = [c for c in complete if _in_range(c.step, request.from_step, request.to_step)]
        if len(checkpoints) < 2:
            have = ", ".join(c.name for c in complete) or "none"
            counted = f"{len(checkpoints)} complete checkpoints{_range(request)}"
            message = f"job '{job.name}' has {counted}; averaging takes 2 or more (it has: {have})"
            raise InvalidInputError([FieldError("from_step", message)])
        sources = [self.jobs.checkpoint_source(job, checkpoint, "job") for checkpoint in checkpoints]
        params = _validated(
            AverageParams,
            mode=request.mode,
            decay=request.decay,
            checkpoints=sources,
            dtype=request.dtype,
            num_gpus=request.num_gpus,
        )
        self._check_compatible(sources, [f"job ({c.name})" for c in checkpoints])
        return self.jobs.create_run(request.name, params, request.start, run_mode=request.run_mode)

    def lora_fold(self, request: LoraFoldRequest) -> JobRead:
        adapter = self.jobs.model_source(request.adapter, "adapter", adapter=True)
        if request.base_model is not None:
            base = self.jobs.model_source(request.base_model, "base_model")
        elif adapter.job_id is not None:
            base = self.jobs.model_source(self.jobs.find(adapter.job_id).model_path, "base_model")
        else:
            raise InvalidInputError([FieldError("base_model", "name the adapter's base model")])
        if not (Path(adapter.path) / ADAPTER_WEIGHTS).is_file():
            raise InvalidInputError([FieldError("adapter", f"{adapter.path} has no {ADAPTER_WEIGHTS}")])
        try:
            problem = adapter_problem(Path(base.path), Path(adapter.path))
        except IncompatibleModels as error:
            raise InvalidInputError([FieldError("base_model", str(error))]) from None
        if problem:
            raise InvalidInputError([FieldError("adapter", problem)])
        params = _validated(
            LoraFoldParams, base_model=base, adapter=adapter, dtype=request.dtype, num_gpus=request.num_gpus
        )
        return self.jobs.create_run(request.name, params, request.start, run_mode=request.run_mode)

    def _source(self, reference: str, field: str, errors: list[FieldError]) -> ModelSource | None:
        try:
            return self.jobs.model_source(reference, field)
        except InvalidInputError as error:
            errors.extend(error.errors)
            return None

    @staticmethod
    def _check_compatible(sources: list[ModelSource], fields: list[str]) -> None:
        """Same architecture, tensor names and shapes as the first input, read from config.json and the weights'
        headers; the first difference is named."""
        signatures = []
        for source, field in zip(sources, fields, strict=True):
            try:
                signatures.append((source.path, model_signature(Path(source.path))))
            except IncompatibleModels as error:
                raise InvalidInputError([FieldError(field, str(error))]) from None
        for field, signature in zip(fields[1:], signatures[1:], strict=True):
            if difference := first_difference(signatures[0], signature):
                raise InvalidInputError([FieldError(field, difference)])

    # ---- selection -------------------------------------------------------------------------------

    def select(self, request: SelectRequest) -> SelectionRead:
        job = self.jobs.find(request.job)
        checkpoints = [
            c
            for c in self.jobs.complete_checkpoints(job)
            if c.kind == "checkpoint" and _in_range(c.step, request.from_step, request.to_step)
        ]
        if not checkpoints:
            message = f"job '{job.name}' has no complete checkpoint{_range(request)}"
            raise InvalidInputError([FieldError("job", message)])
        if request.rule == "last":
            last = [_selected(job, c, None, None) for c in checkpoints[::-1][:2]]
            reason = f"the newest complete checkpoint{_range(request)}: step {last[0].step}"
            return self._selection(job, request, None, None, last, len(checkpoints), reason)
        key, mode = RULES.get(request.rule, (request.key, request.mode))
        if request.rule == "metric" and (not key or not mode):
            raise InvalidInputError([FieldError("key", "rule 'metric' needs a key and a mode (min or max)")])
        points = self.metrics.points(job.id, key)
        if not points:
            recorded = ", ".join(k.key for k in self.metrics.keys(job.id)) or "nothing"
            raise InvalidInputError(
                [FieldError("key", f"job '{job.name}' recorded no '{key}' (it recorded: {recorded})")]
            )
        scored = []
        for checkpoint in checkpoints:
            before = [(step, value) for step, value in points if step <= checkpoint.step and math.isfinite(value)]
            if before:
                step, value = before[-1]
                scored.append(_selected(job, checkpoint, value, step))
        if not scored:
            message = (
                f"no complete checkpoint of job '{job.name}'{_range(request)} has a '{key}' recorded at or before it"
            )
            raise InvalidInputError([FieldError("key", message)])
        # The best value wins; between equal values, the later checkpoint.
        ranked = sorted(scored, key=lambda c: (c.value if mode == "min" else -c.value, -c.step))
        best = ranked[0]
        word = "lowest" if mode == "min" else "highest"
        found = f"{best.value:.6g} at step {best.value_step}"
        reason = f"the {word} {key} of {len(scored)} complete checkpoints{_range(request)}: {found}"
        return self._selection(job, request, key, mode, ranked[:2], len(scored), reason)

    @staticmethod
    def _selection(job, request, key, mode, ranked, considered, reason) -> SelectionRead:
        return SelectionRead(
            job_id=job.id,
            job_name=job.name,
            rule=request.rule,
            key=key,
            mode=mode,
            checkpoint=ranked[0],
            runner_up=ranked[1] if len(ranked) > 1 else None,
            considered=considered,
            reason=reason,
        )

    # ---- what can be chosen ----------------------------------------------------------------------

    def choices(self) -> list[ModelChoice]:
        """Registered models, then each recent job's final model and complete checkpoints (newest job first)."""
        found = [
            ModelChoice(
                reference=f"{MODEL_REFERENCE}{model.name}",
                label=model.name,
                path=model.path,
                kind="registered",
                adapter=False,
                job_id=model.job_id,
                job_name=None,
                algorithm=None,
                step=None,
                metrics={},
            )
            for model in self.models.list_all()
        ]
        for job in self.jobs.recent(MAX_CHOICE_JOBS):
            found += self._job_choices(job)
        return found

    def _job_choices(self, job: Job) -> list[ModelChoice]:
        checkpoints = self.jobs.complete_checkpoints(job)
        if not checkpoints:
            return []
        recorded = {key: dict(points) for key in CHOICE_KEYS if (points := self.metrics.points(job.id, key))}
        choices = []
        for checkpoint in checkpoints:
            final = checkpoint.kind == "final"
            step = checkpoint.step
            # A final model shows the last values the job recorded; a checkpoint, those recorded at its step.
            at_step = {
                key: values[max(values)] if final else values[step]
                for key, values in recorded.items()
                if final or step in values
            }
            choices.append(
                ModelChoice(
                    reference=f"{JOB_REFERENCE}{job.name}" + ("" if final else f"@{checkpoint.name}"),
                    label=f"{job.name} · {'final' if final else checkpoint.name}",
                    path=str(checkpoint.path),
                    kind="final" if final else "checkpoint",
                    adapter=(checkpoint.path / "adapter_config.json").is_file(),
                    job_id=job.id,
                    job_name=job.name,
                    algorithm=job.algorithm,
                    step=step,
                    metrics=at_step,
                )
            )
        return choices

    # ---- when a run ends (a supervisor listener) -------------------------------------------------

    def job_started(self, job: Job) -> None:
        pass

    def job_ending(self, job: Job) -> None:
        pass

    def job_finished(self, job: Job) -> None:
        """A completed surgery run's result becomes a registered model with its lineage (once: a restarted server
        settling the same run registers nothing twice); any other ending removes what was half-written."""
        if job.algorithm not in set(SurgeryOperation):
            return
        layout = layout_of(job)
        if job.status != JobStatus.COMPLETED:
            shutil.rmtree(staging_dir(layout), ignore_errors=True)
            return
        if self.models.has_result_of(job.id):
            return
        record = read_record(layout.final_model_dir)
        lineage = record.model_dump(mode="json") if record else None
        description = f"{job.algorithm} run {job.name}"
        self.models.register_result(job.name, layout.final_model_dir, job.id, lineage, description)


def _validated(model: type[SurgeryParams], prefix: str = "", **fields) -> SurgeryParams:
    """The run's parameters, or a 422 naming each field (a whole-model check names its field in its message)."""
    try:
        return model.model_validate(fields)
    except ValidationError as error:
        errors = []
        for item in field_errors_from_pydantic(error):
            field, why = located(item.message) if item.field == "body" else (item.field, item.message)
            errors.append(FieldError(f"{prefix}{field}" if field else "body", why))
        raise InvalidInputError(errors) from None


def _selected(job: Job, checkpoint: CheckpointInfo, value: float | None, value_step: int | None) -> SelectedCheckpoint:
    return SelectedCheckpoint(
        name=checkpoint.name,
        step=checkpoint.step,
        reference=f"{JOB_REFERENCE}{job.name}@{checkpoint.name}",
        path=str(checkpoint.path),
        value=value,
        value_step=value_step,
    )


def _in_range(step: int | None, start: int | None, end: int | None) -> bool:
    return step is None or ((start is None or step >= start) and (end is None or step <= end))


def _range(request) -> str:
    if request.from_step is None and request.to_step is None:
        return ""
    start = request.from_step if request.from_step is not None else 0
    end = request.to_step if request.to_step is not None else "…"
    return f" in steps {start}–{end}"
