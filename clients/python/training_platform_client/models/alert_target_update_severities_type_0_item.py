from enum import StrEnum


class AlertTargetUpdateSeveritiesType0Item(StrEnum):
    CRITICAL = "critical"
    INFO = "info"
    WARNING = "warning"

    def __str__(self) -> str:
        return str(self.value)
