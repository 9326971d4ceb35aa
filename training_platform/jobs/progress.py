"""Where a job stands across its attempts, as its page shows it: the time it ran, from each process's launch; its
last known progress, which a resumed attempt's trainer report (starting afresh) replaces only as it reports its
own; its health, unknown until it logged a step; and why it failed."""

from typing import Any

from training_platform.common.text import LANGUAGES
from training_platform.contract.status import TrainingStatus
from training_platform.db.tables import Job
from training_platform.jobs.failures import Failure
from training_platform.jobs.runs import EXTERNAL
from training_platform.jobs.schemas import FailureText, JobFailure, Progress
from training_platform.jobs.states import JobStatus

# What is kept of an ended attempt's report, and carried into the next attempt's until that one reports it.
CARRIED = ("current_step", "total_steps", "epoch", "loss", "learning_rate", "eta_seconds", "last_checkpoint_step")


def attempt_seconds(job: Job, now: float) -> float | None:
    """How long the running attempt's process has run; None when no process runs."""
    if job.process_started_at is None:
        return None
    return max(0.0, now - job.process_started_at)


def elapsed_seconds(job: Job, now: float) -> float | None:
    """The time its attempts ran, the running one's so far included; None for a job from before the platform
    counted them, or one that never ran."""
    if job.run_seconds is None or job.attempt == 0:
        return None
    return job.run_seconds + (attempt_seconds(job, now) or 0.0)


def ended_attempt(job: Job, ended_at: float, status: TrainingStatus | None) -> dict[str, Any]:
    """The fields that record the end of the running attempt: its run time added, its trainer's last report."""
    fields: dict[str, Any] = {}
    if job.run_seconds is not None and (running := attempt_seconds(job, ended_at)) is not None:
        fields["run_seconds"] = job.run_seconds + running
    if status is not None:
        last = carried(status, job.last_progress)
        if last["eta_seconds"] is None:  # a trainer that stopped clears its ETA: the rate it ran at still says
            last["eta_seconds"] = _remaining(status)
        fields["last_progress"] = last
    return fields


def _remaining(status: TrainingStatus) -> float | None:
    """The time the steps left would take at the rate the attempt ran (its start-up included)."""
    done = status.current_step - (status.resumed_from_step or 0)
    if not status.total_steps or not status.elapsed_seconds or done <= 0:
        return None
    return status.elapsed_seconds / done * max(status.total_steps - status.current_step, 0)


def carried(status: TrainingStatus, last: dict[str, Any] | None) -> dict[str, Any]:
    """The status's progress, with what it does not know yet taken from the last attempt's (`last`)."""
    last = last or {}
    own = status.model_dump(include=set(CARRIED))
    merged = {name: last.get(name) if own[name] is None else own[name] for name in CARRIED}
    if not status.current_step:  # not begun: it resumes from a checkpoint at or before the last step
        merged["current_step"] = last.get("current_step") or 0
    return merged


def run_state(job: Job, status: TrainingStatus | None, now: float) -> dict[str, Any]:
    """The fields of a JobRead that tell where its run stands."""
    progress = None
    if status is not None:
        progress = Progress.from_status(status).model_copy(update=carried(status, job.last_progress))
    elapsed = elapsed_seconds(job, now)
    return {
        "progress": progress,
        "elapsed_seconds": elapsed if elapsed is not None else status and status.elapsed_seconds,
        "attempt_elapsed_seconds": attempt_seconds(job, now),
        "health": shown_health(job, progress),
        "failure": _failure_read(Failure.from_dict(job.failure))
        if job.failure and job.status == JobStatus.FAILED
        else None,
    }


def shown_health(job: Job, progress: Progress | None) -> str:
    """Its findings' verdict; unknown where no finding could have been made: no step logged yet."""
    logged = progress is not None and (progress.current_step > 0 or progress.loss is not None)
    return "unknown" if job.health == "healthy" and job.engine != EXTERNAL and not logged else job.health


def _failure_read(failure: Failure) -> JobFailure:
    text = {
        language: FailureText(reason=failure.reason.render(language), advice=failure.advice.render(language))
        for language in LANGUAGES
    }
    cause = failure.cause
    return JobFailure(
        kind=failure.kind.value,
        resume_advised=failure.resume_advised,
        cause=cause.line if cause else None,
        cause_stream=cause.stream if cause else None,
        text=text,
    )
