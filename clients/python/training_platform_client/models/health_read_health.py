from enum import StrEnum


class HealthReadHealth(StrEnum):
    CRITICAL = "critical"
    HEALTHY = "healthy"
    UNKNOWN = "unknown"
    WARNING = "warning"

    def __str__(self) -> str:
        return str(self.value)
