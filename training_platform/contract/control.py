"""Requests from the platform to a running training process, through small files in the job's directory.

A file (not a signal) works the same for local, SSH and Ray runs, and survives the platform restarting.

- `control.json`: a pause request. The training process checks it once per step, which costs one stat() call.
- `lr_requests/<id>.json`: requests to scale the learning rate live (`request_lr_scale`), one file per request so
  that two requests never overwrite each other. The TRL trainer lists the directory once per step, applies each
  request it has not applied yet (every parameter group's rate and its schedule's base rates, so the schedule
  keeps its shape), and keeps the ids it applied in each checkpoint: a run resumed from a checkpoint applies
  again only what came after it.
"""

import math
import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from training_platform.common.files import read_json, write_json_atomic
from training_platform.contract.layout import JobLayout


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


# A factor outside these bounds is refused: far beyond any useful change of a learning rate.
MIN_LR_SCALE = 1e-6
MAX_LR_SCALE = 10.0
# A request id names its file: letters, digits, '_', '-', '.', not starting with '.' (the atomic writer's
# temporary files do).
_REQUEST_ID = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}")
_SUFFIX = ".json"


@dataclass(frozen=True)
class LrScaleRequest:
    request_id: str
    factor: float
    requested_at: float


def _checked_factor(factor: float) -> float:
    if isinstance(factor, bool) or not isinstance(factor, (int, float)):
        raise ValueError(f"an lr scale factor is a number, not {factor!r}")
    factor = float(factor)
    if not (math.isfinite(factor) and MIN_LR_SCALE <= factor <= MAX_LR_SCALE):
        raise ValueError(f"an lr scale factor is between {MIN_LR_SCALE:g} and {MAX_LR_SCALE:g}, not {factor!r}")
    return factor


def request_lr_scale(layout: JobLayout, factor: float, request_id: str | int) -> None:
    """Ask the job's trainer to multiply its learning rate by `factor` from its next step on. Each request id is
    applied once: asking again under an id already applied changes nothing. ValueError on a factor outside
    [MIN_LR_SCALE, MAX_LR_SCALE] or an id that cannot name a file."""
    request_id = str(request_id)
    if not _REQUEST_ID.fullmatch(request_id):
        raise ValueError(f"an lr scale request id is 1-64 letters, digits, '_', '-' or '.', not {request_id!r}")
    record = {"id": request_id, "factor": _checked_factor(factor), "requested_at": time.time()}
    write_json_atomic(layout.lr_requests_dir / f"{request_id}{_SUFFIX}", record)


def _read_request(path: Path) -> LrScaleRequest | None:
    try:
        data = read_json(path)
        return LrScaleRequest(
            request_id=path.name.removesuffix(_SUFFIX),
            factor=_checked_factor(data["factor"]),
            requested_at=float(data.get("requested_at", 0.0)),
        )
    except (OSError, ValueError, TypeError, KeyError, RecursionError):
        return None  # gone meanwhile, or not a request the platform wrote


class LrScaleReader:
    """The learning-rate requests a trainer has not applied yet. One directory listing per look (no file is read
    unless its id is new); a file that is not a valid request is ignored once and for all."""

    def __init__(self, directory: Path, applied: Iterable[str] = ()):
        self.directory = directory
        self.applied: set[str] = set(applied)
        self._ignored: set[str] = set()

    def _ids(self) -> list[str]:
        try:
            names = os.listdir(self.directory)
        except (FileNotFoundError, NotADirectoryError):
            return []
        return [name.removesuffix(_SUFFIX) for name in names if name.endswith(_SUFFIX) and not name.startswith(".")]

    def pending(self) -> list[LrScaleRequest]:
        """New requests, oldest first; call `mark_applied` with the ones taken."""
        found = []
        for request_id in self._ids():
            if request_id in self.applied or request_id in self._ignored:
                continue
            request = _read_request(self.directory / f"{request_id}{_SUFFIX}")
            if request is None:
                self._ignored.add(request_id)
            else:
                found.append(request)
        return sorted(found, key=lambda request: (request.requested_at, request.request_id))

    def mark_applied(self, requests: Iterable[LrScaleRequest]) -> None:
        self.applied.update(request.request_id for request in requests)

    def supersede_all(self) -> list[str]:
        """Take every request there is as done without applying it (a rate set anew replaces them); their ids."""
        ids = [request_id for request_id in self._ids() if request_id not in self.applied]
        self.applied.update(ids)
        return ids
