"""GPU measurement: `python -m benchmarks.compute.gpu [--quick] [--plain-only | --engine-only] [--out FILE]`.

On a CUDA machine it measures, each configuration in a fresh process, the peak memory and the throughput of
- plain training loops of real model shapes (random weights from each preset's published shape:
  benchmarks/compute/measure.py with torch.cuda.max_memory_allocated / max_memory_reserved and the CUDA context),
- the platform's TRL engine as a job runs it (`python -m training_platform.engines.trl --config run_config.json`)
  on a generated model of the preset's shape (random weights, the demo tokenizer) and a generated SFT dataset of
  samples about as long as the sequence length; its metrics give the peak (gpu_memory_gib) and tokens/s,
and writes a markdown table comparing each with the configurator's estimate for that engine (the memory band is
[allocated, reserved] + the context; the engine reports the allocated peak alone). Without CUDA it says so and
exits with status 2: the CPU accuracy benchmark (`python -m benchmarks.compute.run`) is the evidence there.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from training_platform.compute.gpus import CATALOG, GiB, Gpu
from training_platform.compute.memory import ALL_LINEARS, EstimateRequest, estimate
from training_platform.compute.model import PRESETS, ModelSpec
from training_platform.compute.speed import speed
from training_platform.contract.params import Algorithm, parse_params
from training_platform.contract.run import RunSpec

QKVO = ["q_proj", "k_proj", "v_proj", "o_proj"]
ENGINE_STEPS = 12  # the first steps warm up (allocator, kernels); the median of the rest is reported


@dataclass(frozen=True)
class Configuration:
    tag: str
    model: str  # a preset
    request: EstimateRequest


def _plain(tag: str, model: str, **fields) -> Configuration:
    # The findings' loop: fused AdamW, sdpa, peft's default LoRA dropout (0).
    request = EstimateRequest(engine="plain", optimizer_implementation="fused", attention="sdpa", lora_dropout=0.0,
                              **fields)  # fmt: skip
    return Configuration(tag, model, request)


def _engine(tag: str, model: str, **fields) -> Configuration:
    return Configuration(tag, model, EstimateRequest(engine="trl", precision="bf16", attention="sdpa", **fields))


PLAIN = [
    _plain("q05-bf16-s2048-b4", "Qwen2.5-0.5B", precision="bf16", seq_len=2048, micro_batch=4),
    _plain("q05-bf16-s2048-b4-gc", "Qwen2.5-0.5B", precision="bf16", seq_len=2048, micro_batch=4,
           gradient_checkpointing=True),
    _plain("q05-amp-s4096-b2", "Qwen2.5-0.5B", precision="bf16-amp", seq_len=4096, micro_batch=2),
    _plain("q15-bf16-s2048-b4", "Qwen2.5-1.5B", precision="bf16", seq_len=2048, micro_batch=4),
    _plain("q15-amp-s2048-b4-gc", "Qwen2.5-1.5B", precision="bf16-amp", seq_len=2048, micro_batch=4,
           gradient_checkpointing=True),
    _plain("q3-bf16-s2048-b2-gc", "Qwen2.5-3B", precision="bf16", seq_len=2048, micro_batch=2,
           gradient_checkpointing=True),
    _plain("q3-lora64qkvo-s4096-b4-gc", "Qwen2.5-3B", precision="bf16", seq_len=4096, micro_batch=4,
           gradient_checkpointing=True, lora_rank=64, lora_targets=QKVO),
    _plain("q7-bf16-s1024-b1-gc", "Qwen2.5-7B", precision="bf16", seq_len=1024, micro_batch=1,
           gradient_checkpointing=True),
    _plain("q7-lora16-s2048-b2-gc", "Qwen2.5-7B", precision="bf16", seq_len=2048, micro_batch=2,
           gradient_checkpointing=True, lora_rank=16, lora_targets=list(ALL_LINEARS)),
    _plain("llama8-lora16-s2048-b2-gc", "Llama-3-8B", precision="bf16", seq_len=2048, micro_batch=2,
           gradient_checkpointing=True, lora_rank=16, lora_targets=list(ALL_LINEARS)),
    _plain("llama8-bf16-s512-b1-gc", "Llama-3-8B", precision="bf16", seq_len=512, micro_batch=1,
           gradient_checkpointing=True),
    _plain("mistral7-lora16-s4096-b1-gc", "Mistral-7B-v0.3", precision="bf16", seq_len=4096, micro_batch=1,
           gradient_checkpointing=True, lora_rank=16, lora_targets=list(ALL_LINEARS)),
]  # fmt: skip
ENGINE = [
    _engine("engine-q05-full-b4", "Qwen2.5-0.5B", seq_len=2048, micro_batch=4),
    _engine("engine-q05-full-b4-gc", "Qwen2.5-0.5B", seq_len=2048, micro_batch=4, gradient_checkpointing=True),
    _engine("engine-q15-lora16-b4", "Qwen2.5-1.5B", seq_len=2048, micro_batch=4, lora_rank=16,
            lora_targets=list(ALL_LINEARS)),
    _engine("engine-q7-full-b1-gc", "Qwen2.5-7B", seq_len=1024, micro_batch=1, gradient_checkpointing=True),
]  # fmt: skip
QUICK = [PLAIN[0], PLAIN[1], ENGINE[0]]


def measure_config(model: ModelSpec, request: EstimateRequest) -> dict:
    """benchmarks/compute/measure.py's configuration of a plain loop of `model`'s shape."""
    config = {
        "family": "qwen2" if model.attention_bias else "llama",
        "vocab_size": model.vocab_size,
        "hidden_size": model.hidden_size,
        "intermediate_size": model.intermediate_size,
        "num_layers": model.num_layers,
        "num_heads": model.num_heads,
        "num_kv_heads": model.num_kv_heads,
        "head_dim": model.head_dim,
        "tie_embeddings": model.tie_embeddings,
        "seq_len": request.seq_len,
        "micro_batch": request.micro_batch,
        "attention": request.attention,
        "gradient_checkpointing": request.gradient_checkpointing,
        "precision": request.precision,
        "engine": request.engine,
        "optimizer_implementation": request.optimizer_implementation,
        "steps": 3,
    }
    if request.lora_rank:
        config.update(lora_rank=request.lora_rank, lora_targets=request.lora_targets, lora_dropout=request.lora_dropout)
    return config


def engine_run_spec(directory: Path, model: ModelSpec, request: EstimateRequest) -> RunSpec:
    """The TRL job's run spec for `request` (precision auto: bf16 on CUDA), its files under `directory`."""
    params: dict = {
        "learning_rate": 1e-5,
        "batch_size": request.micro_batch,
        "micro_batch_size": request.micro_batch,
        "max_steps": ENGINE_STEPS,
        "max_length": request.seq_len,
        "gradient_checkpointing": request.gradient_checkpointing,
        "save_interval": None,
    }
    if request.lora_rank:
        params["lora"] = {"rank": request.lora_rank, "dropout": request.lora_dropout}
    return RunSpec(
        job_id=f"gpu-{model.name.lower().replace('.', '-')}",
        model_path=str(directory / "model"),
        dataset_paths=[str(directory / "sft.jsonl")],
        params=parse_params(Algorithm.SFT, params),
        output_dir=str(directory / "job"),
    )


