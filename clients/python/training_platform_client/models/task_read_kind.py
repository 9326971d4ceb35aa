from enum import StrEnum


class TaskReadKind(StrEnum):
    AUDIT = "audit"
    DEDUP = "dedup"
    INDEX = "index"

    def __str__(self) -> str:
        return str(self.value)
