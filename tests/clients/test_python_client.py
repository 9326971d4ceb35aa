"""The generated Python client (clients/python) against a real server, and its drift check (`make client-check`)."""

import subprocess
import sys
from pathlib import Path

import pytest
from training_platform_client import AuthenticatedClient, Client
from training_platform_client.api.jobs import create_job, get_job, start_job
from training_platform_client.api.monitoring import get_metrics
from training_platform_client.models import Algorithm, ErrorBody, JobCreate, JobCreateParams, JobRead, JobStatus
from training_platform_client_stream import LiveStreamError, live_metrics

from training_platform.api.openapi import render

ROOT = Path(__file__).resolve().parents[2]
GENERATE = ROOT / "clients" / "python" / "generate.py"
GENERATOR = ROOT / ".venv-client-gen" / "bin" / "openapi-python-client"
PACKAGE = ROOT / "clients" / "python" / "training_platform_client"
STEPS = 20


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_the_generated_client_drives_a_job_to_completed_with_live_metrics(server, demo_assets):
    client = AuthenticatedClient(base_url=server.url, token=server.admin_token, raise_on_unexpected_status=True)
    body = JobCreate(
        name="python-client-sft",
        algorithm=Algorithm.SFT,
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        params=JobCreateParams.from_dict({"batch_size": 8, "micro_batch_size": 8, "max_steps": STEPS}),
    )
    job = create_job.sync(client=client, body=body)
    assert isinstance(job, JobRead) and job.status == JobStatus.PENDING

    stream = live_metrics(client, job.name)
    assert next(stream)["data"]["status"] == "pending"  # the viewer is there before the first step
    assert start_job.sync(job.id, client=client).status in (JobStatus.QUEUED, JobStatus.RUNNING)
    messages = list(stream)
    assert messages[-1] == {"type": "finished", "status": "completed"}
    live_steps = [m["data"]["step"] for m in messages if m["type"] == "metric" and "loss" in m["data"]]
    assert live_steps == list(range(1, STEPS + 1))

    done = get_job.sync(job.id, client=client)
    assert done.status == JobStatus.COMPLETED and done.finished_at is not None
    loss = get_metrics.sync(job.id, client=client, keys=["loss"]).series
    assert loss and all(series.steps == live_steps for series in loss)

    # Errors arrive typed: a 422 names its field; the stream refuses an unknown job and a missing token.
    invalid = create_job.sync_detailed(client=client, body=JobCreate.from_dict({**body.to_dict(), "name": ""}))
    assert invalid.status_code == 422 and isinstance(invalid.parsed, ErrorBody)
    assert invalid.parsed.errors[0].field == "name"
    with pytest.raises(LiveStreamError) as unknown:
        next(live_metrics(client, "no-such-job"))
    assert unknown.value.code == 403
    with pytest.raises(LiveStreamError) as anonymous:
        next(live_metrics(Client(base_url=server.url), job.id))
    assert anonymous.value.code == 401


def test_a_route_changed_without_regenerating_the_client_fails_the_check(tmp_path):
    """Moving one route changes one generated file: the check names it, and nothing else (the committed client
    matches the current document)."""
    assert GENERATOR.exists(), "the generator's environment is missing: `make client-check` installs it"
    document = render()
    moved = document.replace('"/api/v1/jobs/{job}/start"', '"/api/v1/jobs/{job}/begin"')
    assert moved != document
    path = tmp_path / "openapi.json"
    path.write_text(moved, encoding="utf-8")
    command = [sys.executable, str(GENERATE), "--generator", str(GENERATOR), str(path), str(PACKAGE), "--check"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "run `make client`" in result.stderr
    listed = [line.strip() for line in result.stderr.splitlines() if line.startswith("  ")]
    assert listed == ["api/jobs/start_job.py"], f"is the committed client up to date (`make client`)?\n{result.stderr}"
