"""`tplat metrics ...`: import metrics files (also of runs the platform did not launch), inspect and export them."""

from pathlib import Path
from typing import Annotated, Literal

import typer
from rich.table import Table

from training_platform.cli.common import client, console, err_console, upload

app = typer.Typer(help="Import, inspect and export training metrics.", no_args_is_help=True)
JobArg = Annotated[str, typer.Argument(help="Job name or id.")]


@app.command()
def ingest(
    file: Annotated[
        Path,
        typer.Argument(help="A metrics file: the platform's JSON lines or verl's file logger.", exists=True),
    ],
    job: Annotated[str, typer.Option(help="Job name or id; an unknown name creates an external job.")],
) -> None:
    """Send a metrics file to the platform. Sending it again imports only what is new (or rewritten)."""
    report = upload(
        file,
        f"sending {file.name}",
        lambda chunks: client().post(
            f"/monitoring/{job}/metrics/import", params={"filename": file.name}, content=chunks, timeout=None
        ),
    )
    console.print(
        f"job [bold]{report['job_name']}[/bold] ({report['job_id']}): {report['records']} step records, "
        f"{report['values']} values from {report['bytes_read']} new bytes"
        + (f"; file was rewritten {report['rewrites']}x" if report["rewrites"] else "")
    )
    _print_malformed(report)


def _print_malformed(report: dict) -> None:
    for line in report["malformed"]:
        err_console.print(f"[yellow]line {line['line_number']}[/yellow]: {line['reason']}", soft_wrap=True)
    if report["malformed"]:
        err_console.print(f"{len(report['malformed'])} malformed lines skipped")


@app.command()
def keys(job: JobArg) -> None:
    """The metric keys a job has, with how many steps each covers."""
    table = Table("key", "points", "first step", "last step")
    for item in client().get(f"/monitoring/{job}/metrics/keys"):
        table.add_row(item["key"], str(item["points"]), str(item["first_step"]), str(item["last_step"]))
    console.print(table)


@app.command()
def sync(job: JobArg) -> None:
    """Ask the server to ingest now what the job's metrics file holds."""
    report = client().post(f"/monitoring/{job}/metrics/sync")
    console.print(f"{report['records']} step records, {report['values']} values, {report['bytes_read']} bytes")
    _print_malformed(report)


@app.command()
def export(
    job: JobArg,
    output: Annotated[Path, typer.Option("--output", "-o", help="File to write.")],
    file_format: Annotated[Literal["csv", "parquet"], typer.Option("--format")] = "csv",
) -> None:
    """All of a job's metrics, one row per step and one column per key."""
    content = client().get(f"/monitoring/{job}/metrics/export", params={"format": file_format}, raw=True)
    output.write_bytes(content)
    console.print(f"wrote {len(content)} bytes to {output}")
