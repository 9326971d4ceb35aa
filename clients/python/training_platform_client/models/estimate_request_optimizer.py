from enum import StrEnum


class EstimateRequestOptimizer(StrEnum):
    ADAMW = "adamw"
    ADAMW8BIT = "adamw8bit"
    SGD = "sgd"

    def __str__(self) -> str:
        return str(self.value)
