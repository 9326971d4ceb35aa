"""Requests from the platform to a running training process, through a small file in the job's directory.

A file (not a signal) works the same for local, SSH and Ray runs, and survives the platform restarting.
The training process checks it once per step, which costs one stat() call.
"""

import time
from enum import StrEnum
from pathlib import Path

from training_platform.common.files import read_json, write_json_atomic


class ControlAction(StrEnum):
    PAUSE = "pause"


def request(path: Path, action: ControlAction) -> None:
    write_json_atomic(path, {"action": action.value, "requested_at": time.time()})


def clear(path: Path) -> None:
    path.unlink(missing_ok=True)


class ControlReader:
    """Reads the control file only when it changed since the last look."""

    def __init__(self, path: Path):
        self.path = path
        self._seen_mtime: float | None = None

    def pending_action(self) -> ControlAction | None:
        try:
            mtime = self.path.stat().st_mtime_ns
        except FileNotFoundError:
            return None
        if mtime == self._seen_mtime:
            return None
        self._seen_mtime = mtime
        data = read_json(self.path) or {}
        try:
            return ControlAction(data.get("action"))
        except ValueError:
            return None
