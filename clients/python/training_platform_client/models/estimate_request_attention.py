from enum import StrEnum


class EstimateRequestAttention(StrEnum):
    EAGER = "eager"
    FLASH = "flash"
    SDPA = "sdpa"

    def __str__(self) -> str:
        return str(self.value)
