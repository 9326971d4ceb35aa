"""Jobs on several devices, end to end through the HTTP API of a real server: on a machine without GPUs,
num_gpus=2 trains with two CPU processes joined over gloo, launched through accelerate as on two GPUs."""

import json
from pathlib import Path

import pytest

from tests.support.helpers import wait_until

pytestmark = pytest.mark.slow

MAX_STEPS = 6
ALGORITHMS = {"sft": dict(learning_rate=1e-3), "dpo": dict(learning_rate=1e-3, beta=0.1, max_length=64)}


def two_process_job(server, demo_assets, algorithm: str) -> dict:
    return server.create_job(
        name=f"{algorithm}-two-processes",
        algorithm=algorithm,
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets[algorithm])],
        # 8 samples a step: 4 per process and pass, no accumulation.
        params=dict(batch_size=8, micro_batch_size=4, num_gpus=2, max_steps=MAX_STEPS, save_interval=2)
        | ALGORITHMS[algorithm],
        start=True,
    )


def metric_steps(job: dict) -> list[int]:
    path = Path(job["output_dir"]) / f"{job['id']}_metrics.jsonl"
    return [json.loads(line)["step"] for line in path.read_text().splitlines()]


def check_paused(server, job: dict) -> int:
    """The step both processes stopped at, checkpointed by both."""
    assert job["status"] == "paused", job["error"]
    pause_step = job["progress"]["last_checkpoint_step"]
    assert 1 <= pause_step < MAX_STEPS and job["exit_code"] == 0
    [checkpoint] = server.api.get(f"/jobs/{job['id']}/checkpoints").json()
    assert (checkpoint["name"], checkpoint["complete"]) == (f"checkpoint-{pause_step}", True)
    checkpoint_dir = Path(job["output_dir"]) / "checkpoints" / checkpoint["name"]
    assert {"rng_state_0.pth", "rng_state_1.pth"} <= {path.name for path in checkpoint_dir.iterdir()}  # two ranks
    return pause_step


def check_completed(server, job: dict, pause_step: int) -> None:
    assert job["status"] == "completed", job["error"]
    status = json.loads((Path(job["output_dir"]) / f"{job['id']}_status.json").read_text())
    assert (status["resumed_from_step"], status["current_step"]) == (pause_step, MAX_STEPS)
    # One line per step: rank 1 writes none, and the second attempt starts right after the checkpoint.
    assert metric_steps(job) == list(range(1, MAX_STEPS + 1))

    def stored_steps():
        series = server.api.get(f"/monitoring/{job['id']}/metrics", params={"keys": "loss"}).json()["series"]
        steps = series[0]["steps"] if series else []
        return steps if len(steps) >= MAX_STEPS else None

    assert wait_until(stored_steps, 30, message="the stored loss series") == list(range(1, MAX_STEPS + 1))
    names = [(c["name"], c["complete"]) for c in server.api.get(f"/jobs/{job['id']}/checkpoints").json()]
    assert names[-1] == ("final", True) and (f"checkpoint-{MAX_STEPS}", True) in names


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_a_two_process_job_pauses_resumes_and_completes_with_one_metrics_stream(server, demo_assets, algorithm):
    job = two_process_job(server, demo_assets, algorithm)
    assert job["status"] == "running", job
    # Asked while the processes start: rank 0 reads it after their first step and both stop there.
    paused = server.api.post(f"/jobs/{job['id']}/pause")
    assert paused.status_code == 202, paused.text
    pause_step = check_paused(server, server.wait_for_status(job["id"], "paused", "failed", "completed", timeout=120))

    resumed = server.api.post(f"/jobs/{job['id']}/resume")
    assert resumed.status_code == 200 and resumed.json()["status"] == "running", resumed.text
    check_completed(server, server.wait_for_status(job["id"], "completed", "failed", timeout=120), pause_step)
