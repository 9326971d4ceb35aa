"""The published formulas, reproduced exactly; and the general model agrees with the ZeRO paper."""

import pytest

from training_platform.compute.gpus import get_gpu
from training_platform.compute.memory import EstimateRequest, estimate
from training_platform.compute.model import PRESETS
from training_platform.compute.reference import deepspeed_zero2, deepspeed_zero3, zero_paper_model_states


@pytest.mark.parametrize(("stage", "gigabytes"), [(0, 120.0), (1, 31.4), (2, 16.6), (3, 1.9)])
def test_zero_paper_worked_example(stage, gigabytes):
    # Ψ = 7.5B parameters, N_d = 64 GPUs, mixed-precision Adam (ZeRO paper, Figure 1)
    assert round(zero_paper_model_states(7.5e9, 64, stage) / 1e9, 1) == gigabytes


@pytest.mark.parametrize("stage", [0, 1, 2, 3])
def test_the_general_model_reproduces_the_paper_for_model_states(stage):
    model = PRESETS["Qwen2.5-7B"]
    # verl's FSDP workers count mixed precision as the paper does (a PyTorch loop under autocast keeps fp32 weights).
    request = EstimateRequest(
        engine="verl", seq_len=512, num_gpus=64, zero_stage=stage, precision="bf16-amp", optimizer="adamw"
    )
    result = estimate(model, get_gpu("H100-80G"), request)
    states = sum(t.bytes for t in result.terms if t.key in ("weights", "gradients", "optimizer"))
    assert abs(states - zero_paper_model_states(model.num_parameters, 64, stage)) < 4  # integer division only


def test_deepspeed_zero3_matches_its_t5_small_example():
    # t5-small: 60,506,624 params, largest layer (shared embedding) 16,449,536, 1 GPU
    cpu, gpu, largest = deepspeed_zero3(60_506_624, 16_449_536, cpu_offload=False, cpu_offload_params=False)
    assert round(gpu / 2**30, 2) == 1.08 and largest == 4 * 16_449_536
    _, gpu_offloaded, _ = deepspeed_zero3(60_506_624, 16_449_536, cpu_offload=True, cpu_offload_params=True)
    assert round(gpu_offloaded / 2**30, 2) == 0.06


@pytest.mark.parametrize("gpus", [1, 8, 64])
def test_deepspeed_estimators_formulas(gpus):
    P, L = 7_000_000_000, 500_000_000
    assert deepspeed_zero2(P, gpus, 1, cpu_offload=True) == (int(P * max(4 * gpus, 16) * 1.5), 2 * P)
    assert deepspeed_zero2(P, gpus, 1, cpu_offload=False) == (int(P * 4 * gpus * 1.5), 4 * P + int(16 * P / gpus))
    assert deepspeed_zero3(P, L, gpus, 1, cpu_offload=False) == (
        int(L * 4 * gpus * 1.5),
        4 * L + int(18 * P / gpus),
        4 * L,
    )
    assert deepspeed_zero3(P, L, gpus, 2, cpu_offload=True, cpu_offload_params=False)[1] == 4 * L + int(
        2 * P / (2 * gpus)
    )
    assert deepspeed_zero3(P, L, gpus, 2, zero_init=False)[0] == int(P * max(4 * gpus, 18 / 2) * 1.5)
