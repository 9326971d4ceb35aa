"""Exports of jobs' metrics to their trackers (docs/trackers.md): an outbox kept as one cursor per export.

The platform's metric store is the source: an export reads the steps stored after its cursor, hands them to its
tracker, and moves the cursor only once the tracker took them, so a restarted server resumes where the last one
was and a step is sent once. Ingestion never waits for a tracker: it only tells this service which jobs it read
steps of (`steps_read`, as a metrics watcher), and a worker thread does the rest, retrying a tracker that fails
with a growing wait (alerts/service.py's backoff) while the others go on.

A step is exported once a later step is stored, or the job has ended: until then more of its values may still
arrive (an evaluation logged at the step of a training record). Steps stored at or before the cursor later (a run
resumed from an earlier checkpoint writes its steps again) are not sent again: trackers append.
"""

import logging
import threading
import time
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from datetime import timedelta
from pathlib import Path
from typing import Any

from training_platform.common.backoff import retry_delay
from training_platform.common.destinations import Destinations
from training_platform.contract.layout import JobLayout
from training_platform.contract.metrics import TIMESTAMP
from training_platform.db.tables import Job, TrackerExport
from training_platform.db.types import utcnow
from training_platform.errors import NotFoundError
from training_platform.trackers.adapters import Connections, RunInfo, Step, Tracker, trackers
from training_platform.trackers.schemas import TRACKER_LIST, TrackerExportRead
from training_platform.trackers.store import CLOSED, TrackerStore

log = logging.getLogger(__name__)

BATCH_STEPS = 500  # steps read and sent per pass of one export; the worker comes straight back for more
EXPORTERS = 4  # exports advanced at once: a tracker that hangs until its timeout holds up no other
NOTICE_PATIENCE_SECONDS = 600.0  # how long steps read but never stored (refused by the store) are waited for
ERROR_CHARS = 500

Records = Callable[[str, int], Iterator[tuple[int, dict[str, float]]]]


