"""Platform side of the TRL engine: validation and the launch command. Imports neither torch nor trl."""

import sys
from pathlib import Path

from training_platform.engines.base import CheckpointInfo, Engine, LaunchSpec, RunRequest, register_engine
from training_platform.engines.trl import checkpoints
from training_platform.engines.trl.run_config import RunConfig
from training_platform.errors import FieldError
from training_platform.jobs.layout import JobLayout
from training_platform.jobs.params import Algorithm


class TrlEngine(Engine):
    name = "trl"
    algorithms = frozenset({Algorithm.SFT, Algorithm.DPO, Algorithm.GRPO, Algorithm.GSPO})

    def unsupported_message(self, algorithm: Algorithm) -> str:
        if algorithm == Algorithm.PPO:
            # TRL removed PPOTrainer in 1.13 (PR #7020); PPO with a critic is verl's job.
            return (
                "the trl engine cannot run ppo: TRL no longer ships a PPO trainer (removed in TRL 1.13). "
                "Use engine 'verl' for PPO, or choose grpo/gspo to train with rule rewards on this engine"
            )
        return super().unsupported_message(algorithm)

    def check(self, request: RunRequest) -> list[FieldError]:
        if request.params.num_gpus > 1:
            message = "the trl engine trains on one device per job; use the verl engine for multi-GPU runs"
            return [FieldError("params.num_gpus", message)]
        return []

    def launch_spec(self, request: RunRequest, cpu_threads: int) -> LaunchSpec:
        config = RunConfig(
            job_id=request.job_id,
            algorithm=request.algorithm,
            model_path=request.model_path,
            dataset_paths=request.dataset_paths,
            eval_dataset_path=request.eval_dataset_path,
            dataset_fields=request.dataset_fields,
            params=request.params.model_dump(mode="json"),
            output_dir=str(request.layout.root),
            cpu_threads=cpu_threads,
        )
        config.save(request.layout.config_path)
        env = {"HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", "PYTHONUNBUFFERED": "1"}
        if cpu_threads:
            env["OMP_NUM_THREADS"] = str(cpu_threads)
        argv = [sys.executable, "-m", "training_platform.engines.trl", "--config", str(request.layout.config_path)]
        return LaunchSpec(argv=argv, cwd=request.layout.root, env=env)

    def list_checkpoints(self, layout: JobLayout) -> list[CheckpointInfo]:
        return checkpoints.list_checkpoints(layout)

    def export(self, checkpoint: CheckpointInfo, target: Path) -> Path:
        return checkpoints.export(checkpoint.path, target)


register_engine(TrlEngine())
