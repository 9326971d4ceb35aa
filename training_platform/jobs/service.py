"""The jobs service: validation on create, the user's actions, and what the API shows about a job."""

import shutil
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from training_platform.common.changes import Change, report
from training_platform.common.files import tail_lines
from training_platform.common.paths import checked_path
from training_platform.common.progress import ProgressCallback
from training_platform.common.text import ENGLISH, Language, Text
from training_platform.common.worker import Worker
from training_platform.contract import control
from training_platform.contract.data import DataFormat
from training_platform.contract.evaluation import EVALUATE, ApiTarget, EvalParams
from training_platform.contract.params import Algorithm, PPOParams, RuleRewardParams, TrainingParams, parse_params
from training_platform.contract.run import RunSpec
from training_platform.contract.status import load_status
from training_platform.contract.surgery import ModelSource, SurgeryOperation, SurgeryParams
from training_platform.datafiles.errors import DatasetFileError
from training_platform.datafiles.formats import row_problem_errors, validate_file
from training_platform.datafiles.layout import DATASET_REFERENCE, checked_data_path
from training_platform.datafiles.limits import ReadLimits
from training_platform.db.tables import Job, JobTask
from training_platform.db.types import utcnow
from training_platform.engines.base import CheckpointInfo, Engine
from training_platform.engines.registry import choose_engine, get_engine
from training_platform.engines.templates import first_row_with_tools, template_drops_in_rows
from training_platform.errors import (
    ConflictError,
    FieldError,
    InvalidInputError,
    NotFoundError,
    field_errors_from_pydantic,
)
from training_platform.jobs.progress import ended_attempt, run_state
from training_platform.jobs.runs import EXTERNAL, layout_of, run_spec
from training_platform.jobs.scheduler import JobScheduler
from training_platform.jobs.schemas import (
    CheckpointRead,
    JobCreate,
    JobEventRead,
    JobName,
    JobPreview,
    JobRead,
    JobTaskRead,
)
from training_platform.jobs.spec import JobFile, JobFileCreate, job_file, read_job_file
from training_platform.jobs.states import ACTION_SOURCES, JobStatus, allowed_actions
from training_platform.jobs.store import JobStore
from training_platform.jobs.supervisor import JobSupervisor
from training_platform.models.service import ModelService, model_dir_problem
from training_platform.rewards import reward_spec_problems
from training_platform.tasks import TaskRunner

# Where a model is chosen, a job's outputs and registered models are named rather than typed as paths.
JOB_REFERENCE, MODEL_REFERENCE = "job:", "model:"
ADAPTER_CONFIG = "adapter_config.json"  # peft's
# The engine that runs each kind of run other than training.
RUN_ENGINE_OF = {**{operation.value: "surgery" for operation in SurgeryOperation}, EVALUATE: "evaluation"}


def _endpoint_of(target: ApiTarget) -> str:
    """What an evaluation of an endpoint shows as its model: the model's name at the server."""
    return f"{target.model} @ {target.base_url}"


def is_model_reference(value: str) -> bool:
    return value.startswith((JOB_REFERENCE, MODEL_REFERENCE))


# `dataset:<name or id>` → the registered dataset's path and field mapping.
Source = tuple[str, DataFormat]
DatasetResolver = Callable[[str], Source]


# How each kind of run mode comes to be.
NOT_CONFIGURED = "ray needs PLATFORM_RAY_ADDRESS; ssh:<host> a host an admin added (GET /hosts)"


