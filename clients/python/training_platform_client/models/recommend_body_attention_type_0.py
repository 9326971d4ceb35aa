from enum import StrEnum


class RecommendBodyAttentionType0(StrEnum):
    EAGER = "eager"
    FLASH = "flash"
    SDPA = "sdpa"

    def __str__(self) -> str:
        return str(self.value)
