from enum import StrEnum


class RewardPreviewCompletionKind(StrEnum):
    PLAIN = "plain"
    REFERENCE = "reference"

    def __str__(self) -> str:
        return str(self.value)
