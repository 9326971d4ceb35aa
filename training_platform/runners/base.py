"""The runner interface: the same five verbs for a local process, an SSH process or a Ray job."""

import signal
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from training_platform.engines.base import LaunchSpec


@dataclass(frozen=True)
class ProcessHandle:
    pid: int
    # The OS's start time of the process: a pid alone may be reused after a restart.
    started_at: float


@dataclass(frozen=True)
class ExitInfo:
    code: int | None  # None when the exit status could not be observed
    signal: int | None = None

    @property
    def succeeded(self) -> bool:
        return self.code == 0

    def describe(self) -> str:
        if self.signal is not None:
            return f"killed by signal {signal.Signals(self.signal).name}"
        if self.code is None:
            return "exit status unknown (the process was not started by this server)"
        return f"exited with code {self.code}"


class Runner(ABC):
    mode: str

    @abstractmethod
    def start(self, spec: LaunchSpec, stdout_path: Path, stderr_path: Path) -> ProcessHandle:
        """Start the process in its own process group, its output appended to the two files."""

    @abstractmethod
    def watch(self, handle: ProcessHandle, on_exit: Callable[[ExitInfo], None]) -> None:
        """Call `on_exit` once, from another thread, when the process ends (also for adopted processes)."""

    @abstractmethod
    def is_alive(self, handle: ProcessHandle) -> bool:
        """True if this exact process (pid and start time) still runs."""

    @abstractmethod
    def stop(self, handle: ProcessHandle, grace_seconds: float) -> None:
        """SIGTERM the process group, SIGKILL whatever is left after the grace period; returns when all are gone."""
