"""Evaluation: a run is validated here — its dataset an eval dataset that has what each metric needs, its target a
model directory the platform resolves or an endpoint that answers with the key it is given, its judges the same —
and only then created, as a job of its own kind (contract/evaluation.py, evaluation/engine.py): nothing is stored
for a request that is refused.

A run's results are read from its own files (the sample file, the aggregates); a comparison reads two to five
completed runs of the same dataset (by content hash) and pairs their samples by index: the difference of each
metric with its paired bootstrap interval, per category, and each sample improved, regressed or unchanged against
the baseline. A sweep is one request for runs over a job's checkpoints; its curve is read back by the job.

The API keys runs need reach their process through its environment at launch (`run_environment`), decrypted from
the secrets store at that moment: never a file, a response or a log line.
"""

import uuid
from pathlib import Path

from pydantic import ValidationError

from training_platform.common.destinations import Destinations
from training_platform.contract.evaluation import (
    EVALUATE,
    METRICS,
    ApiTarget,
    EvalParams,
    EvalResults,
    MetricSpec,
    ModelTarget,
    SampleRecord,
    prompt_text,
    read_samples,
)
from training_platform.contract.status import read_status
from training_platform.contract.surgery import located
from training_platform.datafiles.evalrows import eval_fields_present
from training_platform.datafiles.layout import DATASET_REFERENCE
from training_platform.datasets.schemas import DatasetRead
from training_platform.datasets.service import DatasetService
from training_platform.db.tables import Job
from training_platform.engines.rewards import reward_code_dir
from training_platform.errors import FieldError, InvalidInputError, NotFoundError, field_errors_from_pydantic
from training_platform.evals.comparison import compare_runs
from training_platform.evals.schemas import (
    MAX_COMPARED,
    CompareRequest,
    ComparisonRead,
    CurvePoint,
    CurveRead,
    EvalRequest,
    EvalRunRead,
    EvalSettings,
    MetricRequest,
    ModelTargetRequest,
    SamplesPage,
    SweepRequest,
)
from training_platform.evaluation.sandbox import sandbox_available
from training_platform.evaluation.targets import TargetError, probe
from training_platform.jobs.runs import layout_of
from training_platform.jobs.schemas import JobRead
from training_platform.jobs.service import JobService
from training_platform.rewards import RewardConfigError, check_reward_code
from training_platform.secrets.service import SecretService

ENDPOINT_NETWORKS_SETTING = "PLATFORM_ENDPOINT_ALLOWED_NETWORKS"
MAX_CHECKED_ROWS = 100_000  # rows read to check a dataset has what the metrics need
MAX_SWEEP_RUNS = 100
MAX_CURVE_RUNS = 1000
SHOWN_ROWS = 5  # rows named in an error


