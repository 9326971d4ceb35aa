"""A verl SFT job submitted to a real Ray head (loopback only, started and stopped by the test), through faults:
the dashboard unreachable for a while, then the platform server restarted while the job trains. The job
completes, its metrics are all ingested, and its log holds exactly Ray's copy of the driver's output."""

import json
import os
import subprocess
import sys

import pytest

from tests.support.ray_cluster import LoopbackRayCluster

pytestmark = pytest.mark.slow
STEPS = 200


@pytest.fixture(scope="module")
def ray_cluster(tmp_path_factory):
    cluster = LoopbackRayCluster(tmp_path_factory.mktemp("ray"))
    cluster.start()
    yield cluster
    cluster.stop()
    assert cluster.pids() == []


def test_a_job_outlives_its_dashboard_being_unreachable_and_a_restarted_server_follows_it_to_its_end(
    ray_cluster, tmp_path, demo_assets
):
    argv = [
        *(sys.executable, "-m", "tests.support.ray_scenario", str(tmp_path / "home")),
        *(ray_cluster.address, str(ray_cluster.token_file), str(demo_assets["model"]), str(demo_assets["sft"])),
    ]
    result = subprocess.run(
        ray_cluster.inside(argv),
        env={**ray_cluster.env, "PYTHONPATH": os.getcwd()},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    job = outcome["job"]
    assert (job["status"], job["run_mode"]) == ("completed", "ray"), job["error"]
    assert job["pid"] is None and any(e.startswith("attempt 1: ray run tplat-") for e in outcome["events"])
    loss = next(k for k in outcome["keys"] if k["key"] == "loss")
    assert (loss["points"], loss["first_step"], loss["last_step"]) == (STEPS, 1, STEPS)
    # Every byte the driver printed is in the job's log once: nothing lost across the faults, nothing repeated.
    assert outcome["log_after_banner"] == outcome["ray_log"]
    # The cluster came back, and the server was restarted, while the job was still training.
    assert outcome["step_when_restored"] <= outcome["step_when_restarted"] < STEPS
    assert any(e.startswith("re-attached to ray run tplat-") for e in outcome["events"])
