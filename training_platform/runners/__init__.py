"""Runners execute a LaunchSpec somewhere (this machine, a Ray cluster) and watch it."""

from training_platform.runners.base import ExitInfo, OutputFiles, ProcessHandle, Runner

__all__ = ["ExitInfo", "OutputFiles", "ProcessHandle", "Runner"]
