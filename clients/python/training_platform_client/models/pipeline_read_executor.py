from enum import StrEnum


class PipelineReadExecutor(StrEnum):
    CELERY = "celery"
    IN_PROCESS = "in-process"

    def __str__(self) -> str:
        return str(self.value)
