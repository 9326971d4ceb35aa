"""System metrics of a running job: its process tree's CPU and memory, its GPUs through NVML where there are any,
stored at the job's step and sent to its live viewers; through the metrics service, for a local job only."""

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import psutil
import pynvml
import pytest

from tests.support.helpers import wait_until
from tests.support.jobs import add_job
from training_platform.jobs.runs import layout_of
from training_platform.jobs.states import JobStatus
from training_platform.jobs.store import JobStore
from training_platform.metrics import system
from training_platform.metrics.live import LiveHub
from training_platform.metrics.store import MetricStore
from training_platform.metrics.system import CPU_PERCENT, GIB, RSS_GIB, GpuProbe, ProcessTree, SystemSampler, gpu_key
from training_platform.settings import Settings

# The child allocates (and touches) 150 MiB, says so, then spins; its parent only waits for it.
CHILD = """
import pathlib, sys
data = b"\\x01" * (150 * 2**20)
pathlib.Path(sys.argv[1]).write_text("ready")
while True:
    pass
"""
PARENT = "import subprocess, sys; subprocess.Popen([sys.executable, '-c', sys.argv[1], sys.argv[2]]).wait()"


def start_tree(ready: Path) -> subprocess.Popen:
    """A python process whose child holds 150 MiB and spins, in a session of its own."""
    return subprocess.Popen([sys.executable, "-c", PARENT, CHILD, str(ready)], start_new_session=True)


