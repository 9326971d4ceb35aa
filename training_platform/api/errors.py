"""One error shape for every failure: {"detail": "<message>", "errors": [{"field", "message", "code"?, "row"?}]}.

Field errors with a code are answered in the request's language (`Accept-Language`, common/text.py); `detail`
joins them the same way.
"""

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from training_platform.common.text import Language, language_of, translated
from training_platform.errors import (
    ConflictError,
    FieldError,
    InvalidInputError,
    NotFoundError,
    TooLargeError,
    UnavailableError,
    field_errors_from_items,
)


def _response(status: int, detail: str) -> JSONResponse:
    return JSONResponse(status_code=status, content={"detail": detail, "errors": []})


def _invalid(request: Request, errors: list[FieldError]) -> JSONResponse:
    language = language_of(request.headers.get("accept-language"))
    items = [_item(error, language) for error in errors]
    where = [f"{e.field} row {e.row}" if e.row is not None else e.field for e in errors]
    detail = "; ".join(f"{place}: {item['message']}" for place, item in zip(where, items, strict=True))
    return JSONResponse(status_code=422, content={"detail": detail, "errors": items})


def _item(error: FieldError, language: Language) -> dict:
    message = error.message
    if error.code is not None:
        message = translated(error.code, error.params, language, english=error.message)
    item = {"field": error.field, "message": message, "code": error.code, "row": error.row}
    return {key: value for key, value in item.items() if value is not None}


def _request_errors(error: RequestValidationError) -> list[FieldError]:
    # FastAPI prefixes where the value came from ("body", "query", "path"); the field name is what users need.
    items = list(error.errors())
    located = [item for item in items if item["loc"] and item["loc"][0] in ("body", "query", "path", "header")]
    return [
        *field_errors_from_items(located, skip=1),
        *field_errors_from_items([item for item in items if item not in located]),
    ]


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
    async def invalid(request: Request, error: InvalidInputError):
        return _invalid(request, error.errors)

    @app.exception_handler(RequestValidationError)
    async def request_invalid(request: Request, error: RequestValidationError):
        return _invalid(request, _request_errors(error))
