"""Runs training processes on this machine as children of the platform server.

A process gets the environment it needs (common/environment.py) and its launch id, by which a restarted server
finds it when the last one did not live to record its pid."""

import logging
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime

import psutil

from training_platform.common.environment import inherited_environment
from training_platform.contract.run import LaunchSpec
from training_platform.runners.base import ExitInfo, OutputFiles, ProcessHandle, Runner

log = logging.getLogger(__name__)
# How far a pid's start time may be from the one recorded at launch and still be that process: psutil's wall-clock
# start adds /proc/stat's `btime`, a whole second the kernel recomputes from the wall clock, which can step by one;
# no pid is handed out twice within that.
_START_TIME_TOLERANCE_S = 1.5
_POLL_INTERVAL_S = 0.5
# After SIGKILL a process is gone in milliseconds, unless the kernel holds it (uninterruptible I/O on a hung
# file system): stop waiting then, rather than hang the request that stopped it.
KILL_WAIT_S = 30.0
LAUNCH_ID_VARIABLE = "PLATFORM_LAUNCH_ID"


def _exit_info(returncode: int) -> ExitInfo:
    return ExitInfo(code=returncode, signal=-returncode if returncode < 0 else None)


class LocalRunner(Runner):
    mode = "local"

    def __init__(self, gpus: list[int] | None = None, cpu_processes: int = 0) -> None:
        self.gpus = gpus or []  # this machine's GPUs that the platform may use (runners/devices.py)
        # Without GPUs a run's num_gpus is its count of CPU processes: more than the cores only slows each down,
        # and an unbounded count is a fork bomb (docs/security.md).
        self._cpu_processes = cpu_processes or os.cpu_count() or 1
        self._children: dict[int, subprocess.Popen] = {}
        self._lock = threading.Lock()

    def devices(self) -> list[int]:
        return self.gpus

    def cpu_processes(self) -> int | None:
        return None if self.gpus else self._cpu_processes

    def start(self, spec: LaunchSpec, output: OutputFiles, launch_id: str) -> ProcessHandle:
        output.stdout.parent.mkdir(parents=True, exist_ok=True)
        banner = f"\n===== {datetime.now(UTC).isoformat()} start: {' '.join(spec.argv)}\n"
        with open(output.stdout, "a", encoding="utf-8") as out, open(output.stderr, "a", encoding="utf-8") as err:
            out.write(banner)
            err.write(banner)
            out.flush()
            err.flush()
            process = subprocess.Popen(
                spec.argv,  # an argument list: nothing is interpreted by a shell
                cwd=spec.cwd,
                env={**inherited_environment(), **spec.env, LAUNCH_ID_VARIABLE: launch_id},
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                # Its own session: every process it spawns stays in it, even those that make a process group
                # of their own (Ray's workers, vLLM's engine), so stop and the clean-up reach all of them.
                start_new_session=True,
            )
        with self._lock:
            self._children[process.pid] = process
        return ProcessHandle(str(process.pid), psutil.Process(process.pid).create_time(), local_pid=process.pid)

    def find(self, launch_id: str) -> ProcessHandle | None:
        """The session leader whose environment carries `launch_id`; if only members of its session are left,
        they are killed."""
        leader, sessions = None, set()
        for process in psutil.process_iter(["environ"]):
            try:
                if (process.info["environ"] or {}).get(LAUNCH_ID_VARIABLE) != launch_id:
                    continue
                if process.status() == psutil.STATUS_ZOMBIE:
                    continue
                sid = os.getsid(process.pid)
                if sid == process.pid:
                    leader = ProcessHandle(str(process.pid), process.create_time(), local_pid=process.pid)
                sessions.add(sid)
            except (OSError, psutil.Error):
                continue
        if leader is None:
            for sid in sessions:
                self._kill_session(sid, signal.SIGKILL)
        return leader

    def clean_up(self, handle: ProcessHandle) -> None:
        self._kill_stragglers(handle)

    def watch(self, handle: ProcessHandle, output: OutputFiles, on_exit: Callable[[ExitInfo], None]) -> None:
        with self._lock:
            child = self._children.get(_pid(handle))
        target = self._wait_child if child is not None else self._wait_adopted
        threading.Thread(target=target, args=(handle, on_exit), name=f"watch-{_pid(handle)}", daemon=True).start()

    def _wait_child(self, handle: ProcessHandle, on_exit: Callable[[ExitInfo], None]) -> None:
        with self._lock:
            process = self._children[_pid(handle)]
        returncode = process.wait()
        with self._lock:
            self._children.pop(_pid(handle), None)
        self._kill_stragglers(handle)
        on_exit(_exit_info(returncode))

    def _wait_adopted(self, handle: ProcessHandle, on_exit: Callable[[ExitInfo], None]) -> None:
        # Not our child (the server restarted): its exit status is not ours to collect, only its end.
        while self.is_alive(handle):
            time.sleep(_POLL_INTERVAL_S)
        self._kill_stragglers(handle)
        on_exit(ExitInfo(code=None))

    def is_alive(self, handle: ProcessHandle) -> bool:
        with self._lock:
            child = self._children.get(_pid(handle))
        if child is not None:
            return child.poll() is None
        try:
            process = psutil.Process(_pid(handle))
            same = abs(process.create_time() - handle.started_at) < _START_TIME_TOLERANCE_S
            return same and process.status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False

    def stop(self, handle: ProcessHandle, grace_seconds: float) -> bool:
        if self.is_alive(handle):
            self._kill_group(_pid(handle), signal.SIGTERM)
            if not self._gone_within(handle, grace_seconds):
                self._kill_session(_pid(handle), signal.SIGKILL)
                if not self._gone_within(handle, KILL_WAIT_S):
                    log.warning("process %s is still there %.0f s after SIGKILL", _pid(handle), KILL_WAIT_S)
                    return False
        self._kill_stragglers(handle)
        return True

    def _gone_within(self, handle: ProcessHandle, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while self.is_alive(handle):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)
        return True

    def _kill_stragglers(self, handle: ProcessHandle) -> None:
        """Kill what is left of a session whose leader is gone (a Ray worker, a vLLM engine, a data loader).
        Linux does not hand out a pid that is still some session's id, so if the pid is free, any member of
        that session is ours; if another process holds the pid now, the session is not ours to touch."""
        if not psutil.pid_exists(_pid(handle)):
            self._kill_session(_pid(handle), signal.SIGKILL)

    @staticmethod
    def _kill_group(pgid: int, sig: signal.Signals) -> None:
        try:
            os.killpg(pgid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    @staticmethod
    def _kill_session(sid: int, sig: signal.Signals) -> None:
        for pid in psutil.pids():
            try:
                if os.getsid(pid) == sid:
                    os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass


def _pid(handle: ProcessHandle) -> int:
    """A local run's locator is its pid."""
    return int(handle.ref)
