from enum import StrEnum


class WandbExportMode(StrEnum):
    OFFLINE = "offline"
    ONLINE = "online"

    def __str__(self) -> str:
        return str(self.value)
