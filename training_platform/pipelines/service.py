"""Pipelines: the rule is that the database is the truth and every stage changes hands by compare-and-set.

A running pipeline advances whenever a stage settles (and on a tick): the pending stages whose dependencies all
completed, in topological order, are dispatched up to the pipeline's concurrency, each as a task with a new id
(recorded) on the executor, Celery's workers or this process's threads (executors.py). The task claims its
stage, has it launched here as the pipeline's owner (or finds the work it already launched), follows it while
renewing its lease, and settles it; a stage whose lease runs out (its worker was killed) is dispatched again
under a new task id, and the new task re-attaches to the same job rather than starting another. A task that
lost its stage is told so by its next call and stops.

The price: a stage's work is followed by polling (every second, stage_task.py), so a stage settles up to a second
after its job ends; and a dataset task launched just before a crash, before its id was recorded, may run twice
(with the same result; a job cannot, being found again by its name).
"""

import hashlib
import json
import logging
import threading
import uuid
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from training_platform.auth.schemas import ResourceKind
from training_platform.common.changes import Change, collect, report
from training_platform.db.tables import Pipeline, PipelineStage
from training_platform.db.types import utcnow
from training_platform.errors import ConflictError, FieldError, InvalidInputError, NotFoundError, PlatformError
from training_platform.pipelines.definition import (
    Checked,
    Unresolved,
    check_document,
    check_text,
    default_name,
    holds,
    resolve,
)
from training_platform.pipelines.executors import StageExecutor
from training_platform.pipelines.protocol import (
    ACTIVE_STAGE,
    FINISHED_STAGE,
    StageClaim,
    StageStatus,
    StageTask,
    WorkRead,
)
from training_platform.pipelines.schemas import (
    PipelineCheck,
    PipelineCreate,
    PipelineDefinition,
    PipelineRead,
    PipelineSource,
    PipelineStatus,
    PipelineSummary,
    StageRead,
    StageSpec,
    StageTypeRead,
    TemplateRead,
)
from training_platform.pipelines.stages import (
    STAGE_KINDS,
    Services,
    service_problems,
    work_outputs,
    work_state,
)

log = logging.getLogger(__name__)
TEMPLATES_DIR = Path(__file__).parent / "templates"
RecordOwner = Callable[[ResourceKind, str, str], None]


