from enum import StrEnum


class SurgeryOperation(StrEnum):
    AVERAGE = "average"
    LORA_FOLD = "lora_fold"
    MERGE = "merge"

    def __str__(self) -> str:
        return str(self.value)
