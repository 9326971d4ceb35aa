from enum import StrEnum


class StageStatus(StrEnum):
    CANCELLED = "cancelled"
    COMPLETED = "completed"
    DISPATCHED = "dispatched"
    FAILED = "failed"
    PENDING = "pending"
    RUNNING = "running"
    SKIPPED = "skipped"

    def __str__(self) -> str:
        return str(self.value)
