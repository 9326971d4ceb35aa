from enum import StrEnum


class FindingKind(StrEnum):
    EMPTY_FIELD = "empty_field"
    EXACT_DUPLICATE = "exact_duplicate"
    FORMAT_ERROR = "format_error"
    IDENTICAL_PAIR = "identical_pair"
    LENGTH_OUTLIER = "length_outlier"
    NEAR_DUPLICATE = "near_duplicate"
    SEMANTIC_DUPLICATE = "semantic_duplicate"
    UNUSED_COLUMN = "unused_column"
    WRONG_TYPE = "wrong_type"

    def __str__(self) -> str:
        return str(self.value)
