from enum import StrEnum


class EstimateBodyEngine(StrEnum):
    PLAIN = "plain"
    TRL = "trl"
    VERL = "verl"

    def __str__(self) -> str:
        return str(self.value)
