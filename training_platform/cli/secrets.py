"""`tplat secrets ...`: values the platform keeps encrypted (an endpoint's API key), named where a run needs them. A
value is typed at a hidden prompt, piped in, or read from an environment variable; it is never printed back."""

import os
import sys
from typing import Annotated

import typer
from rich.table import Table

from training_platform.cli.common import JsonOpt, client, console, print_json

app = typer.Typer(help="Store, list and delete secrets (API keys), kept encrypted by the server.", no_args_is_help=True)


@app.command("set")
def set_secret(
    name: Annotated[str, typer.Argument(help="The secret's name, as runs name it (api_key_secret).")],
    from_env: Annotated[str | None, typer.Option(help="Read the value from this environment variable.")] = None,
) -> None:
    """Store a secret (or replace its value): from --from-env, from stdin when piped, else a hidden prompt."""
    if from_env is not None:
        if from_env not in os.environ:
            raise typer.BadParameter(f"the environment has no variable {from_env}", param_hint="--from-env")
        value = os.environ[from_env]
    elif not sys.stdin.isatty():
        value = sys.stdin.read().rstrip("\n")
    else:
        value = typer.prompt(f"value of {name}", hide_input=True)
    stored = client().post("/secrets", json={"name": name, "value": value})
    console.print(f"stored secret [bold]{stored['name']}[/bold]")


@app.command("list")
def list_secrets(as_json: JsonOpt = False) -> None:
    """The secrets' names and dates (never their values)."""
    found = client().get("/secrets")
    if as_json:
        print_json(found)
        return
    table = Table("name", "created", "updated", box=None)
    for secret in found:
        table.add_row(secret["name"], secret["created_at"], secret["updated_at"])
    console.print(table)


@app.command("delete")
def delete_secret(name: Annotated[str, typer.Argument(help="The secret's name.")]) -> None:
    client().delete(f"/secrets/{name}")
    console.print(f"deleted secret [bold]{name}[/bold]")
