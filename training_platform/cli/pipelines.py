"""`tplat pipelines ...`: DAGs of stages from a YAML file (`-f pipeline.yaml`), checked whole by the server (each
problem with its line), started, followed, resumed and cancelled; and `tplat worker`, a Celery worker that runs
their stages."""

import socket
import sys
from pathlib import Path
from typing import Annotated
from urllib.parse import quote

import typer
from rich.table import Table

from training_platform.cli import config
from training_platform.cli.common import JsonOpt, client, console, err_console, print_json
from training_platform.settings import get_settings

app = typer.Typer(
    help="Pipelines: stages with dependencies, run in order, resumed where they failed.", no_args_is_help=True
)
FileOpt = Annotated[Path, typer.Option("-f", "--file", help="The pipeline as YAML.", exists=True, dir_okay=False)]
PipelineArg = Annotated[str, typer.Argument(help="The pipeline's name or id.")]


def _text(file: Path) -> str:
    return file.read_text(encoding="utf-8")


def _path(pipeline: str, action: str = "") -> str:
    return f"/pipelines/{quote(pipeline, safe='')}" + (f"/{action}" if action else "")


def _send(method: str, path: str, body: dict | None = None) -> dict:
    """A request whose 422 lists the pipeline's problems one per line, with their YAML lines."""
    api = client()
    response = api.send(method, path, json=body)
    if response.status_code == 422:
        problems = response.json().get("errors", [])
        for problem in problems:
            where = f"line {problem['line']}: " if problem.get("line") else ""
            err_console.print(f"[red]{where}{problem.get('field', '')}: {problem['message']}[/red]")
        raise typer.Exit(1)
    if response.is_error:
        api.fail(response, path)
    return response.json() if response.status_code != 204 else {}


def _show(pipeline: dict) -> None:
    console.print(f"[bold]{pipeline['name']}[/bold] {pipeline['status']} ({pipeline['executor']})")
    if pipeline.get("error"):
        console.print(f"[red]{pipeline['error']}[/red]")
    table = Table("layer", "stage", "type", "status", "attempt", "work", "task", "note")
    for stage in pipeline["stages"]:
        work = stage.get("work") or {}
        note = stage.get("error") or ("edited since it finished" if stage.get("edited") else "")
        table.add_row(
            str(stage["layer"]),
            stage["name"],
            stage["type"],
            stage["status"],
            f"{stage['attempt']}/{stage['max_attempts']}",
            f"{work.get('kind', '')} {work.get('name', '')}".strip(),
            (stage.get("task_id") or "")[:12],
            note,
        )
    console.print(table)


@app.command("validate")
def validate(file: FileOpt) -> None:
    """Check a pipeline without creating it: every problem with its line, or the layers it would run in."""
    found = _send("POST", "/pipelines/validate", {"text": _text(file)})
    for number, layer in enumerate(found["layers"]):
        console.print(f"layer {number}: {', '.join(layer)}")


@app.command("create")
def create(
    file: FileOpt,
    start: Annotated[bool, typer.Option("--start", help="Start it right away.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Create a pipeline from its YAML (and start it with --start)."""
    created = _send("POST", "/pipelines", {"text": _text(file), "start": start})
    print_json(created) if as_json else _show(created)


@app.command("edit")
def edit(pipeline: PipelineArg, file: FileOpt, as_json: JsonOpt = False) -> None:
    """Replace a pipeline's definition (not while it runs); finished stages whose parameters changed are marked
    edited and run again only when `resume --rerun` names them."""
    edited = _send("PUT", _path(pipeline), {"text": _text(file)})
    print_json(edited) if as_json else _show(edited)


@app.command("start")
def start(pipeline: PipelineArg, as_json: JsonOpt = False) -> None:
    started = _send("POST", _path(pipeline, "start"))
    print_json(started) if as_json else _show(started)


@app.command("show")
def show(pipeline: PipelineArg, as_json: JsonOpt = False) -> None:
    """Each stage's status, attempt, work and task."""
    found = _send("GET", _path(pipeline))
    print_json(found) if as_json else _show(found)


@app.command("list")
def list_pipelines(as_json: JsonOpt = False) -> None:
    found = _send("GET", "/pipelines")
    if as_json:
        print_json(found)
        return
    table = Table("name", "status", "stages", "created")
    for pipeline in found:
        counts = ", ".join(f"{count} {status}" for status, count in sorted(pipeline["stage_counts"].items()))
        table.add_row(pipeline["name"], pipeline["status"], counts, pipeline["created_at"][:19])
    console.print(table)


@app.command("resume")
def resume(
    pipeline: PipelineArg,
    rerun: Annotated[
        list[str] | None, typer.Option(help="A finished stage to run again, with its dependents (repeatable).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Run again what failed or was cancelled (and the --rerun stages); completed stages keep their outputs."""
    resumed = _send("POST", _path(pipeline, "resume"), {"rerun": rerun or []})
    print_json(resumed) if as_json else _show(resumed)


@app.command("cancel")
def cancel(pipeline: PipelineArg, as_json: JsonOpt = False) -> None:
    """Stop the running stages' jobs and mark the rest cancelled."""
    cancelled = _send("POST", _path(pipeline, "cancel"))
    print_json(cancelled) if as_json else _show(cancelled)


@app.command("delete")
def delete(pipeline: PipelineArg) -> None:
    _send("DELETE", _path(pipeline))
    console.print(f"deleted {pipeline}")


def worker(
    concurrency: Annotated[int, typer.Option(min=1, max=64, help="Stage tasks this worker follows at once.")] = 4,
    name: Annotated[str | None, typer.Option(help="The worker's name (default tplat-worker@<host>).")] = None,
) -> None:
    """Run pipeline stages from the Celery broker at PLATFORM_CELERY_BROKER_URL, talking to the platform at
    PLATFORM_URL with an admin's token (PLATFORM_TOKEN, or `tplat auth login`'s); start as many as you like, on
    any machine that reaches both."""
    from training_platform.pipelines.worker import run_worker

    settings = get_settings()
    if not settings.celery_broker_url:
        err_console.print("[red]set PLATFORM_CELERY_BROKER_URL (e.g. redis://127.0.0.1:6379/0) to run a worker[/red]")
        raise typer.Exit(2)
    token = config.token_for(settings.url, settings.admin_token)
    sys.argv = sys.argv[:1]  # Celery reads the process's arguments as its own
    run_worker(
        settings.celery_broker_url, settings.url, token, concurrency, name or f"tplat-worker@{socket.gethostname()}"
    )
