"""The GPU measurement command: without CUDA it says so; its engine runs are real platform run configs; its table
compares measured bands with the estimate (here on the H100 findings, benchmarks/compute/h100_cases.py)."""

import json
import subprocess
import sys

from benchmarks.compute import gpu
from benchmarks.compute.h100_cases import CASES
from training_platform.compute.gpus import get_gpu
from training_platform.compute.memory import EstimateRequest
from training_platform.compute.model import PRESETS, ModelSpec
from training_platform.contract.run import RunSpec
from training_platform.engines.registry import get_engine


def test_without_cuda_it_says_so_and_measures_nothing():
    process = subprocess.run(
        [sys.executable, "-m", "benchmarks.compute.gpu", "--quick"], capture_output=True, text=True
    )
    assert process.returncode == 2 and "CUDA is absent" in process.stderr and not process.stdout


def test_it_covers_twelve_plain_shapes_from_half_a_billion_to_eight():
    sizes = [PRESETS[c.model].num_parameters for c in gpu.PLAIN]
    assert len(gpu.PLAIN) >= 12 and min(sizes) < 0.6e9 and max(sizes) > 7.9e9
    config = gpu.measure_config(PRESETS["Llama-3-8B"], gpu.PLAIN[-2].request)
    assert (config["family"], config["vocab_size"], config["optimizer_implementation"]) == ("llama", 128256, "fused")


def test_an_engine_run_is_a_platform_run_config_the_trl_engine_accepts(tmp_path):
    shape = ModelSpec(name="tiny", vocab_size=512, hidden_size=64, intermediate_size=128, num_layers=2, num_heads=2,
                      num_kv_heads=1, tie_embeddings=True, attention_bias=True)  # fmt: skip
    request = EstimateRequest(engine="trl", seq_len=256, micro_batch=2, lora_rank=8)
    config = gpu.write_engine_files(tmp_path, shape, request)
    spec = RunSpec.load(config)
    assert spec.params.max_length == 256 and spec.params.lora.rank == 8 and spec.params.micro_batch_size == 2
    assert get_engine("trl").refusals(spec.params) == []
    model = json.loads((tmp_path / "model" / "config.json").read_text())
    assert (model["hidden_size"], model["vocab_size"], model["num_hidden_layers"]) == (64, 512, 2)
    rows = [json.loads(line) for line in open(spec.dataset_paths[0], encoding="utf-8")]
    assert len(rows) == 2 * 64 and len(rows[0]["response"]) > 256  # samples about as long as the sequence
    assert gpu.engine_command(config)[1:] == ["-m", "training_platform.engines.trl", "--config", str(config)]


def test_the_table_compares_each_measured_band_with_the_estimate():
    rows = [
        gpu.compare(
            gpu.Configuration(case.tag, case.model, case.request),
            {"allocated_gib": case.allocated_gib, "reserved_gib": case.reserved_gib or case.allocated_gib,
             "context_gib": 0.6, "tokens_per_second": case.tokens_per_second},
            get_gpu("H100-80G"),
        )
        for case in CASES
        if case.fits
    ]  # fmt: skip
    text = gpu.table(rows)
    assert "| q7-bf16-s1024-b1-gc | plain | 57.57–58.64 | 60.18 | +2.6% |" in text
    assert "median / worst distance" in text
