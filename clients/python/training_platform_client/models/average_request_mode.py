from enum import StrEnum


class AverageRequestMode(StrEnum):
    EMA = "ema"
    SWA = "swa"

    def __str__(self) -> str:
        return str(self.value)
