"""`tplat hosts ...`: remote machines that run jobs over SSH (run mode ssh:<name>). A password is typed at a hidden
prompt or read from an environment variable, a private key from its file; neither is ever printed back."""

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from training_platform.cli.common import JsonOpt, client, console, print_json

app = typer.Typer(help="Add, test, list and remove remote hosts (admins), sync datasets to them.", no_args_is_help=True)


def _secret(from_env: str | None, option: str) -> str:
    if from_env not in os.environ:
        raise typer.BadParameter(f"the environment has no variable {from_env}", param_hint=option)
    return os.environ[from_env]


@app.command("add")
def add_host(
    name: Annotated[str, typer.Argument(help="The host's name: jobs run there with run mode ssh:<name>.")],
    address: Annotated[str, typer.Argument(help="user@host or user@host:port.")],
    work_dir: Annotated[str, typer.Option(help="Where the platform's files go there (an absolute path).")],
    python: Annotated[str, typer.Option(help="The interpreter there that has the platform's package.")] = (
        "/usr/bin/python3"
    ),
    key_file: Annotated[Path | None, typer.Option(help="Log in with this private key file.", exists=True)] = None,
    passphrase_env: Annotated[str | None, typer.Option(help="The key's passphrase, from this variable.")] = None,
    password_env: Annotated[str | None, typer.Option(help="Log in with the password in this variable.")] = None,
    env: Annotated[list[str] | None, typer.Option(help="NAME=VALUE for every run there (repeatable).")] = None,
) -> None:
    """Add a host (then `tplat hosts test NAME`): with --key-file, else a password from --password-env or a hidden
    prompt."""
    user, _, rest = address.rpartition("@")
    host, _, port = rest.partition(":")
    if not user or not host or (port and not port.isdigit()):
        raise typer.BadParameter("give user@host or user@host:port", param_hint="ADDRESS")
    body: dict = {"name": name, "host": host, "port": int(port or 22), "username": user, "work_dir": work_dir}
    body |= {"python": python, "environment": dict(entry.split("=", 1) for entry in env or [] if "=" in entry)}
    if key_file is not None:
        body["private_key"] = key_file.read_text()
        if passphrase_env:
            body["passphrase"] = _secret(passphrase_env, "--passphrase-env")
    elif password_env:
        body["password"] = _secret(password_env, "--password-env")
    else:
        body["password"] = typer.prompt(f"password of {address}", hide_input=True)
    added = client().post("/hosts", json=body)
    console.print(
        f"added host [bold]{added['name']}[/bold] ({added['run_mode']}): test it with tplat hosts test {name}"
    )


@app.command("list")
def list_hosts(as_json: JsonOpt = False) -> None:
    found = client().get("/hosts")
    if as_json:
        print_json(found)
        return
    table = Table("name", "address", "work dir", "GPUs", "package", "tested", box=None)
    for host in found:
        report = host["report"] or {}
        address = f"{host['username']}@{host['host']}:{host['port']}"
        package = report.get("package") or ("missing" if report else "")
        table.add_row(host["name"], address, host["work_dir"], str(len(host["gpus"])), package, host["tested_at"] or "")
    console.print(table)


def _print_test(result: dict, as_json: bool) -> None:
    if as_json:
        print_json(result)
    else:
        report = result["report"] or {}
        if result["trusted_now"]:
            console.print(f"trusted host key {result['host_key_fingerprint']} (first use)")
        if report:
            gpus = ", ".join(f"{gpu['index']}: {gpu['name']}" for gpu in report["gpus"]) or "none"
            console.print(f"Python {report['python']} ({report['executable']}), package {report['package']}")
            console.print(f"GPUs: {gpus}; free disk {report['disk_free_bytes'] / 2**30:.1f} GiB")
        console.print(("[green]ok[/green]" if result["ok"] else f"[red]{result['error']}[/red]"), highlight=False)
    if not result["ok"]:
        raise typer.Exit(1)


@app.command("test")
def test_host(name: str, as_json: JsonOpt = False) -> None:
    """Connect (trusting the host key on first use) and report what the host has; exit 1 when it cannot run jobs."""
    _print_test(client().post(f"/hosts/{name}/test"), as_json)


@app.command("trust")
def trust_host_key(name: str, as_json: JsonOpt = False) -> None:
    """Trust the host key the machine presents now (after a reinstall changed it), then test it."""
    _print_test(client().post(f"/hosts/{name}/trust"), as_json)


@app.command("remove")
def remove_host(name: str) -> None:
    client().delete(f"/hosts/{name}")
    console.print(f"removed host [bold]{name}[/bold]")


@app.command("datasets")
def dataset_states(name: str, as_json: JsonOpt = False) -> None:
    """Each registered dataset's copy on the host."""
    found = client().get(f"/hosts/{name}/datasets")
    if as_json:
        print_json(found)
        return
    table = Table("dataset", "state", "sent", "hash", box=None)
    for entry in found:
        sent = (
            f"{entry['bytes_done'] / 2**20:.1f}/{entry['bytes_total'] / 2**20:.1f} MiB" if entry["bytes_total"] else ""
        )
        table.add_row(entry["dataset"], entry["state"], sent, (entry["content_hash"] or "")[:12])
    console.print(table)


@app.command("sync")
def sync_datasets(
    name: str,
    dataset: Annotated[str | None, typer.Argument(help="A dataset's name or id; none: every dataset.")] = None,
) -> None:
    """Start copying datasets to the host (in the background; `tplat hosts datasets NAME` shows how far)."""
    started = client().post(f"/hosts/{name}/datasets/sync", json={"dataset": dataset})
    console.print(f"syncing {len(started)} dataset(s) to [bold]{name}[/bold]")
