"""System metrics of a running local job, sampled on an interval into the metric store like its other metrics.

Each sample holds the CPU use and resident memory of the job's process tree (its process and every descendant,
through psutil) and, for each GPU the job was given, NVML's utilisation, memory used and temperature. Where NVML
cannot be loaded (no NVIDIA driver), or a GPU does not report a value, that value is absent, never made up.

A sample is stored at the job's current step (its status file's `current_step`): a later sample in the same step
replaces the earlier one, since the store upserts by (key, step). Keys (custom keys on the wire, charted as such):

    system/cpu_percent             CPU of the tree since the previous sample, in percent of one core (as `top`)
    system/rss_gib                 resident memory of the tree, summed over its processes (shared pages count in each)
    system/gpu<i>/utilization      percent of the last sample period a kernel ran on CUDA device i
    system/gpu<i>/memory_gib       memory used on device i, by any process (a device runs one job at a time)
    system/gpu<i>/temperature_c    device i's temperature, °C

`i` is the job's CUDA index (`Job.gpus`). Those are already the machine's device indices, what `nvidia-smi` and NVML
number them by: `runners/devices.py` reads the server's own CUDA_VISIBLE_DEVICES into them, and the job's process is
given them as its CUDA_VISIBLE_DEVICES in place of the server's. So device i is NVML's device i; it is not the i-th
entry of the server's CUDA_VISIBLE_DEVICES.

No "timestamp" value is written: that key is the trainer's (playback paces by it), and a sample shares its step.
"""

import asyncio
import logging
import math
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import psutil
import pynvml

from training_platform.contract.status import TrainingState, load_status
from training_platform.metrics.live import LiveHub, metric_message
from training_platform.metrics.store import MetricStore

log = logging.getLogger(__name__)

PREFIX = "system/"
CPU_PERCENT = f"{PREFIX}cpu_percent"
RSS_GIB = f"{PREFIX}rss_gib"
GIB = 2**30
# How far a process's start time may be from the one recorded at its launch (as runners/local.py allows): psutil's
# wall-clock start adds /proc/stat's `btime`, a whole second that can step by one; no pid is handed out twice
# within that.
START_TIME_TOLERANCE_S = 1.5
FAILURE_LOG_INTERVAL_S = 60.0

_nvml_failure_logged = False  # NVML that cannot be loaded is said once per server, not once per job


def gpu_key(index: int, name: str) -> str:
    """`system/gpu<index>/<name>`: name is utilization, memory_gib or temperature_c."""
    return f"{PREFIX}gpu{index}/{name}"


class ProcessTree:
    """CPU use and resident memory of a process and all its descendants. Processes that end while being measured
    are left out of that sample; CPU time a process used after the last sample is lost when it ends before the
    next one.

    Each process's CPU time is divided by the time between its own two readings, not by the time between two
    samples' starts: listing and reading a large tree on a busy machine takes long enough that a process read late
    in one sample has used more CPU time than the samples' spacing allows. And a process is known again by psutil's
    identity (its pid and its start in clock ticks since boot), never by its start as a wall-clock time: psutil
    adds /proc/stat's `btime` to that, a whole second the kernel recomputes from the wall clock, which can step by
    one between two samples, and a process that seemed new had its whole CPU time counted in one interval (a
    2-core machine measured 362% and 480%)."""

    def __init__(self, pid: int, started_at: float | None = None, clock: Callable[[], float] = time.monotonic):
        self.pid = pid
        self.started_at = started_at
        self._clock = clock
        self._root: psutil.Process | None = None
        # by process (psutil's identity): CPU seconds used at the last sample, and the clock just before they were read
        self._cpu_seconds: dict[psutil.Process, tuple[float, float]] = {}
        self._last_sample: float | None = None  # the clock when the last sample began

    def sample(self) -> dict[str, float]:
        """`system/cpu_percent` (from the second sample on) and `system/rss_gib`; nothing once the process ended."""
        began = self._clock()  # before listing: a process not listed now starts after it
        members = self._members()
        if not members:
            return {}
        rss, cores_used, cpu_seconds = 0, 0.0, {}
        for process in members:
            try:
                with process.oneshot():
                    # The clock on both sides of the read: this process may be descheduled between reading a
                    # counter and the clock on a busy machine, so the window is measured from the previous read's
                    # start to this one's end, never shorter than the time the counter covers.
                    read_from = self._clock()
                    times = process.cpu_times()
                    read_at = self._clock()
                    resident = process.memory_info().rss
            except (psutil.NoSuchProcess, psutil.AccessDenied):  # ended meanwhile (a zombie too), or not ours
                continue
            used = times.user + times.system
            cpu_seconds[process] = (used, read_from)
            rss += resident
            before = self._cpu_seconds.get(process)
            if before is None and self._last_sample is not None:
                before = (0.0, self._last_sample)  # not listed when the last sample began: all its CPU time is new
            if before is not None and read_at > before[1]:
                cores_used += max(used - before[0], 0.0) / (read_at - before[1])
        values = {RSS_GIB: rss / GIB}
        if self._last_sample is not None:
            values[CPU_PERCENT] = 100.0 * cores_used
        self._cpu_seconds, self._last_sample = cpu_seconds, began
        return values

    def _members(self) -> list[psutil.Process]:
        try:
            if self._root is None:
                root = psutil.Process(self.pid)
                if self.started_at is not None and abs(root.create_time() - self.started_at) > START_TIME_TOLERANCE_S:
                    return []  # the pid was handed to another process: the job's has ended
                self._root = root
            return [self._root, *self._root.children(recursive=True)]  # psutil checks the pid was not reused
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            return []


