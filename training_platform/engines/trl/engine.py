"""Platform side of the TRL engine: what it runs, its arguments and the launch command. Imports neither torch
nor trl."""

import sys
from pathlib import Path
from typing import Any

from training_platform.common.progress import ProgressCallback, ignore_progress
from training_platform.contract.layout import JobLayout
from training_platform.contract.params import Algorithm
from training_platform.contract.run import LaunchSpec, RunSpec
from training_platform.engines.base import Capabilities, CheckpointInfo, Engine
from training_platform.engines.environment import process_environment
from training_platform.engines.rewards import require_reward_code, reward_code_errors
from training_platform.engines.trl import checkpoints
from training_platform.engines.trl.arguments import trainer_arguments
from training_platform.errors import FieldError


class TrlEngine(Engine):
    name = "trl"
    # One process per job, on one device (no multi-GPU launch, no sharding or offloading).
    capabilities = Capabilities(
        algorithms=frozenset({Algorithm.SFT, Algorithm.DPO, Algorithm.GRPO, Algorithm.GSPO}),
        devices=frozenset({"cuda", "mps", "cpu"}),
        max_devices=1,
        zero_stages=frozenset({0}),
        cpu_offload=False,
    )

    def unsupported_message(self, algorithm: Algorithm) -> str:
        if algorithm == Algorithm.PPO:
            # TRL removed PPOTrainer in 1.13 (PR #7020); PPO with a critic is verl's job.
            return (
                "the trl engine cannot run ppo: TRL no longer ships a PPO trainer (removed in TRL 1.13). "
                "Use engine 'verl' for PPO, or choose grpo/gspo to train with rule rewards on this engine"
            )
        return super().unsupported_message(algorithm)

    def check(self, spec: RunSpec) -> list[FieldError]:
        return reward_code_errors(spec.params)

    def render(self, spec: RunSpec, device: str) -> dict[str, Any]:
        return {"trl_arguments": trainer_arguments(spec, device)}

    def launch_spec(self, spec: RunSpec) -> LaunchSpec:
        config = spec.layout.config_path
        spec.save(config)  # what the training process reads
        argv = [sys.executable, "-m", "training_platform.engines.trl", "--config", str(config)]
        if code_dir := require_reward_code(spec.params):
            argv += ["--reward-code-dir", str(code_dir)]  # where the process imports custom reward functions from
        return LaunchSpec(argv=argv, cwd=spec.layout.root, env=process_environment(spec.cpu_threads))

    def list_checkpoints(self, layout: JobLayout) -> list[CheckpointInfo]:
        return checkpoints.list_checkpoints(layout)

    def export(self, checkpoint: CheckpointInfo, target: Path, progress: ProgressCallback = ignore_progress) -> Path:
        return checkpoints.export(checkpoint.path, target, progress)
