"""Alert targets, the outbox and its attempts. An outbox row is claimed by a compare-and-set before it is sent, so
two deliverers (a worker and a test send, an old server and a new one) cannot send the same attempt twice."""

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import func, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import col, or_, select

from training_platform.db import Database
from training_platform.db.lookup import get_by_name_or_id, name_taken
from training_platform.db.tables import AlertAttempt, AlertOutbox, AlertTarget
from training_platform.errors import ConflictError, NotFoundError


class AlertStore:
    def __init__(self, db: Database):
        self.db = db
        self._insert = (postgresql if db.engine.dialect.name == "postgresql" else sqlite).insert

    # ---- targets -------------------------------------------------------------------------------------------------

    def add_target(self, target: AlertTarget) -> AlertTarget:
        with self.db.session() as session:
            if name_taken(session, AlertTarget, target.name):
                raise ConflictError(f"an alert target named '{target.name}' already exists")
            session.add(target)
            session.commit()
            return target

    def find_target(self, name_or_id: str) -> AlertTarget:
        return get_by_name_or_id(self.db, AlertTarget, name_or_id, "alert target")

    def targets(self, job_id: str | None = None) -> list[AlertTarget]:
        query = select(AlertTarget).order_by(col(AlertTarget.created_at), col(AlertTarget.id))
        if job_id is not None:
            query = query.where(col(AlertTarget.job_id) == job_id)
        with self.db.session() as session:
            return list(session.exec(query))

    def enabled_targets_for(self, job_id: str | None) -> list[AlertTarget]:
        """The enabled targets that hear about `job_id`: every job's, and that job's own."""
        scope = col(AlertTarget.job_id).is_(None)
        if job_id is not None:
            scope = or_(scope, col(AlertTarget.job_id) == job_id)
        query = select(AlertTarget).where(col(AlertTarget.enabled).is_(True), scope).order_by(col(AlertTarget.id))
        with self.db.session() as session:
            return list(session.exec(query))

    def update_target(self, target_id: str, **fields: Any) -> AlertTarget:
        with self.db.session() as session:
            target = session.get(AlertTarget, target_id)
            if target is None:
                raise NotFoundError(f"alert target '{target_id}' not found")
            for name, value in fields.items():
                setattr(target, name, value)
            session.add(target)
            session.commit()
            return target

    def delete_target(self, target_id: str) -> None:
        """The target, its outbox and attempts (the foreign keys cascade)."""
        with self.db.session() as session:
            target = session.get(AlertTarget, target_id)
            if target is None:
                raise NotFoundError(f"alert target '{target_id}' not found")
            session.delete(target)
            session.commit()

    # ---- the outbox ----------------------------------------------------------------------------------------------

    def enqueue(self, target_ids: Iterable[str], event_key: str, event: dict[str, Any], due: datetime) -> list[int]:
        """One pending row per target; a (target, event) pair already there is left as it is. The ids of the rows
        this call added."""
        rows = [
            dict(
                target_id=target_id,
                event_key=event_key,
                event=event,
                status="pending",
                attempts=0,
                next_attempt_at=due,
                created_at=due,
            )
            for target_id in target_ids
        ]
        if not rows:
            return []
        statement = (
            self._insert(AlertOutbox)
            .values(rows)
            .on_conflict_do_nothing(index_elements=["target_id", "event_key"])
            .returning(col(AlertOutbox.id))
        )
        with self.db.session() as session:
            added = list(session.execute(statement).scalars())
            session.commit()
        return added

    def add_claimed(
        self, target_id: str, event_key: str, event: dict[str, Any], now: datetime, lease: datetime
    ) -> AlertOutbox:
        """A row that is being sent right now (a test send): claimed until `lease`, so no worker picks it up."""
        row = AlertOutbox(
            target_id=target_id,
            event_key=event_key,
            event=event,
            status="pending",
            next_attempt_at=lease,
            created_at=now,
        )
        with self.db.session() as session:
            session.add(row)
            session.commit()
            return row

    def due(self, now: datetime, limit: int) -> list[tuple[AlertOutbox, AlertTarget]]:
        query = (
            select(AlertOutbox, AlertTarget)
            .join(AlertTarget, col(AlertTarget.id) == col(AlertOutbox.target_id))
            .where(col(AlertOutbox.status) == "pending", col(AlertOutbox.next_attempt_at) <= now)
            .order_by(col(AlertOutbox.next_attempt_at), col(AlertOutbox.id))
            .limit(limit)
        )
        with self.db.session() as session:
            return [(row, target) for row, target in session.exec(query)]

    def claim(self, row: AlertOutbox, now: datetime, lease: datetime) -> bool:
        """Take a due row, as read, for one attempt: it is not due again before `lease` (a server that died while
        sending leaves it to be tried again then). False when another deliverer took it first, or has made an
        attempt since `row` was read (its count of attempts would be stale)."""
        with self.db.session() as session:
            result = session.execute(
                update(AlertOutbox)
                .where(
                    col(AlertOutbox.id) == row.id,
                    col(AlertOutbox.status) == "pending",
                    col(AlertOutbox.attempts) == row.attempts,
                    col(AlertOutbox.next_attempt_at) <= now,
                )
                .values(next_attempt_at=lease)
            )
            session.commit()
            return result.rowcount == 1

    def record(self, attempt: AlertAttempt, **outcome: Any) -> AlertAttempt:
        """The attempt, and what it leaves of its row (status, attempts, next_attempt_at, …), in one transaction."""
        with self.db.session() as session:
            session.add(attempt)
            session.execute(update(AlertOutbox).where(col(AlertOutbox.id) == attempt.outbox_id).values(**outcome))
            session.commit()
            return attempt

    def next_due(self) -> datetime | None:
        query = select(func.min(AlertOutbox.next_attempt_at)).where(col(AlertOutbox.status) == "pending")
        with self.db.session() as session:
            return session.exec(query).first()

    def deliveries(
        self, target_id: str, statuses: Iterable[str] = (), limit: int = 100, offset: int = 0
    ) -> list[tuple[AlertOutbox, list[AlertAttempt]]]:
        """The target's rows, newest first, each with its attempts in order."""
        query = (
            select(AlertOutbox)
            .where(col(AlertOutbox.target_id) == target_id)
            .order_by(col(AlertOutbox.created_at).desc(), col(AlertOutbox.id).desc())
            .offset(offset)
            .limit(limit)
        )
        statuses = list(statuses)
        if statuses:
            query = query.where(col(AlertOutbox.status).in_(statuses))
        with self.db.session() as session:
            rows = list(session.exec(query))
            attempts: dict[int, list[AlertAttempt]] = {row.id: [] for row in rows}
            if rows:
                found = session.exec(
                    select(AlertAttempt)
                    .where(col(AlertAttempt.outbox_id).in_(list(attempts)))
                    .order_by(col(AlertAttempt.attempted_at), col(AlertAttempt.id))
                )
                for attempt in found:
                    attempts[attempt.outbox_id].append(attempt)
        return [(row, attempts[row.id]) for row in rows]
