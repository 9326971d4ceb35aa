"""The engine interface and registry.

An engine never starts processes itself: it describes one (a LaunchSpec) and a runner executes it,
so the same engine runs locally, over SSH or on Ray.
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from training_platform.errors import FieldError, InvalidInputError
from training_platform.jobs.layout import JobLayout
from training_platform.jobs.params import Algorithm, TrainingParams


@dataclass(frozen=True)
class LaunchSpec:
    argv: list[str]
    cwd: Path
    env: dict[str, str] = field(default_factory=dict)


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
class RunRequest:
    """Everything an engine needs to know about a job to launch it."""

    job_id: str
    algorithm: Algorithm
    model_path: str
    dataset_paths: list[str]
    eval_dataset_path: str | None
    params: TrainingParams
    layout: JobLayout
    dataset_fields: dict[str, dict[str, str]] = field(default_factory=dict)  # field mapping per data path
    run_mode: str = "local"


class Engine(ABC):
    name: str
    algorithms: frozenset[Algorithm]

    def check(self, request: RunRequest) -> list[FieldError]:
        """Engine-specific reasons to refuse a job (of a supported algorithm) before anything is created."""
        return []

    def runnable_here(self, algorithm: Algorithm) -> bool:
        """Whether this machine has what the engine needs for `algorithm` (asked when the user chose auto)."""
        return algorithm in self.algorithms

    @abstractmethod
    def export(self, checkpoint: CheckpointInfo, target: Path) -> Path:
        """Write `checkpoint` as a Hugging Face model directory at `target` (whole, or not at all)."""

    def unsupported_message(self, algorithm: Algorithm) -> str:
        supported = ", ".join(sorted(self.algorithms))
        return f"the {self.name} engine does not run {algorithm.value}; it runs {supported}"

    @abstractmethod
    def launch_spec(self, request: RunRequest, cpu_threads: int) -> LaunchSpec:
        """Write what the process needs into the job's directory and describe how to start it."""

    @abstractmethod
    def list_checkpoints(self, layout: JobLayout) -> list[CheckpointInfo]:
        """Checkpoints in step order, then the exported final model if there is one."""

    def latest_complete_checkpoint(self, layout: JobLayout) -> CheckpointInfo | None:
        return latest_complete(self.list_checkpoints(layout))


def latest_complete(checkpoints: list[CheckpointInfo]) -> CheckpointInfo | None:
    """The resumable checkpoint with the highest step, ignoring torn ones."""
    complete = [c for c in checkpoints if c.kind == "checkpoint" and c.complete]
    return max(complete, key=lambda c: c.step) if complete else None


_ENGINES: dict[str, Engine] = {}


def register_engine(engine: Engine) -> Engine:
    _ENGINES[engine.name] = engine
    return engine


def available_engines() -> list[str]:
    _load_builtin_engines()
    return sorted(_ENGINES)


AUTO = "auto"
AUTO_PREFERENCE = ("verl", "trl")  # the platform is built on verl; TRL where verl cannot run here


def choose_engine(name: str, algorithm: Algorithm) -> Engine:
    """The engine a job asked for, or for `auto` the first in AUTO_PREFERENCE that can run it here."""
    if name != AUTO:
        return get_engine(name)
    _load_builtin_engines()
    candidates = [_ENGINES[n] for n in AUTO_PREFERENCE if n in _ENGINES]
    runnable = [engine for engine in candidates if engine.runnable_here(algorithm)]
    supporting = [engine for engine in candidates if algorithm in engine.algorithms]
    return (runnable or supporting or candidates)[0]


def get_engine(name: str) -> Engine:
    _load_builtin_engines()
    try:
        return _ENGINES[name]
    except KeyError:
        raise InvalidInputError(
            [FieldError("engine", f"unknown engine '{name}'; available: {', '.join(sorted(_ENGINES))}")]
        ) from None


def _load_builtin_engines() -> None:
    # Imported on first use so the API does not pay for engines it is not asked about.
    import training_platform.engines.trl.engine  # noqa: F401
    import training_platform.engines.verl.engine  # noqa: F401
