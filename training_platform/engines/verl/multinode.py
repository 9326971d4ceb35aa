"""A verl SFT run over several nodes of a Ray cluster: the Ray job's entrypoint, one torchrun per node.

    python -m training_platform.engines.verl.multinode --nnodes N --nproc-per-node G -m verl.trainer.sft_trainer k=v ...

verl's SFT trainer is torchrun-based (SPMD). Ray reserves one bundle of G GPUs on each of N distinct nodes (a
STRICT_SPREAD placement group; it waits there while the cluster's GPUs are busy), and an actor in each bundle
runs `torchrun --nnodes N --node_rank i` over them, node 0's actor hosting the rendezvous. Global rank 0 is on
node 0: it alone logs verl's metrics and writes the job's status (the plugin's hooks), so the job keeps one
metrics stream. Each node's output reaches this driver, so the job's log, through Ray. When one node's torchrun
fails the others are ended (their ranks would otherwise wait in a collective until verl's timeout, 10 hours), and
a stopped job (Ray sends this driver SIGTERM) ends every node's torchrun the way torchrun ends its ranks.

Training side: it imports Ray and the standard library, none of the server's packages.
"""

import argparse
import os
import signal
import socket
import subprocess
import sys

import ray
from ray.util.placement_group import placement_group
from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

# A stopped job's driver has 3 s before Ray kills it (RAY_JOB_STOP_WAIT_TIME_S), its actors and their torchrun
# with it: by then each torchrun has passed SIGTERM on to its ranks.
END_WAIT_S = 2.0
POLL_S = 1.0  # how often the driver looks up from waiting (a signal is handled between two looks)


@ray.remote
class NodeRank:
    """One node of the run: runs its torchrun, which starts the node's ranks."""

    def __init__(self):
        self.process: subprocess.Popen | None = None

    def node(self) -> str:
        return ray.get_runtime_context().get_node_id()

    def rendezvous(self) -> tuple[str, int]:
        """This node's address and a port free on it, for torchrun's rendezvous (node 0's actor only)."""
        with socket.socket() as probe:
            probe.bind(("", 0))
            port = probe.getsockname()[1]
        return ray.util.get_node_ip_address(), port

    def run(self, argv: list[str], cwd: str) -> int:
        # The actor's GPUs are in CUDA_VISIBLE_DEVICES (Ray sets it), which torchrun's ranks inherit.
        self.process = subprocess.Popen(argv, cwd=cwd)
        return self.process.wait()

    def terminate(self) -> None:
        """SIGTERM to torchrun, which ends its ranks (this actor runs concurrent calls: `run` is waiting)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(END_WAIT_S)
            except subprocess.TimeoutExpired:
                pass


def parse(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """(this launcher's options, torchrun's script arguments from `-m` on)."""
    if "-m" not in argv:
        raise SystemExit("usage: multinode --nnodes N --nproc-per-node G -m MODULE [ARG ...]")
    split = argv.index("-m")
    parser = argparse.ArgumentParser(prog="multinode")
    parser.add_argument("--nnodes", type=int, required=True)
    parser.add_argument("--nproc-per-node", type=int, required=True)
    return parser.parse_args(argv[:split]), argv[split:]


def torchrun(script: list[str], nnodes: int, nproc_per_node: int, node_rank: int, address: str, port: int) -> list[str]:
    return [
        sys.executable,
        *("-m", "torch.distributed.run"),
        f"--nnodes={nnodes}",
        f"--nproc_per_node={nproc_per_node}",
        f"--node_rank={node_rank}",
        f"--master_addr={address}",
        f"--master_port={port}",
        *script,
    ]


def main(argv: list[str]) -> int:
    options, script = parse(argv)
    nnodes, gpus = options.nnodes, options.nproc_per_node
    ray.init()  # the job's cluster (Ray gives a job's driver its address)
    group = placement_group([{"CPU": 1, "GPU": gpus}] * nnodes, strategy="STRICT_SPREAD")
    print(f"waiting for {nnodes} nodes with {gpus} GPU(s) free on each", flush=True)
    ray.get(group.ready())
    nodes = [
        NodeRank.options(
            num_cpus=1,
            num_gpus=gpus,
            max_concurrency=2,
            scheduling_strategy=PlacementGroupSchedulingStrategy(group, placement_group_bundle_index=index),
        ).remote()
        for index in range(nnodes)
    ]

    def end(ranks) -> None:
        if ranks:
            ray.wait([node.terminate.remote() for node in ranks], num_returns=len(ranks), timeout=END_WAIT_S)

    def stop(*_) -> None:
        end(nodes)
        raise SystemExit(128 + signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    address, port = ray.get(nodes[0].rendezvous.remote())
    for rank, node_id in enumerate(ray.get([node.node.remote() for node in nodes])):
        print(f"node rank {rank} on Ray node {node_id}", flush=True)
    cwd = os.getcwd()
    runs = {
        node.run.remote(torchrun(script, nnodes, gpus, rank, address, port), cwd): rank
        for rank, node in enumerate(nodes)
    }
    code = 0
    while runs:
        done, _ = ray.wait(list(runs), num_returns=1, timeout=POLL_S)
        for ref in done:
            rank = runs.pop(ref)
            exit_code = ray.get(ref)
            print(f"node rank {rank}: torchrun exited with code {exit_code}", flush=True)
            if exit_code != 0 and code == 0:
                code = exit_code
                end([nodes[other] for other in runs.values()])
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
