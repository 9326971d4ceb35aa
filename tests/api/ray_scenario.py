"""Run inside the Ray head's network namespace: a platform server configured for the cluster, one verl SFT
job submitted to Ray through the API; prints what happened as JSON.
python -m tests.api.ray_scenario HOME RAY_ADDRESS TOKEN_FILE MODEL_DIR SFT_DATA"""

import json
import sys
from pathlib import Path

from tests.helpers import ServerProcess


def main(home: str, ray_address: str, token_file: str, model: str, data: str) -> dict:
    Path(home).mkdir(parents=True, exist_ok=True)
    server = ServerProcess(home=Path(home))
    server.env.update(PLATFORM_RAY_ADDRESS=ray_address, PLATFORM_RAY_AUTH_TOKEN_FILE=token_file)
    server.start()
    try:
        job = server.create_job(
            name="ray-sft",
            algorithm="sft",
            engine="verl",
            run_mode="ray",
            model_path=model,
            dataset_paths=[data],
            params={"learning_rate": 3e-3, "batch_size": 16, "micro_batch_size": 8, "max_steps": 6, "max_length": 64},
            start=True,
        )
        job = server.wait_for_status(job["id"], "completed", "failed", timeout=400)
        keys = server.api.get(f"/monitoring/{job['id']}/metrics/keys").json()
        events = [e["message"] for e in server.api.get(f"/jobs/{job['id']}/events").json()]
        log = server.api.get(f"/jobs/{job['id']}/logs", params={"lines": 400}).json()["lines"]
        return {"job": job, "keys": keys, "events": events, "log": log}
    finally:
        server.shutdown()


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:6])))
