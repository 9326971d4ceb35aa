"""The monitoring service: follows running jobs, ingests on demand, answers queries, feeds live viewers."""

import asyncio
import hashlib
import io
import logging
import math
import re
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from training_platform.common.locks import KeyedLocks
from training_platform.common.paths import PRIVATE_DIR
from training_platform.contract.status import load_status
from training_platform.db.tables import Job
from training_platform.errors import FieldError, InvalidInputError, TooLargeError
from training_platform.jobs.runs import EXTERNAL, layout_of
from training_platform.jobs.service import JobService
from training_platform.jobs.states import FINISHED
from training_platform.metrics.follower import JobFollower
from training_platform.metrics.ingest import IngestReport, MetricsIngester, StepWatcher
from training_platform.metrics.live import LiveHub, finished_message, metric_message
from training_platform.metrics.playback import PlaybackRequest, playback
from training_platform.metrics.reader import LocalFileSource, MetricsSource
from training_platform.metrics.schemas import AnomalyOut, ImportOut, KeyOut, MetricsOut, SeriesOut, SyncOut
from training_platform.metrics.store import MetricStore
from training_platform.metrics.system import SystemSampler

log = logging.getLogger(__name__)
ENDING_DRAIN_TIMEOUT_S = 120.0
IMPORT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$")
MAX_QUERY_KEYS = 1000  # keys named in one query (docs/security.md, "Limits")
# What makes a spreadsheet read a text cell as a formula (OWASP's CSV injection; ASVS adds NUL): such a cell is
# exported with a single quote before it (docs/security.md, "CSV export").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\0")


