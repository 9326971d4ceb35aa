"""What a request changed, said by the service that changed it.

Services `report` what they created and what happened to a job (queued, started, resumed) as they do it; whoever
handles a request collects the reports with `collect` (the access middleware, api/security.py, makes the caller
the owner of what was created and writes the audit log from them). Nothing is learnt by reading an answer back.

A report outside any collection goes nowhere: work no request asked for (the scheduler starting a queued job once
GPUs free up) has no one to attribute it to.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class Change:
    kind: str  # what changed: "job", "dataset", "model" (the audit log's resource kinds)
    id: str
    name: str | None
    action: str  # what happened, as the audit log says it: "created", "registered", "queued", "started", ...
    created: bool = False  # a new resource: the caller owns it


_collected: ContextVar[list[Change] | None] = ContextVar("changes", default=None)


def report(change: Change) -> None:
    if (changes := _collected.get()) is not None:
        changes.append(change)


@contextmanager
def collect() -> Iterator[list[Change]]:
    """The changes reported in this context (threads started by run_in_threadpool and asyncio.to_thread copy it)."""
    changes: list[Change] = []
    token = _collected.set(changes)
    try:
        yield changes
    finally:
        _collected.reset(token)
