"""What a TRL trainer does itself for a job's health settings, on real tiny runs on the CPU: it pauses before a
NaN step is saved, scales its learning rate live on request (once), and writes per-layer gradient norms."""

import json
import math
import os
import subprocess

import pytest
from transformers import TrainerCallback

from training_platform.contract.control import request_lr_scale
from training_platform.contract.run import RunSpec
from training_platform.contract.status import read_status
from training_platform.engines.trl import recipe
from training_platform.engines.trl.checkpoints import RUN_STATE, list_checkpoints
from training_platform.engines.trl.engine import TrlEngine

# Decoupled weight decay of lr x weight_decay = 10 multiplies every weight by -9 each step: the run diverges
# within a handful of steps to a NaN gradient norm (step 5 with the demo model), with finite losses before it.
DIVERGING = dict(
    learning_rate=1.0,
    weight_decay=10.0,
    lr_scheduler="constant",
    max_grad_norm=1e6,
    batch_size=8,
    micro_batch_size=8,
    max_steps=10,
    save_interval=3,
)
PAUSE_ON_NAN = {"actions": {"pause_on_non_finite": True}, "layer_grad_norms_every": 0}


def metric_lines(spec: RunSpec) -> list[dict]:
    return [json.loads(line) for line in spec.layout.metrics_path.read_text().splitlines()]


def make_spec(tmp_path, demo_assets, health: dict, num_gpus: int = 1, **params) -> RunSpec:
    spec = RunSpec(
        job_id="job",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        params={**params, "algorithm": "sft", "num_gpus": num_gpus},
        output_dir=str(tmp_path),
        cpu_threads=1,
        health=health,
    )
    spec.save(spec.layout.config_path)
    return spec


def run(tmp_path, demo_assets, health: dict, **params) -> RunSpec:
    spec = make_spec(tmp_path, demo_assets, health, **params)
    assert recipe.main(spec.layout.config_path) == 0
    return spec


def first_broken_step(lines: list[dict]) -> int:
    for line in lines:
        values = [line["loss"]["total_loss"], line.get("gradient", {}).get("actor_norm", 0.0)]
        if not all(math.isfinite(value) for value in values):
            return line["step"]
    raise AssertionError("the run never diverged")


def test_a_diverging_run_pauses_before_saving_the_nan_step_and_resumes_with_a_lower_rate(tmp_path, demo_assets):
    spec = run(tmp_path, demo_assets, PAUSE_ON_NAN, **DIVERGING)
    lines = metric_lines(spec)
    nan_step = first_broken_step(lines)
    assert 3 < nan_step < DIVERGING["max_steps"]
    assert lines[-1]["step"] == nan_step  # it stopped at that step
    assert lines[-1]["anomaly"]["message"] == f"grad_norm is nan at step {nan_step}"

    status = read_status(spec.layout.status_path)
    assert status.status == "paused" and status.current_step == nan_step
    assert status.message == f"paused automatically: grad_norm is nan at step {nan_step}"
    checkpoints = list_checkpoints(spec.layout)
    assert all(c.kind == "checkpoint" and c.step < nan_step for c in checkpoints)  # nothing at or after it; no final
    saved = max(c.step for c in checkpoints if c.complete)
    assert status.last_checkpoint_step == saved and saved == 3

    # Resumed with a lower learning rate (what POST /jobs/{id}/resume?learning_rate= does): on from the
    # checkpoint, at the new rate, to the end.
    resumed = run(tmp_path, demo_assets, PAUSE_ON_NAN, **{**DIVERGING, "learning_rate": 1e-3})
    status = read_status(resumed.layout.status_path)
    assert (status.status, status.resumed_from_step, status.current_step) == ("completed", saved, 10)
    after = metric_lines(resumed)[len(lines) :]
    assert [line["step"] for line in after] == list(range(saved + 1, 11))
    assert all(line["learning_rate"] == pytest.approx(1e-3) for line in after)
    assert all(math.isfinite(line["gradient"]["actor_norm"]) for line in after)
    assert list_checkpoints(resumed.layout)[-1].kind == "final"


def test_without_the_action_a_nan_run_goes_on_and_its_nan_loss_is_logged_as_it_is(tmp_path, demo_assets):
    spec = run(tmp_path, demo_assets, {"layer_grad_norms_every": 0}, **{**DIVERGING, "max_steps": 8})
    lines = metric_lines(spec)
    assert read_status(spec.layout.status_path).status == "completed"
    # transformers would log a NaN step's loss as the mean of the steps before it (logging_nan_inf_filter).
    assert any(math.isnan(line["loss"]["total_loss"]) for line in lines)


def layer_keys(line: dict) -> dict[str, float]:
    return {k: v for k, v in line.get("custom", {}).items() if k.startswith("grad_norm/layer/")}


@pytest.mark.parametrize(
    ("lora", "rows"),
    [(None, ["000", "001", "embed", "norm"]), ({"rank": 4}, ["000", "001"])],  # tied head: under embed
)
def test_per_layer_gradient_norms_every_n_steps_before_clipping(tmp_path, demo_assets, lora, rows):
    params = dict(learning_rate=1e-3, batch_size=8, micro_batch_size=8, max_steps=4, max_grad_norm=0.1, lora=lora)
    spec = run(tmp_path, demo_assets, {"layer_grad_norms_every": 2}, **params)
    lines = metric_lines(spec)
    assert [sorted(layer_keys(line)) for line in lines] == [[], [f"grad_norm/layer/{r}" for r in rows]] * 2
    for line in lines[1::2]:
        total = line["gradient"]["actor_norm"]
        assert total > 0.1  # clipped: the norms written are the ones before it
        assert math.sqrt(sum(v * v for v in layer_keys(line).values())) == pytest.approx(total, rel=1e-4)


