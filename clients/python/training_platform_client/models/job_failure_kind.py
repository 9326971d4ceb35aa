from enum import StrEnum


class JobFailureKind(StrEnum):
    EXCEPTION = "exception"
    EXIT = "exit"
    HUNG = "hung"
    KILLED = "killed"
    LAUNCH = "launch"
    LOST = "lost"
    OUT_OF_MEMORY = "out_of_memory"

    def __str__(self) -> str:
        return str(self.value)
