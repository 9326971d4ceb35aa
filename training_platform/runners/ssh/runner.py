"""Runs jobs on a remote host over SSH: the run mode `ssh:<host>`.

Starting a run places it on the host: every local file or folder the run reads (its model, datasets, reward code:
any absolute path in its launch command or run configuration that exists here) is synced there by content
(runners/ssh/sync.py, by whoever built this runner), the job's own files go to `<work>/jobs/<job id>`, and the
run configuration is written there with the host's paths. The host's agent (runners/ssh/agent.py) starts the
process detached, in its own session, under the launch id.

Following it: a mirror (runners/ssh/mirror.py) copies the run's files into the job's directory here a few times
a second and sends it the platform's requests (pause, learning rate). A host that cannot be reached is asked
again with backoff; only when it stayed unreachable for `patience_seconds` does following end, with that reason
(the run may still be going there). A restarted server re-attaches through the agent and the mirror's offsets.
Once the run ended, its checkpoints and final model are copied back, so exports, evaluations and surgery read
them here.

The price: a run's inputs travel once per content to each host; its outputs come back when it ends.
"""

import logging
import sys
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from training_platform.common.paths import PRIVATE_DIR
from training_platform.contract.layout import JobLayout
from training_platform.contract.run import LaunchSpec, RunSpec
from training_platform.runners.base import ExitInfo, OutputFiles, ProcessHandle, Runner
from training_platform.runners.ssh.agent import EXIT_FILE
from training_platform.runners.ssh.connection import HostUnreachable, SshError
from training_platform.runners.ssh.host import ProgressFn, RemoteHost
from training_platform.runners.ssh.mirror import STATE_DIR, RunMirror

log = logging.getLogger(__name__)
POLL_INTERVAL_S = 0.1
ALIVE_CHECK_S = 10.0
PATIENCE_S = 300.0
SyncFn = Callable[[Path, ProgressFn], PurePosixPath]


