"""Why a job failed, decided once as it fails: the cause its log holds (the exception line a Python traceback
ends with) and what kind of failure it was, which says whether resuming it is the thing to try first.

Only the end of each log is read (LOG_TAIL_BYTES): a traceback is the last thing a failed process writes, and a
log of many gigabytes costs no more than a small one.
"""

import re
import signal
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Literal

from training_platform.common.files import last_lines
from training_platform.common.text import Text
from training_platform.contract.layout import JobLayout
from training_platform.runners.base import ExitInfo

LOG_TAIL_BYTES = 64 * 1024
MAX_CAUSE_CHARS = 500
# A line that reports an error: "RuntimeError: ...", "ray.exceptions.RayTaskError(...)", "OSError(...)";
# not a warning that mentions one ("UserWarning: megatron engine is not available: ModuleNotFoundError(...)").
ERROR_LINE = re.compile(r"\b\w*(Error|Exception)\b[:(]")
WARNING_LINE = re.compile(r"\b\w*Warning\b:|\bWARNING\b")
TRACEBACK = "Traceback (most recent call last):"
# Ray colours the prefix of its workers' lines ("\x1b[36m(TaskRunner pid=1)\x1b[0m"); errors are shown as text.
TERMINAL_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# What Ray puts before each line of a worker's output: "(TaskRunner pid=1) ".
WORKER_PREFIX = re.compile(r"^\((?:[\w.:-]+ )?pid=\d+(?:, ip=[\d.]+)?\) ")
# The line a runner writes into the logs as it starts an attempt (runners/local.py, runners/ray.py).
ATTEMPT_START = re.compile(r"^===== (\S+ start: |Ray job )")
OUT_OF_MEMORY = re.compile(r"OutOfMemoryError|out of memory", re.IGNORECASE)
# Exit codes a shell or launcher reports for a child killed by a signal: 128 + the signal.
SIGNAL_EXIT_BASE = 128
Stream = Literal["stderr", "stdout"]


class FailureKind(StrEnum):
    # The run itself raised (or exited with an error): resumed, it runs the same code on the same data again.
    EXCEPTION = "exception"
    EXIT = "exit"
    LAUNCH = "launch"
    # Something outside the run ended it: resumed from its checkpoint, it goes on.
    KILLED = "killed"
    LOST = "lost"
    HUNG = "hung"
    OUT_OF_MEMORY = "out_of_memory"


RESUMABLE = frozenset({FailureKind.KILLED, FailureKind.LOST, FailureKind.HUNG, FailureKind.OUT_OF_MEMORY})


@dataclass(frozen=True)
class Cause:
    """The line of a log that says why the run failed, as the log has it."""

    line: str
    stream: Stream


@dataclass(frozen=True)
class Failure:
    kind: FailureKind
    reason: Text  # what ended it: "exited with code 1", "killed by signal SIGKILL", "lost: …"
    cause: Cause | None

    @property
    def resume_advised(self) -> bool:
        return self.kind in RESUMABLE

    @property
    def advice(self) -> Text:
        return Text.of(f"failure.{self.kind.value}")

    def as_dict(self) -> dict:
        """As the job's row keeps it."""
        cause = {"cause": self.cause.line, "cause_stream": self.cause.stream} if self.cause else {}
        return {"kind": self.kind.value, "reason": self.reason.as_dict(), **cause}

    @classmethod
    def from_dict(cls, value: dict) -> "Failure":
        line, stream = value.get("cause"), value.get("cause_stream")
        cause = Cause(line, stream) if line and stream else None
        return cls(FailureKind(value["kind"]), Text.from_dict(value["reason"]), cause)


def log_tail(path: Path, limit: int = LOG_TAIL_BYTES) -> list[str]:
    """The whole lines among the last `limit` bytes of a log, without terminal colours."""
    return [TERMINAL_ESCAPE.sub("", line) for line in last_lines(path, limit)]


def exception_line(lines: list[str]) -> str | None:
    """The exception a Python traceback ends with (of the last traceback, the first line of its message); where
    there is no traceback, the last line that reports an error."""
    plain = [WORKER_PREFIX.sub("", line).rstrip() for line in lines]
    starts = [index for index, line in enumerate(plain) if line.lstrip().startswith(TRACEBACK)]
    if starts:
        indent = len(plain[starts[-1]]) - len(plain[starts[-1]].lstrip())
        for line in plain[starts[-1] + 1 :]:
            # Frames are indented under the header; the exception is the first line back at its level.
            if line.strip() and len(line) - len(line.lstrip()) <= indent:
                return line.strip()[:MAX_CAUSE_CHARS]
    errors = [line.strip() for line in plain if ERROR_LINE.search(line) and not WARNING_LINE.search(line)]
    return errors[-1][:MAX_CAUSE_CHARS] if errors else None


def find_cause(layout: JobLayout) -> Cause | None:
    """The cause in the job's logs: stderr's (a local process's tracebacks), else stdout's (a Ray job's one log)."""
    streams: tuple[tuple[Stream, Path], ...] = (("stderr", layout.stderr_path), ("stdout", layout.stdout_path))
    for stream, path in streams:
        line = exception_line(_this_attempt(log_tail(path)))
        if line is not None:
            return Cause(line, stream)
    return None


def _this_attempt(lines: list[str]) -> list[str]:
    """The lines after the last start banner: an earlier attempt's traceback is not this one's cause."""
    starts = [index for index, line in enumerate(lines) if ATTEMPT_START.match(line)]
    return lines[starts[-1] + 1 :] if starts else lines


def exit_failure(exit_info: ExitInfo, cause: Cause | None) -> Failure:
    """A process that exited on its own (with its status observed), or was killed."""
    if cause is not None and OUT_OF_MEMORY.search(cause.line):
        return Failure(FailureKind.OUT_OF_MEMORY, exit_info.text(), cause)
    if _killed(exit_info):
        return Failure(FailureKind.KILLED, exit_info.text(), cause)
    if cause is not None:
        return Failure(FailureKind.EXCEPTION, exit_info.text(), cause)
    return Failure(FailureKind.EXIT, exit_info.text(), cause)


def _killed(exit_info: ExitInfo) -> bool:
    if exit_info.signal is not None:
        return True
    code = exit_info.code
    return code is not None and code - SIGNAL_EXIT_BASE in (signal.SIGKILL, signal.SIGTERM)
