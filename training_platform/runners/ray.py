"""Runs jobs on a Ray cluster through Ray's Job Submission API (the dashboard's HTTP endpoint).

The job's command becomes the Ray job's entrypoint and its environment the runtime env's env_vars (verl's
workers need the file-logger path, the offline flags and the plugin there): only the launch spec's variables,
never the server's own environment. Paths are the job's own: the cluster
must see the platform's home (one machine, or shared storage).

Following a run survives a dashboard that is unreachable for a while: each call is retried with backoff, and
only when the cluster stayed unreachable for `patience_seconds` does the run end, as failed with that reason.
The driver's output is tailed over the dashboard's log WebSocket into the job's stdout log: only what is new
arrives, and after a reconnection (or a server restart) what the log already holds is skipped.

A run's GPUs are counted in nodes of the cluster (`nodes_for`): a node's devices are its Ray `GPU` resource (on a
CPU cluster, the logical GPUs `ray start --num-gpus` declares, one per training process there).
"""

import logging
import shlex
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import requests
from tenacity import Retrying, retry_if_exception, stop_after_delay, wait_exponential
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from training_platform.contract.run import LaunchSpec
from training_platform.errors import FieldError, InvalidInputError, UnavailableError
from training_platform.runners.base import ExitInfo, OutputFiles, ProcessHandle, Runner

log = logging.getLogger(__name__)
POLL_INTERVAL_S = 1.0
REQUEST_TIMEOUT_S = 10.0
PATIENCE_S = 300.0
LOG_DRAIN_S = 30.0  # how long a finished run's last output may take to arrive
MAX_NODES = 10_000  # nodes asked of Ray's state API at once (its default page is 100)
UNREACHABLE_RETRY_AFTER_S = 30
_RUNNING = {"PENDING", "RUNNING"}


def _transient(error: BaseException) -> bool:
    """A failure that may go away: the dashboard unreachable, slow, restarting or overloaded."""
    if isinstance(error, (ConnectionError, requests.exceptions.RequestException, TimeoutError, OSError)):
        return True
    return isinstance(error, RuntimeError) and "status code 5" in str(error)


def _banner(submission_id: str) -> str:
    return f"===== Ray job {submission_id} at "


