from enum import StrEnum


class RewardSpecExtraction(StrEnum):
    BOXED = "boxed"
    JSON = "json"
    LAST_NUMBER = "last_number"

    def __str__(self) -> str:
        return str(self.value)
