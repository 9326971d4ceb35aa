"""The sandbox against real hostile programs: each is stopped by its limit, and the next ordinary run still passes."""

import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from training_platform.contract.evaluation import MetricSpec
from training_platform.evaluation.metrics import Sample, build_scorers
from training_platform.evaluation.sandbox import SandboxLimits, run_python, sandbox_available

QUICK = SandboxLimits(seconds=3, cpu_seconds=2)


def assert_still_works():
    assert run_python("print(sum(range(10)))").output.strip() == "45"
    assert subprocess.run([sys.executable, "-c", "pass"], check=False).returncode == 0


def test_the_sandbox_is_available_here():
    # The platform's machines (this one, CI's) have unprivileged user namespaces, unshare and prlimit: a sandbox that
    # cannot start here is a failure, never a reason to skip the tests below.
    assert sandbox_available() is None


def test_passing_and_failing_code():
    assert run_python("def f(x):\n    return x + 1\nassert f(1) == 2").status == "passed"
    failed = run_python("assert 1 == 2")
    assert failed.status == "failed" and "AssertionError" in failed.output


def test_an_infinite_loop_is_stopped_at_the_limit():
    assert run_python("while True:\n    pass", QUICK).status == "timeout"
    assert_still_works()


def test_a_fork_bomb_is_contained():
    result = run_python("import os\nwhile True:\n    os.fork()", QUICK)
    assert result.status != "passed"
    assert_still_works()


def test_a_memory_hog_is_refused():
    assert run_python("x = bytearray(2 << 30)").status in ("memory", "killed")
    assert_still_works()


def test_no_connection_to_a_host_loopback_port():
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        code = f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=2)"
        result = run_python(code, QUICK)
    assert result.status == "failed" and "OSError" in result.output
    assert_still_works()


def test_it_cannot_write_into_a_host_directory_it_may_not_write():
    # Read-only for everyone: the platform's user may not write there, and root's sandbox runs as nobody, to whom the
    # kernel applies the permissions root would bypass.
    with tempfile.TemporaryDirectory() as directory:
        os.chmod(directory, 0o555)
        target = Path(directory) / "written"
        result = run_python(f"open({str(target)!r}, 'w').write('x')")
        os.chmod(directory, 0o755)
        assert result.status == "failed" and "PermissionError" in result.output and not target.exists()


def test_its_output_is_cut_to_the_tail():
    result = run_python("print('a' * 200000 + 'END')", SandboxLimits(output_bytes=1000))
    assert len(result.output) <= 1000 and result.output.strip().endswith("END")


def test_pass_at_k_runs_each_answer_against_the_tests():
    (scorer,) = build_scorers([MetricSpec(name="pass_at_k", k=[1, 2, 4])])
    sample = Sample(0, "Write add.", [], tests="assert add(2, 3) == 5")
    good = "```python\ndef add(a, b):\n    return a + b\n```"
    score = scorer.score(sample, [good, "def add(a, b):\n    return a - b", good])
    details = score.details["pass_at_k"]
    assert details["passed"] == [True, False, True]
    # The wrong answer's assert fails: `failed`; once in a loaded suite run (1 of 2 fresh clones) its sandbox ended by
    # a signal instead (`killed`), a cause not found yet. Either way it did not pass, which is what pass@k counts.
    assert details["statuses"][0] == details["statuses"][2] == "passed" and details["statuses"][1] in (
        "failed",
        "killed",
    )
    assert score.values == {"pass@1": pytest.approx(2 / 3), "pass@2": 1.0, "pass@4": None}
