"""Pipelines on real Celery workers (`tplat worker` processes on a real Redis): the SFT → DPO → evaluate both →
keep-the-better template runs to its end shared by two workers, and a training stage outlives a worker killed under
it and a server killed under it, its job running once (pipelines/service.py: the stage changes hands by
compare-and-set, and a stage dispatched again re-attaches to the job it launched)."""

import signal
import time
from collections import Counter
from pathlib import Path

import pytest
import yaml

from tests.pipelines.conftest import pipeline, register_demo_assets, stages_of, wait_for_pipeline
from tests.support.celery import CeleryWorkers, broker_url  # noqa: F401  (a fixture)
from tests.support.helpers import ServerProcess, wait_until

# A stage whose task stops renewing its lease is dispatched again this long after: short, so that a killed worker's
# stage changes hands within the test's patience.
LEASE_SECONDS = 3
# The template's steps cut down to keep the suite short; each still trains, evaluates and registers for real.
TEMPLATE_STEPS = {"sft": 10, "dpo": 6}
# Long enough to be killed mid-run (a worker or the server, then the takeover) with steps still to go.
CHAOS_STEPS = 600
KILLED_AT_STEP = 5


@pytest.fixture(scope="module")
def server(tmp_path_factory, broker_url, demo_assets):  # noqa: F811  (the fixture imported above)
    """A server that sends stages to Celery, with the demo assets under the names the templates use."""
    process = ServerProcess(home=tmp_path_factory.mktemp("celery_home"))
    process.env["PLATFORM_CELERY_BROKER_URL"] = broker_url
    process.env["PLATFORM_PIPELINE_LEASE_SECONDS"] = str(LEASE_SECONDS)
    process.start()
    register_demo_assets(process, demo_assets)
    yield process
    process.shutdown()


@pytest.fixture
def workers(server, broker_url, tmp_path):  # noqa: F811
    started = CeleryWorkers(server, broker_url, tmp_path)
    yield started
    started.stop_all()


def job_ran_once(server: ServerProcess, job_id: str) -> dict:
    """The job completed, on its first attempt, having started and completed once."""
    job = server.job(job_id)
    assert job["status"] == "completed", job["error"]
    assert job["attempt"] == 1
    reached = Counter(event["to_status"] for event in server.api.get(f"/jobs/{job_id}/events").json())
    assert reached["running"] == 1 and reached["completed"] == 1, reached
    return job


def test_the_keep_the_better_template_runs_on_two_workers(server, workers):
    templates = {template["name"]: template for template in server.api.get("/pipelines/templates").json()}
    definition = yaml.safe_load(templates["sft-dpo-keep-better"]["text"])
    for stage in definition["stages"]:
        if stage["name"] in TEMPLATE_STEPS:
            steps = TEMPLATE_STEPS[stage["name"]]
            stage["params"]["params"].update(max_steps=steps, save_interval=steps)
    # One stage task at a time per worker: the two stages that run side by side (dpo and eval_sft) go one to each.
    workers.start("first", concurrency=1)
    workers.start("second", concurrency=1)
    started = time.monotonic()
    response = server.api.post("/pipelines", json={"definition": definition, "start": True})
    assert response.status_code == 201, response.text
    assert response.json()["executor"] == "celery"

    done = wait_for_pipeline(server, definition["name"], timeout=240)
    print(f"template pipeline took {time.monotonic() - started:.1f} s")
    stages = stages_of(done)
    assert done["status"] == "completed", (done["error"], {name: s["error"] for name, s in stages.items()})

    sft_job = stages["sft"]["work"]["name"]
    assert stages["sft"]["outputs"]["model"] == f"job:{sft_job}"
    dpo_job = stages["dpo"]["work"]["name"]
    # `${sft.model}` is `job:<sft job>`, which the job service resolves to that job's final model directory.
    final_sft_model = str(Path(server.job(stages["sft"]["work"]["id"])["output_dir"]) / "final")
    assert server.job(stages["dpo"]["work"]["id"])["model_path"] == final_sft_model
    for evaluation, evaluated in (("eval_sft", sft_job), ("eval_dpo", dpo_job)):
        run = server.api.get(f"/evaluations/{stages[evaluation]['work']['name']}").json()
        assert run["source_job"] == evaluated, run
    for evaluation in ("eval_sft", "eval_dpo"):
        assert isinstance(stages[evaluation]["outputs"]["metrics.exact_match"], int | float), stages[evaluation]
    kept = {name: stages[name]["status"] for name in ("keep_dpo", "keep_sft")}
    assert sorted(kept.values()) == ["completed", "skipped"], kept
    winner = "dpo" if kept["keep_dpo"] == "completed" else "sft"
    better = stages["eval_dpo" if winner == "dpo" else "eval_sft"]["outputs"]["metrics.exact_match"]
    worse = stages["eval_sft" if winner == "dpo" else "eval_dpo"]["outputs"]["metrics.exact_match"]
    assert better > worse if winner == "dpo" else better >= worse
    model = server.api.get("/models/sft-dpo-keep-better-best")
    assert model.status_code == 200, model.text
    assert stages[f"keep_{winner}"]["outputs"]["name"] == "sft-dpo-keep-better-best"

    ran = [stage for stage in stages.values() if stage["status"] == "completed"]
    assert {stage["worker"] for stage in ran} == {"first", "second"}, {s["name"]: s["worker"] for s in ran}
    assert all(stage["attempt"] == 1 for stage in ran)


