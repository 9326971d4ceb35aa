from enum import StrEnum


class JobReadAlgorithmType2(StrEnum):
    EVALUATE = "evaluate"
    EXTERNAL = "external"

    def __str__(self) -> str:
        return str(self.value)
