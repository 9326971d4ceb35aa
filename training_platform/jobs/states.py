"""The job status state machine. Every change of a job's status goes through `allowed_sources`."""

from enum import StrEnum


class JobStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    PAUSED = "paused"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"


TRANSITIONS: dict[JobStatus, frozenset[JobStatus]] = {
    JobStatus.PENDING: frozenset({JobStatus.RUNNING, JobStatus.CANCELLED}),
    JobStatus.RUNNING: frozenset({JobStatus.PAUSED, JobStatus.COMPLETED, JobStatus.FAILED, JobStatus.CANCELLED}),
    JobStatus.PAUSED: frozenset({JobStatus.RUNNING, JobStatus.CANCELLED}),
    # A failed run can be resumed from its latest complete checkpoint (an OOM or a lost machine is not the end).
    JobStatus.FAILED: frozenset({JobStatus.RUNNING}),
    JobStatus.COMPLETED: frozenset(),
    JobStatus.CANCELLED: frozenset(),
}

FINISHED = frozenset({JobStatus.COMPLETED, JobStatus.FAILED, JobStatus.CANCELLED})


def allowed_sources(target: JobStatus) -> frozenset[JobStatus]:
    return frozenset(source for source, targets in TRANSITIONS.items() if target in targets)


def can_transition(source: JobStatus, target: JobStatus) -> bool:
    return target in TRANSITIONS[source]
