"""The platform's hands on a remote host: `python -m training_platform.runners.ssh.agent VERB`, a JSON request on
standard input, one JSON line of answer on standard output.

It is the local runner (runners/local.py) run there: a run starts in its own session with the launch id in its
environment, is found again by that id, checked by pid and start time, and stopped by signals to its session.
`start` leaves a keeper behind, in a session of its own, that waits for the run and writes its exit status to
the job's `exit.json`, so the platform learns how a run ended even when it was not connected at that moment.

Requests come on standard input, so nothing of them (a run's secrets in its environment) shows on a command line.
"""

import json
import os
import queue
import subprocess
import sys
from pathlib import Path

import psutil

from training_platform.common.files import write_json_atomic
from training_platform.contract.run import LaunchSpec
from training_platform.runners.base import ExitInfo, OutputFiles, ProcessHandle
from training_platform.runners.local import LocalRunner
from training_platform.runners.ssh.content import content_hash

MAX_REQUEST_BYTES = 4 * 1024 * 1024
EXIT_FILE = "exit.json"


def _handle(request: dict) -> ProcessHandle:
    return ProcessHandle(str(request["ref"]), float(request["started_at"]), local_pid=int(request["ref"]))


def start(request: dict) -> dict:
    """Start the keeper (a session of its own) and pass it the request; its first line is the run's handle."""
    keeper = subprocess.Popen(
        [sys.executable, "-m", __spec__.name, "keep"],
        cwd=request["cwd"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    keeper.stdin.write(json.dumps(request).encode())
    keeper.stdin.close()
    line = keeper.stdout.readline()
    keeper.stdout.close()
    if not line:
        return {"error": f"the keeper ended before starting the run (exit {keeper.wait()})"}
    return json.loads(line)


def keep(request: dict) -> None:
    runner = LocalRunner()
    spec = LaunchSpec(argv=list(request["argv"]), cwd=Path(request["cwd"]), env=dict(request["env"]))
    output = OutputFiles(Path(request["stdout"]), Path(request["stderr"]))
    try:
        handle = runner.start(spec, output, request["launch_id"])
    except OSError as error:  # no such program, a directory it may not enter
        _answer({"error": f"the run could not start: {error}"})
        return
    _answer({"ref": handle.ref, "started_at": handle.started_at})
    # Nothing more goes to the caller: the SSH session may end now without touching the keeper.
    devnull = os.open(os.devnull, os.O_RDWR)
    for descriptor in (0, 1, 2):
        os.dup2(devnull, descriptor)
    ended: queue.Queue[ExitInfo] = queue.Queue()
    runner.watch(handle, output, ended.put)
    info = ended.get()
    exit_path = Path(request["cwd"]) / EXIT_FILE
    write_json_atomic(exit_path, {"launch_id": request["launch_id"], "code": info.code, "signal": info.signal})


def alive(request: dict) -> dict:
    return {"alive": LocalRunner().is_alive(_handle(request))}


def find(request: dict) -> dict:
    handle = LocalRunner().find(request["launch_id"])
    if handle is None:
        return {"ref": None}
    return {"ref": handle.ref, "started_at": handle.started_at, "cwd": psutil.Process(handle.local_pid).cwd()}


def stop(request: dict) -> dict:
    return {"gone": LocalRunner().stop(_handle(request), float(request["grace_seconds"]))}


def clean_up(request: dict) -> dict:
    LocalRunner().clean_up(_handle(request))
    return {}


def hashes(request: dict) -> dict:
    """The content hash of each path that exists (None for one that does not)."""
    return {"hashes": {path: content_hash(Path(path)) if Path(path).exists() else None for path in request["paths"]}}


VERBS = {"start": start, "alive": alive, "find": find, "stop": stop, "clean_up": clean_up, "hash": hashes}


def _answer(answer: dict) -> None:
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()


def main() -> int:
    verb = sys.argv[1] if len(sys.argv) == 2 else ""
    request = json.loads(sys.stdin.buffer.read(MAX_REQUEST_BYTES))
    if verb == "keep":
        keep(request)
        return 0
    if verb not in VERBS:
        _answer({"error": f"unknown verb {verb!r}"})
        return 2
    _answer(VERBS[verb](request))
    return 0


if __name__ == "__main__":
    sys.exit(main())
