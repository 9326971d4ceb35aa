"""The Ray runner without a cluster: a dashboard nobody answers at (a real closed port) is retried for the
runner's patience, then the run ends with that reason; the log copy resumes after what the log holds; a run's
GPUs are counted in nodes of the cluster, or refused naming its shape."""

import socket
import threading
import time

import pytest

from training_platform.errors import InvalidInputError, UnavailableError
from training_platform.runners.base import ExitInfo, OutputFiles, ProcessHandle
from training_platform.runners.ray import RayRunner, _copied, nodes_for


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


@pytest.mark.parametrize(
    ("num_gpus", "node_gpus", "nnodes"),
    [
        (4, [8, 8], 1),  # fits on one node: stays on one
        (16, [8, 8], 2),
        (12, [8, 8, 4], 2),  # the fewest nodes in equal shares: 6 on each of the two 8-GPU nodes
        (2, [1, 1], 2),  # a CPU cluster's logical GPUs, one a node
        (4, [0, 0], None),  # a cluster without GPUs: the run stays on its driver's node
    ],
)
def test_a_runs_gpus_are_counted_in_nodes_of_the_cluster(num_gpus, node_gpus, nnodes):
    assert nodes_for(num_gpus, node_gpus) == nnodes


@pytest.mark.parametrize(
    ("num_gpus", "node_gpus", "message"),
    [
        (17, [8, 8], "17 GPUs asked; the Ray cluster has 16 (nodes: 2 × 8 GPUs)"),
        (3, [2, 2], "3 GPUs do not split into equal shares over nodes of the Ray cluster (nodes: 2 × 2 GPUs)"),
        (10, [8, 4], "10 GPUs do not split into equal shares over nodes of the Ray cluster (nodes: 1 × 8 GPUs, 1 × 4"),
    ],
)
def test_a_run_the_cluster_cannot_hold_is_refused_naming_its_shape(num_gpus, node_gpus, message):
    with pytest.raises(InvalidInputError) as refused:
        nodes_for(num_gpus, node_gpus)
    [error] = refused.value.errors
    assert error.field == "params.num_gpus" and message in error.message


def test_counting_the_gpus_of_an_unreachable_cluster_is_unavailable_after_the_patience():
    runner = RayRunner(f"http://127.0.0.1:{closed_port()}", patience_seconds=1)
    with pytest.raises(UnavailableError, match="cannot be reached to count its GPUs"):
        runner.nodes_for(2)