class EvalService:
    def __init__(self, jobs: JobService, datasets: DatasetService, secrets: SecretService, endpoints: Destinations):
        self.jobs = jobs
        self.datasets = datasets
        self.secrets = secrets
        self.endpoints = endpoints  # where an endpoint may be (settings.endpoint_allowed_networks)

    # ---- creating runs --------------------------------------------------------------------------------------

    def create(self, request: EvalRequest) -> JobRead:
        dataset, errors = self._dataset(request), []
        target = self._target(request.target, "target", errors)
        params = self._params(request, dataset, target, errors)
        name = request.name or f"eval-{_slug(_target_name(target))}-{uuid.uuid4().hex[:6]}"
        dataset_file = self.datasets.resolve(_reference(dataset))
        return self.jobs.create_run(name, params, request.start, dataset=dataset_file, run_mode=request.run_mode)

    def sweep(self, request: SweepRequest) -> list[JobRead]:
        """Runs over the job's complete checkpoints, every `every`-th one and its last, and its final model."""
        job = self._job(request.job, "job")
        checkpoints = self.jobs.complete_checkpoints(job)
        steps = [c for c in checkpoints if c.kind != "final"]
        chosen = steps[request.every - 1 :: request.every]
        if steps and steps[-1] not in chosen:
            chosen.append(steps[-1])
        if request.include_final:
            chosen += [c for c in checkpoints if c.kind == "final"]
        if not chosen:
            raise InvalidInputError([FieldError("job", f"job '{job.name}' has no complete checkpoint or final model")])
        if len(chosen) > MAX_SWEEP_RUNS:
            message = f"{len(chosen)} checkpoints: at most {MAX_SWEEP_RUNS} runs a sweep; raise `every`"
            raise InvalidInputError([FieldError("every", message)])
        dataset = self._dataset(request)
        targets = [
            ModelTarget(model=self.jobs.checkpoint_source(job, c, "job"), batch_size=request.batch_size) for c in chosen
        ]
        checked = self._params(request, dataset, targets[0], [])  # the dataset and the metrics, checked once
        tag = uuid.uuid4().hex[:6]
        resolved = self.datasets.resolve(_reference(dataset))
        return [
            self.jobs.create_run(
                f"eval-{job.name}-{c.name}-{tag}",
                checked.model_copy(update={"target": target}),
                request.start,
                resolved,
                run_mode=request.run_mode,
            )
            for c, target in zip(chosen, targets, strict=True)
        ]

    def _dataset(self, request: EvalSettings) -> DatasetRead:
        try:
            dataset = self.datasets.get(request.dataset)
        except NotFoundError as error:
            raise InvalidInputError([FieldError("dataset", str(error))]) from None
        if dataset.kind != "eval":
            message = f"dataset '{dataset.name}' is a {dataset.kind} dataset: evaluation reads eval datasets"
            raise InvalidInputError([FieldError("dataset", message)])
        return dataset

    def _params(
        self, request: EvalSettings, dataset: DatasetRead, target: ApiTarget | ModelTarget | None, errors: list
    ) -> EvalParams:
        metrics = [self._metric(metric, f"metrics.{i}", errors) for i, metric in enumerate(request.metrics)]
        errors += self._row_errors(dataset, request.metrics, request.limit)
        if errors:
            raise InvalidInputError(errors)
        try:
            return EvalParams(
                target=target,
                generation=request.generation,
                metrics=metrics,
                limit=request.limit,
                bootstrap_resamples=request.bootstrap_resamples,
                confidence=request.confidence,
                num_gpus=request.num_gpus,
                dataset_sha256=dataset.content_hash,
                dataset_name=dataset.name,
            )
        except ValidationError as error:
            raise InvalidInputError(_located_errors(error)) from None

    def _metric(self, request: MetricRequest, field: str, errors: list[FieldError]) -> MetricSpec | None:
        judge = self._target(request.target, f"{field}.target", errors) if request.target is not None else None
        if request.name == "pass_at_k" and (why := sandbox_available()):
            errors.append(
                FieldError(f"{field}.name", f"pass@k runs test code, and this server cannot isolate it: {why}")
            )
        if request.name == "custom" and request.function:
            try:
                check_reward_code(request.function, reward_code_dir())
            except RewardConfigError as error:
                errors.append(FieldError(f"{field}.function", str(error)))
        fields = request.model_dump(exclude={"target"}, exclude_unset=True)
        if request.target is not None and judge is None:
            return None  # its target was refused: the request fails with that error
        return MetricSpec.model_validate({**fields, **({"target": judge} if judge is not None else {})})

    def resolve_target(self, request: ModelTargetRequest | ApiTarget, field: str) -> ApiTarget | ModelTarget:
        """A target as a run's is resolved (its model found, its endpoint and key checked), for a caller that runs no
        job (the playground); InvalidInputError names `field`'s part that is wrong."""
        errors: list[FieldError] = []
        target = self._target(request, field, errors)
        if target is None:
            raise InvalidInputError(errors)
        return target

    def _target(self, request: ModelTargetRequest | ApiTarget, field: str, errors: list[FieldError]):
        if isinstance(request, ModelTargetRequest):
            try:
                return ModelTarget(
                    model=self.jobs.model_source(request.model, f"{field}.model"), batch_size=request.batch_size
                )
            except InvalidInputError as error:
                errors += error.errors
                return None
        if problem := self.endpoints.url_problem(request.base_url):
            errors.append(FieldError(f"{field}.base_url", problem))
            return None
        key = None
        if request.api_key_secret is not None:
            try:
                key = self.secrets.reveal(request.api_key_secret)
            except (NotFoundError, InvalidInputError) as error:
                errors.append(FieldError(f"{field}.api_key_secret", _message(error)))
                return None
        try:
            probe(request, key)
        except TargetError as error:
            errors.append(FieldError(f"{field}.{error.field}", str(error)))
            return None
        return request

    def _row_errors(self, dataset: DatasetRead, metrics: list[MetricRequest], limit: int | None) -> list[FieldError]:
        """Rows the run would fail on: unreadable ones, and rows lacking what a metric needs (named, not skipped)."""
        count = min(dataset.num_rows, limit or dataset.num_rows, MAX_CHECKED_ROWS)
        rows = self.datasets.rows(dataset.id, 0, count, normalised=True).rows
        if unreadable := [row for row in rows if row.problem is not None]:
            first = unreadable[0]
            message = (
                f"dataset '{dataset.name}' has {len(unreadable)} rows it cannot read (row {first.row}: {first.problem})"
            )
            return [FieldError("dataset", message)]
        lacking = eval_fields_present(row.data for row in rows)
        errors = []
        for index, metric in enumerate(metrics):
            for need in METRICS[metric.name].needs:
                if rows_without := lacking.get(need):
                    shown = ", ".join(map(str, rows_without[:SHOWN_ROWS])) + (
                        " ..." if len(rows_without) > SHOWN_ROWS else ""
                    )
                    what = "has none" if len(rows_without) == len(rows) else f"lacks them in {len(rows_without)} rows"
                    message = f"{metric.name} needs {need}; dataset '{dataset.name}' {what} (rows {shown})"
                    errors.append(FieldError(f"metrics.{index}.name", message))
        return errors

    def run_environment(self, job: Job) -> dict[str, str]:
        """The secrets an evaluation's process needs, as environment variables, decrypted now (at its launch)."""
        if job.algorithm != EVALUATE:
            return {}
        return self.secrets.environment_for(_params_of(job).secrets)

    # ---- reading runs ---------------------------------------------------------------------------------------

    def list_runs(self, limit: int = 200) -> list[EvalRunRead]:
        return [self._read(job) for job in self.jobs.recent(limit, kind=EVALUATE)]

    def run(self, name_or_id: str) -> EvalRunRead:
        return self._read(self._run_job(name_or_id))

    def samples(
        self, name_or_id: str, offset: int, limit: int, category: str | None = None, search: str | None = None
    ) -> SamplesPage:
        records = _records(self._run_job(name_or_id))
        if category is not None:
            records = [record for record in records if record.category == category]
        if search:
            records = [record for record in records if _matches(record, search)]
        return SamplesPage(total=len(records), offset=offset, items=records[offset : offset + limit])

    def compare(self, request: CompareRequest) -> ComparisonRead:
        if len(request.runs) > MAX_COMPARED:
            raise InvalidInputError([FieldError("runs", f"{len(request.runs)} runs: compare 2 to {MAX_COMPARED}")])
        jobs = [self._run_job(name, "runs") for name in request.runs]
        if len({job.id for job in jobs}) != len(jobs):
            raise InvalidInputError([FieldError("runs", "each run once")])
        params = [_params_of(job) for job in jobs]
        if len({p.dataset_sha256 for p in params}) != 1:
            shown = ", ".join(f"{job.name} ({p.dataset_name})" for job, p in zip(jobs, params, strict=True))
            raise InvalidInputError([FieldError("runs", f"the runs evaluated different datasets: {shown}")])
        results = [_results(job) for job in jobs]
        if unfinished := [job.name for job, result in zip(jobs, results, strict=True) if result is None]:
            raise InvalidInputError([FieldError("runs", f"not completed yet: {', '.join(unfinished)}")])
        baseline = request.baseline or jobs[0].name
        if baseline not in {job.name for job in jobs} | {job.id for job in jobs}:
            raise InvalidInputError([FieldError("baseline", f"'{baseline}' is not one of the compared runs")])
        baseline_job = next(job for job in jobs if baseline in (job.name, job.id))
        return compare_runs(
            names=[job.name for job in jobs],
            baseline=baseline_job.name,
            params=params,
            results=results,
            records=[_records(job) for job in jobs],
            request=request,
        )

    def curve(self, job_name: str) -> CurveRead:
        """The evaluations of the job's checkpoints and final model, by step."""
        job = self._job(job_name, "job")
        points, keys = [], []
        for run in self.jobs.recent(MAX_CURVE_RUNS, kind=EVALUATE):
            params = _params_of(run)
            source = params.target.model if isinstance(params.target, ModelTarget) else None
            if source is None or source.job_id != job.id:
                continue
            results = _results(run)
            values = results.overall if results else {}
            keys += [key for key in values if key not in keys]
            checkpoint = Path(source.path).name if source.step is not None else None
            points.append(
                CurvePoint(run=run.name, status=run.status, step=source.step, checkpoint=checkpoint, values=values)
            )
        points.sort(key=lambda point: (point.step is None, point.step or 0, point.run))
        return CurveRead(job=job.name, metric_keys=keys, points=points)

    def _read(self, job: Job) -> EvalRunRead:
        params = _params_of(job)
        layout = layout_of(job)
        status = read_status(layout.status_path)
        source = params.target.model if isinstance(params.target, ModelTarget) else None
        return EvalRunRead(
            job=self.jobs.view(job),
            dataset=params.dataset_name,
            dataset_sha256=params.dataset_sha256,
            target=_target_name(params.target),
            source_job=source.job_name if source else None,
            step=source.step if source else None,
            metric_keys=[key for metric in params.metrics for key in metric.keys],
            scored=status.current_step if status else 0,
            total=status.total_steps if status else None,
            results=_results(job),
        )

    def _run_job(self, name_or_id: str, field: str | None = None) -> Job:
        job = self._job(name_or_id, field)
        if job.algorithm != EVALUATE:
            message = f"job '{job.name}' is a {job.algorithm} run, not an evaluation"
            if field is None:
                raise NotFoundError(message)
            raise InvalidInputError([FieldError(field, message)])
        return job

    def _job(self, name_or_id: str, field: str | None) -> Job:
        try:
            return self.jobs.find(name_or_id)
        except NotFoundError as error:
            if field is None:
                raise
            raise InvalidInputError([FieldError(field, str(error))]) from None


