"""A status file that cannot be read is its job's problem alone: reading it never raises, the platform shows it
as that job's state, a restart settles that job with the reason, and the server lists jobs and starts."""

import json

import pytest

from tests.support.helpers import ServerProcess
from tests.support.jobs import add_job
from training_platform.contract.status import (
    TrainingState,
    TrainingStatus,
    load_status,
    parse_status,
    read_status,
    write_status,
)
from training_platform.jobs.runs import layout_of
from training_platform.jobs.states import JobStatus
from training_platform.jobs.supervisor import JobSupervisor
from training_platform.runners.local import LocalRunner

CORRUPT = {
    "not JSON": b'{"job_id": "j", "status": "runn',
    "not UTF-8": b'{"job_id": "\xff\xfe"}',
    "nested too deeply": b"[" * 100_000 + b"]" * 100_000,
    "not a status": json.dumps({"job_id": "j", "status": "flying", "current_step": "many"}).encode(),
    "a list": b"[1, 2, 3]",
    "larger than": b" " * (2 << 20) + b"{}",
}


@pytest.mark.parametrize("content", CORRUPT.values(), ids=CORRUPT)
def test_an_unreadable_status_file_reads_as_none_or_as_unreadable_never_raises(tmp_path, content):
    path = tmp_path / "j1_status.json"
    path.write_bytes(content)
    assert read_status(path) is None  # what a resuming trainer wants: start afresh
    shown = load_status(path)
    assert shown.status == TrainingState.UNREADABLE and shown.job_id == "j1"
    assert shown.message.startswith("the status file j1_status.json cannot be read: ")
    with pytest.raises(ValueError):
        parse_status(path)


def test_a_directory_in_place_of_the_status_file_is_unreadable_too(tmp_path):
    path = tmp_path / "j1_status.json"
    path.mkdir()
    assert read_status(path) is None and load_status(path).status == TrainingState.UNREADABLE
    assert load_status(tmp_path / "missing_status.json") is None


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_restart_settles_the_job_with_a_corrupt_status_file_and_only_it_with_that_reason(jobs, tmp_path):
    broken = add_job(jobs, tmp_path, JobStatus.RUNNING, attempt=1)
    layout_of(broken).status_path.write_text('{"status": "compl')
    fine = add_job(jobs, tmp_path, JobStatus.RUNNING, attempt=1)
    completed = TrainingStatus(job_id=fine.id, status=TrainingState.COMPLETED, current_step=3, message="completed")
    write_status(layout_of(fine).status_path, completed)
    supervisor = JobSupervisor(jobs, {"local": LocalRunner()}, 2, 1, 3600)
    supervisor.recover()  # the process of each is gone (none was started): settled from the status files
    broken, fine = jobs.get(broken.id), jobs.get(fine.id)
    assert broken.status == "failed"
    assert "lost:" in broken.error and "its status file cannot be read: not JSON" in broken.error
    assert (fine.status, fine.error) == ("completed", None)


def test_a_corrupt_status_file_leaves_the_server_listing_jobs_and_restarting(tmp_path):
    server = ServerProcess(home=tmp_path / "home")
    (tmp_path / "home").mkdir()
    server.start()
    try:
        ids = []
        for name in ("broken-status", "fine-status"):
            response = server.api.post(
                f"/monitoring/{name}/metrics/import",
                params={"filename": "m.jsonl"},
                content=b'{"step": 1, "loss": {"total_loss": 0.5}}\n',
            )
            assert response.status_code == 200, response.text
            ids.append(response.json()["job_id"])
        broken, fine = (server.job(job_id) for job_id in ids)
        status_path = f"{broken['output_dir']}/{broken['id']}_status.json"
        for content in CORRUPT.values():
            with open(status_path, "wb") as handle:
                handle.write(content)
            listed = server.api.get("/jobs")
            assert listed.status_code == 200, listed.text
            assert {job["id"] for job in listed.json()} >= set(ids)
            assert server.api.get(f"/jobs/{broken['id']}").status_code == 200
            assert server.api.get(f"/jobs/{fine['id']}").json()["status"] == "completed"
        server.stop_server_only()
        server.start()  # raises if the server does not come up
        assert server.api.get("/jobs").status_code == 200
    finally:
        server.shutdown()
