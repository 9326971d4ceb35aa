"""The reward specification a user writes in a GRPO/GSPO job config."""

import functools
from typing import Literal

import re2
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from training_platform.rewards.comparison import COMPARISONS
from training_platform.rewards.errors import RewardConfigError
from training_platform.rewards.extraction import EXTRACTIONS

__all__ = ["RewardConfigError", "RewardSpec", "compile_pattern"]


@functools.lru_cache(maxsize=64)  # a job's pattern, compiled once for all its completions
def compile_pattern(pattern: str):
    """A format_check pattern, compiled for RE2: matched in time linear in the completion, so no pattern a user
    writes can backtrack catastrophically (`(a+)+$` against a long completion ties up a Python `re` for minutes).
    RE2 refuses what needs backtracking (backreferences, lookarounds); `.` matches newlines, as `re.DOTALL` did."""
    options = re2.Options()
    options.dot_nl = True
    options.log_errors = False  # its C++ logger would print each refused pattern to the process's stderr
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        reason = exc.args[0].decode() if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise ValueError(
            f"not a regular expression RE2 matches in linear time: {reason} (backreferences and lookarounds are "
            "not supported)"
        ) from None


class RewardSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["math_verify", "format_check", "custom"] = "math_verify"
    extraction: Literal[EXTRACTIONS.names()] = "boxed"  # rewards/extraction.py
    comparison: Literal[COMPARISONS.names()] = "numeric"  # rewards/comparison.py
    answer_field: str = "solution"
    json_key: str = "answer"
    weight: float = Field(default=1.0, allow_inf_nan=False)
    tolerance: float = Field(default=1e-6, ge=0, allow_inf_nan=False)
    fuzzy_threshold: float = Field(default=0.8, gt=0, le=1)
    # validate_default so the cross-field checks below also run when the field is left out
    # (e.g. type="custom" without a function); field validators, unlike a model validator,
    # report the error under the field's own name.
    pattern: str | None = Field(default=None, validate_default=True)
    function: str | None = Field(default=None, validate_default=True)

    @field_validator("answer_field")
    @classmethod
    def _answer_field_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("pattern")
    @classmethod
    def _pattern_compiles(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None:
            return None
        kind = info.data.get("type")  # absent when `type` itself failed validation
        if kind is not None and kind != "format_check":
            raise ValueError(f"only used by type 'format_check', not '{kind}'")
        compile_pattern(value)
        return value

    @field_validator("function")
    @classmethod
    def _function_matches_type(cls, value: str | None, info: ValidationInfo) -> str | None:
        kind = info.data.get("type")
        if value is None:
            if kind == "custom":
                raise ValueError("required when type is 'custom' (e.g. 'rewards.py:score' or 'my_rewards:score')")
            return None
        if kind is not None and kind != "custom":
            raise ValueError(f"only used by type 'custom', not '{kind}'")
        target, sep, attribute = value.rpartition(":")
        if not sep or not target.strip() or not attribute.isidentifier():
            raise ValueError(f"expected 'file.py:function' or 'package.module:function', got {value!r}")
        return value

    @property
    def name(self) -> str:
        """Stable metric name; two specs differing only in weight or tolerance share it."""
        if self.type == "math_verify":
            return f"math_verify_{self.extraction}_{self.comparison}"
        if self.type == "format_check":
            return "format_check_pattern" if self.pattern is not None else f"format_check_{self.extraction}"
        return f"custom_{self.function.rpartition(':')[2]}"
