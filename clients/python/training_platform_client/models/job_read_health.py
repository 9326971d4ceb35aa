from enum import StrEnum


class JobReadHealth(StrEnum):
    CRITICAL = "critical"
    HEALTHY = "healthy"
    WARNING = "warning"

    def __str__(self) -> str:
        return str(self.value)
