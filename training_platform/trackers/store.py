"""A job's exports to its trackers: one row per (job, tracker), holding the cursor (the last step the tracker
acknowledged), the tracker's run and the retry state. There is no row per point: the points are the metric store's,
read after the cursor."""

from datetime import datetime
from typing import Any

from sqlalchemy import func, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import col, or_, select

from training_platform.db import Database
from training_platform.db.tables import TrackerExport
from training_platform.db.types import utcnow

EXPORTING, CLOSED = "exporting", "closed"


class TrackerStore:
    def __init__(self, db: Database):
        self.db = db
        self._insert = (postgresql if db.engine.dialect.name == "postgresql" else sqlite).insert

    def add(self, job_id: str, specs: list[dict[str, Any]], now: datetime) -> None:
        """The job's exports, one per spec in order; a job that has them already keeps them as they are."""
        if not specs:
            return
        rows = [
            dict(
                job_id=job_id,
                position=position,
                kind=spec["kind"],
                spec=spec,
                status=EXPORTING,
                failures=0,
                next_attempt_at=now,
                created_at=now,
                updated_at=now,
            )
            for position, spec in enumerate(specs)
        ]
        statement = (
            self._insert(TrackerExport).values(rows).on_conflict_do_nothing(index_elements=["job_id", "position"])
        )
        with self.db.session() as session:
            session.execute(statement)
            session.commit()

    def has_exports(self, job_id: str) -> bool:
        query = select(func.count()).select_from(TrackerExport).where(col(TrackerExport.job_id) == job_id)
        with self.db.session() as session:
            return session.exec(query).one() > 0

    def exports(self, job_id: str) -> list[TrackerExport]:
        query = select(TrackerExport).where(col(TrackerExport.job_id) == job_id).order_by(col(TrackerExport.position))
        with self.db.session() as session:
            return list(session.exec(query))

    def reopen(self, job_id: str, step: int) -> int:
        """Closed exports of the job that have not got `step`: steps came after they closed (a metrics file imported
        again, grown). The number reopened."""
        with self.db.session() as session:
            result = session.execute(
                update(TrackerExport)
                .where(
                    col(TrackerExport.job_id) == job_id,
                    col(TrackerExport.status) == CLOSED,
                    or_(col(TrackerExport.exported_step).is_(None), col(TrackerExport.exported_step) < step),
                )
                .values(status=EXPORTING, updated_at=utcnow())
            )
            session.commit()
            return result.rowcount

    def due(self, now: datetime) -> list[TrackerExport]:
        query = (
            select(TrackerExport)
            .where(col(TrackerExport.status) == EXPORTING, col(TrackerExport.next_attempt_at) <= now)
            .order_by(col(TrackerExport.next_attempt_at), col(TrackerExport.id))
        )
        with self.db.session() as session:
            return list(session.exec(query))

    def next_due(self) -> datetime | None:
        query = select(func.min(TrackerExport.next_attempt_at)).where(col(TrackerExport.status) == EXPORTING)
        with self.db.session() as session:
            return session.exec(query).first()

    def update(self, export_id: int, **fields: Any) -> None:
        with self.db.session() as session:
            session.execute(
                update(TrackerExport).where(col(TrackerExport.id) == export_id).values(**fields, updated_at=utcnow())
            )
            session.commit()
