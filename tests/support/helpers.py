"""Test helpers: a real platform server process and small waiting utilities."""

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil

# One torch thread for training and embeddings: the test machine has two cores and runs the tests on them too.
TRAINING_ENV = {
    "PLATFORM_TRAIN_CPU_THREADS": "1",
    "PLATFORM_EMBEDDING_CPU_THREADS": "1",
    "PLATFORM_STOP_GRACE_SECONDS": "5",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def session_members(sid: int) -> list[psutil.Process]:
    """The live processes of session `sid` (a local run's processes, whatever groups they moved to)."""
    members = []
    for proc in psutil.process_iter():
        try:
            if os.getsid(proc.pid) == sid and proc.status() != psutil.STATUS_ZOMBIE:
                members.append(proc)
        except (OSError, psutil.Error):
            pass
    return members


def wait_until(predicate, timeout: float, interval: float = 0.2, message: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {message}")


def _base_temporary_directory(home: Path) -> Path:
    """pytest's base temporary directory (…/pytest-of-USER/pytest-N) holding `home`; `home`'s parent elsewhere."""
    for ancestor in home.resolve().parents:
        if ancestor.parent.name.startswith("pytest-of-"):
            return ancestor
    return home.parent


class ServerProcess:
    """A real `tplat serve` on loopback. It is started with an admin token (PLATFORM_ADMIN_TOKEN), which `api`
    sends and the CLI commands run by `cli` use (PLATFORM_TOKEN); its first start also makes the user `admin`,
    whose password is in `admin_password_file`."""

    def __init__(self, home: Path, database_url: str | None = None):
        self.home = home
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.admin_token = secrets.token_urlsafe(32)
        self.env = {
            **os.environ,
            **TRAINING_ENV,
            "PLATFORM_HOME": str(home),
            "PLATFORM_PORT": str(self.port),
            "PLATFORM_URL": self.url,
            "PLATFORM_ADMIN_TOKEN": self.admin_token,
            "PLATFORM_TOKEN": self.admin_token,
            # `tplat auth login` writes here, never to the config of whoever runs the tests.
            "PLATFORM_CONFIG": str(home / "cli-config.toml"),
            # Models and datasets by path only under data roots (docs/security.md): a test's files (the session's
            # demo assets, tmp_path) are in pytest's base temporary directory, like the home.
            "PLATFORM_DATA_ROOTS": str(_base_temporary_directory(home)),
        }
        if database_url:
            self.env["PLATFORM_DATABASE_URL"] = database_url
        self.process: subprocess.Popen | None = None
        self.api = httpx.Client(base_url=f"{self.url}/api/v1", timeout=60, headers=self.auth_headers)

    @property
    def auth_headers(self) -> dict[str, str]:
        """What a script sends: the admin token. WebSocket clients pass it as `additional_headers`."""
        return {"Authorization": f"Bearer {self.admin_token}"}

    @property
    def admin_password_file(self) -> Path:
        return self.home / "admin-password"

    def anonymous(self) -> httpx.Client:
        """A client without any credential."""
        return httpx.Client(base_url=f"{self.url}/api/v1", timeout=60)

    def ws_url(self, path: str) -> str:
        return self.url.replace("http", "ws", 1) + "/api/v1" + path

    def start(self) -> None:
        log = open(self.home / "server.log", "a")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "training_platform.cli.main", "serve"],
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_until(self._healthy, timeout=60, message=f"server on {self.url}")

    def _healthy(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"server exited with {self.process.returncode}: {self.log_text()[-3000:]}")
        try:
            return self.api.get("/health").status_code == 200
        except httpx.TransportError:
            return False

    def log_text(self) -> str:
        return (self.home / "server.log").read_text(errors="replace")

    def stop_server_only(self) -> None:
        """Stop the API server the way an operator would (SIGTERM); training processes keep running."""
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)

    def shutdown(self) -> None:
        """Stop every job this server still runs, then the server; nothing it started outlives the test."""
        if self.process is not None and self.process.poll() is None:
            for job in self.api.get("/jobs", params={"status": "running"}).json():
                self.api.post(f"/jobs/{job['id']}/stop")
            self.stop_server_only()
        for proc in psutil.process_iter(["environ"]):
            try:
                if (proc.info["environ"] or {}).get("PLATFORM_HOME") == str(self.home):
                    proc.kill()
            except psutil.Error:
                pass

    def cli(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "training_platform.cli.main", *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def create_job(self, **body) -> dict:
        response = self.api.post("/jobs", json=body)
        assert response.status_code == 201, response.text
        return response.json()

    def job(self, job_id: str) -> dict:
        return self.api.get(f"/jobs/{job_id}").json()

    def wait_for_status(self, job_id: str, *statuses: str, timeout: float = 300) -> dict:
        def reached():
            job = self.job(job_id)
            return job if job["status"] in statuses else None

        return wait_until(reached, timeout, interval=0.3, message=f"job {job_id} to become {'/'.join(statuses)}")

    def export(self, job_id: str, checkpoint: str, timeout: float = 600) -> dict:
        """Export a checkpoint (a background task) and wait for the task to end; the finished task."""
        response = self.api.post(f"/jobs/{job_id}/checkpoints/{checkpoint}/export")
        assert response.status_code == 202, response.text
        task_id = response.json()["id"]

        def ended():
            task = self.api.get(f"/jobs/{job_id}/tasks/{task_id}").json()
            return task if task["status"] in ("completed", "failed") else None

        return wait_until(ended, timeout, interval=0.5, message=f"the export of {checkpoint}")

    def wait_for_step(self, job_id: str, step: int, timeout: float = 120) -> dict:
        def reached():
            job = self.job(job_id)
            progress = job.get("progress") or {}
            if job["status"] != "running":
                raise AssertionError(f"job left running before step {step}: {job['status']} {job['error']}")
            return job if progress.get("current_step", 0) >= step else None

        return wait_until(reached, timeout, interval=0.2, message=f"job {job_id} to reach step {step}")
