from enum import StrEnum


class AlertTargetCreateFormat(StrEnum):
    FEISHU = "feishu"
    GENERIC = "generic"
    SLACK = "slack"

    def __str__(self) -> str:
        return str(self.value)
