"""Background work (dataset audits, vector indexes, deduplication, checkpoint exports): one worker thread per
runner, progress in the database so any request (or a CLI progress bar) can follow it, and nothing left
'running' after a restart."""

import logging
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel
from sqlmodel import col, select

from training_platform.common.progress import ProgressCallback
from training_platform.db import Database
from training_platform.db.tables import BackgroundTask
from training_platform.db.types import utcnow
from training_platform.errors import NotFoundError, PlatformError

log = logging.getLogger(__name__)
_PROGRESS_INTERVAL = 0.5  # seconds between progress writes
Task = TypeVar("Task", bound=BackgroundTask)


class BackgroundTaskRead(BaseModel):
    """What the API shows of a task; each domain adds its owner and its kinds."""

    id: str
    status: Literal["queued", "running", "completed", "failed"]
    progress: float
    message: str
    params: dict[str, Any]
    result: dict[str, Any] | None
    error: str | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class TaskInterrupted(Exception):
    """The platform is stopping; the task ends as failed rather than half done."""


class TaskRunner(Generic[Task]):
    """Runs tasks of one table (`DatasetTask`, `JobTask`), each belonging to the row named by `owner`."""

    def __init__(self, db: Database, table: type[Task], owner: str):
        self.db = db
        self.table = table
        self.owner = owner  # the column naming the dataset or job a task belongs to
        # One at a time: an audit, an embedding run or an export already uses the machine's cores and disk.
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=table.__tablename__)
        self._stopping = threading.Event()
        self._submitted: list[str] = []

    def recover(self) -> None:
        """At server start: tasks that were queued or running when the server stopped can no longer finish."""
        self._fail_unfinished(select(self.table.id), "interrupted by a platform restart")

    def _fail_unfinished(self, ids, reason: str) -> None:
        with self.db.session() as session:
            query = select(self.table).where(
                col(self.table.status).in_(["queued", "running"]), col(self.table.id).in_(ids)
            )
            for task in session.exec(query):
                task.status, task.error, task.finished_at = "failed", reason, utcnow()
                session.add(task)
            session.commit()

    def submit(
        self, owner_id: str, kind: str, params: dict[str, Any], work: Callable[[ProgressCallback], dict]
    ) -> Task:
        task = self.table(
            id=uuid.uuid4().hex, kind=kind, status="queued", params=params, message="queued", **{self.owner: owner_id}
        )
        with self.db.session() as session:
            session.add(task)
            session.commit()
            session.refresh(task)
        self._submitted.append(task.id)
        self._executor.submit(self._run, task.id, work)
        return task

    def _run(self, task_id: str, work: Callable[[ProgressCallback], dict]) -> None:
        self._update(task_id, status="running", started_at=utcnow(), message="started")
        last_write = 0.0

        def progress(fraction: float, message: str) -> None:
            nonlocal last_write
            if self._stopping.is_set():
                raise TaskInterrupted()
            now = time.monotonic()
            if now - last_write >= _PROGRESS_INTERVAL:
                last_write = now
                self._update(task_id, progress=round(fraction, 4), message=message)

        try:
            result = work(progress)
        except TaskInterrupted:
            self._finish(task_id, "failed", error="interrupted: the platform stopped")
        except PlatformError as error:
            self._finish(task_id, "failed", error=str(error))
        except Exception as error:
            log.exception("%s %s failed", self.table.__tablename__, task_id)
            self._finish(task_id, "failed", error=f"{type(error).__name__}: {error}")
        else:
            self._finish(task_id, "completed", result=result, progress=1.0, message="done")

    def _finish(self, task_id: str, status: str, **values: Any) -> None:
        self._update(task_id, status=status, finished_at=utcnow(), **values)

    def _update(self, task_id: str, **values: Any) -> None:
        with self.db.session() as session:
            task = session.get(self.table, task_id)
            if task is None:
                return  # its owner was deleted meanwhile
            for key, value in values.items():
                setattr(task, key, value)
            session.add(task)
            session.commit()

    def get(self, owner_id: str, task_id: str) -> Task:
        with self.db.session() as session:
            task = session.get(self.table, task_id)
        if task is None or getattr(task, self.owner) != owner_id:
            owner = self.owner.removesuffix("_id")
            raise NotFoundError(f"no task '{task_id}' for this {owner}")
        return task

    def list_for(self, owner_id: str) -> list[Task]:
        with self.db.session() as session:
            query = select(self.table).where(col(getattr(self.table, self.owner)) == owner_id)
            return list(session.exec(query.order_by(col(self.table.created_at).desc())))

    def unfinished(self, owner_id: str, kind: str) -> list[Task]:
        return [task for task in self.list_for(owner_id) if task.kind == kind and task.status in ("queued", "running")]

    def delete_finished(self, owner_id: str, kind: str) -> list[Task]:
        """Forget the owner's finished tasks of one kind (what they found no longer holds); the deleted ones."""
        with self.db.session() as session:
            query = select(self.table).where(
                col(getattr(self.table, self.owner)) == owner_id,
                col(self.table.kind) == kind,
                col(self.table.status).in_(["completed", "failed"]),
            )
            tasks = list(session.exec(query))
            for task in tasks:
                session.delete(task)
            session.commit()
        return tasks

    def shutdown(self) -> None:
        """Stop this process's tasks: a running one at its next progress report, queued ones before they start.
        (Another process sharing the database leaves the server's tasks alone.)"""
        self._stopping.set()
        self._executor.shutdown(wait=True, cancel_futures=True)
        if self._submitted:
            self._fail_unfinished(self._submitted, "interrupted: the platform stopped")
