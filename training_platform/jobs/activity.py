"""When a running job last made progress, for the stall watch.

Progress is a status or metrics update, or a log line that says something new. A line repeated on a timer
is not progress: verl's replay buffer prints "pending: 0, running: 4, finished: 0, failure: 0" every minute
while it waits for rollouts, so a run hung in its rollout or reward keeps writing its log forever. Lines are
compared without their timestamps, and only against the lines the job printed before.
"""

import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

# 2026-11-22 06:45:11,601 / 2026-11-22T06:45:11.601+00:00 / [2026-11-22 06:45:11,517 W 8552 8552]
TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?")
# Progress bars (tqdm) redraw their line after a carriage return: each redraw is a line of its own here.
LINE_END = re.compile(rb"[\r\n]")
READ_LIMIT_BYTES = 1 << 20  # per log and check: a flood of output is progress whatever the older part said
REMEMBERED_LINES = 10_000


def fingerprint(line: str) -> str:
    return TIMESTAMP.sub("", line).strip()


@dataclass
class _LogReader:
    """Reads what a growing log file gained since the last call, in whole lines."""

    path: Path
    offset: int = 0

    def new_lines(self) -> tuple[list[str], float]:
        """The complete lines written since the last call, and the file's modification time."""
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            return [], 0.0
        if stat.st_size < self.offset:
            self.offset = 0  # replaced by a shorter file
        start = max(self.offset, stat.st_size - READ_LIMIT_BYTES)
        with open(self.path, "rb") as handle:
            handle.seek(start)
            data = handle.read(stat.st_size - start)
        end = max(data.rfind(b"\n"), data.rfind(b"\r")) + 1  # a line being written is read once complete
        self.offset = start + end
        lines = LINE_END.split(data[:end])
        return [line.decode("utf-8", errors="replace") for line in lines], stat.st_mtime


@dataclass
class JobActivity:
    """Progress of one attempt of a job: its logs, status file and metrics file."""

    logs: list[Path]
    progress_files: list[Path]
    started_at: float
    last: float = field(init=False)
    _readers: list[_LogReader] = field(init=False)
    _seen: OrderedDict[str, None] = field(init=False, default_factory=OrderedDict)

    def __post_init__(self) -> None:
        self.last = self.started_at
        self._readers = [_LogReader(path) for path in self.logs]

    def update(self) -> float:
        """Read what changed since the last call; when the job last made progress (a Unix time)."""
        for path in self.progress_files:
            try:
                self.last = max(self.last, path.stat().st_mtime)
            except FileNotFoundError:
                pass
        for reader in self._readers:
            lines, modified = reader.new_lines()
            if any([self._is_new(line) for line in lines]):  # a list: every line is remembered
                self.last = max(self.last, modified)
        return self.last

    def _is_new(self, line: str) -> bool:
        key = fingerprint(line)
        if not key:
            return False
        if key in self._seen:
            self._seen.move_to_end(key)
            return False
        self._seen[key] = None
        if len(self._seen) > REMEMBERED_LINES:
            self._seen.popitem(last=False)
        return True
