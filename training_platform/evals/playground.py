"""The playground: chat with a model directory, a job's checkpoint, a registered model or an OpenAI-compatible
endpoint, its answer streamed piece by piece (POST /playground/chat; two side by side are two streams at once).

The target is resolved as an evaluation's is (EvalService.resolve_target), before the answer starts: an unknown
model, a missing secret or an endpoint that does not answer is a 422 naming the field, never a stream that fails.

A local model is never loaded into the server: it answers from a chat worker, a process of its own per model
directory (evaluation/chat.py) started with the environment the platform gives its runs. At most `MAX_WORKERS`
are kept warm; a model beyond them stops the least recently used idle one, a worker idle for `IDLE_SECONDS` is
stopped, and the server's stop stops them all, each by its process group. A worker answers one chat at a time: a
second chat with the same model waits for the first. A reader that goes away mid-answer cancels the generation
at its next token, so the worker is free again at once. The price: the first chat with a model waits for its
load (seconds for a small model, minutes for a large one on the CPU), and so does one that follows an eviction.

An endpoint is streamed from the server itself (ApiGenerator.stream), in the thread the answer is read in.
"""

import itertools
import json
import logging
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from training_platform.common.environment import inherited_environment
from training_platform.contract.evaluation import ApiTarget, GenerationSettings
from training_platform.engines.environment import process_environment
from training_platform.evals.schemas import TargetRequest
from training_platform.evals.service import EvalService
from training_platform.evaluation.targets import ApiGenerator, TargetError
from training_platform.secrets.service import SecretService

log = logging.getLogger(__name__)

MAX_MESSAGES = 64
MAX_CONTENT_BYTES = 64 * 1024
MAX_WORKERS = 2
IDLE_SECONDS = 600.0
LOAD_TIMEOUT_S = 600.0  # a large model loaded from a slow disk onto the CPU
PIECE_TIMEOUT_S = 300.0  # the first piece waits for the whole prompt to be read
CANCEL_TIMEOUT_S = 30.0
WAIT_TIMEOUT_S = 600.0  # for the worker another chat is using, or for a worker slot
MAX_ERROR_OUTPUT = 1000


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ChatMessage(StrictModel):
    role: Literal["system", "user", "assistant"]
    content: str


class ChatGeneration(GenerationSettings):
    n: int = Field(default=1, ge=1, le=1, description="One answer: the playground streams it.")


class ChatRequest(StrictModel):
    target: TargetRequest
    messages: list[ChatMessage] = Field(min_length=1, max_length=MAX_MESSAGES, description="The conversation so far.")
    generation: ChatGeneration = ChatGeneration()

    @field_validator("messages")
    @classmethod
    def _user_asks_last(cls, messages: list[ChatMessage]) -> list[ChatMessage]:
        if messages[-1].role != "user":
            raise ValueError("the last message is the user's: the one the model answers")
        size = sum(len(message.content.encode()) for message in messages)
        if size > MAX_CONTENT_BYTES:
            raise ValueError(f"{size} bytes of content: at most {MAX_CONTENT_BYTES}")
        return messages


class ChatError(Exception):
    """A chat worker that cannot answer: its model would not load, it ended, it went silent, or none is free."""


