"""A stage's task, the same code on a Celery worker and on the server's own threads: claim the stage, follow its
work while renewing the lease, settle it. It talks to the platform only through a `StageApi` (HTTP from a
worker, the service's methods in the server) and stops as soon as it hears it no longer holds the stage."""

import logging
from collections.abc import Callable
from typing import Protocol

from training_platform.pipelines.protocol import StageClaim, StageTask

log = logging.getLogger(__name__)
# How often a task asks how its stage's work stands (each answer renews the lease): a stage settles within this
# long of its work's end.
FOLLOW_SECONDS = 1.0


class StageApi(Protocol):
    def claim(self, pipeline: str, stage: str, claim: StageClaim) -> StageTask: ...

    def heartbeat(self, pipeline: str, stage: str, claim: StageClaim) -> StageTask: ...

    def settle(self, pipeline: str, stage: str, claim: StageClaim) -> object: ...


def run_stage(
    api: StageApi, pipeline: str, stage: str, task_id: str, worker: str, wait: Callable[[float], bool]
) -> str:
    """Run one stage to its end (or until another task holds it); `wait(seconds)` returns True to give up early
    (the process is closing). Returns how it ended, for the log."""
    claim = StageClaim(task_id=task_id, worker=worker)
    task = api.claim(pipeline, stage, claim)
    while task.holds and not task.settled:
        if wait(min(FOLLOW_SECONDS, task.lease_seconds / 3)):
            return "left to the next task: this process is closing"
        task = api.heartbeat(pipeline, stage, claim)
    if not task.holds:
        # Settled at its claim (a stage with nothing to follow), or taken over, cancelled, or a copy of a task that ran.
        log.info("stage %s of %s is %s; task %s leaves it", stage, pipeline, task.status, task_id)
        return f"stage {task.status}"
    api.settle(pipeline, stage, claim)
    return "settled"
