"""The local runner with real processes: exit codes, logs, stop escalation, process groups, adoption, the
environment a process gets, and a run found by its launch id."""

import json
import os
import signal
import sys
import threading
import time
import uuid
from pathlib import Path

import psutil

from tests.support.helpers import session_members, wait_until
from training_platform.contract.run import LaunchSpec
from training_platform.runners.base import ExitInfo, OutputFiles, ProcessHandle
from training_platform.runners.local import LAUNCH_ID_VARIABLE, LocalRunner


def python(code: str, tmp_path) -> LaunchSpec:
    return LaunchSpec(argv=[sys.executable, "-c", code], cwd=tmp_path, env={"RUNNER_TEST": "1"})


UNUSED_OUTPUT = OutputFiles(Path(os.devnull), Path(os.devnull))


def output(tmp_path) -> OutputFiles:
    return OutputFiles(tmp_path / "logs" / "out.log", tmp_path / "logs" / "err.log")


def start(runner, spec, tmp_path, launch_id: str | None = None) -> ProcessHandle:
    return runner.start(spec, output(tmp_path), launch_id or f"tplat-{uuid.uuid4().hex}")


def exit_waiter(runner, handle):
    done = threading.Event()
    result: list[ExitInfo] = []

    def on_exit(info):
        result.append(info)
        done.set()

    runner.watch(handle, UNUSED_OUTPUT, on_exit)  # the local runner's child writes its files itself
    return lambda: (done.wait(30), result[0])[1]


def group_members(pgid: int) -> list[psutil.Process]:
    members = []
    for proc in psutil.process_iter():
        try:
            if os.getpgid(proc.pid) == pgid:
                members.append(proc)
        except (ProcessLookupError, psutil.Error):
            pass
    return members


def test_exit_code_and_output_are_captured(tmp_path):
    runner = LocalRunner()
    code = "import os, sys; print('hello', os.environ['RUNNER_TEST']); print('oops', file=sys.stderr); sys.exit(3)"
    handle = start(runner, python(code, tmp_path), tmp_path)
    info = exit_waiter(runner, handle)()
    assert (info.code, info.signal, info.describe()) == (3, None, "exited with code 3")
    out = (tmp_path / "logs" / "out.log").read_text()
    assert "===== " in out and out.rstrip().endswith("hello 1")
    assert (tmp_path / "logs" / "err.log").read_text().rstrip().endswith("oops")
    assert not runner.is_alive(handle)


def test_arguments_are_never_interpreted_by_a_shell(tmp_path):
    runner = LocalRunner()
    marker = tmp_path / "injected"
    spec = LaunchSpec(
        argv=[sys.executable, "-c", "import sys; print(sys.argv[1])", f"$(touch {marker}); `id`"], cwd=tmp_path
    )
    exit_waiter(runner, start(runner, spec, tmp_path))()
    assert not marker.exists()
    assert f"$(touch {marker}); `id`" in (tmp_path / "logs" / "out.log").read_text()


def test_process_runs_in_its_own_group(tmp_path):
    runner = LocalRunner()
    handle = start(runner, python("import time; time.sleep(30)", tmp_path), tmp_path)
    assert os.getpgid(handle.local_pid) == handle.local_pid != os.getpgid(0)
    runner.stop(handle, grace_seconds=5)


def test_stop_escalates_to_sigkill_and_takes_the_whole_group(tmp_path):
    runner = LocalRunner()
    # A parent and a grandchild that both ignore SIGTERM.
    code = (
        "import signal, subprocess, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN);"
        "subprocess.Popen([sys.executable, '-c', 'import signal,time; signal.signal(signal.SIGTERM, signal.SIG_IGN);"
        " time.sleep(60)']); print('ready', flush=True); time.sleep(60)"
    )
    handle = start(runner, python(code, tmp_path), tmp_path)
    wait_until(lambda: len(group_members(handle.local_pid)) == 2, 20, message="two processes in the group")
    waiter = exit_waiter(runner, handle)
    began = time.monotonic()
    runner.stop(handle, grace_seconds=1.0)
    assert 1.0 <= time.monotonic() - began < 10
    assert waiter().signal == signal.SIGKILL
    wait_until(lambda: group_members(handle.local_pid) == [], 10, message="process group gone")


# A child that leaves its parent's process group, as Ray's workers and vLLM's engine do, and ignores SIGTERM.
DEFECTOR = (
    "import os, signal, subprocess, sys, time\n"
    "child = 'import os, signal, time; os.setpgrp(); signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)'\n"
    "subprocess.Popen([sys.executable, '-c', child])\n"
    "print('ready', flush=True)\n"
)


def test_stop_takes_processes_that_left_the_group(tmp_path):
    runner = LocalRunner()
    handle = start(runner, python(DEFECTOR + "time.sleep(60)", tmp_path), tmp_path)
    # The child is in the session from its fork but leaves the group only once its interpreter runs os.setpgrp().
    wait_until(
        lambda: len(session_members(handle.local_pid)) == 2 and len(group_members(handle.local_pid)) == 1,
        20,
        message="two processes in the session, the child in a group of its own",
    )
    waiter = exit_waiter(runner, handle)
    runner.stop(handle, grace_seconds=1.0)
    waiter()
    wait_until(lambda: session_members(handle.local_pid) == [], 10, message="session gone")


