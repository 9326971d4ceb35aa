"""A job's last metrics are stored before the job leaves `running`: whoever sees it completed sees all of its
steps (the verl PPO test once read a finished job whose last step was still in the follower's buffer)."""

import json

import pytest

from tests.support.helpers import wait_until
from tests.support.jobs import add_job
from training_platform.db.tables import Job
from training_platform.jobs.runs import layout_of
from training_platform.jobs.states import JobStatus
from training_platform.runners.base import ExitInfo


def running_job(platform) -> Job:
    return add_job(platform.jobs.store, platform.settings.jobs_dir, JobStatus.RUNNING, attempt=1)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_last_steps_are_stored_before_the_job_reads_completed(platform, server_loop):
    job = running_job(platform)
    seen_while_ending = []

    class Probe:
        def job_started(self, job): ...

        def job_ending(self, job):
            seen_while_ending.append(platform.jobs.find(job.id).status)

        def job_finished(self, job): ...

    platform.supervisor.listeners.append(Probe())
    platform.metrics.job_started(job)  # followed as a launched job is
    layout = layout_of(job)
    wait_until(lambda: job.id in platform.metrics._followers, 10, message="the follower")
    with open(layout.metrics_path, "a") as metrics:
        for step in (1, 2, 3):
            metrics.write(json.dumps({"step": step, "loss": {"total_loss": 1.0 / step}}) + "\n")
    layout.status_path.write_text(json.dumps({"job_id": job.id, "status": "completed", "current_step": 3}))
    platform.supervisor.on_exit(job.id, 1, ExitInfo(code=0))
    # The moment it reads completed, all three steps are in the store, though the follower writes only every
    # 100 steps or 30 s: they went in while the job was still running.
    assert platform.jobs.find(job.id).status == "completed"
    [series] = platform.metrics.query(job.id, ["loss"], None, None, None).series
    assert series.steps == [1, 2, 3]
    assert seen_while_ending == ["running"]