class GpuProbe:
    """NVML's reading of the given devices. NVML is loaded at the first sample and let go by `close`; where it cannot
    be loaded there are no GPU values at all (logged once per server)."""

    def __init__(self, indices: Sequence[int]):
        self.indices = list(indices)
        self._handles: dict[int, object] | None = None  # None: NVML not tried yet
        self._initialised = False
        self._missing_logged: set[tuple[int, str]] = set()

    def sample(self) -> dict[str, float]:
        handles = self._open()
        values: dict[str, float] = {}
        for index, handle in handles.items():
            for name, read in (
                ("utilization", lambda h: float(pynvml.nvmlDeviceGetUtilizationRates(h).gpu)),
                ("memory_gib", lambda h: pynvml.nvmlDeviceGetMemoryInfo(h).used / GIB),
                ("temperature_c", _temperature),
            ):
                try:
                    values[gpu_key(index, name)] = read(handle)
                except pynvml.NVMLError as error:  # not supported on this device (a MIG slice), or lost
                    self._log_missing(index, name, error)
        return values

    def _open(self) -> dict[int, object]:
        if self._handles is not None:
            return self._handles
        self._handles = {}
        if not self.indices:
            return self._handles
        try:
            pynvml.nvmlInit()
        except pynvml.NVMLError as error:
            global _nvml_failure_logged
            if not _nvml_failure_logged:
                _nvml_failure_logged = True
                log.warning("NVML cannot be loaded (%s): jobs' GPU metrics are not sampled", error)
            return self._handles
        self._initialised = True
        for index in self.indices:
            try:
                self._handles[index] = pynvml.nvmlDeviceGetHandleByIndex(index)
            except pynvml.NVMLError as error:  # PLATFORM_GPUS named a device this machine does not have
                self._log_missing(index, "device", error)
        return self._handles

    def _log_missing(self, index: int, what: str, error: Exception) -> None:
        if (index, what) not in self._missing_logged:
            self._missing_logged.add((index, what))
            log.info("GPU %d: no %s from NVML (%s); not sampled", index, what, error)

    def close(self) -> None:
        if self._initialised:
            self._initialised = False
            try:
                pynvml.nvmlShutdown()
            except pynvml.NVMLError:
                log.debug("NVML shutdown failed", exc_info=True)
        self._handles = None


def _temperature(handle) -> float:
    try:
        return float(pynvml.nvmlDeviceGetTemperature(handle, pynvml.NVML_TEMPERATURE_GPU))
    except pynvml.NVMLError_FunctionNotFound:  # deprecated; gone from drivers after CUDA 14
        return float(pynvml.nvmlDeviceGetTemperatureV(handle, pynvml.NVML_TEMPERATURE_GPU))


class SystemSampler:
    """One local job's system metrics every `interval` seconds, stored at its current step (one small transaction
    per sample, no ingest cursor: the file ingester's position is its own) and sent to its live viewers."""

    def __init__(
        self,
        job_id: str,
        store: MetricStore,
        hub: LiveHub,
        status_path: Path,
        pid: int,
        started_at: float | None,
        gpus: Sequence[int],
        interval: float,
    ):
        self.job_id = job_id
        self.store = store
        self.hub = hub
        self.status_path = status_path
        self.interval = interval
        self.tree = ProcessTree(pid, started_at)
        self.gpus = GpuProbe(gpus)
        self._step = 0
        self._lock = threading.Lock()  # a sample's thread and close never overlap
        self._last_failure_log = -math.inf

    def current_step(self) -> int:
        """The status file's step; the last one read while the file is missing or cannot be read."""
        status = load_status(self.status_path)
        if status is not None and status.status != TrainingState.UNREADABLE:
            self._step = status.current_step
        return self._step

    def sample(self) -> tuple[int, dict[str, float]]:
        """The job's step and the values measured now (none once its process has ended)."""
        with self._lock:
            values = self.tree.sample()
            if values:
                values.update(self.gpus.sample())
            return self.current_step(), values

    def write(self) -> tuple[int, dict[str, float]]:
        """Store a sample at the job's step; none before its first step, so the run's steps (which playback and
        the charts count from 1) are the trainer's own."""
        step, values = self.sample()
        if step < 1:
            return step, {}
        if values:
            self.store.write_batch(self.job_id, {step: values})
        return step, values

    async def run(self, stop: asyncio.Event) -> None:
        """Sample until `stop` is set: at once, then every `interval` seconds."""
        try:
            while not stop.is_set():
                await self._sample_once()
                try:
                    await asyncio.wait_for(stop.wait(), self.interval)
                except TimeoutError:
                    pass
        finally:
            await asyncio.to_thread(self.close)

    async def _sample_once(self) -> None:
        try:
            step, values = await asyncio.to_thread(self.write)
        except Exception as error:  # noqa: BLE001 - a lost sample; the next one is taken as usual
            now = time.monotonic()
            if now - self._last_failure_log >= FAILURE_LOG_INTERVAL_S:
                self._last_failure_log = now
                log.warning("job %s: storing system metrics failed: %s", self.job_id, error, exc_info=True)
            return
        if values:
            self.hub.publish(self.job_id, metric_message(step, values))

    def close(self) -> None:
        with self._lock:
            self.gpus.close()