class RayRunner(Runner):
    mode = "ray"
    in_ray_cluster = True

    def __init__(
        self,
        address: str,
        auth_token: str | None = None,
        patience_seconds: float = PATIENCE_S,
        poll_interval: float = POLL_INTERVAL_S,
    ):
        self.address = address.rstrip("/")
        self.auth_token = auth_token
        self.patience_seconds = patience_seconds
        self.poll_interval = poll_interval

    @property
    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.auth_token}"} if self.auth_token else {}

    def _client(self):
        from ray.job_submission import JobSubmissionClient

        class Client(JobSubmissionClient):
            # Ray's client sends its requests without a timeout: a dashboard that accepts and never answers
            # would hang the caller for good.
            def _do_request(self, method, endpoint, **kwargs):
                kwargs.setdefault("timeout", REQUEST_TIMEOUT_S)
                return super()._do_request(method, endpoint, **kwargs)

        return Client(self.address, headers=self._headers or None)

    def _call(self, what: str, function: Callable, patience: float | None = None):
        """`function()`, retried with backoff while the cluster cannot be reached, for `patience` seconds."""

        def report(state) -> None:
            log.warning("Ray at %s: %s failed (%s); retrying", self.address, what, state.outcome.exception())

        retrying = Retrying(
            retry=retry_if_exception(_transient),
            stop=stop_after_delay(self.patience_seconds if patience is None else patience),
            wait=wait_exponential(multiplier=0.5, max=15),
            before_sleep=report,
            reraise=True,
        )
        return retrying(function)

    def start(self, spec: LaunchSpec, output: OutputFiles, launch_id: str) -> ProcessHandle:
        # The launch id is the submission id: recorded before the submission, it finds the run after a restart.
        submission_id = launch_id
        entrypoint = f"cd {shlex.quote(str(spec.cwd))} && {shlex.join(spec.argv)}"
        # Submitted once: a retried submission could start the run twice.
        self._client().submit_job(
            entrypoint=entrypoint, submission_id=submission_id, runtime_env={"env_vars": dict(spec.env)}
        )
        output.stdout.parent.mkdir(parents=True, exist_ok=True)
        with open(output.stdout, "a", encoding="utf-8") as out:
            # One line, whatever the command holds: the log copy counts what follows this line as Ray's output.
            command = entrypoint.replace("\n", "\\n")
            out.write(f"\n{_banner(submission_id)}{self.address}: {command}\n")
        return ProcessHandle(ref=submission_id, started_at=time.time())

    def node_gpus(self) -> list[int]:
        """The GPUs of each alive node of the cluster (Ray's state API, `/api/v0/nodes`); UnavailableError when
        the cluster stays unreachable for the runner's patience (at most a request's timeout: someone waits)."""

        def ask() -> list[int]:
            response = requests.get(
                f"{self.address}/api/v0/nodes",
                params={"limit": MAX_NODES},
                headers=self._headers,
                timeout=REQUEST_TIMEOUT_S,
            )
            response.raise_for_status()
            nodes = response.json()["data"]["result"]["result"]
            return [int(node["resources_total"].get("GPU", 0)) for node in nodes if node["state"] == "ALIVE"]

        try:
            return self._call("nodes", ask, patience=min(self.patience_seconds, REQUEST_TIMEOUT_S))
        except Exception as error:
            if _transient(error):
                message = f"the Ray cluster at {self.address} cannot be reached to count its GPUs: {error}"
                raise UnavailableError(message, retry_after_seconds=UNREACHABLE_RETRY_AFTER_S) from error
            raise

    def nodes_for(self, num_gpus: int) -> int | None:
        """How many of the cluster's nodes a run of `num_gpus` GPUs spans (see `nodes_for`), asked now."""
        return nodes_for(num_gpus, self.node_gpus())

    def _status(self, handle: ProcessHandle, patience: float | None = None) -> str:
        status = self._call("status", lambda: self._client().get_job_status(handle.ref), patience)
        return str(status).rsplit(".", 1)[-1]

    def watch(self, handle: ProcessHandle, output: OutputFiles, on_exit: Callable[[ExitInfo], None]) -> None:
        threading.Thread(
            target=self._follow, args=(handle, output.stdout, on_exit), name=f"ray-{handle.ref}", daemon=True
        ).start()

    def _follow(self, handle: ProcessHandle, stdout: Path, on_exit: Callable[[ExitInfo], None]) -> None:
        finished = threading.Event()
        tail = threading.Thread(
            target=self._tail_logs, args=(handle, stdout, finished), name=f"ray-logs-{handle.ref}", daemon=True
        )
        tail.start()
        try:
            while (status := self._status(handle)) in _RUNNING:
                time.sleep(self.poll_interval)
            outcome = ExitInfo(code=0 if status == "SUCCEEDED" else 1, description=f"Ray job {status.lower()}")
        except Exception as error:  # noqa: BLE001 - unreachable past the patience, or refused: the run is lost to us
            why = f"unreachable for {self.patience_seconds:.0f} s" if _transient(error) else "refused"
            reason = f"Ray at {self.address} {why} while following run {handle.ref} (it may still run there): {error}"
            outcome = ExitInfo(code=None, description=reason)
        finished.set()
        tail.join(LOG_DRAIN_S)
        on_exit(outcome)

    def _tail_logs(self, handle: ProcessHandle, stdout: Path, finished: threading.Event) -> None:
        """Append the driver's output to `stdout` as it comes; Ray sends the whole log on every connection, so what
        the file already holds after this run's banner is skipped."""
        url = self.address.replace("http", "ws", 1) + f"/api/jobs/{handle.ref}/logs/tail"
        delay = 0.5
        while True:
            # A pass begun after the run ended is the last: Ray sends the whole log, then closes the stream. One
            # always follows the end, so a stream lost just before it (a restart, a dropped connection) loses no tail.
            last = finished.is_set()
            skip = _copied(stdout, handle.ref)
            try:
                with (
                    # Without permessage-deflate: Ray's dashboard (aiohttp 3.14) closes a compressed log stream
                    # at once, before its first message.
                    connect(
                        url, additional_headers=self._headers, open_timeout=REQUEST_TIMEOUT_S, compression=None
                    ) as socket,
                    open(stdout, "ab") as out,
                ):
                    delay = 0.5
                    for message in socket:
                        chunk = message.encode() if isinstance(message, str) else message
                        if skip >= len(chunk):
                            skip -= len(chunk)
                            continue
                        out.write(chunk[skip:])
                        out.flush()
                        skip = 0
            except (OSError, TimeoutError, WebSocketException) as error:
                log.debug("Ray log stream of %s interrupted: %s", handle.ref, error)
            if last:
                return
            # Ray closes the stream when the run ended (the next pass is the last); otherwise the connection was
            # lost: try again.
            finished.wait(delay)
            delay = min(delay * 2, 15.0)

    def find(self, launch_id: str) -> ProcessHandle | None:
        """The Ray job submitted under `launch_id`, if it may still run (unreachable counts, as for is_alive)."""
        handle = ProcessHandle(ref=launch_id, started_at=time.time())
        return handle if self.is_alive(handle) else None

    def is_alive(self, handle: ProcessHandle) -> bool:
        """Whether the run may still be going: a cluster that cannot be reached now is asked again by the
        follower (which fails the run only once its patience is spent), so it counts as alive."""
        try:
            return self._status(handle, patience=REQUEST_TIMEOUT_S) in _RUNNING
        except Exception as error:  # noqa: BLE001
            if _transient(error):
                return True
            log.warning("Ray job %s could not be looked up: %s", handle.ref, error)
            return False

    def clean_up(self, handle: ProcessHandle) -> None:
        """Nothing to do: Ray ends a job's workers with its driver."""

    def stop(self, handle: ProcessHandle, grace_seconds: float) -> bool:
        self._call("stop", lambda: self._client().stop_job(handle.ref))
        deadline = time.monotonic() + max(grace_seconds, 30.0)
        while time.monotonic() < deadline:
            if self._status(handle) not in _RUNNING:
                return True
            time.sleep(0.5)
        return False


