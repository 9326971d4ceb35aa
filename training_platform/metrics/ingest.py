"""Reading a metrics source into the store: batched, idempotent, and exact across crashes.

The reader's position advances in memory as lines are read; the store's copy of it (the cursor) only
moves in the transaction that writes the rows read up to it. A crash at any instant therefore loses
nothing (the unflushed lines are read again) and doubles nothing (rows are upserts).

Nothing a file holds wedges a job's ingest: a line that is not a record is reported (a logged warning naming its
line, rate-limited) and skipped with the cursor moving past it; a step the store refuses is written apart from
the others and dropped alone. A write that fails for a reason that passes (a lock timeout, a full disk, a lost
connection) keeps the buffer, and the next flush writes it.
"""

import logging
import math
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from training_platform.errors import NotFoundError
from training_platform.metrics.reader import MalformedLine, MetricsReader, MetricsSource, StepRecord
from training_platform.metrics.store import MetricStore

log = logging.getLogger(__name__)
BULK_FLUSH_STEPS = 1000
# The first malformed lines of a source are logged one by one; after them, one summary a minute at most.
MALFORMED_NAMED = 5
WARNING_INTERVAL_S = 60.0
# Failures of the database itself, not of what was written: the same write may succeed later.
PASSING_FAILURES = (OperationalError, InterfaceError, DisconnectionError, PoolTimeoutError)


@dataclass
class IngestReport:
    records: int = 0
    values: int = 0
    bytes_read: int = 0
    rewrites: int = 0
    malformed: list[MalformedLine] = field(default_factory=list)

    def add(self, other: "IngestReport") -> None:
        self.records += other.records
        self.values += other.values
        self.bytes_read += other.bytes_read
        self.rewrites += other.rewrites
        self.malformed += other.malformed


class StepWatcher(Protocol):
    """Told of every record as it is read, before it is stored (the diagnostics); must not raise."""

    def steps_read(self, job_id: str, records: list[StepRecord]) -> None: ...


class MetricsIngester:
    def __init__(
        self,
        store: MetricStore,
        job_id: str,
        source: MetricsSource,
        flush_records: int = 100,
        flush_seconds: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        watchers: Sequence[StepWatcher] = (),
    ):
        self.store = store
        self.job_id = job_id
        self.source = source
        self.flush_records = flush_records
        self.flush_seconds = flush_seconds
        self.clock = clock
        self.watchers = watchers
        self.reader = MetricsReader(source, store.load_cursor(job_id, source.name))
        self._pending: dict[int, dict[str, float]] = {}
        self._anomalies: list[tuple[int, str, str]] = []
        self._pending_since: float | None = None
        self._named_malformed = 0
        self._unnamed_malformed = 0  # skipped since the last warning, not named
        self._last_unnamed: MalformedLine | None = None
        self._last_warning = -math.inf

    @property
    def pending(self) -> dict[int, dict[str, float]]:
        """Steps read but not yet written to the store (what a live viewer has not got from history)."""
        return self._pending

    def poll(self, report: IngestReport | None = None) -> list[StepRecord]:
        """Read what was appended since the last poll; the records are also buffered for the store."""
        report = report if report is not None else IngestReport()
        if self.reader.was_rewritten():
            self.flush()  # what was read from the old file belongs to the old cursor
            self.reader.restart()
            report.rewrites += 1
        batch = self.reader.read()
        report.bytes_read += batch.bytes_read
        report.malformed += batch.malformed
        self._report_malformed(batch.malformed)
        for record in batch.records:
            self._pending.setdefault(record.step, {}).update(record.values)
            if record.anomaly:
                self._anomalies.append((record.step, *record.anomaly))
        report.records += len(batch.records)
        for watcher in self.watchers:
            watcher.steps_read(self.job_id, batch.records)
        if batch.bytes_read and self._pending_since is None:
            self._pending_since = self.clock()
        return batch.records

    def flush_due(self) -> bool:
        if self._pending_since is None:
            return False
        return len(self._pending) >= self.flush_records or self.clock() - self._pending_since >= self.flush_seconds

    def flush(self) -> int:
        """Write the buffered steps and the cursor that covers them, in one transaction. A failure of the database
        raises and keeps the buffer; steps the store refuses are dropped, each alone, and the rest written."""
        if self._pending_since is None:
            return 0
        cursor = (self.source.name, self.reader.cursor)
        try:
            written = self.store.write_batch(self.job_id, self._pending, self._anomalies, cursor=cursor)
        except PASSING_FAILURES:
            raise
        except NotFoundError:
            log.info("job %s is gone: %d steps read from %s dropped", self.job_id, len(self._pending), self.source.name)
            written = 0
        except Exception as error:  # noqa: BLE001 - what was written was refused: find the steps it was
            log.warning(
                "job %s: metrics of %s refused (%s); writing them step by step", self.job_id, self.source.name, error
            )
            written = self._write_apart(cursor)
        self._pending, self._anomalies, self._pending_since = {}, [], None
        return written

    def _write_apart(self, cursor) -> int:
        """Each buffered step in a transaction of its own; those refused are logged and dropped. Then the cursor."""
        anomalies = defaultdict(list)
        for anomaly in self._anomalies:
            anomalies[anomaly[0]].append(anomaly)
        written, refused = 0, []
        for step, values in self._pending.items():
            try:
                written += self.store.write_batch(self.job_id, {step: values}, anomalies.pop(step, []))
            except PASSING_FAILURES:
                raise
            except Exception as error:  # noqa: BLE001
                refused.append(step)
                if len(refused) <= MALFORMED_NAMED:
                    log.warning(
                        "job %s: step %d of %s not stored, skipped: %s", self.job_id, step, self.source.name, error
                    )
        left = [anomaly for rest in anomalies.values() for anomaly in rest]
        self.store.write_batch(self.job_id, {}, left, cursor=cursor)
        if len(refused) > MALFORMED_NAMED:
            log.warning("job %s: %d steps of %s not stored, skipped", self.job_id, len(refused), self.source.name)
        return written

    def _report_malformed(self, malformed: list[MalformedLine]) -> None:
        """Log skipped lines, by number, without letting a file of garbage flood the log."""
        for line in malformed:
            if self._named_malformed < MALFORMED_NAMED:
                self._named_malformed += 1
                self._last_warning = self.clock()
                where = f"line {line.line_number} of {self.source.name}"
                log.warning("job %s: metrics %s skipped: %s", self.job_id, where, line.reason)
            else:
                self._unnamed_malformed += 1
                self._last_unnamed = line
        if self._unnamed_malformed and self.clock() - self._last_warning >= WARNING_INTERVAL_S:
            last = self._last_unnamed
            log.warning(
                "job %s: %d more malformed metrics lines of %s skipped (the last: line %d, %s)",
                self.job_id,
                self._unnamed_malformed,
                self.source.name,
                last.line_number,
                last.reason,
            )
            self._unnamed_malformed, self._last_warning = 0, self.clock()

    def ingest_all(self, progress: Callable[[int], None] | None = None) -> IngestReport:
        """Read the source to its current end, flushing every BULK_FLUSH_STEPS steps (on-demand sync, import)."""
        report = IngestReport()
        while True:
            read_before = report.bytes_read
            self.poll(report)
            exhausted = report.bytes_read == read_before
            if exhausted or len(self._pending) >= BULK_FLUSH_STEPS:
                report.values += self.flush()
            if progress is not None:
                progress(self.reader.cursor.offset)
            if exhausted:
                return report
