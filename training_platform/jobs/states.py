"""The job status state machine. Every change of a job's status goes through `allowed_sources`."""

from enum import StrEnum


class JobStatus(StrEnum):
    PENDING = "pending"
    # Started or resumed, waiting for the GPUs it asked for (jobs/scheduler.py).
    QUEUED = "queued"
    RUNNING = "running"
    PAUSED = "paused"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"


TRANSITIONS: dict[JobStatus, frozenset[JobStatus]] = {
    JobStatus.PENDING: frozenset({JobStatus.QUEUED, JobStatus.RUNNING, JobStatus.CANCELLED}),
    # A queued job fails only when it can never get its GPUs (the server restarted with fewer).
    JobStatus.QUEUED: frozenset({JobStatus.RUNNING, JobStatus.CANCELLED, JobStatus.FAILED}),
    JobStatus.RUNNING: frozenset({JobStatus.PAUSED, JobStatus.COMPLETED, JobStatus.FAILED, JobStatus.CANCELLED}),
    JobStatus.PAUSED: frozenset({JobStatus.QUEUED, JobStatus.RUNNING, JobStatus.CANCELLED}),
    # A failed run can be resumed from its latest complete checkpoint (an OOM or a lost machine is not the end).
    JobStatus.FAILED: frozenset({JobStatus.QUEUED, JobStatus.RUNNING}),
    JobStatus.COMPLETED: frozenset(),
    JobStatus.CANCELLED: frozenset(),
}

FINISHED = frozenset({JobStatus.COMPLETED, JobStatus.FAILED, JobStatus.CANCELLED})


# The statuses in which a user's action is accepted. Start, resume and stop move the job along TRANSITIONS (start
# and resume to running, or to queued while its GPUs are busy; the scheduler alone moves a job out of the queue);
# pause is a request to the running process (the job becomes paused once it saved and exited); delete removes
# the job's row, which a live process must not outlive, nor a queue it holds a place in.
ACTION_SOURCES: dict[str, frozenset[JobStatus]] = {
    "start": frozenset({JobStatus.PENDING}),
    "pause": frozenset({JobStatus.RUNNING}),
    "resume": frozenset({JobStatus.PAUSED, JobStatus.FAILED}),
    "stop": frozenset({JobStatus.PENDING, JobStatus.QUEUED, JobStatus.RUNNING, JobStatus.PAUSED}),
    "delete": frozenset(JobStatus) - {JobStatus.RUNNING, JobStatus.QUEUED},
}


def allowed_sources(target: JobStatus) -> frozenset[JobStatus]:
    return frozenset(source for source, targets in TRANSITIONS.items() if target in targets)


def allowed_actions(status: JobStatus, requested_action: str | None) -> list[str]:
    """What a user can do now; while a pause or stop is pending, only stopping."""
    if requested_action is not None:
        return ["stop"]
    return [action for action, sources in ACTION_SOURCES.items() if status in sources]
