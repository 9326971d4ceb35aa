"""Recommendations: sane for the user guide's example and for 72B, honest when nothing fits."""

from training_platform.compute.gpus import get_gpu
from training_platform.compute.model import PRESETS
from training_platform.compute.recommend import (
    RecommendRequest,
    job_params,
    recommend,
    trl_arguments,
    verl_overrides,
)
from training_platform.contract.params import Algorithm, parse_params


def test_user_guide_example_qwen7b_grpo_on_one_rtx5090():
    gpu = get_gpu("RTX-5090")
    result = recommend(PRESETS["Qwen2.5-7B"], gpu, RecommendRequest(seq_len=4096, algorithm=Algorithm.GRPO))
    assert result.fits and result.estimate.total_bytes <= 0.9 * gpu.memory_bytes and not result.estimate.problems
    chosen = result.request
    assert chosen.gradient_checkpointing  # 4096-token responses do not fit otherwise
    assert 0.1 <= chosen.gpu_memory_utilization <= 0.9
    params = job_params(result)
    parsed = parse_params(Algorithm.GRPO, params)  # posts unchanged as a job's parameters
    assert parsed.batch_size == 128 and parsed.rollout_n == 8 and parsed.micro_batch_size == chosen.micro_batch
    overrides = verl_overrides(result)
    assert f"actor_rollout_ref.rollout.gpu_memory_utilization={chosen.gpu_memory_utilization}" in overrides
    assert "data.train_batch_size=128" in overrides
    assert trl_arguments(result)["num_generations"] == 8


def test_72b_sft_on_eight_h100_shards_and_fits():
    gpu = get_gpu("H100-80G")
    result = recommend(PRESETS["Qwen2.5-72B"], gpu, RecommendRequest(seq_len=4096, num_gpus=8))
    assert result.fits and result.request.zero_stage == 3
    assert result.estimate.total_bytes <= 0.9 * gpu.memory_bytes
    samples = result.global_batch
    assert samples == result.request.micro_batch * 8 * result.gradient_accumulation
    assert "trainer.n_gpus_per_node=8" in verl_overrides(result)
    assert parse_params(Algorithm.SFT, {**job_params(result), "num_gpus": 8}).max_length == 4096


def test_72b_full_fine_tune_on_one_24gb_card_does_not_fit_and_says_what_would():
    result = recommend(PRESETS["Qwen2.5-72B"], get_gpu("RTX-4090"), RecommendRequest(seq_len=4096, allow_lora=False))
    assert not result.fits and result.estimate is None and result.request is None
    text = " ".join(result.suggestions)
    assert "LoRA" in text and "× RTX-4090" in text


def test_small_models_get_full_fine_tuning_and_the_target_batch():
    result = recommend(PRESETS["Qwen2.5-0.5B"], get_gpu("A100-80G"), RecommendRequest(seq_len=1024, global_batch=64))
    assert result.fits and result.request.lora_rank == 0 and result.global_batch == 64
    assert result.request.micro_batch * result.gradient_accumulation == 64
