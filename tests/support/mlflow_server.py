"""A real MLflow tracking server on loopback, from the virtual environment `make mlflow-env` builds (.venv-mlflow:
the mlflow package does not fit the platform's pins), and MLflow's own client run in that environment to read back
what a run holds."""

import json
import os
import signal
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.support.helpers import free_port, wait_until

MLFLOW_VENV = Path(__file__).resolve().parents[2] / ".venv-mlflow"
MLFLOW_PYTHON = MLFLOW_VENV / "bin" / "python"

# Read inside the MLflow environment: every metric of the export's run, through MlflowClient.get_metric_history.
_READ_RUN = """
import json, sys
from mlflow.tracking import MlflowClient
uri, experiment, tag = sys.argv[1:4]
client = MlflowClient(tracking_uri=uri)
found = client.get_experiment_by_name(experiment)
runs = client.search_runs([found.experiment_id], filter_string=f"tags.`training_platform.export` = '{tag}'")
out = []
for run in runs:
    history = {key: [(m.step, m.value, m.timestamp) for m in client.get_metric_history(run.info.run_id, key)]
               for key in run.data.metrics}
    out.append({"run_id": run.info.run_id, "status": run.info.status, "params": run.data.params,
                "tags": run.data.tags, "history": history})
print(json.dumps(out))
"""


def require_mlflow() -> None:
    if not MLFLOW_PYTHON.exists():
        pytest.fail(f"{MLFLOW_PYTHON} is missing: `make mlflow-env` builds it")


class MlflowServer:
    """`mlflow server` with a SQLite backend under `root`, stopped by its process group (its own session)."""

    def __init__(self, root: Path):
        require_mlflow()
        self.root = root
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    def launch(self) -> None:
        """Start it without waiting (its start takes tens of seconds: a test starts other things meanwhile)."""
        self.root.mkdir(parents=True, exist_ok=True)
        log = open(self.root / "mlflow.log", "a")
        self.process = subprocess.Popen(
            [
                str(MLFLOW_VENV / "bin" / "mlflow"),
                "server",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--workers",
                "1",
                "--backend-store-uri",
                f"sqlite:///{self.root / 'mlflow.db'}",
                "--default-artifact-root",
                str(self.root / "artifacts"),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, "MLFLOW_ENABLE_TELEMETRY": "false", "MLFLOW_DISABLE_TELEMETRY": "true"},
        )

    def wait_ready(self) -> None:
        wait_until(self._healthy, timeout=180, interval=0.5, message=f"mlflow server on {self.url}")

    def _healthy(self) -> bool:
        if self.process.poll() is not None:
            text = (self.root / "mlflow.log").read_text(errors="replace")[-3000:]
            raise AssertionError(f"mlflow server exited with {self.process.returncode}: {text}")
        try:
            return httpx.get(f"{self.url}/health", timeout=2).status_code == 200
        except httpx.TransportError:
            return False

    def stop(self) -> None:
        """Stop it and every process it started (its workers are in its session)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)
        self.process = None

    def runs(self, experiment: str, export_tag: str) -> list[dict]:
        """The runs of an export, each with its status, params, tags and full metric history, read by MLflow's
        own client."""
        done = subprocess.run(
            [str(MLFLOW_PYTHON), "-c", _READ_RUN, self.url, experiment, export_tag],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "MLFLOW_ENABLE_TELEMETRY": "false", "MLFLOW_DISABLE_TELEMETRY": "true"},
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout.strip().splitlines()[-1])
