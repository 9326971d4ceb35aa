"""Run inside a two-node Ray cluster's network namespace; prints what happened as JSON.

    python -m tests.support.ray_nodes_scenario sft HOME RAY_ADDRESS TOKEN_FILE MODEL_DIR SFT_DATA STEPS
    python -m tests.support.ray_nodes_scenario one_node_fails RAY_ADDRESS TOKEN_FILE

- sft: a platform server configured for the cluster, and one verl SFT job over two GPUs (one a node) submitted
  through the API, paused after its first step, resumed, run to its end.
- one_node_fails: the multinode launcher as a Ray job, running tests/support/node_exit.py, whose node 1 fails.
"""

import json
import os
import shlex
import sys
import time
from pathlib import Path

from ray.job_submission import JobSubmissionClient
from ray.util.state import list_actors

from tests.support.helpers import wait_until
from tests.support.ray_scenario import start_server
from training_platform.runners.ray import RayRunner


def sft(home: str, ray_address: str, token_file: str, model: str, data: str, steps_wanted: str) -> dict:
    Path(home).mkdir(parents=True, exist_ok=True)
    server = start_server(home, ray_address, token_file)
    try:
        params = {
            "num_gpus": 2,
            "batch_size": 8,
            "micro_batch_size": 4,
            "max_steps": int(steps_wanted),
            "max_length": 64,
        }
        body = {"algorithm": "sft", "engine": "verl", "run_mode": "ray", "model_path": model, "dataset_paths": [data]}
        too_many = server.api.post(
            "/jobs", json={**body, "name": "too-many", "params": {**params, "num_gpus": 4, "micro_batch_size": 2}}
        )
        job = server.create_job(**body, name="ray-sft-two-nodes", params=params, start=True)
        # Asked while the nodes start: rank 0 reads it after the first step, and every rank stops there.
        pause = server.api.post(f"/jobs/{job['id']}/pause").status_code
        paused = server.wait_for_status(job["id"], "paused", "failed", "completed", timeout=600)
        checkpoints_when_paused = server.api.get(f"/jobs/{job['id']}/checkpoints").json()
        resume = server.api.post(f"/jobs/{job['id']}/resume").status_code
        job = server.wait_for_status(job["id"], "completed", "failed", timeout=600)

        def stored_steps():
            series = server.api.get(f"/monitoring/{job['id']}/metrics", params={"keys": "loss"}).json()["series"]
            steps = series[0]["steps"] if series else []
            return steps if len(steps) >= int(steps_wanted) else None

        # Ray's own record of where each node's torchrun ran (the actors outlive their run in its state API).
        node_ranks = list_actors(address=ray_address, filters=[("class_name", "=", "NodeRank")], detail=True)
        return {
            "node_gpus": RayRunner(ray_address, Path(token_file).read_text().strip()).node_gpus(),
            "too_many": {"status": too_many.status_code, "errors": too_many.json().get("errors")},
            "pause": pause,
            "paused": paused,
            "checkpoints_when_paused": checkpoints_when_paused,
            "resume": resume,
            "job": job,
            "status_file": json.loads((Path(job["output_dir"]) / f"{job['id']}_status.json").read_text()),
            "stored_loss_steps": wait_until(stored_steps, 30, message="the stored loss series"),
            "log": server.api.get(f"/jobs/{job['id']}/logs", params={"lines": 100}).json()["lines"],
            "node_rank_lines": server.api.get(
                f"/jobs/{job['id']}/logs", params={"lines": 100, "contains": "node rank"}
            ).json()["lines"],
            "node_rank_actors": [{"node_id": actor.node_id, "state": actor.state} for actor in node_ranks],
        }
    finally:
        server.shutdown()


def one_node_fails(ray_address: str, token_file: str) -> dict:
    headers = {"Authorization": f"Bearer {Path(token_file).read_text().strip()}"}
    client = JobSubmissionClient(ray_address, headers=headers)
    launcher = [sys.executable, "-m", "training_platform.engines.verl.multinode", "--nnodes", "2", "--nproc-per-node"]
    entrypoint = f"cd {shlex.quote(os.getcwd())} && {shlex.join([*launcher, '1', '-m', 'tests.support.node_exit'])}"
    submission_id = client.submit_job(entrypoint=entrypoint, runtime_env={"env_vars": {"RAY_DEDUP_LOGS": "0"}})
    began = time.monotonic()
    wait_until(lambda: client.get_job_status(submission_id).is_terminal(), 300, interval=0.5, message="the job's end")
    return {
        "status": client.get_job_status(submission_id).value,
        "seconds": time.monotonic() - began,
        "log": client.get_job_logs(submission_id),
    }


if __name__ == "__main__":
    scenarios = {"sft": sft, "one_node_fails": one_node_fails}
    print(json.dumps(scenarios[sys.argv[1]](*sys.argv[2:])))
