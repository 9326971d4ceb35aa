from enum import StrEnum


class RewardSpecComparison(StrEnum):
    EXACT = "exact"
    FUZZY = "fuzzy"
    NUMERIC = "numeric"

    def __str__(self) -> str:
        return str(self.value)
