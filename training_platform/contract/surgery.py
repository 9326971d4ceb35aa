"""Model surgery runs: a merge, a weight average or a LoRA fold, each one validated model discriminated by
`algorithm` like a training job's parameters (contract/params.py), so a surgery run is a job of its own kind: the
same table, queue, supervisor, status file, logs, stop and events (docs/surgery.md).

The merge vocabulary is mergekit's (its YAML's keys, its method names and parameters): a recipe written for
mergekit means the same here. `MERGE_METHODS` is the platform's table of the methods it offers; a test holds it to
mergekit's own registry, so a renamed parameter or a changed default is caught rather than retyped.
"""

from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

MAX_INPUTS = 64  # models of one merge, checkpoints of one average
MAX_PATH = 4096


class SurgeryOperation(StrEnum):
    MERGE = "merge"
    AVERAGE = "average"
    LORA_FOLD = "lora_fold"


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ModelSource(StrictModel):
    """One input: a model directory, and where it came from when it is a job's output (for the lineage)."""

    path: str = Field(min_length=1, max_length=MAX_PATH)
    job_id: str | None = None
    job_name: str | None = None
    step: int | None = None  # the checkpoint's step; None for a final model or a model not made by a job


@dataclass(frozen=True)
class MethodSpec:
    """What a merge method takes, in mergekit's terms: whether a base model is required, its parameters per input
    model and its global ones (with mergekit's defaults), and how many models it merges."""

    help: str
    base: Literal["required", "optional", "none"]
    per_model: dict[str, float | None]  # parameter → default (None: required)
    global_: dict[str, float | bool | None]
    min_models: int = 1
    max_models: int | None = None
    reference: str = ""


_GTA_HELP = "adds each model's difference from the base (its task vector) to the base, weighted"
_DARE_GLOBALS: dict[str, float | bool | None] = {"normalize": False, "rescale": True, "int8_mask": False, "lambda": 1.0}
MERGE_METHODS: dict[str, MethodSpec] = {
    "linear": MethodSpec(
        help="A weighted average of the models' weights (model soup); weights are normalised to sum to 1 by default.",
        base="optional",  # mergekit takes one and weighs it like the others
        per_model={"weight": None},
        global_={"normalize": True},
        reference="https://arxiv.org/abs/2203.05482",
    ),
    "task_arithmetic": MethodSpec(
        help=f"Task arithmetic: {_GTA_HELP}; lambda scales the sum.",
        base="required",
        per_model={"weight": None, "density": 1.0},  # density: accepted as mergekit does, and unused
        global_={"normalize": False, "rescale": False, "int8_mask": False, "lambda": 1.0},
        reference="https://arxiv.org/abs/2212.04089",
    ),
    "ties": MethodSpec(
        help=f"TIES: {_GTA_HELP}, after keeping each task vector's largest `density` share and a sign election.",
        base="required",
        per_model={"weight": None, "density": 1.0},
        global_={"normalize": True, "rescale": False, "int8_mask": False, "lambda": 1.0},
        reference="https://arxiv.org/abs/2306.01708",
    ),
    "dare_ties": MethodSpec(
        help=f"DARE with TIES: {_GTA_HELP}, after dropping task-vector entries at random (keeping `density`, "
        "rescaled) and a sign election.",
        base="required",
        per_model={"weight": None, "density": 1.0},
        global_=_DARE_GLOBALS,
        reference="https://arxiv.org/abs/2311.03099",
    ),
    "dare_linear": MethodSpec(
        help=f"DARE: {_GTA_HELP}, after dropping task-vector entries at random (keeping `density`, rescaled).",
        base="required",
        per_model={"weight": None, "density": 1.0},
        global_=_DARE_GLOBALS,
        reference="https://arxiv.org/abs/2311.03099",
    ),
    "slerp": MethodSpec(
        help="Spherical interpolation between two models: t=0 is the base, t=1 the other; a list of t values is a "
        "gradient over the layers (the first for the first layers, the last for the last).",
        base="required",
        per_model={},
        global_={"t": None},
        min_models=2,
        max_models=2,
        reference="https://en.wikipedia.org/wiki/Slerp",
    ),
}
MergeMethod = Literal[tuple(MERGE_METHODS)]
OutputDtype = Literal["float32", "float16", "bfloat16"]
# A parameter is a number, or for SLERP's t a gradient: values spread over the layers by mergekit.
ParameterValue = float | bool | Annotated[list[float], Field(min_length=1, max_length=1024)]


class MergeModel(StrictModel):
    model: ModelSource
    parameters: dict[str, float] = {}


class SurgeryParams(StrictModel):
    # A surgery run reads and writes weights on the CPU (0), or computes on one GPU (1).
    num_gpus: int = Field(default=0, ge=0, le=1, description="0: on the CPU; 1: the arithmetic on one GPU.")
    dtype: OutputDtype | None = Field(
        default=None,
        description="The dtype the weights are combined and written in; unset: the base model's (or the first's).",
    )


