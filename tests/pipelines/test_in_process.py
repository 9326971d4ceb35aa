"""Pipelines run on the server's own threads (no PLATFORM_CELERY_BROKER_URL), with real jobs on the demo assets:
the SFT → DPO → evaluate both → keep the better template to its end with every reference resolved; a pipeline
whose third stage fails, resumed once its input is fixed without running its first two stages again; a completed
stage edited, run again only when a resume names it; a running pipeline cancelled and resumed; and a server
killed while a training stage runs, whose next start re-attaches the stage to the same job."""

import signal
import time
from datetime import datetime
from pathlib import Path

from tests.pipelines.conftest import (
    create,
    job_names,
    jobs,
    pipeline,
    pipeline_server,
    register_demo_assets,
    shown,
    stages_of,
    wait_for_pipeline,
    wait_for_stage,
)

TEMPLATE = "sft-dpo-keep-better"
# The template's steps cut down (40 and 20 steps) to keep the run within the suite's budget: still real training,
# checkpoints and evaluations.
SHORTER = {
    "max_steps: 40, save_interval: 20": "max_steps: 4, save_interval: 2",
    "max_steps: 20, save_interval: 10": "max_steps: 2, save_interval: 1",
    "max_new_tokens: 16": "max_new_tokens: 8",
}
TINY_SFT = {"learning_rate": 0.003, "batch_size": 8, "micro_batch_size": 8, "max_steps": 3, "save_interval": 3}
# About 18 steps a second here after some 20 s of start-up: the job outlasts a server's restart by some 30 s.
RESTART_STEPS = 600


def sft_stage(name: str, steps: int = 3, **train_params) -> dict:
    """A short SFT job on the demo assets, by their registered names."""
    return {
        "name": name,
        "type": "train",
        "params": {
            "algorithm": "sft",
            "model_path": "model:demo-tiny-qwen2",
            "dataset_paths": ["dataset:demo-sft"],
            "params": {**TINY_SFT, "max_steps": steps, "save_interval": steps, **train_params},
        },
    }


def moment(text: str) -> datetime:
    return datetime.fromisoformat(text)


def durations(read: dict) -> dict[str, float]:
    """Each finished stage's seconds from its dispatch to its end."""
    return {
        stage["name"]: round((moment(stage["finished_at"]) - moment(stage["dispatched_at"])).total_seconds(), 1)
        for stage in read["stages"]
        if stage["finished_at"] and stage["dispatched_at"]
    }


def test_the_sft_dpo_keep_better_template_runs_to_its_end_on_the_demo_assets(demo_server):
    templates = {template["name"]: template for template in demo_server.api.get("/pipelines/templates").json()}
    text = templates[TEMPLATE]["text"]
    for long, short in SHORTER.items():
        assert long in text, f"the template changed: {long!r} is not in it"
        text = text.replace(long, short)
    began = time.monotonic()
    created = create(demo_server, text=text)
    assert created["executor"] == "in-process"
    assert created["layers"] == [["sft"], ["dpo", "eval_sft"], ["eval_dpo"], ["keep_dpo", "keep_sft"]]

    done = wait_for_pipeline(demo_server, TEMPLATE, timeout=300)
    print(f"the template ran in {time.monotonic() - began:.1f} s: {durations(done)}")
    assert done["status"] == "completed", shown(done)
    stages = stages_of(done)
    sft_job, dpo_job = stages["sft"]["work"]["name"], stages["dpo"]["work"]["name"]
    assert stages["sft"]["outputs"]["model"] == f"job:{sft_job}"
    records = {name: demo_server.job(stages[name]["work"]["id"]) for name in ("sft", "dpo")}
    # ${sft.model} reached the DPO job as `job:<sft job>`, which the jobs API reads as that job's final model.
    assert records["dpo"]["algorithm"] == "dpo"
    assert records["dpo"]["model_path"].startswith(records["sft"]["output_dir"]), records["dpo"]["model_path"]
    assert stages["dpo"]["outputs"]["model"] == f"job:{dpo_job}"
    for evaluated, model in (("eval_sft", sft_job), ("eval_dpo", dpo_job)):
        outputs = stages[evaluated]["outputs"]
        assert isinstance(outputs["metrics.exact_match"], int | float), outputs
        run = demo_server.api.get(f"/evaluations/{outputs['run']}").json()
        assert run["source_job"] == model, run
    better_is_dpo = (
        stages["eval_dpo"]["outputs"]["metrics.exact_match"] > (stages["eval_sft"]["outputs"]["metrics.exact_match"])
    )
    kept, other = ("keep_dpo", "keep_sft") if better_is_dpo else ("keep_sft", "keep_dpo")
    assert (stages[kept]["status"], stages[other]["status"]) == ("completed", "skipped")
    assert "condition" in stages[other]["error"]
    model = demo_server.api.get("/models/sft-dpo-keep-better-best")
    assert model.status_code == 200, model.text
    kept_job = records["dpo" if better_is_dpo else "sft"]
    assert model.json()["path"].startswith(kept_job["output_dir"]), (model.json(), kept_job["output_dir"])
    assert stages[kept]["outputs"]["model"] == "model:sft-dpo-keep-better-best"
    # Each stage ran once: one attempt, one job each for the two trainings and the two evaluations.
    assert {name: stage["attempt"] for name, stage in stages.items() if name != other} == {
        name: 1 for name in stages if name != other
    }
    assert sorted(name for name in job_names(demo_server) if name.startswith(TEMPLATE)) == sorted(
        f"{TEMPLATE}-{stage}" for stage in ("sft", "dpo", "eval-sft", "eval-dpo")
    )


