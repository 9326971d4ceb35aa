"""Training throughput: `python -m benchmarks.training.run [--quick] [--cuda] [--out FILE]` (or `make bench`).

Useful tokens per second (tokens that are not padding) of the TRL engine's SFT, in one run on this machine, each
arm in a fresh process (`python -m benchmarks.training.run --arm JSON`) with the same threads:
- **plain**: a plain PyTorch loop fed exactly the padded engine's batches (its trainer's get_train_dataloader(), taken
  before the clock starts): forward with labels, backward, gradient clipping, fused AdamW and the trainer's
  learning-rate schedule. The baseline of the padded engine: their first losses must agree.
- **engine, padded** (params.packing false) and **engine, packed** (packing true): the platform's trainer as a job
  builds it (engines/trl/recipe.build_trainer) with the job's callback (PlatformCallback: metrics, status, control
  files), trained by trainer.train().
- **stock TRL, padded**: TRL's own SFTTrainer with the platform's arguments and data, its own fused LM head and the
  same callback: the engine as it was before issue 31 ("today's padded SFT").
A step's time is from the end of the step before it to its end, so it holds everything the trainer does between
steps (collation, logging, the callback); the first `warmup` steps are not timed. Its useful tokens are the
trainer's own count (TRL's num_tokens) or, for the plain loop, the batch's attention mask.

The model has Qwen2's shape at 19M parameters (hidden 256, 4 layers, vocabulary 32,000, tied embeddings) with random
weights and the demo tokenizer beside it; the dataset's tokenized lengths (chat template applied) follow a named
distribution (LENGTHS: lognormal, median 150 tokens), both made here from fixed seeds, never downloaded. The final
models' loss on the same held-out rows compares packed with padded training; the gap between two padded runs that
differ only in their seed (the order of the samples) is the noise it is judged against.

`--cuda` runs the same kind of arms on a lent GPU (CUDA_ARMS: a Qwen2.5-0.5B-shaped model in bf16, Liger on and off,
packing on and off, GRPO rollouts from vLLM colocated or from model.generate); an arm whose package is not installed
is reported as such. Without CUDA it says so and exits with status 2.
"""

import argparse
import importlib.util
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from benchmarks.compute.gpu import save_random_model
from benchmarks.report import print_table
from training_platform.compute.model import PRESETS, ModelSpec
from training_platform.contract.params import Algorithm, parse_params
from training_platform.contract.run import RunSpec

MODEL = ModelSpec(name="qwen2-h256-l4", vocab_size=32_000, hidden_size=256, intermediate_size=704, num_layers=4,
                  num_heads=4, num_kv_heads=2, tie_embeddings=True, attention_bias=True)  # fmt: skip


@dataclass(frozen=True)
class Lengths:
    """Tokenized sample lengths: lognormal with this median and sigma, cut to [low, high]."""

    median: int = 150
    sigma: float = 0.8
    low: int = 16
    high: int = 1024


LENGTHS = Lengths()
# One-token words of the demo tokenizer, with their leading space: a text of n of them is n tokens.
WORDS = (" plus", " minus", " times", " is", " an", " as", " answer", " The")
FIRST_WORD = "plus"  # one token without a space too


@dataclass(frozen=True)
class Setup:
    rows: int = 400
    heldout: int = 64
    steps: int = 30
    warmup: int = 3  # steps not timed
    micro_batch: int = 4
    max_length: int = 1024
    threads: int = 2
    passes: int = 2  # the arms run in one order, then in the opposite one; each arm's median is reported
    noise_seed: int | None = 1  # a second padded run with this seed: the loss gap that counts as noise
    model: ModelSpec = MODEL
    device: str = "cpu"


FULL = Setup()
QUICK = Setup(rows=24, heldout=4, steps=5, warmup=2, max_length=512, passes=1, noise_seed=None)
SEED = 42  # the platform's default seed: the padded and packed runs' own
ARMS = ("plain", "engine padded", "stock TRL padded", "engine packed")


@dataclass(frozen=True)
class CudaArm:
    tag: str
    algorithm: Algorithm
    packing: bool | None
    engine_settings: dict = field(default_factory=dict)
    needs: str | None = None  # the module the arm needs installed


