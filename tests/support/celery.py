"""Real Celery workers for pipeline tests: `tplat worker` processes on a Redis database of the test's own.

The Redis at 127.0.0.1:6379 is shared (other suites, other pytest-xdist workers), so each xdist worker takes its own
database number and empties it first: a message left by an earlier run would otherwise reach these workers."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from tests.support.helpers import ServerProcess, session_members, wait_until

REDIS_URL = os.environ.get("PLATFORM_TEST_REDIS_URL", "redis://127.0.0.1:6379")
FIRST_DATABASE = 10  # 10…15 of Redis' default 16: the lower numbers are left to whoever else uses the Redis
DATABASES = 6


def broker_database() -> int:
    """This pytest-xdist worker's database (gw0 → 10, gw1 → 11, …); 10 without xdist."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker.removeprefix("gw")) if worker.removeprefix("gw").isdigit() else 0
    return FIRST_DATABASE + index % DATABASES


@pytest.fixture(scope="module")
def broker_url() -> str:
    """An emptied Redis database for this module's broker."""
    url = f"{REDIS_URL}/{broker_database()}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()
    return url


class CeleryWorkers:
    """`tplat worker` processes for `server`, each in its own session so that a kill takes the whole worker (Celery's
    process and anything it started) and nothing else."""

    def __init__(self, server: ServerProcess, broker_url: str, log_dir: Path):
        self.server = server
        self.broker_url = broker_url
        self.log_dir = log_dir
        self.processes: dict[str, subprocess.Popen] = {}

    def start(self, name: str, concurrency: int = 2) -> subprocess.Popen:
        log = open(self.log_dir / f"worker-{name}.log", "a")
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "training_platform.cli.main",
                "worker",
                "--concurrency",
                str(concurrency),
                "--name",
                name,
            ],
            env={**self.server.env, "PLATFORM_CELERY_BROKER_URL": self.broker_url},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        self.processes[name] = process
        wait_until(lambda: self._ready(name), timeout=60, message=f"worker {name} to take tasks")
        return process

    def _ready(self, name: str) -> bool:
        process = self.processes[name]
        if process.poll() is not None:
            raise AssertionError(f"worker {name} exited with {process.returncode}: {self.log_text(name)[-3000:]}")
        return " ready." in self.log_text(name)  # Celery's "celery@<name> ready." once it consumes the queue

    def log_text(self, name: str) -> str:
        return (self.log_dir / f"worker-{name}.log").read_text(errors="replace")

    def kill(self, name: str) -> None:
        """SIGKILL the worker's whole session, as a machine that loses power would."""
        process = self.processes.pop(name)
        members = session_members(process.pid)
        for member in members:
            member.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        wait_until(lambda: not session_members(process.pid), timeout=30, message=f"worker {name}'s processes to end")

    def stop_all(self) -> None:
        """SIGTERM (Celery's warm shutdown) each worker, SIGKILL what is left after a while."""
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for name, process in list(self.processes.items()):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
            for member in session_members(process.pid):
                member.send_signal(signal.SIGKILL)
            process.wait(timeout=30)
            del self.processes[name]
