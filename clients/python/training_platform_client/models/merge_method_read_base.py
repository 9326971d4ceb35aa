from enum import StrEnum


class MergeMethodReadBase(StrEnum):
    NONE = "none"
    OPTIONAL = "optional"
    REQUIRED = "required"

    def __str__(self) -> str:
        return str(self.value)
