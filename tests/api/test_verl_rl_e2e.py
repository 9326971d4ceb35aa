"""verl GRPO, and PPO with GAE, a critic and a reward model, for real on the CPU through the API: vLLM's CPU
build as the rollout engine (the CPU RL environment of `make rl-env`), verl's own Ray cluster inside a
loopback-only network namespace that the test creates and removes, every process of the run gone at the end.
Also a verl run that hangs, found by the server's stall watch."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from tests.support.helpers import wait_until
from tests.support.ray_cluster import LoopbackNamespace
from training_platform.engines.verl.command import ray_temp_dir

pytestmark = pytest.mark.slow
RL_PYTHON = Path(".venv-rl/bin/python").absolute()
# PPO starts a second vLLM server (the reward model) and a critic; GRPO pauses, resumes and exports.
# Measured on a loaded 2-core machine: GRPO 444-600 s (pause, resume and export), PPO 340-540 s, the hang 350-435 s.
HARD_TIMEOUT_S = {"grpo": 900, "ppo": 900, "hang": 600}


@pytest.fixture
def namespace():
    if not RL_PYTHON.exists():
        pytest.fail(f"the CPU RL environment is missing ({RL_PYTHON}): build it with `make rl-env`")
    namespace = LoopbackNamespace()
    namespace.create()
    yield namespace
    namespace.delete()


def run_scenario(
    namespace: LoopbackNamespace, timeout: int, scenario: str, home: Path, assets: dict, *args: str
) -> dict:
    """Run one scenario of tests/support/rl_scenario.py in the namespace; what it printed."""
    argv = [
        *(sys.executable, "-m", "tests.support.rl_scenario", scenario),
        *(str(home), str(RL_PYTHON), str(assets["model"]), str(assets["grpo"]), *args),
    ]
    result = subprocess.run(
        namespace.inside(argv),
        env={**os.environ, "PYTHONPATH": os.getcwd()},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, result.stderr[-5000:]
    run = json.loads(result.stdout.strip().splitlines()[-1])
    # Nothing of the run outlives it: the driver, its Ray cluster, the vLLM engines, the workers.
    wait_until(lambda: namespace.pids() == [], 30, message="every process in the namespace gone")
    shutil.rmtree(ray_temp_dir(run["job"]["id"]), ignore_errors=True)
    print(json.dumps({k: run[k] for k in ("first_attempt_s", "wall_s", "memory") if k in run}))
    return run


def assert_paused_and_resumed(run: dict) -> None:
    paused = run["paused"]
    assert (paused["status"], paused["error"]) == ("paused", None)
    assert ("global_step_2", True) in [(c["name"], c["complete"]) for c in run["checkpoints_when_paused"]]
    assert "paused at step 2; checkpoint at step 2" in run["events"]
    status = run["status"]
    assert (status["current_step"], status["resumed_from_step"], status["last_checkpoint_step"]) == (3, 2, 3)


def assert_trained_and_exported(run: dict, demo_assets: dict) -> None:
    assert run["live_steps"] == [1]  # pushed over the WebSocket while verl ran
    job, last = run["job"], run["status"]["current_step"]
    assert job["status"] == "completed", job["error"]
    steps = [str(step) for step in range(1, last + 1)]

    series = run["series"]
    for key in ("reward_mean", "kl", "entropy", "grad_norm", "step_time"):
        assert sorted(series[key]) == steps, (key, series[key])  # canonical fields from verl's keys
    assert all(value > 0 for value in series["grad_norm"].values())
    # The policy left the reference (PPO's in-reward KL is verl's k1 estimate, which may be negative).
    assert series["kl"]["1"] == 0 and series["kl"][str(last)] != 0
    # The actor's updates reach vLLM: vLLM starts from dummy weights and only the weight sync after each
    # step can make its log-probs match the actor's, which they do while the policy's entropy moves.
    assert max(series["training/rollout_probs_diff_max"].values()) < 1e-2
    assert abs(series["entropy"][str(last)] - series["entropy"]["1"]) > 1e-4

    assert run["export"]["status"] == "completed", run["export"]
    exported = Path(run["export"]["result"]["path"])
    trained = load_file(exported / "model.safetensors")
    base = load_file(Path(demo_assets["model"]) / "model.safetensors")
    name = next(key for key in base if key.endswith("mlp.down_proj.weight"))
    assert not torch.allclose(trained[name].float(), base[name].float())
    assert run["wall_s"] < HARD_TIMEOUT_S[run["job"]["algorithm"]]


@pytest.mark.timeout(HARD_TIMEOUT_S["grpo"] + 60)
def test_verl_grpo_on_cpu_trains_pauses_at_a_checkpoint_resumes_and_exports(namespace, tmp_path, demo_assets):
    timeout, home, reward_model = HARD_TIMEOUT_S["grpo"], tmp_path / "home", str(demo_assets["reward_model"])
    run = run_scenario(namespace, timeout, "train", home, demo_assets, "grpo", reward_model)
    assert_trained_and_exported(run, demo_assets)
    assert_paused_and_resumed(run)


@pytest.mark.timeout(HARD_TIMEOUT_S["ppo"] + 60)
def test_verl_ppo_with_a_critic_on_cpu_trains_and_exports(namespace, tmp_path, demo_assets):
    """Pausing and resuming are verl's and the platform's, the same for every algorithm: the GRPO test proves
    them; this one runs PPO's critic and reward model straight through two steps."""
    timeout, home, reward_model = HARD_TIMEOUT_S["ppo"], tmp_path / "home", str(demo_assets["reward_model"])
    run = run_scenario(namespace, timeout, "train", home, demo_assets, "ppo", reward_model, "straight")
    assert_trained_and_exported(run, demo_assets)
    series = run["series"]
    # GAE's critic trains beside the actor, and the reward model's vLLM server scored every step.
    for key in ("value_loss", "critic_grad_norm", "reward_mean"):
        assert sorted(series[key]) == ["1", "2"], (key, series[key])
    assert all(value > 0 for value in series["critic_grad_norm"].values())
    assert "global_step_2" in run["export"]["result"]["path"]


NEVER_ANSWERS = '''import threading


def never_answers(completion, reference, row):
    """Waits for a scoring service that never replies."""
    threading.Event().wait()
'''
STALL_SECONDS = 60  # verl is never quiet this long while it works: a log line, metric or status at least every ~20 s


@pytest.mark.timeout(HARD_TIMEOUT_S["hang"] + 60)
def test_a_verl_run_that_hangs_is_stopped_with_every_process_and_failed_with_its_log(namespace, tmp_path, demo_assets):
    reward_file = tmp_path / "scoring_service.py"
    reward_file.write_text(NEVER_ANSWERS)
    timeout, home = HARD_TIMEOUT_S["hang"], tmp_path / "home"
    run = run_scenario(namespace, timeout, "hang", home, demo_assets, str(reward_file), str(STALL_SECONDS))
    job = run["job"]
    assert job["status"] == "failed"
    reason, *log_lines = job["error"].splitlines()
    assert reason.startswith("hung: no new log line, metric or status for ") and f"(limit {STALL_SECONDS} s)" in reason
    assert log_lines and "\x1b[" not in job["error"]  # the log's last lines follow the reason, as plain text
    assert any(kind == "stall" and message.endswith("stopping it") for kind, message in run["events"])
