from enum import StrEnum


class RewardPreviewRequestAlgorithm(StrEnum):
    GRPO = "grpo"
    GSPO = "gspo"

    def __str__(self) -> str:
        return str(self.value)
