from enum import StrEnum


class SelectRequestModeType0(StrEnum):
    MAX = "max"
    MIN = "min"

    def __str__(self) -> str:
        return str(self.value)
