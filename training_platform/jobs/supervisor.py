"""Launches job processes through a runner, turns their exits into status changes, and re-attaches to
processes that outlived a restart of the platform server.

No process runs unknown to the database: a launch id is recorded before the runner starts anything (and not at
all once a stop was asked), and a server that died before recording the process finds it by that id. Launching
and stopping one job are serialized, so a stop that races a start waits for the process it has to stop.
"""

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Protocol

from training_platform.common.catalogue import ENGINE_NOTES
from training_platform.common.files import tail_lines
from training_platform.common.locks import KeyedLocks
from training_platform.common.text import LANGUAGES, Text
from training_platform.contract import control
from training_platform.contract.layout import JobLayout
from training_platform.contract.status import (
    StatusFileError,
    TrainingState,
    TrainingStatus,
    parse_status,
    read_status,
)
from training_platform.db.tables import Job
from training_platform.db.types import utcnow
from training_platform.engines.registry import get_engine
from training_platform.errors import ConflictError
from training_platform.jobs.activity import JobActivity
from training_platform.jobs.failures import TERMINAL_ESCAPE, Failure, FailureKind, exit_failure, find_cause
from training_platform.jobs.progress import ended_attempt
from training_platform.jobs.runs import activity_of, layout_of, run_spec
from training_platform.jobs.states import JobStatus
from training_platform.jobs.store import JobStore
from training_platform.runners.base import ExitInfo, OutputFiles, ProcessHandle, Runner

log = logging.getLogger(__name__)
ERROR_LOG_LINES = 20
STALL_CHECK_SECONDS = 10.0
# The events the notes of a trainer's status become (contract/status.py TrainingStatus.notes): an engine's choices
# and fallbacks are a handful, and the status file is the training process's to write, so only so many are taken,
# each no longer than a sentence or two with its parameters.
ENGINE_EVENT = "engine"
MAX_NOTES = 20
MAX_NOTE_CHARS = 4000


class JobListener(Protocol):
    """Told when a job's process starts (or is re-attached), when it ended and the job is about to leave
    `running`, and when the job has left it."""

    def job_started(self, job: Job) -> None: ...

    def job_ending(self, job: Job) -> None: ...

    def job_finished(self, job: Job) -> None: ...


def output_of(layout: JobLayout) -> OutputFiles:
    return OutputFiles(layout.stdout_path, layout.stderr_path)


def _plain_tail(path: Path, count: int) -> list[str]:
    return [TERMINAL_ESCAPE.sub("", line) for line in tail_lines(path, count)]


def log_excerpt(layout: JobLayout) -> list[str]:
    # Ray jobs have one combined log (stdout); local processes put tracebacks on stderr.
    return _plain_tail(layout.stderr_path, ERROR_LOG_LINES) or _plain_tail(layout.stdout_path, ERROR_LOG_LINES)


