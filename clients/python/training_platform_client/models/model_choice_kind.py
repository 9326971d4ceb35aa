from enum import StrEnum


class ModelChoiceKind(StrEnum):
    CHECKPOINT = "checkpoint"
    FINAL = "final"
    REGISTERED = "registered"

    def __str__(self) -> str:
        return str(self.value)
