"""What a stage's task and the platform say to each other (the stage routes of the API): all a worker needs of
the pipelines' schemas, with nothing of the server's behind it (a worker imports this, never the platform)."""

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class StageStatus(StrEnum):
    PENDING = "pending"  # waits for its dependencies (or for its retry delay)
    DISPATCHED = "dispatched"  # handed to a task; no task has claimed it yet
    RUNNING = "running"  # claimed by a task, which holds its lease
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"
    SKIPPED = "skipped"  # its condition was false, or a stage it depends on was skipped


FINISHED_STAGE = frozenset({StageStatus.COMPLETED, StageStatus.SKIPPED})
ACTIVE_STAGE = frozenset({StageStatus.DISPATCHED, StageStatus.RUNNING})


class WorkRead(BaseModel):
    """What a stage ran: a job (training, evaluation, merge…), a dataset task, or a job's export task."""

    kind: Literal["job", "dataset_task", "job_task"]
    id: str
    name: str = Field(description="The job's name, or the dataset's / job's for a task.")
    status: str | None = None


class StageClaim(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task_id: str = Field(min_length=1, max_length=64)
    worker: str = Field(default="", max_length=200)


class StageTask(BaseModel):
    """What a stage's task is told: its work's state, and whether it still holds the stage."""

    status: StageStatus
    holds: bool = Field(description="False once another task took the stage, or it was cancelled: stop following it.")
    work: WorkRead | None
    settled: bool = Field(description="The work has ended (done, failed or stopped): settle the stage now.")
    lease_seconds: float
