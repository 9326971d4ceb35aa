"""Platform side of the verl engine: refusals, offline validation, files and command. Imports no verl."""

from pathlib import Path
from typing import Any

from training_platform.common.environment import inherited_environment
from training_platform.common.paths import OUTSIDE_ROOTS
from training_platform.common.progress import ProgressCallback, ignore_progress
from training_platform.common.text import Text
from training_platform.common.worker import Worker
from training_platform.contract.layout import JobLayout
from training_platform.contract.params import Algorithm, RuleRewardParams, TrainingParams
from training_platform.contract.run import LaunchSpec, RunSpec
from training_platform.engines.base import Capabilities, CheckpointInfo, Engine, StepProfile
from training_platform.engines.checkpoints import copy_model_directory
from training_platform.engines.rewards import require_reward_code, reward_code_errors
from training_platform.engines.verl import checkpoints
from training_platform.engines.verl.command import (
    Target,
    VerlFiles,
    command,
    environment,
    overrides,
    verl_environment_variables,
)
from training_platform.engines.verl.data import convert
from training_platform.engines.verl.environment import verl_environment
from training_platform.engines.verl.keys import VERL_CHARTS
from training_platform.engines.verl.overrides import check as check_overrides
from training_platform.engines.verl.overrides import paths_outside_roots
from training_platform.engines.verl.rewards import write_reward_file
from training_platform.engines.verl.settings import problem_field, setting_problems
from training_platform.engines.verl.validate import CommandError, split_command
from training_platform.engines.verl.validator import pool
from training_platform.errors import FieldError, InvalidInputError
from training_platform.settings import get_settings

NO_ROLLOUT = "engine.no_rollout"  # the code of why verl cannot run RL here: no rollout engine


def validate_command(argv: list[str]) -> list[dict[str, str]]:
    """Problems of a verl command line ({override, message, refused}), checked by verl in the verl environment,
    with the plugin a job of this machine would run with; at most settings.validation_concurrency at once
    (ValidationBusyError when none comes free in time)."""
    target = Target.detect()
    env = tuple(sorted(verl_environment_variables(target).items()))
    return pool(target.python, env, get_settings().validation_concurrency).validate(argv)


