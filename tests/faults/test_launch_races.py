"""No process runs unknown to the database: a stop racing a launch stops the process the launch starts (or the
launch starts none), and a run the server did not live to record is found by its launch id at the next start.
Real processes (a sleeping Python), a fake engine."""

import sys
import threading

import pytest

from tests.support.helpers import session_members, wait_until
from tests.support.jobs import add_job
from training_platform.contract.run import LaunchSpec
from training_platform.db.types import utcnow
from training_platform.errors import ConflictError
from training_platform.jobs import supervisor as supervisor_module
from training_platform.jobs.states import ACTION_SOURCES, JobStatus
from training_platform.jobs.supervisor import JobSupervisor
from training_platform.runners.local import LocalRunner


def sleeper(cwd) -> LaunchSpec:
    return LaunchSpec(argv=[sys.executable, "-c", "import time; time.sleep(120)"], cwd=cwd)


class SleeperEngine:
    def launch_spec(self, spec) -> LaunchSpec:
        return sleeper(spec.layout.root)


class HeldRunner(LocalRunner):
    """Starts a process only once `release` is set: a launch caught between its bookkeeping and the process."""

    def __init__(self):
        super().__init__()
        self.entered, self.release = threading.Event(), threading.Event()
        self.started: list[int] = []

    def start(self, spec, output, launch_id):
        self.entered.set()
        assert self.release.wait(30)
        handle = super().start(spec, output, launch_id)
        self.started.append(handle.local_pid)
        return handle


@pytest.fixture(autouse=True)
def sleeper_engine(monkeypatch):
    monkeypatch.setattr(supervisor_module, "get_engine", lambda _name: SleeperEngine())


def supervisor_with(jobs, runner) -> JobSupervisor:
    return JobSupervisor(jobs, {"local": runner}, stop_grace_seconds=2, cpu_threads=1, stall_seconds=3600)


def start(jobs, job):
    """What the jobs service does on start before it launches: the job moves to running."""
    return jobs.transition(
        job.id, JobStatus.RUNNING, "start", "started", sources=ACTION_SOURCES["start"], attempt=job.attempt + 1
    )


def stop(jobs, supervisor, job_id) -> str:
    """The jobs service's stop of a running job: request, stop the process, settle as cancelled."""
    job = jobs.request_action(job_id, "stop", replace=(None, "pause"))
    supervisor.stop(job)
    try:
        fields = dict(requested_action=None, pid=None, run_ref=None, process_started_at=None)
        jobs.transition(job_id, JobStatus.CANCELLED, "stop", "stopped", sources={JobStatus.RUNNING}, **fields)
    except ConflictError:
        pass  # the exit watcher settled it first
    return jobs.get(job_id).status


def watchers_done() -> bool:
    """The runner's exit watchers have told the supervisor (before the test's database goes away)."""
    return not any(thread.name.startswith("watch-") for thread in threading.enumerate())


def test_a_stop_during_a_launch_stops_the_process_it_starts(jobs, tmp_path):
    runner = HeldRunner()
    supervisor = supervisor_with(jobs, runner)
    job = start(jobs, add_job(jobs, tmp_path, JobStatus.PENDING))
    launch = threading.Thread(target=supervisor.launch, args=(job,))
    launch.start()
    assert runner.entered.wait(30)
    claimed = jobs.get(job.id)
    assert claimed.run_ref.startswith("tplat-") and claimed.pid is None  # recorded before the process exists
    stopping = threading.Thread(target=lambda: results.append(stop(jobs, supervisor, job.id)))
    results = []
    stopping.start()
    stopping.join(1)
    assert stopping.is_alive()  # the stop waits for the launch
    runner.release.set()
    launch.join(30)
    stopping.join(30)
    assert results == ["cancelled"]
    [pid] = runner.started
    wait_until(lambda: session_members(pid) == [], 10, message="the launched process gone")
    wait_until(watchers_done, 10, message="the exit watcher")


def test_a_stop_before_the_launch_claims_its_start_starts_nothing(jobs, tmp_path):
    runner = HeldRunner()
    runner.release.set()
    supervisor = supervisor_with(jobs, runner)
    job = start(jobs, add_job(jobs, tmp_path, JobStatus.PENDING))
    assert stop(jobs, supervisor, job.id) == "cancelled"  # between the start's transition and its launch
    assert supervisor.launch(job).status == "cancelled"
    assert not runner.entered.is_set() and runner.started == []


def test_a_run_the_last_server_did_not_record_is_found_by_its_launch_id(jobs, tmp_path):
    # The process started; the server died before recording it: the job has its launch id and nothing else.
    job = add_job(jobs, tmp_path, JobStatus.RUNNING, attempt=1, started_at=utcnow())
    launch_id = "tplat-0123456789abcdef0123456789abcdef"
    jobs.update(job.id, run_ref=launch_id)
    output = supervisor_module.output_of(supervisor_module.layout_of(job))
    handle = LocalRunner().start(sleeper(tmp_path), output, launch_id)
    # A launch id whose process never started (the server died before starting it) is a lost run.
    never = add_job(jobs, tmp_path, JobStatus.RUNNING, attempt=1, run_ref="tplat-ffffffffffffffffffffffffffffffff")

    supervisor = supervisor_with(jobs, LocalRunner())
    supervisor.recover()
    found = jobs.get(job.id)
    assert (found.status, found.pid, found.run_ref) == ("running", handle.local_pid, str(handle.local_pid))
    assert any("of launch " + launch_id in event.message for event in jobs.events(job.id))
    assert jobs.get(never.id).status == "failed" and "lost" in jobs.get(never.id).error

    assert stop(jobs, supervisor, job.id) == "cancelled"
    wait_until(lambda: session_members(handle.local_pid) == [], 10, message="the found process stopped")
    wait_until(watchers_done, 10, message="the exit watcher")


def test_a_job_of_a_run_mode_no_longer_configured_is_settled_and_the_others_recovered(jobs, tmp_path):
    ray_job = add_job(jobs, tmp_path, JobStatus.RUNNING, attempt=1, run_mode="ray", run_ref="tplat-x")
    jobs.update(ray_job.id, process_started_at=1.0)
    local_job = add_job(jobs, tmp_path, JobStatus.RUNNING, attempt=1)
    supervisor_with(jobs, LocalRunner()).recover()  # this server has no Ray address
    ray_job, local_job = jobs.get(ray_job.id), jobs.get(local_job.id)
    assert ray_job.status == "failed" and "run mode ray is not configured on this server" in ray_job.error
    assert local_job.status == "failed" and "lost" in local_job.error