class PipelineService:
    def __init__(
        self,
        store,
        services: Services,
        executor: StageExecutor,
        record_owner: RecordOwner,
        lease_seconds: float,
    ):
        self.store = store
        self.services = services
        self.executor = executor
        self.record_owner = record_owner
        self.lease = timedelta(seconds=lease_seconds)
        self._lock = threading.RLock()  # one advance at a time: dispatching reads, then swaps
        self._closing = threading.Event()
        self._watch: threading.Thread | None = None

    # ---- definitions ---------------------------------------------------------------------------------------------

    @staticmethod
    def stage_types() -> list[StageTypeRead]:
        return [
            StageTypeRead(
                type=kind, help=spec.help, outputs=list(spec.outputs), params_schema=spec.params.model_json_schema()
            )
            for kind, spec in STAGE_KINDS.items()
        ]

    @staticmethod
    def templates() -> list[TemplateRead]:
        found = []
        for path in sorted(TEMPLATES_DIR.glob("*.yaml")):
            text = path.read_text(encoding="utf-8")
            document = yaml.safe_load(text)
            title, _, description = document.get("description", "").partition("\n")
            found.append(TemplateRead(name=path.stem, title=title.strip(), description=description.strip(), text=text))
        return found

    def check(self, source: PipelineSource) -> Checked:
        service_check = partial(service_problems, self.services)
        if source.text is not None:
            return check_text(source.text, service_check)
        return check_document(source.definition.model_dump(), service_check)

    def validate(self, source: PipelineSource) -> PipelineCheck:
        checked = self.check(source)
        return PipelineCheck(name=checked.definition.name, layers=checked.layers)

    # ---- pipelines -----------------------------------------------------------------------------------------------

    def create(self, request: PipelineCreate, owner: str | None) -> PipelineRead:
        checked = self.check(request)
        definition = checked.definition
        pipeline = Pipeline(
            id=uuid.uuid4().hex,
            name=definition.name,
            description=definition.description,
            status=PipelineStatus.DRAFT,
            definition=definition.model_dump(mode="json"),
            text=checked.text,
            concurrency=definition.concurrency,
            owner=owner,
        )
        stages = [
            _stage_row(position, stage, checked.layer_of[stage.name])
            for position, stage in enumerate(definition.stages)
        ]
        pipeline = self.store.add(pipeline, stages)
        report(Change("pipeline", pipeline.id, pipeline.name, "created", created=True))
        if request.start:
            return self.start(pipeline.id)
        return self.read(pipeline.id)

    def edit(self, name_or_id: str, source: PipelineSource) -> PipelineRead:
        pipeline = self.store.find(name_or_id)
        if pipeline.status == PipelineStatus.RUNNING:
            raise ConflictError(f"pipeline '{pipeline.name}' is running: cancel it (or let it finish) to edit it")
        checked = self.check(source)
        definition = checked.definition
        if definition.name != pipeline.name:
            raise InvalidInputError([FieldError("name", f"a pipeline keeps its name ({pipeline.name!r})")])
        existing = {stage.name for stage in self.store.stages(pipeline.id)}
        keep = {
            stage.name: {
                "spec": stage.model_dump(mode="json"),
                "position": position,
                "layer": checked.layer_of[stage.name],
            }
            for position, stage in enumerate(definition.stages)
            if stage.name in existing
        }
        add = [
            _stage_row(position, stage, checked.layer_of[stage.name])
            for position, stage in enumerate(definition.stages)
            if stage.name not in existing
        ]
        self.store.replace_stages(pipeline.id, keep, add)
        self.store.update(
            pipeline.id,
            definition=definition.model_dump(mode="json"),
            text=checked.text,
            description=definition.description,
            concurrency=definition.concurrency,
        )
        return self.read(pipeline.id)

    def list_all(self) -> list[PipelineSummary]:
        return [self._summary(pipeline, self.store.stages(pipeline.id)) for pipeline in self.store.list_all()]

    def read(self, name_or_id: str) -> PipelineRead:
        pipeline = self.store.find(name_or_id)
        stages = self.store.stages(pipeline.id)
        layers: list[list[str]] = [[] for _ in range(max((stage.layer for stage in stages), default=-1) + 1)]
        for stage in stages:
            layers[stage.layer].append(stage.name)
        return PipelineRead(
            **self._summary(pipeline, stages).model_dump(),
            concurrency=pipeline.concurrency,
            executor=self.executor.name,
            layers=layers,
            stages=[_stage_read(stage) for stage in stages],
            error=pipeline.error,
            text=pipeline.text,
            definition=PipelineDefinition.model_validate(pipeline.definition),
        )

    def delete(self, name_or_id: str) -> None:
        pipeline = self.store.find(name_or_id)
        if pipeline.status == PipelineStatus.RUNNING:
            raise ConflictError(f"pipeline '{pipeline.name}' is running: cancel it first")
        self.store.delete(pipeline.id)

    def owner_of(self, name_or_id: str) -> tuple[str, str, str | None]:
        """The pipeline's id, name and owner (for the API's ownership check)."""
        pipeline = self.store.find(name_or_id)
        return pipeline.id, pipeline.name, pipeline.owner

    # ---- control -------------------------------------------------------------------------------------------------

    def start(self, name_or_id: str) -> PipelineRead:
        pipeline = self.store.find(name_or_id)
        if not self.store.set_status(
            pipeline.id, [PipelineStatus.DRAFT], status=PipelineStatus.RUNNING, started_at=utcnow()
        ):
            raise ConflictError(f"pipeline '{pipeline.name}' was started already: resume it to run it again")
        self.advance(pipeline.id)
        return self.read(pipeline.id)

    def resume(self, name_or_id: str, rerun: list[str]) -> PipelineRead:
        """Run again what failed or was cancelled, and the finished stages in `rerun`, with what depends on them;
        completed stages keep their outputs and are never run again otherwise."""
        pipeline = self.store.find(name_or_id)
        stages = self.store.stages(pipeline.id)
        by_name = {stage.name: stage for stage in stages}
        unknown = [name for name in rerun if name not in by_name]
        if unknown:
            raise InvalidInputError([FieldError("rerun", f"no stage named {name!r}") for name in unknown])
        resumable = (PipelineStatus.FAILED, PipelineStatus.CANCELLED, PipelineStatus.COMPLETED)
        if pipeline.status not in resumable:
            raise ConflictError(f"pipeline '{pipeline.name}' is {pipeline.status}: only a finished pipeline resumes")
        again = {s.name for s in stages if s.status in (StageStatus.FAILED, StageStatus.CANCELLED)} | set(rerun)
        again |= _descendants(stages, again)
        with self._lock:
            if not self.store.set_status(
                pipeline.id, list(resumable), status=PipelineStatus.RUNNING, error=None, finished_at=None
            ):
                raise ConflictError(f"pipeline '{pipeline.name}' changed meanwhile: try again")
            for name in again:
                stage = by_name[name]
                self.store.swap(
                    stage.id,
                    [stage.status],
                    status=StageStatus.PENDING,
                    attempts_base=stage.attempt,
                    task_id=None,
                    worker=None,
                    lease_expires_at=None,
                    not_before=None,
                    outputs=None,
                    error=None,
                    done_spec=None,
                    finished_at=None,
                    **_no_work(),
                )
        self.advance(pipeline.id)
        return self.read(pipeline.id)

    def cancel(self, name_or_id: str) -> PipelineRead:
        """Stop the running stages' jobs, mark every stage not finished cancelled."""
        pipeline = self.store.find(name_or_id)
        with self._lock:
            if not self.store.set_status(
                pipeline.id,
                [PipelineStatus.RUNNING, PipelineStatus.DRAFT],
                status=PipelineStatus.CANCELLED,
                finished_at=utcnow(),
                error="cancelled",
            ):
                raise ConflictError(f"pipeline '{pipeline.name}' is {pipeline.status}: there is nothing to cancel")
            for stage in self.store.stages(pipeline.id):
                if stage.status in ACTIVE_STAGE and stage.work_kind == "job" and stage.work_id:
                    self._stop_job(stage.work_id)
                if stage.status in (*ACTIVE_STAGE, StageStatus.PENDING):
                    self.store.swap(stage.id, [stage.status], status=StageStatus.CANCELLED, finished_at=utcnow())
        return self.read(pipeline.id)

    def _stop_job(self, job_id: str) -> None:
        try:
            self.services.jobs.stop(job_id)
        except ConflictError:
            pass  # it ended meanwhile

    # ---- the tasks' side: claim, heartbeat, settle ---------------------------------------------------------------

    def claim(self, name_or_id: str, stage_name: str, claim: StageClaim) -> StageTask:
        """A task takes its stage (only the task it was dispatched to, only once), then the stage's work is launched,
        or found where an earlier task launched it."""
        pipeline = self.store.find(name_or_id)
        stage = self.store.stage(pipeline.id, stage_name)
        now = utcnow()
        taken = pipeline.status == PipelineStatus.RUNNING and self.store.swap(
            stage.id,
            [StageStatus.DISPATCHED],
            holder=claim.task_id,
            status=StageStatus.RUNNING,
            worker=claim.worker or None,
            lease_expires_at=now + self.lease,
            started_at=stage.started_at or now,
        )
        if not taken:
            return self._task(self.store.stage(pipeline.id, stage_name), holds=False)
        stage = self.store.stage(pipeline.id, stage_name)
        if stage.work_id is None:
            try:
                self._launch(pipeline, stage)
            except (PlatformError, ValidationError, Unresolved) as error:
                self._failed(pipeline.id, stage, _message(error))
                return self._task(self.store.stage(pipeline.id, stage_name), holds=False)
        # Held while still running: a stage with nothing to follow completed at its launch.
        return self._task(self.store.stage(pipeline.id, stage_name), holds=True)

    def heartbeat(self, name_or_id: str, stage_name: str, claim: StageClaim) -> StageTask:
        """The task still follows its stage: its lease is renewed and it hears how the work stands."""
        pipeline = self.store.find(name_or_id)
        stage = self.store.stage(pipeline.id, stage_name)
        held = self.store.swap(
            stage.id, [StageStatus.RUNNING], holder=claim.task_id, lease_expires_at=utcnow() + self.lease
        )
        stage = self.store.stage(pipeline.id, stage_name)
        return self._task(stage, holds=held)

    def settle(self, name_or_id: str, stage_name: str, claim: StageClaim) -> StageRead:
        """The task saw its work end: the stage completes with the work's outputs, or fails (and may retry)."""
        pipeline = self.store.find(name_or_id)
        stage = self.store.stage(pipeline.id, stage_name)
        if stage.status != StageStatus.RUNNING or stage.task_id != claim.task_id:
            raise ConflictError(f"stage '{stage_name}' is not held by task {claim.task_id}")
        work = _work(stage)
        if work is None:
            raise ConflictError(f"stage '{stage_name}' has no work to settle")
        _, ended, error = work_state(self.services, work)
        if not ended:
            raise ConflictError(f"stage '{stage_name}': its {work.kind} {work.name} has not ended")
        if error is not None:
            self._failed(pipeline.id, stage, error)
        else:
            spec = StageSpec.model_validate(stage.spec)
            outputs = work_outputs(self.services, spec.type, work)
            self._completed(pipeline.id, stage, outputs)
        return _stage_read(self.store.stage(pipeline.id, stage_name))

    def _launch(self, pipeline: Pipeline, stage: PipelineStage) -> None:
        spec = StageSpec.model_validate(stage.spec)
        kind = STAGE_KINDS[spec.type]
        params = resolve(spec.params, self._outputs(pipeline.id))
        name = default_name(pipeline.name, spec.name, stage.attempt)
        if kind.names_work and "name" in params:
            given = str(params.pop("name"))
            name = given if stage.attempt <= 1 else f"{given}-{stage.attempt}"
        if kind.names_work:
            if stage.work_name == name:
                found = self._job_named(name)
                if found is not None:  # launched before a crash cut the record short: the same job, not another
                    self._record_work(stage, WorkRead(kind="job", id=found.id, name=found.name), pipeline.owner)
                    return
            self.store.swap(stage.id, [StageStatus.RUNNING], holder=stage.task_id, work_name=name)
        with collect():  # made for the pipeline's owner (below), not for the worker whose request this is
            launched = kind.launch(self.services, params, name)
        if launched.outputs is not None:
            self._completed(pipeline.id, stage, launched.outputs)
            return
        self._record_work(stage, launched.work, pipeline.owner)

    def _record_work(self, stage: PipelineStage, work: WorkRead, owner: str | None) -> None:
        self.store.swap(
            stage.id,
            [StageStatus.RUNNING],
            holder=stage.task_id,
            work_kind=work.kind,
            work_id=work.id,
            work_name=work.name,
        )
        if owner and work.kind == "job":
            self.record_owner(ResourceKind.JOB, work.id, owner)

    def _job_named(self, name: str):
        try:
            return self.services.jobs.get(name)
        except NotFoundError:
            return None

    def _task(self, stage: PipelineStage, holds: bool) -> StageTask:
        work = _work(stage)
        settled = False
        if holds and work is not None:
            status, settled, _ = work_state(self.services, work)
            work = work.model_copy(update={"status": str(status)})
        return StageTask(
            status=StageStatus(stage.status),
            holds=holds and stage.status == StageStatus.RUNNING,
            work=work,
            settled=settled,
            lease_seconds=self.lease.total_seconds(),
        )

    def _completed(self, pipeline_id: str, stage: PipelineStage, outputs: dict[str, Any]) -> None:
        # Under the lock, like every stage's end: an advance never sees a stage end between its reads.
        with self._lock:
            done = self.store.swap(
                stage.id,
                [StageStatus.RUNNING],
                holder=stage.task_id,
                status=StageStatus.COMPLETED,
                outputs=outputs,
                error=None,
                done_spec=_spec_hash(stage.spec),
                finished_at=utcnow(),
                lease_expires_at=None,
            )
            if done:
                self.advance(pipeline_id)

    def _failed(self, pipeline_id: str, stage: PipelineStage, error: str) -> None:
        spec = StageSpec.model_validate(stage.spec)
        if stage.attempt - stage.attempts_base <= spec.retries:
            changes = {
                "status": StageStatus.PENDING,
                "not_before": utcnow() + timedelta(seconds=spec.retry_delay_seconds),
                "error": f"attempt {stage.attempt} failed: {error}",
                **_no_work(),
            }
        else:
            changes = {"status": StageStatus.FAILED, "error": error, "finished_at": utcnow()}
        with self._lock:
            if self.store.swap(stage.id, [StageStatus.RUNNING], holder=stage.task_id, lease_expires_at=None, **changes):
                self.advance(pipeline_id)

    def _outputs(self, pipeline_id: str) -> dict[str, dict[str, Any]]:
        return {
            stage.name: stage.outputs or {} for stage in self.store.stages(pipeline_id) if stage.status == "completed"
        }

    # ---- advancing -----------------------------------------------------------------------------------------------

    def advance(self, pipeline_id: str) -> None:
        """Skip what cannot run, dispatch what can (up to the concurrency), and finish the pipeline when nothing
        more will run. Stages end under the same lock, so the stages read here stay true until it returns (but
        for a claim, which only turns a dispatched stage into a running one)."""
        with self._lock:
            pipeline = self.store.find(pipeline_id)
            if pipeline.status != PipelineStatus.RUNNING:
                return
            stages = self.store.stages(pipeline_id)
            ready = self._ready(pipeline_id, stages)
            active = sum(stage.status in ACTIVE_STAGE for stage in stages)
            dispatched = [self._dispatch(stage) for stage in ready[: max(0, pipeline.concurrency - active)]]
            if active or any(dispatched) or not all(dispatched):
                return  # something runs, or the broker refused a stage and the tick tries it again
            if all(stage.status in FINISHED_STAGE for stage in stages):
                self.store.set_status(
                    pipeline_id, [PipelineStatus.RUNNING], status=PipelineStatus.COMPLETED, finished_at=utcnow()
                )
                return
            if any(stage.status == StageStatus.PENDING and _waits_for_retry(stage) for stage in stages):
                return  # the tick dispatches it when its delay is over
            failed = [stage for stage in stages if stage.status == StageStatus.FAILED]
            error = "; ".join(f"stage {stage.name} failed: {stage.error}" for stage in failed) or "stages cannot run"
            self.store.set_status(
                pipeline_id, [PipelineStatus.RUNNING], status=PipelineStatus.FAILED, error=error, finished_at=utcnow()
            )

    def _ready(self, pipeline_id: str, stages: list[PipelineStage]) -> list[PipelineStage]:
        """The pending stages that may run now, in order; on the way, those that must be skipped are."""
        by_name = {stage.name: stage for stage in stages}
        outputs = {stage.name: stage.outputs or {} for stage in stages if stage.status == StageStatus.COMPLETED}
        ready = []
        for stage in sorted(stages, key=lambda s: (s.layer, s.position)):
            if stage.status != StageStatus.PENDING:
                continue
            spec = StageSpec.model_validate(stage.spec)
            deps = [by_name[name] for name in spec.depends_on]
            skipped = [dep.name for dep in deps if dep.status == StageStatus.SKIPPED]
            if skipped:
                self._skip(stage, f"skipped: {', '.join(skipped)} (a stage it depends on) was skipped")
                continue
            if not all(dep.status == StageStatus.COMPLETED for dep in deps) or _waits_for_retry(stage):
                continue
            if spec.when is not None:
                try:
                    runs, shown = holds(spec.when, outputs)
                except Unresolved as error:
                    self.store.swap(
                        stage.id,
                        [StageStatus.PENDING],
                        status=StageStatus.FAILED,
                        error=str(error),
                        finished_at=utcnow(),
                    )
                    stage.status = StageStatus.FAILED
                    continue
                if not runs:
                    self._skip(stage, f"skipped: its condition {spec.when} is false ({shown})")
                    continue
            ready.append(stage)
        return ready

    def _skip(self, stage: PipelineStage, reason: str) -> None:
        self.store.swap(stage.id, [StageStatus.PENDING], status=StageStatus.SKIPPED, error=reason, finished_at=utcnow())
        stage.status = StageStatus.SKIPPED  # for the stages after it in this pass

    def _dispatch(self, stage: PipelineStage, again: bool = False) -> bool:
        """Hand the stage to a new task: a new attempt from pending, the same attempt (and work) when its task was
        lost. Whether it was handed over."""
        task_id = uuid.uuid4().hex
        changes: dict[str, Any] = {
            "status": StageStatus.DISPATCHED,
            "task_id": task_id,
            "dispatched_at": utcnow(),
            "worker": None,
            "lease_expires_at": None,
        }
        if not again:
            changes["attempt"] = stage.attempt + 1
            changes["error"] = stage.error if stage.error and stage.error.startswith("attempt ") else None
        expected = [StageStatus.RUNNING] if again else [StageStatus.PENDING]
        if not self.store.swap(stage.id, expected, holder=stage.task_id, **changes):
            return False
        try:
            self.executor.submit(stage.pipeline_id, stage.name, task_id)
            return True
        except Exception as error:  # the broker is down: the stage waits, and the tick dispatches it again
            log.warning("stage %s could not be dispatched: %s", stage.name, error)
            if again:  # its lease stays run out
                undone = {"status": StageStatus.RUNNING, "lease_expires_at": utcnow()}
            else:
                undone = {"status": StageStatus.PENDING, "attempt": stage.attempt, "error": f"not dispatched: {error}"}
            self.store.swap(stage.id, [StageStatus.DISPATCHED], holder=task_id, **undone)
            return False

    # ---- a server's life -----------------------------------------------------------------------------------------

    def recover(self) -> None:
        """At a server's start: the stages the last server left dispatched are sent again under their task ids (a
        task already claimed refuses the copy); running ones get a fresh lease for their task to reach this server
        (or, on this process's threads, which died with the last server, a new task that re-attaches)."""
        for pipeline in self.store.list_all([PipelineStatus.RUNNING]):
            for stage in self.store.stages(pipeline.id):
                if stage.status == StageStatus.DISPATCHED:
                    self.executor.submit(pipeline.id, stage.name, stage.task_id)
                elif stage.status == StageStatus.RUNNING:
                    if self.executor.survives_restart:
                        self.store.swap(
                            stage.id,
                            [StageStatus.RUNNING],
                            holder=stage.task_id,
                            lease_expires_at=utcnow() + self.lease,
                        )
                    else:
                        self._dispatch(stage, again=True)
            self.advance(pipeline.id)

    def start_watch(self, interval: float) -> None:
        """A tick: stages whose lease ran out are dispatched again; retries whose delay is over are dispatched."""

        def watch() -> None:
            while not self._closing.wait(interval):
                try:
                    self.tick()
                except Exception:
                    log.exception("the pipelines' tick failed; it runs again")

        self._watch = threading.Thread(target=watch, name="pipelines-watch", daemon=True)
        self._watch.start()

    def tick(self) -> None:
        now = utcnow()
        for pipeline in self.store.list_all([PipelineStatus.RUNNING]):
            for stage in self.store.stages(pipeline.id):
                if stage.status == StageStatus.RUNNING and stage.lease_expires_at and stage.lease_expires_at < now:
                    log.warning(
                        "stage %s of %s lost its task %s: dispatched again", stage.name, pipeline.name, stage.task_id
                    )
                    with self._lock:
                        self._dispatch(stage, again=True)
            self.advance(pipeline.id)

    def close(self) -> None:
        self._closing.set()
        if self._watch is not None:
            self._watch.join(timeout=10)
        self.executor.close()

    # ---- reading -------------------------------------------------------------------------------------------------

    def _summary(self, pipeline: Pipeline, stages: list[PipelineStage]) -> PipelineSummary:
        counts: dict[str, int] = {}
        for stage in stages:
            counts[stage.status] = counts.get(stage.status, 0) + 1
        return PipelineSummary(
            id=pipeline.id,
            name=pipeline.name,
            description=pipeline.description,
            owner=pipeline.owner,
            status=PipelineStatus(pipeline.status),
            stage_counts=counts,
            created_at=pipeline.created_at,
            started_at=pipeline.started_at,
            finished_at=pipeline.finished_at,
        )


