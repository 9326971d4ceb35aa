"""A check's refusal, and how it is answered: a JSON error, on a WebSocket during its handshake."""

import json

from fastapi.responses import JSONResponse
from starlette.types import Message, Scope, Send


class Refusal(Exception):
    def __init__(self, status: int, detail: str, headers: dict[str, str] | None = None):
        self.status = status
        self.detail = detail
        self.headers = headers or {}
        super().__init__(detail)


def error_response(status: int, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(status_code=status, content={"detail": detail, "errors": []}, headers=headers)


async def refuse(scope: Scope, send: Send, refusal: Refusal) -> None:
    if scope["type"] == "http":
        await error_response(refusal.status, refusal.detail, refusal.headers)(scope, _no_body, send)
        return
    # A WebSocket is refused during its handshake: with the HTTP status and the same JSON body where the server
    # supports it (uvicorn does), else with close code 1008 (policy violation), which clients see as a 403.
    if "websocket.http.response" in scope.get("extensions", {}):
        body = json.dumps({"detail": refusal.detail, "errors": []}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        headers += [(name.encode(), value.encode()) for name, value in refusal.headers.items()]
        await send({"type": "websocket.http.response.start", "status": refusal.status, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
    else:
        await send({"type": "websocket.close", "code": 1008, "reason": refusal.detail[:120]})


async def _no_body() -> Message:
    return {"type": "http.disconnect"}