class VerlEngine(Engine):
    name = "verl"
    # FSDP over the job's GPUs (verl's fsdp2 strategy shards weights, gradients and optimizer states: ZeRO-3),
    # with verl's CPU offloading of parameters and optimizer states.
    capabilities = Capabilities(
        algorithms=frozenset({Algorithm.SFT, Algorithm.GRPO, Algorithm.GSPO, Algorithm.PPO}),
        devices=frozenset({"cuda", "cpu"}),
        max_devices=None,
        zero_stages=frozenset({3}),
        cpu_offload=True,
        trainer_actions=frozenset(),
        new_learning_rate_on_resume=False,
        step=StepProfile(
            fp32_weights_under_amp=False,
            bf16_compute=True,
            fused_lm_head=False,
            fused_optimizer=False,
            optimizer="verl's FSDP workers build torch.optim.AdamW with PyTorch's defaults",
            reference_bytes=2,  # the reference worker holds bf16 weights
            reference_in_step=False,
            rollout="vllm",
            rollout_memory_setting="actor_rollout_ref.rollout.gpu_memory_utilization",
        ),
    )
    charts = VERL_CHARTS

    def unsupported_message(self, algorithm: Algorithm) -> str:
        if algorithm == Algorithm.DPO:
            return "verl has no DPO trainer; use engine 'trl' for DPO"
        return super().unsupported_message(algorithm)

    def refusals(self, params: TrainingParams) -> list[FieldError]:
        if errors := super().refusals(params):
            return errors
        if params.lr_scheduler == "linear":
            return [FieldError("params.lr_scheduler", "verl's schedulers are constant and cosine")]
        return []

    def check(self, spec: RunSpec) -> list[FieldError]:
        if errors := reward_code_errors(spec.params):
            return errors
        if missing := self.unavailable_here(spec.algorithm):
            field = "engine" if missing.code != NO_ROLLOUT else "algorithm"
            return [FieldError(field, missing.render(), code=missing.code, params=missing.params)]
        # The exact command this job would run, composed and checked by verl itself.
        problems = validate_command(self.launch_argv(spec))
        return [FieldError(problem_field(spec, p["override"]), p["message"]) for p in problems]

    def setting_problems(self, spec: RunSpec, device: str, worker: Worker) -> list[FieldError]:
        return setting_problems(spec, Target.assumed(device, spec.in_ray_cluster), get_settings().path_roots)

    def launch_argv(self, spec: RunSpec) -> list[str]:
        return command(spec, Target.detect(spec.in_ray_cluster), VerlFiles(spec.layout.root))

    def render(self, spec: RunSpec, device: str) -> dict[str, Any]:
        return {
            "verl_overrides": overrides(spec, Target.assumed(device, spec.in_ray_cluster), VerlFiles(spec.layout.root))
        }

    def launch_spec(self, spec: RunSpec) -> LaunchSpec:
        files = VerlFiles(spec.layout.root)
        kind = spec.algorithm.value
        answer_field = None
        if isinstance(spec.params, RuleRewardParams):
            answer_field = next((s.answer_field for s in spec.params.rewards if s.type != "format_check"), None)
            write_reward_file(files.reward, spec.params.rewards, require_reward_code(spec.params))
        convert(spec.dataset_paths, files.train, kind, "train", answer_field, spec.dataset_formats)
        if spec.eval_dataset_path:
            convert([spec.eval_dataset_path], files.val, kind, "test", answer_field, spec.dataset_formats)
        target = Target.detect(spec.in_ray_cluster)
        return LaunchSpec(argv=self.launch_argv(spec), cwd=spec.layout.root, env=environment(spec, target))

    def validate(self, argv: list[str]) -> list[dict[str, str]]:
        """Problems of a hand-written verl command ({override, message}), checked by verl itself, offline.
        Overrides Hydra or OmegaConf would execute or resolve are refused (InvalidInputError on `command`, naming
        each), here from their text and in the validation process by Hydra's parser, before anything composes."""
        environment = verl_environment()
        if not environment.has_verl:
            raise InvalidInputError([FieldError("command", environment.missing_verl_message())])
        try:
            given = split_command(argv)[1]
        except CommandError:
            given = []  # not a verl command: the validation process says so, as a problem of the command
        check_overrides(given, field="command")
        if outside := paths_outside_roots(given, get_settings().path_roots):
            raise InvalidInputError([FieldError("command", f"override '{key}': {OUTSIDE_ROOTS}") for key in outside])
        problems = validate_command(argv)
        if refused := [problem for problem in problems if problem.get("refused")]:
            raise InvalidInputError([FieldError("command", problem["message"]) for problem in refused])
        return [{"override": problem["override"], "message": problem["message"]} for problem in problems]

    def unavailable_here(self, algorithm: Algorithm) -> Text | None:
        environment = verl_environment()
        if not environment.has_verl:
            return environment.missing_verl()
        if algorithm != Algorithm.SFT and environment.rollout_engine is None:  # RL generates its rollouts
            return Text.of(NO_ROLLOUT, algorithm=algorithm.value, python=environment.python)
        return None

    def list_checkpoints(self, layout: JobLayout) -> list[CheckpointInfo]:
        return checkpoints.list_checkpoints(layout)

    def export(self, checkpoint: CheckpointInfo, target: Path, progress: ProgressCallback = ignore_progress) -> Path:
        if checkpoint.kind == "final":
            return copy_model_directory(checkpoint.path, target, progress)  # already a Hugging Face directory
        verl_target = Target.detect()
        env = {**inherited_environment(), **verl_environment_variables(verl_target)}
        return checkpoints.export(checkpoint.path, target, verl_target.python, env, progress)
