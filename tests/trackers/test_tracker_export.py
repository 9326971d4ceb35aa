"""Tracker export end to end: a real server exports a demo SFT job to TensorBoard, a real MLflow server and W&B
offline, and an imported run to an MLflow server that fails for a while; every exported point is read back with
the tracker's own reader (TensorBoard's EventAccumulator, MLflow's MlflowClient, `wandb leet inspect`) and compared
with the platform's metrics API."""

import json
import math
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.support.helpers import ServerProcess, wait_until
from tests.support.jobs import sft_body
from tests.support.mlflow_server import MlflowServer
from tests.support.trackers import assert_same, mlflow_history, platform_points, tensorboard_points
from tests.trackers.refusing_proxy import RefusingProxy

pytestmark = pytest.mark.slow

WANDB = Path(sys.executable).parent / "wandb"
STEPS = 30


def platform_times(server: ServerProcess, job_id: str) -> dict[int, float]:
    """Each step's time, as the trainer wrote it (seconds since the epoch)."""
    (series,) = server.api.get(f"/monitoring/{job_id}/metrics", params={"keys": "timestamp"}).json()["series"]
    return dict(zip(series["steps"], series["values"], strict=True))


def mlflow_run_status(mlflow: MlflowServer, experiment: str, export_tag: str) -> str | None:
    """The export's run status, through MLflow's REST API (cheap enough to poll)."""
    found = httpx.get(
        f"{mlflow.url}/api/2.0/mlflow/experiments/get-by-name", params={"experiment_name": experiment}, timeout=30
    )
    if found.status_code != 200:
        return None
    body = {
        "experiment_ids": [found.json()["experiment"]["experiment_id"]],
        "filter": f"tags.`training_platform.export` = '{export_tag}'",
    }
    runs = httpx.post(f"{mlflow.url}/api/2.0/mlflow/runs/search", json=body, timeout=30).json().get("runs", [])
    return runs[0]["info"]["status"] if runs else None


