"""The Celery side of pipelines, and the only module that imports Celery: the app (Redis as broker, no result
backend: a pipeline's truth is in the platform's database), the stage task, and a worker's way to the platform,
its HTTP API with the worker's token (a worker never opens the platform's home or database).

Delivery: late acknowledgement, one message prefetched per process, and a message whose worker died is
delivered again; a copy of a task that already ran finds its stage taken (a compare-and-set on the stage's row)
and ends without doing anything. A worker killed mid-stage stops renewing the stage's lease; the server then
dispatches the stage again and the new task re-attaches to the same job (pipelines/service.py).
"""

import logging
import threading
import time
from urllib.parse import quote

import httpx
from celery import Celery
from celery.signals import worker_shutting_down

from training_platform.pipelines.protocol import StageClaim, StageTask
from training_platform.pipelines.stage_task import run_stage

log = logging.getLogger(__name__)
TASK_NAME = "training_platform.pipelines.run_stage"
QUEUE = "training-platform-pipelines"
# Redis gives an unacknowledged message to another worker after this long; the stage's lease, not this, decides
# who runs a stage, so a redelivered copy of a running stage's task is refused by the claim.
VISIBILITY_TIMEOUT_S = 3600
RETRY_STATUSES = frozenset({502, 503, 504})


def celery_app(broker_url: str) -> Celery:
    app = Celery("training_platform", broker=broker_url, set_as_current=False)
    app.conf.update(
        task_serializer="json",
        accept_content=["json"],
        task_ignore_result=True,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_default_queue=QUEUE,
        broker_connection_retry_on_startup=True,
        broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT_S},
        worker_hijack_root_logger=False,
        worker_send_task_events=False,
    )
    return app


class HttpStageApi:
    """The stage endpoints of the platform's API. A server that is down (restarting) is waited for, with backoff,
    up to `patience` seconds: the task's stage outlives a server restart."""

    def __init__(self, server_url: str, token: str | None, patience: float = 600.0):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = httpx.Client(base_url=f"{server_url.rstrip('/')}/api/v1", headers=headers, timeout=60)
        self.patience = patience

    def claim(self, pipeline: str, stage: str, claim: StageClaim) -> StageTask:
        return StageTask.model_validate(self._post(pipeline, stage, "claim", claim))

    def heartbeat(self, pipeline: str, stage: str, claim: StageClaim) -> StageTask:
        return StageTask.model_validate(self._post(pipeline, stage, "heartbeat", claim))

    def settle(self, pipeline: str, stage: str, claim: StageClaim) -> None:
        self._post(pipeline, stage, "settle", claim)

    def _post(self, pipeline: str, stage: str, action: str, claim: StageClaim) -> dict:
        path = f"/pipelines/{quote(pipeline, safe='')}/stages/{quote(stage, safe='')}/{action}"
        deadline = time.monotonic() + self.patience
        delay = 0.2
        while True:
            try:
                response = self.http.post(path, json=claim.model_dump())
            except httpx.TransportError as error:
                if time.monotonic() > deadline:
                    raise
                log.warning("the platform is unreachable (%s): trying again in %.1f s", error, delay)
            else:
                if response.status_code not in RETRY_STATUSES or time.monotonic() > deadline:
                    response.raise_for_status()
                    return response.json()
            time.sleep(delay)  # a server restarting: back off, up to a few seconds between tries
            delay = min(delay * 2, 5.0)


def run_worker(broker_url: str, server_url: str, token: str | None, concurrency: int, name: str) -> None:
    """Serve stage tasks until stopped (SIGTERM: a warm shutdown; the running stages' tasks leave their stages,
    which the next worker takes over when their lease runs out)."""
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per heartbeat otherwise
    app = celery_app(broker_url)
    api = HttpStageApi(server_url, token)
    closing = threading.Event()

    # A warm shutdown (SIGTERM) waits for the running tasks: they leave their stages at once, for the next
    # worker to take over when the lease runs out, rather than follow a job for hours.
    worker_shutting_down.connect(lambda **_: closing.set(), weak=False)

    @app.task(name=TASK_NAME, bind=True)
    def stage_task(task, pipeline_id: str, stage: str, task_id: str) -> str:
        return run_stage(api, pipeline_id, stage, task_id, name, closing.wait)

    app.worker_main(
        [
            "worker",
            "--pool=threads",
            f"--concurrency={concurrency}",
            f"--hostname={name}",
            f"--queues={QUEUE}",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
    )