class TrackerService:
    def __init__(
        self,
        store: TrackerStore,
        find_job: Callable[[str], Job],
        records: Records,
        secret: Callable[[str], str],
        defaults: list[dict[str, Any]],
        ended_statuses: Collection[str],
        sampled_prefix: str,
        poll_seconds: float = 5.0,
        timeout_seconds: float = 10.0,
        backoff_base_seconds: float = 1.0,
        backoff_max_seconds: float = 300.0,
        allowed_networks: Collection[str] = (),
    ):
        self.store = store
        self.find_job = find_job
        self.records = records  # a job's whole steps after a step, in order (the metrics service's)
        # The trackers of a job that names none (PLATFORM_TRACKERS), checked as a job's would be.
        self.defaults = [spec.model_dump(mode="json") for spec in TRACKER_LIST.validate_python(defaults)]
        self.ended_statuses = ended_statuses
        self.sampled_prefix = sampled_prefix  # keys the server samples itself (metrics/system.py): not the run's
        self.poll_seconds = poll_seconds
        self.backoff_base = backoff_base_seconds
        self.backoff_max = backoff_max_seconds
        destinations = Destinations(allowed_networks, "MLflow tracking servers", "PLATFORM_TRACKER_ALLOWED_NETWORKS")
        self.connections = Connections(destinations, timeout_seconds, secret)
        self._open: dict[int, Tracker] = {}  # export id → its adapter, its run open
        self._read: dict[str, tuple[int, float]] = {}  # job id → the highest step read, when
        self._known: set[str] = set()  # jobs whose exports were made (or that have none)
        self._lock = threading.Lock()
        self._exporters = ThreadPoolExecutor(max_workers=EXPORTERS, thread_name_prefix="tracker-export")
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._worker: threading.Thread | None = None

    # ---- told by the metrics ingestion (a StepWatcher: quick, never raises) ---------------------------------------

    def steps_read(self, job_id: str, records: list) -> None:
        if not records:
            return
        highest = max(record.step for record in records)
        with self._lock:
            known = job_id in self._known
            previous = self._read.get(job_id, (-1, 0.0))[0]
            self._read[job_id] = (max(previous, highest), time.monotonic())
        if not known:
            self._wake.set()  # a job's first steps: make its exports now (later ones are found by the poll)

    def exports(self, job_id: str) -> list[TrackerExportRead]:
        """Where each of the job's exports stands (GET /jobs/{job}/trackers)."""
        return [TrackerExportRead.model_validate(export, from_attributes=True) for export in self.store.exports(job_id)]

    # ---- the worker ----------------------------------------------------------------------------------------------

    def start(self) -> None:
        """Export in the background from now on, beginning with what the last server left."""
        if self._worker is not None:
            return
        self._stopping.clear()
        self._wake.set()
        self._worker = threading.Thread(target=self._work, name="tracker-export", daemon=True)
        self._worker.start()

    def close(self) -> None:
        """Stop the worker and let go of the open runs: each export resumes from its cursor at the next start."""
        self._stopping.set()
        self._wake.set()
        if self._worker is not None:
            self._worker.join(timeout=self.connections.timeout_seconds * 3 + 5)
            self._worker = None
        self._exporters.shutdown(wait=True, cancel_futures=True)
        for export_id in list(self._open):
            self._release(export_id)

    def export_due(self) -> bool:
        """One pass: make the exports of jobs seen for the first time, reopen those that steps came after, advance
        every due export by a batch. Whether an export has more to send right away."""
        self._notice()
        due = self.store.due(utcnow())
        more = any(list(self._exporters.map(self._advance, due)))
        self._forget_reached()
        return more

    def _work(self) -> None:
        while not self._stopping.is_set():
            self._wake.clear()  # before looking: steps read from now on make the wait below return at once
            try:
                wait = 0.0 if self.export_due() else self._until_next_due()
            except Exception:  # the database away, say: keep the worker, try again soon
                log.exception("exporting metrics to trackers failed; trying again")
                wait = self.poll_seconds
            self._wake.wait(wait)

    def _until_next_due(self) -> float:
        due = self.store.next_due()
        if due is None:
            return self.poll_seconds
        return min(self.poll_seconds, max(0.0, (due - utcnow()).total_seconds()))

    def _notice(self) -> None:
        with self._lock:
            read = dict(self._read)
            new = [job_id for job_id in read if job_id not in self._known]
        for job_id in new:
            self._make_exports(job_id)
        for job_id, (step, _) in read.items():
            self.store.reopen(job_id, step)

    def _make_exports(self, job_id: str) -> None:
        try:
            job = self.find_job(job_id)
        except NotFoundError:
            with self._lock:
                self._read.pop(job_id, None)
            return
        specs = job.trackers if job.trackers is not None else self.defaults
        if specs and not self.store.has_exports(job_id):
            self.store.add(job_id, specs, utcnow())
        with self._lock:
            self._known.add(job_id)
            if not specs:
                self._read.pop(job_id, None)  # nothing to reopen, ever

    def _forget_reached(self) -> None:
        """Drop what was read once every export of its job has got it (or it was never stored)."""
        with self._lock:
            read = dict(self._read)
        for job_id, (step, when) in read.items():
            exports = self.store.exports(job_id)
            reached = all(export.exported_step is not None and export.exported_step >= step for export in exports)
            if reached or time.monotonic() - when > NOTICE_PATIENCE_SECONDS:
                with self._lock:
                    if self._read.get(job_id) == (step, when):
                        del self._read[job_id]

    # ---- one export ----------------------------------------------------------------------------------------------

    def _advance(self, export: TrackerExport) -> bool:
        """Send the export's next batch, and end its run once its job ended and every step is sent; whether more is
        waiting. A failure leaves the cursor where it was and the export due again after a backoff."""
        if self._stopping.is_set():
            return False
        try:
            job = self.find_job(export.job_id)
        except NotFoundError:
            self._release(export.id)  # the job was deleted, and its exports with it
            return False
        try:
            tracker = self._tracker(export, job)
            ended = job.status in self.ended_statuses  # read before the steps: an ended job's steps are all stored
            steps, more = self._steps_after(job, export.exported_step)
            if not ended and not more:
                steps = steps[:-1]  # the last stored step may still grow: it waits for a later one
            if steps:
                tracker.log(steps)
                self.store.update(export.id, exported_step=steps[-1].step, failures=0, last_error=None)
            if ended and not more:
                tracker.close(job.status, self._final_model(job))
                self._open.pop(export.id, None)
                self.store.update(export.id, status=CLOSED, failures=0, last_error=None)
            if export.failures:
                log.info("job %s: export to %s works again", job.name, export.kind)
            return more
        except Exception as failure:  # noqa: BLE001 (the tracker's, or reading the steps: retried either way)
            failures = export.failures + 1
            error = (f"{type(failure).__name__}: {failure}" if str(failure) else type(failure).__name__)[:ERROR_CHARS]
            wait = retry_delay(failures, self.backoff_base, self.backoff_max)
            if failures == 1 or failures % 20 == 0:
                log.warning("job %s: export to %s failed %d time(s): %s", job.name, export.kind, failures, error)
            self.store.update(
                export.id, failures=failures, last_error=error, next_attempt_at=utcnow() + timedelta(seconds=wait)
            )
            return False

    def _tracker(self, export: TrackerExport, job: Job) -> Tracker:
        """The export's adapter with its run open: opened (or resumed) on first use in this process."""
        tracker = self._open.get(export.id)
        if tracker is not None:
            return tracker
        tracker = trackers[export.kind](export.spec, self.connections)
        run = RunInfo(job.id, export.position, job.name, Path(job.output_dir), _run_params(job), export.run_ref)
        run_ref = tracker.open(run)
        if run_ref != export.run_ref:
            self.store.update(export.id, run_ref=run_ref)
        self._open[export.id] = tracker
        return tracker

    def _steps_after(self, job: Job, exported_step: int | None) -> tuple[list[Step], bool]:
        """Up to BATCH_STEPS steps stored after `exported_step` with values of the run's own, and whether there are
        more. A step without a timestamp (an imported file's) is dated at the job's creation: the same for every
        read of it, so a step sent again is the same step."""
        fallback = job.created_at.timestamp()
        start = 0 if exported_step is None else exported_step + 1
        steps = []
        with closing(self.records(job.id, start)) as stored:
            for step, values in stored:
                exported = {
                    key: value
                    for key, value in values.items()
                    if key != TIMESTAMP and not key.startswith(self.sampled_prefix)
                }
                if exported:
                    steps.append(Step(step, values.get(TIMESTAMP, fallback), exported))
                    if len(steps) > BATCH_STEPS:
                        return steps[:BATCH_STEPS], True
        return steps, False

    def _final_model(self, job: Job) -> str | None:
        """Where the run wrote its final model (a completed run of an engine that writes one), or None."""
        final = JobLayout(job.id, Path(job.output_dir)).final_model_dir
        return str(final) if final.is_dir() else None

    def _release(self, export_id: int) -> None:
        tracker = self._open.pop(export_id, None)
        if tracker is not None:
            try:
                tracker.release()
            except Exception:  # noqa: BLE001 (the server stops, or the job is gone: nothing waits on this run)
                log.exception("letting go of a tracker's run failed")


def _run_params(job: Job) -> dict[str, str]:
    """The job as a tracker's flat parameters: its algorithm parameters (nested ones as `a.b`), engine, model, data."""
    params = {
        "algorithm": job.algorithm,
        "engine": job.engine,
        "run_mode": job.run_mode,
        "model_path": job.model_path,
        "dataset_paths": ",".join(job.dataset_paths),
    }
    params.update(_flat(job.params))
    return params


def _flat(values: dict[str, Any], prefix: str = "") -> dict[str, str]:
    flat = {}
    for key, value in values.items():
        if isinstance(value, dict) and value:
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = str(value)
    return flat
