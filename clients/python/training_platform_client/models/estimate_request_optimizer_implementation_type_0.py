from enum import StrEnum


class EstimateRequestOptimizerImplementationType0(StrEnum):
    FOREACH = "foreach"
    FOR_LOOP = "for-loop"
    FUSED = "fused"

    def __str__(self) -> str:
        return str(self.value)
