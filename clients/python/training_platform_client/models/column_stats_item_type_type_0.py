from enum import StrEnum


class ColumnStatsItemTypeType0(StrEnum):
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
