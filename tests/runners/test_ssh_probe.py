"""What a host's connection test reads from its probe (runners/ssh/probe.py): the probe itself runs here, with this
machine's interpreter and with one that lacks the platform's package."""

import json
import subprocess
import sys

import pytest

import training_platform
from training_platform.runners.ssh.connection import CommandResult
from training_platform.runners.ssh.probe import probe_argv, read_probe

SYSTEM_PYTHON = "/usr/bin/python3.11"  # Debian's, without the platform's package (tests/support/sshd.py uses it too)


def probe_here(python: str, work_dir: str) -> CommandResult:
    done = subprocess.run(probe_argv(python, work_dir), capture_output=True, text=True, timeout=60, cwd=work_dir)
    return CommandResult(done.returncode, done.stdout, done.stderr)


def test_the_probe_reports_this_machine(tmp_path):
    report = read_probe(probe_here(sys.executable, str(tmp_path)), sys.executable)
    assert report.package == training_platform.__version__ and report.agent and report.problems == []
    assert report.python == ".".join(map(str, sys.version_info[:3])) and report.cpus and report.disk_free_bytes > 0
    assert report.work_dir_exists and report.memory_total_bytes > 0
    assert report.gpus == []  # no NVIDIA driver here: nvidia-smi is missing or lists nothing


def test_an_interpreter_without_the_package_is_told_how_to_install_it(tmp_path):
    report = read_probe(probe_here(SYSTEM_PYTHON, str(tmp_path)), SYSTEM_PYTHON)
    assert report.package is None and not report.agent
    assert f"{SYSTEM_PYTHON} -m pip install training-platform=={training_platform.__version__}" in report.problems[0]


def test_gpus_another_version_and_a_missing_interpreter():
    listed = {
        "python": "3.11.9",
        "executable": "/opt/venv/bin/python",
        "package": "0.0.9",
        "agent": True,
        "disk_free_bytes": 10,
        "work_dir_exists": True,
        "gpus": [{"index": 0, "name": "NVIDIA H100 80GB HBM3", "memory_mib": 81559}],
    }
    report = read_probe(CommandResult(0, json.dumps(listed) + "\n", ""), "/opt/venv/bin/python")
    assert [gpu.index for gpu in report.gpus] == [0] and "install the same version" in report.problems[0]
    with pytest.raises(ValueError, match="no Python at /nowhere/python"):
        read_probe(CommandResult(127, "", "sh: 1: /nowhere/python: not found"), "/nowhere/python")
    with pytest.raises(ValueError, match="answered something else"):
        read_probe(CommandResult(0, "hello\n", ""), "/opt/venv/bin/python")
