"""End to end through the HTTP API of a real server: real training processes on the CPU."""

import json
import os
import signal
import statistics
from pathlib import Path

import psutil
import pytest

from tests.support.helpers import ServerProcess, wait_until
from tests.support.jobs import example_params, sft_body

pytestmark = pytest.mark.slow


def metric_lines(job: dict) -> list[dict]:
    path = Path(job["output_dir"]) / f"{job['id']}_metrics.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def losses(job: dict) -> list[float]:
    return [line["loss"]["total_loss"] for line in metric_lines(job)]


def group_alive(pgid: int) -> bool:
    for proc in psutil.process_iter():
        try:
            if os.getpgid(proc.pid) == pgid and proc.status() != psutil.STATUS_ZOMBIE:
                return True
        except (ProcessLookupError, psutil.Error):
            pass
    return False


@pytest.fixture(scope="module")
def sft_job(server, demo_assets) -> dict:
    job = server.create_job(**sft_body(demo_assets, "sft-e2e"))
    assert server.api.post(f"/jobs/{job['id']}/start").status_code == 200
    return server.wait_for_status(job["id"], "completed", "failed", timeout=300)


def test_sft_trains_on_cpu_and_its_loss_falls(server, sft_job):
    assert sft_job["status"] == "completed", sft_job["error"]
    values = losses(sft_job)
    assert len(values) == 200
    assert values[-1] < values[0] * 0.2, values
    assert sft_job["progress"]["current_step"] == 200 and sft_job["exit_code"] == 0

    checkpoints = server.api.get(f"/jobs/{sft_job['id']}/checkpoints").json()
    # Every 50 steps, and only the newest 3 are kept (save_total_limit's default).
    assert [(c["name"], c["step"], c["complete"]) for c in checkpoints] == [
        ("checkpoint-100", 100, True),
        ("checkpoint-150", 150, True),
        ("checkpoint-200", 200, True),
        ("final", None, True),
    ]
    events = server.api.get(f"/jobs/{sft_job['id']}/events").json()
    assert [(e["from_status"], e["to_status"]) for e in events if e["kind"] == "status"] == [
        ("pending", "running"),
        ("running", "completed"),
    ]


def test_logs_can_be_tailed_filtered_and_downloaded(server, sft_job):
    tail = server.api.get(f"/jobs/{sft_job['id']}/logs", params={"lines": 5}).json()
    assert tail["stream"] == "stdout" and len(tail["lines"]) == 5
    found = server.api.get(f"/jobs/{sft_job['id']}/logs", params={"contains": "train_runtime"}).json()["lines"]
    assert len(found) == 1 and "train_runtime" in found[0]
    download = server.api.get(f"/jobs/{sft_job['id']}/logs/download", params={"stream": "stderr"})
    assert download.status_code == 200 and "===== " in download.text
    assert "sft-e2e-stderr.log" in download.headers["content-disposition"]


def test_dpo_trains_and_its_loss_falls(server, demo_assets):
    body = dict(
        name="dpo-e2e",
        algorithm="dpo",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["dpo"])],
        params=example_params("trl-dpo"),
        start=True,
    )
    job = server.create_job(**body)
    job = server.wait_for_status(job["id"], "completed", "failed")
    assert job["status"] == "completed", job["error"]
    values = losses(job)
    assert abs(values[0] - 0.6931) < 1e-3  # policy == reference at the start: -log(sigmoid(0))
    assert statistics.mean(values[-5:]) < values[0] - 0.15, values
    names = [c["name"] for c in server.api.get(f"/jobs/{job['id']}/checkpoints").json()]
    assert names == ["checkpoint-12", "checkpoint-24", "final"]


