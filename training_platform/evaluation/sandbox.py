"""Running untrusted test code (pass@k): a fresh `python3 -I` in a temporary directory, inside new user, network and
pid namespaces, under rlimits (docs/evaluation.md).

- No network: the new network namespace has only a loopback that is down, so nothing on the host or beyond is
  reachable, the host's own loopback ports included.
- Every process it starts dies with it: it is pid 1's descendant in its own pid namespace (`--kill-child`), and the
  whole process group is killed at the wall-clock limit.
- Processes: RLIMIT_NPROC is counted per user namespace (Linux 5.14+), so the limit stops a fork bomb without
  counting the host user's other processes. It is set inside the namespace (prlimit), after the namespace exists:
  set before, the kernel would also hold the host user's whole process count to it. The kernel does not enforce it
  for the host's root, so a root caller runs the sandbox as `nobody`, with an interpreter `nobody` can reach.
- Memory (RLIMIT_AS), CPU seconds, file size and core dumps are limited in the child before it starts.
- The environment is empty except PATH and LANG.
Price: a process start per run (about 50 ms), and Linux with unprivileged user namespaces and util-linux's
`unshare` and `prlimit`; without them `sandbox_available` says why and nothing runs. The platform server never calls
it: the evaluation process does.
"""

import functools
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

NOBODY = 65534
_SOURCE_FILE = "solution.py"
_SYSTEM_PYTHON = "/usr/bin/python3"

Status = Literal["passed", "failed", "timeout", "memory", "killed", "error"]


@dataclass(frozen=True)
class SandboxLimits:
    seconds: float = 10  # wall clock
    cpu_seconds: int = 10
    memory_bytes: int = 512 << 20  # address space
    processes: int = 32
    output_bytes: int = 64 << 10  # the tail of stdout and stderr kept
    file_bytes: int = 16 << 20  # the largest file it may write


@dataclass(frozen=True)
class SandboxResult:
    status: Status
    exit_code: int | None  # negative: killed by that signal; None: it never started
    output: str  # the tail of stdout and stderr together


def run_python(code: str, limits: SandboxLimits = SandboxLimits()) -> SandboxResult:
    """Run `code` confined; its status says whether it exited 0 (passed), raised (failed) or hit a limit."""
    missing = _missing_tools()
    if missing:
        return SandboxResult("error", None, missing)
    interpreter = _interpreter()
    if interpreter is None:
        return SandboxResult("error", None, f"no Python interpreter user {NOBODY} can run")
    with tempfile.TemporaryDirectory(prefix="tplat-sandbox-") as directory:
        (Path(directory) / _SOURCE_FILE).write_text(code, encoding="utf-8")
        if os.geteuid() == 0:
            os.chown(directory, NOBODY, NOBODY)
            os.chown(Path(directory) / _SOURCE_FILE, NOBODY, NOBODY)
        command = [
            "unshare", "--user", "--map-root-user", "--net", "--pid", "--fork", "--kill-child",
            "prlimit", f"--nproc={limits.processes}", "--",
            interpreter, "-I", _SOURCE_FILE,
        ]  # fmt: skip
        return _run(command, directory, limits)


@functools.cache
def sandbox_available() -> str | None:
    """Why code cannot be run confined here (None: it can): checked by running a trivial program in the sandbox."""
    missing = _missing_tools()
    if missing:
        return missing
    probe = run_python("print('ok')")
    if probe.status != "passed" or probe.output.strip() != "ok":
        return f"the sandbox does not start here (user namespaces disabled?): {probe.status}: {probe.output[-500:]}"
    return None


def _missing_tools() -> str | None:
    if sys.platform != "linux":
        return "the sandbox needs Linux namespaces"
    for tool in ("unshare", "prlimit"):
        if shutil.which(tool) is None:
            return f"the sandbox needs util-linux's {tool!r}, which is not installed"
    return None


def _interpreter() -> str | None:
    """This Python, or, for root's sandbox run as nobody, one whose every directory nobody may enter."""
    if os.geteuid() != 0:
        return sys.executable
    for candidate in (sys.executable, _SYSTEM_PYTHON):
        path = Path(candidate).resolve()
        if path.is_file() and all(_others_may(p, stat.S_IXOTH) for p in (path, *path.parents)):
            return str(path)
    return None


def _others_may(path: Path, bit: int) -> bool:
    return bool(path.stat().st_mode & bit)


def _run(command: list[str], directory: str, limits: SandboxLimits) -> SandboxResult:
    environment = {"PATH": os.environ.get("PATH", os.defpath), "LANG": os.environ.get("LANG", "C.UTF-8")}
    try:
        process = subprocess.Popen(
            command,
            cwd=directory,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=functools.partial(_confine, limits),
        )
    except OSError as error:
        return SandboxResult("error", None, f"cannot start the sandbox: {error}")
    tail = bytearray()
    reader = threading.Thread(target=_keep_tail, args=(process.stdout, tail, limits.output_bytes), daemon=True)
    reader.start()
    timed_out = False
    try:
        process.wait(timeout=limits.seconds)
    except subprocess.TimeoutExpired:
        timed_out = True
    finally:
        # The group holds unshare and whatever did not move to a session of its own; pid 1 of the namespace dies
        # with unshare (--kill-child), and every process in the namespace with it.
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
        reader.join()
    output = tail.decode("utf-8", errors="replace")
    return SandboxResult(_status(process.returncode, output, timed_out), process.returncode, output)


def _confine(limits: SandboxLimits) -> None:
    """In the child before exec: limits that count per process, then, for root, the unprivileged user."""
    memory = limits.memory_bytes
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if os.geteuid() == 0:
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)


def _keep_tail(stream, tail: bytearray, size: int) -> None:
    while chunk := stream.read1(65536):
        tail.extend(chunk)
        del tail[:-size]
    stream.close()


def _status(exit_code: int, output: str, timed_out: bool) -> Status:
    if timed_out or exit_code in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
        return "timeout"
    if exit_code == 0:
        return "passed"
    if "MemoryError" in output:
        return "memory"
    if exit_code < 0:
        return "killed"
    if output.startswith(("unshare: ", "prlimit: ")):
        return "error"
    return "failed"
