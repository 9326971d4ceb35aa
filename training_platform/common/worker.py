"""Work on untrusted input runs in a child process that the kernel holds to its limits: what a file, or a tokenizer,
costs to decode is then a fact, not what its metadata promised (docs/security.md, "Decoding in a worker").

One call, one child: forked from a fork server whose interpreter has the decoding modules imported already (so a
call costs a fork, not an interpreter start), the child caps its own address space (`RLIMIT_AS`: what it held after
its imports plus the memory budget) and CPU time (`RLIMIT_CPU`), runs the function and sends back its pickled result.
The parent waits at most the wall-clock timeout, receives at most the result budget, and kills the child whatever
happened. A child stopped by a limit becomes `LimitExceeded`, a 422 naming the setting; an error the function
raised comes back as itself; the server's own memory and CPU never pay for a hostile file.
"""

import io
import multiprocessing
import os
import pickle
import resource
import signal
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing import forkserver, popen_forkserver, reduction, spawn, util
from multiprocessing.context import ForkServerProcess
from typing import Any

from training_platform.common.environment import inherited_environment
from training_platform.common.progress import ProgressCallback
from training_platform.errors import FieldError, InvalidInputError

_PROGRESS_BYTES = 4096  # a progress message: a fraction and a short text
_STARTING = threading.Lock()


@dataclass(frozen=True)
class WorkerLimits:
    """What one call may cost, each with the setting that sets it (named in the error a call over it gets)."""

    memory_bytes: int  # address space on top of the child's own after its imports (PLATFORM_DECODE_MEMORY_BYTES)
    cpu_seconds: int  # CPU time, every thread together (PLATFORM_DECODE_CPU_SECONDS)
    timeout_seconds: float  # wall clock, waiting on a disk or a lock included (PLATFORM_DECODE_TIMEOUT_SECONDS)
    result_bytes: int  # the pickled result (PLATFORM_DECODE_RESULT_BYTES)


class LimitExceeded(InvalidInputError):
    """A call stopped by one of its limits; `setting` names the limit."""

    def __init__(self, field: str, message: str, setting: str):
        self.setting = setting
        super().__init__([FieldError(field, message)])


class Worker:
    """Runs module-level functions in limited children. `preload`: the modules its fork server imports once (the
    first, training_platform.common.worker_setup, sets what the libraries read at import). Workers with the same
    preload share one fork server for the life of the process (a platform opened again reuses it); workers with
    another preload (a heavy library only some calls need) have their own, so it costs the others nothing.
    `start_now=False` starts it at the first call instead of now."""

    def __init__(self, limits: WorkerLimits, preload: Sequence[str] = (), start_now: bool = True):
        self.limits = limits
        self._context = multiprocessing.get_context("forkserver")
        self._server = _fork_server(("training_platform.common.worker_setup", *preload))
        # Children at once: one per CPU, each with its own memory budget; more calls wait for a place.
        self._places = threading.BoundedSemaphore(os.cpu_count() or 1)
        if start_now:
            self._ensure_started()

    def _ensure_started(self) -> None:
        """The fork server started with the environment every process the platform starts gets
        (common/environment.py), not the server's own with its credentials: the children decode hostile input. A
        fork server that died is started so again before the next call."""
        pid = self._server._forkserver_pid  # multiprocessing keeps no public handle on it
        if pid is not None and _running(pid):
            return
        with _STARTING:
            saved = dict(os.environ)
            os.environ.clear()
            os.environ.update(inherited_environment())
            try:
                self._server.ensure_running()  # and the resource tracker it starts
            finally:
                os.environ.clear()
                os.environ.update(saved)

    def run(
        self,
        function: Callable[..., Any],
        *args: Any,
        field: str,
        what: str,
        progress: ProgressCallback | None = None,
        **kwargs: Any,
    ) -> Any:
        """`function(*args, **kwargs)` in a child; `progress`, when given, is passed on to it as `progress=` and
        its reports relayed. A limit hit is refused naming `field` and saying `what` was being done."""
        with self._places:
            return self._run(function, args, kwargs, field, what, progress)

    def _run(self, function, args, kwargs, field: str, what: str, progress: ProgressCallback | None) -> Any:
        limits = self.limits
        self._ensure_started()
        receiver, sender = self._context.Pipe(duplex=False)
        child = _Child(
            self._server, target=_child_main, args=(sender, function, args, kwargs, limits, progress is not None)
        )
        child.daemon = True
        child.start()
        sender.close()
        deadline = time.monotonic() + limits.timeout_seconds
        try:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not receiver.poll(remaining):
                    raise LimitExceeded(
                        field,
                        f"{what} took longer than {limits.timeout_seconds:g} s and was stopped "
                        f"(PLATFORM_DECODE_TIMEOUT_SECONDS)",
                        "PLATFORM_DECODE_TIMEOUT_SECONDS",
                    )
                try:
                    message = receiver.recv_bytes(limits.result_bytes)
                except EOFError:
                    child.join()
                    raise _died(child.exitcode, field, what, limits) from None
                except OSError:  # longer than the budget: refused unread
                    raise _too_large(field, what, limits) from None
                status, *value = pickle.loads(message)
                if status == "progress" and progress is not None:
                    progress(*value)
                    continue
                return _outcome(status, value, field, what, limits)
        finally:
            receiver.close()
            if child.is_alive():
                child.kill()
            child.join()


_FORK_SERVERS: dict[tuple[str, ...], forkserver.ForkServer] = {}


