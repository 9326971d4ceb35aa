"""verl's offline validation (validate.py) in long-lived processes of the verl environment.

verl's import costs ~8 s and a few hundred MB, which the platform server does not pay: validation runs in a
process of its own. Kept between jobs, that process answers each further command in well under a second; it
leaves after IDLE_SECONDS without work, and is started again (once) when it died or did not answer in time.

A pool holds at most `settings.validation_concurrency` such processes, each answering one command at a time; a
request finding them all busy waits up to SLOT_WAIT_SECONDS for one, then is refused (the API answers 503). The
processes get a clean environment: the platform's own variables for verl and what common/environment.py lets
through, never the server's secrets; and what they answer never carries the value of a secret-looking variable.
"""

import atexit
import json
import os
import re
import selectors
import subprocess
import tempfile
import threading
from functools import cache

from training_platform.common.environment import inherited_environment
from training_platform.errors import UnavailableError

IDLE_SECONDS = 600.0
# The process cannot be asked: it died, hangs, or answered something that is not an answer.
_FAILURES = (OSError, TimeoutError, EOFError, ValueError)
ANSWER_TIMEOUT_S = 120.0
# verl's first import in a fresh process takes ~8 s, later commands well under one.
SLOT_WAIT_SECONDS = 30.0
# Variables of the server's environment whose values are never repeated in an answer, should one reach it.
_SECRET_NAMES = re.compile(r"TOKEN|SECRET|PASS|KEY|CREDENTIAL|AUTH|DATABASE|_URL$|_URI$", re.IGNORECASE)


class ValidationBusyError(UnavailableError):
    """Every validation process is busy and none came free in time (HTTP 503)."""


def redact(text: str, environ: dict[str, str] | None = None) -> str:
    """`text` without the value of any secret-looking variable of the server's environment (or `environ`).
    The validation process never gets them; this keeps it so should a library print one some other way."""
    source = os.environ if environ is None else environ
    secrets = {value for name, value in source.items() if _SECRET_NAMES.search(name) and len(value) >= 4}
    for value in sorted(secrets, key=len, reverse=True):
        text = text.replace(value, "***")
    return text


class ValidationWorker:
    def __init__(
        self,
        python: str,
        env: dict[str, str],
        idle_seconds: float = IDLE_SECONDS,
        timeout: float = ANSWER_TIMEOUT_S,
    ):
        self.python = python
        # Only what verl needs: the platform's variables over what common/environment.py lets through.
        self.env = {**inherited_environment(), **env}
        self.idle_seconds = idle_seconds
        self.timeout = timeout
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None
        self._errors = tempfile.TemporaryFile()  # the worker's stderr: verl's own output, and its tracebacks
        self._idle: threading.Timer | None = None
        atexit.register(self.close)

    def validate(self, argv: list[str]) -> list[dict[str, str]]:
        """Problems of a verl command line ({override, message}); a problem named `command` when verl could not
        be asked."""
        with self._lock:
            if self._idle is not None:
                self._idle.cancel()
            try:
                try:
                    return self._ask(argv)
                except _FAILURES:
                    self._stop()
                    return self._ask(argv)  # once more, in a fresh process
            except _FAILURES as error:
                self._stop()
                message = redact(f"verl validation did not run: {error}{self._tail()}")
                return [{"override": "command", "message": message}]
            finally:
                self._idle = threading.Timer(self.idle_seconds, self.close)
                self._idle.daemon = True
                self._idle.start()

    def _ask(self, argv: list[str]) -> list[dict[str, str]]:
        process = self._process or self._start()
        self._errors.seek(0)
        self._errors.truncate()
        process.stdin.write(json.dumps(argv).encode() + b"\n")
        process.stdin.flush()
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            if not selector.select(self.timeout):
                raise TimeoutError(f"no answer within {self.timeout:.0f} s")
        line = process.stdout.readline()
        if not line:
            raise EOFError(f"the validation process ended (exit code {process.wait()})")
        answer = json.loads(line)
        for problem in answer:
            problem["message"] = redact(problem["message"])
        return answer

    def _start(self) -> subprocess.Popen:
        self._process = subprocess.Popen(
            [self.python, "-m", "training_platform.engines.verl.validate", "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._errors,
            env=self.env,
        )
        return self._process

    def _tail(self) -> str:
        self._errors.seek(0)
        output = self._errors.read().decode("utf-8", errors="replace").strip()
        return f": {output[-1000:]}" if output else ""

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            stream.close()

    def close(self) -> None:
        """Let the process go (idle, or the server stopping); the next validation starts another."""
        if self._lock.acquire(timeout=self.timeout):
            try:
                self._stop()
            finally:
                self._lock.release()


class ValidationPool:
    """At most `size` validation processes of one interpreter and environment, each answering one command at a
    time; more requests wait up to `wait_seconds` for one."""

    def __init__(self, python: str, env: dict[str, str], size: int, wait_seconds: float = SLOT_WAIT_SECONDS):
        self.python = python
        self.env = env
        self.size = size
        self.wait_seconds = wait_seconds
        self._slots = threading.BoundedSemaphore(size)
        self._lock = threading.Lock()
        self._idle: list[ValidationWorker] = []  # at most `size` workers exist: one per slot taken

    def validate(self, argv: list[str]) -> list[dict[str, str]]:
        if not self._slots.acquire(timeout=self.wait_seconds):
            raise ValidationBusyError(
                f"all {self.size} verl validation processes are busy (settings.validation_concurrency); "
                "try again in a moment",
                retry_after_seconds=int(self.wait_seconds),
            )
        try:
            with self._lock:
                worker = self._idle.pop() if self._idle else ValidationWorker(self.python, self.env)
            try:
                return worker.validate(argv)
            finally:
                with self._lock:
                    self._idle.append(worker)
        finally:
            self._slots.release()

    def close(self) -> None:
        with self._lock:
            workers = list(self._idle)
        for worker in workers:
            worker.close()


@cache
def pool(python: str, env: tuple[tuple[str, str], ...], size: int) -> ValidationPool:
    """The pool of an interpreter, environment (sorted name, value pairs) and size."""
    return ValidationPool(python, dict(env), size)
