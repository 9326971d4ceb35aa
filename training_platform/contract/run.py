"""What a run is (RunSpec) and how its process is started (LaunchSpec).

The RunSpec is the one description of a job's run: the platform builds it from the job, each engine turns it
into its own configuration, and it is written into the job's directory as `run_config.json`, which is what the
TRL engine's training process reads.
"""

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from training_platform.contract.data import DataFormat
from training_platform.contract.evaluation import EVALUATE, EvalParams
from training_platform.contract.health import HealthSettings
from training_platform.contract.layout import JobLayout
from training_platform.contract.params import Algorithm, AnyParams, TrainingParams, parse_params
from training_platform.contract.surgery import (
    SURGERY_PARAMS,
    AverageParams,
    LoraFoldParams,
    MergeParams,
    SurgeryOperation,
    SurgeryParams,
)

# Settings of the engine the platform does not model (docs/jobs.md, "Engine settings"): TRL config fields, verl
# overrides, passed on as they are after the engine's own checks (engines/trl/settings.py, engines/verl/settings.py).
# Values are data: scalars, or lists of them; a mapping would be a config the platform cannot read through.
SettingKey = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$", max_length=200)]
SettingScalar = bool | int | float | Annotated[str, StringConstraints(max_length=1000)] | None
EngineSettings = Annotated[
    dict[SettingKey, SettingScalar | Annotated[list[SettingScalar], Field(max_length=64)]], Field(max_length=64)
]


class RunSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    job_id: str
    model_path: str
    dataset_paths: list[str]
    eval_dataset_path: str | None = None
    # Data format of each data path that came from a registered dataset (a preset, a field mapping, a split).
    dataset_formats: dict[str, DataFormat] = {}
    # A training run's parameters, or a surgery run's (contract/surgery.py) or an evaluation's
    # (contract/evaluation.py): a job of another kind.
    params: Annotated[
        AnyParams | MergeParams | AverageParams | LoraFoldParams | EvalParams, Field(discriminator="algorithm")
    ]
    output_dir: str
    run_mode: str = "local"
    # Run mode ray: the cluster's nodes the run spans, params.num_gpus split evenly over them, each placed by Ray.
    # None: the run's processes stay on the machine where it starts (run mode local, a cluster without GPUs).
    nnodes: int | None = Field(default=None, ge=1)
    # The run starts inside a Ray cluster its runner provides (runners/base.py): verl joins it instead of starting one.
    in_ray_cluster: bool = False
    cpu_threads: int = Field(default=0, ge=0, description="torch threads of the process on CPU; 0 lets torch decide.")
    # What the trainer honours itself: the automatic actions it takes, per-layer gradient norms for the heatmap.
    health: HealthSettings = HealthSettings()
    engine_settings: EngineSettings = {}

    @model_validator(mode="after")
    def _devices_split_evenly_over_nodes(self) -> "RunSpec":
        if self.nnodes is not None and self.params.num_gpus % self.nnodes:
            raise ValueError(f"params.num_gpus ({self.params.num_gpus}) does not split evenly over {self.nnodes} nodes")
        return self

    @property
    def algorithm(self) -> Algorithm:
        return Algorithm(self.params.algorithm)

    @property
    def gpus_per_node(self) -> int:
        return self.params.num_gpus // (self.nnodes or 1)

    @property
    def layout(self) -> JobLayout:
        return JobLayout(self.job_id, Path(self.output_dir))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.model_dump_json(indent=1), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> "RunSpec":
        return cls.model_validate_json(path.read_text(encoding="utf-8"))


def parse_run_params(kind: str, params: dict) -> TrainingParams | SurgeryParams | EvalParams:
    """A job's stored parameters for its kind: a training algorithm, a surgery operation or an evaluation; raises
    pydantic.ValidationError naming the field."""
    if kind == EVALUATE:
        return EvalParams.model_validate({**params, "algorithm": kind})
    if kind in set(SurgeryOperation):
        return SURGERY_PARAMS[SurgeryOperation(kind)].model_validate({**params, "algorithm": kind})
    return parse_params(Algorithm(kind), params)


@dataclass(frozen=True)
class LaunchSpec:
    """A process to start: an engine describes it, a runner starts it (locally, on Ray)."""

    argv: list[str]
    cwd: Path
    env: dict[str, str] = field(default_factory=dict)
