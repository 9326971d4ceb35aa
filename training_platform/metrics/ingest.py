"""Reading a metrics source into the store: batched, idempotent, and exact across crashes.

The reader's position advances in memory as lines are read; the store's copy of it (the cursor) only
moves in the transaction that writes the rows read up to it. A crash at any instant therefore loses
nothing (the unflushed lines are read again) and doubles nothing (rows are upserts).
"""

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from training_platform.metrics.reader import MalformedLine, MetricsReader, MetricsSource, StepRecord
from training_platform.metrics.store import MetricStore

BULK_FLUSH_STEPS = 1000


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


class MetricsIngester:
    def __init__(
        self,
        store: MetricStore,
        job_id: str,
        source: MetricsSource,
        flush_records: int = 100,
        flush_seconds: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.store = store
        self.job_id = job_id
        self.source = source
        self.flush_records = flush_records
        self.flush_seconds = flush_seconds
        self.clock = clock
        self.reader = MetricsReader(source, store.load_cursor(job_id, source.name))
        self._pending: dict[int, dict[str, float]] = {}
        self._anomalies: list[tuple[int, str, str]] = []
        self._pending_since: float | None = None

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
        for record in batch.records:
            self._pending.setdefault(record.step, {}).update(record.values)
            if record.anomaly:
                self._anomalies.append((record.step, *record.anomaly))
        report.records += len(batch.records)
        if batch.bytes_read and self._pending_since is None:
            self._pending_since = self.clock()
        return batch.records

    def flush_due(self) -> bool:
        if self._pending_since is None:
            return False
        return len(self._pending) >= self.flush_records or self.clock() - self._pending_since >= self.flush_seconds

    def flush(self) -> int:
        """Write the buffered steps and the cursor that covers them, in one transaction."""
        if self._pending_since is None:
            return 0
        written = self.store.write_batch(
            self.job_id, self._pending, self._anomalies, cursor=(self.source.name, self.reader.cursor)
        )
        self._pending, self._anomalies, self._pending_since = {}, [], None
        return written

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
