from enum import StrEnum


class JobFailureCauseStreamType0(StrEnum):
    STDERR = "stderr"
    STDOUT = "stdout"

    def __str__(self) -> str:
        return str(self.value)