class ChatWorker:
    """The chat process of one model directory, started at its first chat; one chat at a time (`lock`)."""

    def __init__(self, model_dir: Path, env: dict[str, str], closed: threading.Event):
        self.model_dir = model_dir
        self.env = env
        self.lock = threading.Lock()
        self._closed = closed  # the server is stopping: no process is started any more
        self._state = threading.RLock()  # a process started and one stopped (by the pool) never cross
        self.users = 0  # chats holding or waiting for it; the pool's lock guards it
        self.last_used = time.monotonic()
        self._process: subprocess.Popen | None = None
        self._lines: queue.Queue[dict | None] = queue.Queue()
        self._errors = tempfile.TemporaryFile()  # its stderr: the tail explains a failed load or a crash
        self._ids = itertools.count(1)

    def answer(self, messages: list[dict], settings: GenerationSettings) -> Iterator[str]:
        """The answer's pieces; closed before its end, the generation is cancelled. The caller holds `lock`."""
        self.start()
        request = next(self._ids)
        self._send({"id": request, "messages": messages, "generation": settings.model_dump()})
        ended = False
        try:
            while True:
                message = self._next(PIECE_TIMEOUT_S)
                if "text" in message:
                    yield message["text"]
                    continue
                ended = True
                if message.get("done"):
                    return
                raise ChatError(str(message.get("error") or f"an answer the platform does not know: {message}"))
        finally:
            if not ended:
                self._cancel(request)

    def stop(self) -> None:
        """Kill the process's group (the worker and anything it started) and collect it."""
        with self._state:
            process, self._process = self._process, None
        if process is None:
            return
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
        process.stdin.close()  # its stdout is closed by its reader, at the end of it

    def start(self) -> None:
        """Start the process and wait for its model to load, unless it runs already. The caller holds `lock`."""
        with self._state:
            if self._closed.is_set():
                raise ChatError("the server is stopping")
            if self._process is not None and self._process.poll() is None:
                return
            self.stop()
            self._errors.seek(0)
            self._errors.truncate()
            self._lines = queue.Queue()
            self._process = subprocess.Popen(
                [sys.executable, "-m", "training_platform.evaluation.chat", "--model", str(self.model_dir)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._errors,
                env=self.env,
                text=True,
                encoding="utf-8",
                process_group=0,  # its own group, killed whole; still in the server's session
            )
            stdout, pid = self._process.stdout, self._process.pid
        threading.Thread(target=_read_lines, args=(stdout, self._lines), name=f"chat-{pid}", daemon=True).start()
        ready = self._next(LOAD_TIMEOUT_S)
        if not ready.get("ready"):
            self.stop()
            raise ChatError(str(ready.get("error") or f"{self.model_dir} did not load"))

    def _send(self, message: dict) -> None:
        process = self._process
        if process is None:  # stopped meanwhile (the server is stopping)
            raise ChatError(f"the chat process of {self.model_dir} was stopped")
        try:
            process.stdin.write(_json_line(message))
            process.stdin.flush()
        except (OSError, ValueError):  # the process is gone (a broken pipe, a closed stream)
            self.stop()
            raise ChatError(f"the chat process of {self.model_dir} ended{self._tail()}") from None

    def _next(self, timeout: float) -> dict:
        try:
            message = self._lines.get(timeout=timeout)
        except queue.Empty:
            self.stop()
            raise ChatError(f"the chat process of {self.model_dir} said nothing for {timeout:.0f} s: stopped") from None
        if message is None:
            process = self._process
            code = process.wait() if process is not None else "killed"
            self.stop()
            raise ChatError(f"the chat process of {self.model_dir} ended (exit code {code}){self._tail()}")
        return message

    def _cancel(self, request: int) -> None:
        """End request `request`'s generation and read what is left of its answer; a worker that will not is
        stopped."""
        if self._process is None:
            return
        deadline = time.monotonic() + CANCEL_TIMEOUT_S
        try:
            self._send({"cancel": request})
            while "text" in self._next(max(0.0, deadline - time.monotonic())):
                pass
        except ChatError as error:
            log.warning("stopped the chat process of %s while cancelling: %s", self.model_dir, error)
            self.stop()

    def _tail(self) -> str:
        self._errors.seek(0)
        output = self._errors.read().decode("utf-8", errors="replace").strip()
        return f": {output[-MAX_ERROR_OUTPUT:]}" if output else ""


def _read_lines(stream, lines: queue.Queue) -> None:
    """Every JSON line of a worker's stdout into `lines`, then None at its end."""
    with stream:
        for line in stream:
            try:
                lines.put(json.loads(line))
            except ValueError:
                lines.put({"error": f"an answer that is not JSON: {line[:200]!r}"})
    lines.put(None)


def _json_line(message: dict) -> str:
    return json.dumps(message, ensure_ascii=False) + "\n"


class ChatWorkers:
    """At most `size` chat workers, by model directory; the least recently used idle one makes way for a new one."""

    def __init__(self, env: dict[str, str], size: int = MAX_WORKERS, idle_seconds: float = IDLE_SECONDS):
        self.env = env
        self.size = size
        self.idle_seconds = idle_seconds
        self._workers: dict[Path, ChatWorker] = {}
        self._changed = threading.Condition()
        self._closed = threading.Event()
        self._reaper: threading.Thread | None = None

    @contextmanager
    def use(self, model_dir: Path) -> Iterator[ChatWorker]:
        """The model's worker, for this chat alone until the block ends."""
        worker = self._check_out(model_dir)
        try:
            if not worker.lock.acquire(timeout=WAIT_TIMEOUT_S):
                raise ChatError(f"{model_dir} is answering another chat: try again when it is done")
            try:
                yield worker
            finally:
                worker.lock.release()
        finally:
            self._check_in(worker)

    def close(self) -> None:
        self._closed.set()
        with self._changed:
            workers, self._workers = list(self._workers.values()), {}
            self._changed.notify_all()
        for worker in workers:
            worker.stop()

    def _check_out(self, model_dir: Path) -> ChatWorker:
        deadline = time.monotonic() + WAIT_TIMEOUT_S
        with self._changed:
            while (worker := self._workers.get(model_dir)) is None:
                if self._closed.is_set():
                    raise ChatError("the server is stopping")
                idle = [w for w in self._workers.values() if w.users == 0]
                if len(self._workers) < self.size or idle:
                    if len(self._workers) >= self.size:
                        victim = min(idle, key=lambda w: w.last_used)
                        del self._workers[victim.model_dir]
                        victim.stop()
                    worker = self._workers[model_dir] = ChatWorker(model_dir, self.env, self._closed)
                    break
                if not self._changed.wait(max(0.0, deadline - time.monotonic())):
                    raise ChatError(f"all {self.size} chat workers are answering: try again when one is done")
            worker.users += 1
            worker.last_used = time.monotonic()
            if self._reaper is None:
                self._reaper = threading.Thread(target=self._stop_idle, name="chat-reaper", daemon=True)
                self._reaper.start()
            return worker

    def _check_in(self, worker: ChatWorker) -> None:
        with self._changed:
            worker.users -= 1
            worker.last_used = time.monotonic()
            self._changed.notify_all()

    def _stop_idle(self) -> None:
        while not self._closed.wait(min(self.idle_seconds / 4, 30.0)):
            now = time.monotonic()
            with self._changed:
                idle = [w for w in self._workers.values() if w.users == 0 and now - w.last_used >= self.idle_seconds]
                for worker in idle:
                    del self._workers[worker.model_dir]
                    worker.stop()
                if idle:
                    self._changed.notify_all()


class PlaygroundService:
    def __init__(
        self,
        evals: EvalService,
        secrets: SecretService,
        cpu_threads: int,
        workers: int = MAX_WORKERS,
        idle_seconds: float = IDLE_SECONDS,
    ):
        self.evals = evals
        self.secrets = secrets
        self.workers = ChatWorkers(
            {**inherited_environment(), **process_environment(cpu_threads)}, workers, idle_seconds
        )

    def chat(self, request: ChatRequest) -> Iterator[dict]:
        """The answer's events: {"text"} per piece, then {"done", "seconds", "characters"}, or {"error"} where it
        fails after it began. The target is resolved now: InvalidInputError names its field (`target.model`)."""
        target = self.evals.resolve_target(request.target, "target")
        messages = [message.model_dump() for message in request.messages]
        if isinstance(target, ApiTarget):
            key = self.secrets.reveal(target.api_key_secret) if target.api_key_secret else None
            return _guarded(_endpoint_answer(target, key, messages, request.generation))
        return _guarded(self._model_answer(Path(target.model.path), messages, request.generation))

    def close(self) -> None:
        self.workers.close()

    def _model_answer(self, model_dir: Path, messages: list[dict], settings: GenerationSettings) -> Iterator[dict]:
        try:
            with self.workers.use(model_dir) as worker:
                worker.start()
                with closing(worker.answer(messages, settings)) as pieces:
                    yield from _timed(pieces)
        except ChatError as error:
            yield {"error": str(error)}


def _endpoint_answer(target: ApiTarget, key: str | None, messages: list[dict], settings: GenerationSettings):
    generator = ApiGenerator(target, key)
    try:
        with closing(generator.stream(messages, settings)) as pieces:
            yield from _timed(pieces)
    except TargetError as error:
        yield {"error": str(error)}
    finally:
        generator.close()


def _timed(pieces: Iterator[str]) -> Iterator[dict]:
    """Each piece as an event, then the end with the answer's length and its time from the request to the last piece
    (a worker's load and waiting for it not included)."""
    started, characters = time.monotonic(), 0
    for piece in pieces:
        if piece:
            characters += len(piece)
            yield {"text": piece}
    yield {"done": True, "seconds": round(time.monotonic() - started, 3), "characters": characters}


def _guarded(events: Iterator[dict]) -> Iterator[dict]:
    """The events, with a failure nobody foresaw told as the stream's error (and logged) rather than a cut stream."""
    with closing(events):
        try:
            yield from events
        except Exception as error:
            log.exception("a playground chat failed")
            yield {"error": f"the chat failed: {type(error).__name__}: {error}"}
