from enum import StrEnum


class DatasetSyncState(StrEnum):
    FAILED = "failed"
    NOT_SYNCED = "not_synced"
    SYNCED = "synced"
    SYNCING = "syncing"

    def __str__(self) -> str:
        return str(self.value)
