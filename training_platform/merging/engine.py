"""The surgery engine: a merge, an average or a LoRA fold run as a job's process, so it is queued, supervised,
stopped and followed like a training run (docs/surgery.md). Imports neither torch nor mergekit: the process does.

Its result is the job's final model directory, written under a staging name and renamed when whole; a run that is
stopped or fails leaves no result (the staging directory is removed by the next attempt and by the platform when
the run settles, `staging_dir`).
"""

import sys
from pathlib import Path
from typing import Any

from training_platform.common.progress import ProgressCallback, ignore_progress
from training_platform.contract.layout import JobLayout
from training_platform.contract.run import LaunchSpec, RunSpec
from training_platform.contract.surgery import SurgeryOperation
from training_platform.engines.base import Capabilities, CheckpointInfo, Engine
from training_platform.engines.checkpoints import checkpoint_info, copy_model_directory
from training_platform.engines.environment import process_environment


def staging_dir(layout: JobLayout) -> Path:
    """Where the result is written before it is whole; renamed to the final model directory once it is."""
    return layout.root / f".{layout.final_model_dir.name}.partial"


class SurgeryEngine(Engine):
    name = "surgery"
    capabilities = Capabilities.of_run_kind(SurgeryOperation, resumable=False)

    def render(self, spec: RunSpec, device: str) -> dict[str, Any]:
        return spec.params.model_dump(mode="json")

    def launch_argv(self, spec: RunSpec) -> list[str]:
        return [sys.executable, "-m", "training_platform.merging", "--config", str(spec.layout.config_path)]

    def launch_spec(self, spec: RunSpec) -> LaunchSpec:
        spec.save(spec.layout.config_path)  # what the surgery process reads
        return LaunchSpec(argv=self.launch_argv(spec), cwd=spec.layout.root, env=process_environment(spec.cpu_threads))

    def list_checkpoints(self, layout: JobLayout) -> list[CheckpointInfo]:
        final = layout.final_model_dir
        return [checkpoint_info(final, None, True, "final")] if final.is_dir() else []

    def export(self, checkpoint: CheckpointInfo, target: Path, progress: ProgressCallback = ignore_progress) -> Path:
        """The result is already a Hugging Face model directory: exporting it is a copy."""
        return copy_model_directory(checkpoint.path, target, progress)
