"""Ray for tests, on loopback only, started and stopped by the test itself.

Ray binds every interface unless its network namespace has nothing but `lo`, so
Ray — and whatever must reach it — runs in a fresh namespace. Everything in the namespace is stopped by
PID at the end (`ray stop` would kill every Ray process on the machine).

More nodes join the head in the same namespace (`ray start --address`), each a raylet with its own resources
and its own temporary directory: one machine, a cluster of several nodes as Ray schedules it.
"""

import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

DASHBOARD_PORT = 8265
GCS_PORT = 6379


class LoopbackNamespace:
    """A network namespace with only `lo`: what runs inside can bind nothing but loopback."""

    def __init__(self):
        self.namespace = f"tplat-{uuid.uuid4().hex[:8]}"

    def inside(self, argv: list[str]) -> list[str]:
        return ["ip", "netns", "exec", self.namespace, *argv]

    def create(self) -> None:
        subprocess.run(["ip", "netns", "add", self.namespace], check=True)
        subprocess.run(self.inside(["ip", "link", "set", "lo", "up"]), check=True)

    def pids(self) -> list[int]:
        result = subprocess.run(["ip", "netns", "pids", self.namespace], capture_output=True, text=True)
        return [int(pid) for pid in result.stdout.split()]

    def delete(self) -> None:
        """Stop every process still in the namespace (SIGTERM, then SIGKILL), then remove it."""
        for sig in (signal.SIGTERM, signal.SIGKILL):
            for pid in self.pids():
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + 10
            while self.pids() and time.monotonic() < deadline:
                time.sleep(0.2)
        subprocess.run(["ip", "netns", "del", self.namespace], check=False)


class LoopbackRayCluster(LoopbackNamespace):
    """A Ray head in a loopback namespace, and the nodes added to it. Each node has `gpus_per_node` GPUs where
    given (logical ones on a machine without GPUs, one per training process of a run there), else the machine's."""

    def __init__(self, workdir: Path, gpus_per_node: int | None = None):
        super().__init__()
        self.workdir = workdir
        self.gpus_per_node = gpus_per_node
        self.token_file = workdir / "ray_auth_token"
        self.temp_dir = Path(f"/tmp/ray-{self.namespace}")  # Ray's socket paths must stay short
        self.node_temp_dirs: list[Path] = []
        self.address = f"http://127.0.0.1:{DASHBOARD_PORT}"

    @property
    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "RAY_USAGE_STATS_ENABLED": "0",
            "RAY_AUTH_MODE": "token",
            "RAY_AUTH_TOKEN_PATH": str(self.token_file),
        }

    def start(self) -> None:
        self.create()
        self.token_file.write_text(secrets.token_hex(32))
        head = ["--head", "--dashboard-host", "127.0.0.1", f"--dashboard-port={DASHBOARD_PORT}", f"--port={GCS_PORT}"]
        self._ray_start(head, self.temp_dir)

    def add_node(self) -> None:
        """One more node, joining the head; a temporary directory of its own, as on another machine."""
        temp_dir = Path(f"{self.temp_dir}-{len(self.node_temp_dirs) + 2}")
        self.node_temp_dirs.append(temp_dir)
        self._ray_start([f"--address=127.0.0.1:{GCS_PORT}"], temp_dir)

    def _ray_start(self, role: list[str], temp_dir: Path) -> None:
        ray = str(Path(sys.executable).with_name("ray"))
        resources = ["--num-cpus", "2", "--object-store-memory", str(256 * 2**20)]
        if self.gpus_per_node is not None:
            resources += ["--num-gpus", str(self.gpus_per_node)]
        subprocess.run(
            self.inside([ray, "start", *role, *resources, "--disable-usage-stats", "--temp-dir", str(temp_dir)]),
            env=self.env,
            check=True,
            capture_output=True,
            timeout=120,
        )

    def stop(self) -> None:
        self.delete()
        for temp_dir in (self.temp_dir, *self.node_temp_dirs):
            shutil.rmtree(temp_dir, ignore_errors=True)