CUDA_SETUP = Setup(rows=512, heldout=64, steps=30, warmup=5, micro_batch=8, max_length=2048, threads=0, passes=1,
                   noise_seed=None, model=PRESETS["Qwen2.5-0.5B"], device="cuda")  # fmt: skip
CUDA_ARMS = [
    CudaArm("sft padded, Liger off", Algorithm.SFT, False, {"use_liger_kernel": False}),
    CudaArm("sft padded, Liger on", Algorithm.SFT, False, {"use_liger_kernel": True}, "liger_kernel"),
    CudaArm("sft packed, Liger off", Algorithm.SFT, True, {"use_liger_kernel": False}),
    CudaArm("sft packed, Liger on", Algorithm.SFT, True, {"use_liger_kernel": True}, "liger_kernel"),
    CudaArm("grpo, model.generate", Algorithm.GRPO, None, {"use_vllm": False}),
    CudaArm("grpo, vLLM colocate", Algorithm.GRPO, None, {"use_vllm": True, "vllm_mode": "colocate"}, "vllm"),
]
GRPO_PARAMS = {"batch_size": 8, "micro_batch_size": 8, "rollout_n": 8, "max_prompt_length": 512,
               "max_response_length": 256, "max_steps": 8}  # fmt: skip


# ---- the model and the data, made once in the parent process ----------------------------------------------------


def target_lengths(count: int, seed: int, lengths: Lengths = LENGTHS) -> list[int]:
    import numpy as np

    drawn = np.random.default_rng(seed).lognormal(math.log(lengths.median), lengths.sigma, count)
    return [int(min(lengths.high, max(lengths.low, round(value)))) for value in drawn]