def test_grpo_continues_from_the_sft_model_with_rule_rewards(server, demo_assets, sft_job):
    body = dict(
        name="grpo-e2e",
        algorithm="grpo",
        model_path=str(Path(sft_job["output_dir"]) / "final"),
        dataset_paths=[str(demo_assets["grpo"])],
        params=example_params("trl-grpo"),
        start=True,
    )
    job = server.wait_for_status(server.create_job(**body)["id"], "completed", "failed")
    assert job["status"] == "completed", job["error"]
    lines = metric_lines(job)
    assert [line["step"] for line in lines] == [1, 2, 3, 4]
    format_rewards = [line["custom"]["rewards/format_check_pattern/mean"] for line in lines]
    # The SFT model has learned the answer format, so the rule reward sees it; a random model scores 0.
    assert statistics.mean(format_rewards) > 0.5, format_rewards
    assert all("mean" in line["kl"] and "mean" in line["reward"] for line in lines)
    names = [c["name"] for c in server.api.get(f"/jobs/{job['id']}/checkpoints").json()]
    assert names == ["checkpoint-2", "checkpoint-4", "final"]
    # What the model wrote, with what each reward made of it: a few completions of every step, the latest first.
    latest = server.api.get(f"/jobs/{job['id']}/samples").json()
    assert (latest["steps"], latest["step"]) == ([1, 2, 3, 4], 4)
    assert 1 <= latest["total"] <= 4 and len(latest["samples"]) == latest["total"]
    for sample in latest["samples"]:
        assert sample["prompt"].startswith("What is ")
        scores = sample["rewards"]
        assert set(scores) == {"math_verify_last_number_numeric", "format_check_pattern"}
        weighted = scores["math_verify_last_number_numeric"] + 0.5 * scores["format_check_pattern"]
        assert sample["reward"] == pytest.approx(weighted)
    first = server.api.get(f"/jobs/{job['id']}/samples", params={"step": 1, "limit": 1}).json()
    assert (first["step"], len(first["samples"])) == (1, 1)


def test_pause_checkpoints_and_frees_the_process_then_resume_finishes_every_step_once(server, demo_assets):
    body = sft_body(demo_assets, "pause-e2e", learning_rate=1e-3, batch_size=8, micro_batch_size=8, max_steps=300)
    job = server.create_job(**{**body, "params": {**body["params"], "save_interval": None}, "start": True})
    server.wait_for_step(job["id"], 10)
    paused = server.api.post(f"/jobs/{job['id']}/pause")
    assert paused.status_code == 202 and paused.json()["requested_action"] == "pause"
    pid = paused.json()["pid"]
    job = server.wait_for_status(job["id"], "paused", "failed", "completed", timeout=60)
    assert job["status"] == "paused", job["error"]
    assert not psutil.pid_exists(pid) and job["pid"] is None
    pause_step = job["progress"]["last_checkpoint_step"]
    assert 10 <= pause_step < 300 and job["progress"]["state"] == "paused"
    checkpoints = server.api.get(f"/jobs/{job['id']}/checkpoints").json()
    assert [(c["name"], c["complete"]) for c in checkpoints] == [(f"checkpoint-{pause_step}", True)]
    assert job["allowed_actions"] == ["resume", "stop", "delete"]
    # Elapsed counts from the process's launch: model loading before the first step included.
    paused_elapsed = job["elapsed_seconds"]
    assert paused_elapsed > job["progress"]["elapsed_seconds"] - 1 and job["attempt_elapsed_seconds"] is None

    resumed = server.api.post(f"/jobs/{job['id']}/resume").json()
    assert resumed["status"] == "running" and resumed["attempt"] == 2
    # Across the resume: elapsed goes on from the first attempt's, the last loss stays until the next one.
    assert resumed["elapsed_seconds"] >= paused_elapsed
    assert resumed["progress"]["loss"] == job["progress"]["loss"] is not None
    job = server.wait_for_status(job["id"], "completed", "failed")
    assert job["status"] == "completed", job["error"]
    steps = [line["step"] for line in metric_lines(job)]
    assert sorted(set(steps)) == list(range(1, 301))
    assert steps.index(pause_step + 1) == pause_step  # the second run started right after the checkpoint
    status = json.loads((Path(job["output_dir"]) / f"{job['id']}_status.json").read_text())
    assert status["resumed_from_step"] == pause_step
    events = [e["message"] for e in server.api.get(f"/jobs/{job['id']}/events").json()]
    assert f"resumed by user from checkpoint-{pause_step} (step {pause_step})" in events


