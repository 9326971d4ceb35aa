"""What the jobs API accepts and returns."""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from training_platform.common.text import Language
from training_platform.contract.data import DataFormat
from training_platform.contract.health import HealthSettings
from training_platform.contract.params import Algorithm
from training_platform.contract.run import EngineSettings
from training_platform.contract.status import TrainingStatus
from training_platform.contract.surgery import SurgeryOperation
from training_platform.datafiles.layout import SUPPORTED_TYPES
from training_platform.errors import NAME_PATTERN
from training_platform.jobs.states import JobStatus
from training_platform.tasks import BackgroundTaskRead
from training_platform.trackers.schemas import TrackerList

JobName = Annotated[str, Field(min_length=1, max_length=200, pattern=NAME_PATTERN)]


# Where a run runs: this machine, the Ray cluster (PLATFORM_RAY_ADDRESS), or a host an admin added (GET /hosts).
RunMode = Annotated[
    str,
    Field(
        max_length=80,
        pattern=r"^(local|ray|ssh:[A-Za-z0-9][A-Za-z0-9._-]{0,63})$",
        description="local, ray (PLATFORM_RAY_ADDRESS), or ssh:<host> for a host an admin added (GET /hosts).",
    ),
]


class JobCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: JobName
    algorithm: Algorithm
    engine: str = Field(default="trl", description="trl, verl, or auto (verl where it can run the algorithm here).")
    model_path: str = Field(
        min_length=1,
        description="HF model directory (config.json + weights), or a job's output: 'job:<job>' (its final model), "
        "'job:<job>@<checkpoint>', or a registered model: 'model:<name>'.",
    )
    dataset_paths: list[str] = Field(
        min_length=1,
        description=f"Training data: {SUPPORTED_TYPES} files, folders of them, or registered datasets as "
        "'dataset:<name or id>'.",
    )
    eval_dataset_path: str | None = None
    params: dict[str, Any] = Field(default_factory=dict, description="Per-algorithm parameters; see /docs.")
    run_mode: RunMode = "local"
    health: HealthSettings = Field(
        default_factory=HealthSettings,
        description='Detector overrides ({"detectors": {"grad_explosion": {"ceiling": 50}}}) and automatic '
        "actions; docs/health.md.",
    )
    trackers: TrackerList | None = Field(
        default=None,
        description='Where its metrics are exported besides the platform: [{"kind": "tensorboard"}, {"kind": "mlflow", '
        '"tracking_uri": "http://host:5000", "experiment": "x"}, {"kind": "wandb", "project": "p"}]; none given: '
        "the platform's default (PLATFORM_TRACKERS); docs/trackers.md.",
    )
    engine_settings: EngineSettings = Field(
        default_factory=dict,
        description="Advanced: settings of the engine the job's params do not model, passed on as they are after the "
        'engine\'s own checks: TRL config fields ({"use_liger_kernel": true}), verl overrides '
        '({"actor_rollout_ref.rollout.gpu_memory_utilization": 0.6}); what the platform sets itself is refused with '
        "the parameter to change instead. POST /jobs/preview shows the result; docs/jobs.md.",
    )
    start: bool = Field(default=False, description="Start the job right after creating it.")


class JobPreview(BaseModel):
    """What a job would run, before it exists: nothing is created, written or started."""

    engine: str = Field(description="The engine that would run it (an `auto` request's choice).")
    device: str = Field(description="What it would train on here: cuda when its run mode has GPUs, else cpu.")
    configuration: dict[str, Any] = Field(
        description="The engine's own configuration: TRL's trainer arguments (and LoRA's, accelerate's), or the "
        "overrides of verl's command; engine settings included."
    )
    command: list[str] = Field(description="The command its process would start with (an argument list).")
    engine_settings: EngineSettings = Field(description="The job's engine settings, as the configuration has them.")
    output_dir: str = Field(description="Where its files would be: a created job gets a folder of its own instead.")


class Progress(BaseModel):
    current_step: int
    total_steps: int | None
    epoch: float | None
    loss: float | None
    learning_rate: float | None
    elapsed_seconds: float | None
    eta_seconds: float | None
    last_checkpoint_step: int | None
    state: str
    message: str | None

    @classmethod
    def from_status(cls, status: TrainingStatus) -> "Progress":
        return cls.model_validate({**status.model_dump(), "state": status.status.value})


class FailureText(BaseModel):
    reason: str = Field(description="What ended the run: 'exited with code 1', 'killed by signal SIGKILL'.")
    advice: str = Field(description="What to do about it, and whether resuming would help.")


class JobFailure(BaseModel):
    """Why a failed job failed, as decided when it failed (jobs/failures.py)."""

    kind: Literal["exception", "exit", "launch", "killed", "lost", "hung", "out_of_memory"]
    resume_advised: bool = Field(
        description="Resume is the action to try first: something outside the run ended it (a signal, a lost process "
        "or node, a hang, memory). False when the run itself failed: resumed, it would fail the same way."
    )
    cause: str | None = Field(
        description="The line of its log that says why (the exception its traceback ends with), as the log has it."
    )
    cause_stream: Literal["stdout", "stderr"] | None = Field(description="The log that holds `cause`.")
    text: dict[Language, FailureText] = Field(description="The reason and the advice per language: en, zh-CN.")


class JobRead(BaseModel):
    id: str
    name: str
    algorithm: Algorithm | SurgeryOperation | Literal["evaluate", "external"]
    engine: str
    run_mode: str
    model_path: str
    dataset_paths: list[str]
    dataset_formats: dict[str, DataFormat]
    eval_dataset_path: str | None
    params: dict[str, Any]
    status: JobStatus
    requested_action: str | None
    allowed_actions: list[str]
    output_dir: str
    error: str | None
    pid: int | None
    exit_code: int | None
    attempt: int
    gpus: list[int] = Field(description="The GPUs (CUDA indices) the job holds while it runs locally.")
    queue_position: int | None = Field(description="While queued: 1 for the job that gets the next free GPUs.")
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    progress: Progress | None
    health: Literal["healthy", "warning", "critical", "unknown"] = Field(
        description="The worst open finding's severity: warning or critical; healthy when there is none (or only "
        "info); unknown while the job has logged no step (pending, queued, failed before its first step)."
    )
    failure: JobFailure | None = Field(description="Why it failed, while it is failed.")
    elapsed_seconds: float | None = Field(
        description="The time its attempts ran, each from its process's launch, the running one's so far included."
    )
    attempt_elapsed_seconds: float | None = Field(description="The running attempt's share of `elapsed_seconds`.")
    health_settings: HealthSettings
    trackers: TrackerList | None = Field(description="Its trackers; null: the platform's default (docs/trackers.md).")
    engine_settings: EngineSettings = Field(description="Its engine settings (JobCreate.engine_settings).")


class JobEventRead(BaseModel):
    id: int
    created_at: datetime
    kind: str
    from_status: JobStatus | None
    to_status: JobStatus | None
    message: str = Field(description="In the language the request asked for (Accept-Language), English by default.")
    code: str | None = Field(default=None, description="The message's code (none for events older than codes).")


class CheckpointRead(BaseModel):
    name: str
    step: int | None
    path: str
    complete: bool
    kind: str
    created_at: datetime
    size_bytes: int


class JobTaskRead(BackgroundTaskRead):
    """A checkpoint export; once completed, `result` holds the checkpoint and the exported directory's path."""

    job_id: str
    kind: Literal["export"]


class LogTail(BaseModel):
    stream: Literal["stdout", "stderr"]
    lines: list[str]
