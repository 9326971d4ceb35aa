"""Who gets the server's GPUs: a local job that is started or resumed runs with the devices it asked for, or
waits in the queue (status `queued`) until they are free.

The queue is strictly first in, first out: when GPUs free up, queued jobs start in the order they joined it, and
the first that does not fit holds back those behind it, even ones that would fit. A job asking for many GPUs is
then never overtaken for ever by a stream of small ones; the cost is idle devices while it waits for enough of
them. A job started while others wait joins the queue behind them.

The devices are the runner's (`Runner.devices`): the local runner's are this machine's GPUs. Which are busy is
read from the database (the running jobs' `gpus`, per run mode), never kept in memory, so a restarted server knows
what its re-attached jobs hold; one lock makes each decision and its record one step, so two jobs started side by
side never get the same device (one server per data directory, `platform.py`). A runner whose cluster allocates
its own devices (Ray), and a runner without GPUs (where a job's `num_gpus` is its count of CPU processes, at most
`Runner.cpu_processes`), have nothing allocated or queued.
"""

import logging
import threading

from training_platform.common.changes import Change, report
from training_platform.common.text import Text
from training_platform.db.tables import Job
from training_platform.db.types import utcnow
from training_platform.errors import ConflictError, FieldError, InvalidInputError
from training_platform.jobs.failures import Failure, FailureKind
from training_platform.jobs.runs import requested_gpus
from training_platform.jobs.states import ACTION_SOURCES, JobStatus
from training_platform.jobs.store import JobStore
from training_platform.jobs.supervisor import JobSupervisor

log = logging.getLogger(__name__)
ADMITTED = {"start": "started", "resume": "resumed"}  # what a request's start or resume reports once running


class JobScheduler:
    def __init__(self, store: JobStore, supervisor: JobSupervisor):
        self.store = store
        self.supervisor = supervisor
        self._lock = threading.Lock()  # one decision at a time: which job gets which GPUs

    def devices(self, run_mode: str) -> list[int]:
        """The GPUs the platform allocates to the runs of `run_mode`; none where it allocates nothing."""
        runner = self.supervisor.runners.get(run_mode)
        return (runner.devices() if runner else None) or []

    def allocates(self, run_mode: str) -> bool:
        return bool(self.devices(run_mode))

    def refusal(self, run_mode: str, num_gpus: int) -> FieldError | None:
        """Why a job asking for `num_gpus` can never run here, if it cannot."""
        gpus = self.devices(run_mode)
        if not gpus:
            runner = self.supervisor.runners.get(run_mode)
            most = runner.cpu_processes() if runner else None
            if most is None or num_gpus <= most:
                return None
            return FieldError(
                "params.num_gpus",
                f"asks for {num_gpus} training processes on the CPU (this server has no GPUs for its jobs), more "
                f"than the {most} it allows (PLATFORM_CPU_PROCESSES); ask for at most {most}",
            )
        if num_gpus <= len(gpus):
            return None
        return FieldError(
            "params.num_gpus",
            f"asks for {num_gpus} GPUs, but this server has {len(gpus)} (GPUs {_names(gpus)}); "
            f"ask for at most {len(gpus)}",
        )

    def admit(self, job: Job, action: str, reason: Text, **fields) -> Job:
        """Move a job the user starts or resumes (`action`) to running and launch it, or to the queue while its
        GPUs are busy; `fields` are set either way. InvalidInputError if it asks for more GPUs than there are."""
        wanted = requested_gpus(job)
        if problem := self.refusal(job.run_mode, wanted):
            raise InvalidInputError([problem])
        sources = ACTION_SOURCES[action]
        if not self.allocates(job.run_mode):
            return self._launch(self._run(job, sources, action, reason, [], fields), action)
        with self._lock:
            free = self._free(job.run_mode)
            waiting = len(self.store.queued(job.run_mode))
            if waiting or wanted > len(free):
                reason = Text.join(reason, Text.of("job.queued", gpus=wanted, position=waiting + 1))
                job = self.store.transition(
                    job.id, JobStatus.QUEUED, action, reason, sources=sources, queued_at=utcnow(), **fields
                )
                report(Change("job", job.id, job.name, "queued"))
                return job
            job = self._run(job, sources, action, reason, free[:wanted], fields)
        return self._launch(job, action)

    def _launch(self, job: Job, action: str) -> Job:
        job = self.supervisor.launch(job)
        if job.status == JobStatus.RUNNING:  # a launch that failed has its own event and error
            report(Change("job", job.id, job.name, ADMITTED[action]))
        return job

    def schedule(self) -> None:
        """Start the queued jobs that fit now, first queued first (the module's docstring says why strictly)."""
        started, failed = [], []
        with self._lock:
            for run_mode in self.store.queued_run_modes():
                self._schedule(run_mode, started, failed)
        # Outside the lock: launching, and the listeners of a settled job (this one among them), decide nothing.
        for job in failed:
            self.supervisor.settled(job)
        for job in started:
            self.supervisor.launch(job)

    def _schedule(self, run_mode: str, started: list[Job], failed: list[Job]) -> None:
        gpus = self.devices(run_mode)
        free = self._free(run_mode)
        for job in self.store.queued(run_mode):
            try:
                # On a server restarted without GPUs, a queued job runs on the CPU as it would have started.
                wanted = requested_gpus(job) if gpus else 0
                if wanted > len(gpus):
                    failed.append(self._fail_unfit(job))
                    continue
                if wanted > len(free):
                    break
                started.append(self._run(job, {JobStatus.QUEUED}, "schedule", None, free[:wanted], {}))
                free = free[wanted:]
            except ConflictError:
                continue  # stopped while we decided

    def _free(self, run_mode: str) -> list[int]:
        held = self.store.held_gpus(run_mode)
        return [gpu for gpu in self.devices(run_mode) if gpu not in held]

    def _run(self, job: Job, sources, action: str, reason: Text | None, gpus: list[int], fields: dict) -> Job:
        got = Text.of("job.got_gpus", gpus=_names(gpus)) if gpus else None
        return self.store.transition(
            job.id,
            JobStatus.RUNNING,
            action,
            Text.join(reason, got),
            sources=sources,
            attempt=job.attempt + 1,
            started_at=job.started_at or utcnow(),
            gpus=gpus,
            **fields,
        )

    def _fail_unfit(self, job: Job) -> Job:
        """A queued job that asks for more GPUs than this server now has (it restarted with fewer) would hold
        the queue for ever: it fails, saying why."""
        gpus = self.devices(job.run_mode)
        unfit = Text.of("job.unfit", wanted=requested_gpus(job), have=len(gpus), gpus=_names(gpus))
        return self.store.transition(
            job.id,
            JobStatus.FAILED,
            "fail",
            unfit,
            sources={JobStatus.QUEUED},
            error=unfit.render(),
            failure=Failure(FailureKind.LAUNCH, unfit, None).as_dict(),
            finished_at=utcnow(),
        )

    # The supervisor's listener: a job that leaves running (or the queue) may free GPUs for those queued.

    def job_started(self, job: Job) -> None:
        """Nothing to do: the job's GPUs were taken when it was admitted."""

    def job_ending(self, job: Job) -> None:
        """Nothing to do: its GPUs are free once it has left running."""

    def job_finished(self, job: Job) -> None:
        try:
            self.schedule()
        except Exception:
            log.exception("starting queued jobs after job %s failed", job.id)


def _names(gpus: list[int]) -> str:
    return ",".join(map(str, gpus))
