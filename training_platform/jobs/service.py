"""The jobs service: validation on create, the user's actions, and what the API shows about a job."""

import shutil
import uuid
from collections.abc import Callable
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from training_platform.common.files import tail_lines
from training_platform.datasets.formats import validate_file
from training_platform.datasets.io import DATASET_REFERENCE, DatasetFileError
from training_platform.db.tables import Job, JobEvent
from training_platform.db.types import utcnow
from training_platform.engines.base import CheckpointInfo, choose_engine, get_engine
from training_platform.errors import (
    ConflictError,
    FieldError,
    InvalidInputError,
    NotFoundError,
    field_errors_from_pydantic,
)
from training_platform.jobs import control
from training_platform.jobs.params import PPOParams, RuleRewardParams, TrainingParams, parse_params
from training_platform.jobs.schemas import JobCreate, JobName, JobRead, Progress
from training_platform.jobs.states import JobStatus
from training_platform.jobs.store import JobStore
from training_platform.jobs.supervisor import JobSupervisor, layout_of, run_request
from training_platform.metrics.status import read_status
from training_platform.models.registry import model_dir_problem
from training_platform.rewards import RewardConfigError, validate_reward_spec

# Engine, algorithm and run mode of a job whose metrics were imported from a run the platform did not launch.
EXTERNAL = "external"
# `dataset:<name or id>` → the registered dataset's path and field mapping.
DatasetResolver = Callable[[str], tuple[str, dict[str, str]]]


def allowed_actions(job: Job) -> list[str]:
    status = JobStatus(job.status)
    if status == JobStatus.PENDING:
        return ["start", "stop", "delete"]
    if status == JobStatus.RUNNING:
        return ["stop"] if job.requested_action else ["pause", "stop"]
    if status == JobStatus.PAUSED:
        return ["resume", "stop", "delete"]
    if status == JobStatus.FAILED:
        return ["resume", "delete"]
    return ["delete"]


