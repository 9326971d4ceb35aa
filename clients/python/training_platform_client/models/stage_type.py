from enum import StrEnum


class StageType(StrEnum):
    AVERAGE = "average"
    DATASET = "dataset"
    EMPTY = "empty"
    EVALUATE = "evaluate"
    EXPORT = "export"
    LORA_FOLD = "lora_fold"
    MERGE = "merge"
    REGISTER = "register"
    SELECT = "select"
    TRAIN = "train"

    def __str__(self) -> str:
        return str(self.value)