def test_a_pipeline_whose_third_stage_failed_resumes_without_running_its_first_two_again(demo_server, demo_assets):
    # The third stage registers a model from a directory that is not there; the definition is then fixed (PUT).
    missing = Path(demo_assets["model"]).parent / "no-model-here"
    register = {"name": "keep", "type": "register", "depends_on": ["best"]}
    definition = {
        "name": "resumed",
        "stages": [
            sft_stage("sft"),
            {"name": "best", "type": "select", "depends_on": ["sft"], "params": {"job": "${sft.job}", "rule": "last"}},
            {**register, "params": {"name": "resumed-model", "path": str(missing)}},
        ],
    }
    create(demo_server, definition=definition)
    failed = wait_for_pipeline(demo_server, "resumed", timeout=120)
    stages = stages_of(failed)
    assert failed["status"] == "failed", shown(failed)
    assert [stages[name]["status"] for name in ("sft", "best", "keep")] == ["completed", "completed", "failed"]
    assert "does not exist" in stages["keep"]["error"] and "keep" in failed["error"]
    before = {name: (stage["attempt"], stage["task_id"]) for name, stage in stages.items()}
    jobs_before = job_names(demo_server)
    assert "resumed-sft" in jobs_before

    definition["stages"][2]["params"]["path"] = str(demo_assets["model"])
    edited = demo_server.api.put("/pipelines/resumed", json={"definition": definition})
    assert edited.status_code == 200, edited.text
    resumed = demo_server.api.post("/pipelines/resumed/resume", json={})
    assert resumed.status_code == 200, resumed.text
    done = wait_for_pipeline(demo_server, "resumed", timeout=60)
    stages = stages_of(done)
    assert done["status"] == "completed", shown(done)
    # The first two stages kept their attempt, task and outputs; only the third ran again, as its second attempt.
    assert {name: (stages[name]["attempt"], stages[name]["task_id"]) for name in ("sft", "best")} == {
        name: before[name] for name in ("sft", "best")
    }
    assert stages["keep"]["attempt"] == 2 and stages["keep"]["task_id"] != before["keep"][1]
    assert stages["keep"]["outputs"]["model"] == "model:resumed-model"
    assert job_names(demo_server) == jobs_before, "no job ran again"
    assert demo_server.api.get("/models/resumed-model").json()["path"] == str(Path(demo_assets["model"]).resolve())


def test_an_edited_stage_runs_again_only_when_a_resume_names_it(demo_server):
    select = {"job": "${sft.job}", "rule": "last"}
    definition = {
        "name": "edited",
        "stages": [
            sft_stage("sft", steps=2, save_interval=1, save_total_limit=None),  # a checkpoint at each step
            {"name": "best", "type": "select", "depends_on": ["sft"], "params": select},
            {"name": "after", "type": "empty", "depends_on": ["best"]},
        ],
    }
    create(demo_server, definition=definition)
    first = wait_for_pipeline(demo_server, "edited", timeout=120)
    assert first["status"] == "completed", shown(first)
    assert stages_of(first)["best"]["outputs"]["step"] == 2
    attempts = {name: stage["attempt"] for name, stage in stages_of(first).items()}
    jobs_before = job_names(demo_server)

    definition["stages"][1]["params"] = {**select, "to_step": 1}
    edited = demo_server.api.put("/pipelines/edited", json={"definition": definition})
    assert edited.status_code == 200, edited.text
    assert {stage["name"]: stage["edited"] for stage in edited.json()["stages"]} == {
        "sft": False,
        "best": True,
        "after": False,
    }
    assert pipeline(demo_server, "edited")["stages"][1]["edited"] is True

    # Resumed without naming it: nothing runs again, the stage keeps its outputs and stays marked edited.
    assert demo_server.api.post("/pipelines/edited/resume", json={}).status_code == 200
    again = wait_for_pipeline(demo_server, "edited", timeout=30)
    assert again["status"] == "completed", shown(again)
    assert {name: stage["attempt"] for name, stage in stages_of(again).items()} == attempts
    assert stages_of(again)["best"]["outputs"]["step"] == 2 and stages_of(again)["best"]["edited"] is True

    # Named: it runs again with its new parameters, and so does what depends on it; the training does not.
    resumed = demo_server.api.post("/pipelines/edited/resume", json={"rerun": ["best"]})
    assert resumed.status_code == 200, resumed.text
    done = wait_for_pipeline(demo_server, "edited", timeout=30)
    stages = stages_of(done)
    assert done["status"] == "completed", shown(done)
    assert {name: stage["attempt"] for name, stage in stages.items()} == {"sft": 1, "best": 2, "after": 2}
    assert stages["best"]["outputs"]["step"] == 1 and stages["best"]["edited"] is False
    assert job_names(demo_server) == jobs_before


