from enum import StrEnum


class ColumnStatsType(StrEnum):
    BOOLEAN = "boolean"
    DATE = "date"
    EMPTY = "empty"
    INTEGER = "integer"
    LIST = "list"
    MIXED = "mixed"
    NUMBER = "number"
    OBJECT = "object"
    OTHER = "other"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
