"""What each stage type runs, through the service that runs it outside a pipeline, and what it outputs.

A type's parameters are the request model of its own API (a train stage's are `POST /jobs`'s, an evaluate
stage's `POST /evaluations`'s), so a pipeline refuses what that API refuses, with the same details. Launching
either finishes at once (select, register, convert, empty: outputs now) or starts work the stage then follows: a
job (training, evaluation, merge, average, LoRA fold), a dataset task (audit, dedup) or a job's export task.

A stage's job is named after the pipeline, the stage and the attempt (definition.default_name) unless its
parameters name it, and a second launch of the same attempt finds that job instead of starting another.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from training_platform.datasets.audit import AuditOptions
from training_platform.datasets.convert import ConvertRequest
from training_platform.datasets.schemas import DedupRequest
from training_platform.datasets.service import DatasetService
from training_platform.errors import InvalidInputError, PlatformError
from training_platform.evals.schemas import EvalRequest
from training_platform.evals.service import EvalService
from training_platform.jobs.schemas import JobCreate
from training_platform.jobs.service import JobService
from training_platform.jobs.states import JobStatus
from training_platform.models.schemas import ModelRegister
from training_platform.models.service import ModelService
from training_platform.pipelines.protocol import WorkRead
from training_platform.pipelines.schemas import StageSpec, StageType
from training_platform.surgery.schemas import AverageRequest, LoraFoldRequest, MergeRequest, SelectRequest
from training_platform.surgery.service import SurgeryService

Outputs = dict[str, Any]
Check = tuple[tuple[str | int, ...], str, str]  # location in the params, message, kind


@dataclass
class Services:
    jobs: JobService
    evals: EvalService
    surgery: SurgeryService
    datasets: DatasetService
    models: ModelService


@dataclass
class Launch:
    """What a launch did: work to follow (and who to record as its owner), or outputs now."""

    work: WorkRead | None = None
    outputs: Outputs | None = None


class ExportParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    job: str = Field(min_length=1, max_length=200, description="The job whose checkpoint is exported.")
    checkpoint: str = Field(min_length=1, max_length=200, description="e.g. checkpoint-40, or ${select.name}.")


class DatasetParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dataset: str = Field(min_length=1, max_length=200, description="A registered dataset, by name or id.")
    operation: Literal["audit", "dedup", "convert"]
    options: dict[str, Any] = Field(default_factory=dict, description="The operation's own request (see its API).")


class EmptyParams(BaseModel):
    model_config = ConfigDict(extra="forbid")


DATASET_OPTIONS: dict[str, type[BaseModel]] = {"audit": AuditOptions, "dedup": DedupRequest, "convert": ConvertRequest}


@dataclass(frozen=True)
class StageKind:
    help: str
    params: type[BaseModel]
    outputs: tuple[str, ...]  # `metrics.*`: any key
    launch: Callable[[Services, dict[str, Any], str], Launch]
    names_work: bool = False  # its params take a `name` for the job it starts (defaulted per attempt)

    def check(self, params: dict[str, Any], name: str) -> list[Check]:
        """The parameters as the stage's own API checks them (its request model)."""
        if "start" in params and "start" in self.params.model_fields:
            return [(("start",), "a pipeline starts its stages itself: remove `start`", "extra_forbidden")]
        given = {"name": name, **params} if self.names_work else params
        try:
            request = self.params.model_validate(given)
        except ValidationError as error:
            return [(tuple(d["loc"]), d["msg"], d["type"]) for d in error.errors(include_url=False)]
        if isinstance(request, DatasetParams):
            try:
                DATASET_OPTIONS[request.operation].model_validate(request.options)
            except ValidationError as error:
                return [(("options", *d["loc"]), d["msg"], d["type"]) for d in error.errors(include_url=False)]
        return []

    def request(self, params: dict[str, Any], name: str) -> Any:
        given = {"name": name, **params} if self.names_work else dict(params)
        if "start" in self.params.model_fields:
            given["start"] = True
        return self.params.model_validate(given)


def _job(read) -> Launch:
    return Launch(work=WorkRead(kind="job", id=read.id, name=read.name, status=str(read.status)))


def _train(services: Services, params: dict[str, Any], name: str) -> Launch:
    return _job(services.jobs.create(STAGE_KINDS[StageType.TRAIN].request(params, name)))


