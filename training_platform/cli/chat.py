"""`tplat chat`: talk to a model, a job's checkpoint or an OpenAI-compatible endpoint through the server's playground
(POST /playground/chat), the answer printed as it streams. With a PROMPT it answers once and exits; without, it
reads a line per turn until end of input or `/exit`, keeping the conversation. Only the answers go to stdout; the
prompt marker, the timings and the errors go to stderr, so an answer can be piped on."""

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer

from training_platform.cli.common import client, err_console
from training_platform.cli.jobs import parse_param

EXIT_COMMAND = "/exit"
# The first piece may wait for the model's chat worker to load (the server gives it up to 10 minutes) and for the
# whole prompt to be read.
READ_TIMEOUT_S = 960.0


class AnswerFailed(Exception):
    """The stream's error event: the answer broke off after it began."""


def _local(reference: str) -> str:
    """A path typed here is relative to this shell; references (job:, model:) pass as they are."""
    candidate = Path(reference).expanduser()
    return str(candidate.resolve()) if candidate.exists() else reference


def _target(model: str | None, endpoint: str | None, served_model: str | None, api_key_secret: str | None) -> dict:
    if model and endpoint:
        raise typer.BadParameter("a model or an endpoint, not both", param_hint="--model / --endpoint")
    if model:
        return {"kind": "model", "model": _local(model)}
    if endpoint:
        target = {"kind": "api", "base_url": endpoint, "model": served_model or ""}
        return target | ({"api_key_secret": api_key_secret} if api_key_secret else {})
    raise typer.BadParameter("name a model (--model) or an endpoint (--endpoint --served-model)")


def _generation(settings: list[str]) -> dict[str, Any]:
    generation: dict[str, Any] = {}
    for setting in settings:
        path, value = parse_param(setting)
        key = ".".join(path)
        generation[key] = [*generation.get(key, []), value] if key == "stop" else value
    return generation


def _answer(body: dict) -> str:
    """Stream one answer to stdout as it arrives; the whole answer."""
    pieces = []
    timeout = httpx.Timeout(60.0, read=READ_TIMEOUT_S)
    with client().stream("POST", "/playground/chat", json=body, timeout=timeout) as response:
        for line in response.iter_lines():
            if not line.startswith("data:"):
                continue
            event = json.loads(line.removeprefix("data:"))
            if "text" in event:
                pieces.append(event["text"])
                sys.stdout.write(event["text"])
                sys.stdout.flush()
            elif "error" in event:
                raise AnswerFailed(event["error"])
            elif event.get("done"):
                sys.stdout.write("\n")
                sys.stdout.flush()
                err_console.print(f"[dim]{event['characters']} characters in {event['seconds']:.1f} s[/dim]")
                return "".join(pieces)
    raise AnswerFailed("the server ended the answer before it was done")


def chat(
    prompt: Annotated[str | None, typer.Argument(help="Answer this and exit; without it, chat line by line.")] = None,
    model: Annotated[
        str | None, typer.Option("--model", "-m", help="job:<job>[@<checkpoint>], model:<name>, a dir.")
    ] = None,
    endpoint: Annotated[str | None, typer.Option(help="An OpenAI-compatible base URL (…/v1).")] = None,
    served_model: Annotated[str | None, typer.Option(help="The endpoint's model name.")] = None,
    api_key_secret: Annotated[str | None, typer.Option(help="The secret holding the endpoint's API key.")] = None,
    system: Annotated[str | None, typer.Option(help="A system message that opens the conversation.")] = None,
    gen: Annotated[
        list[str],
        typer.Option("--gen", help="A generation setting: max_new_tokens=64, temperature=0.7, seed=1, stop=###."),
    ] = [],  # noqa: B006
) -> None:
    """Chat with a model (--model) or an endpoint (--endpoint --served-model), the answer streamed as it comes."""
    target = _target(model, endpoint, served_model, api_key_secret)
    generation = _generation(gen)
    messages = [{"role": "system", "content": system}] if system else []
    if prompt is not None:
        try:
            _answer(
                {
                    "target": target,
                    "messages": [*messages, {"role": "user", "content": prompt}],
                    "generation": generation,
                }
            )
        except AnswerFailed as error:
            err_console.print(f"[red]the answer failed[/red]: {error}")
            raise typer.Exit(1) from None
        return
    err_console.print(f"[dim]chatting; end with {EXIT_COMMAND} or end of input (Ctrl-D)[/dim]")
    while True:
        if sys.stdin.isatty():
            err_console.print("[bold]>[/bold] ", end="")
        line = sys.stdin.readline()
        if not line or line.strip() == EXIT_COMMAND:
            return
        if not line.strip():
            continue
        turn = [*messages, {"role": "user", "content": line.rstrip("\n")}]
        try:
            answer = _answer({"target": target, "messages": turn, "generation": generation})
        except AnswerFailed as error:
            err_console.print(f"[red]the answer failed[/red]: {error} (the turn is left out of the conversation)")
            continue
        messages = [*turn, {"role": "assistant", "content": answer}]
