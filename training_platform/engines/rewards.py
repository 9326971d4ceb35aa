"""Custom reward code as every engine checks it: from this server's reward code directory only, read and never
run by the server (rewards/code.py). Asked when a job is created (Engine.check) and again before its process
starts (launch_spec), since the directory is the server's setting of the moment."""

from pathlib import Path

from training_platform.contract.params import RuleRewardParams, TrainingParams
from training_platform.errors import FieldError, InvalidInputError
from training_platform.rewards import RewardConfigError, check_reward_code
from training_platform.settings import get_settings


def reward_code_dir() -> Path | None:
    return get_settings().reward_code_dir


def reward_code_errors(params: TrainingParams) -> list[FieldError]:
    """Custom reward functions whose code is not in the reward code directory, or does not define them."""
    errors = []
    for index, spec in enumerate(params.rewards if isinstance(params, RuleRewardParams) else []):
        if spec.type == "custom":
            try:
                check_reward_code(spec.function, reward_code_dir())
            except RewardConfigError as error:
                errors.append(FieldError(f"params.rewards.{index}.function", str(error)))
    return errors


def require_reward_code(params: TrainingParams) -> Path | None:
    """The reward code directory for a launch; InvalidInputError when a custom reward is not in it (any more)."""
    if errors := reward_code_errors(params):
        raise InvalidInputError(errors)
    return reward_code_dir()