def _evaluate(services: Services, params: dict[str, Any], name: str) -> Launch:
    return _job(services.evals.create(STAGE_KINDS[StageType.EVALUATE].request(params, name)))


def _merge(services: Services, params: dict[str, Any], name: str) -> Launch:
    return _job(services.surgery.merge(STAGE_KINDS[StageType.MERGE].request(params, name)))


def _average(services: Services, params: dict[str, Any], name: str) -> Launch:
    return _job(services.surgery.average(STAGE_KINDS[StageType.AVERAGE].request(params, name)))


def _lora_fold(services: Services, params: dict[str, Any], name: str) -> Launch:
    return _job(services.surgery.lora_fold(STAGE_KINDS[StageType.LORA_FOLD].request(params, name)))


def _select(services: Services, params: dict[str, Any], name: str) -> Launch:
    chosen = services.surgery.select(SelectRequest.model_validate(params))
    found = chosen.checkpoint
    return Launch(
        outputs={
            "checkpoint": found.reference,
            "model": found.reference,
            "name": found.name,
            "step": found.step,
            "value": found.value,
            "reason": chosen.reason,
        }
    )


def _export(services: Services, params: dict[str, Any], name: str) -> Launch:
    request = ExportParams.model_validate(params)
    task = services.jobs.export(request.job, request.checkpoint)
    return Launch(work=WorkRead(kind="job_task", id=task.id, name=request.job, status=task.status))


def _register(services: Services, params: dict[str, Any], name: str) -> Launch:
    request = ModelRegister.model_validate(params)
    # An earlier stage's model is a reference (job:<job>, job:<job>@<checkpoint>): registered as its directory.
    source = services.jobs.model_source(request.path, "path")
    model = services.models.register(request.model_copy(update={"path": source.path}))
    return Launch(outputs={"model": f"model:{model.name}", "name": model.name, "path": model.path})


def _dataset(services: Services, params: dict[str, Any], name: str) -> Launch:
    request = DatasetParams.model_validate(params)
    options = DATASET_OPTIONS[request.operation].model_validate(request.options)
    if isinstance(options, ConvertRequest):
        made = services.datasets.convert(request.dataset, options)
        return Launch(outputs={"dataset": made[0].name, "datasets": [dataset.name for dataset in made]})
    start = services.datasets.start_audit if isinstance(options, AuditOptions) else services.datasets.start_dedup
    task = start(request.dataset, options)
    dataset = services.datasets.get(request.dataset)
    return Launch(work=WorkRead(kind="dataset_task", id=task.id, name=dataset.name, status=task.status))


def _empty(services: Services, params: dict[str, Any], name: str) -> Launch:
    return Launch(outputs={})


STAGE_KINDS: dict[StageType, StageKind] = {
    StageType.DATASET: StageKind(
        "Audit, deduplicate or convert a registered dataset (as POST /datasets/{dataset}/audit|dedup|convert).",
        DatasetParams,
        ("dataset", "result.*"),
        _dataset,
    ),
    StageType.TRAIN: StageKind(
        "A training job, any algorithm and engine: the parameters of POST /jobs.",
        JobCreate,
        ("job", "model", "checkpoints.best", "checkpoints.last"),
        _train,
        names_work=True,
    ),
    StageType.EVALUATE: StageKind(
        "An evaluation run: the parameters of POST /evaluations.",
        EvalRequest,
        ("job", "run", "metrics.*"),
        _evaluate,
        names_work=True,
    ),
    StageType.SELECT: StageKind(
        "Pick a checkpoint of a job by its recorded metrics: the parameters of POST /surgery/select.",
        SelectRequest,
        ("checkpoint", "model", "name", "step", "value", "reason"),
        _select,
    ),
    StageType.MERGE: StageKind(
        "Merge models: the parameters of POST /surgery/merge.", MergeRequest, ("job", "model"), _merge, names_work=True
    ),
    StageType.AVERAGE: StageKind(
        "SWA or EMA over a job's checkpoints: the parameters of POST /surgery/average.",
        AverageRequest,
        ("job", "model"),
        _average,
        names_work=True,
    ),
    StageType.LORA_FOLD: StageKind(
        "Fold a LoRA adapter into its base: the parameters of POST /surgery/lora-fold.",
        LoraFoldRequest,
        ("job", "model"),
        _lora_fold,
        names_work=True,
    ),
    StageType.EXPORT: StageKind(
        "Export a job's checkpoint as a standalone model directory (POST /jobs/{job}/checkpoints/{checkpoint}/export).",
        ExportParams,
        ("model", "path"),
        _export,
    ),
    StageType.REGISTER: StageKind(
        "Register a model under a name: the parameters of POST /models, where `path` may also be an earlier "
        "stage's model (job:<job>, job:<job>@<checkpoint>, model:<name>).",
        ModelRegister,
        ("model", "name", "path"),
        _register,
    ),
    StageType.EMPTY: StageKind(
        "Runs nothing: joins branches, or marks a point in the pipeline.", EmptyParams, (), _empty
    ),
}


