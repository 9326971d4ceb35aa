"""`tplat chat`: talk to a model, a job's checkpoint or an OpenAI-compatible endpoint through the server's playground
(POST /playground/chat), the answer printed as it streams. With a PROMPT it answers once and exits; without, it
reads a line per turn until end of input or `/exit`, keeping the conversation. Only the answers go to stdout; the
prompt marker, the timings and the errors go to stderr, so an answer can be piped on."""

import json
import sys
from typing import Annotated

import httpx
import typer

from training_platform.cli.common import client, err_console
from training_platform.cli.evaluations import (
    ApiKeySecretOpt,
    EndpointOpt,
    GenerationOpt,
    ModelOpt,
    ServedModelOpt,
    generation_body,
    target_body,
)

EXIT_COMMAND = "/exit"
# The first piece may wait for the model's chat worker to load (the server gives it up to 10 minutes) and for the
# whole prompt to be read.
READ_TIMEOUT_S = 960.0


class AnswerFailed(Exception):
    """The stream's error event: the answer broke off after it began."""


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
    model: ModelOpt = None,
    endpoint: EndpointOpt = None,
    served_model: ServedModelOpt = None,
    api_key_secret: ApiKeySecretOpt = None,
    system: Annotated[str | None, typer.Option(help="A system message that opens the conversation.")] = None,
    gen: GenerationOpt = [],  # noqa: B006
) -> None:
    """Chat with a model (--model) or an endpoint (--endpoint --served-model), the answer streamed as it comes."""
    target = target_body(model, endpoint, served_model, api_key_secret)
    generation = generation_body(gen)
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
