"""The GPU queue over HTTP and the CLI, on a real server told it has one GPU (PLATFORM_GPUS=1) and real TRL
training processes: too many GPUs is a 422 naming params.num_gpus, a second job waits in the queue, and the
process of each job is given the device it holds as CUDA_VISIBLE_DEVICES."""

import psutil
import pytest

from tests.support.helpers import ServerProcess, wait_until


@pytest.fixture(scope="module")
def gpu_server(tmp_path_factory):
    server = ServerProcess(home=tmp_path_factory.mktemp("gpu_server_home"))
    server.env |= {"PLATFORM_GPUS": "1", "COLUMNS": "200"}  # COLUMNS: the CLI's tables unwrapped
    server.start()
    yield server
    server.shutdown()


def job_body(demo_assets, name: str, **params) -> dict:
    # Far more steps than the test lasts: each job runs until it is stopped.
    sft = {"learning_rate": 1e-3, "batch_size": 2, "micro_batch_size": 2, "max_steps": 100_000}
    return dict(
        name=name,
        algorithm="sft",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        params={**sft, **params},
        start=True,
    )


def visible_devices(job: dict) -> str:
    return psutil.Process(job["pid"]).environ().get("CUDA_VISIBLE_DEVICES")


def test_a_job_waits_for_the_busy_gpu_and_gets_it_when_freed(gpu_server: ServerProcess, demo_assets):
    api = gpu_server.api
    assert api.get("/system").json()["gpus"] == [0]
    refused = api.post("/jobs", json=job_body(demo_assets, "too-big", num_gpus=2, batch_size=4))
    assert refused.status_code == 422, refused.text
    assert refused.json()["errors"] == [
        {"field": "params.num_gpus", "message": "asks for 2 GPUs, but this server has 1 (GPUs 0); ask for at most 1"}
    ]
    assert api.get("/jobs").json() == []

    first = gpu_server.create_job(**job_body(demo_assets, "first"))
    second = gpu_server.create_job(**job_body(demo_assets, "second"))
    assert (first["status"], first["gpus"], visible_devices(first)) == ("running", [0], "0")
    assert (second["status"], second["queue_position"], second["allowed_actions"]) == ("queued", 1, ["stop"])
    # The audit log says what the scheduler did, as it reported it: the second job was queued, not started.
    for job, became in ((first, "started"), (second, "queued")):
        audit = api.get("/auth/audit", params={"resource": job["id"]}).json()
        assert [entry["action"] for entry in audit] == [became, "created"], audit
    listing = gpu_server.cli("jobs", "list")
    assert listing.returncode == 0, listing.stderr
    assert "queued #1" in listing.stdout and "gpus" in listing.stdout
    assert gpu_server.cli("jobs", "show", "first", "--field", "gpus").stdout.strip() == "[0]"

    assert api.post("/jobs/first/stop").json()["status"] == "cancelled"
    second = wait_until(lambda: gpu_server.job("second")["pid"] and gpu_server.job("second"), 30, message="launched")
    assert second["status"] == "running"
    assert second["gpus"] == [0] and visible_devices(second) == "0"
    events = [event["message"] for event in api.get("/jobs/second/events").json()]
    assert {"started by user; queued: waiting for 1 GPU, position 1", "got GPUs 0"} <= set(events)
    # The same events in Chinese, for a reader who asks for it (the UI sends its locale).
    chinese = api.get("/jobs/second/events", headers={"accept-language": "zh-CN"}).json()
    assert {"由用户启动；排队中：等待 1 块 GPU，排第 1 位", "获得 GPU 0"} <= {event["message"] for event in chinese}
    assert [event["code"] for event in chinese][:2] == ["job.created", "joined"]
    assert api.post("/jobs/second/stop").json()["status"] == "cancelled"
    wait_until(lambda: not psutil.pid_exists(second["pid"]), 30, message="the second job's process gone")
