"""Live messages and their in-process fan-out: one reader per job, any number of viewers (up to a limit)."""

import asyncio
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from training_platform.contract.metrics import json_number, to_grouped

# A slow viewer must not hold the others back or grow memory without bound.
QUEUE_LIMIT = 10_000
# What a viewer may send (docs/security.md, "Limits"): the sockets only send, so a client has nothing to say but
# the odd keep-alive; more, or larger, closes its socket.
CLIENT_MESSAGE_BYTES = 1024
CLIENT_MESSAGES_PER_MINUTE = 60
POLICY_VIOLATION, TOO_BIG, TRY_AGAIN_LATER = 1008, 1009, 1013  # WebSocket close codes (RFC 6455, IANA)


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


class ClientBudget:
    """What one viewer has sent so far; `refusal` says why its socket is closed, if it must be."""

    def __init__(self, clock=time.monotonic) -> None:
        self._clock = clock
        self._window_start = clock()
        self._count = 0

    def refusal(self, message: dict[str, Any]) -> tuple[int, str] | None:
        data = message.get("bytes") or message.get("text") or ""
        if len(data) > CLIENT_MESSAGE_BYTES:
            return TOO_BIG, f"messages to this socket are limited to {CLIENT_MESSAGE_BYTES} bytes"
        now = self._clock()
        if now - self._window_start >= 60:
            self._window_start, self._count = now, 0
        self._count += 1
        if self._count > CLIENT_MESSAGES_PER_MINUTE:
            return POLICY_VIOLATION, f"over {CLIENT_MESSAGES_PER_MINUTE} messages a minute to a socket that only sends"
        return None


class LiveHub:
    """Publish/subscribe per job inside one event loop; publishers on other threads use publish_threadsafe.
    It also counts the WebSocket connections open on the loop (live and playback), up to `max_connections`, and at
    most `max_per_user` of them for one user: one account cannot hold every place."""

    def __init__(self, max_connections: int = 256, max_per_user: int = 32) -> None:
        self._subscribers: dict[str, set[asyncio.Queue]] = defaultdict(set)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.max_connections = max_connections
        self.max_per_user = max_per_user
        self.connections = 0
        self._per_user: Counter[str] = Counter()

    @contextmanager
    def connection(self, user: str) -> Iterator[str | None]:
        """A place for one socket's lifetime: None when it got one, else why not (the caller closes the socket
        with 1013, try again later). Only the event loop's thread calls it, so no lock."""
        refusal = None
        if self.connections >= self.max_connections:
            refusal = "too many live connections (PLATFORM_MAX_WEBSOCKETS)"
        elif self._per_user[user] >= self.max_per_user:
            # Without the user's name: a close reason is at most 123 bytes (RFC 6455).
            refusal = f"you hold {self.max_per_user} live connections already (PLATFORM_MAX_WEBSOCKETS_PER_USER)"
        if refusal is None:
            self.connections += 1
            self._per_user[user] += 1
        try:
            yield refusal
        finally:
            if refusal is None:
                self.connections -= 1
                self._per_user[user] -= 1
                if not self._per_user[user]:
                    del self._per_user[user]

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
