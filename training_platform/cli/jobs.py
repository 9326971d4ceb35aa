"""`tplat jobs ...`: create, list, show, control and follow training jobs through the API."""

import json
import shlex
import time
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

import typer
import yaml
from pydantic import Field, create_model
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from training_platform.cli.common import client as _client
from training_platform.cli.common import console, follow_task, local_path, model_options, print_tasks
from training_platform.jobs.schemas import JobCreate

app = typer.Typer(help="Create, control and follow training jobs.", no_args_is_help=True)
JobArg = Annotated[str, typer.Argument(help="Job name or id.")]
# A job in these statuses is worth following: it runs, or will once its GPUs are free.
ACTIVE = ("queued", "running")
# `jobs create` takes the job from a job file or from options: no option is required by itself.
JobOptions = create_model(
    "JobOptions",
    **{
        name: (info.annotation | None, Field(default=None, description=info.description))
        for name, info in JobCreate.model_fields.items()
    },
)
OPTION_FLAGS = {"model_path": "--model", "dataset_paths": "--dataset", "eval_dataset_path": "--eval-dataset"}
FollowOpt = Annotated[bool, typer.Option("--follow", "-f", help="Show live progress until the job stops running.")]


def parse_param(assignment: str) -> tuple[list[str], Any]:
    """`lora.rank=8` → (["lora", "rank"], 8); values are JSON when they parse as JSON, text otherwise."""
    key, sep, raw = assignment.partition("=")
    if not sep or not key:
        raise typer.BadParameter(f"expected KEY=VALUE, got {assignment!r}", param_hint="--param")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.split("."), value


def build_params(params_file: Path | None, assignments: list[str]) -> dict[str, Any]:
    params: dict[str, Any] = json.loads(params_file.read_text(encoding="utf-8")) if params_file else {}
    for assignment in assignments:
        path, value = parse_param(assignment)
        target = params
        for part in path[:-1]:
            target = target.setdefault(part, {})
        target[path[-1]] = value
    return params


@app.command()
@model_options(
    JobOptions,
    # params and health are given as --param/--health KEY=VALUE and --params-file/--health-file, engine settings as
    # --setting KEY=VALUE; trackers (a list of exports, docs/trackers.md) in a job file (--file) or from the
    # platform's default.
    exclude=("params", "health", "trackers", "engine_settings"),
    flags=OPTION_FLAGS,
)
def create(
    body: dict[str, Any],
    file: Annotated[
        Path | None,
        typer.Option(
            "--file", "-f", help="A job file (YAML or JSON; docs/jobs.md): the whole job.", exists=True, dir_okay=False
        ),
    ] = None,
    param: Annotated[
        list[str], typer.Option("--param", "-p", help="KEY=VALUE, e.g. learning_rate=1e-5 lora.rank=8.")
    ] = [],  # noqa: B006
    params_file: Annotated[Path | None, typer.Option(help="JSON file of parameters (--param overrides it).")] = None,
    health: Annotated[
        list[str],
        typer.Option(
            "--health",
            help="KEY=VALUE of the health settings, e.g. actions.pause_on_non_finite=true "
            "detectors.grad_explosion.ceiling=50.",
        ),
    ] = [],  # noqa: B006
    health_file: Annotated[
        Path | None, typer.Option(help="JSON file of health settings (--health overrides it).")
    ] = None,
    setting: Annotated[
        list[str],
        typer.Option(
            "--setting",
            help="KEY=VALUE of the engine's own settings (docs/jobs.md), e.g. use_liger_kernel=true (TRL) or "
            "actor_rollout_ref.rollout.gpu_memory_utilization=0.6 (verl).",
        ),
    ] = [],  # noqa: B006
    follow: Annotated[bool, typer.Option("--follow", help="Show live progress until the job stops running.")] = False,
) -> None:
    """Create a job from a job file (-f), or from options (POST /api/v1/jobs's fields)."""
    if file is not None:
        job = _create_from_file(file, body, bool(param or params_file or health or health_file or setting))
    else:
        job = _create_from_options(body, param, params_file, health, health_file, setting)
    console.print(f"created job [bold]{job['name']}[/bold] ({job['id']}), status {job['status']}")
    for event in _client().get(f"/jobs/{job['id']}/events"):
        if event["kind"] == "warning":  # what the job was created with despite (jobs/service.py)
            console.print(f"{WARNING}: {escape(event['message'])}")
    if follow and body.get("start"):
        follow_job(job["id"])