def write_engine_files(directory: Path, model: ModelSpec, request: EstimateRequest) -> Path:
    """A model of `model`'s shape with random weights and the demo tokenizer, an SFT dataset whose samples fill
    about the sequence length, and run_config.json; returns the config's path."""
    from training_platform.demo.assets import build_tokenizer

    spec = engine_run_spec(directory, model, request)
    tokenizer = build_tokenizer(Path(spec.model_path))
    save_random_model(Path(spec.model_path), model, tokenizer)
    unit = "12 plus 30 is 42. "
    repeats = max(1, request.seq_len // len(tokenizer(unit)["input_ids"]))
    rows = [{"prompt": f"Question {i}: add", "response": unit * repeats} for i in range(request.micro_batch * 64)]
    Path(spec.dataset_paths[0]).write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    config = directory / "run_config.json"
    spec.save(config)
    return config


def save_random_model(directory: Path, model: ModelSpec, tokenizer, device: str | None = None) -> None:
    """A model of the preset's shape with random weights (the demo tokenizer's special tokens), saved in `directory`:
    built on `device` (CUDA where there is one), in float32 on the CPU and bf16 on a GPU."""
    import torch
    from transformers import AutoModelForCausalLM, LlamaConfig, Qwen2Config

    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    config_class = Qwen2Config if model.attention_bias else LlamaConfig
    config = config_class(
        vocab_size=model.vocab_size,
        hidden_size=model.hidden_size,
        intermediate_size=model.intermediate_size,
        num_hidden_layers=model.num_layers,
        num_attention_heads=model.num_heads,
        num_key_value_heads=model.num_kv_heads,
        head_dim=model.head_dim,
        tie_word_embeddings=model.tie_embeddings,
        max_position_embeddings=32768,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    torch.manual_seed(0)
    with torch.device(device):
        built = AutoModelForCausalLM.from_config(config, dtype=torch.float32 if device == "cpu" else torch.bfloat16)
    built.save_pretrained(directory)


def engine_command(config: Path) -> list[str]:
    return [sys.executable, "-m", "training_platform.engines.trl", "--config", str(config)]


def engine_result(spec: RunSpec) -> dict:
    """The peak and the steady throughput from the job's metrics (the platform's own names)."""
    memory, speeds = [], []
    for line in spec.layout.metrics_path.read_text(encoding="utf-8").splitlines():
        values = _flatten(json.loads(line))
        memory += [v for k, v in values.items() if k.endswith("gpu_memory_allocated") or k == "gpu_memory_gib"]
        speeds += [v for k, v in values.items() if k.endswith("tokens_per_second")]
    return {"allocated_gib": max(memory), "tokens_per_second": statistics.median(speeds[len(speeds) // 3 :])}


def _flatten(value: dict, prefix: str = "") -> dict[str, float]:
    flat: dict[str, float] = {}
    for key, inner in value.items():
        if isinstance(inner, dict):
            flat.update(_flatten(inner, f"{prefix}{key}."))
        elif isinstance(inner, int | float):
            flat[f"{prefix}{key}"] = inner
    return flat


def compare(configuration: Configuration, measured: dict, gpu: Gpu) -> dict:
    """The measured band and throughput beside the estimate for the same configuration on `gpu`."""
    model = PRESETS[configuration.model]
    result = estimate(model, gpu, configuration.request)
    pace = speed(model, gpu, configuration.request, configuration.request.micro_batch)
    context = measured.get("context_gib", 0.0)
    low = measured["allocated_gib"] + context
    high = measured.get("reserved_gib", measured["allocated_gib"]) + context
    total = result.total_bytes / GiB
    error = 0.0 if low <= total <= high else (total - high) / high if total > high else (total - low) / low
    return {
        "tag": configuration.tag,
        "engine": configuration.request.engine,
        "band": (low, high),
        "estimate_gib": total,
        "fits": result.fits,
        "error": error,
        "tokens_per_second": measured.get("tokens_per_second"),
        "estimated_tokens_per_second": pace.tokens_per_second if pace else None,
    }


def table(rows: list[dict]) -> str:
    lines = [
        "| configuration | engine | measured GiB (band) | estimate GiB | error | tokens/s measured | estimated |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        low, high = row["band"]
        band = f"{low:.2f}" if low == high else f"{low:.2f}–{high:.2f}"
        measured = f"{row['tokens_per_second']:,.0f}" if row["tokens_per_second"] else "–"
        estimated = f"{row['estimated_tokens_per_second']:,.0f}" if row["estimated_tokens_per_second"] else "–"
        lines.append(f"| {row['tag']} | {row['engine']} | {band} | {row['estimate_gib']:.2f} | {row['error']:+.1%} | "
                     f"{measured} | {estimated} |")  # fmt: skip
    errors = [abs(row["error"]) for row in rows]
    if errors:
        lines.append(f"| median / worst distance | | | | {statistics.median(errors):.1%} / {max(errors):.1%} | | |")
    return "\n".join(lines)


def _run_plain(configuration: Configuration) -> dict:
    model = PRESETS[configuration.model]
    process = subprocess.run(
        [sys.executable, "-m", "benchmarks.compute.measure", json.dumps(measure_config(model, configuration.request))],
        capture_output=True, text=True,
    )  # fmt: skip
    if process.returncode:
        return {"error": process.stderr.strip().splitlines()[-1] if process.stderr.strip() else "failed"}
    result = json.loads(process.stdout.strip().splitlines()[-1])
    return {
        "allocated_gib": result["peak_bytes"] / GiB,
        "reserved_gib": result["reserved_bytes"] / GiB,
        "context_gib": result["context_bytes"] / GiB,
        "tokens_per_second": result.get("tokens_per_second"),
    }


def _run_engine(configuration: Configuration) -> dict:
    with tempfile.TemporaryDirectory(prefix="tplat-gpu-") as directory:
        config = write_engine_files(Path(directory), PRESETS[configuration.model], configuration.request)
        process = subprocess.run(engine_command(config), capture_output=True, text=True, env={**os.environ})
        if process.returncode:
            return {"error": (process.stderr or process.stdout).strip().splitlines()[-1]}
        return engine_result(RunSpec.load(config))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="two plain loops and one engine run")
    parser.add_argument("--plain-only", action="store_true")
    parser.add_argument("--engine-only", action="store_true")
    parser.add_argument("--out", type=Path, help="also write the markdown table to this file")
    args = parser.parse_args()
    import torch

    if not torch.cuda.is_available():
        print("CUDA is absent on this machine: nothing measured. Run this on a machine with an NVIDIA GPU; "
              "`python -m benchmarks.compute.run` measures the CPU.", file=sys.stderr)  # fmt: skip
        return 2
    props = torch.cuda.get_device_properties(0)
    gpu = Gpu(props.name, props.total_memory, 0.0, 0.0, "cuda")
    # The catalog's entry of that size, for its throughput figures; else the device as it is.
    same = [g for g in CATALOG.values() if g.kind == "cuda" and abs(g.memory_bytes - props.total_memory) < 2 * GiB]
    gpu = same[0] if same else gpu
    selected = QUICK if args.quick else [*PLAIN, *ENGINE]
    selected = [c for c in selected if not (args.plain_only and c.request.engine == "trl")]
    selected = [c for c in selected if not (args.engine_only and c.request.engine == "plain")]
    rows, failures = [], []
    for configuration in selected:
        measured = (_run_engine if configuration.request.engine == "trl" else _run_plain)(configuration)
        if "error" in measured:
            failures.append(f"{configuration.tag}: {measured['error']}")
            print(failures[-1], file=sys.stderr)
            continue
        rows.append(compare(configuration, measured, gpu))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    text = f"Measured on {props.name} (torch {torch.__version__}); estimates for {gpu.name}.\n\n{table(rows)}\n"
    text += "".join(f"\n- did not run (out of memory is a verdict): {line}" for line in failures)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
