"""A verl SFT job submitted to a real Ray head (loopback only, started and stopped by the test)."""

import json
import os
import subprocess
import sys

import pytest

from tests.ray_cluster import LoopbackRayCluster

pytestmark = pytest.mark.slow


@pytest.fixture
def ray_cluster(tmp_path):
    cluster = LoopbackRayCluster(tmp_path)
    cluster.start()
    yield cluster
    cluster.stop()
    assert cluster.pids() == []


def test_a_verl_sft_job_on_ray_completes_and_its_metrics_are_ingested(ray_cluster, tmp_path, demo_assets):
    argv = [
        sys.executable,
        "-m",
        "tests.api.ray_scenario",
        str(tmp_path / "home"),
        ray_cluster.address,
        str(ray_cluster.token_file),
        str(demo_assets["model"]),
        str(demo_assets["sft"]),
    ]
    result = subprocess.run(
        ray_cluster.inside(argv),
        env={**ray_cluster.env, "PYTHONPATH": os.getcwd()},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    job = outcome["job"]
    assert (job["status"], job["run_mode"]) == ("completed", "ray"), job["error"]
    assert job["pid"] is None and any(e.startswith("attempt 1: ray run tplat-") for e in outcome["events"])
    loss = next(k for k in outcome["keys"] if k["key"] == "loss")
    assert (loss["points"], loss["first_step"], loss["last_step"]) == (6, 1, 6)
    assert any("Ray job" in line for line in outcome["log"])  # the driver's output reached the job's log
