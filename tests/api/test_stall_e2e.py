"""A training process that stops making progress is found by the server's stall watch, stopped with every
process of its session, and failed with the reason and its log's last lines."""

import signal

import pytest

from tests.support.helpers import ServerProcess, session_members, wait_until

pytestmark = pytest.mark.slow
# Above what a loaded 2-core CI machine takes to start a training process, which logs nothing while it imports.
STALL_SECONDS = 40


@pytest.fixture
def stall_server(tmp_path):
    server = ServerProcess(home=tmp_path / "home")
    server.home.mkdir()
    server.env["PLATFORM_JOB_STALL_SECONDS"] = str(STALL_SECONDS)
    server.start()
    yield server
    server.shutdown()


def test_a_hung_job_is_stopped_reaped_and_failed_with_its_log(stall_server, demo_assets):
    server = stall_server
    job = server.create_job(
        name="hangs",
        algorithm="sft",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        params={"learning_rate": 1e-3, "batch_size": 8, "micro_batch_size": 8, "max_steps": 100_000},
        start=True,
    )
    server.wait_for_step(job["id"], 2, timeout=180)
    pid = server.job(job["id"])["pid"]
    # Freeze every process of the run: alive, holding its memory, writing nothing (like a deadlocked
    # collective). A frozen process does not act on SIGTERM, so only the escalation to SIGKILL ends it.
    frozen = session_members(pid)
    for proc in frozen:
        proc.send_signal(signal.SIGSTOP)

    failed = server.wait_for_status(job["id"], "failed", "completed", "cancelled", timeout=STALL_SECONDS + 60)
    assert failed["status"] == "failed"
    assert failed["error"].startswith("hung: no new log line, metric or status for ")
    assert f"(limit {STALL_SECONDS} s)" in failed["error"]
    assert len(failed["error"].splitlines()) > 1  # the reason, then the log's last lines
    assert failed["failure"]["kind"] == "hung" and failed["failure"]["resume_advised"] is True
    events = [(e["kind"], e["message"]) for e in server.api.get(f"/jobs/{job['id']}/events").json()]
    assert any(kind == "stall" and message.endswith("stopping it") for kind, message in events)
    wait_until(lambda: session_members(pid) == [], 20, message="every process of the hung run gone")
    assert not any(proc.is_running() for proc in frozen)