class MetricsService:
    def __init__(
        self,
        store: MetricStore,
        jobs: JobService,
        flush_records: int,
        flush_seconds: float,
        max_import_bytes: int,
        max_points: int,
        max_websockets: int,
        system_metrics_seconds: float = 0.0,
        max_websockets_per_user: int = 32,
    ):
        self.store = store
        self.jobs = jobs
        self.flush_records = flush_records
        self.flush_seconds = flush_seconds
        self.max_import_bytes = max_import_bytes
        self.max_points = max_points  # per query, across its keys
        self.system_metrics_seconds = system_metrics_seconds  # 0: no system metrics sampled
        self.hub = LiveHub(max_websockets, max_websockets_per_user)
        self.watchers: list[StepWatcher] = []  # told of every record read, live or on demand (the diagnostics)
        self._followers: dict[str, JobFollower] = {}
        self._lock = KeyedLocks(asyncio.Lock)  # one per job: one ingestion at a time (the server's loop)

    # ---- following running jobs (called by the supervisor, from any thread) ---------------------

    def job_started(self, job: Job) -> None:
        self._on_loop(self._follow(job))

    def job_ending(self, job: Job) -> None:
        """Store everything the job's files hold before it is settled (waits for it, on the caller's thread)."""
        loop = self.hub.loop
        if loop is None or loop.is_closed() or _on_loop_thread(loop):
            return  # no server loop to read with (or this is it): the follower's finish catches up instead
        try:
            asyncio.run_coroutine_threadsafe(self.sync(job.id), loop).result(timeout=ENDING_DRAIN_TIMEOUT_S)
        except Exception:  # noqa: BLE001 - the job is settled anyway; its finish reads the rest
            log.exception("storing the last metrics of job %s before settling it failed", job.id)

    def job_finished(self, job: Job) -> None:
        self._on_loop(self._finish(job))

    def _on_loop(self, coroutine) -> None:
        loop = self.hub.loop
        if loop is None or loop.is_closed():
            coroutine.close()  # no server loop (CLI use): nobody to stream to; `sync` catches up later
            return
        future = asyncio.run_coroutine_threadsafe(coroutine, loop)
        future.add_done_callback(_log_failure)

    def _ingester(self, job_id: str, source: MetricsSource) -> MetricsIngester:
        return MetricsIngester(
            self.store, job_id, source, self.flush_records, self.flush_seconds, watchers=self.watchers
        )

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
            self._sampler(job),
        )
        self._followers[job.id] = follower
        follower.start()

    def _sampler(self, job: Job) -> SystemSampler | None:
        """The job's system metrics sampler: local jobs only. A Ray job has no local pid (its processes run on the
        cluster's nodes, which this server cannot measure), so it has none."""
        if self.system_metrics_seconds <= 0 or job.pid is None:
            return None
        layout = layout_of(job)
        return SystemSampler(
            job.id,
            self.store,
            self.hub,
            layout.status_path,
            job.pid,
            job.process_started_at,
            job.gpus,
            self.system_metrics_seconds,
        )

    async def _finish(self, job: Job) -> None:
        follower = self._followers.pop(job.id, None)
        if follower is not None:
            await follower.finish()
        elif job.engine != EXTERNAL:
            await self.sync(job.id)  # it ran while no server was following it (settled after a restart)
        self.hub.publish(job.id, await asyncio.to_thread(self.status_message, job.id))
        if job.status in FINISHED:
            self.hub.publish(job.id, finished_message(job.status))

    async def stop_following(self) -> None:
        """Server shutdown: write what was read; the processes keep running and are followed again at start."""
        for follower in list(self._followers.values()):
            await follower.finish()
        self._followers.clear()

    # ---- on demand -------------------------------------------------------------------------------

    async def sync(self, name_or_id: str) -> SyncOut:
        """Ingest now whatever the job's metrics files hold that the store has not got yet."""
        job = await asyncio.to_thread(self.jobs.find, name_or_id)
        follower = self._followers.get(job.id)
        if follower is not None:
            return SyncOut.of(await follower.drain())  # through the follower, so live viewers see these steps too
        async with self._lock(job.id):
            report = IngestReport()
            for source in await asyncio.to_thread(self._sources, job):
                ingester = await asyncio.to_thread(self._ingester, job.id, source)
                report.add(await asyncio.to_thread(ingester.ingest_all))
            return SyncOut.of(report)

    def _sources(self, job: Job) -> list[MetricsSource]:
        if job.engine != EXTERNAL:
            return [LocalFileSource(layout_of(job).metrics_path)]
        return [LocalFileSource(Path(source)) for source, _ in self.store.cursors(job.id)]

    async def import_upload(self, job_name_or_id: str, filename: str, chunks: AsyncIterator[bytes]) -> ImportOut:
        """`tplat metrics ingest`: a metrics file sent by a client, read into the job (an unknown name makes an
        external job, once the file has arrived whole: a refused file leaves nothing behind). The copy is kept in
        the job's private imports (JobLayout.imports_dir), under a name the platform makes of the file's, so no
        client names a file on the server. Sending the file again, grown or rewritten, reads what is new: the copy
        is replaced whole, and the ingest cursor tells a continuation from a rewrite."""
        if not IMPORT_NAME.match(filename):
            message = f"{filename!r} is not a plain file name (letters, digits, '.', '_', '-'; no path)"
            raise InvalidInputError([FieldError("filename", message)])
        staging = self.jobs.jobs_dir / PRIVATE_DIR / f"{uuid.uuid4().hex}.partial"
        try:
            await _receive(chunks, staging, self.max_import_bytes)
            job = await asyncio.to_thread(self.jobs.get_or_create_external, job_name_or_id, f"upload {filename}")
            target = layout_of(job).imports_dir / f"{hashlib.sha256(filename.encode()).hexdigest()[:32]}.jsonl"
            target.parent.mkdir(parents=True, exist_ok=True)
            staging.replace(target)
        finally:
            staging.unlink(missing_ok=True)
        async with self._lock(job.id):
            ingester = await asyncio.to_thread(self._ingester, job.id, LocalFileSource(target))
            report = await asyncio.to_thread(ingester.ingest_all)
        return ImportOut(job_id=job.id, job_name=job.name, **SyncOut.of(report).model_dump())

    # ---- reading ---------------------------------------------------------------------------------

    def query(
        self, name_or_id: str, keys: list[str] | None, start: int | None, end: int | None, max_points: int | None
    ) -> MetricsOut:
        """The series asked for; together never more than `max_points` points (each series downsampled to its
        share of them when there are more)."""
        if start is not None and end is not None and start > end:
            raise InvalidInputError([FieldError("start_step", f"start_step {start} is after end_step {end}")])
        if keys is not None and len(keys) > MAX_QUERY_KEYS:
            raise InvalidInputError([FieldError("keys", f"at most {MAX_QUERY_KEYS} keys in one query")])
        job = self.jobs.find(name_or_id)
        wanted = None if keys is None else set(keys)
        stored = [info.points for info in self.store.keys(job.id) if wanted is None or info.key in wanted]
        if max_points is None and sum(stored) <= self.max_points:
            return self._query(job, keys, start, end, None)  # every point, as stored
        share = self.max_points // max(len(stored), 1)
        if share < 2:  # a series shows at least its first and last point
            message = (
                f"{len(stored)} series at once exceed the limit of {self.max_points} points per query "
                f"(PLATFORM_METRICS_MAX_POINTS); ask for at most {self.max_points // 2} keys"
            )
            raise InvalidInputError([FieldError("keys", message)])
        return self._query(job, keys, start, end, min(max_points or share, share))

    def _query(
        self, job: Job, keys: list[str] | None, start: int | None, end: int | None, max_points: int | None
    ) -> MetricsOut:
        series = self.store.query(job.id, keys, start, end, max_points)
        return MetricsOut(job_id=job.id, series=[SeriesOut.of(s) for s in series])

    def records(self, job_id: str, start_step: int = 0, end_step: int | None = None) -> Iterator[tuple[int, dict]]:
        """A job's whole steps in order, `(step, {key: value})`: what the diagnostics replay."""
        return self.store.records(job_id, start_step, end_step)

    def points(
        self, job_id: str, key: str, start: int | None = None, end: int | None = None
    ) -> list[tuple[int, float]]:
        """Every recorded value of one key, `(step, value)` in step order (never downsampled)."""
        series = self.store.query(job_id, [key], start, end, None)
        return [(step, value) for data in series for step, value in zip(data.steps, data.values, strict=True)]

    def keys(self, name_or_id: str) -> list[KeyOut]:
        return [KeyOut(**vars(info)) for info in self.store.keys(self.jobs.find(name_or_id).id)]

    def anomalies(self, name_or_id: str) -> list[AnomalyOut]:
        anomalies = self.store.anomalies(self.jobs.find(name_or_id).id)
        return [AnomalyOut.model_validate(anomaly, from_attributes=True) for anomaly in anomalies]

    def export(self, name_or_id: str, file_format: str) -> tuple[bytes, str]:
        """All of a job's metrics, one row per step and one column per key (NaN where a step has no value for a
        key), as CSV or Parquet; the file's content and its name."""
        job = self.jobs.find(name_or_id)
        records = list(self.store.records(job.id))
        keys = sorted({key for _, values in records for key in values})
        columns = {"step": pa.array([step for step, _ in records], pa.int64())}
        for key in keys:
            columns[key] = pa.array([values.get(key, math.nan) for _, values in records], pa.float64())
        buffer = io.BytesIO()
        if file_format == "csv":
            # Metric names are text anyone who imports a file chooses; the values stay numbers (-0.5 is no formula).
            names = [spreadsheet_text(name) for name in columns]
            pa_csv.write_csv(pa.Table.from_arrays(list(columns.values()), names=names), buffer)
        else:
            pq.write_table(pa.table(columns), buffer)
        return buffer.getvalue(), f"{job.name}-metrics.{file_format}"

    def status_message(self, job_id: str) -> dict[str, Any]:
        job = self.jobs.find(job_id)
        status = load_status(layout_of(job).status_path)
        data = {
            "job_id": job.id,
            "status": job.status,
            "current_step": status.current_step if status else 0,
            "total_steps": status.total_steps if status else None,
            "anomaly_detected": status.anomaly_detected if status else False,
            "anomaly_reason": status.anomaly_reason if status else None,
        }
        return {"type": "status", "data": data}

    async def live(self, job_id: str, since_step: int) -> AsyncIterator[dict[str, Any]]:
        """Every step after `since_step` (history first, so a reconnecting viewer misses nothing), then live
        `metric` and `status` messages, then `finished` when the job completes, fails or is cancelled."""
        queue = self.hub.subscribe(job_id)  # before reading history, so nothing falls in between
        try:
            history = await self._history(job_id, since_step)
            for step, values in history:
                yield metric_message(step, values)
            sent_up_to = history[-1][0] if history else since_step
            yield await asyncio.to_thread(self.status_message, job_id)
            job = await asyncio.to_thread(self.jobs.find, job_id)
            if not self._is_live(job):
                yield finished_message(job.status)
                return
            while True:
                message = await queue.get()
                if message["type"] == "metric" and message["data"]["step"] <= sent_up_to:
                    continue  # already sent as history
                yield message
                if message["type"] == "finished":
                    return
        finally:
            self.hub.unsubscribe(job_id, queue)

    async def _history(self, job_id: str, since_step: int) -> list[tuple[int, dict[str, float]]]:
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

    def _is_live(self, job: Job) -> bool:
        """A viewer should wait for more: the job has not finished (it may be pending, running or paused)."""
        return job.status not in FINISHED or job.id in self._followers

    async def playback(self, job_id: str, request: PlaybackRequest) -> AsyncIterator[dict[str, Any]]:
        """The recorded steps at `request.speed` of their recorded pace, with progress."""
        records = await asyncio.to_thread(
            lambda: list(self.store.records(job_id, request.start_step or 0, request.end_step))
        )
        async for message in playback(records, request, asyncio.sleep):
            yield message


async def _receive(chunks: AsyncIterator[bytes], staging: Path, limit: int) -> None:
    """Write the chunks to `staging` (never over `limit` bytes; the caller moves it into place or removes it)."""
    staging.parent.mkdir(parents=True, exist_ok=True)
    received = 0
    with open(staging, "wb") as out:
        async for chunk in chunks:
            received += len(chunk)
            if received > limit:
                raise TooLargeError(f"the metrics file is over the limit of {limit} bytes")
            await asyncio.to_thread(out.write, chunk)


def _on_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def _log_failure(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("metrics follower task failed", exc_info=future.exception())


def spreadsheet_text(text: str) -> str:
    """A text cell a spreadsheet shows as the text it is: a formula's first character gets a single quote before it."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text