def wandb_records(run_file: Path) -> list[dict]:
    """The records of a W&B run file, read by W&B's own reader."""
    done = subprocess.run([str(WANDB), "leet", "inspect", "--json", str(run_file)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def mlflow(tmp_path_factory):
    server = MlflowServer(tmp_path_factory.mktemp("mlflow"))
    server.launch()  # ready tens of seconds later: the platform's server starts meanwhile
    yield server
    server.stop()


@pytest.fixture(scope="module")
def proxy(mlflow):
    """The MLflow server behind a proxy that refuses or loses answers when told to: the platform's default export."""
    proxy = RefusingProxy(mlflow.url)
    proxy.start()
    yield proxy
    proxy.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory, proxy):
    process = ServerProcess(home=tmp_path_factory.mktemp("server_home"))
    process.env.update(
        PLATFORM_TRACKER_POLL_SECONDS="0.5",
        PLATFORM_TRACKER_TIMEOUT_SECONDS="30",
        PLATFORM_TRACKER_BACKOFF_SECONDS="0.2",
        PLATFORM_TRACKER_BACKOFF_MAX_SECONDS="1",
        PLATFORM_TRACKERS=json.dumps([{"kind": "mlflow", "tracking_uri": proxy.url, "experiment": "imports"}]),
    )
    process.start()
    yield process
    process.shutdown()


def test_a_demo_sft_job_exports_every_metric_of_every_step(server, mlflow, demo_assets):
    trackers = [
        {"kind": "tensorboard"},
        {"kind": "mlflow", "tracking_uri": mlflow.url, "experiment": "demo-sft"},
        {"kind": "wandb", "project": "demo", "mode": "offline"},
    ]
    job = server.create_job(**sft_body(demo_assets, "sft-trackers", max_steps=STEPS), trackers=trackers)
    mlflow.wait_ready()
    assert job["trackers"][1]["tracking_uri"] == mlflow.url
    assert server.api.post(f"/jobs/{job['id']}/start").status_code == 200
    job = server.wait_for_status(job["id"], "completed", "failed", timeout=300)
    assert job["status"] == "completed", job["error"]
    expected = platform_points(server, job["id"])
    assert {"loss", "learning_rate", "grad_norm", "epoch"} <= set(expected)
    assert set(expected["loss"]) == set(range(1, STEPS + 1))

    # MLflow: the run ends FINISHED once every step is in; its history read back by MLflow's own client.
    export_tag = f"{job['id']}-1"  # the job's id and the export's place in its list
    output = Path(job["output_dir"])
    finished = lambda: mlflow_run_status(mlflow, "demo-sft", export_tag) == "FINISHED"  # noqa: E731
    wait_until(finished, timeout=60, interval=0.5, message="the MLflow run to finish")
    (run,) = mlflow.runs("demo-sft", export_tag)
    for key, points in run["history"].items():
        assert len(points) == len({step for step, _, _ in points}), f"{key} has a step twice in MLflow"
    assert_same(mlflow_history(run), expected, rel=1e-12)
    times = platform_times(server, job["id"])
    assert {(step, ts) for step, _, ts in run["history"]["loss"]} == {(s, int(t * 1000)) for s, t in times.items()}
    assert run["params"]["max_steps"] == str(STEPS) and run["params"]["algorithm"] == "sft"
    assert run["tags"]["training_platform.final_model"] == str(output / "final")

    # TensorBoard: float32 scalars, one per key and step, and the job's outcome once the writer closed.
    def tensorboard_closed():
        points, texts = tensorboard_points(output / "tensorboard")
        return points if "job/outcome/text_summary" in texts else None

    assert_same(wait_until(tensorboard_closed, timeout=60, message="the event file to close"), expected, rel=1e-6)

    # W&B offline: the run directory's history, one row per step, and the run's exit.
    def wandb_finished():
        (run_file,) = (output / "wandb").glob("wandb/offline-run-*/run-*.wandb")
        records = wandb_records(run_file)
        return records if any(record["type"] == "exit" for record in records) else None

    records = wait_until(wandb_finished, timeout=60, message="the W&B run to finish")
    exports = server.api.get(f"/jobs/{job['id']}/trackers").json()
    assert [(e["kind"], e["status"], e["exported_step"], e["failures"]) for e in exports] == [
        (kind, "closed", STEPS, 0) for kind in ("tensorboard", "mlflow", "wandb")
    ]
    rows = [record["history"] for record in records if record["type"] == "history"]
    assert [row["step"]["num"] for row in rows] == sorted(expected["loss"])
    history = {key: {row["step"]["num"]: row["item"][key] for row in rows if key in row["item"]} for key in expected}
    assert_same(history, expected, rel=1e-12)
    assert all(math.isclose(row["item"]["_timestamp"], times[row["step"]["num"]], rel_tol=1e-12) for row in rows)


def imported_lines(first: int, last: int) -> bytes:
    lines = [
        {
            "step": step,
            "timestamp": 1_700_000_000 + step,
            "loss": {"total_loss": 1 / step},
            "custom": {"acc": step / 1000},
        }
        for step in range(first, last + 1)
    ]
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def test_an_export_to_a_tracker_that_fails_for_a_while_delivers_every_point_once(server, mlflow, proxy):
    """The platform's default (MLflow behind the proxy) applies to an imported run. The tracker refuses every request
    through a restart of the platform's server, then loses the answers of requests it carried out (a run created, a
    batch logged), then refuses again while more steps arrive: each point arrives exactly once, in one run."""
    proxy.refusing = True
    imported = server.api.post(
        "/monitoring/imported-run/metrics/import", params={"filename": "run.jsonl"}, content=imported_lines(1, 1200)
    )
    assert imported.status_code == 200, imported.text
    job_id = imported.json()["job_id"]
    assert server.job(job_id)["trackers"] is None  # the platform's default applies
    wait_until(lambda: proxy.refused >= 3, timeout=60, message="the export to be refused")

    (export,) = server.api.get(f"/jobs/{job_id}/trackers").json()  # the API says what holds it up
    assert export["exported_step"] is None and export["failures"] >= 3 and export["last_error"], export

    server.stop_server_only()  # the export's cursor is in the database: a new server goes on from it
    refused = proxy.refused
    server.start()
    wait_until(lambda: proxy.refused > refused, timeout=60, message="the new server to try the export again")

    mlflow.wait_ready()
    proxy.answers_to_lose = {"runs/create": 1, "runs/log-batch": 2}
    proxy.refusing = False
    export_tag = f"{job_id}-0"  # the job's id and the export's place in its list

    def history_up_to(last_step: int):
        if mlflow_run_status(mlflow, "imports", export_tag) != "FINISHED":
            return None
        (run,) = mlflow.runs("imports", export_tag)  # one run: the one whose creation's answer was lost
        steps = [step for step, _, _ in run["history"].get("loss", [])]
        return run if steps and max(steps) == last_step else None

    run = wait_until(lambda: history_up_to(1200), timeout=120, interval=1, message="the import's export")
    assert proxy.lost == 3
    assert sorted(step for step, _, _ in run["history"]["loss"]) == list(range(1, 1201))

    proxy.refusing = True
    refused = proxy.refused
    grown = server.api.post(  # the same file, grown: what is new is read, and exported once MLflow answers
        "/monitoring/imported-run/metrics/import", params={"filename": "run.jsonl"}, content=imported_lines(1, 1500)
    )
    assert grown.status_code == 200, grown.text
    wait_until(lambda: proxy.refused > refused, timeout=60, message="the grown import's export to be refused")
    proxy.refusing = False
    run = wait_until(lambda: history_up_to(1500), timeout=120, interval=1, message="the grown import's export")
    expected = platform_points(server, job_id)
    assert set(run["history"]) == set(expected) == {"loss", "acc"}
    for key, points in run["history"].items():
        assert sorted(step for step, _, _ in points) == list(range(1, 1501)), f"{key}: a step missing or twice"
    assert_same(mlflow_history(run), expected, rel=1e-12)
    exported = lambda: server.api.get(f"/jobs/{job_id}/trackers").json()[0]["exported_step"] == 1500  # noqa: E731
    wait_until(exported, timeout=30, message="the export's cursor at the last step")
    first = tuple(min(run["history"]["loss"]))
    assert first == (1, 1.0, 1_700_000_001 * 1000)  # the step's own time, in milliseconds
