"""One error shape for every failure: {"detail": "<message>", "errors": [{"field", "message", "code"?, "row"?}]}.

Field errors with a code are answered in the request's language (`Accept-Language`, common/text.py); `detail`
joins them the same way.
"""

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

from training_platform.common.text import Language, Text, language_of, translated
from training_platform.errors import (
    NAME_PATTERN,
    VALIDATION_PREFIX,
    ConflictError,
    FieldError,
    InvalidInputError,
    NotFoundError,
    TooLargeError,
    UnavailableError,
    field_errors_from_items,
)
from training_platform.pipelines.definition import PipelineInvalid


class ErrorItem(BaseModel):
    model_config = ConfigDict(extra="allow")  # a pipeline's problems add their stage, and a cycle its stages

    field: str
    message: str
    code: str | None = None
    row: int | None = None
    line: int | None = None  # in the YAML the user wrote (a pipeline, a job file)


class ErrorBody(BaseModel):
    """The shape above, for the OpenAPI document (api/app.py declares it as every route's 422): the generated
    clients parse a 422 by it, not by FastAPI's default validation error, which this API never sends."""

    detail: str
    errors: list[ErrorItem]


# Patterns said in words in every language: pydantic's "String should match pattern '^[A-Za-z0-9]…'" is not.
PATTERN_MISMATCH = VALIDATION_PREFIX + "string_pattern_mismatch"
DESCRIBED_PATTERNS = {NAME_PATTERN: "form.name_pattern"}


def _response(status: int, detail: str) -> JSONResponse:
    return JSONResponse(status_code=status, content={"detail": detail, "errors": []})


def _invalid(request: Request, errors: list[FieldError]) -> JSONResponse:
    language = language_of(request.headers.get("accept-language"))
    items = [_item(error, language) for error in errors]
    detail = "; ".join(f"{error.where}: {item['message']}" for error, item in zip(errors, items, strict=True))
    return JSONResponse(status_code=422, content={"detail": detail, "errors": items})


def _item(error: FieldError, language: Language) -> dict:
    message = error.message
    if error.code == PATTERN_MISMATCH and (described := DESCRIBED_PATTERNS.get(error.params.get("pattern"))):
        message = Text.of(described).render(language)
    elif error.code is not None:
        message = translated(error.code, error.params, language, english=error.message)
    item = {"field": error.field, "message": message, "code": error.code, "row": error.row, "line": error.line}
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

    @app.exception_handler(PipelineInvalid)
    async def pipeline_invalid(_request: Request, error: PipelineInvalid):
        # Each problem with its stage (the stages of a cycle) and its YAML line, beside the field and message.
        items = [problem.item() for problem in error.problems]
        return JSONResponse(status_code=422, content={"detail": str(error), "errors": items})

    @app.exception_handler(InvalidInputError)
    async def invalid(request: Request, error: InvalidInputError):
        return _invalid(request, error.errors)

    @app.exception_handler(RequestValidationError)
    async def request_invalid(request: Request, error: RequestValidationError):
        return _invalid(request, _request_errors(error))
