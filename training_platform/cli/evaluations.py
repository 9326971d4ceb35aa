"""`tplat eval ...`: evaluate a model, a job's checkpoint or an OpenAI-compatible endpoint on an eval dataset (a run
the server supervises, followed with --follow), sweep a job's checkpoints, read a run's results and samples, and
compare runs sample by sample. Models are named as anywhere else: a path, `job:<job>`, `job:<job>@<checkpoint>` or
`model:<name>`; an endpoint's API key is named by its secret (`tplat secrets set`)."""

import json
from pathlib import Path
from typing import Annotated, Any

import typer
import yaml
from rich.table import Table

from training_platform.cli.common import JsonOpt, client, console, local_path, print_json
from training_platform.cli.jobs import follow_job, parse_param

app = typer.Typer(help="Evaluate models and checkpoints; compare runs sample by sample.", no_args_is_help=True)

FollowOpt = Annotated[bool, typer.Option("--follow", help="Show the run's progress until it ends.")]
DatasetOpt = Annotated[str | None, typer.Option("--dataset", "-d", help="A registered eval dataset.")]
MetricOpt = Annotated[
    list[str],
    typer.Option("--metric", help="A metric, with options: bleu, rouge, exact_match, pass_at_k,k=1,k=5 (repeatable)."),
]
GenerationOpt = Annotated[
    list[str],
    typer.Option("--gen", help="A generation setting: max_new_tokens=64, temperature=0.7, n=5, seed=1, stop=###."),
]
ModelOpt = Annotated[
    str | None, typer.Option("--model", "-m", help="job:<job>[@<checkpoint>], model:<name>, or a model directory.")
]
EndpointOpt = Annotated[str | None, typer.Option(help="An OpenAI-compatible base URL (…/v1).")]
ServedModelOpt = Annotated[str | None, typer.Option(help="The endpoint's model name.")]
ApiKeySecretOpt = Annotated[str | None, typer.Option(help="The secret holding the endpoint's API key.")]
FileOpt = Annotated[
    Path | None, typer.Option("--file", "-f", help="The whole request as YAML or JSON (the options below override).")
]


def _request(file: Path | None) -> dict[str, Any]:
    if file is None:
        return {}
    document = yaml.safe_load(file.read_text(encoding="utf-8"))
    if not isinstance(document, dict):
        raise typer.BadParameter(f"{file} holds no mapping", param_hint="--file")
    return document


def _metric(entry: str) -> dict[str, Any]:
    name, *options = entry.split(",")
    metric: dict[str, Any] = {"name": name.strip()}
    for option in options:
        path, value = parse_param(option)
        key = ".".join(path)
        if key == "k":
            metric.setdefault("k", []).append(value)
        else:
            metric[key] = value
    return metric


def target_body(model: str | None, endpoint: str | None, served_model: str | None, api_key_secret: str | None):
    """The target a run or a chat names: a model (a path here, or a reference) or an endpoint."""
    if model and endpoint:
        raise typer.BadParameter("a model or an endpoint, not both", param_hint="--model / --endpoint")
    if model:
        return {"kind": "model", "model": local_path(model)}
    if endpoint:
        target = {"kind": "api", "base_url": endpoint, "model": served_model or ""}
        return target | ({"api_key_secret": api_key_secret} if api_key_secret else {})
    raise typer.BadParameter("name a model (--model) or an endpoint (--endpoint --served-model)")


def generation_body(settings: list[str]) -> dict[str, Any]:
    generation: dict[str, Any] = {}
    for setting in settings:
        path, value = parse_param(setting)
        key = ".".join(path)
        generation[key] = [*generation.get(key, []), value] if key == "stop" else value
    return generation


def _settings(body: dict, dataset: str | None, metric: list[str], gen: list[str], limit: int | None) -> dict:
    if dataset:
        body["dataset"] = dataset
    if metric:
        body["metrics"] = [_metric(entry) for entry in metric]
    if gen:
        body["generation"] = {**body.get("generation", {}), **generation_body(gen)}
    if limit is not None:
        body["limit"] = limit
    return body