def test_what_a_finished_process_leaves_running_is_reaped(tmp_path):
    runner = LocalRunner()
    handle = start(runner, python(DEFECTOR, tmp_path), tmp_path)  # exits at once, its child lives on
    assert exit_waiter(runner, handle)().code == 0
    wait_until(lambda: session_members(handle.local_pid) == [], 10, message="the orphan reaped")


def test_stop_lets_a_cooperative_process_exit_on_sigterm(tmp_path):
    runner = LocalRunner()
    code = (
        "import signal, sys, time\n"
        "signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))\n"
        "print('ready', flush=True)\n"
        "time.sleep(60)\n"
    )
    handle = start(runner, python(code, tmp_path), tmp_path)
    wait_until(lambda: "ready" in (tmp_path / "logs" / "out.log").read_text().splitlines(), 20, message="ready")
    waiter = exit_waiter(runner, handle)
    runner.stop(handle, grace_seconds=20)
    assert waiter().code == 0


def test_a_killed_process_reports_the_signal(tmp_path):
    runner = LocalRunner()
    handle = start(runner, python("import time; time.sleep(60)", tmp_path), tmp_path)
    waiter = exit_waiter(runner, handle)
    os.kill(handle.local_pid, signal.SIGKILL)
    info = waiter()
    assert (info.code, info.signal, info.describe()) == (-9, 9, "killed by signal SIGKILL")


def test_a_restarted_runner_adopts_a_live_process_by_pid_and_start_time(tmp_path):
    first = LocalRunner()
    handle = start(first, python("import time; time.sleep(60)", tmp_path), tmp_path)
    adopter = LocalRunner()
    assert adopter.is_alive(handle)
    assert not adopter.is_alive(ProcessHandle(ref=handle.ref, started_at=handle.started_at - 100))
    waiter = exit_waiter(adopter, handle)
    os.kill(handle.local_pid, signal.SIGKILL)
    first._children[handle.local_pid].wait()  # the old parent reaps it, as init would after a real restart
    info = waiter()
    assert info.code is None and "exit status unknown" in info.describe()


def test_stop_of_a_finished_process_is_harmless(tmp_path):
    runner = LocalRunner()
    handle = start(runner, python("pass", tmp_path), tmp_path)
    exit_waiter(runner, handle)()
    runner.stop(handle, grace_seconds=0.5)
    assert not runner.is_alive(handle)


def test_a_process_gets_only_the_environment_it_needs(tmp_path, monkeypatch):
    secrets = {
        "PLATFORM_ADMIN_TOKEN": "admin-secret",
        "PLATFORM_DATABASE_URL": "postgresql://u:db-secret@h/d",
        "PLATFORM_SECRET_KEY": "key-secret",
        "PLATFORM_MILVUS_TOKEN": "milvus-secret",
        "HF_TOKEN": "hf-secret",
        "RAY_AUTH_TOKEN": "ray-secret",
        "AWS_SECRET_ACCESS_KEY": "aws-secret",
        "SOME_UNRELATED_VARIABLE": "x",
    }
    needed = {"HF_HOME": "/hf", "CUDA_VISIBLE_DEVICES": "0", "NCCL_DEBUG": "WARN", "LC_ALL": "C.UTF-8"}
    for name, value in {**secrets, **needed, "PLATFORM_HOME": str(tmp_path)}.items():
        monkeypatch.setenv(name, value)
    runner = LocalRunner()
    spec = LaunchSpec(
        argv=[sys.executable, "-c", "import json, os; print(json.dumps(dict(os.environ)))"],
        cwd=tmp_path,
        env={"PLATFORM_JOB_ID": "j1"},
    )
    handle = start(runner, spec, tmp_path, launch_id="tplat-env")
    assert exit_waiter(runner, handle)().code == 0
    env = json.loads((tmp_path / "logs" / "out.log").read_text().splitlines()[-1])
    assert not set(secrets) & set(env)
    assert not any("secret" in value for value in env.values())
    assert {name: env.get(name) for name in needed} == needed
    assert env["PATH"] == os.environ["PATH"] and env["PLATFORM_HOME"] == str(tmp_path)
    assert env["PLATFORM_JOB_ID"] == "j1" and env[LAUNCH_ID_VARIABLE] == "tplat-env"


def test_a_run_is_found_by_its_launch_id_and_its_orphans_are_ended(tmp_path):
    first = LocalRunner()
    launch_id = f"tplat-{uuid.uuid4().hex}"
    handle = start(first, python(DEFECTOR + "time.sleep(60)", tmp_path), tmp_path, launch_id=launch_id)
    wait_until(lambda: len(session_members(handle.local_pid)) == 2, 20, message="two processes in the session")
    # A server that never recorded the pid (it died right after starting the run) finds it by the launch id.
    restarted = LocalRunner()
    assert restarted.find(launch_id) == handle
    assert restarted.find(f"tplat-{uuid.uuid4().hex}") is None
    # The leader gone, what is left of its session is ended by the search.
    os.kill(handle.local_pid, signal.SIGKILL)
    first._children[handle.local_pid].wait()
    assert len(session_members(handle.local_pid)) == 1
    assert restarted.find(launch_id) is None
    wait_until(lambda: session_members(handle.local_pid) == [], 10, message="the orphan ended")
