"""Requests and answers of the evaluation API: a run, a sweep over a job's checkpoints, a run's results and samples,
a comparison of runs on the same dataset, a job's evaluation curve."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from training_platform.contract.evaluation import (
    METRICS,
    ApiTarget,
    Estimate,
    EvalResults,
    GenerationSettings,
    MetricInfo,
    MetricSpec,
    SampleRecord,
)
from training_platform.jobs.schemas import JobName, JobRead, RunMode

MAX_COMPARED = 5
Direction = Literal["improved", "regressed", "unchanged"]


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ModelTargetRequest(StrictModel):
    """A model to generate from in the run's process: a reference the platform resolves to a model directory."""

    kind: Literal["model"] = "model"
    model: str = Field(
        min_length=1,
        max_length=4096,
        description="job:<job> (its final model), job:<job>@<checkpoint>, model:<registered name>, or a directory.",
    )
    batch_size: int = Field(default=8, ge=1, le=512, description="Prompts generated together.")


TargetRequest = Annotated[ModelTargetRequest | ApiTarget, Field(discriminator="kind")]


class MetricRequest(MetricSpec):
    target: TargetRequest | None = None  # a judge: the model or endpoint that judges


class EvalSettings(StrictModel):
    """What a run and a sweep share: the dataset, the metrics, how answers are generated."""

    dataset: str = Field(min_length=1, max_length=200, description="A registered eval dataset, by name or id.")
    metrics: list[MetricRequest] = Field(min_length=1, max_length=16)
    generation: GenerationSettings = GenerationSettings()
    limit: int | None = Field(default=None, ge=1, le=1_000_000, description="Only the first `limit` samples.")
    bootstrap_resamples: int = Field(default=1000, ge=100, le=100_000)
    confidence: float = Field(default=0.95, gt=0.5, lt=1)
    num_gpus: int = Field(default=0, ge=0, le=1)
    start: bool = True
    run_mode: RunMode = "local"


class EvalRequest(EvalSettings):
    name: JobName | None = Field(default=None, description="The run's job name; default: made from the target's.")
    target: TargetRequest


class SweepRequest(EvalSettings):
    """Evaluate a job's complete checkpoints, every `every`-th of them (its last one always), and its final model."""

    job: str = Field(min_length=1, max_length=200)
    every: int = Field(default=1, ge=1, le=10_000)
    include_final: bool = True
    batch_size: int = Field(default=8, ge=1, le=512)


class MetricRead(BaseModel):
    name: str
    help: str
    needs: list[str]
    keys: list[str]
    scale: str
    library: str
    options: list[str]

    @classmethod
    def of(cls, name: str, info: MetricInfo) -> "MetricRead":
        return cls(
            name=name,
            help=info.help,
            needs=list(info.needs),
            keys=list(info.keys),
            scale=info.scale,
            library=info.library,
            options=list(info.options),
        )


def metric_table() -> list[MetricRead]:
    return [MetricRead.of(name, info) for name, info in METRICS.items()]


class EvalRunRead(BaseModel):
    """A run: its job, what it evaluated on what, how far it is, and its results once complete."""

    job: JobRead
    dataset: str | None
    dataset_sha256: str | None
    target: str  # the model's directory, or the endpoint's model name and URL
    source_job: str | None = None  # the job whose model or checkpoint was evaluated
    step: int | None = None  # that checkpoint's step
    metric_keys: list[str]
    scored: int
    total: int | None
    results: EvalResults | None


class SamplesPage(BaseModel):
    total: int
    offset: int
    items: list[SampleRecord]


class CompareRequest(StrictModel):
    runs: list[str] = Field(min_length=2, description=f"2 to {MAX_COMPARED} runs on the same dataset, by name or id.")
    baseline: str | None = Field(default=None, description="The run the others are compared to; default the first.")
    metric: str | None = Field(default=None, description="The metric key a sample's direction is read from.")
    category: str | None = None
    direction: Direction | None = None
    search: str | None = Field(
        default=None, max_length=200, description="Text in the prompt, a reference or an answer."
    )
    offset: int = Field(default=0, ge=0)
    limit: int = Field(default=50, ge=1, le=500)


class Difference(BaseModel):
    """A run's aggregate minus the baseline's, with the paired bootstrap interval of the difference."""

    value: float | None
    low: float | None = None
    high: float | None = None


class MetricComparison(BaseModel):
    key: str
    values: dict[str, Estimate]  # run name → its aggregate
    differences: dict[str, Difference]  # run name (not the baseline) → against the baseline


class CategoryComparison(BaseModel):
    category: str
    size: int
    values: dict[str, dict[str, float | None]]  # run name → metric key → aggregate


class SampleComparison(BaseModel):
    index: int
    category: str | None
    prompt: str | list[dict]
    references: list[str]
    outputs: dict[str, list[str]]  # run name → answers
    values: dict[str, dict[str, float | None]]  # run name → metric key → value
    directions: dict[str, Direction]  # run name (not the baseline) → against the baseline on `metric`


class ComparisonRead(BaseModel):
    runs: list[str]
    baseline: str
    metric: str
    dataset: str | None
    metrics: list[MetricComparison]
    categories: list[CategoryComparison]
    counts: dict[str, dict[Direction, int]]  # run name → samples improved / regressed / unchanged on `metric`
    total: int  # samples matching the filters
    samples: list[SampleComparison]


class CurvePoint(BaseModel):
    run: str
    status: str
    step: int | None  # None: the job's final model
    checkpoint: str | None
    values: dict[str, Estimate]


class CurveRead(BaseModel):
    job: str
    metric_keys: list[str]
    points: list[CurvePoint]
