"""`tplat verl validate -- <verl command>`: check a hand-written verl command offline (exit 0 valid, 1 not)."""

from typing import Annotated

import typer

app = typer.Typer(help="verl tools.", no_args_is_help=True)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def validate(
    command: Annotated[list[str], typer.Argument(help="The whole verl command line, after --.")],
) -> None:
    """Compose the command's overrides against verl's configs and run verl's own checks; one line per problem."""
    from training_platform.engines.verl.validate import CommandError, validate

    try:
        problems = validate(command)
    except CommandError as error:
        typer.echo(f"command: {error}", err=True)
        raise typer.Exit(1) from None
    for problem in problems:
        typer.echo(str(problem), err=True)
    if problems:
        raise typer.Exit(1)
    typer.echo("valid")
