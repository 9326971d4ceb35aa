"""Model surgery benchmark: `python -m benchmarks.surgery.run [--quick]` (or `make bench`).

Three models of Qwen2.5-0.5B's shape (hidden 896, 24 layers, vocabulary 151,936, tied embeddings, bf16: 494M
parameters, 988 MB each) with random weights, made here and cached, merged three ways in one run, each as a fresh
process timed from its start to its exit, with its peak resident set (the kernel's ru_maxrss of that child, from
`os.wait4`):
- the platform: the surgery run's process exactly as the platform starts it (`SurgeryEngine.launch_spec`: the
  RunSpec written as run_config.json, `python -m training_platform.merging --config ...`), which adds to mergekit's
  merge the inputs' sha256 on a thread, status-file writes and the staging rename;
- mergekit's command line alone (`mergekit-yaml`) on the same recipe (`to_mergekit`), with the options the platform
  passes (shard size, seed, quiet; the tokenizer copied and the model card written, mergekit's defaults);
- the I/O floor: every input tensor read and an output of the same size written with safetensors alone
  (benchmarks/surgery/io_floor.py).
Each is run `--repeats` times, the three alternating, and the table keeps each row's minimum wall time and minimum
peak RSS. The platform's output is checked to hold mergekit's tensors, bit for bit. Peak RSS counts the input files'
pages that safetensors maps, for all three alike. Target (issue 25): within 1.1x of mergekit's time and RSS.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from training_platform.contract.run import RunSpec
from training_platform.contract.surgery import MergeParams
from training_platform.merging.engine import SurgeryEngine
from training_platform.merging.mergekit_run import run_merge_with_progress
from training_platform.merging.recipe import to_mergekit

# The platform's shard size (run_merge_with_progress's default), passed to mergekit's command line and the floor.
SHARD_BYTES = run_merge_with_progress.__defaults__[-1]
TARGET_RATIO = 1.1
MIB = 1 << 20
IO_FLOOR_SCRIPT = Path(__file__).with_name("io_floor.py")
MODEL_NAMES = ("base", "a", "b")
# Starts the measured command and reports its wall time and its own ru_maxrss (os.wait4: that one child's rusage).
# A small process of its own, because a child's peak RSS starts from its parent's at the fork: started from this
# benchmark, which has imported torch, every command would be charged ~500 MiB that is not its own.
LAUNCHER = """
import os, sys, time
started = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as result:
    result.write(f"{time.perf_counter() - started} {usage.ru_maxrss}")