def _stage_row(position: int, stage: StageSpec, layer: int) -> PipelineStage:
    return PipelineStage(
        pipeline_id="",
        name=stage.name,
        position=position,
        layer=layer,
        spec=stage.model_dump(mode="json"),
        status=StageStatus.PENDING,
    )


def _stage_read(stage: PipelineStage) -> StageRead:
    spec = StageSpec.model_validate(stage.spec)
    return StageRead(
        name=stage.name,
        type=spec.type,
        layer=stage.layer,
        status=StageStatus(stage.status),
        depends_on=spec.depends_on,
        when=spec.when,
        params=spec.params,
        attempt=stage.attempt,
        max_attempts=stage.attempts_base + spec.retries + 1,
        task_id=stage.task_id,
        worker=stage.worker,
        work=_work(stage),
        outputs=stage.outputs,
        error=stage.error,
        edited=stage.done_spec is not None and stage.done_spec != _spec_hash(stage.spec),
        dispatched_at=stage.dispatched_at,
        started_at=stage.started_at,
        finished_at=stage.finished_at,
    )


def _work(stage: PipelineStage) -> WorkRead | None:
    if stage.work_kind is None or stage.work_id is None:
        return None
    return WorkRead(kind=stage.work_kind, id=stage.work_id, name=stage.work_name or "")


def _no_work() -> dict[str, Any]:
    return {"work_kind": None, "work_id": None, "work_name": None}


def _waits_for_retry(stage: PipelineStage) -> bool:
    return stage.not_before is not None and stage.not_before > utcnow()


def _descendants(stages: list[PipelineStage], roots: set[str]) -> set[str]:
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for stage in stages:
            depends_on = set(StageSpec.model_validate(stage.spec).depends_on)
            if stage.name not in found and depends_on & (roots | found):
                found.add(stage.name)
                changed = True
    return found


def _spec_hash(spec: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()


def _message(error: Exception) -> str:
    if isinstance(error, ValidationError):
        return "; ".join(f"{'.'.join(map(str, d['loc']))}: {d['msg']}" for d in error.errors(include_url=False))
    return str(error)