class JobSupervisor:
    def __init__(
        self,
        store: JobStore,
        runners: dict[str, Runner],
        stop_grace_seconds: float,
        cpu_threads: int,
        stall_seconds: float,
    ):
        self.store = store
        self.runners = runners  # by run mode
        self.stop_grace_seconds = stop_grace_seconds
        self.cpu_threads = cpu_threads
        self.stall_seconds = stall_seconds
        self.listeners: list[JobListener] = []
        # What a job's process needs in its environment beyond its engine's launch spec, asked at each launch (an
        # evaluation's API keys, decrypted then: never written to the job's files).
        self.run_environment: Callable[[Job], dict[str, str]] = lambda job: {}
        self.hung: dict[str, Text] = {}  # job id → why the platform stopped it as hung
        self._activity: dict[tuple[str, int], JobActivity] = {}  # by job id and attempt; stall watch only
        # The notes recorded as events, by job id, so a status read again costs no database query.
        self._noted: dict[str, list[Text]] = {}
        self._noting = threading.Lock()  # the stall watch, an exit and a stop may read the same job's notes at once
        self._closing = threading.Event()
        self._job_lock = KeyedLocks()  # one per job: its launch and its stops, one at a time

    def runner_for(self, job: Job) -> Runner:
        """The job's runner; ConflictError when its run mode is not configured (any more: a host was removed)."""
        runner = self.runners.get(job.run_mode)
        if runner is None:
            raise ConflictError(Text.of("job.run_mode_missing", run_mode=job.run_mode).render())
        return runner

    def ending(self, job: Job) -> None:
        """Tell the listeners a job's process ended, before the job leaves running: what the process wrote (its
        last metrics) is taken in first, so whoever sees the job completed sees all of it."""
        for listener in self.listeners:
            listener.job_ending(job)

    def settled(self, job: Job) -> None:
        """Tell the listeners a job stopped running (whoever moved it: an exit, a stop, a failed launch)."""
        for listener in self.listeners:
            listener.job_finished(job)

    def launch(self, job: Job) -> Job:
        """Start the process of a job that was just moved to running (attempt already counted)."""
        with self._job_lock(job.id):
            return self._launch(job)

    def _launch(self, job: Job) -> Job:
        layout = layout_of(job)
        launch_id = f"tplat-{uuid.uuid4().hex}"
        try:
            runner = self.runner_for(job)
            control.clear(layout.control_path)
            spec = get_engine(job.engine).launch_spec(run_spec(job, runner, self.cpu_threads))
            spec = replace(spec, env={**spec.env, **self.run_environment(job)})
            if job.gpus:  # given by the scheduler: the process sees these devices and no others
                spec = replace(spec, env={**spec.env, "CUDA_VISIBLE_DEVICES": ",".join(map(str, job.gpus))})
            claimed = self.store.claim_launch(job.id, job.attempt, launch_id)
            if claimed is None:
                return self.store.get(job.id)  # stopped (or moved on) before its process started: start none
            if claimed.requested_action == "pause":
                control.request(layout.control_path, control.ControlAction.PAUSE)  # asked before the clear above
            handle = runner.start(spec, output_of(layout), launch_id)
        except Exception as error:
            log.exception("launching job %s failed", job.id)
            failed = Text.of("job.launch_failed", error=str(error))
            job = self.store.transition(
                job.id,
                JobStatus.FAILED,
                "fail",
                failed,
                sources={JobStatus.RUNNING},
                error=failed.render(),
                failure=Failure(FailureKind.LAUNCH, failed, None).as_dict(),
                pid=None,
                run_ref=None,
                process_started_at=None,
                finished_at=utcnow(),
            )
            self.settled(job)
            return job
        job = self.store.update(job.id, pid=handle.local_pid, run_ref=handle.ref, process_started_at=handle.started_at)
        started = Text.of("job.run_started", attempt=job.attempt, run_mode=runner.mode, ref=handle.ref)
        self.store.record(job.id, "process", started)
        self._watch(job, handle)
        return job

    def _watch(self, job: Job, handle: ProcessHandle) -> None:
        for listener in self.listeners:
            listener.job_started(job)
        self.runner_for(job).watch(handle, output_of(layout_of(job)), partial(self.on_exit, job.id, job.attempt))

    def stop(self, job: Job) -> None:
        """Stop the job's process (SIGTERM, then SIGKILL after the grace period). A launch in progress finishes
        first, so its process is the one stopped; a launch that has not claimed its start yet starts nothing."""
        with self._job_lock(job.id):
            job = self.store.get(job.id)
            handle = self._handle(job)
            if handle is not None and not self.runner_for(job).stop(handle, self.stop_grace_seconds):
                not_ended = Text.of("job.run_not_ended", run_mode=job.run_mode, ref=handle.ref)
                self.store.record(job.id, "process", not_ended)
            # A stopped job is settled by whoever stopped it, not by its exit: its notes are read here.
            self.note(job.id, read_status(layout_of(job).status_path))

    def start_stall_watch(self) -> None:
        """Until `close()`: record the notes of running jobs' status files as they appear, and stop running jobs
        that show no life for `stall_seconds` (a deadlocked collective, a rollout engine whose error left the driver
        waiting forever)."""
        interval = min(STALL_CHECK_SECONDS, self.stall_seconds / 4)

        def watch() -> None:
            while not self._closing.wait(interval):
                try:
                    self.check_running(time.time())
                except Exception:
                    log.exception("checking running jobs for stalls failed")

        threading.Thread(target=watch, name="stall-watch", daemon=True).start()

    def close(self) -> None:
        self._closing.set()

    def check_running(self, now: float) -> list[str]:
        """Record the new notes of every running job's status; stop (in the background) every running job quiet for
        longer than the limit, and return their ids."""
        stopped = []
        watched = set()
        for job in self.store.query(statuses=[JobStatus.RUNNING], limit=10_000):
            if job.process_started_at is None:
                continue  # being launched
            self.note(job.id, read_status(layout_of(job).status_path))
            key = (job.id, job.attempt)
            watched.add(key)
            if key not in self._activity:
                self._activity[key] = activity_of(job)
            quiet = now - self._activity[key].update()
            if job.id in self.hung or job.requested_action == "stop" or quiet < self.stall_seconds:
                continue
            reason = Text.join(
                Text.of("job.hung", quiet=f"{quiet:.0f}", limit=f"{self.stall_seconds:.0f}"),
                Text.of("job.last_error", error=cause.line) if (cause := find_cause(layout_of(job))) else None,
            )
            self.hung[job.id] = reason
            self.store.record(job.id, "stall", Text.join(reason, Text.of("job.stopping")))
            threading.Thread(target=self.stop, args=(job,), name=f"stop-hung-{job.id}", daemon=True).start()
            stopped.append(job.id)
        for key in self._activity.keys() - watched:
            del self._activity[key]
        with self._noting:
            for job_id in self._noted.keys() - {job_id for job_id, _ in watched}:
                del self._noted[job_id]
        return stopped

    def note(self, job_id: str, status: TrainingStatus | None) -> None:
        """Record each of the status's notes (engine_notes) as an event of the job, once: a note the job's events
        hold already, from an earlier reading or an earlier server, is not recorded again. A failure is logged, never
        raised: it must not keep a job from being settled or stopped, and the next reading tries again."""
        notes = engine_notes(status)
        with self._noting:
            noted = self._noted.setdefault(job_id, [])
            new = [note for note in notes if note not in noted]
            if not new:
                return
            try:
                self.store.record_new(job_id, ENGINE_EVENT, new)
            except Exception:
                log.exception("recording the engine's notes of job %s failed", job_id)
                return
            noted.extend(new)

    def recover(self) -> None:
        """Called at start: re-attach to jobs whose process still runs; settle the others from their status file.
        One job that cannot be recovered is logged and left as it is: it never keeps the server from starting."""
        for job in self.store.query(statuses=[JobStatus.RUNNING], limit=10_000):
            try:
                self._recover(job)
            except Exception:
                log.exception("recovering job %s failed", job.id)

    def _recover(self, job: Job) -> None:
        runner = self.runners.get(job.run_mode)
        if runner is None:
            missing = Text.of("job.run_mode_missing", run_mode=job.run_mode).render()
            self.on_exit(job.id, job.attempt, ExitInfo(code=None, description=missing))
            return
        handle = self._handle(job)
        if handle is None and job.run_ref is not None:
            job, handle = self._find_launched(job)
        if handle is not None and runner.is_alive(handle):
            message = Text.of("job.reattached", run_mode=job.run_mode, ref=handle.ref)
            self.store.record(job.id, "process", message)
            self._watch(job, handle)
            return
        if handle is not None:
            runner.clean_up(handle)
        self.on_exit(job.id, job.attempt, ExitInfo(code=None))

    def _find_launched(self, job: Job) -> tuple[Job, ProcessHandle | None]:
        """A job whose launch was recorded but not its process (the last server stopped in between): its run,
        found by the launch id, is recorded now."""
        launch_id = job.run_ref
        handle = self.runner_for(job).find(launch_id)
        if handle is None:
            return job, None
        job = self.store.update(job.id, pid=handle.local_pid, run_ref=handle.ref, process_started_at=handle.started_at)
        message = Text.of("job.found_launch", run_mode=job.run_mode, ref=handle.ref, launch=launch_id)
        self.store.record(job.id, "process", message)
        return job, handle

    @staticmethod
    def _handle(job: Job) -> ProcessHandle | None:
        if job.run_ref is None or job.process_started_at is None:
            return None
        return ProcessHandle(job.run_ref, job.process_started_at, local_pid=job.pid)

    def on_exit(self, job_id: str, attempt: int, exit_info: ExitInfo) -> None:
        job = self.store.get(job_id)
        if job.status != JobStatus.RUNNING or job.attempt != attempt:
            return  # already settled (a stop that finished first, or an older attempt)
        self.ending(job)
        status, problem = _status_of(layout_of(job))
        self.note(job_id, status)
        target, reason, error, failure = self._outcome(job, exit_info, status, problem)
        ended = ended_attempt(job, _end_of(status) if exit_info.code is None else time.time(), status)
        try:
            job = self.store.transition(
                job_id,
                target,
                "settle",
                reason,
                sources={JobStatus.RUNNING},
                requested_action=None,
                exit_code=exit_info.code,
                pid=None,
                run_ref=None,
                process_started_at=None,
                error=error,
                failure=failure.as_dict() if failure else None,
                finished_at=utcnow() if target != JobStatus.PAUSED else None,
                **ended,
            )
        except ConflictError:
            return  # a concurrent stop settled it, and told the listeners
        self.settled(job)

    def _outcome(
        self, job: Job, exit_info: ExitInfo, status: TrainingStatus | None, problem: str | None
    ) -> tuple[JobStatus, Text, str | None, Failure | None]:
        """The status it moves to, why, its error (English, with the log's last lines) and, for a failure, why."""
        layout = layout_of(job)
        reported = status.status if status else None
        unobserved = exit_info.code is None
        if (hung := self.hung.pop(job.id, None)) is not None:
            failure = Failure(FailureKind.HUNG, hung, find_cause(layout))
            return JobStatus.FAILED, hung, "\n".join([hung.render(), *log_excerpt(layout)]), failure
        if job.requested_action == "stop":
            stopped = Text.of("job.stopped_by_user_exit", exit=exit_info.text().as_dict())
            return JobStatus.CANCELLED, stopped, None, None
        if reported == TrainingState.PAUSED and (exit_info.succeeded or unobserved):
            saved = status.last_checkpoint_step
            where = Text.of("job.checkpoint_at", step=saved) if saved is not None else Text.of("job.no_checkpoint")
            return JobStatus.PAUSED, Text.join(_trainer_text(status), where), None, None
        if reported == TrainingState.COMPLETED and (exit_info.succeeded or unobserved):
            completed = _trainer_text(status) if status.message else Text.of("job.completed")
            return JobStatus.COMPLETED, completed, None, None
        if unobserved:
            what = exit_info.text() if exit_info.description else None
            what = what or Text.of("job.lost_unwatched", run_mode=job.run_mode, ref=job.run_ref)
            lost = Text.join(
                Text.of("job.lost", what=what.as_dict()),
                Text.of("job.last_reported", state=reported, step=status.current_step) if status else None,
                Text.literal(problem) if problem else None,
            )
            return JobStatus.FAILED, lost, lost.render(), Failure(FailureKind.LOST, lost, find_cause(layout))
        error = exit_info.describe()
        if exit_info.succeeded:
            error += " without reporting completion"
        if problem:
            error += f" ({problem})"
        if last_lines := log_excerpt(layout):
            error += "\n" + "\n".join(last_lines)
        return JobStatus.FAILED, exit_info.text(), error, exit_failure(exit_info, find_cause(layout))


