"""The playground's chat worker: one process per local model directory, so that a model is never loaded into the
server (`python -m training_platform.evaluation.chat --model DIR`; the server's side is evals/playground.py).

It loads the model once, says `{"ready": true}` (or `{"error": ...}` and exits 1), then answers one request at a time:
a JSON line `{"id": N, "messages": [...], "generation": {...}}` on stdin is answered by JSON lines `{"text": ...}`,
one per piece as it is generated, then `{"done": true}`, or `{"error": ...}` when the request or its generation
fails. A line `{"cancel": N}` that arrives while request N is answered ends its generation at the next token (the
server's reader has gone); the answer then ends with `{"done": true}` as usual. End of stdin ends the process.

Only the protocol goes to stdout: anything else printed (by transformers, by torch's C++ code) is sent to stderr,
so the price of the one process per model is one model's memory and a load per model, not a fragile protocol.
"""

import argparse
import json
import os
import queue
import sys
import threading
from pathlib import Path
from typing import IO

# Weights and tokenizers come from local paths only; never reach for a model hub at run time.
os.environ.setdefault("HF_HUB_OFFLINE", "1")


class Requests:
    """The requests read from stdin in a thread of their own, so that a cancel is seen while an answer streams."""

    def __init__(self, stdin: IO[str]):
        self._pending: queue.Queue[dict | None] = queue.Queue()
        self._current: int | None = None
        self._cancelled: int | None = None
        self._lock = threading.Lock()
        threading.Thread(target=self._read, args=(stdin,), name="chat-stdin", daemon=True).start()

    def _read(self, stdin: IO[str]) -> None:
        for line in stdin:
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError:
                message = {"invalid": line[:200]}
            if isinstance(message, dict) and "cancel" in message:
                with self._lock:
                    self._cancelled = message["cancel"]
                continue
            self._pending.put(message if isinstance(message, dict) else {"invalid": line[:200]})
        self._pending.put(None)

    def next(self) -> dict | None:
        """The next request (None at the end of stdin); it is the current one until the next call."""
        request = self._pending.get()
        with self._lock:
            self._current = request.get("id") if request is not None else None
        return request

    def cancelled(self) -> bool:
        with self._lock:
            return self._current is not None and self._cancelled == self._current


def serve(generator, requests: Requests, out: IO[str]) -> None:
    from pydantic import ValidationError

    from training_platform.contract.evaluation import GenerationSettings
    from training_platform.evaluation.targets import TargetError

    def say(message: dict) -> None:
        out.write(json.dumps(message, ensure_ascii=False) + "\n")
        out.flush()

    say({"ready": True})
    while (request := requests.next()) is not None:
        try:
            settings = GenerationSettings.model_validate({**request.get("generation", {}), "n": 1})
            messages = request["messages"]
            if not isinstance(messages, list) or not messages:
                raise ValueError("messages: a non-empty list of chat messages")
        except (KeyError, ValueError, ValidationError) as error:
            say({"error": f"not a chat request: {error}"})
            continue
        pieces = generator.stream(messages, settings)
        try:
            for piece in pieces:
                if requests.cancelled():
                    break
                if piece:
                    say({"text": piece})
        except TargetError as error:
            say({"error": str(error)})
            continue
        except Exception as error:  # a request this model cannot take (its chat template refuses it): say so, go on
            say({"error": f"{type(error).__name__}: {error}"})
            continue
        finally:
            pieces.close()  # ends a generation cut short (a cancel) at its next token
        say({"done": True})


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m training_platform.evaluation.chat")
    parser.add_argument("--model", type=Path, required=True, help="a Hugging Face model directory")
    parser.add_argument("--device", default="cpu", help="cpu, or cuda:N")
    args = parser.parse_args()
    # The protocol keeps the real stdout; fd 1 becomes stderr, so nothing else printed can end up in the protocol.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    from training_platform.evaluation.targets import TargetError, TransformersGenerator

    try:
        generator = TransformersGenerator(args.model, batch_size=1, device=args.device)
    except TargetError as error:
        out.write(json.dumps({"error": str(error)}) + "\n")
        out.flush()
        return 1
    serve(generator, Requests(sys.stdin), out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