def _create_from_file(file: Path, body: dict[str, Any], with_params: bool) -> dict:
    """The file is the whole job: only a new name and --start go with it (other options would leave two answers
    to one field)."""
    options = sorted(name for name in body if name not in ("name", "start"))
    if options or with_params:
        given = ", ".join(OPTION_FLAGS.get(name, "--" + name.replace("_", "-")) for name in options) or "--param"
        raise typer.BadParameter(
            f"the job file holds the whole job: give {given} in it (only --name and --start go with --file)",
            param_hint="--file",
        )
    request = {"text": file.read_text(encoding="utf-8"), "start": bool(body.get("start")), "name": body.get("name")}
    return _client().post("/jobs/spec", json=request)


def _create_from_options(
    body: dict[str, Any],
    param: list[str],
    params_file: Path | None,
    health: list[str],
    health_file: Path | None,
    setting: list[str],
) -> dict:
    missing = [name for name, info in JobCreate.model_fields.items() if info.is_required() and name not in body]
    if missing:
        flags = ", ".join(OPTION_FLAGS.get(name, "--" + name.replace("_", "-")) for name in missing)
        raise typer.BadParameter(f"{flags} needed (or a job file: --file)")
    body["model_path"] = local_path(body["model_path"])
    body["dataset_paths"] = [local_path(path) for path in body["dataset_paths"]]
    if body.get("eval_dataset_path"):
        body["eval_dataset_path"] = local_path(body["eval_dataset_path"])
    body["params"] = build_params(params_file, param)
    body["health"] = build_params(health_file, health)
    # An engine setting's key is the engine's (verl's hold dots): one flat mapping, never nested.
    body["engine_settings"] = {".".join(key): value for key, value in map(parse_param, setting)}
    return _client().post("/jobs", json=body)


@app.command()
def preview(
    file: Annotated[
        Path, typer.Option("--file", "-f", help="A job file (YAML or JSON; docs/jobs.md).", exists=True, dir_okay=False)
    ],
    name: Annotated[str | None, typer.Option(help="Check it under this name instead of the file's.")] = None,
) -> None:
    """Print what the job file's job would run, checked as creating it would be: its engine, the engine's own
    configuration (engine settings included) and the command. Nothing is created or started."""
    request = {"text": file.read_text(encoding="utf-8"), "name": name}
    shown = _client().post("/jobs/spec/preview", json=request)
    print(
        yaml.safe_dump({**shown, "command": shlex.join(shown["command"])}, sort_keys=False, allow_unicode=True), end=""
    )


@app.command("export-spec")
def export_spec(job: JobArg) -> None:
    """Print the job file that creates this job again (tplat jobs create -f FILE --name NEW)."""
    print(_client().get(f"/jobs/{quote(job, safe='')}/spec")["text"], end="")


@app.command("list")
def list_jobs(
    status: Annotated[list[str], typer.Option(help="Only jobs with this status; repeatable.")] = [],  # noqa: B006
) -> None:
    jobs = _client().get("/jobs", params={"status": status})
    # The GPUs column only where some job holds GPUs: a terminal's 80 columns are already shared by seven.
    with_gpus = any(job["gpus"] for job in jobs)
    # The health column only where some job has findings, for the same reason (unknown: no step logged yet).
    with_health = any(job["health"] not in ("healthy", "unknown") for job in jobs)
    table = Table(
        "name",
        "id",
        "algorithm",
        "status",
        *(["health"] if with_health else []),
        *(["gpus"] if with_gpus else []),
        "step",
        "loss",
        "created",
    )
    for job in jobs:
        progress = job.get("progress") or {}
        step = f"{progress.get('current_step', 0)}/{progress.get('total_steps') or '?'}" if progress else "-"
        loss = f"{progress['loss']:.4g}" if progress.get("loss") is not None else "-"
        gpus = [",".join(map(str, job["gpus"])) or "-"] if with_gpus else []
        table.add_row(
            job["name"],
            job["id"][:12],
            job["algorithm"],
            _status(job),
            *([HEALTH_STYLE[job["health"]]] if with_health else []),
            *gpus,
            step,
            loss,
            job["created_at"][:19],
        )
    console.print(table)


WARNING, CRITICAL = "[yellow]warning[/yellow]", "[bold red]critical[/bold red]"
HEALTH_STYLE = {"healthy": "healthy", "unknown": "[dim]unknown[/dim]", "warning": WARNING, "critical": CRITICAL}
SEVERITY_STYLE = {"info": "info", "warning": WARNING, "critical": CRITICAL}


