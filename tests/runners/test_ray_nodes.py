"""A verl SFT job over two nodes of a real Ray cluster: two raylets on loopback, each with one (logical) GPU, in
the test's network namespace. The job, asked for two GPUs, runs one torchrun on each node, completes, and its
metrics arrive once each; paused, it stops on both nodes at a checkpoint and resumes from it. A run whose node
fails ends on every node."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.ray_cluster import LoopbackRayCluster

pytestmark = pytest.mark.slow
STEPS = 4


@pytest.fixture(scope="module")
def two_node_cluster(tmp_path_factory):
    cluster = LoopbackRayCluster(tmp_path_factory.mktemp("ray"), gpus_per_node=1)
    try:
        cluster.start()
        cluster.add_node()
        yield cluster
    finally:
        cluster.stop()
    assert cluster.pids() == []


def test_a_verl_sft_job_spans_both_nodes_pauses_resumes_and_completes(two_node_cluster, tmp_path, demo_assets):
    cluster = two_node_cluster
    argv = [
        *(sys.executable, "-m", "tests.support.ray_nodes_scenario", "sft", str(tmp_path / "home"), cluster.address),
        *(str(cluster.token_file), str(demo_assets["model"]), str(demo_assets["sft"]), str(STEPS)),
    ]
    result = subprocess.run(
        cluster.inside(argv),
        env={**cluster.env, "PYTHONPATH": os.getcwd()},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    # The platform counts the cluster's GPUs by node, and refuses a job they cannot hold before it is created.
    assert outcome["node_gpus"] == [1, 1]
    assert outcome["too_many"]["status"] == 422
    [error] = outcome["too_many"]["errors"]
    assert error["field"] == "params.num_gpus" and "4 GPUs asked; the Ray cluster has 2" in error["message"]
    # Paused after its first step: every rank stopped there, and each saved its shard of the checkpoint.
    paused = outcome["paused"]
    assert (outcome["pause"], paused["status"]) == (202, "paused"), (paused["error"], outcome["log"][-60:])
    pause_step = paused["progress"]["last_checkpoint_step"]
    assert 1 <= pause_step < STEPS
    [checkpoint] = outcome["checkpoints_when_paused"]
    assert (checkpoint["step"], checkpoint["complete"]) == (pause_step, True)
    shards = {
        path.name for path in (Path(paused["output_dir"]) / "checkpoints" / f"global_step_{pause_step}").iterdir()
    }
    assert {"model_world_size_2_rank_0.pt", "model_world_size_2_rank_1.pt"} <= shards
    # Resumed on both nodes from that checkpoint, to the end.
    job = outcome["job"]
    assert (outcome["resume"], job["status"], job["run_mode"]) == (200, "completed", "ray"), job["error"]
    assert (outcome["status_file"]["resumed_from_step"], outcome["status_file"]["current_step"]) == (pause_step, STEPS)
    # Ray placed one node rank on each of its two nodes, in each attempt, and both ran their torchrun to the end.
    actors = outcome["node_rank_actors"]
    assert len(actors) == 4 and len({actor["node_id"] for actor in actors}) == 2, actors
    lines = outcome["node_rank_lines"]
    for rank in (0, 1):
        assert lines.count(f"node rank {rank}: torchrun exited with code 0") == 2, lines
    # One metrics stream: rank 0 alone logs, each training step once across both attempts.
    assert outcome["stored_loss_steps"] == list(range(1, STEPS + 1))


def test_when_one_nodes_torchrun_fails_the_others_are_ended(two_node_cluster):
    cluster = two_node_cluster
    argv = [sys.executable, "-m", "tests.support.ray_nodes_scenario", "one_node_fails"]
    result = subprocess.run(
        cluster.inside([*argv, cluster.address, str(cluster.token_file)]),
        env={**cluster.env, "PYTHONPATH": os.getcwd()},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    # Node 0's rank would wait for ever; the launcher ended it once node 1 failed, and the run failed.
    assert outcome["status"] == "FAILED", outcome["log"][-3000:]
    log = outcome["log"]
    assert "rank 0 waits to be ended" in log
    failed, ended = log.index("node rank 1: torchrun exited with code 1"), log.index("node rank 0: torchrun exited")
    assert failed < ended and "got signal: 15" in log  # node 0's torchrun got SIGTERM, which it passes to its ranks
