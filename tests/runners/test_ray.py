"""The Ray runner without a cluster: a dashboard nobody answers at (a real closed port) is retried for the
runner's patience, then the run ends with that reason; the log copy resumes after what the log holds."""

import socket
import threading
import time

from training_platform.runners.base import ExitInfo, OutputFiles, ProcessHandle
from training_platform.runners.ray import RayRunner, _copied


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed again when the block ends: connections are refused


def test_an_unreachable_dashboard_is_retried_for_the_patience_then_ends_the_run_with_the_reason(tmp_path):
    runner = RayRunner(f"http://127.0.0.1:{closed_port()}", patience_seconds=3, poll_interval=0.1)
    handle = ProcessHandle(ref="tplat-0123456789abcdef", started_at=time.time())
    ended: list[ExitInfo] = []
    done = threading.Event()
    began = time.monotonic()
    output = OutputFiles(tmp_path / "stdout.log", tmp_path / "stderr.log")
    runner.watch(handle, output, lambda info: (ended.append(info), done.set()))
    assert done.wait(120)
    waited = time.monotonic() - began
    [info] = ended
    assert info.code is None and "unreachable for 3 s while following run tplat-0123456789abcdef" in info.describe()
    assert 3 <= waited < 60
    # Asked whether it still runs, a cluster that cannot be reached is given the benefit of the doubt: the
    # follower, not a restart, decides that the run is lost.
    assert runner.is_alive(handle)


def test_the_log_copy_resumes_after_the_runs_banner(tmp_path):
    log = tmp_path / "stdout.log"
    assert _copied(log, "tplat-a") == 0
    log.write_text(
        "===== Ray job tplat-a at http://x: cmd\nfirst\nsecond\n===== Ray job tplat-b at http://x: cmd\nb1\n"
    )
    assert _copied(log, "tplat-a") == len("first\nsecond\n===== Ray job tplat-b at http://x: cmd\nb1\n")
    assert _copied(log, "tplat-b") == len("b1\n")
    assert _copied(log, "tplat-c") == 0
