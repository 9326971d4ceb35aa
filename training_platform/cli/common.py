"""What every `tplat` command group shares: the API client, the consoles, JSON output, following a background
task, and command options made from the API's request models, so a command cannot drift from what the API
accepts (the spirit of TRL's TrlParser, which turns config dataclasses into flags)."""

import functools
import inspect
import json
import sys
import time
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import BaseModel
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeElapsedColumn, TransferSpeedColumn
from rich.table import Table

from training_platform.cli import config
from training_platform.cli.client import ApiClient
from training_platform.settings import get_settings

PIPED_WIDTH = 200
# Messages stay on one line for scripts. Tables fit a terminal's width; piped into another program they are laid
# out 200 wide, so a name or a status is never cut to "comple…" for grep. A COLUMNS inherited from the shell
# that started the pipe (CI exports COLUMNS=80) describes that shell's terminal, not this output, so it is ignored.
console = Console(soft_wrap=True, width=None if sys.stdout.isatty() else PIPED_WIDTH)
err_console = Console(stderr=True)
UPLOAD_CHUNK_BYTES = 1 << 20
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the API's JSON instead of a table.")]


def local_path(reference: str) -> str:
    """A path typed here is relative to this shell, not to the server's directory; references (job:, model:,
    dataset:) and what is not here pass as they are."""
    candidate = Path(reference).expanduser()
    return str(candidate.resolve()) if candidate.exists() else reference


def client() -> ApiClient:
    """The API at PLATFORM_URL, with the token PLATFORM_TOKEN names, else the one `tplat auth login` saved for
    that server, else PLATFORM_ADMIN_TOKEN."""
    settings = get_settings()
    return ApiClient(settings.url, token=config.token_for(settings.url, settings.admin_token))


def print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=1, ensure_ascii=False))


def follow_task(path: str, task: dict, what: str) -> dict:
    """Follow a background task (GET `path`) with a progress bar until it ends; exits 1 if it failed."""
    api = client()
    columns = [TextColumn(f"{what} {{task.description}}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%")]
    with Progress(*columns, TimeElapsedColumn(), console=err_console, transient=True) as progress:
        bar = progress.add_task(task["message"], total=1.0)
        while task["status"] in ("queued", "running"):
            time.sleep(0.3)
            task = api.get(path)
            progress.update(bar, completed=task["progress"], description=task["message"])
    if task["status"] == "failed":
        err_console.print(f"[red]{what} failed[/red]: {task['error']}")
        raise typer.Exit(1)
    return task


def upload(path: Path, what: str, send: Callable[[Iterator[bytes]], Any]) -> Any:
    """`send(chunks)` with the file's bytes streamed a MiB at a time, under a progress bar of the bytes sent."""
    columns = [TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TransferSpeedColumn()]
    with Progress(*columns, console=err_console, transient=True) as progress, open(path, "rb") as handle:
        task = progress.add_task(what, total=path.stat().st_size)

        def chunks() -> Iterator[bytes]:
            while chunk := handle.read(UPLOAD_CHUNK_BYTES):
                progress.update(task, advance=len(chunk))
                yield chunk

        return send(chunks())


def print_tasks(tasks: list[dict]) -> None:
    """Background tasks (a dataset's audits, a job's exports) as a table, newest first as the API lists them."""
    table = Table("id", "kind", "status", "progress", "message", "created")
    for task in tasks:
        message = task["error"] or task["message"]
        created = task["created_at"][:19]
        table.add_row(task["id"][:12], task["kind"], task["status"], f"{task['progress']:.0%}", message, created)
    console.print(table)


def model_options(
    model: type[BaseModel],
    exclude: tuple[str, ...] = (),
    flags: dict[str, str] | None = None,
    comma_lists: tuple[str, ...] = (),
) -> Callable:
    """Give a command one option per field of `model` (its type, default and description); the command gets them
    as `body`, a dict to send as the request's JSON. An option is named after its field (`--seq-len`) unless
    `flags` names it otherwise. List fields take repeated options; those in `comma_lists` also split each value at
    commas (`--lora-targets q_proj,v_proj`)."""

    def decorate(command: Callable) -> Callable:
        signature = inspect.signature(command)
        own = [
            parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY)  # Typer calls commands by keyword
            for name, parameter in signature.parameters.items()
            if name != "body"
        ]
        fields = {name: info for name, info in model.model_fields.items() if name not in exclude}
        options = [_option(name, info, (flags or {}).get(name)) for name, info in fields.items()]

        @functools.wraps(command)
        def run(**values: Any) -> Any:
            body = {name: _plain(values.pop(name), name in comma_lists) for name in fields}
            return command(body={k: v for k, v in body.items() if v is not None}, **values)

        # Required options first: Python's signature rules, which Typer reads, want defaults last.
        parameters = sorted([*own, *options], key=lambda p: p.default is not inspect.Parameter.empty)
        run.__signature__ = signature.replace(parameters=parameters)
        return run

    return decorate


def _option(name: str, info, flag: str | None) -> inspect.Parameter:
    annotation = info.annotation
    flag = flag or "--" + name.replace("_", "-")
    declarations = [f"{flag}/--no-{flag.removeprefix('--')}"] if _is_bool(annotation) else [flag]
    option = typer.Option(*declarations, help=info.description)
    default = inspect.Parameter.empty if info.is_required() else info.get_default(call_default_factory=True)
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=Annotated[annotation, option]
    )


def _is_bool(annotation) -> bool:
    return annotation is bool or set(typing.get_args(annotation)) == {bool, type(None)}


def _plain(value: Any, split_commas: bool) -> Any:
    """Enum members as their values; list values split at commas when asked."""
    if isinstance(value, list) and split_commas:
        return [part.strip() for item in value for part in item.split(",") if part.strip()]
    return getattr(value, "value", value)