class JobService:
    def __init__(
        self,
        store: JobStore,
        supervisor: JobSupervisor,
        scheduler: JobScheduler,
        jobs_dir: Path,
        error_limit: int,
        resolve_dataset: DatasetResolver,
        path_roots: Sequence[Path],
        limits: ReadLimits,
        templates: Worker,
        models: ModelService,
    ):
        self.store = store
        self.supervisor = supervisor
        self.scheduler = scheduler
        self.jobs_dir = jobs_dir
        self.error_limit = error_limit
        self.resolve_dataset = resolve_dataset
        self.path_roots = path_roots  # where models and data files may be read from (docs/security.md)
        self.limits = limits
        self.templates = templates  # a decoding worker with transformers loaded (datasets/decoding.py's previews)
        self.models = models  # registered models, for `model:<name>` references
        self.tasks = TaskRunner(store.db, JobTask, owner="job_id")

    def recover(self) -> None:
        """At server start: re-attach to running processes, then start the queued jobs whose GPUs are free;
        exports cut off by the last stop are over."""
        self.supervisor.recover()
        self.scheduler.schedule()
        self.tasks.recover()

    def close(self) -> None:
        self.tasks.shutdown()
        self.supervisor.close()

    # ---- create / read / delete ------------------------------------------------------------------

    def create(self, request: JobCreate, formats: dict[str, DataFormat] | None = None) -> JobRead:
        """`formats`: the data format of data files given as paths, by the path as the request has it (a job
        file's; jobs/spec.py)."""
        engine, job, _, train = self._prepared(request, formats)
        warnings = self._template_warnings(job.model_path, train, request.algorithm)
        if self.store.name_taken(request.name):
            raise ConflictError(f"a job named '{request.name}' already exists")
        layout_of(job).root.mkdir(parents=True, exist_ok=True)
        created = dict(algorithm=request.algorithm.value, engine=engine.name)
        if request.engine != engine.name:
            job = self.store.add(job, Text.of("job.created_chosen", **created, requested=request.engine))
        else:
            job = self.store.add(job, Text.of("job.created", **created))
        for warning in warnings:
            self.store.record(job.id, "warning", warning)
        report(Change("job", job.id, job.name, "created", created=True))
        return self.start(job.id) if request.start else self.view(job)

    def preview(self, request: JobCreate, formats: dict[str, DataFormat] | None = None) -> JobPreview:
        """What the job would run: its engine's configuration and command on this server's devices, checked as
        `create` checks it; nothing is created, written or started."""
        engine, job, spec, _ = self._prepared(request, formats)
        device = self._device(request.run_mode)
        preview = engine.preview(spec, device)
        return JobPreview(
            engine=engine.name,
            device=device,
            configuration=preview.configuration,
            command=preview.command,
            engine_settings=job.engine_settings,
            output_dir=job.output_dir,
        )

    def preview_from_file(self, request: JobFileCreate) -> JobPreview:
        return self._from_file(request, self.preview, start=False)

    def _device(self, run_mode: str) -> str:
        """The kind of device a job of `run_mode` trains on: the GPUs its runner allocates, else the CPU."""
        return "cuda" if self.scheduler.devices(run_mode) else "cpu"

    def _prepared(
        self, request: JobCreate, formats: dict[str, DataFormat] | None
    ) -> tuple[Engine, Job, RunSpec, list[Source]]:
        """The job a request makes (not stored), its run and its training data, every problem of them refused at
        once: the engine's own checks of the run and of its engine settings included."""
        if is_model_reference(request.model_path):
            request = request.model_copy(
                update={"model_path": self.model_source(request.model_path, "model_path").path}
            )
        engine, train, evaluation, params = self._checked(request, formats=formats)
        job_id = uuid.uuid4().hex
        job = Job(
            id=job_id,
            name=request.name,
            algorithm=request.algorithm.value,
            engine=engine.name,
            run_mode=request.run_mode,
            model_path=_absolute(request.model_path),
            dataset_paths=[path for path, _ in train],
            dataset_formats={
                path: data_format.model_dump(mode="json", exclude_defaults=True)
                for path, data_format in [*train, *([evaluation] if evaluation else [])]
                if data_format != DataFormat()
            },
            eval_dataset_path=evaluation[0] if evaluation else None,
            params=params.model_dump(mode="json", exclude={"algorithm"}),
            health_settings=request.health.model_dump(mode="json"),
            trackers=None if request.trackers is None else [spec.model_dump(mode="json") for spec in request.trackers],
            engine_settings=request.engine_settings,
            status=JobStatus.PENDING.value,
            output_dir=str(self.jobs_dir / job_id),
        )
        # A job to be started now is refused here for what would refuse its start: more GPUs than there are.
        devices = self.scheduler.refusal(request.run_mode, params.num_gpus) if request.start else None
        errors = [*engine.refusals(params), *([devices] if devices else [])]
        if errors:
            raise InvalidInputError(errors)
        spec = run_spec(job, self.supervisor.runners[request.run_mode])
        # The settings first: the engine's check of the whole run would otherwise blame what a refused one breaks.
        if errors := engine.setting_problems(spec, self._device(request.run_mode), self.templates) or engine.check(
            spec
        ):
            raise InvalidInputError(errors)
        return engine, job, spec, [entry for entry in train if entry]

    def create_from_file(self, request: JobFileCreate) -> JobRead:
        """A job from its job file (jobs/spec.py); every refusal names its line in the file."""
        return self._from_file(request, self.create, request.start)

    def _from_file(self, request: JobFileCreate, action: Callable, start: bool):
        """`action` (create, preview) on the job file's request; a refusal names each field's line in the file."""
        document = read_job_file(request.text, start, request.name)
        try:
            return action(document.request, document.formats)
        except InvalidInputError as error:
            raise document.located(error) from None

    def job_file(self, name_or_id: str) -> JobFile:
        return job_file(self.store.find(name_or_id))

    def check(self, request: JobCreate, deferred: frozenset[str] = frozenset()) -> None:
        """What `create` refuses of a request, creating nothing (a pipeline's train stage is checked so before the
        pipeline exists). The top-level fields in `deferred` are not known yet (a pipeline's references to earlier
        stages' outputs): they are checked when the job is created, and so is what needs every field (the
        engine's own check of the whole run)."""
        if "model_path" not in deferred and is_model_reference(request.model_path):
            request = request.model_copy(
                update={"model_path": self.model_source(request.model_path, "model_path").path}
            )
        self._checked(request, deferred)

    def refuse_invalid(self, document: object) -> None:
        """A request body (POST /jobs, /jobs/preview) that is no valid JobCreate refused with every problem of it at
        once: the fields pydantic refuses, and what `check` finds in the others. A valid one passes (`create` and
        `preview` check it whole)."""
        if not isinstance(document, dict):
            return  # FastAPI's own validation says what a body must be
        request, refused, errors = _partial_request(document)
        if not errors:
            return
        if request is not None:
            try:
                self.check(request, refused)
            except InvalidInputError as error:
                errors += error.errors
        raise InvalidInputError(errors)

    def _checked(
        self, request: JobCreate, deferred: frozenset[str] = frozenset(), formats: dict[str, DataFormat] | None = None
    ) -> tuple[Engine, list[Source | None], Source | None, TrainingParams | None]:
        """The engine, data sources and parameters of a request, every problem of them refused at once."""
        engine = choose_engine(request.engine, request.algorithm, _requested_gpus(request.params))
        if request.algorithm not in engine.algorithms:
            raise InvalidInputError([FieldError("algorithm", engine.unsupported_message(request.algorithm))])
        self._check_run_mode(request.run_mode)
        train, evaluation, source_errors = self._data_sources(request, deferred, formats or {})
        return engine, train, evaluation, self._validate(request, train, evaluation, source_errors, deferred)

    def _data_sources(
        self, request: JobCreate, deferred: frozenset[str], formats: dict[str, DataFormat]
    ) -> tuple[list[Source | None], Source | None, list[FieldError]]:
        """Each data entry as (absolute path, data format), registered datasets with their own format; None for
        an entry that is refused (outside the data roots, an unknown dataset), with why, or not known yet."""
        errors: list[FieldError] = []

        def source(field: str, entry: str) -> Source | None:
            if field.partition(".")[0] in deferred:
                return None
            try:
                if not entry.startswith(DATASET_REFERENCE):
                    return str(checked_data_path(entry, self.path_roots, field)), formats.get(entry, DataFormat())
                return self.resolve_dataset(entry)
            except InvalidInputError as error:
                errors.extend(error.errors)
            except NotFoundError as error:  # no dataset of that name
                name = entry.removeprefix(DATASET_REFERENCE)
                errors.append(FieldError(field, str(error), code="job.unknown_dataset", params={"dataset": name}))
            except ConflictError as error:
                errors.append(FieldError(field, str(error)))
            return None

        train = [source(f"dataset_paths.{i}", entry) for i, entry in enumerate(request.dataset_paths)]
        evaluation = source("eval_dataset_path", request.eval_dataset_path) if request.eval_dataset_path else None
        return train, evaluation, errors

    def _validate(
        self,
        request: JobCreate,
        train: list[Source | None],
        evaluation: Source | None,
        source_errors: list[FieldError],
        deferred: frozenset[str] = frozenset(),
    ) -> TrainingParams | None:
        """Collect every problem at once, so one round trip shows the user all of them."""
        errors: list[FieldError] = list(source_errors)
        params = None
        try:
            params = None if "params" in deferred else parse_params(request.algorithm, request.params)
        except ValidationError as error:
            errors += field_errors_from_pydantic(error, prefix="params")
        if "model_path" not in deferred:
            errors += self._check_model_dir("model_path", request.model_path)
        if isinstance(params, PPOParams):  # the reward model: a directory, or a reference as model_path takes
            problems = self._reward_model_problems(params)
            errors += problems
            if not problems:
                params.reward_model_path = _absolute(params.reward_model_path)
        rule_rewards = params.rewards if isinstance(params, RuleRewardParams) else []
        answer_fields = [spec.answer_field for spec in rule_rewards if spec.type != "format_check"]
        column_sets = []
        for index, entry in enumerate(train):
            if entry is None:  # refused, and said why
                column_sets.append(None)
                continue
            problems, columns = self._check_dataset(f"dataset_paths.{index}", *entry, request.algorithm, answer_fields)
            errors += problems
            column_sets.append(columns)
        if evaluation:
            problems, _ = self._check_dataset("eval_dataset_path", *evaluation, request.algorithm, answer_fields)
            errors += problems
        # Columns every training file has; unknown (None) when a file could not be read at all.
        shared_columns = set.intersection(*column_sets) if None not in column_sets else None
        errors += reward_spec_problems(rule_rewards, shared_columns, "params.rewards")
        if errors:
            raise InvalidInputError(errors)
        return params

    def _reward_model_problems(self, params: PPOParams) -> list[FieldError]:
        """Why the reward model cannot be read; a reference (`model:<name>`, `job:<job>`) becomes its directory."""
        field = "params.reward_model_path"
        if not is_model_reference(params.reward_model_path):
            return self._check_model_dir(field, params.reward_model_path)
        try:
            params.reward_model_path = self.model_source(params.reward_model_path, field).path
        except InvalidInputError as error:
            return error.errors
        return []

    def _check_dataset(
        self, field: str, path: str, data_format: DataFormat, kind: str, answer_fields: list[str]
    ) -> tuple[list[FieldError], set[str] | None]:
        """Row problems of one file (read through its data format) as field errors, and the columns it has."""
        try:
            report = validate_file(
                Path(path), kind, answer_fields, keep=self.error_limit, data_format=data_format, limits=self.limits
            )
        except DatasetFileError as error:
            return [FieldError(field, str(error))], None
        errors = row_problem_errors(field, report.problems, report.num_rows, report.num_invalid)
        return errors, report.columns

    def _template_warnings(self, model_path: str, train: list[Source], kind: str) -> list[Text]:
        """For each training file whose first rows carry tools or tool calls: what of one such row the model's chat
        template does not render (engines/templates.py), said as a warning event of the job. The model's tokenizer
        is loaded in the worker that has transformers loaded (common/worker.py), never in the server."""
        rows = [
            (path, *found)
            for path, data_format in train
            if (found := first_row_with_tools(Path(path), data_format, kind, self.limits)) is not None
        ]
        if not rows:
            return []  # most data carries no tools: no tokenizer is loaded for it
        drops = self.templates.run(
            template_drops_in_rows,
            str(_absolute(model_path)),
            rows,
            field="model_path",
            what="checking what the model's chat template renders of the data",
        )
        return [Text.of("job.template_drops", dataset=path, row=row, dropped=dropped) for path, row, dropped in drops]

    def _check_model_dir(self, field: str, path: str) -> list[FieldError]:
        """Under the data roots first: nothing is said about a path outside them, not even whether it exists."""
        try:
            directory = checked_path(path, self.path_roots, field)
        except InvalidInputError as error:
            return error.errors
        problem = model_dir_problem(directory)
        return [FieldError(field, problem)] if problem else []

    def _check_run_mode(self, run_mode: str) -> None:
        if run_mode not in self.supervisor.runners:
            raise InvalidInputError(
                [FieldError("run_mode", f"run mode '{run_mode}' is not configured: {NOT_CONFIGURED}")]
            )

    def create_run(
        self,
        name: str,
        params: SurgeryParams | EvalParams,
        start: bool,
        dataset: tuple[str, DataFormat] | None = None,
        run_mode: str = "local",
    ) -> JobRead:
        """A run of another kind than training (contract/surgery.py, contract/evaluation.py): a job of the engine that
        runs it, queued and supervised like any; `params` are validated, their inputs resolved to model directories
        (and an evaluation's dataset to its file and format) by the caller."""
        self._check_run_mode(run_mode)
        if params.num_gpus and not self.scheduler.devices(run_mode):
            message = "this server has no GPUs: leave num_gpus at 0 to run it on the CPU"
            raise InvalidInputError([FieldError("num_gpus", message)])
        if self.store.name_taken(name):
            raise ConflictError(f"a job named '{name}' already exists")
        job_id = uuid.uuid4().hex
        job = Job(
            id=job_id,
            name=name,
            algorithm=params.algorithm,
            engine=RUN_ENGINE_OF[params.algorithm],
            run_mode=run_mode,
            model_path=params.sources[0].path if params.sources else _endpoint_of(params.target),
            dataset_paths=[dataset[0]] if dataset else [],
            dataset_formats={dataset[0]: dataset[1].model_dump(mode="json", exclude_defaults=True)}
            if dataset and dataset[1] != DataFormat()
            else {},
            params=params.model_dump(mode="json", exclude={"algorithm"}),
            health_settings={},
            status=JobStatus.PENDING.value,
            output_dir=str(self.jobs_dir / job_id),
        )
        layout_of(job).root.mkdir(parents=True, exist_ok=True)
        job = self.store.add(job, Text.of("job.created", algorithm=params.algorithm, engine=job.engine))
        report(Change("job", job.id, job.name, "created", created=True))
        return self.start(job.id) if start else self.view(job)

    def model_source(self, reference: str, field: str, adapter: bool = False) -> ModelSource:
        """A model to read: `job:<job>` (its final model), `job:<job>@<checkpoint>` (a complete checkpoint of it),
        `model:<name>` (a registered model), or a directory under the data roots; refused (naming `field`) when it
        is not a Hugging Face model directory (with `adapter`: not a peft adapter directory)."""
        if reference.startswith(JOB_REFERENCE):
            source = self._job_model(reference.removeprefix(JOB_REFERENCE), field, adapter)
        elif reference.startswith(MODEL_REFERENCE):
            try:
                model = self.models.get(reference.removeprefix(MODEL_REFERENCE))
            except NotFoundError as error:
                raise InvalidInputError([FieldError(field, str(error))]) from None
            source = ModelSource(path=model.path)
        else:
            source = ModelSource(path=str(checked_path(reference, self.path_roots, field)))
        if problem := _model_problem(Path(source.path), adapter):
            raise InvalidInputError([FieldError(field, problem)])
        return source

    def _job_model(self, reference: str, field: str, adapter: bool) -> ModelSource:
        name, _, checkpoint_name = reference.partition("@")
        try:
            job = self.store.find(name)
        except NotFoundError as error:
            raise InvalidInputError([FieldError(field, str(error))]) from None
        checkpoints = self.complete_checkpoints(job)
        wanted = [c for c in checkpoints if (c.name == checkpoint_name if checkpoint_name else c.kind == "final")]
        if not wanted:
            have = ", ".join(c.name for c in checkpoints) or "none"
            what = f"no complete checkpoint '{checkpoint_name}'" if checkpoint_name else "no final model yet"
            raise InvalidInputError([FieldError(field, f"job '{job.name}' has {what} (complete ones: {have})")])
        return self.checkpoint_source(job, wanted[0], field, adapter)

    def complete_checkpoints(self, job: Job) -> list[CheckpointInfo]:
        """The job's complete checkpoints in step order, then its final model if it has one."""
        if job.engine == EXTERNAL:
            return []
        return [c for c in get_engine(job.engine).list_checkpoints(layout_of(job)) if c.complete]

    def checkpoint_source(self, job: Job, found: CheckpointInfo, field: str, adapter: bool = False) -> ModelSource:
        """One of the job's complete checkpoints as a model to read: its directory, or its export where it is sharded
        (a verl checkpoint); refused, naming `field`, when neither is a model directory."""
        exported = layout_of(job).exports_dir / found.name
        path = found.path
        if _model_problem(path, adapter) and exported.is_dir():
            path = exported
        elif problem := _model_problem(path, adapter):
            message = f"{problem}: export checkpoint '{found.name}' of job '{job.name}' first (it is sharded)"
            raise InvalidInputError([FieldError(field, message)])
        return ModelSource(path=str(path), job_id=job.id, job_name=job.name, step=found.step)

    def find(self, name_or_id: str) -> Job:
        """The job's row, for the platform's other services."""
        return self.store.find(name_or_id)

    def get(self, name_or_id: str) -> JobRead:
        return self.view(self.store.find(name_or_id))

    def get_or_create_external(self, name_or_id: str, source: str) -> Job:
        """The job to import a metrics file into; a run the platform did not launch gets a record of its own."""
        try:
            return self.store.find(name_or_id)
        except NotFoundError:
            pass
        try:
            TypeAdapter(JobName).validate_python(name_or_id)
        except ValidationError as error:
            raise InvalidInputError(field_errors_from_pydantic(error, prefix="job")) from None
        job_id = uuid.uuid4().hex
        job = Job(
            id=job_id,
            name=name_or_id,
            algorithm=EXTERNAL,
            engine=EXTERNAL,
            run_mode=EXTERNAL,
            model_path="",
            dataset_paths=[],
            params={},
            status=JobStatus.COMPLETED.value,
            output_dir=str(self.jobs_dir / job_id),
        )
        layout_of(job).root.mkdir(parents=True, exist_ok=True)
        job = self.store.add(job, Text.of("job.external", source=source))
        report(Change("job", job.id, job.name, "created", created=True))
        return job

    def recent(self, limit: int, kind: str | None = None) -> list[Job]:
        """The newest jobs' rows (of one kind: an algorithm, a surgery operation, `evaluate`), for the platform's
        other services."""
        return self.store.query(limit=limit, kind=kind)

    def list_jobs(self, statuses: list[JobStatus], limit: int, offset: int) -> list[JobRead]:
        return [self.view(job) for job in self.store.query(statuses, limit=limit, offset=offset)]

    def delete(self, name_or_id: str, delete_files: bool) -> None:
        job = self.store.find(name_or_id)
        self.store.delete(job.id, unless_status={JobStatus.RUNNING, JobStatus.QUEUED})
        if delete_files:
            shutil.rmtree(job.output_dir, ignore_errors=True)

    def view(self, job: Job) -> JobRead:
        status = load_status(layout_of(job).status_path)
        actions = allowed_actions(JobStatus(job.status), job.requested_action)
        if job.engine != EXTERNAL and not get_engine(job.engine).capabilities.resumable:
            actions = [action for action in actions if action != "pause"]  # it is stopped, or run again
        return JobRead(
            **job.model_dump(exclude={"process_started_at", "health", "failure", "run_seconds", "last_progress"}),
            allowed_actions=actions,
            queue_position=self.store.queue_position(job) if job.status == JobStatus.QUEUED else None,
            **run_state(job, status, time.time()),
        )

    def health_of(self, job: Job) -> str:
        """The health its page shows (unknown until it logged a step), for the platform's other services."""
        return self.view(job).health

    def events(self, name_or_id: str, language: Language = ENGLISH) -> list[JobEventRead]:
        events = self.store.events(self.store.find(name_or_id).id)
        return [
            JobEventRead.model_validate(event, from_attributes=True).model_copy(
                update={"message": Text(event.code, event.params or {}).render(language)} if event.code else {}
            )
            for event in events
        ]

    def checkpoints(self, name_or_id: str) -> list[CheckpointRead]:
        job = self.store.find(name_or_id)
        return [_checkpoint_read(c) for c in get_engine(job.engine).list_checkpoints(layout_of(job))]

    def export(self, name_or_id: str, checkpoint_name: str) -> JobTaskRead:
        """Start writing a checkpoint as a Hugging Face model directory under the job's `exports/` (a background
        task: verl's model merger takes minutes for a large model)."""
        job = self.store.find(name_or_id)
        engine = get_engine(job.engine)
        found = {c.name: c for c in engine.list_checkpoints(layout_of(job))}
        checkpoint = found.get(checkpoint_name)
        if checkpoint is None:
            raise NotFoundError(f"job '{job.name}' has no checkpoint '{checkpoint_name}' (it has: {', '.join(found)})")
        if not checkpoint.complete:
            raise ConflictError(f"checkpoint '{checkpoint_name}' is incomplete (its write was cut short)")
        target = layout_of(job).exports_dir / checkpoint_name

        def work(progress: ProgressCallback) -> dict:
            path = engine.export(checkpoint, target, progress)
            self.store.record(job.id, "export", Text.of("job.exported", checkpoint=checkpoint_name, path=str(path)))
            return {"checkpoint": checkpoint_name, "path": str(path)}

        task = self.tasks.submit(job.id, "export", {"checkpoint": checkpoint_name}, work)
        return JobTaskRead.model_validate(task, from_attributes=True)

    def task(self, name_or_id: str, task_id: str) -> JobTaskRead:
        task = self.tasks.get(self.store.find(name_or_id).id, task_id)
        return JobTaskRead.model_validate(task, from_attributes=True)

    def list_tasks(self, name_or_id: str) -> list[JobTaskRead]:
        tasks = self.tasks.list_for(self.store.find(name_or_id).id)
        return [JobTaskRead.model_validate(task, from_attributes=True) for task in tasks]

    def log_tail(self, name_or_id: str, stream: str, lines: int, contains: str | None) -> list[str]:
        path = layout_of(self.store.find(name_or_id)).log_path(stream)
        if contains is None:
            return tail_lines(path, lines)
        # Filtering needs the whole file; read it once, keep only the last matches.
        if not path.exists():
            return []
        with open(path, encoding="utf-8", errors="replace") as handle:
            matches = [line.rstrip("\n") for line in handle if contains.lower() in line.lower()]
        return matches[-lines:]

    def log_path(self, name_or_id: str, stream: str) -> tuple[Path, str]:
        """The log file and the name it is downloaded as."""
        job = self.store.find(name_or_id)
        path = layout_of(job).log_path(stream)
        if not path.exists():
            raise NotFoundError(f"job '{job.name}' has no {stream} log yet (it has not been started)")
        return path, f"{job.name}-{stream}.log"

    # ---- actions ---------------------------------------------------------------------------------

    def start(self, name_or_id: str) -> JobRead:
        job = self.store.find(name_or_id)
        started = Text.of("job.started_by_user")
        return self.view(self.scheduler.admit(job, "start", started, error=None, exit_code=None))

    def pause(self, name_or_id: str) -> JobRead:
        """Ask the trainer to save a checkpoint and exit; the job becomes paused when it has."""
        job = self.store.find(name_or_id)
        if job.engine != EXTERNAL and not get_engine(job.engine).capabilities.resumable:
            raise ConflictError(f"job '{job.name}' is a {job.algorithm} run: it cannot be paused, only stopped")
        job = self.store.request_action(job.id, "pause")
        control.request(layout_of(job).control_path, control.ControlAction.PAUSE)
        return self.view(job)

    def record_event(self, job_id: str, kind: str, message: Text) -> None:
        self.store.record(job_id, kind, message)

    def set_health(self, job_id: str, health: str) -> None:
        self.store.update(job_id, health=health)

    def resume(self, name_or_id: str, learning_rate: float | None = None) -> JobRead:
        """From the newest complete checkpoint; with `learning_rate`, the job's rate is that from now on (TRL: the
        checkpoint's schedule goes on from the new peak)."""
        job = self.store.find(name_or_id)
        if learning_rate is not None:
            job = self._set_learning_rate(job, learning_rate)
        checkpoint = get_engine(job.engine).latest_complete_checkpoint(layout_of(job))
        resumed = Text.of(
            "job.resumed_by_user",
            checkpoint=checkpoint.name if checkpoint else None,
            step=checkpoint.step if checkpoint else None,
            learning_rate=f"{learning_rate:g}" if learning_rate is not None else None,
        )
        job = self.scheduler.admit(job, "resume", resumed, error=None, exit_code=None, finished_at=None)
        return self.view(job)

    def _set_learning_rate(self, job: Job, learning_rate: float) -> Job:
        if job.status not in ACTION_SOURCES["resume"]:
            raise ConflictError(f"job '{job.name}' is {job.status}: only a paused or failed job can be resumed")
        if not get_engine(job.engine).capabilities.new_learning_rate_on_resume:
            message = f"the {job.engine} engine resumes with its checkpoint's learning rate; TRL jobs take a new one"
            raise InvalidInputError([FieldError("learning_rate", message)])
        try:
            params = parse_params(Algorithm(job.algorithm), {**job.params, "learning_rate": learning_rate})
        except ValidationError as error:
            raise InvalidInputError(field_errors_from_pydantic(error)) from None
        previous = job.params.get("learning_rate")
        job = self.store.update(job.id, params=params.model_dump(mode="json", exclude={"algorithm"}))
        changed = Text.of("job.learning_rate_changed", previous=previous, learning_rate=f"{learning_rate:g}")
        self.store.record(job.id, "params", changed)
        return job

    def stop(self, name_or_id: str) -> JobRead:
        job = self.store.find(name_or_id)
        if job.status != JobStatus.RUNNING:
            try:
                job = self._cancel(job.id, ACTION_SOURCES["stop"] - {JobStatus.RUNNING})
            except ConflictError:
                if self.store.get(job.id).status != JobStatus.RUNNING:
                    raise
                # It left the queue for running while we looked: its process is stopped below.
            else:
                self.supervisor.settled(job)
                return self.view(job)
        job = self.store.request_action(job.id, "stop", replace=(None, "pause"))
        self.supervisor.stop(job)
        self.supervisor.ending(job)
        try:
            fields = dict(requested_action=None, pid=None, run_ref=None, process_started_at=None)
            fields.update(ended_attempt(job, time.time(), status=None))
            job = self._cancel(job.id, {JobStatus.RUNNING}, **fields)
        except ConflictError:
            return self.view(self.store.get(job.id))  # the exit watcher settled it first, as cancelled
        self.supervisor.settled(job)
        return self.view(job)

    def _cancel(self, job_id: str, sources: set[JobStatus], **fields) -> Job:
        return self.store.transition(
            job_id,
            JobStatus.CANCELLED,
            "stop",
            Text.of("job.stopped_by_user"),
            sources=sources,
            finished_at=utcnow(),
            **fields,
        )


