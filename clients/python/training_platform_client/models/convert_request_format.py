from enum import StrEnum


class ConvertRequestFormat(StrEnum):
    TRL = "trl"
    VERL = "verl"

    def __str__(self) -> str:
        return str(self.value)
