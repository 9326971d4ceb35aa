"""Training engines: turn a job into a process to launch, and know where that process leaves its checkpoints."""

from training_platform.engines.base import CheckpointInfo, Engine, LaunchSpec, available_engines, get_engine

__all__ = ["CheckpointInfo", "Engine", "LaunchSpec", "available_engines", "get_engine"]