def sft_rows(targets: list[int], overhead: int, seed: int) -> list[dict]:
    """Prompt/response rows whose conversations are `targets` tokens long (the chat template's `overhead` tokens
    plus one per word); about a quarter of each is the prompt. Below the template's minimum (a word each) a row
    has that minimum."""
    import numpy as np

    rng = np.random.default_rng(seed)
    rows = []
    for target in targets:
        words = max(2, target - overhead)
        prompt = max(1, words // 4)
        rows.append({"prompt": _text(rng, prompt), "response": _text(rng, words - prompt)})
    return rows


def _text(rng, words: int) -> str:
    return FIRST_WORD + "".join(rng.choice(WORDS, words - 1))


def token_lengths(rows: list[dict], tokenizer) -> list[int]:
    from training_platform.engines.trl.data import to_trl_dataset

    return [len(ids) for ids in to_trl_dataset(rows, Algorithm.SFT, tokenizer)["input_ids"]]


def template_overhead(tokenizer) -> int:
    """The chat template's tokens around a one-word prompt and a one-word response."""
    return token_lengths([{"prompt": FIRST_WORD, "response": FIRST_WORD}], tokenizer)[0] - 2


def prepare(directory: Path, setup: Setup) -> dict:
    """The model (random weights, the demo tokenizer), the training and held-out rows; their measured lengths."""
    from training_platform.demo.assets import build_tokenizer

    tokenizer = build_tokenizer(directory / "model")
    save_random_model(directory / "model", setup.model, tokenizer, setup.device)
    overhead = template_overhead(tokenizer)
    train = sft_rows(target_lengths(setup.rows, seed=0), overhead, seed=0)
    heldout = sft_rows(target_lengths(setup.heldout, seed=1), overhead, seed=1)
    _write_jsonl(directory / "train.jsonl", train)
    _write_jsonl(directory / "heldout.jsonl", heldout)
    grpo = [{"prompt": f"What is {i} plus {i + 1}?", "solution": str(2 * i + 1)} for i in range(setup.rows)]
    _write_jsonl(directory / "grpo.jsonl", grpo)
    measured = sorted(token_lengths(train, tokenizer))
    return {
        "rows": len(measured),
        "median": statistics.median(measured),
        "mean": statistics.fmean(measured),
        "p90": measured[int(0.9 * (len(measured) - 1))],
        "min": measured[0],
        "max": measured[-1],
        "template_tokens": overhead + 2,
    }


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


# ---- one arm, in its own process --------------------------------------------------------------------------------


def arm_config(directory: Path, setup: Setup, arm: str, seed: int = SEED, cuda: CudaArm | None = None) -> dict:
    return {"directory": str(directory), "setup": {**asdict(setup), "model": setup.model.model_dump()}, "arm": arm,
            "seed": seed, "cuda": asdict(cuda) if cuda else None}  # fmt: skip


def run_spec(config: dict) -> RunSpec:
    """The job an arm trains: the benchmark's SFT (or, on CUDA, GRPO) run."""
    setup, directory, cuda = config["setup"], Path(config["directory"]), config["cuda"]
    algorithm = Algorithm(cuda["algorithm"]) if cuda else Algorithm.SFT
    params = {"learning_rate": 1e-4, "batch_size": setup["micro_batch"], "micro_batch_size": setup["micro_batch"],
              "max_steps": setup["steps"], "max_length": setup["max_length"], "seed": config["seed"],
              "precision": "fp32" if setup["device"] == "cpu" else "bf16", "save_interval": None}  # fmt: skip
    if algorithm == Algorithm.SFT:
        params["packing"] = cuda["packing"] if cuda else config["arm"] == "engine packed"
    else:
        params = {**params, **GRPO_PARAMS, "learning_rate": 1e-6}
        params.pop("max_length")
    dataset = "train.jsonl" if algorithm == Algorithm.SFT else "grpo.jsonl"
    return RunSpec(
        job_id="bench-training",
        model_path=str(directory / "model"),
        dataset_paths=[str(directory / dataset)],
        params=parse_params(algorithm, params),
        output_dir=str(directory / "runs" / f"{config['arm'].replace(' ', '-')}-{config['seed']}"),
        cpu_threads=setup["threads"],
        engine_settings=cuda["engine_settings"] if cuda else {},
    )


def measure_arm(config: dict) -> dict:
    import torch
    from transformers import AutoTokenizer, TrainerCallback

    setup = config["setup"]
    if setup["threads"]:
        torch.set_num_threads(setup["threads"])
    spec = run_spec(config)
    if config["arm"] == "plain":
        result = _plain_loop(spec, setup)
    else:
        from training_platform.engines.trl.callback import PlatformCallback

        trainer = _stock_trainer(spec) if config["arm"] == "stock TRL padded" else _engine_trainer(spec, setup)
        ends: list[tuple[float, float]] = []

        class StepClock(TrainerCallback):
            def on_step_end(self, args, state, control, **kwargs):
                ends.append(_clock())

        trainer.add_callback(PlatformCallback(spec.layout, main_process=True, health=spec.health))
        trainer.add_callback(StepClock())
        trainer.train()
        logs = [entry for entry in trainer.state.log_history if "loss" in entry]
        seen = [0, *(entry["num_tokens"] for entry in logs)]
        useful = [after - before for before, after in itertools.pairwise(seen)]
        padding = [entry.get("padding_ratio") for entry in logs]
        positions = [u / (1 - p) if p is not None and p < 1 else None for u, p in zip(useful, padding, strict=True)]
        result = {"ends": ends, "useful": useful, "positions": positions, "losses": [e["loss"] for e in logs],
                  "model": trainer.model}  # fmt: skip
    model = result.pop("model")
    if spec.algorithm == Algorithm.SFT:
        tokenizer = AutoTokenizer.from_pretrained(spec.model_path)
        result["heldout_loss"] = heldout_loss(model, tokenizer, Path(config["directory"]) / "heldout.jsonl")
    return summarize(result, setup["warmup"])


def _engine_trainer(spec: RunSpec, setup: dict):
    from training_platform.engines.trl.recipe import build_trainer

    return build_trainer(spec, setup["device"])


def _stock_trainer(spec: RunSpec):
    """TRL's SFTTrainer with the platform's arguments and data, as the engine was before issue 31."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    from training_platform.datafiles.rows import read_rows
    from training_platform.engines.trl.arguments import trainer_arguments
    from training_platform.engines.trl.data import to_trl_dataset

    tokenizer = AutoTokenizer.from_pretrained(spec.model_path)
    rows = read_rows(spec.dataset_paths, spec.dataset_formats, spec.algorithm)
    return SFTTrainer(
        model=AutoModelForCausalLM.from_pretrained(spec.model_path, dtype=torch.float32),
        args=SFTConfig(**trainer_arguments(spec, "cpu", packed=False)),
        train_dataset=to_trl_dataset(rows, Algorithm.SFT, tokenizer),
        processing_class=tokenizer,
    )


def _plain_loop(spec: RunSpec, setup: dict) -> dict:
    """The padded engine's first `steps` batches, trained by a plain loop with the trainer's optimizer settings."""
    import torch
    from transformers import get_scheduler

    trainer = _engine_trainer(spec, setup)
    batches = list(itertools.islice(trainer.get_train_dataloader(), setup["steps"]))
    if len(batches) < setup["steps"]:  # the trainer's next epoch is shuffled anew: one epoch must hold every step
        raise ValueError(f"setup.rows: {setup['rows']} rows make {len(batches)} micro-batches, fewer than "
                         f"setup.steps ({setup['steps']})")  # fmt: skip
    model, args, steps = trainer.model, trainer.args, setup["steps"]
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate, weight_decay=args.weight_decay,
                                  fused=True)  # fmt: skip
    scheduler = get_scheduler(args.lr_scheduler_type, optimizer, args.get_warmup_steps(steps), steps)
    ends, losses = [], []
    for batch in batches:
        loss = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"], labels=batch["labels"]).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad(set_to_none=True)
        losses.append(loss.item())
        ends.append(_clock())
    return {
        "ends": ends,
        "useful": [int(batch["attention_mask"].sum()) for batch in batches],
        "positions": [batch["input_ids"].numel() for batch in batches],
        "losses": losses,
        "model": model,
    }


def heldout_loss(model, tokenizer, path: Path) -> float:
    """The mean loss per trained token of the held-out rows, each alone (no padding)."""
    import torch

    from training_platform.datafiles.rows import read_rows
    from training_platform.engines.trl.data import to_trl_dataset

    rows = to_trl_dataset(read_rows([str(path)], {}, Algorithm.SFT), Algorithm.SFT, tokenizer)
    model.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for ids, mask in zip(rows["input_ids"], rows["assistant_masks"], strict=True):
            logits = model(input_ids=torch.tensor([ids], device=model.device)).logits[0, :-1].float()
            labels = torch.tensor([t if m else -100 for t, m in zip(ids, mask, strict=True)][1:], device=model.device)
            total += torch.nn.functional.cross_entropy(logits, labels, ignore_index=-100, reduction="sum").item()
            count += int((labels != -100).sum())
    return total / count


def _clock() -> tuple[float, float]:
    """Wall time, and this process's CPU time: on a machine whose cores other work shares, the wall time of a step
    grows with their load, its CPU time much less (the load average is reported beside it)."""
    return time.perf_counter(), time.process_time()


def summarize(result: dict, warmup: int) -> dict:
    """Useful tokens per second (wall and CPU) over the steps after `warmup`: from the end of step `warmup` to the end
    of the last; the 1-minute load average at the end."""
    ends, useful, positions = result["ends"], result["useful"], result["positions"]
    seconds, cpu_seconds = (end - start for end, start in zip(ends[-1], ends[warmup - 1], strict=True))
    timed = [p for p in positions[warmup:] if p is not None]
    losses = result["losses"]
    return {
        "steps": len(ends),
        "seconds": seconds,
        "useful_tokens": sum(useful[warmup:]),
        "tokens_per_second": sum(useful[warmup:]) / seconds,
        "tokens_per_cpu_second": sum(useful[warmup:]) / cpu_seconds,
        "load_average": os.getloadavg()[0],
        "padding": 1 - sum(useful[warmup:]) / sum(timed) if len(timed) == len(positions[warmup:]) else None,
        "first_losses": losses[:3],
        "last5_loss": statistics.fmean(losses[-5:]),
        "step_loss_std": statistics.stdev(losses[-5:]) if len(losses) >= 5 else None,
        **({"heldout_loss": result["heldout_loss"]} if "heldout_loss" in result else {}),
    }


def run_arm(config: dict) -> dict:
    env = {**os.environ}
    if config["setup"]["threads"]:
        env["OMP_NUM_THREADS"] = str(config["setup"]["threads"])
    process = subprocess.run([sys.executable, "-m", "benchmarks.training.run", "--arm", json.dumps(config)],
                             env=env, capture_output=True, text=True)  # fmt: skip
    if process.returncode:
        raise RuntimeError(f"{config['arm']} failed:\n{process.stderr[-3000:]}")
    return json.loads(process.stdout.strip().splitlines()[-1])


# ---- the CPU benchmark ------------------------------------------------------------------------------------------


def run(setup: Setup, directory: Path) -> dict:
    """Every arm, `setup.passes` times in alternating order; each arm's median throughput."""
    lengths = prepare(directory, setup)
    print(f"lengths: {json.dumps(lengths)}", file=sys.stderr)
    measured: dict[str, list[dict]] = {arm: [] for arm in ARMS}
    for index in range(setup.passes):
        for arm in ARMS if index % 2 == 0 else reversed(ARMS):
            measured[arm].append(run_arm(arm_config(directory, setup, arm)))
            print(f"pass {index + 1} | {arm}: {json.dumps(measured[arm][-1])}", file=sys.stderr, flush=True)
    noise = None
    if setup.noise_seed is not None:
        noise = run_arm(arm_config(directory, setup, "engine padded", seed=setup.noise_seed))
        print(f"engine padded, seed {setup.noise_seed}: {json.dumps(noise)}", file=sys.stderr, flush=True)
    return {"setup": setup, "lengths": lengths, "arms": measured, "noise": noise}


# What a ratio compares: wall time, the table's; CPU time, steadier where other work shares the cores.
MEASURES = {"tokens_per_second": "tok/s", "tokens_per_cpu_second": "tok/CPU-s"}


def speed(results: dict, arm: str, measure: str = "tokens_per_second") -> float | None:
    """The arm's median over its passes; None where a pass did not record `measure`."""
    values = [r.get(measure) for r in results["arms"][arm]]
    return None if None in values else statistics.median(values)


def table_rows(results: dict) -> list[tuple]:
    rows = []
    for measure, unit in MEASURES.items():
        plain, padded, stock, packed = (speed(results, arm, measure) for arm in ARMS)
        if None in (plain, padded, stock, packed):
            continue
        for name, value, baseline, target in (
            ("engine padded vs plain loop (same batches)", padded, plain, ">= 1.0x"),
            ("engine packed vs stock TRL padded (today's)", packed, stock, ">= 1.5x"),
            ("engine packed vs engine padded", packed, padded, "reported"),
        ):
            rows.append((f"{name}, {unit}", f"{value:,.0f} {unit}", f"{baseline:,.0f} {unit}",
                         f"{value / baseline:.2f}x", target))  # fmt: skip
    return rows


def report(results: dict) -> str:
    """The markdown that docs/benchmarks.md quotes: each arm's runs, the ratios and the loss comparison."""
    setup, lengths, arms = results["setup"], results["lengths"], results["arms"]
    lines = [
        f"Model {setup.model.name} ({setup.model.num_parameters / 1e6:.1f}M parameters); {lengths['rows']} rows, "
        f"tokens per sample median {lengths['median']:.0f}, mean {lengths['mean']:.0f}, p90 {lengths['p90']}, "
        f"range {lengths['min']}-{lengths['max']}; {setup.steps} steps of micro-batch {setup.micro_batch} "
        f"(first {setup.warmup} untimed), max_length {setup.max_length}, fp32, {setup.threads} threads, "
        f"{setup.passes} pass(es).",
        "",
        "| arm | useful tok/s (each pass) | median | useful tok/CPU-s (each pass) | load average | padding "
        "| first three losses | held-out loss |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for arm in ARMS:
        runs = arms[arm]
        wall = " / ".join(f"{r['tokens_per_second']:,.0f}" for r in runs)
        cpu = " / ".join(f"{r['tokens_per_cpu_second']:,.0f}" if "tokens_per_cpu_second" in r else "–" for r in runs)
        load = " / ".join(f"{r['load_average']:.1f}" if "load_average" in r else "–" for r in runs)
        padding = "–" if runs[0]["padding"] is None else f"{runs[0]['padding']:.1%}"
        losses = ", ".join(f"{loss:.4f}" for loss in runs[0]["first_losses"])
        lines.append(f"| {arm} | {wall} | {speed(results, arm):,.0f} | {cpu} | {load} | {padding} | {losses} | "
                     f"{runs[0]['heldout_loss']:.4f} |")  # fmt: skip
    lines += ["", "| ratio | measured | target |", "|---|---|---|"]
    lines += [f"| {name} | {ratio} | {target} |" for name, _, _, ratio, target in table_rows(results)]
    padded, packed = arms["engine padded"][0], arms["engine packed"][0]
    lines += ["", f"Packed minus padded: held-out loss {packed['heldout_loss'] - padded['heldout_loss']:+.4f}, "
                  f"mean loss of the last five steps {packed['last5_loss'] - padded['last5_loss']:+.4f} "
                  f"(their step-to-step std: padded {_std(padded)}, packed {_std(packed)})."]  # fmt: skip
    if noise := results["noise"]:
        lines.append(f"Noise: two padded runs whose seeds differ: held-out loss "
                     f"{noise['heldout_loss'] - padded['heldout_loss']:+.4f}, last five steps "
                     f"{noise['last5_loss'] - padded['last5_loss']:+.4f}.")  # fmt: skip
    return "\n".join(lines) + "\n"


def _std(result: dict) -> str:
    return "–" if result["step_loss_std"] is None else f"{result['step_loss_std']:.4f}"


# ---- the same harness on a lent GPU -----------------------------------------------------------------------------


def run_cuda(directory: Path) -> str:
    prepare(directory, CUDA_SETUP)
    lines = ["| arm | useful tokens/s | held-out loss |", "|---|---|---|"]
    for cuda in CUDA_ARMS:
        if cuda.needs and importlib.util.find_spec(cuda.needs) is None:
            lines.append(f"| {cuda.tag} | not installed ({cuda.needs}) | |")
            continue
        setup = replace(CUDA_SETUP, steps=GRPO_PARAMS["max_steps"]) if cuda.algorithm != Algorithm.SFT else CUDA_SETUP
        try:
            result = run_arm(arm_config(directory, setup, cuda.tag, cuda=cuda))
        except RuntimeError as error:
            lines.append(f"| {cuda.tag} | failed: {str(error).strip().splitlines()[-1]} | |")
            continue
        loss = f"{result['heldout_loss']:.4f}" if "heldout_loss" in result else ""
        lines.append(f"| {cuda.tag} | {result['tokens_per_second']:,.0f} | {loss} |")
        print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a few rows and steps, one pass (a smoke run)")
    parser.add_argument("--cuda", action="store_true", help="the GPU arms (Liger, packing, vLLM) on a lent GPU")
    parser.add_argument("--out", type=Path, help="also write the markdown report to this file")
    parser.add_argument("--arm", help=argparse.SUPPRESS)  # one arm's measurement, in the child process
    args = parser.parse_args()
    if args.arm:
        print(json.dumps(measure_arm(json.loads(args.arm))))
        return 0
    with tempfile.TemporaryDirectory(prefix="tplat-bench-training-") as directory:
        if args.cuda:
            import torch

            if not torch.cuda.is_available():
                print("CUDA is absent on this machine: nothing measured. Run `--cuda` on a machine with an NVIDIA "
                      "GPU; without it the benchmark measures the CPU.", file=sys.stderr)  # fmt: skip
                return 2
            text = f"Measured on {torch.cuda.get_device_name(0)} (torch {torch.__version__}).\n\n"
            text += run_cuda(Path(directory))
        else:
            results = run(QUICK if args.quick else FULL, Path(directory))
            print_table(table_rows(results))
            text = report(results)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
