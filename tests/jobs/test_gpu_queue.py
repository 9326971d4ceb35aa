"""GPUs as a resource the platform owns (jobs/scheduler.py), with device counts set by PLATFORM_GPUS: each job
runs with the devices it asked for as CUDA_VISIBLE_DEVICES, a job whose devices are busy waits in a first-in,
first-out queue, and a restarted server rebuilds who holds what from the database. Real service, supervisor and
processes on SQLite and PostgreSQL; the engine is a short Python process that writes what devices it was given,
then waits for the test to let it complete."""

import sys
import threading
from pathlib import Path

import pytest

from tests.support.helpers import wait_until
from tests.support.jobs import add_job
from training_platform.contract.run import LaunchSpec
from training_platform.db import Database
from training_platform.db.types import utcnow
from training_platform.errors import ConflictError, InvalidInputError
from training_platform.jobs import supervisor as supervisor_module
from training_platform.jobs.schemas import JobCreate
from training_platform.jobs.states import JobStatus
from training_platform.jobs.store import JobStore
from training_platform.platform import Platform
from training_platform.runners.devices import parse_gpu_setting, visible_gpus
from training_platform.runners.local import LocalRunner

SFT_PARAMS = {"learning_rate": 1e-3, "batch_size": 6, "micro_batch_size": 2, "max_steps": 5}
# What a job's process saw: the devices it was given; it completes once the test writes `finish` beside it.
DEVICE_REPORTER = """
import os, pathlib, sys, time
from training_platform.contract.status import StatusReporter, TrainingState
root, status_path, job_id = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
(root / "devices.txt").write_text(os.environ.get("CUDA_VISIBLE_DEVICES", "unset"))
while not (root / "finish").exists():
    time.sleep(0.05)
StatusReporter.starting(status_path, job_id).finish(TrainingState.COMPLETED, "done")
"""


def reporter_spec(layout) -> LaunchSpec:
    argv = [sys.executable, "-c", DEVICE_REPORTER, str(layout.root), str(layout.status_path), layout.job_id]
    return LaunchSpec(argv=argv, cwd=layout.root)


class DeviceReporterEngine:
    def launch_spec(self, spec) -> LaunchSpec:
        return reporter_spec(spec.layout)


@pytest.fixture(autouse=True)
def device_reporter(monkeypatch):
    monkeypatch.setattr(supervisor_module, "get_engine", lambda _name: DeviceReporterEngine())


@pytest.fixture
def open_platform(settings):
    """Opens the platform on the test's home with PLATFORM_GPUS set to what it is given, and recovers its jobs as
    a server does when it starts; closed at the end."""
    opened: list[Platform] = []

    def open_with(gpus: str, **more) -> Platform:
        opened.append(Platform.open(settings.model_copy(update={"gpus": gpus, **more})))
        opened[-1].jobs.recover()
        return opened[-1]

    yield open_with
    for platform in opened:
        if platform.home_lock is not None:
            platform.close()


def create(platform: Platform, demo_assets, name: str, start: bool = True, **params) -> str:
    body = JobCreate(
        name=name,
        algorithm="sft",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        params={**SFT_PARAMS, **params},
        start=start,
    )
    return platform.jobs.create(body).id


def devices_seen(platform: Platform, job_id: str) -> str:
    path = Path(platform.jobs.find(job_id).output_dir) / "devices.txt"
    # The process makes the file, then writes it: read once it holds what the process saw ("unset" at least).
    return wait_until(lambda: path.is_file() and path.read_text(), 30, message=f"job {job_id}'s process started")


def finish(platform: Platform, job_id: str) -> None:
    (Path(platform.jobs.find(job_id).output_dir) / "finish").touch()
    wait_until(lambda: platform.jobs.get(job_id).status == "completed", 30, message=f"job {job_id} completed")


def messages(platform: Platform, job_id: str) -> list[str]:
    return [event.message for event in platform.jobs.events(job_id)]