def _params_of(job: Job) -> EvalParams:
    return EvalParams.model_validate({**job.params, "algorithm": EVALUATE})


def _results(job: Job) -> EvalResults | None:
    path = layout_of(job).results_path
    return EvalResults.model_validate_json(path.read_bytes()) if path.is_file() else None


def _records(job: Job) -> list[SampleRecord]:
    return sorted(read_samples(layout_of(job).samples_path), key=lambda record: record.index)


def _matches(record: SampleRecord, search: str) -> bool:
    needle = search.casefold()
    return any(needle in text.casefold() for text in [prompt_text(record.prompt), *record.references, *record.outputs])


def _target_name(target: ApiTarget | ModelTarget | None) -> str:
    if isinstance(target, ApiTarget):
        return f"{target.model} @ {target.base_url}"
    if target is None:
        return "model"
    source = target.model
    return f"{source.job_name}@{Path(source.path).name}" if source.job_name else Path(source.path).name


def _slug(text: str) -> str:
    kept = "".join(c if c.isalnum() or c in "._-" else "-" for c in text)
    return kept.strip("-.")[:60] or "run"


def _reference(dataset: DatasetRead) -> str:
    return DATASET_REFERENCE + dataset.id


def _message(error: Exception) -> str:
    if isinstance(error, InvalidInputError) and error.errors:
        return error.errors[0].message
    return str(error)


def _located_errors(error: ValidationError) -> list[FieldError]:
    errors = []
    for field_error in field_errors_from_pydantic(error):
        field, why = located(field_error.message)
        errors.append(FieldError(field or field_error.field, why))
    return errors
