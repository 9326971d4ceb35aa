"""Jobs on a remote host over SSH, end to end: a real sshd on loopback, a separate user whose home is the remote
machine (it cannot read the platform's home), and the platform's server driving it through its HTTP API."""

import json
import signal
from pathlib import Path

import pytest

from tests.support.helpers import wait_until
from tests.support.jobs import sft_body

pytestmark = pytest.mark.slow


def remote_sft(demo_assets, name: str, **params) -> dict:
    """A demo SFT job on the host, started at once."""
    params = dict(batch_size=8, micro_batch_size=8, max_steps=40, save_interval=20) | params
    return sft_body(demo_assets, name, **params) | {"run_mode": "ssh:remote", "start": True}


def metric_steps(job: dict) -> list[int]:
    path = Path(job["output_dir"]) / f"{job['id']}_metrics.jsonl"
    return [json.loads(line)["step"] for line in path.read_text().splitlines()]


def stored_steps(server, job: dict) -> list[int]:
    loss = server.api.get(f"/monitoring/{job['id']}/metrics", params={"keys": "loss"}).json()["series"][0]
    return sorted(loss["steps"])


def remote_runs(machine) -> list[str]:
    """The host's processes that belong to a run, as the host lists them over SSH."""
    listed = machine.ssh_run('ps -o pid=,args= -u "$(id -u)"')
    return [line for line in listed.splitlines() if "training_platform" in line]


def test_a_demo_sft_job_runs_on_the_host_with_live_metrics(ssh_server, machine, demo_assets):
    job = ssh_server.create_job(**remote_sft(demo_assets, "ssh-sft"))
    running = ssh_server.wait_for_step(job["id"], 5, timeout=180)
    assert running["run_mode"] == "ssh:remote" and running["pid"] is None  # its process is not on this machine
    done = ssh_server.wait_for_status(job["id"], "completed", "failed", timeout=300)
    assert done["status"] == "completed", done["error"]
    assert done["exit_code"] == 0
    assert metric_steps(done) == list(range(1, 41))
    assert stored_steps(ssh_server, done) == list(range(1, 41))
    remote_dir = machine.home / "tplat" / "jobs" / job["id"]
    assert (remote_dir / "final" / "config.json").is_file() and (remote_dir / "exit.json").is_file()
    # The checkpoints came back: listed and exported here like every job's.
    checkpoints = [c["name"] for c in ssh_server.api.get(f"/jobs/{job['id']}/checkpoints").json()]
    assert checkpoints == ["checkpoint-20", "checkpoint-40", "final"]
    # The run read its model and data from the host's synced copies, never from the platform's directories.
    config = json.loads((remote_dir / "run_config.json").read_text())
    assert config["model_path"].startswith(str(machine.home / "tplat" / "data"))
    assert config["output_dir"] == str(remote_dir)
    assert machine.run(["ls", str(ssh_server.home)]).returncode != 0
    assert remote_runs(machine) == []


def test_pause_and_resume_on_the_host_train_every_step_once(ssh_server, demo_assets):
    job = ssh_server.create_job(**remote_sft(demo_assets, "ssh-pause", max_steps=600, save_interval=None))
    ssh_server.wait_for_step(job["id"], 10, timeout=180)
    assert ssh_server.api.post(f"/jobs/{job['id']}/pause").status_code == 202
    paused = ssh_server.wait_for_status(job["id"], "paused", "failed", "completed", timeout=120)
    assert paused["status"] == "paused", paused["error"]
    assert ssh_server.api.post(f"/jobs/{job['id']}/resume").status_code == 200
    done = ssh_server.wait_for_status(job["id"], "completed", "failed", timeout=300)
    assert done["status"] == "completed", done["error"]
    steps = stored_steps(ssh_server, done)
    assert steps == list(range(1, 601))


