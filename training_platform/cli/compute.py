"""`tplat compute estimate|recommend|gpus|models`: the configurator, through the API."""

import json
from typing import Any

import typer
from rich.table import Table

from training_platform.cli.common import JsonOpt, client, console, model_options, print_json
from training_platform.compute.gpus import GiB
from training_platform.compute.schemas import EstimateBody, RecommendBody

app = typer.Typer(help="Size a run: memory per GPU, its speed, and the configuration that fits.", no_args_is_help=True)


@app.command()
@model_options(EstimateBody, comma_lists=("lora_targets",))
def estimate(body: dict[str, Any], as_json: JsonOpt = False) -> None:
    """Memory per GPU of one configuration, term by term, and the speed of one step."""
    result = client().post("/compute/estimate", json=body)
    if as_json:
        print_json(result)
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
        f"(peak at the {result['peak_phase']})"
    )
    for line in result["notes"] + result["problems"]:
        console.print(f"- {line}")
    if result.get("speed"):
        console.print(_speed_line(result["speed"]))


def duration_text(seconds: float) -> str:
    """Seconds as the largest two units (2 h 05 min, 3 min 20 s, 4.2 s)."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {rest:02d} s"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes:02d} min"
    return f"{hours // 24} d {hours % 24:02d} h"


def _speed_line(speed: dict[str, Any]) -> str:
    return (
        f"speed: {speed['tokens_per_second']:,.0f} tokens/s, {duration_text(speed['step_seconds'])} per step of "
        f"{speed['samples_per_step']} samples ({duration_text(speed['step_seconds_low'])} – "
        f"{duration_text(speed['step_seconds_high'])}; {speed['basis']})"
    )


@app.command()
@model_options(RecommendBody)
def recommend(body: dict[str, Any], as_json: JsonOpt = False) -> None:
    """The fastest configuration that fits, the engine that runs it, and the job's parameters."""
    result = client().post("/compute/recommend", json=body)
    if as_json:
        print_json(result)
        return
    print_recommendation(result)


def print_recommendation(result: dict[str, Any]) -> None:
    if not result["fits"]:
        console.print("[red]does not fit[/red]" + "".join(f"; {reason}" for reason in result["reasons"]))
        console.print("what would:")
        for line in result["suggestions"]:
            console.print(f"- {line}")
        return
    _print_estimate(result["estimate"])
    for line in result["reasons"]:
        console.print(f"- {line}")
    console.print(f"engine: {result['engine']}")
    duration = result["duration"]
    if duration and duration["total_seconds"] is not None:
        console.print(
            f"expected duration: {duration_text(duration['total_seconds'])} for {duration['steps']} steps "
            f"({duration_text(duration['total_seconds_low'])} – {duration_text(duration['total_seconds_high'])})"
        )
    console.print(f"job params: {json.dumps(result['params'])}")
    if result["verl_overrides"]:
        console.print("verl overrides: " + " ".join(result["verl_overrides"]))


@app.command()
def gpus() -> None:
    table = Table("gpu", "memory GiB", "bandwidth GB/s", "bf16 TFLOPs", "note")
    for gpu in client().get("/compute/gpus"):
        table.add_row(
            gpu["name"], f"{gpu['memory_gib']:.1f}", str(gpu["bandwidth_gbs"]), str(gpu["bf16_tflops"]), gpu["note"]
        )
    console.print(table)


@app.command()
def models() -> None:
    table = Table("preset", "parameters", "layers", "hidden", "heads / kv", "vocab")
    for model in client().get("/compute/models"):
        table.add_row(
            model["name"],
            f"{model['num_parameters'] / 1e9:.2f}B",
            str(model["num_layers"]),
            str(model["hidden_size"]),
            f"{model['num_heads']} / {model['num_kv_heads']}",
            str(model["vocab_size"]),
        )
    console.print(table)
