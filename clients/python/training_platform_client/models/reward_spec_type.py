from enum import StrEnum


class RewardSpecType(StrEnum):
    CUSTOM = "custom"
    FORMAT_CHECK = "format_check"
    MATH_VERIFY = "math_verify"

    def __str__(self) -> str:
        return str(self.value)