class SshRunner(Runner):
    def __init__(
        self,
        host: RemoteHost,
        jobs_dir: Path,
        sync: SyncFn,
        gpus: list[int],
        cpus: int | None,
        patience_seconds: float = PATIENCE_S,
    ):
        self.host = host
        self.mode = f"ssh:{host.name}"
        self.jobs_dir = jobs_dir
        self.sync = sync
        self.gpus = gpus
        self.cpus = cpus
        self.patience_seconds = patience_seconds

    def devices(self) -> list[int]:
        return self.gpus

    def cpu_processes(self) -> int | None:
        return None if self.gpus else (self.cpus or 1)

    # ---- placing a run ---------------------------------------------------------------------------------------

    def _layout(self, job_id: str) -> JobLayout:
        return JobLayout(job_id, self.jobs_dir / job_id)

    def start(self, spec: LaunchSpec, output: OutputFiles, launch_id: str) -> ProcessHandle:
        layout = self._layout(spec.cwd.name)
        remote_root = self.host.paths.job_dir(layout.job_id)
        if spec.argv[0] != sys.executable:
            raise SshError(
                f"this run starts {spec.argv[0]}, not the platform's Python: run mode {self.mode} runs the jobs of "
                "the platform's own package (TRL training, surgery, evaluation); verl's environment is not set up there"
            )
        placed = Placement(self, layout, remote_root, _logger(output))
        run_config = RunSpec.load(layout.config_path)
        config = placed.value(run_config.model_dump(mode="json"))
        argv = [self.host.python, *(placed.word(word) for word in spec.argv[1:])]
        placed.push_job_files()
        placed_config = RunSpec.model_validate(config).model_dump_json(indent=1).encode()
        self.host.write_bytes(remote_root / layout.config_path.name, placed_config)
        self.host.remove(remote_root / EXIT_FILE)
        answer = self.host.agent(
            "start",
            {
                "argv": argv,
                "cwd": str(remote_root),
                "env": {**self.host.environment, **spec.env},
                "stdout": str(placed.remote(layout.stdout_path)),
                "stderr": str(placed.remote(layout.stderr_path)),
                "launch_id": launch_id,
            },
        )
        return ProcessHandle(_ref(answer["ref"], layout.job_id), float(answer["started_at"]))

    # ---- following it ----------------------------------------------------------------------------------------

    def watch(self, handle: ProcessHandle, output: OutputFiles, on_exit: Callable[[ExitInfo], None]) -> None:
        threading.Thread(
            target=self._follow, args=(handle, on_exit), name=f"ssh-{self.host.name}-{handle.ref}", daemon=True
        ).start()

    def _mirror(self, handle: ProcessHandle) -> RunMirror:
        job_id = _job_id(handle)
        return RunMirror(self.host, self._layout(job_id), self.host.paths.job_dir(job_id))

    def _follow(self, handle: ProcessHandle, on_exit: Callable[[ExitInfo], None]) -> None:
        mirror = self._mirror(handle)
        unreachable_since: float | None = None
        last_alive_check = time.monotonic()
        delay = POLL_INTERVAL_S
        while True:
            try:
                ended = mirror.sync()
                if ended is None and time.monotonic() - last_alive_check >= ALIVE_CHECK_S:
                    last_alive_check = time.monotonic()
                    if not self._alive(handle):
                        ended = mirror.sync() or {}  # gone without an exit record (its keeper was killed)
                unreachable_since, delay = None, POLL_INTERVAL_S
            except SshError as error:
                if not isinstance(error, HostUnreachable):  # refused: a changed host key, credentials now wrong
                    on_exit(ExitInfo(code=None, description=f"following run {handle.ref} failed: {error}"))
                    return
                failure = error
            except Exception as error:  # noqa: BLE001 - a pass that failed there (a file it could not read): again
                failure = error
            else:
                failure = None
            if failure is not None:
                unreachable_since = unreachable_since or time.monotonic()
                if time.monotonic() - unreachable_since >= self.patience_seconds:
                    reason = (
                        f"host {self.host.name} unreachable for {self.patience_seconds:.0f} s while following run "
                        f"{handle.ref} (it may still run there): {failure}"
                    )
                    on_exit(ExitInfo(code=None, description=reason))
                    return
                log.warning("following run %s on %s: %s; trying again", handle.ref, self.host.name, failure)
                delay = min(delay * 2, 15.0)
                time.sleep(delay)
                continue
            if ended is not None:
                self._finish(mirror, handle)
                on_exit(ExitInfo(code=ended.get("code"), signal=ended.get("signal")))
                return
            time.sleep(delay)

    def _finish(self, mirror: RunMirror, handle: ProcessHandle) -> None:
        try:
            mirror.fetch_outputs(_logger(OutputFiles(mirror.layout.stdout_path, mirror.layout.stderr_path)))
        except (SshError, OSError) as error:
            log.warning("copying the outputs of run %s from %s failed: %s", handle.ref, self.host.name, error)

    def _alive(self, handle: ProcessHandle) -> bool:
        return bool(self.host.agent("alive", _request(handle))["alive"])

    def is_alive(self, handle: ProcessHandle) -> bool:
        """Whether the run may still be going: a host that cannot be reached now counts as alive (the follower
        gives up only after its patience)."""
        try:
            return self._alive(handle)
        except HostUnreachable:
            return True

    def find(self, launch_id: str) -> ProcessHandle | None:
        """The run started under `launch_id` on the host (its agent looks for the id in the processes'
        environment), if it still runs; what is left of one whose main process is gone is ended there."""
        answer = self.host.agent("find", {"launch_id": launch_id})
        if answer["ref"] is None:
            return None
        return ProcessHandle(_ref(answer["ref"], PurePosixPath(answer["cwd"]).name), float(answer["started_at"]))

    def stop(self, handle: ProcessHandle, grace_seconds: float) -> bool:
        request = {**_request(handle), "grace_seconds": grace_seconds}
        return bool(self.host.agent("stop", request, timeout=grace_seconds + 60)["gone"])

    def clean_up(self, handle: ProcessHandle) -> None:
        """End what is left of the run there, and copy what it wrote since it was last followed."""
        self.host.agent("clean_up", _request(handle))
        mirror = self._mirror(handle)
        mirror.sync()
        self._finish(mirror, handle)


