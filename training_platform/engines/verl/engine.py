"""Platform side of the verl engine: refusals, offline validation, files and command. Imports no verl."""

import json
import os
import subprocess
from pathlib import Path

from training_platform.engines.base import CheckpointInfo, Engine, LaunchSpec, RunRequest, register_engine
from training_platform.engines.trl import checkpoints as trl_checkpoints
from training_platform.engines.verl import checkpoints
from training_platform.engines.verl.command import PLUGIN, Target, VerlFiles, command, environment
from training_platform.engines.verl.data import convert
from training_platform.engines.verl.environment import verl_environment
from training_platform.engines.verl.rewards import write_reward_file
from training_platform.errors import FieldError
from training_platform.jobs.layout import JobLayout
from training_platform.jobs.params import Algorithm, RLParams, RuleRewardParams

VALIDATION_TIMEOUT_S = 120
NO_ROLLOUT = (
    "verl's {algorithm} generates with a rollout engine (vLLM, SGLang or TRT-LLM) and none is installed in "
    "{python}; install vllm on a GPU machine, or the CPU profile (`make rl-env`, then "
    "PLATFORM_VERL_PYTHON=.venv-rl/bin/python), or use engine 'trl' (or 'auto'), which trains GRPO/GSPO without one"
)


def validate_command(argv: list[str]) -> list[dict[str, str]]:
    """Problems of a verl command line ({override, message}), checked in a separate process of the verl
    environment: verl's import costs seconds and memory the platform server should not pay."""
    result = subprocess.run(
        [verl_environment().python, "-m", "training_platform.engines.verl.validate", "--json", "--", *argv],
        capture_output=True,
        text=True,
        timeout=VALIDATION_TIMEOUT_S,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    try:
        return json.loads(result.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return [{"override": "command", "message": f"verl validation did not run: {result.stderr[-1000:]}"}]


class VerlEngine(Engine):
    name = "verl"
    algorithms = frozenset({Algorithm.SFT, Algorithm.GRPO, Algorithm.GSPO, Algorithm.PPO})

    def unsupported_message(self, algorithm: Algorithm) -> str:
        if algorithm == Algorithm.DPO:
            return "verl has no DPO trainer; use engine 'trl' for DPO"
        return super().unsupported_message(algorithm)

    def check(self, request: RunRequest) -> list[FieldError]:
        environment = verl_environment()
        if not environment.has_verl:
            return [FieldError("engine", environment.missing_verl_message())]
        errors = []
        if request.params.lr_scheduler == "linear":
            errors.append(FieldError("params.lr_scheduler", "verl's schedulers are constant and cosine"))
        if isinstance(request.params, RLParams) and environment.rollout_engine is None:
            message = NO_ROLLOUT.format(algorithm=request.algorithm.value, python=environment.python)
            errors.append(FieldError("algorithm", message))
        if errors:
            return errors
        return self._validate_offline(request)

    def _validate_offline(self, request: RunRequest) -> list[FieldError]:
        """Compose and check the exact command this job would run."""
        argv = command(request, Target.detect(request.run_mode), VerlFiles(request.layout.root))
        return [FieldError(f"verl:{p['override']}", p["message"]) for p in validate_command(argv)]

    def launch_spec(self, request: RunRequest, cpu_threads: int) -> LaunchSpec:
        files = VerlFiles(request.layout.root)
        kind = "sft" if request.algorithm == Algorithm.SFT else "rl"
        answer_field = None
        if isinstance(request.params, RuleRewardParams):
            answer_field = next((s.answer_field for s in request.params.rewards if s.type != "format_check"), None)
            write_reward_file(files.reward, request.params.rewards)
        convert(request.dataset_paths, files.train, kind, "train", answer_field, request.dataset_fields)
        if request.eval_dataset_path:
            convert([request.eval_dataset_path], files.val, kind, "test", answer_field, request.dataset_fields)
        target = Target.detect(request.run_mode)
        return LaunchSpec(
            argv=command(request, target, files), cwd=request.layout.root, env=environment(request, target, cpu_threads)
        )

    def runnable_here(self, algorithm: Algorithm) -> bool:
        environment = verl_environment()
        if algorithm not in self.algorithms or not environment.has_verl:
            return False
        return algorithm == Algorithm.SFT or environment.rollout_engine is not None

    def list_checkpoints(self, layout: JobLayout) -> list[CheckpointInfo]:
        return checkpoints.list_checkpoints(layout)

    def export(self, checkpoint: CheckpointInfo, target: Path) -> Path:
        if checkpoint.kind == "final":
            return trl_checkpoints.export(checkpoint.path, target)  # already a Hugging Face directory
        env = {**os.environ, "VERL_USE_EXTERNAL_MODULES": PLUGIN, "HF_HUB_OFFLINE": "1"}
        verl_target = Target.detect()
        if verl_target.cpu:
            env["VERL_PLATFORM"] = "cpu"
        return checkpoints.export(checkpoint.path, target, verl_target.python, env)


register_engine(VerlEngine())
