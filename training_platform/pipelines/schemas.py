"""A pipeline as its user writes it (YAML or the API's JSON) and as the API shows it.

A definition is a list of stages: each with a unique name, a type (stages.py says what each type runs and what it
outputs), the parameters of the service that runs it, `depends_on`, references to earlier outputs
(`${sft.model}`, `${eval_sft.metrics.accuracy}`) anywhere in its parameters, a condition on them (`when`), and a
retry policy. definition.py checks all of it before anything runs.
"""

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from training_platform.jobs.schemas import JobName
from training_platform.pipelines.protocol import StageStatus, WorkRead

MAX_STAGES = 500
MAX_YAML_BYTES = 256 * 1024
STAGE_NAME_PATTERN = r"^[a-z][a-z0-9_]{0,62}$"


class StageType(StrEnum):
    DATASET = "dataset"  # audit, dedup or convert a registered dataset
    TRAIN = "train"  # a training job, any algorithm and engine
    EVALUATE = "evaluate"  # an evaluation run
    SELECT = "select"  # pick a checkpoint of a job by its recorded metrics
    MERGE = "merge"  # merge models (linear, SLERP, TIES, DARE, task arithmetic)
    AVERAGE = "average"  # SWA or EMA over a job's checkpoints
    LORA_FOLD = "lora_fold"  # fold a LoRA adapter into its base model
    EXPORT = "export"  # a checkpoint as a standalone model directory
    REGISTER = "register"  # register a model under a name
    EMPTY = "empty"  # runs nothing: joins branches (Airflow's EmptyOperator)


class PipelineStatus(StrEnum):
    DRAFT = "draft"  # created, never started
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"


class StageSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=STAGE_NAME_PATTERN, description="Unique in the pipeline; references use it.")
    type: StageType
    params: dict[str, Any] = Field(
        default_factory=dict, description="What the stage type's own API takes; strings may hold ${stage.output}."
    )
    depends_on: list[str] = Field(default_factory=list, max_length=MAX_STAGES)
    when: str | None = Field(
        default=None,
        max_length=1000,
        description="Run only if this comparison holds, e.g. "
        "${eval_dpo.metrics.accuracy} > ${eval_sft.metrics.accuracy}; otherwise the stage (and what depends on it) "
        "is skipped.",
    )
    retries: int = Field(default=0, ge=0, le=10, description="Attempts after the first when the stage fails.")
    retry_delay_seconds: float = Field(default=0, ge=0, le=3600)


class PipelineDefinition(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: JobName
    description: str = Field(default="", max_length=10_000)
    concurrency: int = Field(default=2, ge=1, le=32, description="Stages of one layer that run at the same time.")
    stages: list[StageSpec] = Field(min_length=1, max_length=MAX_STAGES)


class PipelineSource(BaseModel):
    """A definition as YAML text (its problems are reported with their lines) or as JSON."""

    model_config = ConfigDict(extra="forbid")

    text: str | None = Field(default=None, max_length=MAX_YAML_BYTES, description="The pipeline as YAML.")
    definition: PipelineDefinition | None = None

    @model_validator(mode="after")
    def one_source(self) -> "PipelineSource":
        if (self.text is None) == (self.definition is None):
            raise ValueError("give the pipeline as `text` (YAML) or as `definition` (JSON), one of them")
        return self


class PipelineCreate(PipelineSource):
    start: bool = Field(default=False, description="Start the pipeline right after creating it.")


class ResumeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rerun: list[str] = Field(
        default_factory=list,
        max_length=MAX_STAGES,
        description="Finished stages to run again (with what depends on them), e.g. after editing their parameters.",
    )


class StageTypeRead(BaseModel):
    type: StageType
    help: str
    outputs: list[str] = Field(description="What `${stage.<output>}` may name; `metrics.*` any recorded key.")
    params_schema: dict[str, Any] = Field(description="The JSON schema of the stage's parameters.")


class TemplateRead(BaseModel):
    name: str
    title: str
    description: str
    text: str = Field(description="The pipeline as YAML, ready to edit.")


class StageRead(BaseModel):
    name: str
    type: StageType
    layer: int
    status: StageStatus
    depends_on: list[str]
    when: str | None
    params: dict[str, Any]
    attempt: int = Field(description="1 for the first attempt; 0 before any.")
    max_attempts: int
    task_id: str | None = Field(description="The task running (or last running) the stage: a Celery task's id.")
    worker: str | None
    work: WorkRead | None
    outputs: dict[str, Any] | None
    error: str | None
    edited: bool = Field(description="Its parameters changed since it finished; resume with it in `rerun` to redo it.")
    dispatched_at: datetime | None
    started_at: datetime | None
    finished_at: datetime | None


class PipelineSummary(BaseModel):
    id: str
    name: str
    description: str
    owner: str | None = Field(description="Who created it: members change only their own.")
    status: PipelineStatus
    stage_counts: dict[str, int]
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class PipelineRead(PipelineSummary):
    concurrency: int
    executor: Literal["celery", "in-process"]
    layers: list[list[str]]
    stages: list[StageRead]
    error: str | None
    text: str | None = Field(description="The YAML it was written in, if it was.")
    definition: PipelineDefinition


class PipelineCheck(BaseModel):
    """A definition that passed every check, and the order it would run in."""

    name: str
    layers: list[list[str]]
