"""`{job_id}_status.json`: the training process's own account of where it is (seed 000 §1.1).

The trainer rewrites it atomically as it goes; the platform reads it for progress (step, loss, ETA) and,
when it did not see the process exit itself, to learn how the run ended.
"""

from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel

from training_platform.common.files import read_json, write_json_atomic


class TrainingState(StrEnum):
    STARTING = "starting"
    RUNNING = "running"
    PAUSED = "paused"
    COMPLETED = "completed"
    FAILED = "failed"


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
    message: str | None = None
    summary: dict[str, float] | None = None


def write_status(path: Path, status: TrainingStatus) -> None:
    write_json_atomic(path, status.model_dump(mode="json"))


def read_status(path: Path) -> TrainingStatus | None:
    data = read_json(path)
    return TrainingStatus.model_validate(data) if data is not None else None