class MergeParams(SurgeryParams):
    """A merge. What does not fit the method is refused as "<field>: <why>" (`located_errors` names the field)."""

    algorithm: Literal["merge"] = "merge"
    method: MergeMethod
    models: list[MergeModel] = Field(min_length=1, max_length=MAX_INPUTS)
    base_model: ModelSource | None = None
    parameters: dict[str, ParameterValue] = {}
    random_seed: int = Field(default=0, ge=0, le=2**32 - 1, description="For DARE's random drops.")

    @model_validator(mode="after")
    def _fits_the_method(self) -> "MergeParams":
        spec = MERGE_METHODS[self.method]
        count = len(self.models) + (1 if self.base_listed_apart else 0)
        if count < spec.min_models or (spec.max_models is not None and count > spec.max_models):
            exactly = spec.min_models if spec.min_models == spec.max_models else None
            wanted = f"exactly {exactly}" if exactly else f"at least {spec.min_models}"
            raise ValueError(f"models: {self.method} merges {wanted} models (the base included); {count} given")
        if spec.base == "required" and self.base_model is None:
            raise ValueError(f"base_model: {self.method} needs one")
        if spec.base == "optional" and self.base_listed_apart:
            raise ValueError(f"base_model: {self.method} weighs every model: list it among models, with its weight")
        if spec.base == "none" and self.base_model is not None:
            raise ValueError(f"base_model: {self.method} takes none")
        for name, value in self.parameters.items():
            if name not in spec.global_:
                raise ValueError(f"parameters.{name}: {self.method} takes {_names(spec.global_)}")
            if isinstance(value, list) and name != "t":
                raise ValueError(f"parameters.{name}: a number, not a list")
        missing = [name for name, default in spec.global_.items() if default is None and name not in self.parameters]
        if missing:
            raise ValueError(f"parameters.{missing[0]}: {self.method} needs it")
        for index, entry in enumerate(self.models):
            # A required base is what the others' task vectors start from: it takes no weight of its own.
            base = self.base_model if spec.base == "required" else None
            is_base = base is not None and entry.model.path == base.path
            for name in entry.parameters:
                if name not in spec.per_model:
                    raise ValueError(f"models.{index}.parameters.{name}: {self.method} takes {_names(spec.per_model)}")
            required = [name for name, default in spec.per_model.items() if default is None]
            if not is_base and (missing := [name for name in required if name not in entry.parameters]):
                raise ValueError(f"models.{index}.parameters.{missing[0]}: {self.method} needs it for every model")
            if (density := entry.parameters.get("density")) is not None and not 0 < density <= 1:
                raise ValueError(f"models.{index}.parameters.density: between 0 (excluded) and 1")
        if (t := self.parameters.get("t")) is not None and not all(0 <= v <= 1 for v in _as_list(t)):
            raise ValueError("parameters.t: each value between 0 and 1")
        return self

    @property
    def base_listed_apart(self) -> bool:
        """The base model is not one of `models` (mergekit takes it either way)."""
        return self.base_model is not None and all(m.model.path != self.base_model.path for m in self.models)

    @property
    def sources(self) -> list[ModelSource]:
        """Every input once: the base first when it is listed apart, then the models."""
        listed = [entry.model for entry in self.models]
        return [*([self.base_model] if self.base_listed_apart else []), *listed]


class AverageParams(SurgeryParams):
    """Weight averaging over checkpoints, oldest first: SWA weighs them equally; EMA weighs checkpoint i of n by
    decay^(n-1-i), normalised, so the newest weighs most."""

    algorithm: Literal["average"] = "average"
    mode: Literal["swa", "ema"] = "swa"
    decay: float = Field(default=0.9, gt=0, lt=1, description="EMA: each older checkpoint weighs `decay` x the next.")
    checkpoints: list[ModelSource] = Field(min_length=2, max_length=MAX_INPUTS)

    @property
    def sources(self) -> list[ModelSource]:
        return list(self.checkpoints)

    def weights(self) -> list[float]:
        count = len(self.checkpoints)
        raw = [1.0] * count if self.mode == "swa" else [self.decay ** (count - 1 - i) for i in range(count)]
        total = sum(raw)
        return [value / total for value in raw]


class LoraFoldParams(SurgeryParams):
    algorithm: Literal["lora_fold"] = "lora_fold"
    base_model: ModelSource
    adapter: ModelSource

    @property
    def sources(self) -> list[ModelSource]:
        return [self.base_model, self.adapter]


AnySurgeryParams = Annotated[MergeParams | AverageParams | LoraFoldParams, Field(discriminator="algorithm")]
SURGERY_PARAMS: dict[SurgeryOperation, type[SurgeryParams]] = {
    SurgeryOperation.MERGE: MergeParams,
    SurgeryOperation.AVERAGE: AverageParams,
    SurgeryOperation.LORA_FOLD: LoraFoldParams,
}
SURGERY_RECORD = "surgery.json"  # written into every result: the operation, its inputs with hashes, its parameters


class SurgeryRecord(StrictModel):
    """`surgery.json` in a result's directory: what made it."""

    operation: SurgeryOperation
    job_id: str
    inputs: list[dict]  # each ModelSource's fields plus `sha256` of its weight files
    parameters: dict
    platform_version: str
    seconds: float

    @field_validator("inputs")
    @classmethod
    def _hashed(cls, value: list[dict]) -> list[dict]:
        if any("sha256" not in entry for entry in value):
            raise ValueError("every input carries its sha256")
        return value


def located(message: str) -> tuple[str | None, str]:
    """A whole-model validation message of the form "<field>: <why>" as (field, why); (None, message) otherwise."""
    field, separator, why = message.partition(": ")
    if separator and all(part.isidentifier() or part.isdigit() for part in field.split(".")):
        return field, why
    return None, message


def _names(table: dict) -> str:
    return ", ".join(table) if table else "no parameters"


def _as_list(value: ParameterValue) -> list[float]:
    return value if isinstance(value, list) else [float(value)]