sys.exit(os.waitstatus_to_exitcode(status))
"""


@dataclass(frozen=True)
class Shape:
    name: str
    hidden: int
    intermediate: int
    layers: int
    heads: int
    kv_heads: int
    vocab: int


QWEN25_05B = Shape("qwen2.5-0.5b", 896, 4864, 24, 14, 2, 151_936)
QUICK = Shape("tiny", 64, 128, 2, 4, 2, 1000)


def default_cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "training-platform-bench" / "surgery"


def qwen2_shapes(shape: Shape) -> dict[str, tuple[int, ...]]:
    """Every tensor of a Qwen2 causal LM with tied embeddings (no lm_head), as its checkpoints name them."""
    head_dim = shape.hidden // shape.heads
    kv = shape.kv_heads * head_dim
    shapes: dict[str, tuple[int, ...]] = {"model.embed_tokens.weight": (shape.vocab, shape.hidden)}
    for layer in range(shape.layers):
        prefix = f"model.layers.{layer}"
        shapes |= {
            f"{prefix}.self_attn.q_proj.weight": (shape.hidden, shape.hidden),
            f"{prefix}.self_attn.q_proj.bias": (shape.hidden,),
            f"{prefix}.self_attn.k_proj.weight": (kv, shape.hidden),
            f"{prefix}.self_attn.k_proj.bias": (kv,),
            f"{prefix}.self_attn.v_proj.weight": (kv, shape.hidden),
            f"{prefix}.self_attn.v_proj.bias": (kv,),
            f"{prefix}.self_attn.o_proj.weight": (shape.hidden, shape.hidden),
            f"{prefix}.mlp.gate_proj.weight": (shape.intermediate, shape.hidden),
            f"{prefix}.mlp.up_proj.weight": (shape.intermediate, shape.hidden),
            f"{prefix}.mlp.down_proj.weight": (shape.hidden, shape.intermediate),
            f"{prefix}.input_layernorm.weight": (shape.hidden,),
            f"{prefix}.post_attention_layernorm.weight": (shape.hidden,),
        }
    return shapes | {"model.norm.weight": (shape.hidden,)}


def parameter_count(shape: Shape) -> int:
    total = 0
    for dims in qwen2_shapes(shape).values():
        count = 1
        for dim in dims:
            count *= dim
        total += count
    return total


def ensure_models(shape: Shape, cache: Path) -> dict[str, Path]:
    """The base and two 'fine-tuned' variants (the base plus small noise of their own), made once per shape: each
    directory is complete when its `.complete` marker exists, so an interrupted generation is made again.

    The tensors are written with safetensors directly rather than through transformers' model classes, which would
    build (and initialise) the model first; the config is transformers' own, and the demo tokenizer goes with each
    model so that both merges copy a tokenizer, as they do for a real model."""
    import torch
    from safetensors.torch import save_file
    from transformers import Qwen2Config

    from training_platform.demo.assets import build_tokenizer

    models = {name: cache / shape.name / name for name in MODEL_NAMES}
    for seed, directory in enumerate(models.values()):
        if (directory / ".complete").exists():
            continue
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)
        base_generator = torch.Generator().manual_seed(0)
        noise_generator = torch.Generator().manual_seed(seed)
        tensors = {}
        for tensor_name, dims in qwen2_shapes(shape).items():
            weights = torch.randn(dims, generator=base_generator) * 0.02
            if seed:
                weights += torch.randn(dims, generator=noise_generator) * 0.002
            tensors[tensor_name] = weights.to(torch.bfloat16)
        save_file(tensors, str(directory / "model.safetensors"), metadata={"format": "pt"})
        del tensors
        Qwen2Config(
            vocab_size=shape.vocab,
            hidden_size=shape.hidden,
            intermediate_size=shape.intermediate,
            num_hidden_layers=shape.layers,
            num_attention_heads=shape.heads,
            num_key_value_heads=shape.kv_heads,
            tie_word_embeddings=True,
            max_position_embeddings=32768,
            architectures=["Qwen2ForCausalLM"],
            dtype="bfloat16",
        ).save_pretrained(directory)
        build_tokenizer(directory)
        (directory / ".complete").touch()
    return models


def merge_params(method: str, models: dict[str, Path]) -> MergeParams:
    """ties: the base and two task vectors at density 0.5 and weight 0.5; linear: the three models, equal weights."""
    if method == "ties":
        entries = [
            {"model": {"path": str(models[name])}, "parameters": {"weight": 0.5, "density": 0.5}} for name in "ab"
        ]
        return MergeParams(method="ties", base_model={"path": str(models["base"])}, models=entries)
    entries = [{"model": {"path": str(path)}, "parameters": {"weight": 1.0}} for path in models.values()]
    return MergeParams(method="linear", models=entries)


@dataclass(frozen=True)
class Measured:
    seconds: float
    peak_rss_bytes: int


def measure(argv: list[str], log: Path, env: dict[str, str], cwd: Path | None = None) -> Measured:
    """Wall time from start to exit and the peak resident set of the command alone, measured by LAUNCHER."""
    result = log.with_suffix(".measured")
    with open(log, "w", encoding="utf-8") as output:
        launcher = [sys.executable, "-I", "-S", "-c", LAUNCHER, str(result), *argv]
        code = subprocess.run(launcher, stdout=output, stderr=subprocess.STDOUT, env=env, cwd=cwd).returncode
    if code:
        raise RuntimeError(f"{argv[:4]} exited with {code}: {log.read_text(errors='replace')[-3000:]}")
    seconds, kilobytes = result.read_text(encoding="utf-8").split()
    return Measured(float(seconds), int(kilobytes) * 1024)  # Linux reports ru_maxrss in kilobytes


def run_platform(params: MergeParams, root: Path) -> tuple[Measured, Path]:
    shutil.rmtree(root, ignore_errors=True)
    spec = RunSpec(
        job_id="surgery-bench",
        model_path=params.sources[0].path,
        dataset_paths=[],
        params=params,
        output_dir=str(root),
    )
    launch = SurgeryEngine().launch_spec(spec)  # writes run_config.json, as the platform does before starting it
    measured = measure(launch.argv, root / "process.log", {**os.environ, **launch.env}, cwd=launch.cwd)
    return measured, spec.layout.final_model_dir


def run_mergekit_cli(params: MergeParams, root: Path) -> tuple[Measured, Path]:
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    recipe = root / "recipe.yml"
    recipe.write_text(yaml.safe_dump(to_mergekit(params), sort_keys=False), encoding="utf-8")
    out = root / "merged"
    mergekit_yaml = Path(sys.executable).with_name("mergekit-yaml")
    argv = [str(mergekit_yaml), str(recipe), str(out), "--random-seed", str(params.random_seed)]
    argv += ["--out-shard-size", str(SHARD_BYTES), "--quiet"]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    return measure(argv, root / "process.log", env), out


def run_io_floor(params: MergeParams, root: Path) -> tuple[Measured, Path]:
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    out = root / "copied"
    inputs = [source.path for source in params.sources]
    argv = [sys.executable, str(IO_FLOOR_SCRIPT), str(out), str(SHARD_BYTES), *inputs]
    return measure(argv, root / "process.log", dict(os.environ)), out


RUNNERS = {"platform": run_platform, "mergekit CLI": run_mergekit_cli, "I/O floor": run_io_floor}
WORKDIRS = {"platform": "platform", "mergekit CLI": "mergekit", "I/O floor": "floor"}


def assert_same_tensors(ours: Path, theirs: Path) -> int:
    """Every tensor of the platform's output equals mergekit's, compared one at a time; returns how many."""
    import torch
    from safetensors import safe_open

    def located(directory: Path) -> dict:
        handles = [safe_open(path, framework="pt") for path in sorted(directory.glob("*.safetensors"))]
        return {name: handle for handle in handles for name in handle.keys()}

    mine, reference = located(ours), located(theirs)
    assert mine.keys() == reference.keys(), sorted(mine.keys() ^ reference.keys())[:5]
    for name, handle in mine.items():
        assert torch.equal(handle.get_tensor(name), reference[name].get_tensor(name)), name
    return len(mine)


def bytes_written(directory: Path) -> int:
    return sum(path.stat().st_size for path in directory.glob("*.safetensors"))


def run(shape: Shape, methods: list[str], repeats: int, cache: Path, workdir: Path) -> list[dict]:
    """For each method, each runner `repeats` times in turn (platform, mergekit, floor, platform, ...); one row per
    runner with its best wall time and best peak RSS."""
    models = ensure_models(shape, cache)
    rows = []
    for method in methods:
        params = merge_params(method, models)
        best: dict[str, Measured] = {}
        outputs: dict[str, Path] = {}
        for attempt in range(repeats):
            for name, runner in RUNNERS.items():
                measured, outputs[name] = runner(params, workdir / method / WORKDIRS[name])
                print(f"{method} {name} #{attempt + 1}: {measured}", file=sys.stderr)
                previous = best.get(name, measured)
                best[name] = Measured(
                    min(previous.seconds, measured.seconds), min(previous.peak_rss_bytes, measured.peak_rss_bytes)
                )
        compared = assert_same_tensors(outputs["platform"], outputs["mergekit CLI"])
        floor_bytes, merge_bytes = bytes_written(outputs["I/O floor"]), bytes_written(outputs["mergekit CLI"])
        assert abs(floor_bytes - merge_bytes) <= 0.01 * merge_bytes, (floor_bytes, merge_bytes)
        reference = best["mergekit CLI"]
        for name, measured in best.items():
            rows.append(
                {
                    "method": method,
                    "runner": name,
                    "seconds": measured.seconds,
                    "peak_rss_mib": measured.peak_rss_bytes / MIB,
                    "time_ratio": measured.seconds / reference.seconds,
                    "rss_ratio": measured.peak_rss_bytes / reference.peak_rss_bytes,
                    "tensors": compared,
                    "output_mb": merge_bytes / 1e6,
                }
            )
    return rows


def table(rows: list[dict], shape: Shape) -> str:
    """Markdown: one line per method and runner, the ratios against mergekit's command line."""
    header = ("merge", "run", "wall s", "peak RSS MiB", "time / mergekit", "RSS / mergekit", "target")
    lines = [
        (
            f"{row['method']}, 3 x {parameter_count(shape) / 1e6:.3g}M ({shape.name})",
            row["runner"],
            f"{row['seconds']:.1f}",
            f"{row['peak_rss_mib']:,.0f}",
            f"{row['time_ratio']:.2f}x",
            f"{row['rss_ratio']:.2f}x",
            f"≤ {TARGET_RATIO}x both" if row["runner"] == "platform" else "–",
        )
        for row in rows
    ]
    return "\n".join("| " + " | ".join(line) + " |" for line in [header, tuple("---" for _ in header), *lines])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="tiny models, one run each (a smoke run)")
    parser.add_argument("--method", choices=["ties", "linear"], action="append")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=default_cache(), help="where the generated models are kept")
    args = parser.parse_args()
    shape = QUICK if args.quick else QWEN25_05B
    with tempfile.TemporaryDirectory(prefix="surgery-bench-") as workdir:
        repeats = 1 if args.quick else args.repeats
        rows = run(shape, args.method or ["ties", "linear"], repeats, args.cache, Path(workdir))
    print(table(rows, shape))


if __name__ == "__main__":
    main()
