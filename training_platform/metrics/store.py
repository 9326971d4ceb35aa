"""Metric persistence on SQLite or PostgreSQL: idempotent batched upserts, rollups, range queries.

Values are keyed by (job, key, step): writing the same step again overwrites it, so re-reading a file
(after a restart, a truncation, a resumed run re-logging steps) never doubles anything. A batch's
points, the rollups they touch, the anomalies and the reader's cursor are written in one transaction.

The store keeps one cache, the ids of series (job, key → id), and it only ever holds what a committed
transaction made: a write that rolls back leaves it as it was (SQLite hands a rolled-back or deleted row's id
to the next new row, so an id cached from such a write would send one job's values into another's series). A
cached id is used only while its job's row exists, checked (and, on PostgreSQL, kept from deletion) in the
transaction that uses it.
"""

import math
import threading
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from sqlalchemy import Connection, and_, func, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite

from training_platform.db import Database
from training_platform.db.tables import Job, MetricAnomaly, MetricCursor, MetricPoint, MetricRollup, MetricSeries
from training_platform.db.types import utcnow
from training_platform.errors import NotFoundError
from training_platform.metrics.downsample import (
    Summary,
    Value,
    downsample_points,
    downsample_summaries,
    merge,
    point_summary,
    summarize,
)
from training_platform.metrics.reader import Cursor

ROLLUP_STEPS = 256  # steps per rollup bucket
_POINT, _ROLLUP, _SERIES = MetricPoint.__table__, MetricRollup.__table__, MetricSeries.__table__
_JOB = Job.__table__


@dataclass(frozen=True)
class SeriesData:
    key: str
    steps: list[int]
    values: list[float]  # NaN included
    total_points: int
    downsampled: bool


@dataclass(frozen=True)
class KeyInfo:
    key: str
    points: int
    first_step: int
    last_step: int


def _stored(value: float) -> float | None:
    return None if math.isnan(value) else value


def _loaded(value: float | None) -> float:
    return math.nan if value is None else value


def _summary_row(series_id: int, bucket: int, summary: Summary) -> dict:
    return {"series_id": series_id, "bucket": bucket, **vars(summary)}


def _row_summary(row) -> Summary:
    return Summary(
        count=row.count,
        first_step=row.first_step,
        first_value=row.first_value,
        last_step=row.last_step,
        last_value=row.last_value,
        min_step=row.min_step,
        min_value=row.min_value,
        max_step=row.max_step,
        max_value=row.max_value,
        nan_step=row.nan_step,
    )