def service_problems(services: Services, stage: StageSpec, name: str) -> list[Check]:
    """What the service that runs a stage refuses of its parameters before anything exists: a train stage is
    checked as POST /jobs checks it (data, model, algorithm parameters), its fields that hold references to
    earlier stages' outputs left to its launch. The other types' parameters are checked by their request model
    (StageKind.check); their services look at what only exists once earlier stages ran."""
    if stage.type != StageType.TRAIN:
        return []
    deferred = frozenset(key for key, value in stage.params.items() if "${" in json.dumps(value, default=str))
    request = STAGE_KINDS[StageType.TRAIN].request(stage.params, name)
    try:
        services.jobs.check(request, deferred)
    except InvalidInputError as error:
        return [(_location(problem.field), problem.message, "service") for problem in error.errors]
    except PlatformError as error:
        return [((), str(error), "service")]
    return []


def _location(field: str) -> tuple[str | int, ...]:
    return tuple(int(part) if part.isdigit() else part for part in field.split("."))


def has_output(kind: StageType, output: str) -> bool:
    return any(
        output == name or (name.endswith(".*") and output.startswith(name[:-1]) and len(output) > len(name) - 1)
        for name in STAGE_KINDS[kind].outputs
    )


def work_state(services: Services, work: WorkRead) -> tuple[str, bool, str | None]:
    """The work's status, whether it has ended, and its error if it ended without its result."""
    if work.kind == "job":
        job = services.jobs.get(work.id)
        status = JobStatus(job.status)
        if status == JobStatus.COMPLETED:
            return status, True, None
        if status in (JobStatus.FAILED, JobStatus.CANCELLED):
            return status, True, job.error or f"job {job.name} {status}"
        return status, False, None
    task = (
        services.jobs.task(work.name, work.id)
        if work.kind == "job_task"
        else services.datasets.task(work.name, work.id)
    )
    if task.status == "completed":
        return task.status, True, None
    if task.status == "failed":
        return task.status, True, task.error or "the task failed"
    return task.status, False, None


def work_outputs(services: Services, kind: StageType, work: WorkRead) -> Outputs:
    """What a stage's finished work gives the stages after it."""
    if kind == StageType.TRAIN:
        outputs: Outputs = {"job": work.name, "model": f"job:{work.name}"}
        for output, rule in (("checkpoints.best", "lowest_eval_loss"), ("checkpoints.last", "last")):
            try:
                outputs[output] = services.surgery.select(SelectRequest(job=work.name, rule=rule)).checkpoint.reference
            except PlatformError:
                continue  # no checkpoint (or no eval loss): a reference to it fails with the reason when it resolves
        if "checkpoints.best" not in outputs and "checkpoints.last" in outputs:
            outputs["checkpoints.best"] = outputs["checkpoints.last"]
        return outputs
    if kind == StageType.EVALUATE:
        run = services.evals.run(work.id)
        overall = run.results.overall if run.results else {}
        metrics = {key: estimate.value for key, estimate in overall.items()}
        return {"job": work.name, "run": work.name} | {f"metrics.{key}": value for key, value in metrics.items()}
    if kind in (StageType.MERGE, StageType.AVERAGE, StageType.LORA_FOLD):
        return {"job": work.name, "model": f"job:{work.name}"}
    if kind == StageType.EXPORT:
        result = services.jobs.task(work.name, work.id).result or {}
        return {"model": result.get("path"), "path": result.get("path")}
    if kind == StageType.DATASET:
        result = services.datasets.task(work.name, work.id).result or {}
        dataset = result.get("name") or work.name  # a dedup that removed nothing keeps the dataset
        return {"dataset": dataset} | {f"result.{key}": value for key, value in result.items() if _scalar(value)}
    return {}


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)
