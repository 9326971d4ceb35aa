"""The SSH metrics benchmark runs (a few seconds per arm), so `make bench` does not rot: a real server follows a
local file and a file mirrored from a remote user's home over SSH, and every step written reaches the live socket.
It runs as `make bench` runs it, in a process of its own (its event loops are its own, whatever this worker holds)."""

import re
import subprocess
import sys

import pytest


@pytest.mark.slow
def test_both_arms_deliver_every_step_to_the_live_socket():
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.ssh.run", "--seconds", "3"], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    arrivals = re.findall(r"^(local|ssh): (\d+) written, (\d+) received$", done.stderr, re.MULTILINE)
    assert [arm for arm, _, _ in arrivals] == ["local", "ssh"], done.stderr[-3000:]
    assert all(written == received and int(written) > 0 for _, written, received in arrivals), arrivals
    assert "| local |" in done.stdout and "| ssh |" in done.stdout and "| ssh / local |" in done.stdout
