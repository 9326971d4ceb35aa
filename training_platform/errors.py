"""Domain errors. Services raise these; the API layer turns them into HTTP 404 / 409 / 422."""

from dataclasses import asdict, dataclass

from pydantic import ValidationError


@dataclass(frozen=True)
class FieldError:
    field: str
    message: str
    row: int | None = None

    def __str__(self) -> str:
        where = f"{self.field} row {self.row}" if self.row is not None else self.field
        return f"{where}: {self.message}"

    def as_dict(self) -> dict:
        return {key: value for key, value in asdict(self).items() if value is not None}


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


def field_errors_from_pydantic(error: ValidationError, prefix: str = "") -> list[FieldError]:
    """Name each failing field by its dotted path (`params.lora.rank`, `dataset_paths.0`)."""
    result = []
    for item in error.errors():
        path = ".".join(str(part) for part in item["loc"] if part != "__root__")
        field = ".".join(part for part in (prefix, path) if part) or prefix or "body"
        message = item["msg"].removeprefix("Value error, ")
        result.append(FieldError(field=field, message=message))
    return result
