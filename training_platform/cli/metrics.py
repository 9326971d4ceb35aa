"""`tplat metrics ...`: import metrics files (also of runs the platform did not launch) and inspect them."""

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TransferSpeedColumn
from rich.table import Table

from training_platform.cli.client import ApiClient
from training_platform.errors import PlatformError
from training_platform.settings import get_settings

app = typer.Typer(help="Import and inspect training metrics.", no_args_is_help=True)
console = Console()
err_console = Console(stderr=True)


@app.command()
def ingest(
    file: Annotated[Path, typer.Argument(help="A metrics file: the platform's JSON lines or verl's file logger.")],
    job: Annotated[str, typer.Option(help="Job name or id; an unknown name creates an external job.")],
) -> None:
    """Read a metrics file into the database. Running it again imports only what is new (or rewritten)."""
    from training_platform.platform import Platform

    platform = Platform.open(get_settings())
    try:
        size = file.stat().st_size if file.is_file() else 0
        columns = [TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TransferSpeedColumn()]
        with Progress(*columns, console=console, transient=True) as progress:
            task = progress.add_task(f"ingesting {file.name}", total=size)
            found, report = platform.metrics.import_file(
                file, job, progress=lambda offset: progress.update(task, completed=offset)
            )
    except PlatformError as error:
        err_console.print(f"[red]error[/red]: {error}")
        raise typer.Exit(1) from None
    finally:
        platform.close()
    console.print(
        f"job [bold]{found.name}[/bold] ({found.id}): {report.records} step records, {report.values} values "
        f"from {report.bytes_read} new bytes" + (f"; file was rewritten {report.rewrites}x" if report.rewrites else ""),
        soft_wrap=True,
    )
    for line in report.malformed:
        err_console.print(f"[yellow]line {line.line_number}[/yellow]: {line.reason}", soft_wrap=True)
    if report.malformed:
        err_console.print(f"{len(report.malformed)} malformed lines skipped")


@app.command()
def keys(job: Annotated[str, typer.Argument(help="Job name or id.")]) -> None:
    """The metric keys a job has, with how many steps each covers."""
    table = Table("key", "points", "first step", "last step")
    for item in ApiClient(get_settings().url).get(f"/monitoring/{job}/metrics/keys"):
        table.add_row(item["key"], str(item["points"]), str(item["first_step"]), str(item["last_step"]))
    console.print(table)


@app.command()
def sync(job: Annotated[str, typer.Argument(help="Job name or id.")]) -> None:
    """Ask the server to ingest now what the job's metrics file holds."""
    report = ApiClient(get_settings().url).post(f"/monitoring/{job}/metrics/sync")
    console.print(f"{report['records']} step records, {report['values']} values, {report['bytes_read']} bytes")
    for line in report["malformed"]:
        err_console.print(f"[yellow]line {line['line_number']}[/yellow]: {line['reason']}")
