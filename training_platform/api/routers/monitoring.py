import asyncio
import io
from contextlib import aclosing
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from pydantic import BaseModel

from training_platform.api.deps import PlatformDep
from training_platform.contract.metrics import json_number
from training_platform.errors import NotFoundError
from training_platform.metrics.ingest import IngestReport
from training_platform.metrics.live import finished_message, metric_message
from training_platform.metrics.playback import PlaybackRequest, playback
from training_platform.platform import Platform

router = APIRouter(prefix="/monitoring", tags=["monitoring"])


class SeriesOut(BaseModel):
    key: str
    steps: list[int]
    values: list[float | str]  # NaN/Infinity as "NaN", "Infinity", "-Infinity"
    total_points: int
    downsampled: bool


class MetricsOut(BaseModel):
    job_id: str
    series: list[SeriesOut]


class KeyOut(BaseModel):
    key: str
    points: int
    first_step: int
    last_step: int


class AnomalyOut(BaseModel):
    step: int
    kind: str
    message: str


class MalformedOut(BaseModel):
    line_number: int
    reason: str


class SyncOut(BaseModel):
    records: int
    values: int
    bytes_read: int
    rewrites: int
    malformed: list[MalformedOut]

    @classmethod
    def of(cls, report: IngestReport) -> "SyncOut":
        malformed = [MalformedOut(line_number=m.line_number, reason=m.reason) for m in report.malformed]
        return cls(
            records=report.records,
            values=report.values,
            bytes_read=report.bytes_read,
            rewrites=report.rewrites,
            malformed=malformed,
        )


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
    start_step: Annotated[int | None, Query(ge=0)] = None,
    end_step: Annotated[int | None, Query(ge=0)] = None,
    max_points: Annotated[
        int | None, Query(ge=1, description="Downsample each series to at most this many points.")
    ] = None,
) -> MetricsOut:
    found, series = platform.metrics.query(job, _split_keys(keys), start_step, end_step, max_points)
    return MetricsOut(
        job_id=found.id,
        series=[
            SeriesOut(
                key=s.key,
                steps=s.steps,
                values=[json_number(v) for v in s.values],
                total_points=s.total_points,
                downsampled=s.downsampled,
            )
            for s in series
        ],
    )


@router.get("/{job}/metrics/keys")
def get_metric_keys(job: str, platform: PlatformDep) -> list[KeyOut]:
    return [KeyOut(**vars(info)) for info in platform.metrics.keys(job)]


@router.get("/{job}/metrics/anomalies")
def get_anomalies(job: str, platform: PlatformDep) -> list[AnomalyOut]:
    return [AnomalyOut(step=a.step, kind=a.kind, message=a.message) for a in platform.metrics.anomalies(job)]


@router.post("/{job}/metrics/sync")
async def sync_metrics(job: str, platform: PlatformDep) -> SyncOut:
    """Ingest now what the job's metrics file holds beyond what is stored (idempotent)."""
    return SyncOut.of(await platform.metrics.sync(job))


@router.get("/{job}/metrics/export")
def export_metrics(job: str, platform: PlatformDep, format: Literal["csv", "parquet"] = "csv") -> Response:
    """All of a job's metrics, one row per step and one column per key."""
    found = platform.jobs.get(job)
    table = platform.metrics.export_table(found.id)
    buffer = io.BytesIO()
    if format == "csv":
        import pyarrow.csv as pa_csv

        pa_csv.write_csv(table, buffer)
        media_type = "text/csv"
    else:
        import pyarrow.parquet as pq

        pq.write_table(table, buffer)
        media_type = "application/vnd.apache.parquet"
    headers = {"content-disposition": f'attachment; filename="{found.name}-metrics.{format}"'}
    return Response(buffer.getvalue(), media_type=media_type, headers=headers)


async def _job_or_close(websocket: WebSocket, platform: Platform, job: str) -> Any:
    try:
        return await run_in_threadpool(platform.jobs.get, job)
    except NotFoundError as error:
        await websocket.close(code=4404, reason=str(error))
        return None


async def _until_disconnected(websocket: WebSocket, queue: asyncio.Queue):
    """The queue's messages until the viewer goes away; a viewer only listening would otherwise leave the
    handler waiting on the queue forever after a disconnect."""
    disconnected = asyncio.create_task(_wait_for_disconnect(websocket))
    try:
        while True:
            next_message = asyncio.create_task(queue.get())
            await asyncio.wait({next_message, disconnected}, return_when=asyncio.FIRST_COMPLETED)
            if disconnected.done():
                next_message.cancel()
                return
            yield next_message.result()
    finally:
        disconnected.cancel()


async def _wait_for_disconnect(websocket: WebSocket) -> None:
    while (await websocket.receive())["type"] != "websocket.disconnect":
        pass


@router.websocket("/{job}/live")
async def live(websocket: WebSocket, job: str, since_step: int = 0):
    """Every step after `since_step` (history first, so a reconnecting viewer misses nothing), then live
    `metric` and `status` messages, then `finished` when the job completes, fails or is cancelled."""
    platform: Platform = websocket.app.state.platform
    found = await _job_or_close(websocket, platform, job)
    if found is None:
        return
    await websocket.accept()
    queue = platform.metrics.hub.subscribe(found.id)  # before reading history, so nothing falls in between
    try:
        history = await platform.metrics.history(found.id, since_step)
        for step, values in history:
            await websocket.send_json(metric_message(step, values))
        sent_up_to = history[-1][0] if history else since_step
        await websocket.send_json(await run_in_threadpool(platform.metrics.status_message, found.id))
        current = await run_in_threadpool(platform.jobs.get, found.id)
        if not platform.metrics.is_live(current):
            await websocket.send_json(finished_message(current.status))
            return
        async with aclosing(_until_disconnected(websocket, queue)) as messages:
            async for message in messages:
                if message["type"] == "metric" and message["data"]["step"] <= sent_up_to:
                    continue  # already sent as history
                await websocket.send_json(message)
                if message["type"] == "finished":
                    return
    except WebSocketDisconnect:
        pass
    finally:
        platform.metrics.hub.unsubscribe(found.id, queue)
        if websocket.client_state.name == "CONNECTED":
            await websocket.close()


@router.websocket("/{job}/playback")
async def playback_socket(
    websocket: WebSocket, job: str, start_step: int | None = None, end_step: int | None = None, speed: float = 1.0
):
    """Replays recorded steps at `speed` (0.1x-10x) of their recorded pace, with progress."""
    platform: Platform = websocket.app.state.platform
    found = await _job_or_close(websocket, platform, job)
    if found is None:
        return
    try:
        request = PlaybackRequest(start_step=start_step, end_step=end_step, speed=speed)
    except ValueError as error:
        await websocket.close(code=4422, reason=str(error)[:120])
        return
    await websocket.accept()
    try:
        records = await run_in_threadpool(platform.metrics.recorded, found.id, request.start_step, request.end_step)
        async for message in playback(records, request, asyncio.sleep):
            await websocket.send_json(message)
        await websocket.close()
    except WebSocketDisconnect:
        pass
