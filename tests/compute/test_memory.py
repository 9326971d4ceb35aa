"""The memory model: every term explained, the knobs move it the right way, and a real CPU run agrees."""

import json
import os
import subprocess
import sys

import pytest

from training_platform.compute.gpus import cpu_device, get_gpu
from training_platform.compute.memory import CATEGORIES, EstimateRequest, estimate
from training_platform.compute.model import PRESETS, ModelSpec
from training_platform.contract.params import Algorithm

QWEN7 = PRESETS["Qwen2.5-7B"]
H100 = get_gpu("H100-80G")


def category(name: str, model=QWEN7, gpu=H100, **fields) -> int:
    # Enough tokens that the backward pass, not the optimizer step, is the peak.
    request = EstimateRequest(**{"seq_len": 2048, "micro_batch": 8, **fields})
    return estimate(model, gpu, request).category_bytes()[name]


def test_every_term_explains_itself_and_categories_sum_to_the_total():
    result = estimate(QWEN7, H100, EstimateRequest(seq_len=4096, micro_batch=2, algorithm=Algorithm.GRPO))
    assert all(t.formula and t.explanation and t.category in CATEGORIES for t in result.terms)
    by_category = result.category_bytes()
    assert by_category["total"] == sum(t.bytes for t in result.terms) == sum(by_category[c] for c in CATEGORIES)
    assert {"reference_model", "rollout_reservation"} <= {t.key for t in result.terms}


def test_knobs_move_memory_the_right_way():
    assert category("activations", attention="eager") > category("activations", attention="sdpa")
    assert category("activations", gradient_checkpointing=True) < category("activations")
    assert category("activations", micro_batch=16) > category("activations", micro_batch=8)
    assert category("gradients", lora_rank=16) < category("gradients") / 100
    assert category("optimizer", optimizer="adamw8bit") == category("optimizer") // 2
    states = [
        category("weights", num_gpus=8, zero_stage=s) + category("gradients", num_gpus=8, zero_stage=s)
        + category("optimizer", num_gpus=8, zero_stage=s)
        for s in range(4)
    ]  # fmt: skip
    assert states == sorted(states, reverse=True)
    offloaded = estimate(QWEN7, H100, EstimateRequest(seq_len=2048, offload_optimizer=True))
    assert offloaded.category_bytes()["optimizer"] == 0 and offloaded.cpu_offload_bytes == QWEN7.num_parameters * 12


def test_rl_and_dpo_add_their_companions():
    assert category("rl_extra", algorithm=Algorithm.SFT) == 0
    assert category("rl_extra", algorithm=Algorithm.DPO) == QWEN7.num_parameters * 2  # the reference model
    ppo = estimate(QWEN7, H100, EstimateRequest(seq_len=2048, algorithm=Algorithm.PPO, num_gpus=8, zero_stage=3))
    assert "critic" in {t.key for t in ppo.terms}
    dpo_tokens = category("activations", algorithm=Algorithm.DPO, reference_model=False)
    assert dpo_tokens > category("activations", algorithm=Algorithm.SFT) * 1.9  # chosen and rejected


def test_impossible_setups_say_why():
    too_big = estimate(PRESETS["Qwen2.5-72B"], get_gpu("RTX-4090"), EstimateRequest(seq_len=4096))
    assert not too_big.fits and too_big.total_bytes > 10 * too_big.gpu.memory_bytes
    starved = estimate(QWEN7, get_gpu("RTX-4090"),
                       EstimateRequest(seq_len=4096, algorithm=Algorithm.GRPO, gpu_memory_utilization=0.2))  # fmt: skip
    assert any("cannot hold its weights" in p for p in starved.problems) and not starved.fits
    with pytest.raises(ValueError, match="offload_params needs zero_stage 3"):
        EstimateRequest(seq_len=10, offload_params=True)
    with pytest.raises(ValueError, match="must divide num_gpus"):
        EstimateRequest(seq_len=10, num_gpus=8, shard_size=3)


@pytest.mark.slow
def test_the_cpu_estimate_agrees_with_a_measured_training_run():
    spec = ModelSpec(name="t", vocab_size=8000, hidden_size=256, intermediate_size=704, num_layers=2, num_heads=4,
                     num_kv_heads=2, attention_bias=True)  # fmt: skip
    config = {
        "vocab_size": 8000, "hidden_size": 256, "intermediate_size": 704, "num_layers": 2, "num_heads": 4,
        "num_kv_heads": 2, "seq_len": 512, "micro_batch": 4, "attention": "eager", "steps": 2,
    }  # fmt: skip
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "65536", "OMP_NUM_THREADS": "1"}
    output = subprocess.run([sys.executable, "-m", "benchmarks.compute.measure", json.dumps(config)], env=env,
                            capture_output=True, text=True, check=True).stdout  # fmt: skip
    measured = json.loads(output.strip().splitlines()[-1])["peak_bytes"]
    request = EstimateRequest(seq_len=512, micro_batch=4, precision="fp32", attention="eager", reference_model=False)
    estimated = estimate(spec, cpu_device(), request).total_bytes
    assert abs(estimated - measured) / measured < 0.1, (estimated, measured)