@app.command()
def run(
    file: FileOpt = None,
    dataset: DatasetOpt = None,
    model: ModelOpt = None,
    endpoint: EndpointOpt = None,
    served_model: ServedModelOpt = None,
    api_key_secret: ApiKeySecretOpt = None,
    metric: MetricOpt = [],  # noqa: B006
    gen: GenerationOpt = [],  # noqa: B006
    limit: Annotated[int | None, typer.Option(help="Only the first N samples.")] = None,
    name: Annotated[str | None, typer.Option(help="The run's name.")] = None,
    follow: FollowOpt = False,
) -> None:
    """Evaluate a model (--model) or an endpoint (--endpoint --served-model) on an eval dataset."""
    body = _settings(_request(file), dataset, metric, gen, limit)
    if model or endpoint or "target" not in body:
        body["target"] = target_body(model, endpoint, served_model, api_key_secret)
    if name:
        body["name"] = name
    _started([client().post("/evaluations", json=body)], follow)


@app.command()
def sweep(
    job: Annotated[str, typer.Argument(help="The training job whose checkpoints are evaluated.")],
    file: FileOpt = None,
    dataset: DatasetOpt = None,
    every: Annotated[int, typer.Option(help="Every N-th complete checkpoint (its last one always).")] = 1,
    metric: MetricOpt = [],  # noqa: B006
    gen: GenerationOpt = [],  # noqa: B006
    limit: Annotated[int | None, typer.Option(help="Only the first N samples.")] = None,
    follow: FollowOpt = False,
) -> None:
    """Evaluate a job's checkpoints and final model; `tplat eval curve JOB` shows the curve."""
    body = _settings(_request(file), dataset, metric, gen, limit) | {"job": job, "every": every}
    _started(client().post("/evaluations/sweep", json=body), follow)


def _started(jobs: list[dict], follow: bool) -> None:
    for job in jobs:
        console.print(f"created evaluation [bold]{job['name']}[/bold] ({job['id']}), status {job['status']}")
    if follow:
        for job in jobs:
            follow_job(job["id"])
            show(job["name"], as_json=False)


@app.command("list")
def list_runs(as_json: JsonOpt = False) -> None:
    """Evaluation runs, newest first."""
    runs = client().get("/evaluations")
    if as_json:
        print_json(runs)
        return
    table = Table("name", "status", "dataset", "target", "scored", box=None)
    for entry in runs:
        scored = f"{entry['scored']}/{entry['total'] or '?'}"
        table.add_row(entry["job"]["name"], entry["job"]["status"], entry["dataset"] or "", entry["target"], scored)
    console.print(table)


def _estimate(estimate: dict | None) -> str:
    if not estimate or estimate.get("value") is None:
        return "-"
    text = f"{estimate['value']:.4g}"
    if estimate.get("low") is not None:
        text += f" [{estimate['low']:.4g}, {estimate['high']:.4g}]"
    return text


@app.command()
def show(run: Annotated[str, typer.Argument(help="The run's name or id.")], as_json: JsonOpt = False) -> None:
    """A run's results: each metric overall and per category, with its confidence interval."""
    found = client().get(f"/evaluations/{run}")
    if as_json:
        print_json(found)
        return
    job, results = found["job"], found["results"]
    console.print(f"[bold]{job['name']}[/bold] {job['status']}: {found['target']} on {found['dataset']}")
    if results is None:
        console.print(f"{found['scored']} of {found['total'] or '?'} samples scored; results when every one is")
        return
    confidence = f"{results['confidence']:.0%} interval"
    table = Table("metric", f"overall ({results['samples']}) {confidence}", *results["categories"], box=None)
    for key, estimate in results["overall"].items():
        per_category = [_estimate(results["categories"][c].get(key)) for c in results["categories"]]
        table.add_row(key, _estimate(estimate), *per_category)
    console.print(table)


