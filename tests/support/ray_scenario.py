"""Run inside the Ray head's network namespace: a platform server configured for the cluster and one verl SFT job
submitted to Ray through the API; prints what happened as JSON.

    python -m tests.support.ray_scenario HOME RAY_ADDRESS TOKEN_FILE MODEL_DIR SFT_DATA

The server reaches the dashboard through a proxy that is cut for CUT_SECONDS while the job trains; once
  it is back, the server is stopped and started again on the same home while the job still trains. One job goes
  through both faults: a Ray job costs a minute and more here.
"""

import json
import sys
import time
from pathlib import Path

from ray.job_submission import JobSubmissionClient

from tests.support.helpers import ServerProcess, wait_until
from tests.support.tcp_proxy import TcpProxy

CUT_SECONDS = 10
PARAMS = {"learning_rate": 3e-3, "batch_size": 16, "micro_batch_size": 8, "max_steps": 200, "max_length": 64}


def start_server(home: str, ray_address: str, token_file: str) -> ServerProcess:
    server = ServerProcess(home=Path(home))
    server.env.update(PLATFORM_RAY_ADDRESS=ray_address, PLATFORM_RAY_AUTH_TOKEN_FILE=token_file)
    server.start()
    return server


def first_step(server: ServerProcess, job_id: str) -> None:
    def trained() -> bool:
        job = server.job(job_id)
        assert job["status"] == "running", job["error"]
        return bool((job["progress"] or {}).get("current_step"))

    wait_until(trained, 400, interval=0.5, message="the job's first step")


def main(home: str, ray_address: str, token_file: str, model: str, data: str) -> dict:
    Path(home).mkdir(parents=True, exist_ok=True)
    proxy = TcpProxy(int(ray_address.rsplit(":", 1)[1]))
    proxy.restore()
    server = start_server(home, proxy.address, token_file)
    outcome: dict = {}
    try:
        job = server.create_job(
            name="ray-sft-faults",
            algorithm="sft",
            engine="verl",
            run_mode="ray",
            model_path=model,
            dataset_paths=[data],
            params=PARAMS,
            start=True,
        )
        job_id = job["id"]
        first_step(server, job_id)
        proxy.cut()
        cut_at = time.monotonic()
        while time.monotonic() - cut_at < CUT_SECONDS:  # the outage itself: nothing to wait on but the clock
            assert server.job(job_id)["status"] == "running"
            time.sleep(1)
        outcome["step_when_restored"] = server.job(job_id)["progress"]["current_step"]
        proxy.restore()
        server.stop_server_only()
        server = start_server(home, proxy.address, token_file)
        outcome["step_when_restarted"] = server.job(job_id)["progress"]["current_step"]
        job = server.wait_for_status(job_id, "completed", "failed", timeout=400)
        # The job's log after the run's banner line, against Ray's own copy of the driver's output.
        stdout = (Path(job["output_dir"]) / "logs" / "stdout.log").read_text()
        banner = stdout.rindex("===== Ray job ")
        submission_id = stdout[banner:].split()[3]
        headers = {"Authorization": f"Bearer {Path(token_file).read_text().strip()}"}
        ray_log = JobSubmissionClient(ray_address, headers=headers).get_job_logs(submission_id)
        return {
            **outcome,
            "job": job,
            "keys": server.api.get(f"/monitoring/{job_id}/metrics/keys").json(),
            "events": [e["message"] for e in server.api.get(f"/jobs/{job_id}/events").json()],
            "log": server.api.get(f"/jobs/{job_id}/logs", params={"lines": 400}).json()["lines"],
            "log_after_banner": stdout[stdout.index("\n", banner) + 1 :],
            "ray_log": ray_log,
        }
    finally:
        server.shutdown()
        proxy.cut()


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:6])))
