"""verl's offline validation (validate.py) in a long-lived process of the verl environment.

verl's import costs ~8 s and a few hundred MB, which the platform server does not pay: validation runs in a
process of its own. Kept between jobs, that process answers each further command in well under a second; it
leaves after IDLE_SECONDS without work, and is started again (once) when it died or did not answer in time.
"""

import atexit
import json
import os
import selectors
import subprocess
import tempfile
import threading
from functools import cache

IDLE_SECONDS = 600.0
# The process cannot be asked: it died, hangs, or answered something that is not an answer.
_FAILURES = (OSError, TimeoutError, EOFError, ValueError)
ANSWER_TIMEOUT_S = 120.0


class ValidationWorker:
    def __init__(
        self,
        python: str,
        env: dict[str, str],
        idle_seconds: float = IDLE_SECONDS,
        timeout: float = ANSWER_TIMEOUT_S,
    ):
        self.python = python
        self.env = env
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
                return [{"override": "command", "message": f"verl validation did not run: {error}{self._tail()}"}]
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
        return json.loads(line)

    def _start(self) -> subprocess.Popen:
        self._process = subprocess.Popen(
            [self.python, "-m", "training_platform.engines.verl.validate", "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._errors,
            env={**os.environ, **self.env},
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


@cache
def worker(python: str, env: tuple[tuple[str, str], ...]) -> ValidationWorker:
    """The worker of an interpreter and environment (sorted name, value pairs)."""
    return ValidationWorker(python, dict(env))