def test_jobs_get_distinct_devices_and_wait_in_order_for_busy_ones(open_platform, demo_assets):
    platform = open_platform("2")
    first, second, third, fourth = (create(platform, demo_assets, f"job-{n}") for n in range(4))
    assert [platform.jobs.get(job).gpus for job in (first, second)] == [[0], [1]]
    assert {devices_seen(platform, first), devices_seen(platform, second)} == {"0", "1"}
    queued = [platform.jobs.get(job) for job in (third, fourth)]
    assert [(job.status, job.queue_position, job.gpus) for job in queued] == [("queued", 1, []), ("queued", 2, [])]
    assert queued[0].allowed_actions == ["stop"]
    assert messages(platform, fourth)[-1] == "started by user; queued: waiting for 1 GPU, position 2"
    with pytest.raises(ConflictError, match="it is queued"):
        platform.jobs.delete(third, delete_files=True)

    assert platform.jobs.stop(third).status == "cancelled"  # a queued job stopped: the next one moves up
    assert platform.jobs.get(fourth).queue_position == 1
    finish(platform, first)
    wait_until(lambda: platform.jobs.get(fourth).status == "running", 30, message="the queued job started")
    assert platform.jobs.get(fourth).gpus == [0] and devices_seen(platform, fourth) == "0"
    assert platform.jobs.get(first).gpus == []  # a settled job holds nothing
    assert "got GPUs 0" in messages(platform, fourth)
    finish(platform, second)
    finish(platform, fourth)


