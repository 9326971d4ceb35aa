"""Where a stage's task runs: on Celery's workers when PLATFORM_CELERY_BROKER_URL names a broker (any number of
them, on any machine that reaches the broker and the platform's API), else on threads of the server's own
process (the embedded default: nothing to install). Either way the same `run_stage` does the work."""

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Literal, Protocol

from training_platform.pipelines.stage_task import StageApi, run_stage

log = logging.getLogger(__name__)


class StageExecutor(Protocol):
    name: Literal["celery", "in-process"]
    survives_restart: bool  # whether a task outlives the server (a Celery worker's does; a thread's does not)

    def submit(self, pipeline_id: str, stage: str, task_id: str) -> None: ...

    def close(self) -> None: ...


class CeleryExecutor:
    name: Literal["celery"] = "celery"
    survives_restart = True

    def __init__(self, broker_url: str):
        from training_platform.pipelines.worker import celery_app

        self.app = celery_app(broker_url)

    def submit(self, pipeline_id: str, stage: str, task_id: str) -> None:
        from training_platform.pipelines.worker import TASK_NAME

        self.app.send_task(TASK_NAME, args=[pipeline_id, stage, task_id], task_id=task_id)

    def close(self) -> None:
        self.app.close()


class InProcessExecutor:
    """Threads of the server: a stage task per thread, `threads` at once (the rest wait their turn)."""

    name: Literal["in-process"] = "in-process"
    survives_restart = False

    def __init__(self, threads: int):
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="pipeline-stage")
        self.closing = threading.Event()
        self.api: StageApi | None = None

    def bind(self, api: StageApi) -> None:
        """The tasks' way to the platform: in the server, the pipelines service itself (no HTTP to itself)."""
        self.api = api

    def submit(self, pipeline_id: str, stage: str, task_id: str) -> None:
        self.pool.submit(self._run, pipeline_id, stage, task_id)

    def _run(self, pipeline_id: str, stage: str, task_id: str) -> None:
        if self.closing.is_set():
            return
        try:
            run_stage(self.api, pipeline_id, stage, task_id, "server", self.closing.wait)
        except Exception:
            # The stage keeps its lease until it runs out; the tick then dispatches it again.
            log.exception("stage %s of pipeline %s: its task %s failed", stage, pipeline_id, task_id)

    def close(self) -> None:
        self.closing.set()
        self.pool.shutdown(wait=True, cancel_futures=True)