def engine_notes(status: TrainingStatus | None) -> list[Text]:
    """The notes of a trainer's status that are the engines' texts (catalogue ENGINE_NOTES) and render in every
    language, of the first MAX_NOTES; any other is left out: the file is the training process's, not the platform's."""
    notes = []
    for value in status.notes[:MAX_NOTES] if status else []:
        try:
            note = Text.from_dict(value)
            if note.code not in ENGINE_NOTES or len(json.dumps(value)) > MAX_NOTE_CHARS:
                continue
            for language in LANGUAGES:
                note.render(language)
        except Exception:  # noqa: BLE001 - whatever a note lacks (a code, a parameter, a text it names) leaves it out
            continue
        notes.append(note)
    return notes


def _trainer_text(status: TrainingStatus) -> Text:
    """The trainer's last message: the platform's own words where it is one of those (engines/trl/recipe.py and
    the verl plugin write them), else as the trainer wrote it."""
    known = {
        f"paused at step {status.current_step}": Text.of("job.paused_at", step=status.current_step),
        f"completed {status.current_step} steps": Text.of("job.completed_steps", steps=status.current_step),
    }
    return known.get(status.message or "", Text.literal(status.message or ""))


def _end_of(status: TrainingStatus | None) -> float:
    """When a process whose exit nobody saw (it ended while the server was down) was last known to run."""
    return status.updated_at if status is not None and status.updated_at is not None else time.time()


def _status_of(layout: JobLayout) -> tuple[TrainingStatus | None, str | None]:
    """The trainer's status, and why its file could not be read if it could not: a corrupt file is that job's
    problem, told in its error, never a failure of the supervisor."""
    try:
        return parse_status(layout.status_path), None
    except StatusFileError as error:
        return None, f"its status file cannot be read: {error}"
