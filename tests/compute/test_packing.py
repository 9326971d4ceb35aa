"""Packed and padded SFT in the configurator: a pack's token budget and mask in memory, the CPU's compact LM head, the
padding the dataset's lengths imply in the speed, and a measured packed run on the CPU that agrees."""

import json
import os
import random
import subprocess
import sys

import pytest
from pydantic import ValidationError

from training_platform.compute.gpus import cpu_device, get_gpu
from training_platform.compute.lengths import (
    LengthHistogram,
    SampleLengths,
    longest_tokens,
    mean_tokens,
    pack_tokens,
    padded_row_tokens,
)
from training_platform.compute.memory import COMPACT_HEAD_TEMPORARIES, EstimateRequest, Step, estimate
from training_platform.compute.model import PRESETS, ModelSpec
from training_platform.compute.schemas import EstimateBody
from training_platform.compute.service import ComputeService
from training_platform.compute.speed import speed
from training_platform.contract.params import Algorithm

QWEN05 = PRESETS["Qwen2.5-0.5B"]
H100 = get_gpu("H100-80G")
# Instruction-like lengths: lognormal, median 150 tokens, in the statistics' 20 whole-token bins.
DRAW = random.Random(0)
LENGTHS = [max(1, round(DRAW.lognormvariate(5.0, 0.8))) for _ in range(5000)]


