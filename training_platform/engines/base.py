"""The engine interface: what an engine can run, and how a run becomes its configuration and its process.

An engine never starts processes itself: it describes one (a LaunchSpec) and a runner executes it, so the same
engine runs locally or on a Ray cluster. Engines are found by name through `engines/registry.py`.
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from training_platform.common.progress import ProgressCallback, ignore_progress
from training_platform.contract.layout import JobLayout
from training_platform.contract.params import Algorithm, TrainingParams
from training_platform.contract.run import LaunchSpec, RunSpec
from training_platform.errors import FieldError


@dataclass(frozen=True)
class CheckpointInfo:
    name: str
    step: int | None
    path: Path
    complete: bool
    kind: str  # "checkpoint" (resumable) or "final" (exported model)
    created_at: datetime
    size_bytes: int


@dataclass(frozen=True)
class Capabilities:
    """What an engine can run, wherever it runs: the configurator searches only within it, and a job outside
    it is refused before anything is created."""

    algorithms: frozenset[Algorithm]
    devices: frozenset[str]  # kinds of device it trains on: "cuda", "mps", "cpu"
    max_devices: int | None  # devices one job can use; None: as many as the job asks for
    # Memory strategies it applies (the configurator's terms): ZeRO/FSDP stages, and CPU offloading.
    zero_stages: frozenset[int]
    cpu_offload: bool
    # Automatic actions (contract/health.py ActionSettings) its trainer takes by itself, within the step: pausing
    # before a non-finite step is saved, lowering the learning rate live. The platform takes the others from outside.
    trainer_actions: frozenset[str] = frozenset()


class Engine(ABC):
    name: ClassVar[str]
    capabilities: ClassVar[Capabilities]

    @property
    def algorithms(self) -> frozenset[Algorithm]:
        return self.capabilities.algorithms

    def unsupported_message(self, algorithm: Algorithm) -> str:
        supported = ", ".join(sorted(self.algorithms))
        return f"the {self.name} engine does not run {algorithm.value}; it runs {supported}"

    def unsupported(self, algorithm: Algorithm, num_gpus: int, device: str | None = None) -> FieldError | None:
        """Why the engine cannot run `algorithm` on `num_gpus` devices (of kind `device`, when given), if it cannot."""
        if algorithm not in self.algorithms:
            return FieldError("algorithm", self.unsupported_message(algorithm))
        limit = self.capabilities.max_devices
        if limit is not None and num_gpus > limit:
            devices = "one device" if limit == 1 else f"at most {limit} devices"
            return FieldError("params.num_gpus", f"the {self.name} engine trains on {devices} per job")
        if device is not None and device not in self.capabilities.devices:
            return FieldError("gpu", f"the {self.name} engine does not train on {device} devices")
        return None

    def supports(self, algorithm: Algorithm, num_gpus: int, device: str | None = None) -> bool:
        return self.unsupported(algorithm, num_gpus, device) is None

    def refusals(self, params: TrainingParams) -> list[FieldError]:
        """Why this engine can never run a job with `params`, whatever the machine (empty if it can)."""
        if error := self.unsupported(Algorithm(params.algorithm), params.num_gpus):
            return [error]
        if params.cpu_offload != "none" and not self.capabilities.cpu_offload:
            return [FieldError("params.cpu_offload", f"the {self.name} engine does not offload to CPU memory")]
        stages = self.capabilities.zero_stages
        if params.zero_stage is not None and params.zero_stage not in stages:
            applied = ", ".join(str(stage) for stage in sorted(stages))
            message = f"the {self.name} engine does not shard with zero_stage {params.zero_stage}; it applies {applied}"
            return [FieldError("params.zero_stage", message)]
        return []

    def check(self, spec: RunSpec) -> list[FieldError]:
        """Why this job cannot run here (the engine's environment, its own validation); empty if it can."""
        return []

    def runnable_here(self, algorithm: Algorithm) -> bool:
        """Whether this machine has what the engine needs for `algorithm` (asked when the user chose auto)."""
        return algorithm in self.algorithms

    @abstractmethod
    def render(self, spec: RunSpec, device: str) -> dict[str, Any]:
        """The engine's own configuration of the run on `device` ("cuda", "cpu", "mps"), as a user running the
        engine by hand would write it (verl: the command's overrides; TRL: the trainer's arguments)."""

    @abstractmethod
    def launch_spec(self, spec: RunSpec) -> LaunchSpec:
        """Write what the process needs into the job's directory and describe how to start it."""

    @abstractmethod
    def list_checkpoints(self, layout: JobLayout) -> list[CheckpointInfo]:
        """Checkpoints in step order, then the exported final model if there is one."""

    def latest_complete_checkpoint(self, layout: JobLayout) -> CheckpointInfo | None:
        return latest_complete(self.list_checkpoints(layout))

    @abstractmethod
    def export(self, checkpoint: CheckpointInfo, target: Path, progress: ProgressCallback = ignore_progress) -> Path:
        """Write `checkpoint` as a Hugging Face model directory at `target` (whole, or not at all)."""


def latest_complete(checkpoints: list[CheckpointInfo]) -> CheckpointInfo | None:
    """The resumable checkpoint with the highest step, ignoring torn ones."""
    complete = [c for c in checkpoints if c.kind == "checkpoint" and c.complete]
    return max(complete, key=lambda c: c.step) if complete else None
