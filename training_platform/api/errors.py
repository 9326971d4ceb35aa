"""One error shape for every failure: {"detail": "<message>", "errors": [{"field", "message", "row"?}]}."""

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from training_platform.errors import (
    ConflictError,
    FieldError,
    InvalidInputError,
    NotFoundError,
    TooLargeError,
    UnavailableError,
)


def _response(status: int, detail: str, errors: list[FieldError] = ()) -> JSONResponse:
    return JSONResponse(status_code=status, content={"detail": detail, "errors": [e.as_dict() for e in errors]})


def _request_field(location: tuple) -> str:
    # FastAPI prefixes where the value came from ("body", "query", "path"); the field name is what users need.
    parts = [str(part) for part in location]
    if parts and parts[0] in ("body", "query", "path", "header"):
        parts = parts[1:]
    return ".".join(parts) or "body"


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(NotFoundError)
    async def not_found(_request: Request, error: NotFoundError):
        return _response(404, str(error))

    @app.exception_handler(ConflictError)
    async def conflict(_request: Request, error: ConflictError):
        return _response(409, str(error))

    @app.exception_handler(TooLargeError)
    async def too_large(_request: Request, error: TooLargeError):
        return _response(413, str(error))

    @app.exception_handler(UnavailableError)
    async def unavailable(_request: Request, error: UnavailableError):
        response = _response(503, str(error))
        response.headers["Retry-After"] = str(error.retry_after_seconds)
        return response

    @app.exception_handler(InvalidInputError)
    async def invalid(_request: Request, error: InvalidInputError):
        return _response(422, str(error), error.errors)

    @app.exception_handler(RequestValidationError)
    async def request_invalid(_request: Request, error: RequestValidationError):
        errors = [
            FieldError(_request_field(item["loc"]), item["msg"].removeprefix("Value error, "))
            for item in error.errors()
        ]
        return _response(422, "; ".join(str(e) for e in errors), errors)