def nodes_for(num_gpus: int, node_gpus: list[int]) -> int | None:
    """How many nodes a run of `num_gpus` GPUs spans, given each node's GPUs: the fewest that hold it in equal
    shares (torchrun and verl's resource pools give every node the same number of ranks). None when the cluster
    declares no GPUs at all: the run's processes stay on the node its driver runs on. A run the cluster cannot
    hold is refused, naming the cluster's shape; one whose GPUs are busy waits for them on the cluster."""
    if not any(node_gpus):
        return None
    for nnodes in range(1, len(node_gpus) + 1):
        share, rest = divmod(num_gpus, nnodes)
        if not rest and sum(gpus >= share for gpus in node_gpus) >= nnodes:
            return nnodes
    shape = ", ".join(f"{count} × {gpus} GPUs" for gpus, count in sorted(Counter(node_gpus).items(), reverse=True))
    if num_gpus > sum(node_gpus):
        message = f"{num_gpus} GPUs asked; the Ray cluster has {sum(node_gpus)} (nodes: {shape})"
    else:
        message = (
            f"{num_gpus} GPUs do not split into equal shares over nodes of the Ray cluster (nodes: {shape}); "
            "every node of a run holds the same number"
        )
    raise InvalidInputError([FieldError("params.num_gpus", message)])


def _copied(stdout: Path, submission_id: str) -> int:
    """Bytes of the run's Ray log that `stdout` already holds: what follows the run's banner line."""
    try:
        data = stdout.read_bytes()
    except FileNotFoundError:
        return 0
    start = data.rfind(_banner(submission_id).encode())
    if start < 0:
        return 0
    end_of_banner = data.find(b"\n", start)
    return 0 if end_of_banner < 0 else len(data) - end_of_banner - 1
