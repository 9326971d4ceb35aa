"""Live messages and their in-process fan-out: one reader per job, any number of viewers."""

import asyncio
from collections import defaultdict
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from training_platform.contract.metrics import json_number, to_grouped

# A slow viewer must not hold the others back or grow memory without bound.
QUEUE_LIMIT = 10_000


def metric_message(step: int, values: Mapping[str, float]) -> dict[str, Any]:
    values = dict(values)
    timestamp = values.pop("timestamp", None)
    data: dict[str, Any] = {"step": step}
    if timestamp is not None:
        data["timestamp"] = datetime.fromtimestamp(timestamp, UTC).isoformat()
    grouped = to_grouped({key: json_number(value) for key, value in values.items()})
    return {"type": "metric", "data": {**data, **grouped}}


def finished_message(status: str) -> dict[str, Any]:
    return {"type": "finished", "status": status}


class LiveHub:
    """Publish/subscribe per job inside one event loop; publishers on other threads use publish_threadsafe."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[asyncio.Queue]] = defaultdict(set)
        self.loop: asyncio.AbstractEventLoop | None = None

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def subscribe(self, job_id: str) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue(maxsize=QUEUE_LIMIT)
        self._subscribers[job_id].add(queue)
        return queue

    def unsubscribe(self, job_id: str, queue: asyncio.Queue) -> None:
        self._subscribers[job_id].discard(queue)
        if not self._subscribers[job_id]:
            del self._subscribers[job_id]

    def viewers(self, job_id: str) -> int:
        return len(self._subscribers.get(job_id, ()))

    def publish(self, job_id: str, message: dict[str, Any]) -> None:
        for queue in list(self._subscribers.get(job_id, ())):
            if queue.full():
                queue.get_nowait()  # drop the oldest for this viewer only; it can re-sync with since_step
            queue.put_nowait(message)

    def publish_threadsafe(self, job_id: str, message: dict[str, Any]) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.publish, job_id, message)
