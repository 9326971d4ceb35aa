from enum import StrEnum


class WorkReadKind(StrEnum):
    DATASET_TASK = "dataset_task"
    JOB = "job"
    JOB_TASK = "job_task"

    def __str__(self) -> str:
        return str(self.value)