@app.command()
def samples(
    run: Annotated[str, typer.Argument(help="The run's name or id.")],
    category: Annotated[str | None, typer.Option(help="Only this category.")] = None,
    search: Annotated[str | None, typer.Option(help="Text in the prompt, a reference or an answer.")] = None,
    offset: int = 0,
    limit: int = 20,
    as_json: JsonOpt = False,
) -> None:
    """A run's scored samples: prompt, reference, answers and each metric's value."""
    params: dict[str, Any] = {"offset": offset, "limit": limit}
    params |= {key: value for key, value in (("category", category), ("search", search)) if value}
    page = client().get(f"/evaluations/{run}/samples", params=params)
    if as_json:
        print_json(page)
        return
    table = Table("#", "category", "prompt", "reference", "answer", "values", box=None)
    for item in page["items"]:
        values = ", ".join(f"{k} {v:.3g}" for k, v in item["values"].items() if v is not None)
        prompt = item["prompt"] if isinstance(item["prompt"], str) else json.dumps(item["prompt"], ensure_ascii=False)
        table.add_row(
            str(item["index"]),
            item["category"] or "",
            prompt,
            " | ".join(item["references"]),
            item["outputs"][0],
            values,
        )
    console.print(table)
    console.print(f"{len(page['items'])} of {page['total']} samples from {page['offset']}")


@app.command()
def compare(
    runs: Annotated[list[str], typer.Argument(help="2 to 5 runs on the same dataset; the first is the baseline.")],
    baseline: Annotated[str | None, typer.Option(help="The run the others are compared to.")] = None,
    metric: Annotated[str | None, typer.Option(help="The metric a sample's direction is read from.")] = None,
    direction: Annotated[str | None, typer.Option(help="improved, regressed or unchanged samples only.")] = None,
    category: Annotated[str | None, typer.Option(help="Only this category.")] = None,
    search: Annotated[str | None, typer.Option(help="Text in the prompt, a reference or an answer.")] = None,
    limit: int = 10,
    as_json: JsonOpt = False,
) -> None:
    """Runs side by side: each metric with the difference's confidence interval, then the samples that moved."""
    body = {"runs": runs, "limit": limit}
    body |= {
        k: v
        for k, v in dict(
            baseline=baseline, metric=metric, direction=direction, category=category, search=search
        ).items()
        if v
    }
    found = client().post("/evaluations/compare", json=body)
    if as_json:
        print_json(found)
        return
    others = [name for name in found["runs"] if name != found["baseline"]]
    table = Table("metric", found["baseline"], *[f"{name} (difference)" for name in others], box=None)
    for row in found["metrics"]:
        cells = []
        for name in others:
            difference = row["differences"][name]
            cells.append(f"{_estimate(row['values'].get(name))} ({_estimate(difference)})")
        table.add_row(row["key"], _estimate(row["values"].get(found["baseline"])), *cells)
    console.print(table)
    for name, counts in found["counts"].items():
        console.print(
            f"{name} against {found['baseline']} on {found['metric']}: "
            + ", ".join(f"{v} {k}" for k, v in counts.items())
        )
    for sample in found["samples"]:
        moves = ", ".join(f"{name} {direction}" for name, direction in sample["directions"].items())
        console.print(f"#{sample['index']} ({moves})")
        for name, outputs in sample["outputs"].items():
            console.print(f"  {name}: {outputs[0]!r}")


@app.command()
def curve(job: Annotated[str, typer.Argument(help="A training job.")], as_json: JsonOpt = False) -> None:
    """The evaluations of a job's checkpoints, by step."""
    found = client().get(f"/evaluations/curve/{job}")
    if as_json:
        print_json(found)
        return
    table = Table("step", "run", "status", *found["metric_keys"], box=None)
    for point in found["points"]:
        step = "final" if point["step"] is None else str(point["step"])
        table.add_row(
            step, point["run"], point["status"], *[_estimate(point["values"].get(k)) for k in found["metric_keys"]]
        )
    console.print(table)