def test_jobs_started_side_by_side_never_share_a_device(open_platform, demo_assets):
    platform = open_platform("3")
    jobs = [create(platform, demo_assets, f"racer-{n}", start=False) for n in range(4)]
    barrier = threading.Barrier(len(jobs))

    def start(job: str) -> None:
        barrier.wait()
        platform.jobs.start(job)

    threads = [threading.Thread(target=start, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    views = [platform.jobs.get(job) for job in jobs]
    running = [view for view in views if view.status == "running"]
    assert sorted(gpu for view in running for gpu in view.gpus) == [0, 1, 2]
    assert [view.queue_position for view in views if view.status == "queued"] == [1]
    for view in running:
        assert devices_seen(platform, view.id) == str(view.gpus[0])
    for view in sorted(views, key=lambda view: view.status == "queued"):
        finish(platform, view.id)  # the queued one last: it starts once a device frees up


def test_a_resumed_job_waits_for_a_busy_gpu_like_a_started_one(open_platform, demo_assets, tmp_path):
    platform = open_platform("1")
    running = create(platform, demo_assets, "holder")
    failed = add_job(platform.jobs.store, tmp_path, JobStatus.FAILED, params=SFT_PARAMS, attempt=1)
    resumed = platform.jobs.resume(failed.id)
    assert (resumed.status, resumed.queue_position, resumed.attempt) == ("queued", 1, 1)
    finish(platform, running)
    wait_until(lambda: platform.jobs.get(failed.id).status == "running", 30, message="the resumed job started")
    assert platform.jobs.get(failed.id).attempt == 2 and devices_seen(platform, failed.id) == "0"
    finish(platform, failed.id)


def test_more_gpus_than_the_server_has_is_refused_at_create_and_at_start(open_platform, demo_assets):
    platform = open_platform("0,1")
    with pytest.raises(InvalidInputError) as caught:
        create(platform, demo_assets, "too-big", num_gpus=3)
    [error] = caught.value.errors
    assert error.field == "params.num_gpus"
    assert error.message == "asks for 3 GPUs, but this server has 2 (GPUs 0,1); ask for at most 2"
    assert platform.jobs.list_jobs([], 10, 0) == []

    job = create(platform, demo_assets, "too-big", start=False, num_gpus=3)  # a pending job may be made
    with pytest.raises(InvalidInputError, match="asks for 3 GPUs"):
        platform.jobs.start(job)
    assert platform.jobs.get(job).status == "pending"


def test_without_gpus_nothing_is_allocated_or_queued(open_platform, demo_assets):
    platform = open_platform("0", cpu_processes=3)  # no GPUs: num_gpus counts CPU processes, up to the setting
    with pytest.raises(InvalidInputError) as caught:
        create(platform, demo_assets, "too-many", num_gpus=16384, batch_size=16384, micro_batch_size=1)
    [error] = [error for error in caught.value.errors if error.field == "params.num_gpus"]
    assert "more than the 3 it allows (PLATFORM_CPU_PROCESSES)" in error.message
    job = create(platform, demo_assets, "cpu", num_gpus=3)
    assert platform.jobs.get(job).status == "running" and platform.jobs.get(job).gpus == []
    assert devices_seen(platform, job) == "unset"
    finish(platform, job)


def test_a_restarted_server_keeps_what_running_jobs_hold_and_schedules_the_queue(open_platform, settings, tmp_path):
    # What the last server left in the database: a job running on GPU 0, two queued behind it.
    db = Database(settings.database_url)
    db.upgrade()
    store = JobStore(db)
    params = {**SFT_PARAMS, "num_gpus": 1}
    running = add_job(store, tmp_path, JobStatus.RUNNING, params=params, attempt=1, started_at=utcnow(), gpus=[0])
    handle = LocalRunner().start(
        reporter_spec(supervisor_module.layout_of(running)),
        supervisor_module.output_of(supervisor_module.layout_of(running)),
        "tplat-restart",
    )
    store.update(running.id, pid=handle.local_pid, run_ref=handle.ref, process_started_at=handle.started_at)
    queued = [add_job(store, tmp_path, JobStatus.QUEUED, params=params, queued_at=utcnow()) for _ in range(2)]
    db.dispose()

    platform = open_platform("2")  # this server has one more GPU than the running job holds
    assert platform.jobs.get(running.id).gpus == [0]  # re-attached, keeping its device
    wait_until(lambda: platform.jobs.get(queued[0].id).status == "running", 30, message="the head of the queue")
    assert platform.jobs.get(queued[0].id).gpus == [1] and devices_seen(platform, queued[0].id) == "1"
    assert platform.jobs.get(queued[1].id).queue_position == 1

    finish(platform, running.id)
    wait_until(lambda: platform.jobs.get(queued[1].id).status == "running", 30, message="the next in the queue")
    assert platform.jobs.get(queued[1].id).gpus == [0] and devices_seen(platform, queued[1].id) == "0"
    finish(platform, queued[0].id)
    finish(platform, queued[1].id)


def test_a_queued_job_that_can_never_fit_after_a_restart_fails_and_lets_the_queue_move(
    open_platform, settings, tmp_path
):
    db = Database(settings.database_url)
    db.upgrade()
    store = JobStore(db)
    big = add_job(store, tmp_path, JobStatus.QUEUED, params={**SFT_PARAMS, "num_gpus": 3}, queued_at=utcnow())
    small = add_job(store, tmp_path, JobStatus.QUEUED, params={**SFT_PARAMS, "num_gpus": 1}, queued_at=utcnow())
    db.dispose()

    platform = open_platform("1")  # one GPU where there were more
    failed = platform.jobs.get(big.id)
    assert failed.status == "failed" and failed.error.startswith("cannot run: asks for 3 GPUs")
    wait_until(lambda: platform.jobs.get(small.id).status == "running", 30, message="the job behind it")
    finish(platform, small.id)


def test_queued_jobs_run_on_the_cpu_once_the_server_has_no_gpus(open_platform, settings, tmp_path):
    db = Database(settings.database_url)
    db.upgrade()
    queued = add_job(JobStore(db), tmp_path, JobStatus.QUEUED, params={**SFT_PARAMS, "num_gpus": 3}, queued_at=utcnow())
    db.dispose()
    platform = open_platform("0")
    wait_until(lambda: platform.jobs.get(queued.id).status == "running", 30, message="the queued job on the CPU")
    assert platform.jobs.get(queued.id).gpus == [] and devices_seen(platform, queued.id) == "unset"
    finish(platform, queued.id)


@pytest.mark.parametrize(
    ("count", "visible", "expected"),
    [
        (4, None, [0, 1, 2, 3]),
        (4, "2,3", [2, 3]),
        (4, "3,1,7,0", [3, 1]),  # as CUDA reads it: the list ends at the first entry that names no device
        (4, "", []),
        (4, "-1", []),
        (0, "0,1", []),  # no driver: nothing, whatever the variable says
    ],
)
def test_the_servers_cuda_visible_devices_says_which_gpus_are_the_platforms(count, visible, expected):
    environ = {} if visible is None else {"CUDA_VISIBLE_DEVICES": visible}
    assert visible_gpus(count, environ) == expected


def test_a_gpu_uuid_in_cuda_visible_devices_asks_for_platform_gpus():
    with pytest.raises(ValueError, match="set PLATFORM_GPUS"):
        visible_gpus(2, {"CUDA_VISIBLE_DEVICES": "GPU-8f3c"})


def test_platform_gpus_is_a_count_or_a_list_of_devices():
    assert parse_gpu_setting("4") == [0, 1, 2, 3]
    assert parse_gpu_setting("0") == []
    assert parse_gpu_setting("3, 1") == [1, 3]
    assert parse_gpu_setting("2,") == [2]
