"""Platform side of the TRL engine: what it runs, its arguments and the launch command. Imports neither torch
nor trl.

A job on one device is one process. A job on several is started through accelerate's launcher, one process per
device (per CPU process on a machine without GPUs), from an accelerate config written into the job's directory:
DDP by default, FSDP for zero_stage 2 or 3. Which devices are the job's is set by whoever starts the process
(CUDA_VISIBLE_DEVICES); the config takes them all ("gpu_ids": "all").
"""

import sys
from pathlib import Path
from typing import Any

from training_platform.common.files import write_json_atomic
from training_platform.common.progress import ProgressCallback, ignore_progress
from training_platform.common.worker import Worker
from training_platform.contract.layout import JobLayout
from training_platform.contract.params import Algorithm
from training_platform.contract.run import LaunchSpec, RunSpec
from training_platform.engines.base import Capabilities, CheckpointInfo, Engine, EnginePreview, StepProfile
from training_platform.engines.environment import process_environment
from training_platform.engines.rewards import require_reward_code, reward_code_errors
from training_platform.engines.trl import checkpoints
from training_platform.engines.trl.arguments import fsdp_sharding, lora_arguments, trainer_arguments
from training_platform.engines.trl.keys import TRL_CHARTS
from training_platform.engines.trl.settings import setting_problems
from training_platform.errors import FieldError


class TrlEngine(Engine):
    name = "trl"
    # Any number of devices; states replicated (DDP) or sharded by FSDP, never offloaded to CPU memory.
    capabilities = Capabilities(
        algorithms=frozenset({Algorithm.SFT, Algorithm.DPO, Algorithm.GRPO, Algorithm.GSPO}),
        devices=frozenset({"cuda", "mps", "cpu"}),
        max_devices=None,
        zero_stages=frozenset({0, 2, 3}),
        cpu_offload=False,
        trainer_actions=frozenset({"pause_on_non_finite", "lower_lr_on_grad_explosion"}),
        new_learning_rate_on_resume=True,
        step=StepProfile(
            fp32_weights_under_amp=True,
            bf16_compute=True,
            fused_lm_head=True,
            fused_optimizer=True,
            optimizer="transformers' default optim adamw_torch_fused",
            reference_bytes=None,  # loaded as the policy is
            reference_in_step=True,
            rollout="policy",  # GRPO generates with model.generate
            precision_as=(("bf16-amp", "bf16"),),
            packs_samples=True,
        ),
    )
    charts = TRL_CHARTS

    def unsupported_message(self, algorithm: Algorithm) -> str:
        if algorithm == Algorithm.PPO:
            # TRL removed PPOTrainer in 1.13 (PR #7020); PPO with a critic is verl's job.
            return (
                "the trl engine cannot run ppo: TRL no longer ships a PPO trainer (removed in TRL 1.13). "
                "Use engine 'verl' for PPO, or choose grpo/gspo to train with rule rewards on this engine"
            )
        return super().unsupported_message(algorithm)

    def check(self, spec: RunSpec) -> list[FieldError]:
        if spec.nnodes and spec.nnodes > 1:
            # accelerate launches its processes on the one machine the job starts on (see launch_spec).
            message = (
                f"the {self.name} engine trains on one node; {spec.params.num_gpus} GPUs span {spec.nnodes} nodes "
                "of the Ray cluster (ask for at most one node's GPUs, or use the verl engine)"
            )
            return [FieldError("params.num_gpus", message)]
        return reward_code_errors(spec.params)

    def render(self, spec: RunSpec, device: str) -> dict[str, Any]:
        return {"trl_arguments": trainer_arguments(spec, device)}

    def setting_problems(self, spec: RunSpec, device: str, worker: Worker) -> list[FieldError]:
        return setting_problems(spec, device, worker)

    def preview(self, spec: RunSpec, device: str) -> EnginePreview:
        configuration = {**self.render(spec, device), "lora_arguments": lora_arguments(spec.params)}
        if spec.params.num_gpus > 1:
            configuration["accelerate_config"] = accelerate_settings(spec)
        return EnginePreview(configuration=configuration, command=self.launch_argv(spec))

    def launch_argv(self, spec: RunSpec) -> list[str]:
        argv = ["-m", "training_platform.engines.trl", "--config", str(spec.layout.config_path)]
        if code_dir := require_reward_code(spec.params):
            argv += ["--reward-code-dir", str(code_dir)]  # where the process imports custom reward functions from
        processes = spec.params.num_gpus
        if processes > 1:
            # Port 0: the launcher takes a free port when it starts, which may be long after this is written.
            launcher = ["accelerate.commands.launch", "--config_file", str(_accelerate_config_path(spec))]
            argv = ["-m", *launcher, "--num_processes", str(processes), "--main_process_port", "0", *argv]
        return [sys.executable, *argv]

    def launch_spec(self, spec: RunSpec) -> LaunchSpec:
        spec.save(spec.layout.config_path)  # what the training process reads
        if spec.params.num_gpus > 1:
            write_json_atomic(_accelerate_config_path(spec), accelerate_settings(spec))
        return LaunchSpec(argv=self.launch_argv(spec), cwd=spec.layout.root, env=process_environment(spec.cpu_threads))

    def list_checkpoints(self, layout: JobLayout) -> list[CheckpointInfo]:
        return checkpoints.list_checkpoints(layout)

    def export(self, checkpoint: CheckpointInfo, target: Path, progress: ProgressCallback = ignore_progress) -> Path:
        return checkpoints.export(checkpoint.path, target, progress)


def _accelerate_config_path(spec: RunSpec) -> Path:
    return spec.layout.root / "accelerate_config.json"


def accelerate_settings(spec: RunSpec) -> dict[str, Any]:
    """accelerate's config file (the keys `accelerate config` writes) for a job on several devices.

    The launcher runs the processes with torch.distributed.run for a MULTI_GPU or FSDP config. Without a GPU,
    each process's trainer (use_cpu) makes accelerate join them over gloo (MULTI_CPU), so the same command
    trains with CPU processes; accelerate's own MULTI_CPU launch would start one process, or need MPI.
    """
    settings: dict[str, Any] = dict(
        compute_environment="LOCAL_MACHINE",
        distributed_type="MULTI_GPU",
        num_machines=1,
        machine_rank=0,
        num_processes=spec.params.num_gpus,
        gpu_ids="all",
        rdzv_backend="static",
        same_network=True,
        # The trainer's bf16/fp16 flags (the precision policy, decided in the process that sees the device) set
        # the mixed precision; the launcher's value is read only when neither is set, so it must not add one.
        mixed_precision="no",
        use_cpu=False,
        debug=False,
    )
    if sharding := fsdp_sharding(spec.params):
        settings.update(
            distributed_type="FSDP",
            fsdp_config=dict(
                fsdp_version=1,
                fsdp_sharding_strategy=sharding,
                # Each decoder layer its own FSDP unit: the model's _no_split_modules name the layer class.
                fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP",
                # Checkpoints hold the whole model (model.safetensors) as on one device: exported by copying, as
                # every other checkpoint, and resumed through the trainer's own FSDP loading.
                fsdp_state_dict_type="FULL_STATE_DICT",
                fsdp_use_orig_params=True,  # LoRA: frozen and trainable parameters in one unit
                fsdp_sync_module_states=True,
                fsdp_cpu_ram_efficient_loading=False,
                fsdp_offload_params=False,
                fsdp_backward_prefetch="BACKWARD_PRE",
                fsdp_forward_prefetch=False,
                fsdp_activation_checkpointing=spec.params.gradient_checkpointing,
            ),
        )
    return settings
