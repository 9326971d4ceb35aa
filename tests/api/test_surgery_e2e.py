"""Model surgery end to end through a real server: a demo SFT job with evaluation, its checkpoints selected,
averaged and merged by supervised runs whose results are registered with their lineage and flow on."""

import json
import os
import subprocess
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from tests.support.ray_cluster import LoopbackNamespace
from tests.support.surgery import recorded_eval_losses, train_evaluated_sft

pytestmark = pytest.mark.slow

EVAL_EVERY = 5
RL_PYTHON = Path(".venv-rl/bin/python").absolute()


def tensors(directory: Path) -> dict[str, torch.Tensor]:
    found = {}
    for path in sorted(directory.glob("*.safetensors")):
        found.update(load_file(path))
    return found


@pytest.fixture(scope="module")
def trained(server, demo_assets) -> dict:
    """20 steps of SFT with a checkpoint and an evaluation every 5, every checkpoint kept."""
    return train_evaluated_sft(server, demo_assets, "surgery-sft", 20, EVAL_EVERY)


def run_to_end(server, response) -> dict:
    assert response.status_code == 201, response.text
    job = server.wait_for_status(response.json()["id"], "completed", "failed", "cancelled", timeout=300)
    assert job["status"] == "completed", (job["error"], server.api.get(f"/jobs/{job['id']}/logs/stderr").text)
    return job


def test_selection_picks_the_checkpoint_with_the_lowest_recorded_validation_loss(server, trained):
    losses = recorded_eval_losses(trained)
    assert sorted(losses) == [5, 10, 15, 20]
    ranked = sorted(losses, key=losses.get)
    selected = server.api.post("/surgery/select", json={"job": "surgery-sft", "rule": "lowest_eval_loss"})
    assert selected.status_code == 200, selected.text
    body = selected.json()
    assert body["checkpoint"]["step"] == ranked[0] and body["checkpoint"]["name"] == f"checkpoint-{ranked[0]}"
    assert body["checkpoint"]["value"] == pytest.approx(losses[ranked[0]], rel=1e-6)
    assert body["runner_up"]["step"] == ranked[1] and body["considered"] == 4
    assert body["checkpoint"]["reference"] == f"job:surgery-sft@checkpoint-{ranked[0]}"
    # Within a step range, only its checkpoints count.
    ranged = server.api.post("/surgery/select", json={"job": "surgery-sft", "from_step": 12, "to_step": 20}).json()
    assert ranged["checkpoint"]["step"] == min((15, 20), key=losses.get) and ranged["considered"] == 2
    last = server.api.post("/surgery/select", json={"job": "surgery-sft", "rule": "last"}).json()
    assert last["checkpoint"]["step"] == 20 and last["runner_up"]["step"] == 15


def test_selection_on_a_metric_the_job_never_recorded_is_refused_not_guessed(server, trained):
    response = server.api.post("/surgery/select", json={"job": "surgery-sft", "rule": "highest_reward_mean"})
    assert response.status_code == 422
    assert "recorded no 'reward_mean'" in response.text and "eval_loss" in response.text
    empty = server.api.post("/surgery/select", json={"job": "surgery-sft", "from_step": 21})
    assert empty.status_code == 422 and "no complete checkpoint in steps 21" in empty.text


def test_swa_over_a_checkpoint_range_is_registered_with_its_lineage_and_loads(server, trained):
    job = run_to_end(server, server.api.post("/surgery/average", json={"name": "sft-swa", "job": "surgery-sft"}))
    assert job["algorithm"] == "average" and job["engine"] == "surgery"
    assert job["progress"]["current_step"] == job["progress"]["total_steps"] > 0
    assert "pause" not in job["allowed_actions"]
    result = Path(job["output_dir"]) / "final"
    checkpoints = [Path(trained["output_dir"]) / "checkpoints" / f"checkpoint-{step}" for step in (5, 10, 15, 20)]
    averaged = tensors(result)
    inputs = [tensors(path) for path in checkpoints]
    for name, value in averaged.items():
        expected = torch.stack([checkpoint[name].float() for checkpoint in inputs]).mean(0)
        torch.testing.assert_close(value.float(), expected, rtol=0, atol=1e-6)
    model = server.api.get("/models/sft-swa").json()
    assert model["job_id"] == job["id"] and model["path"] == str(result)
    lineage = model["lineage"]
    assert lineage["operation"] == "average" and [entry["step"] for entry in lineage["inputs"]] == [5, 10, 15, 20]
    assert all(len(entry["sha256"]) == 64 and entry["job_name"] == "surgery-sft" for entry in lineage["inputs"])
    assert json.loads((result / "surgery.json").read_text())["inputs"] == lineage["inputs"]
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(result)
    generated = AutoModelForCausalLM.from_pretrained(result).generate(
        **tokenizer("hello", return_tensors="pt"), max_new_tokens=4, do_sample=False
    )
    assert generated.shape[1] > 1


