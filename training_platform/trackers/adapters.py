"""One adapter per tracker, registered under the `kind` a job's tracker spec names (as engines/registry.py keys the
engines). An adapter opens (or resumes) the tracker's run, logs steps, and ends the run; a failure raises, and the
export's cursor then stays where it was (trackers/service.py retries).

Each call returns only once the tracker took what it was given: MLflow answered, TensorBoard's event file and W&B's
run process were handed the records. No adapter keeps points of its own between calls.
"""

import json
import logging
import math
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from training_platform import __version__
from training_platform.common.destinations import Destinations
from training_platform.common.registry import Registry
from training_platform.trackers.schemas import MlflowExport, WandbExport

log = logging.getLogger(__name__)

# MLflow's limits (mlflow/utils/validation.py): metrics and params per log-batch request, key and value lengths.
MLFLOW_METRICS_PER_BATCH = 1000
MLFLOW_PARAMS_PER_BATCH = 100
MLFLOW_KEY_CHARS = 250
MLFLOW_PARAM_CHARS = 6000
MLFLOW_TAG_CHARS = 8000
# What MLflow accepts in a metric or parameter name (mlflow/utils/validation.py, validate_param_and_metric_name).
MLFLOW_NAME_REFUSED = re.compile(r"[^/\w.\- :]")
# What a TensorBoard tag may not hold (tensorboardX's summary._clean_tag, which would otherwise rename it silently).
TENSORBOARD_TAG_REFUSED = re.compile(r"[^-/\w.]")
EXPORT_TAG = "training_platform.export"  # finds the run of an export again after a crash between its creation and ours
ERROR_CHARS = 500


@dataclass(frozen=True)
class Step:
    step: int
    timestamp: float  # seconds since the epoch
    values: dict[str, float]


@dataclass(frozen=True)
class RunInfo:
    """What an adapter knows of the job whose run it opens."""

    job_id: str
    position: int  # the export's place in the job's list of trackers
    job_name: str
    output_dir: Path
    params: dict[str, str]  # flat: the job's parameters, engine, model and data
    run_ref: str | None  # the run this export opened before (a restart resumes it), None the first time

    @property
    def export_key(self) -> str:
        """Names the export wherever the tracker needs an id of it: a W&B run id, an MLflow run's tag."""
        return f"{self.job_id}-{self.position}"


@dataclass(frozen=True)
class Connections:
    """What adapters that reach a server share: the addresses they may reach, a request's timeout, the secrets."""

    destinations: Destinations
    timeout_seconds: float
    secret: Callable[[str], str]  # a secret's value by name (secrets/service.py: raises when there is none)


class TrackerError(Exception):
    """The tracker did not take a request (down, refused it, timed out); the message names why."""


class Tracker(ABC):
    @abstractmethod
    def open(self, run: RunInfo) -> str:
        """Start the run with the job's parameters, or resume `run.run_ref`; the run's reference, to keep."""

    @abstractmethod
    def log(self, steps: list[Step]) -> None:
        """Record the steps, in order; returns once the tracker took them all."""

    @abstractmethod
    def close(self, outcome: str, final_model: str | None) -> None:
        """End the run: `outcome` is the job's status (completed, failed, cancelled); the final model's path."""

    @abstractmethod
    def release(self) -> None:
        """Let go of what the adapter holds (the server stops): the run stays open, to be resumed."""


trackers: Registry[Callable[[dict[str, Any], Connections], Tracker]] = Registry("tracker")


