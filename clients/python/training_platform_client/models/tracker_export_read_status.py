from enum import StrEnum


class TrackerExportReadStatus(StrEnum):
    CLOSED = "closed"
    EXPORTING = "exporting"

    def __str__(self) -> str:
        return str(self.value)
