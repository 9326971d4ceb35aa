"""An evaluation run through a killed server and a killed run process: the server's restart re-attaches to the
run, a run killed mid-way is resumed from its sample file, and no sample is generated or scored twice (counted in
the run's log, where the process names every batch it generates and scores)."""

import json
import os
import re
import signal
from pathlib import Path

import pytest

from tests.support.helpers import ServerProcess, session_members, wait_until

ROWS = 240


@pytest.fixture
def server(tmp_path):
    (tmp_path / "home").mkdir()
    process = ServerProcess(home=tmp_path / "home")
    process.start()
    yield process
    process.shutdown()


def counted(log: str, what: str) -> list[int]:
    """Every sample index the run's log says it `what` (generated, scored), once per time it said so."""
    found = re.findall(rf"{what} samples ([\d,]+)", log)
    return [int(index) for line in found for index in line.split(",")]


def test_a_run_goes_on_through_a_killed_server_and_resumes_after_its_process_is_killed(server, demo_assets, tmp_path):
    rows = [json.loads(line) for line in Path(demo_assets["eval"]).read_text().splitlines()]
    data = tmp_path / "long-eval.jsonl"
    data.write_text("".join(json.dumps(rows[i % len(rows)], ensure_ascii=False) + "\n" for i in range(ROWS)))
    assert server.api.post("/datasets", json={"name": "long", "path": str(data), "kind": "eval"}).status_code == 201
    body = {
        "name": "long-run",
        "dataset": "long",
        "target": {"kind": "model", "model": str(demo_assets["model"]), "batch_size": 2},
        "metrics": [{"name": "chrf"}, {"name": "exact_match"}],
        "generation": {"max_new_tokens": 24, "temperature": 0},
    }
    response = server.api.post("/evaluations", json=body)
    assert response.status_code == 201, response.text
    job_id = response.json()["id"]

    def scored_at_least(count: int):
        def reached() -> dict | None:
            job = server.job(job_id)
            assert job["status"] in ("queued", "running"), (job["status"], job["error"])
            return job if (job["progress"] or {}).get("current_step", 0) >= count else None

        return reached

    running = wait_until(scored_at_least(10), timeout=120, message="ten samples scored")
    server.process.send_signal(signal.SIGKILL)  # the server dies; the run's process does not
    server.process.wait(timeout=30)
    server.start()
    events = [event["message"] for event in server.api.get(f"/jobs/{job_id}/events").json()]
    assert f"re-attached to local run {running['pid']} after a platform restart" in events

    progressed = wait_until(scored_at_least(running["progress"]["current_step"] + 10), timeout=120, message="more")
    for member in session_members(os.getsid(progressed["pid"])):
        member.send_signal(signal.SIGKILL)  # the run's process dies mid-batch, as in a power cut
    failed = server.wait_for_status(job_id, "failed", "completed", timeout=60)
    assert failed["status"] == "failed", "the run ended before it could be killed: make it longer"
    assert "resume" in failed["allowed_actions"]

    assert server.api.post(f"/jobs/{job_id}/resume").status_code == 200
    done = server.wait_for_status(job_id, "completed", "failed", timeout=300)
    assert done["status"] == "completed", done["error"]

    log = (Path(done["output_dir"]) / "logs" / "stdout.log").read_text()
    generated, scored = counted(log, "generated"), counted(log, "scored")
    assert sorted(scored) == list(range(ROWS)), "every sample scored exactly once"
    assert len(generated) == len(set(generated)), "no sample generated twice"
    assert set(generated) == set(range(ROWS))
    lines = (Path(done["output_dir"]) / "samples.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["index"] for line in lines) == list(range(ROWS))
    run = server.api.get("/evaluations/long-run").json()
    assert run["results"]["samples"] == ROWS and run["scored"] == ROWS