def _model_problem(path: Path, adapter: bool) -> str | None:
    if not adapter:
        return model_dir_problem(path)
    if not (path / ADAPTER_CONFIG).is_file():
        return f"{path} is not a LoRA adapter directory (no {ADAPTER_CONFIG})"
    return None


def _checkpoint_read(checkpoint: CheckpointInfo) -> CheckpointRead:
    return CheckpointRead(**{**checkpoint.__dict__, "path": str(checkpoint.path)})


# What stands in for a required field pydantic refused, so that the rest of a request can be checked; `check` defers
# the field itself (its value is never looked at).
_STAND_INS = {"name": "refused", "model_path": "refused", "dataset_paths": ["refused"]}


def _partial_request(document: dict) -> tuple[JobCreate | None, frozenset[str], list[FieldError]]:
    """The request `document` makes, its top-level fields that pydantic refuses (each replaced by its default or a
    stand-in), and their errors; no request when the rest cannot be checked without them (the algorithm)."""
    try:
        return JobCreate.model_validate(document), frozenset(), []
    except ValidationError as error:
        errors = field_errors_from_pydantic(error)
        refused = frozenset(str(item["loc"][0]) for item in error.errors() if item["loc"])
    if "algorithm" in refused:  # the parameters and the data are checked for one
        return None, refused, errors
    kept = {name: value for name, value in document.items() if name in JobCreate.model_fields and name not in refused}
    stand_ins = {name: value for name, value in _STAND_INS.items() if name in refused}
    try:
        return JobCreate.model_validate({**kept, **stand_ins}), refused, errors
    except ValidationError:
        return None, refused, errors


def _requested_gpus(params: dict) -> int:
    """The device count the raw parameters ask for (validated later, with every other parameter)."""
    num_gpus = params.get("num_gpus", 1)
    return num_gpus if isinstance(num_gpus, int) and num_gpus > 0 else 1


def _absolute(path: str) -> str:
    return str(Path(path).expanduser().resolve())
