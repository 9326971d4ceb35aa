"""`tplat compute estimate|recommend|gpus|models`: the configurator on this machine (no server needed)."""

import json
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.table import Table

from training_platform.compute import service
from training_platform.compute.gpus import GiB
from training_platform.compute.memory import Attention, Optimizer, Precision
from training_platform.contract.params import Algorithm
from training_platform.errors import InvalidInputError, field_errors_from_pydantic

app = typer.Typer(help="Size a run: memory per GPU, and the configuration that fits.", no_args_is_help=True)
console = Console()
err_console = Console(stderr=True)

ModelOpt = Annotated[str, typer.Option("--model", help="Preset (see `tplat compute models`) or model directory.")]
GpuOpt = Annotated[str, typer.Option("--gpu", help="GPU name (see `tplat compute gpus`) or cpu.")]
GpusOpt = Annotated[int, typer.Option("--num-gpus", help="GPUs in the data-parallel group.")]
SeqOpt = Annotated[int, typer.Option("--seq-len", help="Tokens per sample (prompt + response for RL).")]
AlgorithmOpt = Annotated[Algorithm, typer.Option("--algorithm")]
PrecisionOpt = Annotated[Precision, typer.Option("--precision")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]


def _fail(errors) -> None:
    for error in errors:
        err_console.print(f"[red]error[/red]: {error}")
    raise typer.Exit(2)


def _call(function, body_type, fields: dict[str, Any]) -> dict[str, Any]:
    try:
        return function(body_type(**fields))
    except ValidationError as error:
        _fail(field_errors_from_pydantic(error))
    except InvalidInputError as error:
        _fail(error.errors)


@app.command()
def estimate(
    model: ModelOpt,
    seq_len: SeqOpt,
    gpu: GpuOpt = "H100-80G",
    num_gpus: GpusOpt = 1,
    micro_batch: Annotated[int, typer.Option("--micro-batch")] = 1,
    algorithm: AlgorithmOpt = Algorithm.SFT,
    precision: PrecisionOpt = "bf16-amp",
    optimizer: Annotated[Optimizer, typer.Option("--optimizer")] = "adamw",
    zero_stage: Annotated[int, typer.Option("--zero-stage", min=0, max=3)] = 0,
    offload_optimizer: Annotated[bool, typer.Option("--offload-optimizer")] = False,
    offload_params: Annotated[bool, typer.Option("--offload-params")] = False,
    gradient_checkpointing: Annotated[bool, typer.Option("--gradient-checkpointing")] = False,
    attention: Annotated[Attention, typer.Option("--attention")] = "flash",
    lora_rank: Annotated[int, typer.Option("--lora-rank")] = 0,
    lora_targets: Annotated[
        str | None, typer.Option("--lora-targets", help="Comma-separated, e.g. q_proj,v_proj.")
    ] = None,
    rollout_n: Annotated[int, typer.Option("--rollout-n")] = 8,
    gpu_memory_utilization: Annotated[float, typer.Option("--gpu-memory-utilization")] = 0.5,
    as_json: JsonOpt = False,
) -> None:
    """Memory per GPU of one configuration, term by term."""
    fields = dict(
        model=model,
        gpu=gpu,
        num_gpus=num_gpus,
        seq_len=seq_len,
        micro_batch=micro_batch,
        algorithm=algorithm,
        precision=precision,
        optimizer=optimizer,
        zero_stage=zero_stage,
        offload_optimizer=offload_optimizer,
        offload_params=offload_params,
        gradient_checkpointing=gradient_checkpointing,
        attention=attention,
        lora_rank=lora_rank,
        rollout_n=rollout_n,
        gpu_memory_utilization=gpu_memory_utilization,
    )
    if lora_targets:
        fields["lora_targets"] = [t.strip() for t in lora_targets.split(",") if t.strip()]
    result = _call(service.run_estimate, service.EstimateBody, fields)
    if as_json:
        typer.echo(json.dumps(result, indent=1))
        return
    _print_estimate(result)


def _print_estimate(result: dict[str, Any]) -> None:
    table = Table("term", "GiB", "formula", "why")
    for term in result["terms"]:
        table.add_row(term["key"], f"{term['bytes'] / GiB:.2f}", term["formula"], term["explanation"])
    console.print(table)
    total, capacity = result["per_gpu_bytes"]["total"], result["capacity_bytes"]
    verdict = "[green]fits[/green]" if result["fits"] else "[red]does not fit[/red]"
    console.print(
        f"total {total / GiB:.2f} GiB of {capacity / GiB:.2f} GiB on {result['gpu']['name']}: {verdict} "
        f"(peak at the {result['peak_phase']})",
        soft_wrap=True,
    )
    for line in result["notes"] + result["problems"]:
        console.print(f"- {line}", soft_wrap=True)


@app.command()
def recommend(
    model: ModelOpt,
    seq_len: SeqOpt,
    gpu: GpuOpt = "H100-80G",
    num_gpus: GpusOpt = 1,
    algorithm: AlgorithmOpt = Algorithm.SFT,
    global_batch: Annotated[int | None, typer.Option("--global-batch", help="Samples (RL: prompts) per step.")] = None,
    precision: PrecisionOpt = "bf16-amp",
    no_lora: Annotated[bool, typer.Option("--no-lora", help="Never propose LoRA.")] = False,
    rollout_n: Annotated[int, typer.Option("--rollout-n")] = 8,
    as_json: JsonOpt = False,
) -> None:
    """The fastest configuration that fits, as job parameters, verl overrides and TRL arguments."""
    fields = dict(
        model=model,
        gpu=gpu,
        num_gpus=num_gpus,
        seq_len=seq_len,
        algorithm=algorithm,
        global_batch=global_batch,
        precision=precision,
        allow_lora=not no_lora,
        rollout_n=rollout_n,
    )
    result = _call(service.run_recommend, service.RecommendBody, fields)
    if as_json:
        typer.echo(json.dumps(result, indent=1))
        return
    if not result["fits"]:
        console.print("[red]does not fit[/red]; what would:")
        for line in result["suggestions"]:
            console.print(f"- {line}", soft_wrap=True)
        return
    _print_estimate(result["estimate"])
    for line in result["reasons"]:
        console.print(f"- {line}", soft_wrap=True)
    console.print(f"job params: {json.dumps(result['params'])}", soft_wrap=True)
    console.print("verl overrides: " + " ".join(result["verl_overrides"]), soft_wrap=True)


@app.command()
def gpus() -> None:
    table = Table("gpu", "memory GiB", "bandwidth GB/s", "bf16 TFLOPs", "note")
    for gpu in service.list_gpus():
        table.add_row(
            gpu["name"], f"{gpu['memory_gib']:.1f}", str(gpu["bandwidth_gbs"]), str(gpu["bf16_tflops"]), gpu["note"]
        )
    console.print(table)


@app.command()
def models() -> None:
    table = Table("preset", "parameters", "layers", "hidden", "heads / kv", "vocab")
    for model in service.list_models():
        table.add_row(
            model["name"],
            f"{model['num_parameters'] / 1e9:.2f}B",
            str(model["num_layers"]),
            str(model["hidden_size"]),
            f"{model['num_heads']} / {model['num_kv_heads']}",
            str(model["vocab_size"]),
        )
    console.print(table)
