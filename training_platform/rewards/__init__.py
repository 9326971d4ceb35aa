"""Rule-based rewards for GRPO/GSPO, shared by every training engine.

Importing this package stays cheap (no sympy, torch or transformers): math_verify is only
loaded the first time a LaTeX answer has to be compared.
"""

from training_platform.rewards.code import RewardCode, check_reward_code, locate_reward_code
from training_platform.rewards.comparison import answers_match
from training_platform.rewards.extraction import extract_answer
from training_platform.rewards.functions import (
    as_reward,
    build_reward_function,
    load_custom_function,
    reward_spec_problems,
    score,
    validate_reward_spec,
)
from training_platform.rewards.spec import RewardConfigError, RewardSpec

__all__ = [
    "RewardCode",
    "RewardConfigError",
    "RewardSpec",
    "answers_match",
    "as_reward",
    "build_reward_function",
    "check_reward_code",
    "extract_answer",
    "load_custom_function",
    "locate_reward_code",
    "reward_spec_problems",
    "score",
    "validate_reward_spec",
]