def end_tree(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(10)


@pytest.fixture
def tree(tmp_path):
    ready = tmp_path / "ready"
    process = start_tree(ready)
    wait_until(ready.exists, 30, message="the child to allocate its memory")
    yield process
    end_tree(process)


@pytest.fixture
def no_nvml_logged(monkeypatch):
    monkeypatch.setattr(system, "_nvml_failure_logged", False)


def gpu_keys(values) -> list[str]:
    return [key for key in values if key.startswith("system/gpu")]


def nvml_loads() -> bool:
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError:
        return False
    pynvml.nvmlShutdown()
    return True


def cpu_use_after(sampler: ProcessTree, last_sample_at: float) -> dict[str, float]:
    """The first sample that finds CPU use, taken half a second after the last one at least, as the sampler's
    interval keeps them apart: the kernel counts CPU time in 10 ms ticks, so a few milliseconds' window reads one
    tick as hundreds of percent."""

    def spaced_sample():
        if time.monotonic() - last_sample_at < 0.5:
            return None
        sample = sampler.sample()
        return sample if sample.get(CPU_PERCENT, 0) > 10 else None

    return wait_until(spaced_sample, 30, message="CPU use")


# ---- the process tree ----------------------------------------------------------------------------------------


def test_the_tree_counts_the_memory_and_cpu_of_the_process_and_its_descendants(tree):
    root = psutil.Process(tree.pid)
    assert root.memory_info().rss / GIB < 0.1  # the memory is the child's: only the tree holds it
    sampler = ProcessTree(tree.pid, root.create_time())
    first = sampler.sample()
    assert first[RSS_GIB] >= 0.14 and CPU_PERCENT not in first  # CPU use needs a previous sample to measure from
    # The child spins: a whole core between two samples (at least some of one on a busy machine).
    sample = cpu_use_after(sampler, time.monotonic())
    assert sample[RSS_GIB] >= 0.14 and sample[CPU_PERCENT] < 100 * (os.cpu_count() or 1) + 50
    assert gpu_keys(sample) == []


def test_a_slow_reading_on_a_busy_machine_does_not_count_more_cpu_than_the_cores_have(tree):
    """The samples' spacing is not the window a process's CPU time was used in: here the second sample's listing
    takes a second (as on a loaded machine), so the spinning child's CPU time covers that second while the samples
    start milliseconds apart. Dividing by their spacing read several thousand percent."""
    sampler = ProcessTree(tree.pid)
    members = sampler._members
    sampler.sample()

    def slow_listing():
        listed = members()
        time.sleep(1.0)
        return listed

    sampler._members = slow_listing
    percent = sampler.sample()[CPU_PERCENT]
    assert 0 < percent <= 100 * (os.cpu_count() or 1) + 10


def test_a_step_of_the_kernels_boot_time_does_not_make_a_running_process_new(tree, monkeypatch):
    """psutil's wall-clock start time adds /proc/stat's btime, a whole second the kernel recomputes from the wall
    clock: when it steps by one between two samples, the processes are still the ones sampled before (a process
    taken for new had its whole CPU time counted in one interval: 480% on this 2-core machine)."""
    sampler = ProcessTree(tree.pid, psutil.Process(tree.pid).create_time())
    sampler.sample()
    boot = psutil._pslinux.boot_time()
    # What the kernel does when the wall clock steps: a test cannot step this machine's clock, so psutil reads the
    # stepped btime here; the processes, their counters and the sampler are real.
    monkeypatch.setattr(psutil._pslinux, "boot_time", lambda: boot + 1)
    sample = cpu_use_after(sampler, time.monotonic())
    assert sample[CPU_PERCENT] <= 100 * (os.cpu_count() or 1) + 10
    assert ProcessTree(tree.pid, psutil.Process(tree.pid).create_time() - 1).sample()  # the job's own process still


def test_a_process_that_vanishes_mid_sample_is_left_out(tree):
    gone = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    vanished = psutil.Process(gone.pid)
    sampler = ProcessTree(tree.pid)
    members = sampler._members()
    assert len(members) == 2  # the parent and its child
    gone.kill()
    gone.wait(10)
    sampler._members = lambda: [*members, vanished]  # listed, then gone before it is measured
    sampler.sample()
    sample = wait_until(lambda: CPU_PERCENT in (s := sampler.sample()) and s, 10, message="a sample")
    assert sample[RSS_GIB] >= 0.14


def test_an_ended_or_replaced_process_gives_no_sample(tmp_path):
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    started_at = psutil.Process(process.pid).create_time()
    process.wait(10)
    assert ProcessTree(process.pid, started_at).sample() == {}
    # A pid now held by another process (the job's ended, and its pid was handed on): not the job's.
    assert ProcessTree(os.getpid(), psutil.Process().create_time() - 100).sample() == {}


# ---- GPUs ----------------------------------------------------------------------------------------------------


@pytest.mark.skipif(nvml_loads(), reason="this machine has an NVIDIA driver")
def test_without_a_gpu_driver_there_are_no_gpu_values_and_it_is_said_once(no_nvml_logged, caplog):
    caplog.set_level(logging.INFO, logger=system.__name__)
    probes = [GpuProbe([0, 1]), GpuProbe([0])]
    assert [probe.sample() for probe in probes for _ in range(2)] == [{}] * 4
    for probe in probes:
        probe.close()
    said = [record.message for record in caplog.records if record.name == system.__name__]
    assert len(said) == 1 and "NVML cannot be loaded" in said[0]


def test_a_failing_nvml_gives_no_gpu_values(no_nvml_logged, monkeypatch, caplog):
    def fail():
        raise pynvml.NVMLError(pynvml.NVML_ERROR_DRIVER_NOT_LOADED)

    monkeypatch.setattr(pynvml, "nvmlInit", fail)
    probe = GpuProbe([0])
    assert probe.sample() == {} and probe.sample() == {}
    probe.close()
    assert GpuProbe([3]).sample() == {}
    assert len([r for r in caplog.records if "NVML cannot be loaded" in r.message]) == 1


def test_gpu_values_are_read_by_the_jobs_cuda_indices(monkeypatch):
    """NVML replaced by a stand-in (no GPU here): which devices are asked, under which keys, what is left out."""
    calls = []

    def handle(index):
        if index == 7:
            raise pynvml.NVMLError(pynvml.NVML_ERROR_INVALID_ARGUMENT)  # a device this machine does not have
        return f"device{index}"

    def temperature(device, sensor):
        if device == "device3":
            raise pynvml.NVMLError(pynvml.NVML_ERROR_NOT_SUPPORTED)
        return 61

    monkeypatch.setattr(pynvml, "nvmlInit", lambda: calls.append("init"))
    monkeypatch.setattr(pynvml, "nvmlShutdown", lambda: calls.append("shutdown"))
    monkeypatch.setattr(pynvml, "nvmlDeviceGetHandleByIndex", handle)
    monkeypatch.setattr(pynvml, "nvmlDeviceGetUtilizationRates", lambda device: SimpleNamespace(gpu=87, memory=40))
    monkeypatch.setattr(pynvml, "nvmlDeviceGetMemoryInfo", lambda device: SimpleNamespace(used=3 * GIB))
    monkeypatch.setattr(pynvml, "nvmlDeviceGetTemperature", temperature)
    probe = GpuProbe([2, 3, 7])
    assert probe.sample() == {
        "system/gpu2/utilization": 87.0,
        "system/gpu2/memory_gib": 3.0,
        "system/gpu2/temperature_c": 61.0,
        "system/gpu3/utilization": 87.0,
        "system/gpu3/memory_gib": 3.0,
    }
    probe.sample()
    probe.close()
    assert calls == ["init", "shutdown"]  # loaded once per job, and let go
    assert gpu_key(0, "utilization") == "system/gpu0/utilization"


def test_a_job_without_gpus_does_not_load_nvml(monkeypatch):
    monkeypatch.setattr(pynvml, "nvmlInit", lambda: pytest.fail("NVML loaded for a job without GPUs"))
    assert GpuProbe([]).sample() == {}


# ---- the sampler: at the job's step, into the store and to the viewers ----------------------------------------


def write_status(path: Path, step: int) -> None:
    path.write_text(
        json.dumps({"job_id": path.name.removesuffix("_status.json"), "status": "running", "current_step": step})
    )


def test_the_sampler_writes_at_the_status_files_step(db, tmp_path):
    store = MetricStore(db)
    job = add_job(JobStore(db), tmp_path, JobStatus.RUNNING)
    status_path = layout_of(job).status_path
    sampler = SystemSampler(job.id, store, LiveHub(), status_path, os.getpid(), None, [], 5.0)
    assert sampler.write() == (0, {})  # no status file yet: step 0, before the run's first step, is not stored
    write_status(status_path, 7)
    step, values = sampler.write()
    # The tree is this process and whatever children earlier tests of the session left it: at least its own RSS.
    assert step == 7 and values[RSS_GIB] >= 0.9 * psutil.Process().memory_info().rss / GIB
    status_path.write_text("{not json")  # unreadable: the last step read
    step, values = sampler.write()  # a later sample in the same step replaces the earlier one (2 points, not 3)
    assert step == 7 and set(values) == {CPU_PERCENT, RSS_GIB}
    write_status(status_path, 9)
    sampler.write()
    sampler.close()
    records = dict(store.records(job.id))
    assert sorted(records) == [7, 9]
    assert records[7][CPU_PERCENT] == values[CPU_PERCENT] and records[7][RSS_GIB] > 0
    assert "timestamp" not in records[7]  # the trainer's key, not the sampler's
    assert {info.key: info.points for info in store.keys(job.id)} == {CPU_PERCENT: 2, RSS_GIB: 2}


def test_the_sampler_tells_live_viewers_and_stops_when_asked(db, tmp_path):
    store = MetricStore(db)
    job = add_job(JobStore(db), tmp_path, JobStatus.RUNNING)
    write_status(layout_of(job).status_path, 3)
    hub = LiveHub()
    sampler = SystemSampler(job.id, store, hub, layout_of(job).status_path, os.getpid(), None, [], 0.1)

    async def watch():
        queue = hub.subscribe(job.id)
        stop = asyncio.Event()
        task = asyncio.create_task(sampler.run(stop))
        messages = [await asyncio.wait_for(queue.get(), 10) for _ in range(2)]
        stop.set()
        await asyncio.wait_for(task, 10)
        return messages

    messages = asyncio.run(watch())
    assert [m["type"] for m in messages] == ["metric", "metric"]
    assert messages[0]["data"]["step"] == 3 and set(messages[0]["data"]["custom"]) == {RSS_GIB}
    assert set(messages[1]["data"]["custom"]) == {CPU_PERCENT, RSS_GIB}
    assert 3 in dict(store.records(job.id))


def test_the_interval_is_bounded():
    assert Settings.model_fields["system_metrics_seconds"].default == 5.0
    assert Settings(system_metrics_seconds=0).system_metrics_seconds == 0  # off
    assert Settings(system_metrics_seconds=0.1).system_metrics_seconds == 0.1
    for wrong in (-1, 0.01, 3601):
        with pytest.raises(ValueError):
            Settings(system_metrics_seconds=wrong)


# ---- through the metrics service -----------------------------------------------------------------------------


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"system_metrics_seconds": 0.2})


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_running_local_jobs_system_metrics_reach_the_store(platform, server_loop, tmp_path):
    ready = tmp_path / "ready"
    process = start_tree(ready)
    try:
        wait_until(ready.exists, 30, message="the child to allocate its memory")
        job = add_job(
            platform.jobs.store,
            platform.settings.jobs_dir,
            JobStatus.RUNNING,
            attempt=1,
            pid=process.pid,
            process_started_at=psutil.Process(process.pid).create_time(),
        )
        write_status(layout_of(job).status_path, 4)
        platform.metrics.job_started(job)  # followed as a launched job is

        def stored():
            keys = {info.key: info for info in platform.metrics.keys(job.id)}
            return CPU_PERCENT in keys and keys

        keys = wait_until(stored, 30, message="system metrics in the store")
        assert set(keys) == {CPU_PERCENT, RSS_GIB} and keys[RSS_GIB].last_step == 4
        [series] = platform.metrics.query(job.id, [RSS_GIB], None, None, None).series
        assert series.steps == [4] and series.values[0] >= 0.14
        follower = platform.metrics._followers[job.id]
        asyncio.run_coroutine_threadsafe(platform.metrics._finish(job), server_loop).result(30)
        assert follower.sampler_task.done() and not follower.sampler_task.cancelled()
    finally:
        end_tree(process)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_ray_job_has_no_sampler(platform, server_loop):
    job = add_job(platform.jobs.store, platform.settings.jobs_dir, JobStatus.RUNNING, attempt=1, run_mode="ray")
    platform.metrics.job_started(job)
    follower = wait_until(lambda: platform.metrics._followers.get(job.id), 10, message="the follower")
    assert follower.sampler is None and follower.sampler_task is None