@pytest.fixture(scope="module")
def linear_merge(server, trained) -> dict:
    body = {
        "name": "sft-linear",
        "method": "linear",
        "models": [
            {"model": "job:surgery-sft@checkpoint-10", "parameters": {"weight": 0.25}},
            {"model": "job:surgery-sft@checkpoint-20", "parameters": {"weight": 0.75}},
        ],
    }
    return run_to_end(server, server.api.post("/surgery/merge", json=body))


def test_a_merge_of_two_checkpoints_by_reference_runs_and_flows_on_as_a_choice(server, trained, linear_merge):
    job = linear_merge
    root = Path(trained["output_dir"]) / "checkpoints"
    first, second = tensors(root / "checkpoint-10"), tensors(root / "checkpoint-20")
    merged = tensors(Path(job["output_dir"]) / "final")
    for name, value in merged.items():
        torch.testing.assert_close(value, 0.25 * first[name] + 0.75 * second[name], rtol=1e-6, atol=1e-6)
    choices = {choice["reference"]: choice for choice in server.api.get("/models/choices").json()}
    assert choices["model:sft-linear"]["kind"] == "registered"
    assert choices["job:surgery-sft"]["kind"] == "final"
    checkpoint = choices["job:surgery-sft@checkpoint-10"]
    assert checkpoint["step"] == 10 and "eval_loss" in checkpoint["metrics"] and "loss" in checkpoint["metrics"]


def test_a_new_dpo_job_takes_a_jobs_final_model_by_reference(server, trained, demo_assets):
    response = server.api.post(
        "/jobs",
        json=dict(
            name="dpo-from-sft",
            algorithm="dpo",
            model_path="job:surgery-sft",
            dataset_paths=[str(demo_assets["dpo"])],
            params=dict(max_steps=1, batch_size=2, micro_batch_size=2),
        ),
    )
    assert response.status_code == 201, response.text
    assert response.json()["model_path"] == str(Path(trained["output_dir"]) / "final")
    missing = server.api.post(
        "/jobs",
        json=dict(name="dpo-x", algorithm="dpo", model_path="job:surgery-sft@checkpoint-7", dataset_paths=["x"]),
    )
    assert missing.status_code == 422 and "no complete checkpoint 'checkpoint-7'" in missing.text


@pytest.mark.parametrize(
    "path, body, field, words",
    [
        ("merge", {"name": "m1", "method": "nope", "models": []}, "method", "linear"),
        (
            "merge",
            {"name": "m2", "method": "linear", "models": [{"model": "job:surgery-sft@checkpoint-10"}]},
            "models.0.parameters.weight",
            "needs it",
        ),
        (
            "merge",
            {
                "name": "m3",
                "method": "slerp",
                "base_model": "job:surgery-sft@checkpoint-10",
                "models": [{"model": "job:surgery-sft@checkpoint-15"}, {"model": "job:surgery-sft@checkpoint-20"}],
                "parameters": {"t": 0.5},
            },
            "models",
            "exactly 2 models",
        ),
        (
            "merge",
            {"name": "m4", "recipe": "merge_method: linear\nmodels:\n  - model: a\n   bad: 1\n"},
            "recipe",
            "line",
        ),
        ("merge", {"name": "m5", "recipe": "merge_method: linear\nfoo: 1\n"}, "recipe", "unknown key 'foo'"),
        ("average", {"name": "a1", "job": "surgery-sft", "from_step": 18}, "from_step", "takes 2 or more"),
        # This machine has no GPU: a run that asks for one is refused before it is created, not failed later.
        ("average", {"name": "a2", "job": "surgery-sft", "num_gpus": 1}, "num_gpus", "no GPUs"),
        ("lora-fold", {"name": "l1", "adapter": "job:surgery-sft"}, "adapter", "adapter_config.json"),
    ],
)
def test_bad_surgery_input_is_a_422_naming_the_field_and_registers_nothing(server, trained, path, body, field, words):
    before = len(server.api.get("/jobs").json())
    response = server.api.post(f"/surgery/{path}", json=body)
    assert response.status_code == 422, response.text
    assert any(error["field"].startswith(field) for error in response.json()["errors"]), response.text
    assert words in response.text
    assert len(server.api.get("/jobs").json()) == before


