"""Bring your own data, end to end over the API: a file in each shape that circulates registers (its format
detected), audits clean, and trains demo jobs on both engines; the tokens that carry the loss are the same in the
preview, in the TRL run and in the verl run, compared on token ids."""

import time
from pathlib import Path

import pytest
from omegaconf import OmegaConf

from tests.datasets.corpus import CORPUS, build_corpus, tool_aware_model
from training_platform.contract.run import RunSpec
from training_platform.datasets.tokens import load_tokenizer
from training_platform.engines.verl.command import VerlFiles

pytestmark = pytest.mark.slow
MAX_LENGTH = 384
# Findings that say a file was read wrong: none may appear on any file of the corpus.
FORMAT_FINDINGS = {"format_error", "empty_field", "wrong_type", "unused_column", "identical_pair"}


def wait_task(server, dataset: str, task: dict) -> dict:
    deadline = time.monotonic() + 120
    while task["status"] in ("queued", "running"):
        assert time.monotonic() < deadline, task
        time.sleep(0.2)
        task = server.api.get(f"/datasets/{dataset}/tasks/{task['id']}").json()
    return task


def register(server, name: str, path: Path, kind: str, **fields) -> dict:
    response = server.api.post("/datasets", json={"name": name, "path": str(path), "kind": kind, **fields})
    assert response.status_code == 201, response.text
    return response.json()


def train(server, name: str, algorithm: str, engine: str, model: Path, datasets: list[str], **params) -> dict:
    defaults = dict(learning_rate=1e-3, batch_size=8, micro_batch_size=4, max_steps=2)
    job = server.create_job(
        name=name,
        algorithm=algorithm,
        engine=engine,
        model_path=str(model),
        dataset_paths=[f"dataset:{dataset}" for dataset in datasets],
        params={**defaults, **params},
    )
    server.api.post(f"/jobs/{job['id']}/start")
    done = server.wait_for_status(job["id"], "completed", "failed", timeout=600)
    assert done["status"] == "completed", done["error"]
    return done


def trl_examples(job: dict) -> list[tuple[list[int], list[bool]]]:
    """What the TRL run trained on: its trainer's prepared data, built from the run's own configuration."""
    from training_platform.engines.trl.recipe import build_trainer

    spec = RunSpec.model_validate_json((Path(job["output_dir"]) / "run_config.json").read_text())
    # One prepared row per sample: the run packed them end to end, scoring the same tokens (test_trl_packing.py).
    spec = spec.model_copy(update={"params": spec.params.model_copy(update={"packing": False})})
    trainer = build_trainer(spec, "cpu")
    return [(e["input_ids"], [label != -100 for label in e["labels"]]) for e in trainer.train_dataset]


def verl_examples(job: dict, model: Path) -> list[tuple[list[int], list[bool]]]:
    """What the verl run trained on: the file it was given, read by the dataset class its command names."""
    from training_platform.engines.verl.sft_dataset import PlatformSFTDataset

    config = OmegaConf.create({"max_length": MAX_LENGTH, "truncation": "right", "pad_mode": "no_padding"})
    files = VerlFiles(Path(job["output_dir"]))
    dataset = PlatformSFTDataset(str(files.train), load_tokenizer(str(model)), config)
    return [(item["input_ids"].tolist(), item["loss_mask"].bool().tolist()) for item in dataset]


def test_every_shape_registers_audits_and_trains_the_same_tokens_on_both_engines(server, demo_assets, tmp_path):
    model = tool_aware_model(demo_assets["model"], tmp_path / "model")
    files = build_corpus(tmp_path / "corpus")
    registered = {}
    for name, path in files.items():
        _builder, _file, kind, preset = CORPUS[name]
        dataset = register(server, f"byod-{name}", path, kind)
        assert dataset["preset"] == preset, name
        registered[name] = dataset
        task = server.api.post(f"/datasets/{dataset['name']}/audit", json={}).json()
        report = server.api.get(f"/datasets/reports/{wait_task(server, dataset['name'], task)['result']['report']}")
        found = [finding for finding in report.json()["findings"] if finding["kind"] in FORMAT_FINDINGS]
        assert not found, (name, found)
    # The hub snapshot's splits are never merged: train is the dataset, test registers on its own.
    assert registered["hub-snapshot"]["num_rows"] == 4
    test_split = register(server, "byod-hub-test", files["hub-snapshot"], "sft", split="test")
    assert test_split["num_rows"] == 2 and test_split["split"] == "test"

    sft = [f"byod-{name}" for name, (*_, kind, _preset) in CORPUS.items() if kind == "sft"]
    trl_job = train(server, "byod-trl-sft", "sft", "trl", model, sft, max_length=MAX_LENGTH)
    verl_job = train(server, "byod-verl-sft", "sft", "verl", model, sft, max_length=MAX_LENGTH)
    trl, verl = trl_examples(trl_job), verl_examples(verl_job, model)
    assert len(trl) == len(verl) == sum(registered[name.removeprefix("byod-")]["num_rows"] for name in sft)
    offset = 0
    for name in sft:
        preview = server.api.get(
            f"/datasets/{name}/rows/1/preview", params={"tokenizer": str(model), "max_length": MAX_LENGTH}
        )
        assert preview.status_code == 200, preview.text
        sequence = preview.json()["sequences"][0]
        ids, loss = [t["id"] for t in sequence["tokens"]], [t["loss"] for t in sequence["tokens"]]
        assert (ids, loss) == trl[offset] == verl[offset], name
        assert any(loss) and not all(loss)
        offset += registered[name.removeprefix("byod-")]["num_rows"]

    preference = [f"byod-{name}" for name, (*_, kind, _preset) in CORPUS.items() if kind == "dpo"]
    train(server, "byod-trl-dpo", "dpo", "trl", model, preference, max_length=128)
    # verl's RL layout reaches the reward through the preset: its nested answer is the reward's `solution`.
    rewards = [{"type": "math_verify", "extraction": "last_number", "comparison": "numeric"}]
    grpo = dict(batch_size=2, micro_batch_size=4, rollout_n=2, max_steps=1, max_response_length=8, rewards=rewards)
    train(server, "byod-trl-grpo", "grpo", "trl", model, ["byod-verl-rl"], **grpo)
