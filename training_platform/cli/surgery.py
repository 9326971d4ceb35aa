"""`tplat surgery ...`: merge models, average a job's checkpoints, fold a LoRA adapter into its base (each a run the
server supervises, followed with --follow), and pick a job's best checkpoint from its recorded metrics. Models are
named as anywhere else: a path, `job:<job>`, `job:<job>@<checkpoint>` or `model:<name>` (`tplat models choices`)."""

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from training_platform.cli.common import JsonOpt, client, console, local_path, model_options, print_json
from training_platform.cli.jobs import build_params, follow_job, parse_param
from training_platform.surgery.schemas import AverageRequest, LoraFoldRequest, MergeRequest, SelectRequest

app = typer.Typer(help="Merge, average and fold models; select a job's best checkpoint.", no_args_is_help=True)
FollowOpt = Annotated[bool, typer.Option("--follow", help="Show the run's progress until it ends.")]


def _started(job: dict, follow: bool) -> None:
    console.print(f"created {job['algorithm']} run [bold]{job['name']}[/bold] ({job['id']}), status {job['status']}")
    if follow:
        follow_job(job["id"])
        model = client().get(f"/models/{job['name']}")
        console.print(f"registered model [bold]{model['name']}[/bold] at {model['path']}")


@app.command()
@model_options(MergeRequest, exclude=("models", "parameters", "recipe", "base_model"))
def merge(
    body: dict[str, Any],
    recipe_file: Annotated[
        Path | None, typer.Option("--file", "-f", help="A mergekit YAML recipe (run as mergekit would run it).")
    ] = None,
    model: Annotated[
        list[str],
        typer.Option("--model", "-m", help="A model to merge, with its parameters: job:sft@checkpoint-20,weight=0.5"),
    ] = [],  # noqa: B006
    base_model: Annotated[str | None, typer.Option(help="The base model (methods that take one).")] = None,
    param: Annotated[list[str], typer.Option("--param", "-p", help="A method parameter: t=0.5.")] = [],  # noqa: B006
    follow: FollowOpt = False,
) -> None:
    """Merge models with a method, or run a mergekit recipe (-f recipe.yaml)."""
    if recipe_file is not None:
        body["recipe"] = recipe_file.read_text(encoding="utf-8")
    else:
        body["models"] = [_merge_model(entry) for entry in model]
        body["parameters"] = build_params(None, param)
        if base_model:
            body["base_model"] = local_path(base_model)
    _started(client().post("/surgery/merge", json=body), follow)


def _merge_model(entry: str) -> dict:
    reference, *assignments = entry.split(",")
    parameters = {}
    for assignment in assignments:
        path, value = parse_param(assignment)
        parameters[".".join(path)] = value
    return {"model": local_path(reference), "parameters": parameters}


@app.command()
@model_options(AverageRequest)
def average(body: dict[str, Any], follow: FollowOpt = False) -> None:
    """Average a job's complete checkpoints (SWA, or EMA with --mode ema --decay 0.9) in a step range."""
    _started(client().post("/surgery/average", json=body), follow)


@app.command("lora-fold")
@model_options(LoraFoldRequest)
def lora_fold(body: dict[str, Any], follow: FollowOpt = False) -> None:
    """Fold a LoRA adapter into its base model (the adapter's job's model unless --base-model says)."""
    body["adapter"] = local_path(body["adapter"])
    if body.get("base_model"):
        body["base_model"] = local_path(body["base_model"])
    _started(client().post("/surgery/lora-fold", json=body), follow)


@app.command()
@model_options(SelectRequest)
def select(body: dict[str, Any], as_json: JsonOpt = False) -> None:
    """The job's best complete checkpoint by a recorded metric, and the runner-up."""
    found = client().post("/surgery/select", json=body)
    if as_json:
        print_json(found)
        return
    table = Table("", "checkpoint", "step", "value", "recorded at", "reference")
    for label, pick in (("selected", found["checkpoint"]), ("runner-up", found["runner_up"])):
        if pick:
            value = f"{pick['value']:.6g}" if pick["value"] is not None else "-"
            at = str(pick["value_step"]) if pick["value_step"] is not None else "-"
            table.add_row(label, pick["name"], str(pick["step"]), value, at, pick["reference"])
    console.print(table)
    console.print(found["reason"])
