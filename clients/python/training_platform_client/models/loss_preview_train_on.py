from enum import StrEnum


class LossPreviewTrainOn(StrEnum):
    ALL_ASSISTANT = "all_assistant"
    LAST_ASSISTANT = "last_assistant"

    def __str__(self) -> str:
        return str(self.value)
