"""Findings persistence: one row per (job, kind, rule), merged as signals keep coming.

A kind's repeated signals are one finding whose last step moves (docs/health.md: a finding, not one per step). Merging
is idempotent: reading the same steps again (a restart replaying a job, a re-import) leaves the row as it was, and
re-diagnosing a whole job (`replace`) writes what a fresh pass found while keeping each finding's id and the actions
already taken for it, so no action is taken twice.

JSON cannot hold NaN or ±Inf (PostgreSQL's json type refuses them): evidence keeps them as the strings "NaN",
"Infinity" and "-Infinity", and reads them back as floats.
"""

import math
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import func
from sqlmodel import col, select

from training_platform.db import Database
from training_platform.db.tables import Finding
from training_platform.db.types import utcnow
from training_platform.diagnostics.detectors import Signal

SEVERITY_RANK = {"info": 0, "warning": 1, "critical": 2}
_NON_FINITE = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


@dataclass(frozen=True)
class Change:
    """A finding that is new, or whose severity rose, in a write: what alerts and actions act on."""

    finding: Finding
    new: bool


def encode_evidence(evidence: dict[str, float]) -> dict[str, float | str]:
    return {key: value if math.isfinite(value) else _non_finite_name(value) for key, value in evidence.items()}


def decode_evidence(evidence: dict[str, float | str]) -> dict[str, float]:
    return {key: _NON_FINITE[value] if isinstance(value, str) else float(value) for key, value in evidence.items()}


def _non_finite_name(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    return "Infinity" if value > 0 else "-Infinity"


@dataclass
class _Merged:
    """Signals of one kind and rule, folded: the step range, the worst severity, the latest signal."""

    first_step: int
    worst: str
    latest: Signal

    def add(self, signal: Signal) -> None:
        self.first_step = min(self.first_step, began(signal))
        if SEVERITY_RANK[signal.severity] > SEVERITY_RANK[self.worst]:
            self.worst = signal.severity
        if signal.step >= self.latest.step:
            self.latest = signal


def began(signal: Signal) -> int:
    """The first step of what a signal reports: where its streak began (`since`), or its own step."""
    since = signal.params.get("since")
    return since if isinstance(since, int) and since <= signal.step else signal.step


def fold(signals: Iterable[Signal]) -> dict[tuple[str, str], _Merged]:
    merged: dict[tuple[str, str], _Merged] = {}
    for signal in signals:
        key = (signal.kind, str(signal.params.get("rule", "")))
        if key in merged:
            merged[key].add(signal)
        else:
            merged[key] = _Merged(began(signal), signal.severity, signal)
    return merged


def _rows(session, job_id: str) -> dict[tuple[str, str], Finding]:
    return {(row.kind, row.rule): row for row in session.exec(select(Finding).where(Finding.job_id == job_id))}


class FindingStore:
    def __init__(self, db: Database):
        self.db = db

    def merge(self, job_id: str, signals: Iterable[Signal]) -> list[Change]:
        """Fold `signals` into the job's findings: a new kind/rule makes a finding, a known one widens its step
        range, raises its severity and takes the latest evidence."""
        merged = fold(signals)
        if not merged:
            return []
        with self.db.session() as session:
            rows = _rows(session, job_id)
            changes = [self._apply(session, job_id, rows.get(key), key, folded) for key, folded in merged.items()]
            session.commit()
            for change in changes:
                if change is not None:
                    session.refresh(change.finding)
            return [change for change in changes if change is not None]

    def replace(self, job_id: str, signals: Iterable[Signal]) -> list[Change]:
        """The job's findings become exactly what `signals` show (a whole-job diagnosis): rows of kinds no longer
        found are deleted, the others rewritten, keeping their ids and the actions taken."""
        merged = fold(signals)
        with self.db.session() as session:
            rows = _rows(session, job_id)
            for key, row in rows.items():
                if key not in merged:
                    session.delete(row)
            changes = []
            for key, folded in merged.items():
                changes.append(self._apply(session, job_id, rows.get(key), key, folded, rewrite=True))
            session.commit()
            for change in changes:
                if change is not None:
                    session.refresh(change.finding)
            return [change for change in changes if change is not None]

    @staticmethod
    def _apply(
        session, job_id: str, row: Finding | None, key: tuple[str, str], folded: _Merged, rewrite: bool = False
    ) -> Change | None:
        """Make or update the row of `key` from `folded`: widened by it, or (`rewrite`) made exactly it."""
        latest = folded.latest
        if row is None:
            row = Finding(
                job_id=job_id,
                kind=key[0],
                rule=key[1],
                severity=folded.worst,
                first_step=folded.first_step,
                last_step=latest.step,
                best_step=latest.best_step,
                evidence=encode_evidence(latest.evidence),
                params=dict(latest.params),
            )
            session.add(row)
            return Change(row, new=True)
        rose = SEVERITY_RANK[folded.worst] > SEVERITY_RANK[row.severity]
        values = {
            "severity": folded.worst if rose or rewrite else row.severity,
            "first_step": folded.first_step if rewrite else min(row.first_step, folded.first_step),
        }
        if rewrite or latest.step >= row.last_step:
            values |= {
                "last_step": latest.step,
                "best_step": latest.best_step,
                "evidence": encode_evidence(latest.evidence),
                "params": dict(latest.params),
            }
        if any(getattr(row, name) != value for name, value in values.items()):
            for name, value in values.items():
                setattr(row, name, value)
            row.updated_at = utcnow()  # only when it changed: reading the same steps again changes nothing
            session.add(row)
        return Change(row, new=False) if rose else None

    def query(
        self,
        job_id: str,
        kinds: Iterable[str] = (),
        severities: Iterable[str] = (),
        start_step: int | None = None,
        end_step: int | None = None,
    ) -> list[Finding]:
        """The job's findings, worst first; a step range keeps those whose own range overlaps it."""
        statement = select(Finding).where(Finding.job_id == job_id)
        if kinds := list(kinds):
            statement = statement.where(col(Finding.kind).in_(kinds))
        if severities := list(severities):
            statement = statement.where(col(Finding.severity).in_(severities))
        if start_step is not None:
            statement = statement.where(Finding.last_step >= start_step)
        if end_step is not None:
            statement = statement.where(Finding.first_step <= end_step)
        with self.db.session() as session:
            rows = list(session.exec(statement.order_by(col(Finding.first_step), col(Finding.id))))
        return sorted(rows, key=lambda row: -SEVERITY_RANK[row.severity])

    def count(self, job_id: str) -> int:
        with self.db.session() as session:
            return session.exec(select(func.count()).where(Finding.job_id == job_id)).one()

    def take_action(self, finding_id: int, action: str) -> bool:
        """Record `action` as taken for the finding; False when it already was (it is never taken twice)."""
        with self.db.session() as session:
            row = session.get(Finding, finding_id, with_for_update=True)
            if row is None or action in row.actions:
                return False
            row.actions = [*row.actions, action]
            session.add(row)
            session.commit()
            return True
