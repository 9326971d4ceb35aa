import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from training_platform.api.auth_deps import PrincipalDep
from training_platform.api.deps import PlatformDep
from training_platform.auth.schemas import Principal
from training_platform.contract.params import MAX_STEPS
from training_platform.errors import NotFoundError
from training_platform.metrics.live import TRY_AGAIN_LATER, ClientBudget
from training_platform.metrics.playback import PlaybackRequest
from training_platform.metrics.schemas import AnomalyOut, ImportOut, KeyOut, MetricsOut, SyncOut
from training_platform.platform import Platform

router = APIRouter(prefix="/monitoring", tags=["monitoring"])
MEDIA_TYPES = {"csv": "text/csv", "parquet": "application/vnd.apache.parquet"}


def _split_keys(keys: list[str] | None) -> list[str] | None:
    if not keys:
        return None
    return [key for item in keys for key in item.split(",") if key]


@router.get("/{job}/metrics")
def get_metrics(
    job: str,
    platform: PlatformDep,
    keys: Annotated[
        list[str] | None, Query(description="Keys to return (repeat, or comma-separate); all if omitted.")
    ] = None,
    start_step: Annotated[int | None, Query(ge=0, le=MAX_STEPS)] = None,
    end_step: Annotated[int | None, Query(ge=0, le=MAX_STEPS)] = None,
    max_points: Annotated[
        int | None,
        Query(
            ge=1,
            le=MAX_STEPS,
            description="Downsample each series to at most this many points (all of them together stay within "
            "the server's limit, PLATFORM_METRICS_MAX_POINTS).",
        ),
    ] = None,
) -> MetricsOut:
    return platform.metrics.query(job, _split_keys(keys), start_step, end_step, max_points)


@router.get("/{job}/metrics/keys")
def get_metric_keys(job: str, platform: PlatformDep) -> list[KeyOut]:
    return platform.metrics.keys(job)


@router.get("/{job}/metrics/anomalies")
def get_anomalies(job: str, platform: PlatformDep) -> list[AnomalyOut]:
    return platform.metrics.anomalies(job)


@router.post("/{job}/metrics/sync")
async def sync_metrics(job: str, platform: PlatformDep) -> SyncOut:
    """Ingest now what the job's metrics file holds beyond what is stored (idempotent)."""
    return await platform.metrics.sync(job)


@router.post("/{job}/metrics/import")
async def import_metrics(
    job: str,
    request: Request,
    platform: PlatformDep,
    filename: Annotated[
        str, Query(min_length=1, max_length=255, description="The file's name; it is kept under this name.")
    ],
) -> ImportOut:
    """The request body is a metrics file (the platform's JSON lines, verl's file logger or verl's console
    output), read into the job; an unknown job name makes an external job. Sending it again reads only what is
    new (or rewritten)."""
    return await platform.metrics.import_upload(job, filename, request.stream())


@router.get("/{job}/metrics/export")
def export_metrics(job: str, platform: PlatformDep, format: Literal["csv", "parquet"] = "csv") -> Response:
    """All of a job's metrics, one row per step and one column per key."""
    content, filename = platform.metrics.export(job, format)
    headers = {"content-disposition": f'attachment; filename="{filename}"'}
    return Response(content, media_type=MEDIA_TYPES[format], headers=headers)


@asynccontextmanager
async def _admitted(
    websocket: WebSocket, platform: Platform, principal: Principal, job: str
) -> AsyncIterator[str | None]:
    """The job's id while this viewer holds one of the PLATFORM_MAX_WEBSOCKETS places (and one of its user's
    PLATFORM_MAX_WEBSOCKETS_PER_USER); None (the socket closed with the reason) when every place is taken or there
    is no such job."""
    with platform.metrics.hub.connection(principal.name) as refusal:
        if refusal is not None:
            # Accepted first: a close before the handshake reaches the client as a bare HTTP 403, without the code.
            await websocket.accept()
            await websocket.close(code=TRY_AGAIN_LATER, reason=refusal)
            yield None
            return
        try:
            job_id = (await run_in_threadpool(platform.jobs.find, job)).id
        except NotFoundError as error:
            await websocket.close(code=4404, reason=str(error))
            job_id = None
        yield job_id


async def _send_until_disconnected(websocket: WebSocket, messages: AsyncIterator[dict[str, Any]]) -> None:
    """Send the messages until they end or the viewer goes away: a viewer only listening would otherwise leave the
    handler waiting for the next message forever after a disconnect. A viewer sending more than a keep-alive now
    and then is closed (metrics/live.py: ClientBudget)."""
    disconnected = asyncio.create_task(_wait_for_disconnect(websocket))
    try:
        while True:
            next_message = asyncio.ensure_future(anext(messages))
            await asyncio.wait({next_message, disconnected}, return_when=asyncio.FIRST_COMPLETED)
            if disconnected.done():
                next_message.cancel()
                await asyncio.gather(next_message, return_exceptions=True)
                if (refusal := disconnected.result()) is not None:
                    await websocket.close(code=refusal[0], reason=refusal[1])
                return
            try:
                message = next_message.result()
            except StopAsyncIteration:
                return
            await websocket.send_json(message)
    finally:
        disconnected.cancel()
        await messages.aclose()


async def _wait_for_disconnect(websocket: WebSocket) -> tuple[int, str] | None:
    """None when the viewer went away; the close code and reason when it sent what it may not."""
    budget = ClientBudget()
    while (message := await websocket.receive())["type"] != "websocket.disconnect":
        if (refusal := budget.refusal(message)) is not None:
            return refusal
    return None


async def _close_if_open(websocket: WebSocket) -> None:
    """Close unless the viewer went away or the socket was closed already (a refused viewer)."""
    if websocket.client_state.name == "CONNECTED" and websocket.application_state.name == "CONNECTED":
        await websocket.close()


@router.websocket("/{job}/live")
async def live(
    websocket: WebSocket,
    job: str,
    principal: PrincipalDep,
    since_step: Annotated[int, Query(ge=0, le=MAX_STEPS)] = 0,
):
    """Every step after `since_step` (history first, so a reconnecting viewer misses nothing), then live
    `metric` and `status` messages, then `finished` when the job completes, fails or is cancelled."""
    platform: Platform = websocket.app.state.platform
    async with _admitted(websocket, platform, principal, job) as job_id:
        if job_id is None:
            return
        await websocket.accept()
        try:
            await _send_until_disconnected(websocket, platform.metrics.live(job_id, since_step))
        except WebSocketDisconnect:
            pass
        await _close_if_open(websocket)


@router.websocket("/{job}/playback")
async def playback_socket(
    websocket: WebSocket,
    job: str,
    principal: PrincipalDep,
    start_step: int | None = None,
    end_step: int | None = None,
    speed: float = 1.0,
):
    """Replays recorded steps at `speed` (0.1x-10x) of their recorded pace, with progress."""
    platform: Platform = websocket.app.state.platform
    async with _admitted(websocket, platform, principal, job) as job_id:
        if job_id is None:
            return
        try:
            request = PlaybackRequest(start_step=start_step, end_step=end_step, speed=speed)
        except ValueError as error:
            await websocket.close(code=4422, reason=str(error)[:120])
            return
        await websocket.accept()
        try:
            await _send_until_disconnected(websocket, platform.metrics.playback(job_id, request))
            await _close_if_open(websocket)
        except WebSocketDisconnect:
            pass
