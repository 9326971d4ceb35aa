from enum import StrEnum


class DedupRequestMethod(StrEnum):
    EXACT = "exact"
    NEAR = "near"
    SEMANTIC = "semantic"

    def __str__(self) -> str:
        return str(self.value)