def test_a_restarted_server_reattaches_and_a_dropped_connection_loses_no_step(ssh_server, machine, demo_assets):
    steps = 1500  # long enough for a restart and three cut connections, on a quiet machine too
    job = ssh_server.create_job(**remote_sft(demo_assets, "ssh-faults", max_steps=steps, save_interval=None))
    ssh_server.wait_for_step(job["id"], 5, timeout=180)
    ssh_server.process.send_signal(signal.SIGKILL)  # the server dies; the run on the host does not
    ssh_server.process.wait(timeout=30)
    ssh_server.start()
    events = [event["message"] for event in ssh_server.api.get(f"/jobs/{job['id']}/events").json()]
    assert any("re-attached to ssh:remote run" in message for message in events), events
    reached = ssh_server.wait_for_step(job["id"], 10, timeout=180)
    for _ in range(3):  # every connection to the host cut, three times, while it trains
        machine.drop_connections()
        reached = ssh_server.wait_for_step(job["id"], reached["progress"]["current_step"] + 10, timeout=180)
    done = ssh_server.wait_for_status(job["id"], "completed", "failed", timeout=300)
    assert done["status"] == "completed", done["error"]
    assert metric_steps(done) == list(range(1, steps + 1))
    assert stored_steps(ssh_server, done) == list(range(1, steps + 1))


def test_a_stop_leaves_no_process_on_the_host(ssh_server, machine, demo_assets):
    job = ssh_server.create_job(**remote_sft(demo_assets, "ssh-stop", max_steps=2000, save_interval=None))
    ssh_server.wait_for_step(job["id"], 5, timeout=180)
    assert remote_runs(machine), "the run shows on the host while it trains"
    assert ssh_server.api.post(f"/jobs/{job['id']}/stop").status_code == 200
    stopped = ssh_server.wait_for_status(job["id"], "cancelled", "failed", timeout=120)
    assert stopped["status"] == "cancelled", stopped["error"]
    wait_until(lambda: remote_runs(machine) == [], timeout=30, message="no run process left on the host")


def test_a_surgery_run_and_an_evaluation_run_on_the_host_the_same_way(ssh_server, machine, demo_assets):
    trained = ssh_server.api.get("/jobs/ssh-sft").json()  # the first test's job: its checkpoints came back
    average = {"name": "ssh-average", "job": "ssh-sft", "run_mode": "ssh:remote"}
    response = ssh_server.api.post("/surgery/average", json=average)
    assert response.status_code == 201, response.text
    averaged = ssh_server.wait_for_status(response.json()["id"], "completed", "failed", timeout=300)
    assert averaged["status"] == "completed" and averaged["run_mode"] == "ssh:remote", averaged["error"]
    assert (Path(averaged["output_dir"]) / "final" / "config.json").is_file()  # came back, registered here
    assert ssh_server.api.get("/models/ssh-average").status_code == 200

    registered = {"name": "ssh-eval-data", "path": str(demo_assets["eval"]), "kind": "eval"}
    assert ssh_server.api.post("/datasets", json=registered).status_code == 201
    body = {
        "name": "ssh-eval",
        "dataset": "ssh-eval-data",
        "target": {"kind": "model", "model": f"job:{trained['name']}", "batch_size": 4},
        "metrics": [{"name": "chrf"}, {"name": "exact_match"}],
        "generation": {"max_new_tokens": 16, "temperature": 0},
        "limit": 12,
        "run_mode": "ssh:remote",
    }
    response = ssh_server.api.post("/evaluations", json=body)
    assert response.status_code == 201, response.text
    evaluated = ssh_server.wait_for_status(response.json()["id"], "completed", "failed", timeout=300)
    assert evaluated["status"] == "completed", evaluated["error"]
    results = ssh_server.api.get(f"/evaluations/{evaluated['id']}").json()
    assert results["results"]["samples"] == 12 and results["results"]["overall"]["chrf"]["count"] == 12, results
    samples = ssh_server.api.get(f"/evaluations/{evaluated['id']}/samples").json()
    assert samples["total"] == 12 and len(samples["items"]) == 12
    assert remote_runs(machine) == []
