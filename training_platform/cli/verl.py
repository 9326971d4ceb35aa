"""`tplat verl validate -- <verl command>`: check a hand-written verl command against verl's own configs, on the
server's verl environment (exit 0 valid, 1 not). The server refuses overrides Hydra or OmegaConf would execute or
resolve (`_target_`, `${...}`, `+`/`~` of keys it does not add itself), naming each (exit 1 too)."""

from typing import Annotated

import typer

from training_platform.cli.common import client

app = typer.Typer(help="verl tools.", no_args_is_help=True)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def validate(
    command: Annotated[list[str], typer.Argument(help="The whole verl command line, after --.")],
) -> None:
    """Compose the command's overrides against verl's configs and run verl's own checks; one line per problem."""
    result = client().post("/engines/verl/validate", json={"command": command}, timeout=300)
    for problem in result["problems"]:
        typer.echo(f"{problem['override']}: {problem['message']}", err=True)
    if not result["valid"]:
        raise typer.Exit(1)
    typer.echo("valid")
