from enum import StrEnum


class MetricRequestTokenize(StrEnum):
    AUTO = "auto"
    CHAR = "char"
    INTL = "intl"
    NONE = "none"
    VALUE_1 = "13a"
    ZH = "zh"

    def __str__(self) -> str:
        return str(self.value)
