from enum import StrEnum


class SelectionReadModeType0(StrEnum):
    MAX = "max"
    MIN = "min"

    def __str__(self) -> str:
        return str(self.value)
