from enum import StrEnum


class PipelineStatus(StrEnum):
    CANCELLED = "cancelled"
    COMPLETED = "completed"
    DRAFT = "draft"
    FAILED = "failed"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
