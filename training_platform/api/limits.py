"""Request bodies, bounded before a route reads them (docs/security.md, "Limits").

Every body is counted as it arrives, whatever its Content-Length says (a chunked body has none): over
`max_request_bytes` the request is answered 413 and the route never runs. Uploads are the exception: they stream
to disk under limits of their own (`dataset_max_upload_bytes`, `metrics_max_import_bytes`, counted by their
services), so they are passed through untouched. A JSON body nesting deeper than `max_json_depth` is answered 422
before it is parsed (datafiles/depth.py tells the depth from the bytes).
"""

import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse

from training_platform.datafiles.depth import too_deep
from training_platform.settings import Settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# The routes that stream their body to disk and count it against their own limit (api/routers/datasets.py,
# api/routers/monitoring.py).
STREAMED_UPLOADS = re.compile(r"^/api/v1/(datasets/upload|monitoring/[^/]+/metrics/import)/?$")
_INLINE_BYTES = 1 << 18


def install_limits(app: FastAPI, settings: Settings) -> None:
    app.add_middleware(BodyLimits, max_bytes=settings.max_request_bytes, max_depth=settings.max_json_depth)


def _error(status: int, field: str, message: str) -> JSONResponse:
    # The platform's one error shape (api/errors.py).
    return JSONResponse(
        status_code=status, content={"detail": message, "errors": [{"field": field, "message": message}]}
    )


def _is_json(scope: Scope) -> bool:
    """Whether FastAPI would parse the body as JSON: no content type, or a JSON one."""
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            media = value.split(b";", 1)[0].strip().lower()
            return media == b"application/json" or media.endswith(b"+json")
    return True


class BodyLimits:
    """Pure ASGI: the body of a request is read here first, counted, measured, and handed on whole."""

    def __init__(self, app: ASGIApp, max_bytes: int, max_depth: int):
        self.app = app
        self.max_bytes = max_bytes
        self.max_depth = max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or STREAMED_UPLOADS.match(scope["path"]):
            await self.app(scope, receive, send)
            return
        too_large = _error(
            413,
            "body",
            f"the request body is larger than the limit of {self.max_bytes} bytes (PLATFORM_MAX_REQUEST_BYTES)",
        )
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await too_large(scope, receive, send)
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client went away before its request was whole: nothing to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await too_large(scope, receive, send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if body and _is_json(scope) and await _too_deep(body, self.max_depth):
            message = f"the JSON body nests deeper than {self.max_depth} levels (PLATFORM_MAX_JSON_DEPTH)"
            await _error(422, "body", message)(scope, receive, send)
            return
        await self.app(scope, _replay(body, receive), send)


async def _too_deep(body: bytes, limit: int) -> bool:
    # Measuring takes ~25 ms a MB when a body has many brackets: a large one off the event loop.
    if len(body) < _INLINE_BYTES:
        return too_deep(body, limit)
    return await run_in_threadpool(too_deep, body, limit)


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body as one message, then whatever the server says next (a disconnect)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed
