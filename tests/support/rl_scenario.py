"""Run inside a loopback-only network namespace: a platform server whose verl runs in the CPU RL environment,
and one verl job through its API; prints what happened, with the measured times and memory, as JSON.
- train: a GRPO or PPO job with live metrics, a pause after the step-2 checkpoint, resume, export (or, `straight`,
  two steps with the step-2 checkpoint and its export: pausing and resuming are the engine's, not the algorithm's);
  python -m tests.support.rl_scenario train HOME VERL_PYTHON MODEL_DIR RL_DATA grpo|ppo REWARD_MODEL_DIR [straight]
- hang: a GRPO job whose custom reward never returns, left to the server's stall watch;
  python -m tests.support.rl_scenario hang HOME VERL_PYTHON MODEL_DIR RL_DATA REWARD_FILE STALL_SECONDS"""

import json
import sys
import threading
import time
from pathlib import Path

import psutil
from websockets.sync.client import connect

from tests.support.helpers import ServerProcess, session_members, wait_until
from tests.support.jobs import example_params

# The example job files' (examples/verl-grpo.yaml, verl-ppo.yaml), the reward model given as a directory here.
GRPO_PARAMS = example_params("verl-grpo")
PPO_PARAMS = {key: value for key, value in example_params("verl-ppo").items() if key != "reward_model_path"}


class MemorySampler(threading.Thread):
    """Peak resident memory of the server's process tree (the job, Ray, vLLM) and of the whole machine."""

    def __init__(self, root_pid: int):
        super().__init__(daemon=True)
        self.root = psutil.Process(root_pid)
        self.baseline_used = psutil.virtual_memory().used
        self.peak_tree = 0
        self.peak_used = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.5):
            total = 0
            for process in [self.root, *self.root.children(recursive=True)]:
                try:
                    total += process.memory_info().rss
                except psutil.Error:
                    pass
            self.peak_tree = max(self.peak_tree, total)
            self.peak_used = max(self.peak_used, psutil.virtual_memory().used)

    def report(self) -> dict:
        self.done.set()
        gib = 2**30
        return {
            "peak_tree_rss_gib": round(self.peak_tree / gib, 2),
            "peak_machine_used_gib": round(self.peak_used / gib, 2),
            "machine_used_before_gib": round(self.baseline_used / gib, 2),
        }


def start_server(home: str, verl_python: str, **env: str) -> ServerProcess:
    Path(home).mkdir(parents=True, exist_ok=True)
    server = ServerProcess(home=Path(home))
    server.env.update(PLATFORM_VERL_PYTHON=verl_python, PLATFORM_TRAIN_CPU_THREADS="0", **env)
    server.start()
    return server


def train(
    home: str, verl_python: str, model: str, data: str, algorithm: str, reward_model: str, mode: str = "pause"
) -> dict:
    server = start_server(home, verl_python)
    memory = MemorySampler(server.process.pid)
    memory.start()
    began = time.monotonic()
    try:
        params = GRPO_PARAMS if algorithm == "grpo" else {**PPO_PARAMS, "reward_model_path": reward_model}
        if mode == "straight":
            params = {**params, "max_steps": 2}
        job = server.create_job(
            name=f"verl-{algorithm}-cpu",
            algorithm=algorithm,
            engine="verl",
            model_path=model,
            dataset_paths=[data],
            params=params,
        )
        job_id = job["id"]
        live = connect(
            server.url.replace("http", "ws") + f"/api/v1/monitoring/{job_id}/live",
            additional_headers=server.auth_headers,
        )
        server.api.post(f"/jobs/{job_id}/start")
        live_steps = []
        while not live_steps:  # the first step's metrics, pushed while verl runs
            message = json.loads(live.recv(timeout=400))
            if message["type"] == "metric":
                live_steps.append(message["data"]["step"])
        pause, paused, checkpoints, first_attempt_s = None, None, None, None
        if mode == "pause":
            # Step 2 is a save step; the pause lands while it runs and ends the run right after it.
            pause = server.api.post(f"/jobs/{job_id}/pause")
            paused = server.wait_for_status(job_id, "paused", "failed", "completed", timeout=300)
            checkpoints = server.api.get(f"/jobs/{job_id}/checkpoints").json()
            first_attempt_s = time.monotonic() - began
            server.api.post(f"/jobs/{job_id}/resume")
        live.close()
        done = server.wait_for_status(job_id, "completed", "failed", timeout=400)
        status = json.loads((Path(done["output_dir"]) / f"{job_id}_status.json").read_text())
        keys = server.api.get(f"/monitoring/{job_id}/metrics/keys").json()
        wanted = ",".join(
            ["reward_mean", "kl", "entropy", "grad_norm", "value_loss", "critic_grad_norm", "step_time"]
            + ["training/rollout_probs_diff_max"]
        )
        series = server.api.get(f"/monitoring/{job_id}/metrics", params={"keys": wanted}).json()["series"]
        final = f"global_step_{status['current_step']}"
        export = server.export(job_id, final)
        return {
            "pause_status_code": pause and pause.status_code,
            "paused": paused,
            "live_steps": live_steps,
            "checkpoints_when_paused": checkpoints,
            "job": done,
            "status": status,
            "keys": keys,
            "series": {s["key"]: dict(zip(s["steps"], s["values"], strict=True)) for s in series},
            "export": export,
            "events": [e["message"] for e in server.api.get(f"/jobs/{job_id}/events").json()],
            "first_attempt_s": first_attempt_s and round(first_attempt_s, 1),
            "wall_s": round(time.monotonic() - began, 1),
            "memory": memory.report(),
        }
    finally:
        server.shutdown()


def hang(home: str, verl_python: str, model: str, data: str, reward_file: str, stall_seconds: str) -> dict:
    server = start_server(
        home,
        verl_python,
        PLATFORM_JOB_STALL_SECONDS=stall_seconds,
        # Custom reward code is loaded only from the directory the admin names.
        PLATFORM_REWARD_CODE_DIR=str(Path(reward_file).parent),
    )
    began = time.monotonic()
    try:
        job = server.create_job(
            name="verl-grpo-hangs",
            algorithm="grpo",
            engine="verl",
            model_path=model,
            dataset_paths=[data],
            params={**GRPO_PARAMS, "rewards": [{"type": "custom", "function": f"{reward_file}:never_answers"}]},
            start=True,
        )
        job_id = job["id"]
        session = wait_until(lambda: server.job(job_id)["pid"], 60, message="the run's process")
        failed = server.wait_for_status(job_id, "failed", "completed", "cancelled", timeout=400)
        wait_until(lambda: session_members(session) == [], 60, message="every process of the hung run gone")
        return {
            "job": failed,
            "events": [(e["kind"], e["message"]) for e in server.api.get(f"/jobs/{job_id}/events").json()],
            "wall_s": round(time.monotonic() - began, 1),
        }
    finally:
        server.shutdown()


if __name__ == "__main__":
    scenarios = {"train": train, "hang": hang}
    print(json.dumps(scenarios[sys.argv[1]](*sys.argv[2:])))