class JobService:
    def __init__(
        self,
        store: JobStore,
        supervisor: JobSupervisor,
        jobs_dir: Path,
        error_limit: int,
        resolve_dataset: DatasetResolver,
    ):
        self.store = store
        self.supervisor = supervisor
        self.jobs_dir = jobs_dir
        self.error_limit = error_limit
        self.resolve_dataset = resolve_dataset

    # ---- create / read / delete ------------------------------------------------------------------

    def create(self, request: JobCreate) -> Job:
        engine = choose_engine(request.engine, request.algorithm)
        if request.algorithm not in engine.algorithms:
            raise InvalidInputError([FieldError("algorithm", engine.unsupported_message(request.algorithm))])
        if request.run_mode not in self.supervisor.runners:
            raise InvalidInputError(
                [FieldError("run_mode", f"run mode '{request.run_mode}' is not configured (set PLATFORM_RAY_ADDRESS)")]
            )
        train, evaluation = self._data_sources(request)
        params = self._validate(request, train, evaluation)
        job_id = uuid.uuid4().hex
        job = Job(
            id=job_id,
            name=request.name,
            algorithm=request.algorithm.value,
            engine=engine.name,
            run_mode=request.run_mode,
            model_path=_absolute(request.model_path),
            dataset_paths=[path for path, _ in train],
            dataset_fields={path: fields for path, fields in [*train, *([evaluation] if evaluation else [])] if fields},
            eval_dataset_path=evaluation[0] if evaluation else None,
            params=params.model_dump(mode="json", exclude={"algorithm"}),
            status=JobStatus.PENDING.value,
            output_dir=str(self.jobs_dir / job_id),
        )
        if errors := engine.check(run_request(job)):
            raise InvalidInputError(errors)
        if self.store.name_taken(request.name):
            raise ConflictError(f"a job named '{request.name}' already exists")
        layout_of(job).root.mkdir(parents=True, exist_ok=True)
        chosen = f" (chosen for '{request.engine}')" if request.engine != engine.name else ""
        job = self.store.add(job, f"created {request.algorithm.value} job on engine {engine.name}{chosen}")
        return self.start(job.id) if request.start else job

    def _data_sources(
        self, request: JobCreate
    ) -> tuple[list[tuple[str, dict[str, str]]], tuple[str, dict[str, str]] | None]:
        """Each data entry as (absolute path, field mapping); registered datasets bring their own mapping."""
        errors: list[FieldError] = []

        def source(field: str, entry: str) -> tuple[str, dict[str, str]]:
            if not entry.startswith(DATASET_REFERENCE):
                return _absolute(entry), {}
            try:
                return self.resolve_dataset(entry)
            except NotFoundError as error:
                errors.append(FieldError(field, str(error)))
                return entry, {}

        train = [source(f"dataset_paths.{i}", entry) for i, entry in enumerate(request.dataset_paths)]
        evaluation = source("eval_dataset_path", request.eval_dataset_path) if request.eval_dataset_path else None
        if errors:
            raise InvalidInputError(errors)
        return train, evaluation

    def _validate(
        self,
        request: JobCreate,
        train: list[tuple[str, dict[str, str]]],
        evaluation: tuple[str, dict[str, str]] | None,
    ) -> TrainingParams:
        """Collect every problem at once, so one round trip shows the user all of them."""
        errors: list[FieldError] = []
        try:
            params = parse_params(request.algorithm, request.params)
        except ValidationError as error:
            errors += field_errors_from_pydantic(error, prefix="params")
            params = None
        errors += _check_model_dir("model_path", request.model_path)
        if isinstance(params, PPOParams):
            errors += _check_model_dir("params.reward_model_path", params.reward_model_path)
        rule_rewards = params.rewards if isinstance(params, RuleRewardParams) else []
        answer_fields = [spec.answer_field for spec in rule_rewards if spec.type != "format_check"]
        column_sets = []
        for index, (path, fields) in enumerate(train):
            problems, columns = self._check_dataset(
                f"dataset_paths.{index}", path, fields, request.algorithm, answer_fields
            )
            errors += problems
            column_sets.append(columns)
        if evaluation:
            problems, _ = self._check_dataset("eval_dataset_path", *evaluation, request.algorithm, answer_fields)
            errors += problems
        # Columns every training file has; unknown (None) when a file could not be read at all.
        shared_columns = set.intersection(*column_sets) if None not in column_sets else None
        for index, spec in enumerate(rule_rewards):
            try:
                validate_reward_spec(spec, shared_columns, location=f"params.rewards.{index}")
            except RewardConfigError as error:
                field, _, message = str(error).partition(": ")
                errors.append(FieldError(field, message))
        if errors:
            raise InvalidInputError(errors)
        return params

    def _check_dataset(
        self, field: str, path: str, fields: dict[str, str], kind: str, answer_fields: list[str]
    ) -> tuple[list[FieldError], set[str] | None]:
        """Row problems of one file (read through its field mapping) as field errors, and the columns it has."""
        try:
            report = validate_file(Path(path), kind, answer_fields, keep=self.error_limit, field_mapping=fields)
        except DatasetFileError as error:
            return [FieldError(field, str(error))], None
        errors = [FieldError(field, problem.message, row=problem.row) for problem in report.problems]
        if report.num_invalid > len(report.problems):
            errors.append(
                FieldError(
                    field,
                    f"{report.num_invalid} of {report.num_rows} rows are invalid; the first "
                    f"{len(report.problems)} are listed",
                )
            )
        return errors, report.columns

    def get(self, name_or_id: str) -> Job:
        return self.store.find(name_or_id)

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
        return self.store.add(job, f"external run: metrics imported from {source}")

    def list_jobs(self, statuses: list[JobStatus], limit: int, offset: int) -> list[Job]:
        return self.store.query(statuses, limit=limit, offset=offset)

    def delete(self, name_or_id: str, delete_files: bool) -> None:
        job = self.store.find(name_or_id)
        self.store.delete(job.id, unless_status=JobStatus.RUNNING)
        if delete_files:
            shutil.rmtree(job.output_dir, ignore_errors=True)

    def read(self, job: Job) -> JobRead:
        status = read_status(layout_of(job).status_path)
        return JobRead(
            **job.model_dump(exclude={"process_started_at"}),
            allowed_actions=allowed_actions(job),
            progress=Progress.from_status(status) if status else None,
        )

    def events(self, name_or_id: str) -> list[JobEvent]:
        return self.store.events(self.store.find(name_or_id).id)

    def checkpoints(self, name_or_id: str) -> list[CheckpointInfo]:
        job = self.store.find(name_or_id)
        return get_engine(job.engine).list_checkpoints(layout_of(job))

    def export(self, name_or_id: str, checkpoint_name: str) -> Path:
        """A checkpoint as a Hugging Face model directory, under the job's `exports/`."""
        job = self.store.find(name_or_id)
        engine = get_engine(job.engine)
        found = {c.name: c for c in engine.list_checkpoints(layout_of(job))}
        checkpoint = found.get(checkpoint_name)
        if checkpoint is None:
            raise NotFoundError(f"job '{job.name}' has no checkpoint '{checkpoint_name}' (it has: {', '.join(found)})")
        if not checkpoint.complete:
            raise ConflictError(f"checkpoint '{checkpoint_name}' is incomplete (its write was cut short)")
        path = engine.export(checkpoint, layout_of(job).root / "exports" / checkpoint_name)
        self.store.record(job.id, "export", f"exported {checkpoint_name} to {path}")
        return path

    def log_tail(self, name_or_id: str, stream: str, lines: int, contains: str | None) -> list[str]:
        path = self.log_path(name_or_id, stream)
        if contains is None:
            return tail_lines(path, lines)
        # Filtering needs the whole file; read it once, keep only the last matches.
        if not path.exists():
            return []
        with open(path, encoding="utf-8", errors="replace") as handle:
            matches = [line.rstrip("\n") for line in handle if contains.lower() in line.lower()]
        return matches[-lines:]

    def log_path(self, name_or_id: str, stream: str) -> Path:
        return layout_of(self.store.find(name_or_id)).log_path(stream)

    # ---- actions ---------------------------------------------------------------------------------

    def start(self, name_or_id: str) -> Job:
        job = self.store.find(name_or_id)
        job = self.store.transition(
            job.id,
            JobStatus.RUNNING,
            "start",
            "started by user",
            sources={JobStatus.PENDING},
            attempt=job.attempt + 1,
            started_at=utcnow(),
            error=None,
            exit_code=None,
        )
        return self.supervisor.launch(job)

    def pause(self, name_or_id: str) -> Job:
        """Ask the trainer to save a checkpoint and exit; the job becomes paused when it has."""
        job = self.store.find(name_or_id)
        job = self.store.request_action(job.id, "pause")
        control.request(layout_of(job).control_path, control.ControlAction.PAUSE)
        return job

    def resume(self, name_or_id: str) -> Job:
        job = self.store.find(name_or_id)
        checkpoint = get_engine(job.engine).latest_complete_checkpoint(layout_of(job))
        where = (
            f"from {checkpoint.name} (step {checkpoint.step})"
            if checkpoint
            else "from the beginning: no complete checkpoint"
        )
        job = self.store.transition(
            job.id,
            JobStatus.RUNNING,
            "resume",
            f"resumed by user {where}",
            sources={JobStatus.PAUSED, JobStatus.FAILED},
            attempt=job.attempt + 1,
            error=None,
            exit_code=None,
            finished_at=None,
        )
        return self.supervisor.launch(job)

    def stop(self, name_or_id: str) -> Job:
        job = self.store.find(name_or_id)
        if job.status in (JobStatus.PENDING, JobStatus.PAUSED):
            job = self.store.transition(
                job.id,
                JobStatus.CANCELLED,
                "stop",
                "stopped by user",
                sources={JobStatus.PENDING, JobStatus.PAUSED},
                finished_at=utcnow(),
            )
            self.supervisor.settled(job)
            return job
        job = self.store.request_action(job.id, "stop", replace=(None, "pause"))
        self.supervisor.stop(job)
        try:
            job = self.store.transition(
                job.id,
                JobStatus.CANCELLED,
                "stop",
                "stopped by user",
                sources={JobStatus.RUNNING},
                requested_action=None,
                pid=None,
                run_ref=None,
                process_started_at=None,
                finished_at=utcnow(),
            )
        except ConflictError:
            return self.store.get(job.id)  # the exit watcher settled it first, as cancelled
        self.supervisor.settled(job)
        return job


def _absolute(path: str) -> str:
    return str(Path(path).expanduser().resolve())


def _check_model_dir(field: str, path: str) -> list[FieldError]:
    problem = model_dir_problem(Path(path).expanduser())
    return [FieldError(field, problem)] if problem else []