def histogram(lengths: list[int], bins: int = 20) -> LengthHistogram:
    width = -(-(max(lengths) - min(lengths) + 1) // bins)
    edges = [min(lengths) + width * i for i in range(bins + 1)]
    counts = [sum(low <= length < high for length in lengths) for low, high in zip(edges, edges[1:], strict=False)]
    return LengthHistogram(edges=edges, counts=counts)


STATS = SampleLengths(mean=sum(LENGTHS) / len(LENGTHS), histogram=histogram(LENGTHS))


def request(**fields) -> EstimateRequest:
    return EstimateRequest(**{"engine": "trl", "seq_len": 4096, "micro_batch": 8, "precision": "bf16", **fields})


def test_the_lengths_give_the_truncated_mean_the_pack_and_the_padded_row():
    for seq_len in (256, 4096):
        truncated = [min(length, seq_len) for length in LENGTHS]
        assert mean_tokens(STATS, seq_len) == pytest.approx(sum(truncated) / len(truncated), rel=0.05)
        for micro_batch in (1, 4, 8):
            draw = random.Random(1)
            rows = [max(draw.choices(truncated, k=micro_batch)) for _ in range(4000)]
            simulated = sum(rows) / len(rows)
            assert padded_row_tokens(micro_batch, seq_len, STATS) == pytest.approx(simulated, rel=0.06)
    # 8 samples of ~200 tokens: the longest sample alone is the largest micro-batch; 32 fill the budget.
    assert pack_tokens(8, 4096, STATS) == longest_tokens(4096, STATS) > round(8 * mean_tokens(STATS, 4096))
    assert pack_tokens(32, 1024, STATS) == round(32 * mean_tokens(STATS, 1024)) > longest_tokens(1024, STATS)
    assert pack_tokens(8, 1024, None) == 8 * 1024  # unknown lengths: samples as long as max_length
    # A measured padding ratio stands in for a histogram; nothing at all says nothing.
    assert padded_row_tokens(8, 4096, SampleLengths(mean=200, padding_ratio=0.5)) == 400
    assert padded_row_tokens(8, 4096, SampleLengths(mean=200)) is None


def test_packed_memory_is_token_budgeted_with_the_mask_sdpa_needs():
    def activations(**fields) -> int:
        return estimate(QWEN05, H100, request(**fields)).category_bytes()["activations"]

    padded = activations(packing=False, sample_lengths=STATS, attention="flash")
    packed = activations(sample_lengths=STATS, attention="flash")  # unset: the TRL engine packs SFT
    # The largest micro-batch: one pack (here the longest sample alone) instead of 8 rows of the longest sample.
    pack = pack_tokens(8, 4096, STATS)
    assert packed < padded / 4
    # SDPA gets transformers' [1, 1, T, T] bool block-diagonal mask for the pack; flash attention none.
    step = Step(QWEN05, request(sample_lengths=STATS, attention="sdpa"), H100)
    assert step.pack_mask() == pack**2 and step.tokens == pack
    assert activations(sample_lengths=STATS, attention="sdpa") == packed + pack**2
    # A histogram whose longest sample is short bounds a padded micro-batch's rows.
    short = SampleLengths(mean=100, histogram=LengthHistogram(edges=[50, 150, 300], counts=[9, 1]))
    assert Step(QWEN05, request(packing=False, sample_lengths=short), H100).tokens == 8 * 299
    text = estimate(QWEN05, H100, request(sample_lengths=STATS, attention="sdpa")).terms
    explained = next(term for term in text if term.key == "activations").explanation.render()
    assert f"packed into one sequence of {pack} tokens" in explained
    assert f"{pack}×{pack} block-diagonal mask" in explained


def test_the_cpu_counts_the_compact_head_and_cuda_the_fused_one():
    sft = request(precision="fp32", packing=False, seq_len=512, micro_batch=2)
    cpu = Step(QWEN05, sft, cpu_device())
    logits = cpu.tokens * QWEN05.vocab_size * 4
    assert cpu.compact_head and cpu.head_backward_workspace() == int(COMPACT_HEAD_TEMPORARIES * logits)
    assert cpu.head_saved() > logits  # its fp32 logits are kept for backward
    on_cuda = Step(QWEN05, sft, H100)
    assert not on_cuda.compact_head and on_cuda.head_saved() < logits / 10  # TRL's tiles never build them
    # DPO keeps TRL's head on the CPU too: the compact head is the SFT step's.
    assert not Step(QWEN05, request(algorithm=Algorithm.DPO, seq_len=512), cpu_device()).compact_head
    explained = estimate(QWEN05, cpu_device(), sft).terms
    assert any("projects only the trained positions" in term.explanation.render() for term in explained)


def test_the_speed_counts_trained_tokens_and_the_padding_the_lengths_imply():
    padded = speed(QWEN05, H100, request(packing=False, sample_lengths=STATS), 32)
    packed = speed(QWEN05, H100, request(sample_lengths=STATS), 32)
    unknown = speed(QWEN05, H100, request(), 32)
    mean = mean_tokens(STATS, 4096)
    assert packed.packed and packed.padding_ratio == 0 and packed.tokens_per_step == pytest.approx(32 * mean)
    assert padded.tokens_per_step == pytest.approx(32 * mean) and 0.5 < padded.padding_ratio < 0.8
    assert packed.step_seconds < padded.step_seconds / 2  # the padding is most of a padded step here
    assert "padding, from the length histogram" in padded.basis and "packed, no padding" in packed.basis
    assert unknown.tokens_per_step == 32 * 4096 and "counted at seq_len tokens" in unknown.basis
    answer = ComputeService().estimate(EstimateBody(model="Qwen2.5-0.5B", seq_len=4096, micro_batch=8,
                                                    sample_lengths=STATS, packing=False))  # fmt: skip
    assert not answer.speed.packed and answer.speed.padding_ratio == pytest.approx(padded.padding_ratio)


def test_bad_packing_and_lengths_are_refused_naming_the_field():
    with pytest.raises(ValidationError, match="packing: the trl engine does not pack DPO samples"):
        EstimateRequest(seq_len=512, algorithm=Algorithm.DPO, packing=True)
    with pytest.raises(ValidationError, match="packing: the verl engine does not pack SFT"):
        EstimateRequest(seq_len=512, engine="verl", packing=True)
    assert not EstimateRequest(seq_len=512, engine="verl").packed  # unset: padded where the engine does not pack
    with pytest.raises(ValidationError, match="needs 3 edges"):
        LengthHistogram(edges=[1, 2], counts=[1, 2])
    with pytest.raises(ValidationError, match="edges must increase"):
        LengthHistogram(edges=[5, 5, 9], counts=[1, 2])
    with pytest.raises(ValidationError, match="not all 0"):
        LengthHistogram(edges=[1, 2], counts=[0])
    with pytest.raises(ValidationError, match="sample_lengths.mean"):
        EstimateBody(model="Qwen2.5-0.5B", seq_len=512, sample_lengths={"mean": 0})


@pytest.mark.slow
def test_the_cpu_estimate_of_a_packed_trl_step_agrees_with_a_measured_run():
    spec = ModelSpec(name="t", vocab_size=8000, hidden_size=256, intermediate_size=704, num_layers=2, num_heads=4,
                     num_kv_heads=2, attention_bias=True)  # fmt: skip
    pack = [180, 90, 310, 140, 304]  # one pack of 1,024 tokens: 4 samples of ~200 tokens, at least max_length 1,024
    config = {
        "vocab_size": 8000, "hidden_size": 256, "intermediate_size": 704, "num_layers": 2, "num_heads": 4,
        "num_kv_heads": 2, "seq_len": 1024, "micro_batch": 4, "attention": "sdpa", "steps": 2, "engine": "trl",
        "pack_lengths": pack,
    }  # fmt: skip
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "65536", "OMP_NUM_THREADS": "1"}
    output = subprocess.run([sys.executable, "-m", "benchmarks.compute.measure", json.dumps(config)], env=env,
                            capture_output=True, text=True, check=True).stdout  # fmt: skip
    measured = json.loads(output.strip().splitlines()[-1])["peak_bytes"]
    packed = EstimateRequest(engine="trl", seq_len=1024, micro_batch=4, precision="fp32", attention="sdpa",
                             sample_lengths=SampleLengths(mean=200))  # fmt: skip
    assert Step(spec, packed, cpu_device()).tokens == sum(pack)
    estimated = estimate(spec, cpu_device(), packed).total_bytes
    assert abs(estimated - measured) / measured < 0.1, (estimated, measured)
