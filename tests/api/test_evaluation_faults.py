"""An evaluation run through a killed server and a killed run process: the server's restart re-attaches to the
run, a run killed mid-way is resumed from its sample file, no sample is recorded twice and only the batch in flight
at the kill is generated again (counted in the run's log, where the process names every batch it generates and
records)."""

import json
import os
import re
import signal
from collections import Counter
from pathlib import Path

import pytest

from tests.support.helpers import ServerProcess, session_members, wait_until

BATCH_SIZE = 2
ROWS = 720  # long enough to outlast a server restart on a quiet machine (240 did not, once)


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
        "target": {"kind": "model", "model": str(demo_assets["model"]), "batch_size": BATCH_SIZE},
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

    lines = (Path(done["output_dir"]) / "samples.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["index"] for line in lines) == list(range(ROWS)), "every sample recorded once"
    # The log is written after the sample file, so a kill between the two loses a log line, never a sample; and a
    # batch generated but not yet recorded when the process died is generated again: only that batch, once.
    log = (Path(done["output_dir"]) / "logs" / "stdout.log").read_text()
    generated = counted(log, "generated")
    assert set(generated) == set(range(ROWS))
    again = [index for index, times in Counter(generated).items() if times > 1]
    assert len(again) <= BATCH_SIZE and max(Counter(generated).values()) <= 2, again
    assert len(counted(log, "scored")) == len(set(counted(log, "scored"))), "no sample scored twice"
    run = server.api.get("/evaluations/long-run").json()
    assert run["results"]["samples"] == ROWS and run["scored"] == ROWS
