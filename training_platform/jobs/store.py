"""Job persistence. Status changes are compare-and-set updates, so two racing actions cannot both win."""

from collections.abc import Iterable
from typing import Any

from sqlalchemy import delete, func, update
from sqlmodel import col, select

from training_platform.common.text import Text
from training_platform.db import Database
from training_platform.db.lookup import get_by_name_or_id, name_taken
from training_platform.db.tables import Job, JobEvent
from training_platform.db.types import utcnow
from training_platform.errors import ConflictError, NotFoundError
from training_platform.jobs.states import JobStatus, allowed_sources


def _event(job_id: str, kind: str, message: str | Text, **fields: Any) -> JobEvent:
    """An event row: a text is kept as its code and parameters, and its English."""
    if isinstance(message, Text):
        return JobEvent(
            job_id=job_id, kind=kind, message=message.render(), code=message.code, params=message.params, **fields
        )
    return JobEvent(job_id=job_id, kind=kind, message=message, **fields)


class JobStore:
    def __init__(self, db: Database):
        self.db = db

    def add(self, job: Job, message: str | Text) -> Job:
        with self.db.session() as session:
            session.add(job)
            session.flush()
            session.add(_event(job.id, "created", message, to_status=job.status))
            session.commit()
            return job

    def get(self, job_id: str) -> Job:
        with self.db.session() as session:
            job = session.get(Job, job_id)
        if job is None:
            raise NotFoundError(f"job '{job_id}' not found")
        return job

    def find(self, name_or_id: str) -> Job:
        return get_by_name_or_id(self.db, Job, name_or_id, "job")

    def name_taken(self, name: str) -> bool:
        with self.db.session() as session:
            return name_taken(session, Job, name)

    def query(
        self, statuses: Iterable[JobStatus] = (), limit: int = 100, offset: int = 0, kind: str | None = None
    ) -> list[Job]:
        query = select(Job).order_by(col(Job.created_at).desc(), col(Job.id)).offset(offset).limit(limit)
        statuses = [s.value for s in statuses]
        if statuses:
            query = query.where(col(Job.status).in_(statuses))
        if kind is not None:
            query = query.where(col(Job.algorithm) == kind)
        with self.db.session() as session:
            return list(session.exec(query))

    def transition(
        self,
        job_id: str,
        target: JobStatus,
        action: str,
        reason: str | Text,
        sources: Iterable[JobStatus] | None = None,
        **fields: Any,
    ) -> Job:
        """Move the job to `target` if the state machine (and `sources`, when given) allow it from its
        current status; otherwise raise ConflictError and change nothing. A job holds GPUs only while it runs:
        any other target lets go of them."""
        if target != JobStatus.RUNNING:
            fields["gpus"] = []
        allowed = allowed_sources(target)
        if sources is not None:
            allowed &= frozenset(sources)
        with self.db.session() as session:
            while True:
                current = session.exec(select(Job.status).where(Job.id == job_id)).first()
                if current is None:
                    raise NotFoundError(f"job '{job_id}' not found")
                if current not in allowed:
                    raise ConflictError(
                        f"cannot {action} job '{job_id}': it is {current}"
                        f" ({action} is allowed when it is {' or '.join(sorted(allowed)) or 'never'})"
                    )
                result = session.execute(
                    update(Job)
                    .where(col(Job.id) == job_id, col(Job.status) == current)
                    .values(status=target.value, updated_at=utcnow(), **fields)
                )
                if result.rowcount == 1:
                    break
                session.rollback()  # the status moved under us: look again
            session.add(_event(job_id, "status", reason, from_status=current, to_status=target))
            session.commit()
            return session.get(Job, job_id, populate_existing=True)

    def request_action(self, job_id: str, action: str, replace: Iterable[str | None] = (None,)) -> Job:
        """Record that `action` was asked of the running process; refused unless the job runs and its
        pending request (if any) is one of `replace`."""
        pending = [value for value in replace if value is not None]
        pending_clause = col(Job.requested_action).is_(None)
        if pending:
            pending_clause = (
                pending_clause | col(Job.requested_action).in_(pending)
                if None in replace
                else col(Job.requested_action).in_(pending)
            )
        with self.db.session() as session:
            result = session.execute(
                update(Job)
                .where(col(Job.id) == job_id, col(Job.status) == JobStatus.RUNNING.value, pending_clause)
                .values(requested_action=action, updated_at=utcnow())
            )
            if result.rowcount != 1:
                job = session.get(Job, job_id)
                if job is None:
                    raise NotFoundError(f"job '{job_id}' not found")
                if job.status != JobStatus.RUNNING:
                    raise ConflictError(
                        f"cannot {action} job '{job_id}': it is {job.status} ({action} is allowed when it is running)"
                    )
                raise ConflictError(f"cannot {action} job '{job_id}': {job.requested_action} already requested")
            session.add(_event(job_id, "request", Text.of("job.action_requested", action=action)))
            session.commit()
            return session.get(Job, job_id, populate_existing=True)

    def claim_launch(self, job_id: str, attempt: int, launch_id: str) -> Job | None:
        """Record that attempt `attempt`'s process is about to start under `launch_id` (in `run_ref`, with no pid
        or start time yet), if the job still runs that attempt and no stop was asked; None when it does not, and
        then nothing may be started."""
        with self.db.session() as session:
            result = session.execute(
                update(Job)
                .where(
                    col(Job.id) == job_id,
                    col(Job.status) == JobStatus.RUNNING.value,
                    col(Job.attempt) == attempt,
                    col(Job.requested_action).is_(None) | (col(Job.requested_action) != "stop"),
                )
                .values(run_ref=launch_id, pid=None, process_started_at=None, updated_at=utcnow())
            )
            if result.rowcount != 1:
                return None
            session.commit()
            return session.get(Job, job_id, populate_existing=True)

    def held_gpus(self, run_mode: str) -> set[int]:
        """The GPUs the running jobs of `run_mode` hold."""
        running = (Job.status == JobStatus.RUNNING.value) & (Job.run_mode == run_mode)
        with self.db.session() as session:
            return {gpu for gpus in session.exec(select(Job.gpus).where(running)) for gpu in gpus}

    def queued(self, run_mode: str) -> list[Job]:
        """The jobs of `run_mode` waiting for GPUs, first queued first."""
        waiting = (Job.status == JobStatus.QUEUED.value) & (Job.run_mode == run_mode)
        query = select(Job).where(waiting).order_by(col(Job.queued_at), col(Job.id))
        with self.db.session() as session:
            return list(session.exec(query))

    def queued_run_modes(self) -> list[str]:
        """The run modes some job waits in the queue of."""
        query = select(Job.run_mode).where(Job.status == JobStatus.QUEUED.value).distinct()
        with self.db.session() as session:
            return sorted(session.exec(query))

    def queue_position(self, job: Job) -> int:
        """1 for the queued job that gets the next GPUs to free up."""
        ahead = (col(Job.queued_at) < job.queued_at) | ((col(Job.queued_at) == job.queued_at) & (col(Job.id) < job.id))
        query = select(func.count()).select_from(Job).where(Job.status == JobStatus.QUEUED.value, ahead)
        with self.db.session() as session:
            return session.exec(query).one() + 1

    def update(self, job_id: str, **fields: Any) -> Job:
        with self.db.session() as session:
            session.execute(update(Job).where(col(Job.id) == job_id).values(updated_at=utcnow(), **fields))
            session.commit()
            return session.get(Job, job_id, populate_existing=True)

    def record(self, job_id: str, kind: str, message: str | Text) -> None:
        with self.db.session() as session:
            session.add(_event(job_id, kind, message))
            session.commit()

    def record_new(self, job_id: str, kind: str, texts: Iterable[Text]) -> None:
        """Record those of `texts` that the job's events of `kind` do not hold yet (the same code and parameters):
        a text read again, by this server or the next, is recorded once."""
        with self.db.session() as session:
            query = select(JobEvent.code, JobEvent.params).where(JobEvent.job_id == job_id, JobEvent.kind == kind)
            held = [Text(code, params or {}) for code, params in session.exec(query) if code is not None]
            for text in texts:
                if text not in held:
                    held.append(text)
                    session.add(_event(job_id, kind, text))
            session.commit()

    def events(self, job_id: str) -> list[JobEvent]:
        self.get(job_id)
        with self.db.session() as session:
            query = select(JobEvent).where(JobEvent.job_id == job_id).order_by(col(JobEvent.id))
            return list(session.exec(query))

    def delete(self, job_id: str, unless_status: JobStatus | Iterable[JobStatus]) -> None:
        """Delete the job's row unless it is in `unless_status` (one status, or any of several)."""
        kept = [unless_status.value] if isinstance(unless_status, JobStatus) else [s.value for s in unless_status]
        with self.db.session() as session:
            result = session.execute(delete(Job).where(col(Job.id) == job_id, col(Job.status).not_in(kept)))
            if result.rowcount != 1:
                job = session.get(Job, job_id)
                if job is None:
                    raise NotFoundError(f"job '{job_id}' not found")
                raise ConflictError(f"cannot delete job '{job_id}' while it is {job.status}; stop it first")
            session.commit()