def chaos_pipeline(name: str) -> dict:
    """A long SFT, and a stage that picks its last checkpoint: the takeover must hand the right job on."""
    return {
        "name": name,
        "stages": [
            {
                "name": "sft",
                "type": "train",
                "params": {
                    "algorithm": "sft",
                    "model_path": "model:demo-tiny-qwen2",
                    "dataset_paths": ["dataset:demo-sft"],
                    "params": {
                        "learning_rate": 0.003,
                        "batch_size": 2,
                        "micro_batch_size": 2,
                        "max_steps": CHAOS_STEPS,
                        "save_interval": CHAOS_STEPS,
                    },
                },
            },
            {
                "name": "last",
                "type": "select",
                "depends_on": ["sft"],
                "params": {"job": "${sft.job}", "rule": "last"},
            },
        ],
    }


def start_chaos_pipeline(server: ServerProcess, name: str) -> tuple[dict, dict]:
    """Start the pipeline and wait until its training job has done a few steps; the stage and the job then."""
    response = server.api.post("/pipelines", json={"definition": chaos_pipeline(name), "start": True})
    assert response.status_code == 201, response.text

    def training() -> dict | None:
        stage = stages_of(pipeline(server, name))["sft"]
        assert stage["status"] in ("pending", "dispatched", "running"), stage
        return stage if stage["work"] else None

    stage = wait_until(training, timeout=60, message="the training stage to launch its job")
    job = server.wait_for_step(stage["work"]["id"], KILLED_AT_STEP, timeout=120)
    return stage, job


def assert_ran_once(server: ServerProcess, name: str, before: dict, jobs_before: int, started: float) -> dict:
    done = wait_for_pipeline(server, name, timeout=180)
    print(f"{name} took {time.monotonic() - started:.1f} s")
    stages = stages_of(done)
    assert done["status"] == "completed", (done["error"], {n: s["error"] for n, s in stages.items()})
    assert stages["sft"]["work"]["id"] == before["work"]["id"], "the new task re-attached to the same job"
    assert len(server.api.get("/jobs").json()) == jobs_before, "no second training job"
    job_ran_once(server, before["work"]["id"])
    assert all(stage["attempt"] == 1 for stage in stages.values()), {n: s["attempt"] for n, s in stages.items()}
    assert stages["last"]["outputs"]["step"] == CHAOS_STEPS, stages["last"]["outputs"]
    assert stages["last"]["outputs"]["model"].startswith(f"job:{before['work']['name']}@"), stages["last"]["outputs"]
    return stages


def test_a_training_stage_outlives_its_killed_worker_and_its_job_runs_once(server, workers):
    workers.start("doomed", concurrency=1)
    started = time.monotonic()
    stage, job = start_chaos_pipeline(server, "killed-worker")
    assert stage["worker"] == "doomed"
    jobs_before = len(server.api.get("/jobs").json())

    workers.kill("doomed")
    workers.start("heir", concurrency=1)

    def taken_over() -> dict | None:
        now = stages_of(pipeline(server, "killed-worker"))["sft"]
        return now if now["worker"] == "heir" else None

    heir_stage = wait_until(taken_over, timeout=60, message="the new worker to take the stage over")
    assert heir_stage["task_id"] != stage["task_id"]
    assert server.job(job["id"])["status"] == "running", "the job ended before the takeover: make it longer"

    stages = assert_ran_once(server, "killed-worker", stage, jobs_before, started)
    assert stages["sft"]["worker"] == "heir"


def test_a_training_stage_outlives_a_killed_server_and_its_job_runs_once(server, workers):
    workers.start("steady", concurrency=1)
    started = time.monotonic()
    stage, job = start_chaos_pipeline(server, "killed-server")
    jobs_before = len(server.api.get("/jobs").json())

    server.process.send_signal(signal.SIGKILL)  # the server dies; the worker and the training process do not
    server.process.wait(timeout=30)
    server.start()
    assert server.job(job["id"])["status"] == "running", "the job ended before the restart: make it longer"
    assert workers.processes["steady"].poll() is None

    stages = assert_ran_once(server, "killed-server", stage, jobs_before, started)
    assert stages["sft"]["worker"] == "steady"


def test_a_worker_stopped_mid_stage_leaves_at_once_and_its_stage_is_taken_over(server, workers):
    """SIGTERM (Celery's warm shutdown) lets the worker's stage tasks end now rather than when their jobs end
    (pipelines/worker.py: run_worker); the stage goes to the next worker when its lease runs out."""
    leaving = workers.start("leaving", concurrency=1)
    started = time.monotonic()
    stage, job = start_chaos_pipeline(server, "stopped-worker")
    jobs_before = len(server.api.get("/jobs").json())

    leaving.send_signal(signal.SIGTERM)
    wait_until(lambda: leaving.poll() is not None, timeout=15, message="the stopped worker to leave")
    assert server.job(job["id"])["status"] == "running", "the job ended before the worker left: make it longer"
    workers.start("successor", concurrency=1)

    stages = assert_ran_once(server, "stopped-worker", stage, jobs_before, started)
    assert stages["sft"]["worker"] == "successor"
