"""The TRL recipe, run in-process on the demo model: LoRA, GSPO, pause by control file, torn-checkpoint resume."""

import json
import math

import pytest

from training_platform.contract import control
from training_platform.contract.run import RunSpec
from training_platform.contract.status import read_status
from training_platform.engines.trl.checkpoints import list_checkpoints


def metric_lines(layout) -> list[dict]:
    return [json.loads(line) for line in layout.metrics_path.read_text().splitlines()]


def run(tmp_path, demo_assets, algorithm, dataset, **params) -> RunSpec:
    from training_platform.engines.trl.recipe import main

    config = RunSpec(
        job_id="job",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets[dataset])],
        params={**params, "algorithm": algorithm},
        output_dir=str(tmp_path),
        cpu_threads=1,
    )
    config.save(tmp_path / "run_config.json")
    assert main(tmp_path / "run_config.json") == 0
    return config


def test_sft_with_lora_trains_only_the_adapter(tmp_path, demo_assets):
    params = dict(learning_rate=1e-2, batch_size=8, micro_batch_size=8, max_steps=4, lora={"rank": 4})
    config = run(tmp_path, demo_assets, "sft", "sft", **params)
    final = config.layout.final_model_dir
    assert (final / "adapter_model.safetensors").is_file() and (final / "adapter_config.json").is_file()
    assert not (final / "model.safetensors").exists()
    assert json.loads((final / "adapter_config.json").read_text())["r"] == 4
    status = read_status(config.layout.status_path)
    assert (status.status, status.current_step, status.total_steps) == ("completed", 4, 4)


def test_gspo_logs_rewards_and_uses_sequence_level_ratios(tmp_path, demo_assets):
    params = dict(
        learning_rate=1e-3,
        batch_size=2,
        rollout_n=4,
        micro_batch_size=8,
        max_steps=2,
        max_response_length=8,
        kl_coef=0.05,
        rewards=[{"type": "math_verify", "extraction": "last_number"}, {"type": "format_check", "weight": 0.5}],
    )
    config = run(tmp_path, demo_assets, "gspo", "grpo", **params)
    lines = metric_lines(config.layout)
    assert [line["step"] for line in lines] == [1, 2]
    custom = lines[0]["custom"]
    assert "rewards/math_verify_last_number_numeric/mean" in custom and "rewards/format_check_boxed/mean" in custom
    assert "mean" in lines[0]["reward"] and "mean" in lines[0]["kl"]
    assert math.isfinite(lines[-1]["loss"]["total_loss"])


def test_a_pause_request_checkpoints_and_exits_then_a_relaunch_continues(tmp_path, demo_assets):
    params = dict(learning_rate=1e-3, batch_size=8, micro_batch_size=8, max_steps=6)
    control.request(tmp_path / "control.json", control.ControlAction.PAUSE)
    config = run(tmp_path, demo_assets, "sft", "sft", **params)
    status = read_status(config.layout.status_path)
    assert (status.status, status.current_step, status.last_checkpoint_step) == ("paused", 1, 1)
    assert [(c.name, c.complete) for c in list_checkpoints(config.layout)] == [("checkpoint-1", True)]

    control.clear(config.layout.control_path)
    run(tmp_path, demo_assets, "sft", "sft", **params)
    status = read_status(config.layout.status_path)
    assert (status.status, status.current_step, status.resumed_from_step) == ("completed", 6, 1)
    assert [line["step"] for line in metric_lines(config.layout)] == [1, 2, 3, 4, 5, 6]


def test_resume_skips_a_torn_checkpoint(tmp_path, demo_assets):
    params = dict(learning_rate=1e-3, batch_size=8, micro_batch_size=8, max_steps=6, save_interval=2)
    config = run(tmp_path, demo_assets, "sft", "sft", **params)
    torn = config.layout.checkpoints_dir / "checkpoint-6"
    (torn / ".platform_complete").unlink()
    (torn / "model.safetensors").write_bytes(b"\x00" * 16)  # what a kill mid-write leaves behind
    run(tmp_path, demo_assets, "sft", "sft", **params)
    status = read_status(config.layout.status_path)
    assert (status.status, status.resumed_from_step, status.current_step) == ("completed", 4, 6)
    steps = [line["step"] for line in metric_lines(config.layout)]
    assert steps == [1, 2, 3, 4, 5, 6, 5, 6]  # steps after the checkpoint are logged again; readers dedupe


def test_a_failure_is_reported_in_the_status_file(tmp_path, demo_assets):
    with pytest.raises(ValueError, match="every prompt is longer than max_prompt_length=1 tokens"):
        run(tmp_path, demo_assets, "grpo", "grpo", batch_size=2, rollout_n=4, micro_batch_size=8, max_prompt_length=1)
    status = read_status(tmp_path / "job_status.json")
    assert status.status == "failed" and "max_prompt_length" in status.message


def test_sharding_over_cpu_processes_is_refused_with_the_way_out(tmp_path, demo_assets):
    with pytest.raises(ValueError, match="zero_stage 3 shards the model with FSDP, which accelerate runs on GPUs only"):
        run(tmp_path, demo_assets, "sft", "sft", batch_size=8, micro_batch_size=4, num_gpus=2, zero_stage=3)
    status = read_status(tmp_path / "job_status.json")
    assert status.status == "failed" and "leave zero_stage unset (or 0) to train with 2 cpu processes" in status.message
