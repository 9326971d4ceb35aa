from enum import StrEnum


class AuditTaskReadKind(StrEnum):
    AUDIT = "audit"
    DEDUP = "dedup"
    INDEX = "index"

    def __str__(self) -> str:
        return str(self.value)
