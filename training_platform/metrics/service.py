"""The monitoring service: follows running jobs, ingests on demand, answers queries, feeds live viewers."""

import asyncio
import logging
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa

from training_platform.contract.status import read_status
from training_platform.db.tables import Job, MetricAnomaly
from training_platform.errors import FieldError, InvalidInputError
from training_platform.jobs.runs import EXTERNAL, layout_of
from training_platform.jobs.service import JobService
from training_platform.jobs.states import FINISHED
from training_platform.metrics.follower import JobFollower
from training_platform.metrics.ingest import IngestReport, MetricsIngester
from training_platform.metrics.live import LiveHub
from training_platform.metrics.reader import LocalFileSource, MetricsSource
from training_platform.metrics.store import KeyInfo, MetricStore, SeriesData

log = logging.getLogger(__name__)


class MetricsService:
    def __init__(self, store: MetricStore, jobs: JobService, flush_records: int, flush_seconds: float):
        self.store = store
        self.jobs = jobs
        self.flush_records = flush_records
        self.flush_seconds = flush_seconds
        self.hub = LiveHub()
        self._followers: dict[str, JobFollower] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    # ---- following running jobs (called by the supervisor, from any thread) ---------------------

    def job_started(self, job: Job) -> None:
        self._on_loop(self._follow(job))

    def job_finished(self, job: Job) -> None:
        self._on_loop(self._finish(job))

    def _on_loop(self, coroutine) -> None:
        loop = self.hub.loop
        if loop is None or loop.is_closed():
            coroutine.close()  # no server loop (CLI use): nobody to stream to; `sync` catches up later
            return
        future = asyncio.run_coroutine_threadsafe(coroutine, loop)
        future.add_done_callback(_log_failure)

    def _lock(self, job_id: str) -> asyncio.Lock:
        return self._locks.setdefault(job_id, asyncio.Lock())

    def _ingester(self, job_id: str, source: MetricsSource) -> MetricsIngester:
        return MetricsIngester(self.store, job_id, source, self.flush_records, self.flush_seconds)

    async def _follow(self, job: Job) -> None:
        if job.id in self._followers:
            return
        layout = layout_of(job)
        ingester = await asyncio.to_thread(self._ingester, job.id, LocalFileSource(layout.metrics_path))
        if job.id in self._followers:
            return  # another start of the same job got here during the await
        follower = JobFollower(
            job.id,
            ingester,
            self._lock(job.id),
            self.hub,
            layout.metrics_path,
            layout.status_path,
            lambda: self.status_message(job.id),
        )
        self._followers[job.id] = follower
        follower.start()

    async def _finish(self, job: Job) -> None:
        follower = self._followers.pop(job.id, None)
        if follower is not None:
            await follower.finish()
        elif job.engine != EXTERNAL:
            await self.sync(job.id)  # it ran while no server was following it (settled after a restart)
        self.hub.publish(job.id, await asyncio.to_thread(self.status_message, job.id))
        if job.status in FINISHED:
            self.hub.publish(job.id, {"type": "finished", "status": job.status})

    async def stop_following(self) -> None:
        """Server shutdown: write what was read; the processes keep running and are followed again at start."""
        for follower in list(self._followers.values()):
            await follower.finish()
        self._followers.clear()

    # ---- on demand -------------------------------------------------------------------------------

    async def sync(self, name_or_id: str) -> IngestReport:
        """Ingest now whatever the job's metrics files hold that the store has not got yet."""
        job = await asyncio.to_thread(self.jobs.find, name_or_id)
        follower = self._followers.get(job.id)
        if follower is not None:
            return await follower.drain()  # through the follower, so live viewers see these steps too
        async with self._lock(job.id):
            report = IngestReport()
            for source in await asyncio.to_thread(self._sources, job):
                ingester = await asyncio.to_thread(self._ingester, job.id, source)
                report.add(await asyncio.to_thread(ingester.ingest_all))
            return report

    def _sources(self, job: Job) -> list[MetricsSource]:
        if job.engine != EXTERNAL:
            return [LocalFileSource(layout_of(job).metrics_path)]
        return [LocalFileSource(Path(source)) for source, _ in self.store.cursors(job.id)]

    def import_file(
        self, path: Path, job_name_or_id: str, progress: Callable[[int], None] | None = None
    ) -> tuple[Job, IngestReport]:
        """`tplat metrics ingest`: read a metrics file into a job; an unknown name creates an external job."""
        if not path.is_file():
            raise InvalidInputError([FieldError("file", f"{path} does not exist or is not a file")])
        job = self.jobs.get_or_create_external(job_name_or_id, source=str(path.resolve()))
        report = self._ingester(job.id, LocalFileSource(path)).ingest_all(progress)
        return job, report

    # ---- reading ---------------------------------------------------------------------------------

    def query(
        self, name_or_id: str, keys: list[str] | None, start: int | None, end: int | None, max_points: int | None
    ) -> tuple[Job, list[SeriesData]]:
        if start is not None and end is not None and start > end:
            raise InvalidInputError([FieldError("start_step", f"start_step {start} is after end_step {end}")])
        job = self.jobs.find(name_or_id)
        return job, self.store.query(job.id, keys, start, end, max_points)

    def keys(self, name_or_id: str) -> list[KeyInfo]:
        return self.store.keys(self.jobs.find(name_or_id).id)

    def anomalies(self, name_or_id: str) -> list[MetricAnomaly]:
        return self.store.anomalies(self.jobs.find(name_or_id).id)

    def recorded(self, job_id: str, start_step: int | None, end_step: int | None) -> list[tuple[int, dict[str, float]]]:
        return list(self.store.records(job_id, start_step or 0, end_step))

    def export_table(self, job_id: str) -> pa.Table:
        """One row per step, one column per key (NaN where a step has no value for a key)."""
        records = list(self.store.records(job_id))
        keys = sorted({key for _, values in records for key in values})
        columns = {"step": pa.array([step for step, _ in records], pa.int64())}
        for key in keys:
            columns[key] = pa.array([values.get(key, math.nan) for _, values in records], pa.float64())
        return pa.table(columns)

    def status_message(self, job_id: str) -> dict[str, Any]:
        job = self.jobs.find(job_id)
        status = read_status(layout_of(job).status_path)
        data = {
            "job_id": job.id,
            "status": job.status,
            "current_step": status.current_step if status else 0,
            "total_steps": status.total_steps if status else None,
            "anomaly_detected": status.anomaly_detected if status else False,
            "anomaly_reason": status.anomaly_reason if status else None,
        }
        return {"type": "status", "data": data}

    async def history(self, job_id: str, since_step: int) -> list[tuple[int, dict[str, float]]]:
        """Steps after `since_step`: from the store, completed by what a follower read but has not written."""
        async with self._lock(job_id):
            follower = self._followers.get(job_id)
            pending = {step: dict(values) for step, values in follower.ingester.pending.items()} if follower else {}
            stored = await asyncio.to_thread(lambda: list(self.store.records(job_id, since_step + 1)))
        steps = dict(stored)
        for step, values in pending.items():
            if step > since_step:
                steps.setdefault(step, {}).update(values)
        return sorted(steps.items())

    def is_live(self, job: Job) -> bool:
        """A viewer should wait for more: the job has not finished (it may be pending, running or paused)."""
        return job.status not in FINISHED or job.id in self._followers


def _log_failure(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("metrics follower task failed", exc_info=future.exception())
