"""Recommendations: sane for the usual example and for 72B, run by an engine that can run them, honest when
nothing fits or no engine runs the algorithm on that many GPUs."""

from training_platform.compute.gpus import get_gpu
from training_platform.compute.model import PRESETS
from training_platform.compute.recommend import RecommendRequest, job_params, recommend
from training_platform.compute.schemas import RecommendBody
from training_platform.compute.service import ComputeService
from training_platform.contract.params import Algorithm, parse_params


def test_qwen7b_grpo_on_one_rtx5090_needs_verls_offloading():
    gpu = get_gpu("RTX-5090")
    result = recommend(PRESETS["Qwen2.5-7B"], gpu, RecommendRequest(seq_len=4096, algorithm=Algorithm.GRPO))
    assert result.fits and result.estimate.total_bytes <= 0.9 * gpu.memory_bytes and not result.estimate.problems
    chosen = result.request
    assert chosen.gradient_checkpointing  # 4096-token responses do not fit otherwise
    assert 0.1 <= chosen.gpu_memory_utilization <= 0.9
    # The policy, its reference and vLLM's share only fit with optimizer states in CPU memory, which only verl does.
    assert result.engine.name == "verl" and chosen.offload_optimizer
    if not result.engine.runnable_here(Algorithm.GRPO):
        assert any("not on this machine" in reason for reason in result.reasons)
    params = job_params(result)
    parsed = parse_params(Algorithm.GRPO, params)  # posts unchanged as a job's parameters
    assert parsed.batch_size == 128 and parsed.rollout_n == 8 and parsed.micro_batch_size == chosen.micro_batch
    assert result.engine.refusals(parsed) == []


def test_each_engine_that_can_run_a_recommendation_shows_it_in_its_own_terms():
    body = RecommendBody(model="Qwen2.5-0.5B", gpu="A100-80G", seq_len=1024, algorithm=Algorithm.GRPO)
    answer = ComputeService().recommend(body)
    assert "cpu_offload" not in answer.params
    assert (
        "data.train_batch_size=128" in answer.verl_overrides
        and "actor_rollout_ref.rollout.n=8" in answer.verl_overrides
    )
    assert answer.trl_arguments["num_generations"] == 8
    assert answer.trl_arguments["per_device_train_batch_size"] == answer.micro_batch
    # A configuration with CPU offloading is verl's alone.
    offloaded = ComputeService().recommend(
        body.model_copy(update={"model": "Qwen2.5-7B", "gpu": "RTX-5090", "seq_len": 4096})
    )
    assert offloaded.params["cpu_offload"] != "none" and offloaded.trl_arguments is None
    assert "actor_rollout_ref.actor.fsdp_config.optimizer_offload=true" in offloaded.verl_overrides


def test_72b_sft_on_eight_h100_is_sharded_by_verl_and_fits():
    gpu = get_gpu("H100-80G")
    result = recommend(PRESETS["Qwen2.5-72B"], gpu, RecommendRequest(seq_len=4096, num_gpus=8))
    assert result.fits and result.engine.name == "verl" and result.request.zero_stage == 3
    assert result.estimate.total_bytes <= 0.9 * gpu.memory_bytes
    samples = result.global_batch
    assert samples == result.request.micro_batch * 8 * result.gradient_accumulation
    assert parse_params(Algorithm.SFT, job_params(result)).max_length == 4096
    answer = ComputeService().recommend(RecommendBody(model="Qwen2.5-72B", gpu="H100-80G", seq_len=4096, num_gpus=8))
    assert "trainer.n_gpus_per_node=8" in answer.verl_overrides
    assert answer.trl_arguments is None  # TRL trains on one device per job


def test_no_engine_for_the_algorithm_on_that_many_gpus_says_so_and_what_would():
    result = recommend(
        PRESETS["Qwen2.5-0.5B"], get_gpu("A100-80G"), RecommendRequest(seq_len=1024, algorithm="dpo", num_gpus=4)
    )
    assert not result.fits and result.engine is None
    assert "verl has no DPO trainer; use engine 'trl' for DPO" in result.reasons
    assert "the trl engine trains on one device per job" in result.reasons
    assert "use 1 × A100-80G" in result.suggestions


def test_72b_full_fine_tune_on_one_24gb_card_does_not_fit_and_says_what_would():
    result = recommend(PRESETS["Qwen2.5-72B"], get_gpu("RTX-4090"), RecommendRequest(seq_len=4096, allow_lora=False))
    assert not result.fits and result.estimate is None and result.request is None
    text = " ".join(result.suggestions)
    assert "LoRA" in text and "× RTX-4090" in text


def test_small_models_get_full_fine_tuning_and_the_target_batch():
    result = recommend(PRESETS["Qwen2.5-0.5B"], get_gpu("A100-80G"), RecommendRequest(seq_len=1024, global_batch=64))
    assert result.fits and result.request.lora_rank == 0 and result.global_batch == 64
    assert result.request.micro_batch * result.gradient_accumulation == 64
