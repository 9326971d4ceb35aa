"""The configurator over HTTP and from the CLI, and "apply to new job"."""

import json

import pytest


def test_gpus_and_models_are_listed(server):
    gpus = {g["name"]: g for g in server.api.get("/compute/gpus").json()}
    assert {"RTX-4090", "RTX-5090", "A100-40G", "A100-80G", "H100-80G", "H200-141G", "L40S-48G", "cpu"} <= gpus.keys()
    assert any(name.startswith("Apple-M4") for name in gpus) and "usable by MPS" in gpus["Apple-M1-16G"]["note"]
    models = {m["name"]: m for m in server.api.get("/compute/models").json()}
    assert models["Qwen2.5-7B"]["num_parameters"] == 7_615_616_512


def test_estimate_explains_each_term(server):
    body = {
        "model": "Qwen2.5-7B",
        "gpu": "A100-80G",
        "seq_len": 4096,
        "micro_batch": 2,
        "zero_stage": 3,
        "num_gpus": 8,
        "gradient_checkpointing": True,
    }
    result = server.api.post("/compute/estimate", json=body).json()
    assert set(result["per_gpu_bytes"]) == {
        "weights",
        "gradients",
        "optimizer",
        "activations",
        "rl_extra",
        "overhead",
        "total",
    }
    assert result["per_gpu_bytes"]["total"] == sum(t["bytes"] for t in result["terms"])
    assert all(t["formula"] and t["explanation"] for t in result["terms"]) and result["fits"]


@pytest.mark.slow
def test_a_recommendation_can_be_posted_as_a_new_jobs_parameters(server, demo_assets):
    body = {"model": str(demo_assets["model"]), "gpu": "cpu", "seq_len": 128, "global_batch": 8}
    recommendation = server.api.post("/compute/recommend", json=body).json()
    # The engine that can run it here: verl where it can (the platform is built on verl), TRL otherwise.
    engines = {engine["name"]: engine for engine in server.api.get("/engines").json()}
    expected = "verl" if "sft" in engines["verl"]["runnable_here"] else "trl"
    assert recommendation["fits"] and recommendation["engine"] == expected
    job = {
        "name": "from-configurator",
        "algorithm": "sft",
        "engine": "trl",  # either engine would do; TRL starts in seconds here
        "model_path": str(demo_assets["model"]),
        "dataset_paths": [str(demo_assets["sft"])],
        "params": {**recommendation["params"], "learning_rate": 1e-3, "max_steps": 2},
        "start": True,
    }
    created = server.api.post("/jobs", json=job)
    assert created.status_code == 201, created.text
    finished = server.wait_for_status(created.json()["id"], "completed", "failed")
    assert finished["status"] == "completed", finished["error"]


def test_a_recommendation_carries_what_its_params_cannot_hold_as_engine_settings(server):
    """verl's rollout engine reserves a share of each GPU that the search sizes: it reaches the job as an engine
    setting, and the recommended engine's configuration already has it; a TRL recommendation needs none."""
    body = {"model": "Qwen2.5-7B", "gpu": "H100-80G", "num_gpus": 8, "seq_len": 2048, "algorithm": "ppo"}
    ppo = server.api.post("/compute/recommend", json=body).json()
    assert ppo["fits"] and ppo["engine"] == "verl"
    share = ppo["engine_settings"]["actor_rollout_ref.rollout.gpu_memory_utilization"]
    assert ppo["configuration"]["gpu_memory_utilization"] == share and 0 < share < 1
    assert f"actor_rollout_ref.rollout.gpu_memory_utilization={share}" in ppo["verl_overrides"]
    sft = server.api.post("/compute/recommend", json={**body, "algorithm": "sft"}).json()
    assert sft["fits"] and sft["engine_settings"] == {}


@pytest.mark.parametrize(
    ("change", "field", "fragment"),
    [
        ({"gpu": "TPU-v5"}, "gpu", "unknown GPU 'TPU-v5'"),
        ({"model": "Qwen9-1T"}, "model", "not a preset"),
        ({"num_gpus": 0}, "num_gpus", "greater than 0"),
        ({"seq_len": 0}, "seq_len", "greater than 0"),
        ({"lora_rank": 8, "lora_targets": ["qkv"]}, "lora_targets", "unknown module(s) qkv"),
    ],
)
def test_bad_estimate_requests_name_the_field(server, change, field, fragment):
    response = server.api.post("/compute/estimate", json={"model": "Qwen2.5-7B", "seq_len": 512, **change})
    assert response.status_code == 422
    messages = {e["field"]: e["message"] for e in response.json()["errors"]}
    assert field in messages and fragment in messages[field], messages


def test_a_config_json_missing_fields_is_a_422_naming_them(server, tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"vocab_size": 100, "hidden_size": 64}))
    response = server.api.post("/compute/recommend", json={"model": str(tmp_path), "seq_len": 64})
    assert response.status_code == 422
    fields = {e["field"] for e in response.json()["errors"]}
    assert fields == {"model.intermediate_size", "model.num_hidden_layers", "model.num_attention_heads"}


def test_cli_estimate_json_and_errors(server):
    result = server.cli(
        "compute",
        "estimate",
        "--model",
        "Qwen2.5-0.5B",
        "--gpu",
        "RTX-4090",
        "--seq-len",
        "1024",
        "--precision",
        "bf16",
        "--lora-rank",
        "8",
        "--lora-targets",
        "q_proj,v_proj",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert set(output["per_gpu_bytes"]) >= {
        "weights",
        "gradients",
        "optimizer",
        "activations",
        "rl_extra",
        "overhead",
        "total",
    }
    assert output["explanations"]["activations"] and output["trainable_parameters"] < 1_000_000
    # What the API refuses exits 1 with the field named, as every command does.
    bad = server.cli("compute", "estimate", "--model", "Qwen2.5-0.5B", "--seq-len", "0")
    assert bad.returncode == 1 and "seq_len" in bad.stderr
    unknown = server.cli("compute", "recommend", "--model", "Qwen2.5-0.5B", "--seq-len", "512", "--gpu", "V100")
    assert unknown.returncode == 1 and "unknown GPU 'V100'" in unknown.stderr
    impossible = server.cli(
        "compute", "recommend", "--model", "Qwen2.5-72B", "--gpu", "RTX-4090", "--seq-len", "4096", "--no-allow-lora"
    )
    assert impossible.returncode == 0 and "does not fit" in impossible.stdout
