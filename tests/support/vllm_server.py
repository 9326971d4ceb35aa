"""vLLM's OpenAI-compatible server from the CPU RL environment (.venv-rl), as the evaluation tests and benchmark use
it: started in a network namespace with only `lo` (vLLM's engine processes bind more than loopback otherwise), it
listens on a Unix socket, which the namespace does not hide, and a TCP forwarder makes that socket a port on the
host's 127.0.0.1 for the platform's server and the test to reach."""

import os
import subprocess
from pathlib import Path

import httpx

from tests.support.helpers import wait_until
from tests.support.ray_cluster import LoopbackNamespace
from tests.support.tcp_proxy import TcpProxy

RL_PYTHON = Path(".venv-rl/bin/python").absolute()
VLLM_ENV = {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_TARGET_DEVICE": "cpu", "HF_HUB_OFFLINE": "1"}


class VllmServer:
    """`vllm serve MODEL` with an API key, reachable at `base_url` (…/v1) as `served_model`."""

    def __init__(self, model_dir: Path, workdir: Path, api_key: str, served_model: str = "demo"):
        self.model_dir = model_dir
        self.workdir = workdir
        self.api_key = api_key
        self.served_model = served_model
        self.namespace = LoopbackNamespace()
        self.socket_path = workdir / "vllm.sock"
        self.relay: TcpProxy | None = None
        self.process: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.relay.port}/v1"

    def start(self, timeout: float = 420) -> "VllmServer":
        self.namespace.create()
        argv = [
            str(RL_PYTHON), "-m", "vllm.entrypoints.openai.api_server", "--model", str(self.model_dir),
            "--served-model-name", self.served_model, "--uds", str(self.socket_path), "--api-key", self.api_key,
            "--dtype", "float32", "--max-model-len", "512", "--enforce-eager", "--seed", "0",
        ]  # fmt: skip
        log = open(self.workdir / "vllm.log", "ab")
        self.process = subprocess.Popen(
            self.namespace.inside(argv), env={**os.environ, **VLLM_ENV}, stdout=log, stderr=subprocess.STDOUT
        )
        self.relay = TcpProxy(unix_socket=self.socket_path)
        self.relay.restore()
        wait_until(self._ready, timeout=timeout, interval=1.0, message="vLLM's server")
        return self

    def _ready(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"vLLM exited with {self.process.returncode}: {self.log_text()[-4000:]}")
        if not self.socket_path.exists():
            return False
        try:
            headers = {"Authorization": f"Bearer {self.api_key}"}
            return httpx.get(f"{self.base_url}/models", headers=headers, timeout=5).status_code == 200
        except httpx.TransportError:
            return False

    def log_text(self) -> str:
        return (self.workdir / "vllm.log").read_text(errors="replace")

    def stop(self) -> None:
        if self.relay is not None:
            self.relay.cut()
        self.namespace.delete()  # every process in it, vLLM's engine processes included
        if self.process is not None:
            self.process.wait(timeout=30)
        self.socket_path.unlink(missing_ok=True)