class MetricStore:
    def __init__(self, db: Database):
        self.db = db
        self._insert = (postgresql if db.engine.dialect.name == "postgresql" else sqlite).insert
        marker = "?" if db.engine.dialect.paramstyle == "qmark" else "%s"
        self._upsert_points_sql = (
            f"INSERT INTO metric_points (series_id, step, value) VALUES ({marker}, {marker}, {marker}) "
            "ON CONFLICT (series_id, step) DO UPDATE SET value = excluded.value"
        )
        self._series_ids: dict[tuple[str, str], int] = {}  # committed series only
        self._cache_lock = threading.Lock()

    # ---- writing ---------------------------------------------------------------------------------

    def load_cursor(self, job_id: str, source: str) -> Cursor | None:
        with self.db.engine.connect() as connection:
            row = connection.execute(
                select(MetricCursor.__table__).where(
                    MetricCursor.__table__.c.job_id == job_id, MetricCursor.__table__.c.source == source
                )
            ).first()
        if row is None:
            return None
        return Cursor(row.offset, row.line_number, row.fingerprint, row.fingerprint_length, row.malformed_lines)

    def write_batch(
        self,
        job_id: str,
        steps: Mapping[int, Mapping[str, float]],
        anomalies: Iterable[tuple[int, str, str]] = (),
        cursor: tuple[str, Cursor] | None = None,
    ) -> int:
        """Upsert the values of `steps` (and anomalies, and the source's cursor) in one transaction.
        Returns the number of values written."""
        written = 0
        created: dict[tuple[str, str], int] = {}
        with self.db.engine.begin() as connection:
            self._lock_job(connection, job_id)
            keys = {key for values in steps.values() for key in values}
            series = self._series(connection, job_id, keys, created)
            rows = [
                (series[key], step, _stored(value)) for step, values in steps.items() for key, value in values.items()
            ]
            if rows:
                # The hot path of ingest: plain DB-API executemany, without SQLAlchemy's per-row parameter work.
                connection.exec_driver_sql(self._upsert_points_sql, rows)
                self._update_rollups(connection, rows)
                written = len(rows)
            anomaly_rows = [{"job_id": job_id, "step": s, "kind": k, "message": m} for s, k, m in anomalies]
            if anomaly_rows:
                statement = self._insert(MetricAnomaly.__table__)
                connection.execute(
                    statement.on_conflict_do_update(
                        index_elements=["job_id", "step", "kind"], set_={"message": statement.excluded.message}
                    ),
                    anomaly_rows,
                )
            if cursor is not None:
                self._save_cursor(connection, job_id, *cursor)
        # Only now that they are committed: a series created by a write that rolled back does not exist, and its
        # id may be handed to another series next.
        with self._cache_lock:
            self._series_ids.update(created)
        return written

    def _lock_job(self, connection: Connection, job_id: str) -> None:
        """The job's row must exist for the whole transaction: its series (and their cached ids) go with it. On
        PostgreSQL a key-share lock keeps it from being deleted meanwhile (status updates are not held up); SQLite
        has one writer at a time."""
        query = select(_JOB.c.id).where(_JOB.c.id == job_id).with_for_update(read=True, key_share=True)
        if connection.execute(query).first() is None:
            with self._cache_lock:
                self._series_ids = {key: id_ for key, id_ in self._series_ids.items() if key[0] != job_id}
            raise NotFoundError(f"job '{job_id}' not found")

    def _series(
        self, connection: Connection, job_id: str, keys: set[str], created: dict[tuple[str, str], int]
    ) -> dict[str, int]:
        """Series ids of `keys`, making the missing series; their ids also go into `created`."""
        with self._cache_lock:
            cached = {key: self._series_ids.get((job_id, key)) for key in keys}
        missing = [key for key, series_id in cached.items() if series_id is None]
        if missing:
            connection.execute(
                self._insert(_SERIES).on_conflict_do_nothing(index_elements=["job_id", "key"]),
                [{"job_id": job_id, "key": key} for key in missing],
            )
            found = connection.execute(
                select(_SERIES.c.key, _SERIES.c.id).where(_SERIES.c.job_id == job_id, _SERIES.c.key.in_(missing))
            )
            created.update({(job_id, key): series_id for key, series_id in found})
        return {key: cached[key] or created[(job_id, key)] for key in keys}

    def _update_rollups(self, connection: Connection, rows: list[tuple[int, int, Value]]) -> None:
        touched: dict[tuple[int, int], list[tuple[int, Value]]] = defaultdict(list)
        for series_id, step, value in rows:
            touched[(series_id, step // ROLLUP_STEPS)].append((step, value))
        pairs = list(touched)
        existing = {}
        for start in range(0, len(pairs), 2000):  # stay far below SQLite's bound-parameter limit
            chunk = pairs[start : start + 2000]
            condition = tuple_(_ROLLUP.c.series_id, _ROLLUP.c.bucket).in_(chunk)
            existing.update(
                {(row.series_id, row.bucket): row for row in connection.execute(select(_ROLLUP).where(condition))}
            )
        updated = []
        for (series_id, bucket), points in touched.items():
            points.sort()
            current = existing.get((series_id, bucket))
            if current is None:
                summary = summarize(points)
            elif current is not None and points[0][0] > current.last_step:
                summary = merge([_row_summary(current), summarize(points)])  # appended after the bucket's last step
            else:  # a step was written again: summarize the bucket from what is now stored
                low, high = bucket * ROLLUP_STEPS, (bucket + 1) * ROLLUP_STEPS - 1
                stored = connection.execute(
                    select(_POINT.c.step, _POINT.c.value)
                    .where(_POINT.c.series_id == series_id, _POINT.c.step.between(low, high))
                    .order_by(_POINT.c.step)
                ).all()
                summary = summarize([(step, value) for step, value in stored])
            updated.append(_summary_row(series_id, bucket, summary))
        statement = self._insert(_ROLLUP)
        columns = [c.name for c in _ROLLUP.c if c.name not in ("series_id", "bucket")]
        connection.execute(
            statement.on_conflict_do_update(
                index_elements=["series_id", "bucket"], set_={c: statement.excluded[c] for c in columns}
            ),
            updated,
        )

    def _save_cursor(self, connection: Connection, job_id: str, source: str, cursor: Cursor) -> None:
        values = {
            "offset": cursor.offset,
            "line_number": cursor.line_number,
            "fingerprint": cursor.fingerprint,
            "fingerprint_length": cursor.fingerprint_length,
            "malformed_lines": cursor.malformed_lines,
            "updated_at": utcnow(),
        }
        statement = self._insert(MetricCursor.__table__).values(job_id=job_id, source=source, **values)
        connection.execute(statement.on_conflict_do_update(index_elements=["job_id", "source"], set_=values))

    # ---- reading ---------------------------------------------------------------------------------

    def keys(self, job_id: str) -> list[KeyInfo]:
        query = (
            select(
                _SERIES.c.key,
                func.sum(_ROLLUP.c.count),
                func.min(_ROLLUP.c.first_step),
                func.max(_ROLLUP.c.last_step),
            )
            .join(_ROLLUP, _ROLLUP.c.series_id == _SERIES.c.id)
            .where(_SERIES.c.job_id == job_id)
            .group_by(_SERIES.c.key)
            .order_by(_SERIES.c.key)
        )
        with self.db.engine.connect() as connection:
            return [KeyInfo(key, int(points), first, last) for key, points, first, last in connection.execute(query)]

    def query(
        self, job_id: str, keys: list[str] | None, start_step: int | None, end_step: int | None, max_points: int | None
    ) -> list[SeriesData]:
        """The series of `keys` (all when None) within the step range, downsampled to `max_points` if given."""
        with self.db.engine.connect() as connection:
            condition = _SERIES.c.job_id == job_id
            if keys is not None:
                condition = and_(condition, _SERIES.c.key.in_(keys))
            series = connection.execute(select(_SERIES.c.id, _SERIES.c.key).where(condition).order_by(_SERIES.c.key))
            return [
                self._one_series(connection, series_id, key, start_step, end_step, max_points)
                for series_id, key in series.all()
            ]

    def _one_series(
        self, connection: Connection, series_id: int, key: str, start: int | None, end: int | None, max_points
    ) -> SeriesData:
        low = 0 if start is None else start
        high = 2**62 if end is None else end
        buckets = connection.execute(
            select(_ROLLUP)
            .where(
                _ROLLUP.c.series_id == series_id, _ROLLUP.c.bucket.between(low // ROLLUP_STEPS, high // ROLLUP_STEPS)
            )
            .order_by(_ROLLUP.c.bucket)
        ).all()
        inner = [row for row in buckets if row.first_step >= low and row.last_step <= high]
        if max_points is None or len(inner) < max_points // 4:
            # Few enough points that buckets would be coarser than asked for: use every point.
            points = self._raw(connection, series_id, low, high)
            chosen = points if max_points is None else downsample_points(points, max_points)
            return self._series_data(key, chosen, len(points), len(chosen) < len(points))
        # Whole buckets from their rollups; the partly covered ones at both ends from raw points.
        first_bucket, last_bucket = inner[0].bucket, inner[-1].bucket
        atoms = [
            point_summary(*point) for point in self._raw(connection, series_id, low, first_bucket * ROLLUP_STEPS - 1)
        ]
        atoms += [_row_summary(row) for row in inner]
        tail = self._raw(connection, series_id, (last_bucket + 1) * ROLLUP_STEPS, high)
        atoms += [point_summary(*point) for point in tail]
        total = sum(atom.count for atom in atoms)
        return self._series_data(key, downsample_summaries(atoms, max_points), total, True)

    @staticmethod
    def _raw(connection: Connection, series_id: int, low: int, high: int) -> list[tuple[int, Value]]:
        rows = connection.execute(
            select(_POINT.c.step, _POINT.c.value)
            .where(_POINT.c.series_id == series_id, _POINT.c.step.between(low, high))
            .order_by(_POINT.c.step)
        )
        return [(step, value) for step, value in rows]

    @staticmethod
    def _series_data(key: str, points: list[tuple[int, Value]], total: int, downsampled: bool) -> SeriesData:
        return SeriesData(
            key=key,
            steps=[step for step, _ in points],
            values=[_loaded(value) for _, value in points],
            total_points=total,
            downsampled=downsampled,
        )

    def records(self, job_id: str, start_step: int = 0, end_step: int | None = None) -> Iterator[tuple[int, dict]]:
        """Whole steps in order, `(step, {key: value})`, for history and playback."""
        condition = and_(_SERIES.c.job_id == job_id, _POINT.c.step >= start_step)
        if end_step is not None:
            condition = and_(condition, _POINT.c.step <= end_step)
        query = (
            select(_POINT.c.step, _SERIES.c.key, _POINT.c.value)
            .join(_SERIES, _SERIES.c.id == _POINT.c.series_id)
            .where(condition)
            .order_by(_POINT.c.step)
        )
        with self.db.engine.connect() as connection:
            current_step, values = None, {}
            for step, key, value in connection.execute(query):
                if step != current_step:
                    if current_step is not None:
                        yield current_step, values
                    current_step, values = step, {}
                values[key] = _loaded(value)
            if current_step is not None:
                yield current_step, values

    def anomalies(self, job_id: str) -> list[MetricAnomaly]:
        table = MetricAnomaly.__table__
        with self.db.engine.connect() as connection:
            rows = connection.execute(select(table).where(table.c.job_id == job_id).order_by(table.c.step))
            return [MetricAnomaly(**row._mapping) for row in rows]

    def cursors(self, job_id: str) -> list[tuple[str, Cursor]]:
        table = MetricCursor.__table__
        with self.db.engine.connect() as connection:
            rows = connection.execute(select(table).where(table.c.job_id == job_id))
            return [
                (r.source, Cursor(r.offset, r.line_number, r.fingerprint, r.fingerprint_length, r.malformed_lines))
                for r in rows
            ]
