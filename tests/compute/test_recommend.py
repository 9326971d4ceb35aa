"""Recommendations: sane for the usual example and for 72B, run by an engine that can run them, honest when
nothing fits or no engine runs the algorithm on that many GPUs."""

import re

from training_platform.compute.gpus import get_gpu
from training_platform.compute.model import PRESETS
from training_platform.compute.recommend import RecommendRequest, job_params, recommend
from training_platform.compute.schemas import RecommendBody
from training_platform.compute.service import ComputeService
from training_platform.contract.params import Algorithm, parse_params


def test_qwen7b_grpo_on_one_rtx5090_fits_with_trl_lora_and_a_full_fine_tune_only_with_verls_offloading():
    gpu = get_gpu("RTX-5090")
    result = recommend(PRESETS["Qwen2.5-7B"], gpu, RecommendRequest(seq_len=4096, algorithm=Algorithm.GRPO))
    assert result.fits and result.estimate.total_bytes <= 0.9 * gpu.memory_bytes and not result.estimate.problems
    chosen = result.request
    assert chosen.gradient_checkpointing  # 4096-token responses do not fit otherwise
    # TRL generates with the policy itself (no vLLM share of the GPU), so its LoRA job fits; verl's would need
    # vLLM's own copy of the weights besides.
    assert (
        result.engine.name == "trl"
        and chosen.lora_rank
        and "rollout_reservation" not in {term.key for term in result.estimate.terms}
    )
    params = job_params(result)
    parsed = parse_params(Algorithm.GRPO, params)  # posts unchanged as a job's parameters
    assert parsed.batch_size == 128 and parsed.rollout_n == 8 and parsed.micro_batch_size == chosen.micro_batch
    assert result.engine.refusals(parsed) == []
    full = recommend(
        PRESETS["Qwen2.5-7B"], gpu, RecommendRequest(seq_len=4096, algorithm=Algorithm.SFT, allow_lora=False)
    )
    assert full.fits and full.engine.name == "verl" and full.request.offload_optimizer
    if not full.engine.runnable_here(Algorithm.SFT):
        assert any("not on this machine" in reason.render() for reason in full.reasons)


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
        body.model_copy(update={"model": "Qwen2.5-7B", "gpu": "RTX-5090", "seq_len": 4096, "algorithm": Algorithm.SFT,
                                "allow_lora": False})
    )  # fmt: skip
    assert offloaded.params["cpu_offload"] != "none" and offloaded.trl_arguments is None
    assert "engine.optimizer_offload=true" in offloaded.verl_overrides


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


def test_no_engine_for_the_algorithm_on_that_device_says_so():
    # TRL runs DPO on several GPUs since issue 15; nothing runs PPO on Apple GPUs.
    result = recommend(
        PRESETS["Qwen2.5-0.5B"], get_gpu("Apple-M3-Max-128G"), RecommendRequest(seq_len=1024, algorithm="ppo")
    )
    assert not result.fits and result.engine is None and result.speed is None
    reasons = [reason.render() for reason in result.reasons]
    assert "the verl engine does not train on mps devices" in reasons
    assert any(reason.startswith("the trl engine cannot run ppo") for reason in reasons)


def test_72b_full_fine_tune_on_one_24gb_card_does_not_fit_and_says_what_would():
    result = recommend(PRESETS["Qwen2.5-72B"], get_gpu("RTX-4090"), RecommendRequest(seq_len=4096, allow_lora=False))
    assert not result.fits and result.estimate is None and result.request is None
    text = " ".join(suggestion.render() for suggestion in result.suggestions)
    assert "LoRA" in text and "× RTX-4090" in text


def test_small_models_get_full_fine_tuning_and_the_target_batch():
    result = recommend(PRESETS["Qwen2.5-0.5B"], get_gpu("A100-80G"), RecommendRequest(seq_len=1024, global_batch=64))
    assert result.fits and result.request.lora_rank == 0 and result.global_batch == 64
    assert result.request.micro_batch * result.gradient_accumulation == 64


def test_grpo_7b_on_eight_a100_shows_its_checkpointing_where_trl_does_it_and_says_why_verl_cannot_in_chinese():
    body = RecommendBody(model="Qwen2.5-7B", gpu="A100-80G", num_gpus=8, seq_len=4096, algorithm=Algorithm.GRPO)
    answer = ComputeService().recommend(body, "zh-CN")
    assert answer.engine == "trl" and answer.configuration.gradient_checkpointing and answer.params["zero_stage"] == 2
    panels = {panel.engine: panel for panel in answer.engines}
    trl = panels["trl"].configuration
    # Under FSDP the layers are checkpointed by FSDP (accelerate's config), not by the trainer a second time.
    assert trl["trl_arguments"]["gradient_checkpointing"] is False
    assert trl["accelerate_config"]["fsdp_config"]["fsdp_activation_checkpointing"] is True
    assert panels["verl"].configuration is None and "zero_stage 2" in panels["verl"].not_shown
    # The configurator's own words are Chinese: every reason, term explanation, category and what is not carried.
    texts = [*answer.reasons, *answer.not_carried, *answer.estimate.explanations.values()]
    texts += [term.explanation for term in answer.estimate.terms]
    assert all(re.search(r"[\u4e00-\u9fff]", text) for text in texts), texts
