"""What can go wrong reading a dataset file: the file as a whole (`DatasetFileError`: the read stops) or one of its
rows (`RowProblem`: the read goes on, the row reported by its 1-based number)."""

from dataclasses import dataclass


class DatasetFileError(ValueError):
    """The file as a whole cannot be read (missing, unsupported type, not a JSON array...)."""


class OverLimitError(DatasetFileError):
    """The file is over one of the read limits (datafiles/limits.py `ReadLimits`); the message names its setting."""


@dataclass(frozen=True)
class RowProblem:
    row: int
    message: str
