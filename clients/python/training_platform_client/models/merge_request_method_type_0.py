from enum import StrEnum


class MergeRequestMethodType0(StrEnum):
    DARE_LINEAR = "dare_linear"
    DARE_TIES = "dare_ties"
    LINEAR = "linear"
    SLERP = "slerp"
    TASK_ARITHMETIC = "task_arithmetic"
    TIES = "ties"

    def __str__(self) -> str:
        return str(self.value)
