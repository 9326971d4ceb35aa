"""`{job_id}_status.json`: the training process's own account of where it is.

The trainer rewrites it atomically as it goes (through a StatusReporter, whichever engine runs); the platform
reads it for progress (step, loss, ETA) and, when it did not see the process exit itself, to learn how the run
ended. A file that cannot be read (not JSON, not a status, too large) is one job's problem: it never raises to
the caller, so listing jobs or starting the server goes on; the platform shows it in that job's progress.
"""

import time
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from training_platform.common.files import read_json, write_json_atomic

# A status file is a few hundred bytes; one far larger is not a status, and is not read into memory.
MAX_STATUS_BYTES = 1 << 20


class TrainingState(StrEnum):
    STARTING = "starting"
    RUNNING = "running"
    PAUSED = "paused"
    COMPLETED = "completed"
    FAILED = "failed"
    # Never written by a trainer: the platform's reading of a status file it cannot read (load_status).
    UNREADABLE = "unreadable"


class TrainingStatus(BaseModel):
    job_id: str
    status: TrainingState
    current_step: int = 0
    total_steps: int | None = None
    epoch: float | None = None
    loss: float | None = None
    learning_rate: float | None = None
    started_at: float | None = None
    updated_at: float | None = None
    elapsed_seconds: float | None = None
    eta_seconds: float | None = None
    resumed_from_step: int | None = None
    last_checkpoint_step: int | None = None
    anomaly_detected: bool = False
    anomaly_reason: str | None = None
    # The product of the live learning-rate requests in force (contract/control.py); None when none was applied.
    lr_scale: float | None = None
    message: str | None = None
    summary: dict[str, float] | None = None
    # What the engine chose for this run where the job left it to the machine, or could not apply, as texts
    # (common/text.py Text.as_dict: code and parameters): packing, fused kernels, the rollout engine. The
    # platform records each in the job's events once.
    notes: list[Any] = []  # each checked where it is read: one malformed note never makes the status unreadable


def write_status(path: Path, status: TrainingStatus) -> None:
    write_json_atomic(path, status.model_dump(mode="json"))


class StatusFileError(ValueError):
    """The status file exists but cannot be read as a status."""


def parse_status(path: Path) -> TrainingStatus | None:
    """The status in the file, None when there is no file (yet); StatusFileError says what is wrong with it."""
    try:
        if path.stat().st_size > MAX_STATUS_BYTES:
            raise StatusFileError(f"larger than {MAX_STATUS_BYTES} bytes")
        data = read_json(path)
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise StatusFileError("not UTF-8 text") from None
    except ValueError as error:  # json.JSONDecodeError
        raise StatusFileError(f"not JSON ({error})") from None
    except RecursionError:
        raise StatusFileError("nested too deeply") from None
    except OSError as error:
        raise StatusFileError(f"cannot be read ({error.strerror or error})") from None
    if data is None:
        return None
    try:
        return TrainingStatus.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the file"
        raise StatusFileError(f"not a status ({where}: {first['msg']})") from None


def read_status(path: Path) -> TrainingStatus | None:
    """The status to go by, or None: no file yet, or one that cannot be read (the trainer's next write replaces
    it). What a trainer resuming from the file wants: an unreadable one is as good as none."""
    try:
        return parse_status(path)
    except StatusFileError:
        return None


def load_status(path: Path) -> TrainingStatus | None:
    """The platform's reading, for showing a job: None when there is no file yet; a file that cannot be read is a
    status in state UNREADABLE whose message says why, so its job (and only its job) shows the problem."""
    try:
        return parse_status(path)
    except StatusFileError as error:
        return TrainingStatus(
            job_id=path.name.removesuffix("_status.json"),
            status=TrainingState.UNREADABLE,
            message=f"the status file {path.name} cannot be read: {error}",
        )


class StatusReporter:
    """The trainer side of the status file, for every engine: elapsed time and ETA computed in one place,
    writes throttled to `min_interval` seconds except where a reader must see the change at once (the run's
    start, a checkpoint, the last step, the end)."""

    def __init__(self, path: Path, status: TrainingStatus, min_interval: float = 0.0, writes: bool = True):
        self.path = path
        self.status = status
        self.min_interval = min_interval
        self.writes = writes  # False in processes that keep the status without owning the file (other ranks)
        self._last_write = 0.0
        self._clock_start: tuple[float, int] | None = None  # (time, step) of the attempt's first reported step

    @classmethod
    def starting(cls, path: Path, job_id: str, **options) -> "StatusReporter":
        return cls(
            path, TrainingStatus(job_id=job_id, status=TrainingState.STARTING, started_at=time.time()), **options
        )

    def begin(self, total_steps: int | None, resumed_from: int) -> None:
        """Training starts: at step `resumed_from` (0 for a fresh run) of `total_steps`."""
        self.status.status = TrainingState.RUNNING
        self.status.total_steps = total_steps
        self.status.current_step = max(self.status.current_step, resumed_from)
        self.status.resumed_from_step = resumed_from or None
        self.write(force=True)

    def step(self, step: int, **fields) -> None:
        """Step `step` is done; `fields` are other status fields it changed (epoch, loss, learning_rate)."""
        self.status.current_step = max(self.status.current_step, step)
        for name, value in fields.items():
            setattr(self.status, name, value)
        self.status.eta_seconds = self._eta(step)
        self.write(force=step == self.status.total_steps)

    def _eta(self, step: int) -> float | None:
        # Timed from the first step this attempt reported: start-up (model loading, a rollout engine's
        # warm-up) says nothing about how long the remaining steps take.
        if self._clock_start is None:
            self._clock_start = (time.time(), step)
        started_at, first_step = self._clock_start
        done = step - first_step
        if done <= 0 or not self.status.total_steps:
            return None
        return (time.time() - started_at) / done * max(self.status.total_steps - step, 0)

    def checkpoint(self, step: int | None) -> None:
        self.status.last_checkpoint_step = step
        self.write(force=True)

    def finish(self, state: TrainingState, message: str | None) -> None:
        self.status.status = state
        self.status.message = message
        self.status.eta_seconds = 0.0 if state == TrainingState.COMPLETED else None
        self.write(force=True)

    def write(self, force: bool = False) -> None:
        now = time.time()
        if not self.writes or (not force and now - self._last_write < self.min_interval):
            return
        self.status.updated_at = now
        self.status.elapsed_seconds = now - self.status.started_at
        write_status(self.path, self.status)
        self._last_write = now
