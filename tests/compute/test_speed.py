"""The speed estimate: FLOPs and traffic move it the right way, it is absent where no figure exists, and the
recommendation's expected duration is its steps times the time per step, with the range."""

import math

from training_platform.compute.gpus import cpu_device, get_gpu
from training_platform.compute.memory import EstimateRequest
from training_platform.compute.model import PRESETS
from training_platform.compute.schemas import EstimateBody, RecommendBody
from training_platform.compute.service import ComputeService
from training_platform.compute.speed import SPREAD, UNCALIBRATED_SPREAD, flops_per_token, speed
from training_platform.contract.params import Algorithm

QWEN7 = PRESETS["Qwen2.5-7B"]
H100 = get_gpu("H100-80G")


def seconds(gpu=H100, samples=32, **fields) -> float:
    request = EstimateRequest(**{"seq_len": 2048, "micro_batch": 4, "precision": "bf16", **fields})
    return speed(QWEN7, gpu, request, samples).step_seconds


def test_work_and_hardware_move_the_time_the_right_way():
    base = seconds()
    assert seconds(gradient_checkpointing=True) > base  # recomputation
    assert seconds(lora_rank=16) < base  # no weight gradients
    assert seconds(samples=64) > 1.9 * base
    assert seconds(algorithm=Algorithm.DPO, reference_model=True) > 2.2 * base  # pairs, and the reference's forward
    assert seconds(num_gpus=4, samples=32) < base / 3
    assert seconds(gpu=get_gpu("RTX-4090")) > 3 * base
    assert seconds(algorithm=Algorithm.GRPO, rollout_n=8) > base  # and generation besides
    # 6N per token over the matmul weights (an embedding lookup does no FLOPs) is the textbook figure for full
    # training; causal attention adds a few percent at 2048 tokens.
    full = flops_per_token(QWEN7, EstimateRequest(seq_len=2048, engine="plain"))
    matmul = QWEN7.num_parameters - QWEN7.embedding_params
    assert 6 * matmul < full < 1.1 * 6 * matmul


def test_the_range_is_the_calibration_where_the_gpu_was_measured_and_wider_elsewhere():
    request = EstimateRequest(seq_len=2048, micro_batch=4)
    calibrated, other = speed(QWEN7, H100, request, 8), speed(QWEN7, get_gpu("A100-80G"), request, 8)
    assert (
        calibrated.low_seconds == calibrated.step_seconds * SPREAD[0] and "calibrated on H100-80G" in calibrated.basis
    )
    assert other.high_seconds == other.step_seconds * UNCALIBRATED_SPREAD[1] and "datasheet" in other.basis
    assert speed(QWEN7, cpu_device(), request, 8) is None  # no throughput figure for a CPU


def test_the_api_gives_the_speed_of_an_estimate_and_the_duration_of_a_recommendation():
    service = ComputeService()
    estimate = service.estimate(EstimateBody(model="Qwen2.5-0.5B", gpu="H100-80G", seq_len=2048, micro_batch=4))
    assert estimate.speed.samples_per_step == 4 and estimate.speed.tokens_per_second > 0
    body = RecommendBody(model="Qwen2.5-7B", gpu="H100-80G", seq_len=1024, precision="bf16", samples=10_000)
    answer = service.recommend(body)
    duration = answer.duration
    assert duration.steps == math.ceil(10_000 / answer.global_batch)
    assert duration.total_seconds == duration.steps * duration.step_seconds
    assert duration.total_seconds_low < duration.total_seconds < duration.total_seconds_high
    assert service.recommend(body.model_copy(update={"samples": None})).duration.total_seconds is None