@app.command()
def health(
    job: JobArg,
    diagnose: Annotated[
        bool, typer.Option(help="Run every detector over the whole job again first (its stored metrics and log).")
    ] = False,
    step: Annotated[int | None, typer.Option(help="Only what the detectors say at this step.", min=0)] = None,
    language: Annotated[str, typer.Option(help="en or zh-CN.")] = "en",
) -> None:
    """The job's health: its findings, worst first, with what to do about each."""
    if step is not None:
        diagnosis = _client().get(f"/jobs/{job}/health/steps/{step}")
        if not diagnosis["logged"]:
            console.print(f"step {step} was not logged")
        for signal in diagnosis["signals"]:
            _print_finding(signal, f"step {signal['step']}", language)
        if diagnosis["logged"] and not diagnosis["signals"]:
            console.print(f"step {step}: nothing found")
        return
    data = _client().post(f"/jobs/{job}/diagnose") if diagnose else _client().get(f"/jobs/{job}/health")
    console.print(f"[bold]{data['job_name']}[/bold]: {HEALTH_STYLE[data['health']]}, {len(data['findings'])} findings")
    for finding in data["findings"]:
        steps = f"step {finding['first_step']}" + (
            f"-{finding['last_step']}" if finding["last_step"] != finding["first_step"] else ""
        )
        _print_finding(finding, steps, language)
        if finding["actions"]:
            console.print(f"    actions taken: {', '.join(finding['actions'])}")


def _print_finding(finding: dict, steps: str, language: str) -> None:
    text = finding["text"].get(language) or finding["text"]["en"]
    severity = SEVERITY_STYLE[finding["severity"]]
    console.print(f"{severity} {finding['kind']} ({steps}): {text['message']}", soft_wrap=True)
    for suggestion in text["suggestions"]:
        console.print(f"    - {suggestion}", soft_wrap=True)


def _status(job: dict) -> str:
    """The status, with the place in the GPU queue (#1 starts next) or the action asked of the process."""
    if job["queue_position"] is not None:
        return f"{job['status']} #{job['queue_position']}"
    return job["status"] + (f" ({job['requested_action']} requested)" if job["requested_action"] else "")


@app.command()
def show(
    job: JobArg,
    follow: FollowOpt = False,
    field: Annotated[str | None, typer.Option(help="Print only this field's value (for scripts).")] = None,
) -> None:
    data = _client().get(f"/jobs/{job}")
    if field is not None:
        if field not in data:
            raise typer.BadParameter(f"no field {field!r}; fields: {', '.join(data)}", param_hint="--field")
        value = data[field]
        typer.echo(value if isinstance(value, str) else json.dumps(value))
        return
    if follow:
        follow_job(data["id"])
        return
    fields = [
        "id",
        "name",
        "algorithm",
        "engine",
        "status",
        "queue_position",
        "requested_action",
        "gpus",
        "model_path",
        "dataset_paths",
        "output_dir",
        "attempt",
        "pid",
        "exit_code",
        "created_at",
        "started_at",
        "finished_at",
    ]
    for name in fields:
        console.print(f"[bold]{name}[/bold]: {data[name]}", soft_wrap=True)
    console.print(f"[bold]params[/bold]: {json.dumps(data['params'])}", soft_wrap=True)
    if data["progress"]:
        console.print(f"[bold]progress[/bold]: {json.dumps(data['progress'])}", soft_wrap=True)
    console.print(f"[bold]allowed actions[/bold]: {', '.join(data['allowed_actions'])}")
    if data["error"]:
        console.print(f"[bold red]error[/bold red]: {data['error']}", soft_wrap=True)


def _action(job: str, action: str, follow: bool = False, params: dict | None = None) -> None:
    data = _client().post(f"/jobs/{job}/{action}", params=params)
    console.print(f"job [bold]{data['name']}[/bold]: {_status(data)}")
    if follow:
        follow_job(data["id"])


@app.command()
def start(job: JobArg, follow: FollowOpt = False) -> None:
    """Start a pending job (it waits in the queue while the GPUs it asks for are busy)."""
    _action(job, "start", follow)


@app.command()
def pause(job: JobArg, follow: FollowOpt = False) -> None:
    """Checkpoint and stop the process, keeping the job resumable (frees the GPU)."""
    _action(job, "pause", follow)


@app.command()
def resume(
    job: JobArg,
    follow: FollowOpt = False,
    learning_rate: Annotated[
        float | None, typer.Option(help="Go on with this learning rate (TRL jobs; after a NaN pause, say).")
    ] = None,
) -> None:
    """Continue a paused (or failed) job from its latest complete checkpoint."""
    _action(job, "resume", follow, params={"learning_rate": learning_rate} if learning_rate is not None else None)


