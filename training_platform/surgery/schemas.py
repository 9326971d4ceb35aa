"""What the surgery API accepts and returns. Models are named as anywhere a model is chosen: a directory under the
data roots, `job:<job>`, `job:<job>@<checkpoint>` or `model:<name>` (GET /models/choices lists them)."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from training_platform.contract.params import MAX_STEPS
from training_platform.contract.surgery import (
    MAX_INPUTS,
    MAX_PATH,
    MergeMethod,
    MethodSpec,
    OutputDtype,
    ParameterValue,
    SurgeryParams,
)
from training_platform.jobs.schemas import JobName, RunMode

_RUN_FIELDS = SurgeryParams.model_fields  # described once, in the contract
ModelReference = str  # validated (and resolved) by the service, which names the field


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RunOptions(StrictModel):
    name: JobName = Field(description="The run's job name; its result is registered as a model of this name.")
    dtype: OutputDtype | None = Field(default=None, description=_RUN_FIELDS["dtype"].description)
    num_gpus: int = Field(default=0, ge=0, le=1, description=_RUN_FIELDS["num_gpus"].description)
    start: bool = Field(default=True, description="Start the run now (it queues behind others for a GPU).")
    run_mode: RunMode = "local"


class MergeModelRequest(StrictModel):
    model: ModelReference = Field(min_length=1, max_length=MAX_PATH)
    parameters: dict[str, float] = Field(default={}, description="Per model: weight, density (as the method takes).")


class MergeRequest(RunOptions):
    """A merge as the API's JSON, or as mergekit's own YAML (`recipe`), not both."""

    method: MergeMethod | None = None
    models: list[MergeModelRequest] | None = Field(default=None, max_length=MAX_INPUTS)
    base_model: ModelReference | None = Field(default=None, max_length=MAX_PATH)
    parameters: dict[str, ParameterValue] = Field(default={}, description="The method's global parameters.")
    random_seed: int = Field(default=0, ge=0, le=2**32 - 1, description="For DARE's random drops.")
    recipe: str | None = Field(
        default=None, max_length=1 << 20, description="A mergekit YAML recipe, run as mergekit would run it."
    )


class AverageRequest(RunOptions):
    job: str = Field(min_length=1, max_length=200, description="The job whose checkpoints are averaged.")
    mode: Literal["swa", "ema"] = "swa"
    decay: float = Field(default=0.9, gt=0, lt=1, description="EMA: each older checkpoint weighs `decay` x the next.")
    from_step: int | None = Field(default=None, ge=0, le=MAX_STEPS)
    to_step: int | None = Field(default=None, ge=0, le=MAX_STEPS)


class LoraFoldRequest(RunOptions):
    adapter: ModelReference = Field(min_length=1, max_length=MAX_PATH, description="A peft adapter directory.")
    base_model: ModelReference | None = Field(
        default=None, max_length=MAX_PATH, description="Unset: the model the adapter's job trained from."
    )


SelectionRule = Literal["lowest_eval_loss", "highest_reward_mean", "last", "metric"]


class SelectRequest(StrictModel):
    job: str = Field(min_length=1, max_length=200)
    rule: SelectionRule = "lowest_eval_loss"
    key: str | None = Field(default=None, max_length=200, description="rule 'metric': the recorded key.")
    mode: Literal["min", "max"] | None = Field(default=None, description="rule 'metric': lowest or highest wins.")
    from_step: int | None = Field(default=None, ge=0, le=MAX_STEPS)
    to_step: int | None = Field(default=None, ge=0, le=MAX_STEPS)


class SelectedCheckpoint(BaseModel):
    name: str
    step: int
    reference: str = Field(description="How to name it wherever a model is chosen: job:<job>@<checkpoint>.")
    path: str
    value: float | None = Field(description="The metric's value for it; None for rule 'last'.")
    value_step: int | None = Field(description="The step the value was recorded at (at or before the checkpoint's).")


class SelectionRead(BaseModel):
    job_id: str
    job_name: str
    rule: SelectionRule
    key: str | None
    mode: Literal["min", "max"] | None
    checkpoint: SelectedCheckpoint
    runner_up: SelectedCheckpoint | None
    considered: int = Field(description="Complete checkpoints in the range with a value.")
    reason: str


class ModelChoice(BaseModel):
    """A model that can be chosen: a registered one, a job's final model, or a complete checkpoint of a job."""

    reference: str
    label: str
    path: str
    kind: Literal["registered", "final", "checkpoint"]
    adapter: bool = Field(description="A LoRA adapter (fold it into its base to use it as a model).")
    job_id: str | None
    job_name: str | None
    algorithm: str | None
    step: int | None
    metrics: dict[str, float] = Field(description="The job's recorded values at the checkpoint's step.")


class MergeMethodRead(BaseModel):
    """A merge method as the page that offers it shows it: its help and what it takes (None: required)."""

    name: str
    help: str
    base: Literal["required", "optional", "none"]
    per_model: dict[str, float | None]
    parameters: dict[str, float | bool | None]
    min_models: int
    max_models: int | None
    reference: str

    @classmethod
    def of(cls, name: str, spec: MethodSpec) -> "MergeMethodRead":
        return cls(
            name=name,
            help=spec.help,
            base=spec.base,
            per_model=spec.per_model,
            parameters=spec.global_,
            min_models=spec.min_models,
            max_models=spec.max_models,
            reference=spec.reference,
        )
