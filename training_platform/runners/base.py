"""The runner interface: the same verbs for a local process and a Ray job.

Every run is started under a launch id the platform chose and recorded before asking for it: a local process
carries it in its environment, a Ray job as its submission id. A server that stopped between starting a run and
recording its handle finds the run again by that id (`find`), so no process runs unknown to the database."""

import signal
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from training_platform.common.text import Text
from training_platform.contract.run import LaunchSpec


@dataclass(frozen=True)
class OutputFiles:
    """Where a run's output goes (a runner without separate streams writes both to stdout)."""

    stdout: Path
    stderr: Path


@dataclass(frozen=True)
class ProcessHandle:
    """A run as its runner finds it again: `ref` is the runner's own locator (a local pid as text, a Ray submission
    id); nothing outside the runner reads it, except to record it."""

    ref: str
    # When it started (for a local process, the OS's start time: a pid alone may be reused after a restart).
    started_at: float
    # The run's main process where it runs on this machine (its system metrics are sampled from it); else None.
    local_pid: int | None = None


@dataclass(frozen=True)
class ExitInfo:
    code: int | None  # None when the exit status could not be observed
    signal: int | None = None
    description: str | None = None  # the runner's own account, where it has one (e.g. "Ray job failed")

    @property
    def succeeded(self) -> bool:
        return self.code == 0

    def describe(self) -> str:
        return self.text().render()

    def text(self) -> Text:
        if self.description:
            return Text.literal(self.description)  # the runner's words (Ray's), or a text rendered already
        if self.signal is not None:
            return Text.of("process.killed", signal=signal.Signals(self.signal).name)
        if self.code is None:
            return Text.of("process.unknown")
        return Text.of("process.exited", code=self.code)


class Runner(ABC):
    mode: str
    # Its runs start inside a Ray cluster it provides (a Ray job): an engine that uses Ray joins that cluster rather
    # than starting one of its own.
    in_ray_cluster: bool = False

    @abstractmethod
    def start(self, spec: LaunchSpec, output: OutputFiles, launch_id: str) -> ProcessHandle:
        """Start the process under `launch_id` (recorded by the caller beforehand), its output appended to the
        files."""

    @abstractmethod
    def find(self, launch_id: str) -> ProcessHandle | None:
        """The run started under `launch_id` if it is still going, else None (what is left of it is ended)."""

    @abstractmethod
    def watch(self, handle: ProcessHandle, output: OutputFiles, on_exit: Callable[[ExitInfo], None]) -> None:
        """Call `on_exit` once, from another thread, when the process ends (also for processes adopted after a
        restart of the server, whose output keeps going to the files)."""

    @abstractmethod
    def is_alive(self, handle: ProcessHandle) -> bool:
        """True if this exact process (pid and start time) still runs."""

    @abstractmethod
    def stop(self, handle: ProcessHandle, grace_seconds: float) -> bool:
        """Stop the run (gently, then by force after the grace period); whether all of it is gone."""

    def devices(self) -> list[int] | None:
        """The GPUs this runner gives its runs, one run per device at a time, which the platform's queue allocates
        (jobs/scheduler.py); None where the runner's cluster allocates its own (Ray). Empty: runs use the CPU."""
        return None

    def cpu_processes(self) -> int | None:
        """Where this runner's runs use the CPU (`devices` empty), the most training processes one run may start
        (its `num_gpus`); None where no such bound applies."""
        return None

    def nodes_for(self, num_gpus: int) -> int | None:
        """How many nodes a run of `num_gpus` GPUs spans; None: its processes stay on the machine it starts on."""
        return None

    @abstractmethod
    def clean_up(self, handle: ProcessHandle) -> None:
        """End what is left of a run whose main process is gone (its workers), found so after a restart."""