class RequestAt(TrainerCallback):
    """Asks for a lower learning rate as step `step` ends (before the platform's callback looks)."""

    def __init__(self, spec: RunSpec, step: int):
        self.spec, self.step = spec, step

    def on_step_end(self, args, state, control, **kwargs):
        if state.global_step == self.step:
            request_lr_scale(self.spec.layout, 0.5, request_id="halve")


def test_an_lr_scale_request_halves_the_rate_from_the_next_step_once_and_survives_a_resume(
    tmp_path, demo_assets, monkeypatch
):
    params = dict(learning_rate=1e-3, lr_scheduler="constant", batch_size=8, micro_batch_size=8, max_steps=6)
    spec = make_spec(tmp_path, demo_assets, {"layer_grad_norms_every": 0}, save_interval=4, **params)
    build = recipe.build_trainer

    def build_with_request(*args, **kwargs):
        trainer = build(*args, **kwargs)
        trainer.add_callback(RequestAt(spec, step=2))
        return trainer

    monkeypatch.setattr(recipe, "build_trainer", build_with_request)
    assert recipe.main(spec.layout.config_path) == 0
    monkeypatch.undo()

    lines = metric_lines(spec)
    rates = [line["learning_rate"] for line in lines]
    assert rates == pytest.approx([1e-3, 1e-3, 5e-4, 5e-4, 5e-4, 5e-4])  # applied once, from step 3 on
    assert [line.get("custom", {}).get("lr_scale") for line in lines] == [None, None, 0.5, None, None, None]
    status = read_status(spec.layout.status_path)
    assert status.lr_scale == 0.5 and status.status == "completed"
    saved = json.loads((spec.layout.checkpoints_dir / "checkpoint-4" / RUN_STATE).read_text())
    assert saved == {"learning_rate": 1e-3, "lr_scale": 0.5, "lr_requests_applied": ["halve"]}

    # A run resumed from checkpoint-4 (the newer one torn) keeps the halved rate and does not halve it again,
    # though the request's file is still there.
    (spec.layout.checkpoints_dir / "checkpoint-6" / ".platform_complete").unlink()
    assert recipe.main(spec.layout.config_path) == 0
    after = metric_lines(spec)[len(lines) :]
    assert [line["step"] for line in after] == [5, 6]
    assert [line["learning_rate"] for line in after] == pytest.approx([5e-4, 5e-4])
    assert all("lr_scale" not in line.get("custom", {}) for line in after)
    assert read_status(spec.layout.status_path).lr_scale == 0.5


@pytest.mark.slow
def test_two_processes_pause_on_nan_together_and_write_one_set_of_layer_norms(tmp_path, demo_assets):
    """Two CPU processes over gloo, launched as the platform launches them: the collectives of the non-finite
    decision, the learning-rate broadcast and the layer norms (rank 0 alone under DDP) do not hang."""
    health = {"actions": {"pause_on_non_finite": True}, "layer_grad_norms_every": 2}
    params = {**DIVERGING, "micro_batch_size": 4, "max_steps": 30}
    spec = make_spec(tmp_path, demo_assets, health, num_gpus=2, **params)
    request_lr_scale(spec.layout, 0.5, request_id="early")  # taken as step 1 ends: step 2 on at half the rate
    launch = TrlEngine().launch_spec(spec)
    env = {**os.environ, **launch.env}
    done = subprocess.run(launch.argv, cwd=launch.cwd, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = metric_lines(spec)
    nan_step = first_broken_step(lines)
    assert [line["step"] for line in lines] == list(range(1, nan_step + 1))  # one stream: rank 0's
    assert lines[0]["learning_rate"] == pytest.approx(1.0) and lines[1]["learning_rate"] == pytest.approx(0.5)
    assert layer_keys(lines[1]) and not layer_keys(lines[0])
    status = read_status(spec.layout.status_path)
    assert status.status == "paused" and status.message.startswith("paused automatically: ")
    assert all(c.step < nan_step for c in list_checkpoints(spec.layout))


def test_save_on_best_keeps_the_best_eval_loss_checkpoint_out_of_rotation(tmp_path, demo_assets):
    spec = RunSpec(
        job_id="job",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        eval_dataset_path=str(demo_assets["sft"]),
        params={**DIVERGING, "algorithm": "sft", "max_steps": 4, "save_interval": 1, "save_total_limit": 2}
        | {"eval_interval": 1},  # diverging: the evaluation gets worse from its first on
        output_dir=str(tmp_path),
        cpu_threads=1,
        health={"actions": {"save_on_best": True}, "layer_grad_norms_every": 0},
    )
    spec.save(spec.layout.config_path)
    assert recipe.main(spec.layout.config_path) == 0
    evaluations = {line["step"]: line["eval"]["loss"] for line in metric_lines(spec) if "eval" in line}
    assert sorted(evaluations) == [1, 2, 3, 4]
    best = min(evaluations, key=evaluations.get)
    assert best < 4, evaluations  # the diverging run's evaluation gets worse: the best is not the newest
    kept = {c.step for c in list_checkpoints(spec.layout) if c.kind == "checkpoint" and c.complete}
    assert kept == {best, 4}  # save_total_limit 2 keeps the newest and the best, not the two newest
