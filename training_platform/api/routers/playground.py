import json
from collections.abc import AsyncIterator, Iterator

import anyio
from fastapi import APIRouter
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from training_platform.api.deps import PlatformDep
from training_platform.evals.playground import ChatRequest

router = APIRouter(prefix="/playground", tags=["playground"])
EVENT_STREAM = "text/event-stream"


@router.post(
    "/chat",
    response_class=StreamingResponse,
    responses={200: {"content": {EVENT_STREAM: {}}, "description": "Server-sent events, one JSON object each."}},
)
def chat(body: ChatRequest, platform: PlatformDep) -> StreamingResponse:
    """Stream a model's or an endpoint's answer to a conversation: `data: {"text": ...}` per piece, then
    `data: {"done": true, "seconds": ..., "characters": ...}`, or `data: {"error": ...}` where it fails after it
    began. A target that cannot answer (an unknown model, a missing secret, an endpoint that does not reply) is a
    422 naming its field, before anything is streamed."""
    events = platform.playground.chat(body)
    # No proxy may hold the pieces back to send them together.
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(_server_sent(events), media_type=EVENT_STREAM, headers=headers)


async def _server_sent(events: Iterator[dict]) -> AsyncIterator[str]:
    """The events as server-sent events, each read in a thread (a worker's answer blocks); when the reader goes away
    the events are closed in a thread too, which cancels the generation and frees the model for the next chat."""
    try:
        while (event := await run_in_threadpool(next, events, None)) is not None:
            yield f"data: {json.dumps(event, ensure_ascii=False)}\n\n"
    finally:
        with anyio.CancelScope(shield=True):
            await run_in_threadpool(events.close)
