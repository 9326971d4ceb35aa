"""Follows a running job's metrics and status files by file notifications (inotify), not by polling:
new lines go to live viewers at once and to the store in batches (by count or age).

A failure while following (the database locked past its timeout, a full disk, a file that cannot be read) does
not end the following: it is logged (once a minute at most) and the work is tried again at the next wake.

A local job's follower also runs its system metrics sampler (metrics/system.py) until `finish`."""

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import watchfiles

from training_platform.metrics.ingest import IngestReport, MetricsIngester
from training_platform.metrics.live import LiveHub, metric_message
from training_platform.metrics.system import SystemSampler

log = logging.getLogger(__name__)
# How often the follower wakes without a file event, to flush a buffer that has grown old.
IDLE_WAKE_MS = 1000
FAILURE_LOG_INTERVAL_S = 60.0


class JobFollower:
    def __init__(
        self,
        job_id: str,
        ingester: MetricsIngester,
        lock: asyncio.Lock,
        hub: LiveHub,
        metrics_path: Path,
        status_path: Path,
        status_message: Callable[[], dict[str, Any]],
        sampler: SystemSampler | None = None,
    ):
        self.job_id = job_id
        self.ingester = ingester
        self.lock = lock
        self.hub = hub
        self.metrics_path = str(metrics_path)
        self.status_path = str(status_path)
        self.status_message = status_message
        self.stop_event = asyncio.Event()
        self.task: asyncio.Task | None = None
        # The job's system metrics (CPU, memory, GPUs), sampled on their own interval until `finish`.
        self.sampler = sampler
        self.sampler_task: asyncio.Task | None = None
        self._behind = False  # a catch-up failed: read again at the next wake, file event or not
        self._last_failure_log = -math.inf

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"follow-{self.job_id}")
        if self.sampler is not None:
            self.sampler_task = asyncio.create_task(self.sampler.run(self.stop_event), name=f"sample-{self.job_id}")

    async def _run(self) -> None:
        watched = {self.metrics_path, self.status_path}
        self._behind = not await self._attempt("reading", self.catch_up)
        try:
            async for changes in watchfiles.awatch(
                Path(self.metrics_path).parent,
                watch_filter=lambda _change, path: path in watched,
                recursive=False,
                debounce=50,
                step=5,
                rust_timeout=IDLE_WAKE_MS,
                yield_on_timeout=True,
                stop_event=self.stop_event,
            ):
                paths = {path for _, path in changes}
                if self.metrics_path in paths or self._behind:
                    self._behind = not await self._attempt("reading", self.catch_up)
                if self.status_path in paths:
                    await self._attempt("publishing the status", self._publish_status)
                if self.ingester.flush_due():
                    await self._attempt("storing", self._flush)
        except Exception:
            log.exception("following metrics of job %s failed", self.job_id)

    async def _attempt(self, what: str, work: Callable[[], Awaitable[object]]) -> bool:
        """Whether `work` succeeded; a failure is logged, at most once a minute."""
        try:
            await work()
            return True
        except Exception as error:  # noqa: BLE001 - tried again at the next wake; the buffer is kept
            now = time.monotonic()
            if now - self._last_failure_log >= FAILURE_LOG_INTERVAL_S:
                self._last_failure_log = now
                log.warning("job %s: %s metrics failed, trying again: %s", self.job_id, what, error, exc_info=True)
            return False

    async def _publish_status(self) -> None:
        self.hub.publish(self.job_id, await asyncio.to_thread(self.status_message))

    async def _flush(self) -> None:
        async with self.lock:
            await asyncio.to_thread(self.ingester.flush)

    async def catch_up(self, report: IngestReport | None = None) -> int:
        """Read what is new, tell the viewers, flush if the buffer is due; returns the bytes read."""
        report = report if report is not None else IngestReport()
        read_before = report.bytes_read
        async with self.lock:
            records = await asyncio.to_thread(self.ingester.poll, report)
            for record in records:
                self.hub.publish(self.job_id, metric_message(record.step, record.values))
            if self.ingester.flush_due():
                report.values += await asyncio.to_thread(self.ingester.flush)
        return report.bytes_read - read_before

    async def drain(self) -> IngestReport:
        """Read to the end of the file and write everything to the store."""
        report = IngestReport()
        while await self.catch_up(report):
            pass
        async with self.lock:
            report.values += await asyncio.to_thread(self.ingester.flush)
        return report

    async def finish(self) -> IngestReport:
        """The process ended: stop watching, read the last lines, write everything."""
        self.stop_event.set()
        if self.task is not None:
            await self.task
        if self.sampler_task is not None:
            try:
                await self.sampler_task
            except Exception:
                log.exception("sampling system metrics of job %s failed", self.job_id)
        return await self.drain()
