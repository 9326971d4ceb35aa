"""Memory estimator accuracy: `python -m benchmarks.compute.run` (or `make bench`).

Trains real Qwen2-style models (fp32 AdamW, eager and sdpa attention, with and without gradient
checkpointing, with LoRA; hidden 256-1024, 2-8 layers, sequence 128-1024, micro batch 1-8), each in a
fresh process, measures the peak memory of the training (benchmarks/compute/measure.py) and compares it
with the configurator's estimate for the same configuration and engine on the same device (`cpu`, fp32):
a plain loop (forward with labels), and TRL's SFT and DPO steps (its fused LM head, fused AdamW; SFT on the CPU
with the platform's compact head), SFT padded and packed (one sequence of samples with a realistic length
spread, token-budgeted as the engine packs them: engines/trl/packing.py). On a
machine with a GPU the measurement is torch.cuda.max_memory_allocated and the estimate is for that GPU,
without the overhead term that max_memory_allocated does not see; benchmarks/compute/gpu.py measures real
model shapes there.

glibc's malloc keeps freed large blocks for reuse unless told otherwise, which makes a process's
resident size trail what PyTorch holds by up to ~30%; the measurement fixes the mmap threshold
(MALLOC_MMAP_THRESHOLD_) so that resident memory follows live allocations, as the GPU allocator's
max_memory_allocated does. Target (issue 4): median absolute error ≤ 10%, worst ≤ 20%.
"""

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
from dataclasses import dataclass

from training_platform.compute.gpus import Gpu, MiB, cpu_device
from training_platform.compute.lengths import SampleLengths
from training_platform.compute.memory import ALL_LINEARS, EngineName, EstimateRequest, estimate
from training_platform.compute.model import ModelSpec
from training_platform.contract.params import Algorithm

VOCAB = 32_000


@dataclass(frozen=True)
class Row:
    hidden: int
    layers: int
    seq_len: int
    micro_batch: int
    attention: str
    checkpointing: bool = False
    lora: tuple[int, list[str]] | None = None  # rank, targets
    engine: EngineName = "plain"
    algorithm: Algorithm = Algorithm.SFT
    packing: bool = False  # samples of LENGTHS packed into one token-budgeted sequence; else micro_batch × seq_len


QV = ["q_proj", "v_proj"]
GRID = [
    Row(256, 2, 128, 1, "sdpa"),
    Row(256, 2, 1024, 8, "eager"),
    Row(256, 8, 1024, 8, "sdpa"),
    Row(512, 4, 512, 4, "eager"),
    Row(512, 4, 512, 4, "sdpa"),
    Row(512, 4, 512, 4, "sdpa", True),
    Row(512, 4, 1024, 2, "eager", True),
    Row(512, 4, 512, 4, "sdpa", lora=(16, ALL_LINEARS)),
    Row(768, 6, 256, 4, "sdpa"),
    Row(768, 2, 1024, 1, "eager", True, (8, QV)),
    Row(1024, 8, 128, 1, "sdpa"),
    Row(1024, 8, 512, 2, "eager"),
    Row(1024, 4, 1024, 4, "sdpa", True),
    Row(1024, 8, 256, 8, "eager", lora=(8, QV)),
    # TRL's steps: its fused LM head, fused AdamW; LoRA with the platform's dropout.
    Row(256, 2, 1024, 4, "sdpa", engine="trl"),
    Row(512, 4, 512, 4, "sdpa", True, engine="trl"),
    Row(512, 4, 512, 4, "sdpa", lora=(16, ALL_LINEARS), engine="trl"),
    Row(256, 2, 512, 2, "sdpa", engine="trl", algorithm=Algorithm.DPO),
    # TRL's SFT packed: the pack is micro_batch × the mean sample tokens (a longer sample alone).
    Row(256, 2, 1024, 4, "sdpa", engine="trl", packing=True),
    Row(256, 2, 512, 8, "eager", engine="trl", packing=True),
    Row(512, 4, 512, 8, "sdpa", True, engine="trl", packing=True),
    Row(512, 4, 1024, 16, "sdpa", lora=(16, ALL_LINEARS), engine="trl", packing=True),
]
QUICK_GRID = [
    Row(256, 2, 128, 2, "eager"),
    Row(256, 2, 256, 2, "sdpa", True, (4, QV)),
    Row(256, 2, 256, 2, "sdpa", engine="trl"),
    Row(256, 2, 256, 4, "sdpa", engine="trl", packing=True),
]
# The packed rows' dataset: lognormal sample lengths (median 150 tokens, σ 0.8: instruction data spreads over an order
# of magnitude; issue 31), drawn once, each truncated to the row's seq_len as training truncates to max_length.
LENGTHS = (150, 0.8, 400)  # median, σ, samples


def sample_lengths(seq_len: int) -> list[int]:
    median, sigma, count = LENGTHS
    draw = random.Random(0)
    return [min(seq_len, max(1, round(draw.lognormvariate(math.log(median), sigma)))) for _ in range(count)]


def pack_lengths(row: Row) -> list[int]:
    """The largest pack a step sees: samples in order up to the engine's budget (micro_batch × mean sample), the
    last one cut to fill it, as best-fit-decreasing fills all but its last packs; or the longest sample, where it is
    longer than the budget (a pack of its own)."""
    lengths = sample_lengths(row.seq_len)
    budget = round(row.micro_batch * statistics.fmean(lengths))
    if max(lengths) >= budget:
        return [max(lengths)]
    pack: list[int] = []
    for length in lengths:
        pack.append(min(length, budget - sum(pack)))
        if sum(pack) == budget:
            return pack
    raise ValueError(f"{len(lengths)} samples do not fill a pack of {budget} tokens")