def _fork_server(preload: tuple[str, ...]) -> forkserver.ForkServer:
    """The process's fork server for this preload; it ends with the process (it stops when its parent's end of
    the pipe it watches closes)."""
    with _STARTING:
        if preload not in _FORK_SERVERS:
            server = forkserver.ForkServer()
            server.set_forkserver_preload(list(preload))
            _FORK_SERVERS[preload] = server
        return _FORK_SERVERS[preload]


def _outcome(status: str, value: list, field: str, what: str, limits: WorkerLimits) -> Any:
    if status == "done":
        return value[0]
    if status == "error":
        raise value[0]
    if status == "memory":
        raise _memory(field, what, limits)
    if status == "too-large":
        raise _too_large(field, what, limits)
    raise RuntimeError(f"{what} failed in the worker:\n{value[0]}")


def _died(exit_code: int | None, field: str, what: str, limits: WorkerLimits) -> LimitExceeded:
    """A child gone without an answer: past its CPU time (SIGXCPU, then SIGKILL a second later), else out of address
    space where a library aborts instead of raising (Rust's allocators, C++'s `new`)."""
    if exit_code in (-signal.SIGXCPU, -signal.SIGKILL):
        return LimitExceeded(
            field,
            f"{what} used more than {limits.cpu_seconds} s of CPU time and was stopped (PLATFORM_DECODE_CPU_SECONDS)",
            "PLATFORM_DECODE_CPU_SECONDS",
        )
    return _memory(field, what, limits, f" (the worker ended with code {exit_code})")


def _memory(field: str, what: str, limits: WorkerLimits, detail: str = "") -> LimitExceeded:
    return LimitExceeded(
        field,
        f"{what} needs more than {limits.memory_bytes} bytes of memory{detail} (PLATFORM_DECODE_MEMORY_BYTES)",
        "PLATFORM_DECODE_MEMORY_BYTES",
    )


def _too_large(field: str, what: str, limits: WorkerLimits) -> LimitExceeded:
    return LimitExceeded(
        field,
        f"the result of {what} is larger than {limits.result_bytes} bytes (PLATFORM_DECODE_RESULT_BYTES)",
        "PLATFORM_DECODE_RESULT_BYTES",
    )


# ---- the child ---------------------------------------------------------------------------------------------


def _child_main(sender, function, args, kwargs, limits: WorkerLimits, relay_progress: bool) -> None:
    _confine(limits)

    def send(*message: Any) -> None:
        sender.send_bytes(pickle.dumps(message))

    if relay_progress:
        kwargs = {**kwargs, "progress": lambda fraction, text: send("progress", fraction, text[:_PROGRESS_BYTES])}
    try:
        result = ("done", function(*args, **kwargs))
    except MemoryError:  # pyarrow's ArrowMemoryError too
        result = ("memory",)
    except Exception as error:
        result = ("error", error) if _pickles(error) else ("failed", traceback.format_exc())
    except BaseException:  # a native library's panic (pyo3's PanicException): a bug to report, not to die of
        result = ("failed", traceback.format_exc())
    try:
        payload = pickle.dumps(result)
    except MemoryError:
        payload = pickle.dumps(("memory",))
    except Exception:
        payload = pickle.dumps(("failed", traceback.format_exc()))
    if len(payload) > limits.result_bytes:
        payload = pickle.dumps(("too-large",))
    sender.send_bytes(payload)
    sender.close()


def _confine(limits: WorkerLimits) -> None:
    """The child's limits, set by itself before it touches the input; lowered hard limits cannot be raised again.
    The address space allowed is what the child holds now (the interpreter and the libraries, which reserve more
    than they use) plus the budget."""
    import pyarrow as pa

    # One thread each: the CPU limit counts every thread, and each thread's stack and malloc arena count against
    # the address space.
    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
    space = _address_space() + limits.memory_bytes
    resource.setrlimit(resource.RLIMIT_AS, (space, space))


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _address_space() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * resource.getpagesize()


def _pickles(error: Exception) -> bool:
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return False
    return True


class _Popen(popen_forkserver.Popen):
    """The fork server's child, told nothing of the parent's `__main__`: the standard launch has each child run
    the server's main module again (the CLI, every import it makes), which would cost every call far more than the
    fork; the function's own module comes with its pickle, from the fork server's imports."""

    def _launch(self, process_obj):
        prep_data = {
            key: value
            for key, value in spawn.get_preparation_data(process_obj._name).items()
            if key not in ("init_main_from_name", "init_main_from_path")
        }
        buf = io.BytesIO()
        popen_forkserver.set_spawning_popen(self)
        try:
            reduction.dump(prep_data, buf)
            reduction.dump(process_obj, buf)
        finally:
            popen_forkserver.set_spawning_popen(None)
        self.sentinel, w = process_obj.fork_server.connect_to_new_process(self._fds)
        parent_w = os.dup(w)
        self.finalizer = util.Finalize(self, util.close_fds, (parent_w, self.sentinel))
        with open(w, "wb", closefd=True) as f:
            f.write(buf.getbuffer())
        self.pid = forkserver.read_signed(self.sentinel)


class _Child(ForkServerProcess):
    """A child of the worker's own fork server (`fork_server`, which stays behind when the child is pickled)."""

    def __init__(self, fork_server: forkserver.ForkServer, **kwargs):
        super().__init__(**kwargs)
        self.fork_server = fork_server

    def __getstate__(self):
        return {key: value for key, value in self.__dict__.items() if key != "fork_server"}

    @staticmethod
    def _Popen(process_obj):
        return _Popen(process_obj)