def test_models_of_another_shape_are_refused_naming_the_first_tensor(server, trained, tmp_path_factory):
    from transformers import AutoConfig, AutoModelForCausalLM

    config = AutoConfig.from_pretrained(Path(trained["output_dir"]) / "final")
    config.intermediate_size *= 2
    other = tmp_path_factory.mktemp("wider") / "model"
    AutoModelForCausalLM.from_config(config).save_pretrained(other)
    body = {
        "name": "mismatch",
        "method": "linear",
        "models": [
            {"model": "job:surgery-sft", "parameters": {"weight": 1}},
            {"model": str(other), "parameters": {"weight": 1}},
        ],
    }
    response = server.api.post("/surgery/merge", json=body)
    assert response.status_code == 422, response.text
    assert "mlp" in response.text and "models.1.model" in response.text
    assert server.api.get("/models/mismatch").status_code == 404


def test_the_cli_selects_runs_a_mergekit_recipe_and_starts_a_job_from_a_jobs_model(server, trained, demo_assets):
    selected = server.cli("surgery", "select", "--job", "surgery-sft", "--rule", "last")
    assert selected.returncode == 0, selected.stderr
    assert "checkpoint-20" in selected.stdout and "runner-up" in selected.stdout
    root = Path(trained["output_dir"]) / "checkpoints"
    recipe = Path(trained["output_dir"]).parent / "recipe.yml"
    recipe.write_text(
        "merge_method: task_arithmetic\n"
        f"base_model: {root / 'checkpoint-5'}\n"
        "models:\n"
        f"  - model: {root / 'checkpoint-15'}\n"
        "    parameters: {weight: 0.5}\n"
        f"  - model: {root / 'checkpoint-20'}\n"
        "    parameters: {weight: 0.5}\n"
    )
    merged = server.cli("surgery", "merge", "-f", str(recipe), "--name", "cli-task-arithmetic", "--follow")
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert "job cli-task-arithmetic is completed" in merged.stdout and "registered model" in merged.stdout
    lineage = server.api.get("/models/cli-task-arithmetic").json()["lineage"]
    assert lineage["parameters"]["method"] == "task_arithmetic" and len(lineage["inputs"]) == 3
    choices = server.cli("models", "choices")
    assert "job:surgery-sft@checkpoint-10" in choices.stdout and "model:cli-task-arithmetic" in choices.stdout
    created = server.cli(
        "jobs", "create", "--name", "cli-dpo-from-sft", "--algorithm", "dpo", "--model", "job:surgery-sft",
        "--dataset", str(demo_assets["dpo"]), "-p", "max_steps=1", "-p", "batch_size=2", "-p", "micro_batch_size=2",
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    assert server.api.get("/jobs/cli-dpo-from-sft").json()["model_path"] == str(Path(trained["output_dir"]) / "final")


def test_the_merged_model_generates_in_the_cpu_vllm_environment(linear_merge):
    namespace = LoopbackNamespace()  # vLLM's engine processes can bind nothing but loopback
    namespace.create()
    try:
        result = subprocess.run(
            namespace.inside([str(RL_PYTHON), "tests/support/vllm_generate.py", f"{linear_merge['output_dir']}/final"]),
            env={**os.environ, "VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_TARGET_DEVICE": "cpu", "HF_HUB_OFFLINE": "1"},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stderr[-5000:]
        line = next(line for line in result.stdout.splitlines() if line.startswith("GENERATED "))
        assert json.loads(line.removeprefix("GENERATED "))["tokens"] == 8
    finally:
        namespace.delete()


def test_a_lora_jobs_adapter_folds_into_the_model_it_trained_from(server, demo_assets):
    job = server.create_job(
        name="surgery-lora",
        algorithm="sft",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["sft"])],
        params=dict(learning_rate=1e-2, batch_size=16, micro_batch_size=16, max_steps=5, lora={"rank": 4}),
        start=True,
    )
    job = server.wait_for_status(job["id"], "completed", "failed", timeout=300)
    assert job["status"] == "completed", job["error"]
    folded = run_to_end(
        server, server.api.post("/surgery/lora-fold", json={"name": "lora-folded", "adapter": "job:surgery-lora"})
    )
    lineage = server.api.get("/models/lora-folded").json()["lineage"]
    assert [entry["path"] for entry in lineage["inputs"]] == [str(demo_assets["model"]), f"{job['output_dir']}/final"]
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    ids = torch.tensor([[1, 5, 9, 13, 2]])
    with torch.no_grad():
        expected = PeftModel.from_pretrained(
            AutoModelForCausalLM.from_pretrained(demo_assets["model"]), f"{job['output_dir']}/final"
        )(ids).logits
        base = AutoModelForCausalLM.from_pretrained(demo_assets["model"])(ids).logits
        actual = AutoModelForCausalLM.from_pretrained(f"{folded['output_dir']}/final")(ids).logits
    torch.testing.assert_close(actual, expected, rtol=1e-4, atol=1e-5)
    assert (actual - base).abs().max() > 1e-3  # the adapter changed something
