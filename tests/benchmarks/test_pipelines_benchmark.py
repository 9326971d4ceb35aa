"""The pipeline scheduling benchmark runs (20 stages a shape), so `make bench` does not rot: two real servers (one
on Celery with a `tplat worker`, one on its own threads) and a bare Celery worker each complete both shapes, and the
table reports every arm against bare Celery. It runs as `make bench` runs it, in a process of its own (it starts
and stops its servers and workers, and leaves this worker's Celery and event loops alone)."""

import re
import subprocess
import sys

import pytest

ARMS = ["platform, Celery", "platform, in-process", "bare Celery"]


@pytest.mark.slow
def test_every_arm_completes_both_shapes_and_is_measured_against_bare_celery():
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.pipelines.run", "--quick"], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    completed = re.findall(r"^(layers|chain) \| (.+): (\d+) stages completed in ([\d.]+) s$", done.stderr, re.M)
    assert [(shape, arm) for shape, arm, _, _ in completed] == [
        (shape, arm) for shape in ("layers", "chain") for arm in ARMS
    ], done.stderr[-3000:]
    assert all(stages == "20" and float(seconds) > 0 for _, _, stages, seconds in completed), completed

    # shape | arm | stages | best s | median s | ms per stage | stage dispatch → done p50 ms | vs bare Celery
    row = r"^\| (4 layers × 5|chain of 20) \| (.+?) \| 20 \| ([\d.]+) \| [\d.]+ \| ([\d.]+) \| (.+?) \| ([\d.]+)x \|$"
    rows = re.findall(row, done.stdout, re.M)
    assert [(shape, arm) for shape, arm, *_ in rows] == [
        (shape, arm) for shape in ("4 layers × 5", "chain of 20") for arm in ARMS
    ], done.stdout
    for shape, arm, best, per_stage, latency, ratio in rows:
        assert float(best) > 0 and float(per_stage) > 0 and float(ratio) > 0, (shape, arm)
        if arm == "bare Celery":  # the reference of its own shape, with no stage rows to time stages by
            assert float(ratio) == 1.0 and latency == "–", (shape, ratio, latency)
        else:
            assert float(latency) > 0, (shape, arm, latency)
