from enum import StrEnum


class SampleComparisonDirectionsAdditionalProperty(StrEnum):
    IMPROVED = "improved"
    REGRESSED = "regressed"
    UNCHANGED = "unchanged"

    def __str__(self) -> str:
        return str(self.value)
