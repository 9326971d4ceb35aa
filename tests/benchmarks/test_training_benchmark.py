"""The training-throughput benchmark (benchmarks/training/run.py), so `make bench` does not rot: its samples have the
token lengths it draws; its four arms run end to end on a tiny model (in this process: the arm's own function, as its
child process runs it), the plain loop on exactly the padded engine's batches; `--cuda` without CUDA says so, and its
GPU arms are run configs the TRL engine accepts."""

import subprocess
import sys
from dataclasses import replace

import pytest

from benchmarks.training import run
from training_platform.compute.model import ModelSpec
from training_platform.contract.params import Algorithm
from training_platform.demo.assets import build_tokenizer
from training_platform.engines.registry import get_engine
from training_platform.engines.trl.arguments import trainer_arguments

TINY = replace(
    run.QUICK,
    rows=16,  # four micro-batches: the plain loop's steps are the first epoch's
    heldout=2,
    steps=4,
    warmup=1,
    max_length=256,
    threads=0,  # this process's threads are left as they are
    model=ModelSpec(name="tiny", vocab_size=512, hidden_size=64, intermediate_size=128, num_layers=2, num_heads=2,
                    num_kv_heads=1, tie_embeddings=True, attention_bias=True),
)  # fmt: skip


def test_each_sample_is_as_long_as_drawn_in_tokens(tmp_path):
    tokenizer = build_tokenizer(tmp_path)
    overhead = run.template_overhead(tokenizer)
    targets = [16, 40, 150, 1024]
    rows = run.sft_rows(targets, overhead, seed=0)
    # The template's minimum (a word of prompt and one of response) is above the distribution's floor of 16.
    assert run.token_lengths(rows, tokenizer) == [overhead + 2, 40, 150, 1024]
    drawn = sorted(run.target_lengths(400, seed=0))
    assert 130 <= drawn[200] <= 170 and drawn[0] >= 16 and drawn[-1] <= 1024


@pytest.mark.slow
def test_the_four_arms_train_and_the_plain_loop_sees_the_engines_batches(tmp_path):
    lengths = run.prepare(tmp_path, TINY)
    assert lengths["rows"] == TINY.rows and lengths["min"] <= lengths["median"] <= lengths["max"]
    arms = {arm: [run.measure_arm(run.arm_config(tmp_path, TINY, arm))] for arm in run.ARMS}

    plain, padded, stock, packed = (arms[arm][0] for arm in run.ARMS)
    for other in (padded, stock):  # the same batches, the same optimizer: the same losses
        assert other["first_losses"] == pytest.approx(plain["first_losses"], abs=1e-3)
        assert other["useful_tokens"] == plain["useful_tokens"]
    assert 0 < plain["padding"] < 1 and padded["padding"] == pytest.approx(plain["padding"]) and packed["padding"] == 0
    assert all(arm[0]["tokens_per_second"] > 0 and arm[0]["heldout_loss"] > 0 for arm in arms.values())

    text = run.report({"setup": TINY, "lengths": lengths, "arms": arms, "noise": None})
    assert "| engine packed vs stock TRL padded (today's), tok/CPU-s |" in text
    assert "Packed minus padded: held-out loss" in text


def test_without_cuda_the_gpu_arms_say_so_and_measure_nothing():
    process = subprocess.run(
        [sys.executable, "-m", "benchmarks.training.run", "--cuda"], capture_output=True, text=True
    )
    assert process.returncode == 2 and "CUDA is absent" in process.stderr and not process.stdout


def test_the_gpu_arms_are_run_configs_the_trl_engine_accepts(tmp_path):
    tags = [arm.tag for arm in run.CUDA_ARMS]
    assert {"sft packed, Liger on", "sft padded, Liger off", "grpo, vLLM colocate", "grpo, model.generate"} <= set(tags)
    for arm in run.CUDA_ARMS:
        spec = run.run_spec(run.arm_config(tmp_path, run.CUDA_SETUP, arm.tag, cuda=arm))
        assert get_engine("trl").refusals(spec.params) == [], arm.tag
        assert spec.params.precision == "bf16" and spec.algorithm == arm.algorithm
        arguments = trainer_arguments(spec, "cuda")
        # The settings reach TRL's config as they are; the platform sets none of them itself.
        assert {key: arguments[key] for key in arm.engine_settings} == arm.engine_settings
        assert not set(arm.engine_settings) & set(trainer_arguments(spec, "cuda", with_settings=False))
        if arm.algorithm == Algorithm.SFT:
            assert (arguments["packing"], arguments["padding_free"]) == (arm.packing, arm.packing)
