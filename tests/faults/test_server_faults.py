"""Faults against real servers: a second server on the same data directory is refused; a stop racing a start and a
server killed right after a start leave no training process the database does not know, and a training process
sees none of the server's secrets."""

import base64
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import httpx
import psutil
import pytest

from tests.support.helpers import ServerProcess, wait_until
from training_platform.platform import HomeInUseError, lock_home

SECRETS = {
    # A Fernet key, as the server requires of PLATFORM_SECRET_KEY, made of a canary word.
    "PLATFORM_SECRET_KEY": base64.urlsafe_b64encode(b"secret-key-canary".ljust(32, b"-")).decode(),
    "PLATFORM_MILVUS_TOKEN": "milvus-token-canary",
    "HF_TOKEN": "hf-token-canary",
}


def test_a_data_directory_is_held_by_one_platform_at_a_time(tmp_path):
    held = lock_home(tmp_path)
    with pytest.raises(HomeInUseError, match=rf"in use by another platform server \(pid {os.getpid()}\)"):
        lock_home(tmp_path)
    held.close()
    lock_home(tmp_path).close()  # free again once released


def test_a_second_server_on_the_same_data_directory_is_refused(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    first = ServerProcess(home=home)
    first.start()
    try:
        second = ServerProcess(home=home)
        with pytest.raises(AssertionError, match=rf"in use by another platform server \(pid {first.process.pid}\)"):
            second.start()
        assert first.api.get("/jobs").status_code == 200  # the first one is untouched
    finally:
        first.shutdown()


def job_processes(job: dict) -> list[psutil.Process]:
    """The live processes working in the job's directory (a training run and whatever it started)."""
    found = []
    for process in psutil.process_iter():
        try:
            if process.cwd() == job["output_dir"] and process.status() != psutil.STATUS_ZOMBIE:
                found.append(process)
        except psutil.Error:
            pass
    return found


def sft_body(demo_assets, name: str) -> dict:
    return dict(
        name=name,
        algorithm="sft",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        params=dict(batch_size=4, micro_batch_size=4, max_steps=20_000, save_interval=10_000),
    )


@pytest.fixture
def server(tmp_path, demo_assets):
    home = tmp_path / "home"
    home.mkdir()
    process = ServerProcess(home=home)
    process.env.update(SECRETS)
    process.env["PLATFORM_DATABASE_URL"] = f"sqlite:///{home / 'platform.db'}"
    process.env["PLATFORM_DATA_ROOTS"] = str(demo_assets["model"].parent)
    process.start()
    yield process
    process.shutdown()


def post_after(server: ServerProcess, path: str, delay: float, answers: dict[str, int]) -> threading.Thread:
    """POST `path` after `delay` seconds, on a connection of its own; its status code goes into `answers`."""

    def post() -> None:
        time.sleep(delay)
        with httpx.Client(base_url=server.api.base_url, headers=server.auth_headers, timeout=60) as client:
            answers[path] = client.post(path).status_code

    thread = threading.Thread(target=post)
    thread.start()
    return thread


@pytest.mark.slow
def test_a_stop_racing_a_start_leaves_no_process_behind(server, demo_assets):
    for round_number, delay in enumerate((0.0, 0.3, 1.5)):
        job = server.create_job(**sft_body(demo_assets, f"race-{round_number}"))
        start, stop, answers = f"/jobs/{job['id']}/start", f"/jobs/{job['id']}/stop", {}
        for thread in [post_after(server, start, 0.0, answers), post_after(server, stop, delay, answers)]:
            thread.join(120)
        assert answers[stop] == 200 and answers[start] in (200, 409), answers
        settled = server.wait_for_status(job["id"], "cancelled", "failed", "completed", timeout=60)
        assert (settled["status"], settled["pid"]) == ("cancelled", None), settled
        wait_until(lambda job=job: job_processes(job) == [], 15, message=f"no process of round {round_number}")


@pytest.mark.slow
def test_a_run_started_just_before_the_server_was_killed_is_found_and_stopped(server, demo_assets):
    job = server.create_job(**sft_body(demo_assets, "crash-after-launch"))
    assert server.api.post(f"/jobs/{job['id']}/start").status_code == 200
    server.wait_for_step(job["id"], 1)  # it trains with the environment it was given
    server.process.send_signal(signal.SIGKILL)
    server.process.wait(30)
    [leader] = [p for p in job_processes(job) if os.getsid(p.pid) == p.pid]
    environment = leader.environ()
    # The training process sees none of the server's secrets (its database URL, tokens, keys).
    assert not {"PLATFORM_ADMIN_TOKEN", "PLATFORM_DATABASE_URL", "PLATFORM_TOKEN", *SECRETS} & set(environment)
    assert not any("canary" in value or server.admin_token in value for value in environment.values())
    assert environment["PLATFORM_HOME"] == str(server.home)
    # What a server killed between starting the process and recording it leaves: the launch id, no process.
    with sqlite3.connect(server.home / "platform.db") as database:
        database.execute(
            "UPDATE jobs SET pid = NULL, process_started_at = NULL, run_ref = ? WHERE id = ?",
            (environment["PLATFORM_LAUNCH_ID"], job["id"]),
        )
    server.start()
    found = server.job(job["id"])
    assert (found["status"], found["pid"]) == ("running", leader.pid)
    events = server.api.get(f"/jobs/{job['id']}/events").json()
    assert any(f"of launch {environment['PLATFORM_LAUNCH_ID']}" in event["message"] for event in events)
    assert server.api.post(f"/jobs/{job['id']}/stop").json()["status"] == "cancelled"
    wait_until(lambda: job_processes(job) == [], 30, message="no process of the job")
    assert server.admin_token not in server.log_text() and "canary" not in server.log_text()


@pytest.mark.parametrize("reachable", [True, False])
def test_db_upgrade_never_prints_the_database_password(tmp_path, postgres_url, reachable):
    from sqlalchemy.engine import make_url

    url = make_url(postgres_url).set(password="pw-canary-1234")  # the test server trusts: any password will do
    if not reachable:
        url = url.set(port=1)
    env = {**os.environ, "PLATFORM_HOME": str(tmp_path), "PLATFORM_DATABASE_URL": url.render_as_string(False)}
    result = subprocess.run(
        [sys.executable, "-m", "training_platform.cli.main", "db", "upgrade"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (result.returncode == 0) == reachable, result.stdout + result.stderr
    assert "pw-canary-1234" not in result.stdout + result.stderr