@app.command()
def stop(job: JobArg) -> None:
    """Cancel a job; a running process gets SIGTERM, then SIGKILL after the grace period."""
    _action(job, "stop")


@app.command()
def delete(job: JobArg, files: Annotated[bool, typer.Option(help="Also delete its output directory.")] = False) -> None:
    _client().delete(f"/jobs/{job}", params={"delete_files": files})
    console.print(f"deleted job {job}")


@app.command()
def events(job: JobArg) -> None:
    table = Table("time", "kind", "from", "to", "message")
    # Imported here: the generated operations bring every generated model (about a second), which the CLI's other
    # commands do not need.
    from training_platform_client.api.jobs import job_events

    for event in _client().call(job_events.sync_detailed, job):
        table.add_row(
            event.created_at.isoformat()[:19],
            event.kind,
            event.from_status.value if event.from_status else "",
            event.to_status.value if event.to_status else "",
            event.message,
        )
    console.print(table)


@app.command()
def checkpoints(job: JobArg) -> None:
    table = Table("name", "step", "kind", "complete", "size (MB)", "path")
    from training_platform_client.api.jobs import job_checkpoints  # imported here: see `events`

    for item in _client().call(job_checkpoints.sync_detailed, job):
        table.add_row(
            item.name,
            str(item.step or ""),
            item.kind,
            "yes" if item.complete else "NO",
            f"{item.size_bytes / 1e6:.1f}",
            item.path,
        )
    console.print(table)


@app.command()
def export(
    job: JobArg,
    checkpoint: Annotated[str, typer.Argument(help="Checkpoint name (see `tplat jobs checkpoints`).")],
) -> None:
    """Write a checkpoint as a Hugging Face model directory on the server, with a progress bar."""
    task = _client().post(f"/jobs/{job}/checkpoints/{checkpoint}/export")
    task = follow_task(f"/jobs/{job}/tasks/{task['id']}", task, f"export of {checkpoint}")
    console.print(f"exported {checkpoint} to {task['result']['path']}")


@app.command()
def tasks(job: JobArg) -> None:
    """The job's background tasks (checkpoint exports), newest first."""
    print_tasks(_client().get(f"/jobs/{job}/tasks"))


@app.command()
def logs(
    job: JobArg,
    stream: Annotated[str, typer.Option(help="stdout or stderr.")] = "stdout",
    lines: Annotated[int, typer.Option(help="How many of the last lines.")] = 50,
    follow: Annotated[bool, typer.Option("--follow", "-f", help="Keep printing new lines.")] = False,
) -> None:
    client = _client()
    shown: list[str] = []
    while True:
        tail = client.get(f"/jobs/{job}/logs", params={"stream": stream, "lines": lines})["lines"]
        for line in _new_lines(shown, tail):
            console.print(line, markup=False, highlight=False)
        shown = tail
        if not follow or client.get(f"/jobs/{job}")["status"] not in ACTIVE:
            return
        time.sleep(1.0)


def _new_lines(previous: list[str], current: list[str]) -> list[str]:
    """The lines of `current` after the longest suffix of `previous` it starts with."""
    for start in range(len(previous)):
        overlap = previous[start:]
        if current[: len(overlap)] == overlap:
            return current[len(overlap) :]
    return current


def follow_job(job_id: str, interval: float = 1.0) -> None:
    """Live step/total, loss and ETA until the job is neither queued nor running."""
    client = _client()
    columns = [
        TextColumn("[bold]{task.fields[name]}[/bold] {task.fields[status]}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("loss {task.fields[loss]}"),
        TextColumn("ETA {task.fields[eta]}"),
        TimeElapsedColumn(),
    ]
    with Progress(*columns, console=console) as progress:
        task = progress.add_task("train", total=None, name="", status="", loss="-", eta="-")
        while True:
            job = client.get(f"/jobs/{job_id}")
            info = job.get("progress") or {}
            progress.update(
                task,
                completed=info.get("current_step", 0),
                total=info.get("total_steps"),
                name=job["name"],
                status=_status(job),
                loss=f"{info['loss']:.4f}" if info.get("loss") is not None else "-",
                eta=_duration(info.get("eta_seconds")),
            )
            if job["status"] not in ACTIVE:
                break
            time.sleep(interval)
    console.print(f"job [bold]{job['name']}[/bold] is {job['status']}")
    if job["error"]:
        console.print(f"[red]{job['error']}[/red]")
        raise typer.Exit(1)


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
