"""Memory estimator accuracy: `python -m benchmarks.compute.run` (or `make bench`).

Trains real Qwen2-style models (fp32 AdamW, eager and sdpa attention, with and without gradient
checkpointing, with LoRA; hidden 256-1024, 2-8 layers, sequence 128-1024, micro batch 1-8), each in a
fresh process, measures the peak memory of the training (benchmarks/compute/measure.py) and compares it
with the configurator's estimate for the same configuration on the same device (`cpu`, fp32; on a
machine with a GPU the measurement is torch.cuda.max_memory_allocated and the estimate is for the GPU,
without the overhead term that max_memory_allocated does not see).

glibc's malloc keeps freed large blocks for reuse unless told otherwise, which makes a process's
resident size trail what PyTorch holds by up to ~30%; the measurement fixes the mmap threshold
(MALLOC_MMAP_THRESHOLD_) so that resident memory follows live allocations, as the GPU allocator's
max_memory_allocated does. Target (issue 4): median absolute error ≤ 10%, worst ≤ 20%.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

from training_platform.compute.gpus import Gpu, MiB, cpu_device
from training_platform.compute.memory import ALL_LINEARS, EstimateRequest, estimate
from training_platform.compute.model import ModelSpec
from training_platform.contract.params import Algorithm

VOCAB = 32_000
# (hidden, layers, seq_len, micro_batch, attention, gradient checkpointing, LoRA (rank, targets))
GRID = [
    (256, 2, 128, 1, "sdpa", False, None),
    (256, 2, 1024, 8, "eager", False, None),
    (256, 8, 1024, 8, "sdpa", False, None),
    (512, 4, 512, 4, "eager", False, None),
    (512, 4, 512, 4, "sdpa", False, None),
    (512, 4, 512, 4, "sdpa", True, None),
    (512, 4, 1024, 2, "eager", True, None),
    (512, 4, 512, 4, "sdpa", False, (16, ALL_LINEARS)),
    (768, 6, 256, 4, "sdpa", False, None),
    (768, 2, 1024, 1, "eager", True, (8, ["q_proj", "v_proj"])),
    (1024, 8, 128, 1, "sdpa", False, None),
    (1024, 8, 512, 2, "eager", False, None),
    (1024, 4, 1024, 4, "sdpa", True, None),
    (1024, 8, 256, 8, "eager", False, (8, ["q_proj", "v_proj"])),
]
QUICK_GRID = [(256, 2, 128, 2, "eager", False, None), (256, 2, 256, 2, "sdpa", True, (4, ["q_proj", "v_proj"]))]


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


def measure(spec: ModelSpec, row: tuple) -> dict:
    _, _, seq_len, micro_batch, attention, checkpointing, lora = row
    config = {
        "vocab_size": spec.vocab_size,
        "hidden_size": spec.hidden_size,
        "intermediate_size": spec.intermediate_size,
        "num_layers": spec.num_layers,
        "num_heads": spec.num_heads,
        "num_kv_heads": spec.num_kv_heads,
        "seq_len": seq_len,
        "micro_batch": micro_batch,
        "attention": attention,
        "gradient_checkpointing": checkpointing,
        "steps": 2,  # the second step is the first with optimizer states during backward
    }
    if lora:
        config.update(lora_rank=lora[0], lora_targets=lora[1])
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "65536", "OMP_NUM_THREADS": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.compute.measure", json.dumps(config)],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(result.stdout.strip().splitlines()[-1])


def estimate_for(spec: ModelSpec, row: tuple, device: Gpu) -> int:
    _, _, seq_len, micro_batch, attention, checkpointing, lora = row
    request = EstimateRequest(
        seq_len=seq_len,
        micro_batch=micro_batch,
        algorithm=Algorithm.SFT,
        precision="fp32",
        optimizer="adamw",
        attention=attention,
        gradient_checkpointing=checkpointing,
        lora_rank=lora[0] if lora else 0,
        lora_targets=lora[1] if lora else ["q_proj"],
        reference_model=False,
    )
    result = estimate(spec, device, request)
    return result.total_bytes - result.category_bytes()["overhead"]


def run(grid: list[tuple]) -> list[dict]:
    rows = []
    for row in grid:
        spec = model_spec(row[0], row[1])
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


def _describe(row: tuple) -> str:
    hidden, layers, seq_len, micro_batch, attention, checkpointing, lora = row
    text = f"h{hidden} L{layers} s{seq_len} b{micro_batch} {attention}"
    if checkpointing:
        text += " +ckpt"
    if lora:
        text += f" +LoRA r{lora[0]} {','.join(t.removesuffix('_proj') for t in lora[1])}"
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
    parser.add_argument("--quick", action="store_true", help="two small configurations (a smoke run)")
    args = parser.parse_args()
    print(table(run(QUICK_GRID if args.quick else GRID)))


if __name__ == "__main__":
    main()
