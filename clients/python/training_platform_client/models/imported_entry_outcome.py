from enum import StrEnum


class ImportedEntryOutcome(StrEnum):
    FAILED = "failed"
    REGISTERED = "registered"
    SKIPPED = "skipped"
    WOULD_REGISTER = "would_register"

    def __str__(self) -> str:
        return str(self.value)
