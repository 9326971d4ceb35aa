from enum import StrEnum


class AlertTargetReadFormat(StrEnum):
    FEISHU = "feishu"
    GENERIC = "generic"
    SLACK = "slack"

    def __str__(self) -> str:
        return str(self.value)
