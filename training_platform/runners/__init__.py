"""Runners execute a LaunchSpec somewhere (this machine now; SSH hosts and Ray clusters later) and watch it."""

from training_platform.runners.base import ExitInfo, ProcessHandle, Runner

__all__ = ["ExitInfo", "ProcessHandle", "Runner"]