def test_a_cancelled_pipeline_stops_its_training_job_and_resumes(demo_server):
    definition = {
        "name": "cancelled",
        "stages": [
            sft_stage("train", steps=100_000),
            {"name": "after", "type": "empty", "depends_on": ["train"]},
        ],
    }
    create(demo_server, definition=definition)
    running = wait_for_stage(demo_server, "cancelled", "train", lambda stage: stage["work"] is not None)
    job = running["work"]
    demo_server.wait_for_step(job["id"], 1)

    answer = demo_server.api.post("/pipelines/cancelled/cancel")
    assert answer.status_code == 200, answer.text
    cancelled = answer.json()
    assert cancelled["status"] == "cancelled"
    assert {stage["name"]: stage["status"] for stage in cancelled["stages"]} == {
        "train": "cancelled",
        "after": "cancelled",
    }
    assert demo_server.job(job["id"])["status"] == "cancelled"
    assert demo_server.api.post("/pipelines/cancelled/cancel").status_code == 409

    # Shorter training this time, then resume: both stages run, the training as a second attempt and a new job.
    definition["stages"][0] = sft_stage("train", steps=2)
    assert demo_server.api.put("/pipelines/cancelled", json={"definition": definition}).status_code == 200
    jobs_before = job_names(demo_server)
    assert demo_server.api.post("/pipelines/cancelled/resume").status_code == 200
    done = wait_for_pipeline(demo_server, "cancelled", timeout=120)
    stages = stages_of(done)
    assert done["status"] == "completed", shown(done)
    assert {name: stage["status"] for name, stage in stages.items()} == {"train": "completed", "after": "completed"}
    assert stages["train"]["attempt"] == 2 and stages["train"]["work"]["name"] == "cancelled-train-2"
    assert job_names(demo_server) == sorted([*jobs_before, "cancelled-train-2"])
    assert demo_server.job(job["id"])["status"] == "cancelled", "the first job stays stopped"


def test_a_killed_server_re_attaches_its_training_stage_to_the_same_job(tmp_path, demo_assets):
    (tmp_path / "home").mkdir()
    server = pipeline_server(tmp_path / "home")
    server.start()
    try:
        register_demo_assets(server, demo_assets)
        after = {"name": "after", "type": "empty", "depends_on": ["train"]}
        create(server, definition={"name": "restarted", "stages": [sft_stage("train", steps=RESTART_STEPS), after]})
        running = wait_for_stage(server, "restarted", "train", lambda stage: stage["work"] is not None)
        job = server.wait_for_step(running["work"]["id"], 2)
        before = stages_of(pipeline(server, "restarted"))["train"]
        assert before["status"] == "running" and before["attempt"] == 1

        server.process.send_signal(signal.SIGKILL)  # the server dies with its stage threads; the job does not
        server.process.wait(timeout=30)
        server.start()
        assert server.job(job["id"])["status"] == "running", "the job ended before the restart: make it longer"
        # The stage's task died with the server: its next start dispatched it again (a new task, the same attempt),
        # and the new task follows the job the first one launched.
        again = wait_for_stage(server, "restarted", "train", lambda stage: stage["task_id"] != before["task_id"])
        assert again["attempt"] == 1 and again["work"]["id"] == job["id"]
        done = wait_for_pipeline(server, "restarted", timeout=180)
        assert done["status"] == "completed", shown(done)
        stages = stages_of(done)
        assert stages["train"]["attempt"] == 1 and stages["train"]["work"]["id"] == job["id"]
        assert stages["train"]["outputs"]["job"] == job["name"]
        assert [found["id"] for found in jobs(server)] == [job["id"]], "no second job"
        finished = server.job(job["id"])
        assert finished["status"] == "completed" and finished["attempt"] == job["attempt"]
        events = [event["message"] for event in server.api.get(f"/jobs/{job['id']}/events").json()]
        assert any("re-attached" in message for message in events), events
    finally:
        server.shutdown()
