"""Runs jobs on a Ray cluster through Ray's Job Submission API (the dashboard's HTTP endpoint).

The job's command becomes the Ray job's entrypoint and its environment the runtime env's env_vars
(verl's workers need the file-logger path, the offline flags and the plugin there). Paths are the
job's own: the cluster must see the platform's home (one machine, or shared storage). The driver's
output is copied into the job's stdout log as it comes; status and stop map onto Ray's.
"""

import logging
import shlex
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from training_platform.contract.run import LaunchSpec
from training_platform.runners.base import ExitInfo, ProcessHandle, Runner

log = logging.getLogger(__name__)
POLL_INTERVAL_S = 1.0
_RUNNING = {"PENDING", "RUNNING"}


class RayRunner(Runner):
    mode = "ray"

    def __init__(self, address: str, auth_token: str | None = None):
        self.address = address
        self.auth_token = auth_token
        self._log_paths: dict[str, Path] = {}

    def _client(self):
        from ray.job_submission import JobSubmissionClient

        headers = {"Authorization": f"Bearer {self.auth_token}"} if self.auth_token else None
        return JobSubmissionClient(self.address, headers=headers)

    def start(self, spec: LaunchSpec, stdout_path: Path, stderr_path: Path) -> ProcessHandle:
        submission_id = f"tplat-{uuid.uuid4().hex[:16]}"
        entrypoint = f"cd {shlex.quote(str(spec.cwd))} && {shlex.join(spec.argv)}"
        self._client().submit_job(
            entrypoint=entrypoint, submission_id=submission_id, runtime_env={"env_vars": dict(spec.env)}
        )
        stdout_path.parent.mkdir(parents=True, exist_ok=True)
        with open(stdout_path, "a", encoding="utf-8") as out:
            out.write(f"\n===== Ray job {submission_id} at {self.address}: {entrypoint}\n")
        self._log_paths[submission_id] = stdout_path
        return ProcessHandle(ref=submission_id, started_at=time.time())

    def _status(self, handle: ProcessHandle) -> str:
        return str(self._client().get_job_status(handle.ref)).rsplit(".", 1)[-1]

    def watch(self, handle: ProcessHandle, on_exit: Callable[[ExitInfo], None]) -> None:
        threading.Thread(target=self._follow, args=(handle, on_exit), name=f"ray-{handle.ref}", daemon=True).start()

    def _follow(self, handle: ProcessHandle, on_exit: Callable[[ExitInfo], None]) -> None:
        copied = 0
        while True:
            status = self._status(handle)
            copied = self._copy_logs(handle, copied)
            if status not in _RUNNING:
                on_exit(ExitInfo(code=0 if status == "SUCCEEDED" else 1, description=f"Ray job {status.lower()}"))
                return
            time.sleep(POLL_INTERVAL_S)

    def _copy_logs(self, handle: ProcessHandle, copied: int) -> int:
        path = self._log_paths.get(handle.ref)
        if path is None:
            return copied
        logs = self._client().get_job_logs(handle.ref)
        if len(logs) > copied:
            with open(path, "a", encoding="utf-8") as out:
                out.write(logs[copied:])
        return len(logs)

    def is_alive(self, handle: ProcessHandle) -> bool:
        try:
            return self._status(handle) in _RUNNING
        except Exception:  # noqa: BLE001 - the cluster is gone or forgot the job: not running
            log.warning("Ray job %s could not be looked up", handle.ref, exc_info=True)
            return False

    def stop(self, handle: ProcessHandle, grace_seconds: float) -> None:
        self._client().stop_job(handle.ref)
        deadline = time.monotonic() + max(grace_seconds, 30.0)
        while self.is_alive(handle) and time.monotonic() < deadline:
            time.sleep(0.5)
