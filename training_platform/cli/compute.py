"""`tplat compute estimate|recommend|gpus|models`: the configurator, through the API."""

import json
from typing import Any

import typer
from rich.table import Table

from training_platform.cli.common import JsonOpt, client, console, model_options, print_json
from training_platform.compute.gpus import GiB
from training_platform.compute.schemas import EstimateBody, RecommendBody

app = typer.Typer(help="Size a run: memory per GPU, and the configuration that fits.", no_args_is_help=True)


@app.command()
@model_options(EstimateBody, comma_lists=("lora_targets",))
def estimate(body: dict[str, Any], as_json: JsonOpt = False) -> None:
    """Memory per GPU of one configuration, term by term."""
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


@app.command()
@model_options(RecommendBody)
def recommend(body: dict[str, Any], as_json: JsonOpt = False) -> None:
    """The fastest configuration that fits, the engine that runs it, and the job's parameters."""
    result = client().post("/compute/recommend", json=body)
    if as_json:
        print_json(result)
        return
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
