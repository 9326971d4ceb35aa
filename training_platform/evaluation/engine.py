"""The evaluation engine: an evaluation run as a job's process, queued, supervised, stopped, paused and followed
like a training run (docs/evaluation.md). Imports no metric library and no torch: the process does.

Its result is the job's sample file, one scored sample per line, and the aggregates written when the last sample is
scored. A paused, stopped or crashed run is resumed from its sample file: what it holds is never generated again.
"""

import sys
from pathlib import Path
from typing import Any

from training_platform.common.progress import ProgressCallback, ignore_progress
from training_platform.contract.evaluation import EVALUATE
from training_platform.contract.layout import JobLayout
from training_platform.contract.run import LaunchSpec, RunSpec
from training_platform.engines.base import Capabilities, CheckpointInfo, Engine
from training_platform.engines.environment import process_environment
from training_platform.engines.rewards import reward_code_dir
from training_platform.errors import ConflictError


class EvaluationEngine(Engine):
    name = "evaluation"
    capabilities = Capabilities.of_run_kind({EVALUATE}, resumable=True)

    def render(self, spec: RunSpec, device: str) -> dict[str, Any]:
        return spec.params.model_dump(mode="json")

    def launch_argv(self, spec: RunSpec) -> list[str]:
        argv = [sys.executable, "-m", "training_platform.evaluation", "--config", str(spec.layout.config_path)]
        if code_dir := reward_code_dir():
            argv += ["--reward-code-dir", str(code_dir)]  # where custom metrics are imported from, as rewards are
        return argv

    def launch_spec(self, spec: RunSpec) -> LaunchSpec:
        spec.save(spec.layout.config_path)  # what the evaluation process reads
        return LaunchSpec(argv=self.launch_argv(spec), cwd=spec.layout.root, env=process_environment(spec.cpu_threads))

    def list_checkpoints(self, layout: JobLayout) -> list[CheckpointInfo]:
        return []  # an evaluation makes no model

    def export(self, checkpoint: CheckpointInfo, target: Path, progress: ProgressCallback = ignore_progress) -> Path:
        raise ConflictError("an evaluation run makes no model: it has nothing to export")