# What the job's directory holds that the run makes (or the platform keeps for itself): not sent to the host.
def _made_by_the_run(layout: JobLayout) -> set[str]:
    produced = [
        layout.logs_dir,
        layout.checkpoints_dir,
        layout.final_model_dir,
        layout.exports_dir,
        layout.lr_requests_dir,
        layout.control_path,
        layout.config_path,
        layout.metrics_path,
        layout.status_path,
        layout.samples_path,
        layout.results_path,
    ]
    return {path.name for path in produced} | {PRIVATE_DIR, STATE_DIR, EXIT_FILE}


class Placement:
    """A run's paths as the host sees them: the job's directory is `<work>/jobs/<job id>`, every other local file
    or folder the run names is synced to the host and named by its synced path there."""

    def __init__(self, runner: SshRunner, layout: JobLayout, remote_root: PurePosixPath, log: Callable[[str], None]):
        self.runner, self.layout, self.remote_root, self.log = runner, layout, remote_root, log
        self._synced: dict[str, str] = {}

    def remote(self, local: Path) -> PurePosixPath:
        return self.remote_root / local.relative_to(self.layout.root).as_posix()

    def word(self, word: str) -> str:
        path = Path(word)
        if not path.is_absolute() or not path.exists():
            return word
        if path == self.layout.root or self.layout.root in path.parents:
            return str(self.remote(path))
        if path in self.layout.root.parents:
            raise SshError(f"the run names {word}, a folder that holds the platform's jobs: it is not sent anywhere")
        if word not in self._synced:
            self.log(f"syncing {word} to {self.runner.host.name}")
            self._synced[word] = str(self.runner.sync(path, self._progress(word)))
        return self._synced[word]

    def value(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.word(value)
        if isinstance(value, list):
            return [self.value(item) for item in value]
        if isinstance(value, dict):
            return {self.word(key): self.value(item) for key, item in value.items()}
        return value

    def _progress(self, word: str) -> ProgressFn:
        reported = [0.0]

        def progress(done: int, total: int) -> None:
            if time.monotonic() - reported[0] >= 5.0:
                reported[0] = time.monotonic()
                self.log(f"syncing {word}: {done / 2**20:.1f} MiB sent")

        return progress

    def push_job_files(self) -> None:
        """The job's own input files (an accelerate configuration, an evaluation's custom metric code)."""
        skipped = _made_by_the_run(self.layout)
        for path in sorted(self.layout.root.rglob("*")):
            relative = path.relative_to(self.layout.root)
            if relative.parts[0] in skipped or not path.is_file() or path.is_symlink():
                continue
            self.runner.host.write_bytes(self.remote(path), path.read_bytes())


def _ref(pid: Any, job_id: str) -> str:
    """A remote run's locator: its pid there and its job (which names its directory on both sides)."""
    return f"{int(pid)}@{job_id}"


def _job_id(handle: ProcessHandle) -> str:
    return handle.ref.split("@", 1)[1]


def _request(handle: ProcessHandle) -> dict:
    return {"ref": handle.ref.split("@", 1)[0], "started_at": handle.started_at}


def _logger(output: OutputFiles) -> Callable[[str], None]:
    """A line for the job's log here (what the platform did for the run: syncing, copying back)."""

    def write(message: str) -> None:
        output.stdout.parent.mkdir(parents=True, exist_ok=True)
        with open(output.stdout, "a", encoding="utf-8") as out:
            out.write(f"===== {datetime.now(UTC).isoformat()} {message}\n")

    return write