def test_stop_cancels_and_removes_the_process_group(server, demo_assets):
    job = server.create_job(**sft_body(demo_assets, "stop-e2e", max_steps=100_000), start=True)
    running = server.wait_for_step(job["id"], 3)
    stopped = server.api.post(f"/jobs/{job['id']}/stop")
    assert stopped.status_code == 200 and stopped.json()["status"] == "cancelled"
    assert not group_alive(running["pid"])
    assert server.api.post(f"/jobs/{job['id']}/resume").status_code == 409


def test_a_killed_training_process_fails_the_job_with_the_reason(server, demo_assets):
    job = server.create_job(**sft_body(demo_assets, "kill-e2e", max_steps=100_000), start=True)
    running = server.wait_for_step(job["id"], 3)
    os.kill(running["pid"], signal.SIGKILL)
    job = server.wait_for_status(job["id"], "failed", "completed", "cancelled", timeout=60)
    assert job["status"] == "failed"
    assert job["exit_code"] == -9 and job["error"].startswith("killed by signal SIGKILL")
    assert job["allowed_actions"] == ["resume", "delete"]
    # Killed from outside: resuming from its checkpoint is the thing to try first.
    assert job["failure"]["kind"] == "killed" and job["failure"]["resume_advised"] is True
    assert job["failure"]["text"]["zh-CN"]["reason"] == "被信号 SIGKILL 终止"


@pytest.fixture
def restartable_server(tmp_path):
    process = ServerProcess(home=tmp_path)
    process.start()
    yield process
    process.shutdown()


def test_a_restarted_server_reattaches_to_running_jobs_and_settles_lost_ones(restartable_server, demo_assets):
    server = restartable_server
    kept = server.create_job(**sft_body(demo_assets, "kept", max_steps=100_000), start=True)
    lost = server.create_job(**sft_body(demo_assets, "lost", max_steps=100_000), start=True)
    server.wait_for_step(kept["id"], 2)
    lost_pid = server.wait_for_step(lost["id"], 2)["pid"]

    server.stop_server_only()
    os.kill(lost_pid, signal.SIGKILL)
    wait_until(lambda: not psutil.pid_exists(lost_pid), 10, message="lost process gone")
    server.start()

    lost = server.job(lost["id"])
    assert lost["status"] == "failed"
    assert lost["error"].startswith(f"lost: local run {lost_pid} ended while the platform was not watching it")
    assert lost["failure"]["kind"] == "lost" and lost["failure"]["resume_advised"] is True
    # What it logged while no server was running is taken in when the restarted server settles it.
    lines = metric_lines(lost)
    loss_key = wait_until(
        lambda: next(
            (k for k in server.api.get(f"/monitoring/{lost['id']}/metrics/keys").json() if k["key"] == "loss"), None
        ),
        30,
        message="metrics of the lost job",
    )
    assert loss_key["points"] == len({line["step"] for line in lines}) >= 2
    kept = server.job(kept["id"])
    assert kept["status"] == "running"
    events = [e["message"] for e in server.api.get(f"/jobs/{kept['id']}/events").json()]
    assert f"re-attached to local run {kept['pid']} after a platform restart" in events
    step = server.wait_for_step(kept["id"], kept["progress"]["current_step"] + 5)["progress"]["current_step"]
    assert step > 2  # still training, still watched

    assert server.api.post(f"/jobs/{kept['id']}/pause").status_code == 202
    kept = server.wait_for_status(kept["id"], "paused", "failed", timeout=60)
    assert kept["status"] == "paused", kept["error"]


def test_jobs_run_with_the_database_on_postgresql(tmp_path, postgres_url, demo_assets):
    server = ServerProcess(home=tmp_path, database_url=postgres_url)
    server.start()
    try:
        assert server.api.get("/system").json()["database"] == "postgresql"
        job = server.create_job(**sft_body(demo_assets, "pg-e2e", max_steps=5, save_interval=5), start=True)
        job = server.wait_for_status(job["id"], "completed", "failed")
        assert job["status"] == "completed", job["error"]
        assert len(losses(job)) == 5
    finally:
        server.shutdown()
