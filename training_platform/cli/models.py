"""`tplat models ...`: the registered base models (local Hugging Face directories)."""

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from training_platform.cli.common import JsonOpt, client, console, model_options, print_json
from training_platform.models.schemas import ModelRegister

app = typer.Typer(help="Register and list base models.", no_args_is_help=True)


@app.command("list")
def list_models(as_json: JsonOpt = False) -> None:
    found = client().get("/models")
    if as_json:
        print_json(found)
        return
    table = Table("name", "architecture", "parameters", "path")
    for model in found:
        parameters = f"{model['num_parameters'] / 1e6:.1f}M" if model["num_parameters"] else "-"
        table.add_row(model["name"], model["architecture"], parameters, model["path"])
    console.print(table)


@app.command()
@model_options(ModelRegister)
def register(body: dict[str, Any]) -> None:
    """Register a model directory on the server's disk under a name."""
    candidate = Path(body["path"]).expanduser()
    if candidate.exists():  # a path typed here is relative to this shell, not to the server's directory
        body["path"] = str(candidate.resolve())
    model = client().post("/models", json=body)
    console.print(f"registered model [bold]{model['name']}[/bold] ({model['id']}) at {model['path']}")


@app.command()
def choices(as_json: JsonOpt = False) -> None:
    """Every model that can be chosen (for a job's --model, a merge's --model): registered ones, each job's final
    model and complete checkpoints with the metrics at their step; REFERENCE is what to type."""
    found = client().get("/models/choices")
    if as_json:
        print_json(found)
        return
    table = Table("reference", "kind", "step", "metrics", "path")
    for choice in found:
        metrics = " ".join(f"{key}={value:.4g}" for key, value in choice["metrics"].items())
        kind = choice["kind"] + (" (adapter)" if choice["adapter"] else "")
        step = str(choice["step"]) if choice["step"] is not None else "-"
        table.add_row(choice["reference"], kind, step, metrics, choice["path"])
    console.print(table)


@app.command()
def show(model: Annotated[str, typer.Argument(help="Model name or id.")]) -> None:
    print_json(client().get(f"/models/{model}"))
