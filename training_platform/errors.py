"""Domain errors. Services raise these; the API layer turns them into HTTP 404 / 409 / 422."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

# Codes of pydantic's error types are this prefix and the type (`validation.greater_than`); common/catalogue.py
# has their Chinese.
VALIDATION_PREFIX = "validation."
# The names people give what they create (jobs, datasets, webhook targets): a mismatch is said in words, never as
# this regex (api/errors.py).
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"


@dataclass(frozen=True)
class FieldError:
    """What is wrong with one field (and row) of a request. `message` is English; `code` and `params`, where the
    error has them, let the API answer in the reader's language (common/text.py)."""

    field: str
    message: str
    row: int | None = None
    code: str | None = None
    params: dict[str, Any] = field(default_factory=dict, compare=False)
    line: int | None = None  # in the YAML the user wrote (a job file, jobs/spec.py)

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"

    @property
    def where(self) -> str:
        """`params.learning_rate`, `dataset_paths.0 row 3`, `params.learning_rate line 7`."""
        row = f" row {self.row}" if self.row is not None else ""
        line = f" line {self.line}" if self.line is not None else ""
        return f"{self.field}{row}{line}"


class PlatformError(Exception):
    """Base of the errors a user can cause and fix."""


class NotFoundError(PlatformError):
    pass


class ConflictError(PlatformError):
    pass


class TooLargeError(PlatformError):
    """An upload over the configured size limit (HTTP 413)."""


class UnavailableError(PlatformError):
    """A bounded resource is busy; the same request may succeed later (HTTP 503 with Retry-After)."""

    def __init__(self, message: str, retry_after_seconds: int):
        self.retry_after_seconds = retry_after_seconds
        super().__init__(message)


class InvalidInputError(PlatformError):
    def __init__(self, errors: list[FieldError]):
        self.errors = errors
        super().__init__("; ".join(str(error) for error in errors))

    def __reduce__(self):
        # Rebuilt from its errors when it comes back from a worker process (common/worker.py).
        return type(self), (self.errors,)


def field_errors_from_pydantic(error: ValidationError, prefix: str = "") -> list[FieldError]:
    """Name each failing field by its dotted path (`params.lora.rank`, `dataset_paths.0`)."""
    return field_errors_from_items(error.errors(), prefix)


def field_errors_from_items(items: Iterable[Mapping[str, Any]], prefix: str = "", skip: int = 0) -> list[FieldError]:
    """pydantic's error items (also FastAPI's, whose locations start with where the value came from: `skip` those
    parts) as field errors, each with its error type's code and context."""
    result = []
    for item in items:
        path = ".".join(str(part) for part in item["loc"][skip:] if part != "__root__")
        name = ".".join(part for part in (prefix, path) if part) or prefix or "body"
        message = item["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
        params = {key: _plain(value) for key, value in (item.get("ctx") or {}).items()}
        if item["type"] in ("value_error", "assertion_error"):
            params["error"] = message
        result.append(FieldError(name, message, code=VALIDATION_PREFIX + item["type"], params=params))
    return result


def _plain(value: Any) -> Any:
    """A context value as JSON holds it (pydantic puts exceptions and patterns there too)."""
    return value if isinstance(value, int | float | str | bool) or value is None else str(value)