@trackers.register("tensorboard")
class TensorBoardTracker(Tracker):
    """Event files in `<job>/tensorboard/`, one scalar per key and step (TensorBoard's `add_scalar`); a resumed run
    adds a file beside the earlier ones, and TensorBoard reads the folder as one run."""

    def __init__(self, spec: dict[str, Any], connections: Connections):
        self._writer = None

    def open(self, run: RunInfo) -> str:
        from tensorboardX import SummaryWriter  # noqa: PLC0415 (loaded by the exports that use it only)

        folder = run.output_dir / "tensorboard"
        # A file of its own each time (its name otherwise has only the second and the host: a quick restart's
        # writer would take the earlier one's name); flushed by `log`, not by a timer.
        self._writer = SummaryWriter(logdir=str(folder), flush_secs=3600, filename_suffix=f".{time.time_ns()}")
        if run.run_ref is None:
            self._writer.add_text("job/params", _markdown_table(run.params))
            self._writer.flush()
        return str(folder)

    def log(self, steps: list[Step]) -> None:
        for step in steps:
            for key, value in step.values.items():
                self._writer.add_scalar(tensorboard_tag(key), value, global_step=step.step, walltime=step.timestamp)
        self._writer.flush()

    def close(self, outcome: str, final_model: str | None) -> None:
        self._writer.add_text("job/outcome", outcome)
        if final_model:
            self._writer.add_text("job/final_model", final_model)
        self.release()

    def release(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None


@trackers.register("mlflow")
class MlflowTracker(Tracker):
    """A run on an MLflow tracking server through its REST API (/api/2.0/mlflow/…, the routes of MLflow's
    mlflow/server/handlers.py): the experiment made when missing, the run created with the job's parameters,
    metrics by log-batch, the outcome by runs/update. A metric's timestamp is its step's, so a batch sent again
    after a crash (the tracker took it, the cursor had not moved) repeats identical points, which MLflow's SQL store
    keeps once."""

    def __init__(self, spec: dict[str, Any], connections: Connections):
        self.spec = MlflowExport.model_validate(spec)
        self.connections = connections
        # No redirects (a request goes where the URL says), no connection kept: each request goes to the address
        # checked for it (common/destinations.py).
        self._client = httpx.Client(
            timeout=connections.timeout_seconds,
            follow_redirects=False,
            limits=httpx.Limits(max_keepalive_connections=0),
            headers={"User-Agent": f"training-platform/{__version__}"},
        )
        self.run_id: str | None = None

    def open(self, run: RunInfo) -> str:
        if run.run_ref is not None:
            self.run_id = run.run_ref
            return run.run_ref
        experiment_id = self._experiment_id()
        self.run_id = self._existing_run(experiment_id, run.export_key) or self._create_run(experiment_id, run)
        params = [{"key": mlflow_name(key), "value": value[:MLFLOW_PARAM_CHARS]} for key, value in run.params.items()]
        for start in range(0, len(params), MLFLOW_PARAMS_PER_BATCH):
            # Logging a parameter again with the same value is accepted: a retried open is harmless.
            self._call(
                "runs/log-batch", {"run_id": self.run_id, "params": params[start : start + MLFLOW_PARAMS_PER_BATCH]}
            )
        return self.run_id

    def log(self, steps: list[Step]) -> None:
        metrics = [
            {
                "key": mlflow_name(key),
                "value": _json_number(value),
                "timestamp": int(step.timestamp * 1000),
                "step": step.step,
            }
            for step in steps
            for key, value in step.values.items()
        ]
        for start in range(0, len(metrics), MLFLOW_METRICS_PER_BATCH):
            self._call(
                "runs/log-batch", {"run_id": self.run_id, "metrics": metrics[start : start + MLFLOW_METRICS_PER_BATCH]}
            )

    def close(self, outcome: str, final_model: str | None) -> None:
        if final_model:
            self._call(
                "runs/set-tag",
                {
                    "run_id": self.run_id,
                    "key": "training_platform.final_model",
                    "value": final_model[:MLFLOW_TAG_CHARS],
                },
            )
        status = {"completed": "FINISHED", "failed": "FAILED"}.get(outcome, "KILLED")
        self._call("runs/update", {"run_id": self.run_id, "status": status, "end_time": int(time.time() * 1000)})
        self.release()

    def release(self) -> None:
        self._client.close()

    def _experiment_id(self) -> str:
        found = self._call("experiments/get-by-name", params={"experiment_name": self.spec.experiment}, missing_ok=True)
        if found is not None:
            return found["experiment"]["experiment_id"]
        made = self._call("experiments/create", {"name": self.spec.experiment}, exists_ok=True)
        if made is None:  # made meanwhile by another client
            return self._call("experiments/get-by-name", params={"experiment_name": self.spec.experiment})[
                "experiment"
            ]["experiment_id"]
        return made["experiment_id"]

    def _existing_run(self, experiment_id: str, export_key: str) -> str | None:
        body = {
            "experiment_ids": [experiment_id],
            "filter": f"tags.`{EXPORT_TAG}` = '{export_key}'",  # a hex id, a dash and a number: nothing to quote
            "max_results": 1,
        }
        runs = self._call("runs/search", body).get("runs", [])
        return runs[0]["info"]["run_id"] if runs else None

    def _create_run(self, experiment_id: str, run: RunInfo) -> str:
        tags = [
            {"key": EXPORT_TAG, "value": run.export_key},
            {"key": "training_platform.job_id", "value": run.job_id},
            {"key": "training_platform.job_name", "value": run.job_name},
        ]
        body = {
            "experiment_id": experiment_id,
            "run_name": run.job_name,
            "start_time": int(time.time() * 1000),
            "tags": tags,
        }
        return self._call("runs/create", body)["run"]["info"]["run_id"]

    def _call(
        self,
        route: str,
        body: dict[str, Any] | None = None,
        params: dict[str, str] | None = None,
        missing_ok: bool = False,
        exists_ok: bool = False,
    ) -> dict[str, Any] | None:
        url = f"{self.spec.tracking_uri}/api/2.0/mlflow/{route}"
        try:
            pinned = self.connections.destinations.pin(url)
            headers = dict(pinned.headers)
            if self.spec.token_secret:
                headers["Authorization"] = f"Bearer {self.connections.secret(self.spec.token_secret)}"
            response = self._client.request(
                "GET" if body is None else "POST",
                pinned.url,
                json=body,
                params=params,
                headers=headers,
                extensions=pinned.extensions,
            )
        except Exception as failure:  # noqa: BLE001 (whatever kept the request from being answered)
            raise TrackerError(
                f"MLflow at {self.spec.tracking_uri}: {type(failure).__name__}: {failure}"[:ERROR_CHARS]
            ) from None
        if response.status_code < 400:
            return response.json()
        code = _error_code(response)
        if (missing_ok and code == "RESOURCE_DOES_NOT_EXIST") or (exists_ok and code == "RESOURCE_ALREADY_EXISTS"):
            return None
        raise TrackerError(f"MLflow {route} answered HTTP {response.status_code} {code}: {response.text}"[:ERROR_CHARS])


@trackers.register("wandb")
class WandbTracker(Tracker):
    """A W&B run in this process (its records go to W&B's own service process). Offline, the run directory is
    `<job>/wandb/wandb/offline-run-…-<id>/`, for `wandb sync`; a resumed run adds a directory with the same run id."""

    def __init__(self, spec: dict[str, Any], connections: Connections):
        self.spec = WandbExport.model_validate(spec)
        self.connections = connections
        self._run = None

    def open(self, run: RunInfo) -> str:
        import wandb  # noqa: PLC0415 (loaded by the exports that use it only: it is large)

        try:
            api_key = self.connections.secret(self.spec.api_key_secret) if self.spec.mode == "online" else None
        except Exception as failure:  # noqa: BLE001 (no such secret, or no key to decrypt it with)
            raise TrackerError(f"W&B online needs the API key: {failure}"[:ERROR_CHARS]) from None
        run_id = run.run_ref or run.export_key
        folder = run.output_dir / "wandb"
        folder.mkdir(parents=True, exist_ok=True)
        settings = wandb.Settings(
            console="off",  # the server's own output is not the run's
            x_disable_stats=True,  # the server's machine is not the run's: the platform samples the job's own
            x_disable_machine_info=True,
            x_disable_meta=True,
            disable_git=True,  # the job's folder is no code repository, and the server's is not the run's
            disable_code=True,
            silent=True,
            reinit="create_new",  # one run per export, several at once in this process
            api_key=api_key,
        )
        try:
            self._run = wandb.init(
                project=self.spec.project,
                entity=self.spec.entity,
                id=run_id,
                name=run.job_name,
                mode=self.spec.mode,
                dir=str(folder),
                config=run.params if run.run_ref is None else None,
                resume="allow",
                settings=settings,
            )
        except Exception as failure:  # noqa: BLE001
            raise TrackerError(f"W&B: {type(failure).__name__}: {failure}"[:ERROR_CHARS]) from None
        return run_id

    def log(self, steps: list[Step]) -> None:
        for step in steps:
            # `_timestamp` is W&B's own column for a row's time: the step's, as in the other trackers.
            self._run.log({**step.values, "_timestamp": step.timestamp}, step=step.step, commit=True)

    def close(self, outcome: str, final_model: str | None) -> None:
        if final_model:
            self._run.summary["final_model"] = final_model
        self._run.summary["outcome"] = outcome
        self._run.finish(exit_code=0 if outcome == "completed" else 1)
        self._run = None

    def release(self) -> None:
        if self._run is not None:
            self._run.finish()
            self._run = None


def tensorboard_tag(key: str) -> str:
    """`key` as a TensorBoard tag: other characters become '_' (verl's `train/total_tokens(B)` is
    `train/total_tokens_B_`), no leading '/'."""
    return TENSORBOARD_TAG_REFUSED.sub("_", key).lstrip("/") or "_"


def mlflow_name(key: str) -> str:
    """`key` as MLflow accepts a name: other characters become '_', and the name must read as a relative path that
    stays as it is (no '//', no '.' or '..' part, no '/' at either end: MLflow's path_not_unique); at most 250."""
    name = "/".join(part for part in MLFLOW_NAME_REFUSED.sub("_", key).split("/") if part not in ("", ".", ".."))
    return (name or "_")[:MLFLOW_KEY_CHARS]


def _json_number(value: float) -> float | str:
    """A double in protobuf's JSON mapping, which MLflow parses: NaN and the infinities as strings."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return value


def _error_code(response: httpx.Response) -> str:
    try:
        return str(response.json().get("error_code", ""))
    except (ValueError, AttributeError):
        return ""


def _markdown_table(params: dict[str, str]) -> str:
    rows = "\n".join(f"| {key} | {json.dumps(value)[1:-1]} |" for key, value in params.items())
    return f"| parameter | value |\n|---|---|\n{rows}"