def model_spec(hidden: int, layers: int) -> ModelSpec:
    heads = max(hidden // 64, 1)
    return ModelSpec(
        name=f"qwen2-h{hidden}-l{layers}",
        vocab_size=VOCAB,
        hidden_size=hidden,
        intermediate_size=(hidden * 8 // 3 + 63) // 64 * 64,
        num_layers=layers,
        num_heads=heads,
        num_kv_heads=max(heads // 2, 1),
        attention_bias=True,
    )


def _lora_dropout(row: Row) -> float:
    return 0.05 if row.lora and row.engine == "trl" else 0.0  # the platform's default; peft's is 0


def measure_config(spec: ModelSpec, row: Row) -> dict:
    config = {
        "vocab_size": spec.vocab_size,
        "hidden_size": spec.hidden_size,
        "intermediate_size": spec.intermediate_size,
        "num_layers": spec.num_layers,
        "num_heads": spec.num_heads,
        "num_kv_heads": spec.num_kv_heads,
        "seq_len": row.seq_len,
        "micro_batch": row.micro_batch,
        "attention": row.attention,
        "gradient_checkpointing": row.checkpointing,
        "engine": row.engine,
        "algorithm": row.algorithm.value,
        "steps": 2,  # the second step is the first with optimizer states during backward
    }
    if row.lora:
        config.update(lora_rank=row.lora[0], lora_targets=row.lora[1], lora_dropout=_lora_dropout(row))
    if row.packing:
        config["pack_lengths"] = pack_lengths(row)
    return config


def measure(spec: ModelSpec, row: Row) -> dict:
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "65536", "OMP_NUM_THREADS": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.compute.measure", json.dumps(measure_config(spec, row))],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(result.stdout.strip().splitlines()[-1])


def estimate_for(spec: ModelSpec, row: Row, device: Gpu) -> int:
    request = EstimateRequest(
        engine=row.engine,
        seq_len=row.seq_len,
        micro_batch=row.micro_batch,
        algorithm=row.algorithm,
        precision="fp32",
        optimizer="adamw",
        attention=row.attention,
        gradient_checkpointing=row.checkpointing,
        lora_rank=row.lora[0] if row.lora else 0,
        lora_targets=row.lora[1] if row.lora else ["q_proj"],
        lora_dropout=_lora_dropout(row),
        reference_model=row.algorithm == Algorithm.DPO and not row.lora,
        packing=row.packing if row.engine == "trl" and row.algorithm == Algorithm.SFT else None,
        sample_lengths=SampleLengths(mean=statistics.fmean(sample_lengths(row.seq_len))) if row.packing else None,
    )
    result = estimate(spec, device, request)
    return result.total_bytes - result.category_bytes()["overhead"]


def run(grid: list[Row]) -> list[dict]:
    rows = []
    for row in grid:
        spec = model_spec(row.hidden, row.layers)
        measured = measure(spec, row)
        device = cpu_device() if measured["device"] == "cpu" else _cuda_device()
        estimated = estimate_for(spec, row, device)
        rows.append(
            {
                "config": _describe(row),
                "params_m": spec.num_parameters / 1e6,
                "measured_mib": measured["peak_bytes"] / MiB,
                "estimated_mib": estimated / MiB,
                "error": (estimated - measured["peak_bytes"]) / measured["peak_bytes"],
                "device": measured["device"],
            }
        )
        print(json.dumps(rows[-1]), file=sys.stderr)
    return rows


def _cuda_device() -> Gpu:
    import torch

    props = torch.cuda.get_device_properties(0)
    return Gpu(props.name, props.total_memory, 0.0, 0.0, "cuda")


def _describe(row: Row) -> str:
    text = f"h{row.hidden} L{row.layers} s{row.seq_len} b{row.micro_batch} {row.attention}"
    if row.checkpointing:
        text += " +ckpt"
    if row.lora:
        text += f" +LoRA r{row.lora[0]} {','.join(t.removesuffix('_proj') for t in row.lora[1])}"
    if row.engine != "plain":
        text += f" [{row.engine} {row.algorithm.value}{' packed' if row.packing else ''}]"
    return text


def table(rows: list[dict]) -> str:
    header = ("configuration", "params", "measured", "estimated", "error")
    lines = [
        (r["config"], f"{r['params_m']:.1f}M", f"{r['measured_mib']:.0f} MiB", f"{r['estimated_mib']:.0f} MiB",
         f"{r['error']:+.1%}")
        for r in rows
    ]  # fmt: skip
    errors = [abs(r["error"]) for r in rows]
    lines.append(("median |error| / worst", "", "", "", f"{statistics.median(errors):.1%} / {max(errors):.1%}"))
    widths = [max(len(str(line[i])) for line in [header, *lines]) for i in range(len(header))]
    out = [" | ".join(str(c).ljust(w) for c, w in zip(line, widths, strict=True)) for line in [header, *lines]]
    out.insert(1, " | ".join("-" * w for w in widths))
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="four small configurations (a smoke run)")
    parser.add_argument("--engine", choices=["plain", "trl"], help="only the rows of this engine")
    parser.add_argument("--packed", action="store_true", help="only the packed rows")
    args = parser.parse_args()
    grid = [row for row in (QUICK_GRID if args.quick else GRID) if args.engine in (None, row.engine)]
    print(table(run([row for row in grid if row.packing or not args.packed])))


if __name__ == "__main__":
    main()
