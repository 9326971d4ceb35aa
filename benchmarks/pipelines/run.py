"""Pipeline scheduling overhead: `python -m benchmarks.pipelines.run [--quick] [--repeats N]` (or `make bench`).

Pipelines of `empty` stages (they run nothing and complete at their claim, pipelines/stages.py), so that all the time
a pipeline takes is the scheduling: dispatching a stage, a task claiming it, its completion advancing the pipeline.
Two shapes of 200 stages (20 with `--quick`):
- layers: 20 layers of 10 stages, each stage depending on every stage of the layer before (a barrier per layer);
- chain: 200 stages, each depending on the one before (one hop after another, nothing in parallel).

Three arms, all started by this script and up for the whole run, so that their rounds alternate:
- platform, Celery: a real `tplat serve` with PLATFORM_CELERY_BROKER_URL on a Redis database of the benchmark's own
  (emptied first), and one `tplat worker` serving it: each stage is a Celery message, and the worker's task claims
  the stage over the platform's HTTP API;
- platform, in-process: a second `tplat serve` with no broker: the stages' tasks run on the server's own threads;
- bare Celery: the same shape on Celery alone, no-op tasks on a worker of the same pool and concurrency with the
  platform's Celery settings (pipelines/worker.py: late acknowledgement, one message prefetched), on the same Redis,
  which is also its result backend: the chain as Celery's own chain; the layers as a group per layer, the next sent
  when this client has every result of the one before (Celery's canvas cannot join 20 layers: see time_bare).

The pipelines' concurrency, the `tplat worker`'s, the server's threads and the bare worker's are all CONCURRENCY, a
layer's width. A pass is timed from the client's request (POST /pipelines with start, or the first apply_async) to
the last stage done: the pipeline's finished_at (the server's clock, on this machine) or the last result on the
client. Per stage: the pass over the number of stages. Each arm keeps its best pass over `--repeats` rounds
(the arms' order rotates each round); ratios are against bare Celery on the same shape.
"""

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379")
# The tests' Celery workers take databases 10…15 (tests/support/celery.py); this benchmark takes 9 of its own.
BROKER_DATABASE = 9
CONCURRENCY = 10
PASS_TIMEOUT_S = 600.0
BARE_TASK = "benchmarks.pipelines.noop"
BARE_QUEUE = "benchmarks-pipelines-bare"
ARMS = ("platform, Celery", "platform, in-process", "bare Celery")
BARE = ARMS[2]


@dataclass(frozen=True)
class Shape:
    name: str
    layers: int
    width: int

    @property
    def stages(self) -> int:
        return self.layers * self.width

    def describe(self) -> str:
        if self.width == 1:
            return f"chain of {self.layers}"
        return f"{self.layers} layers × {self.width}"


FULL = (Shape("layers", 20, CONCURRENCY), Shape("chain", 200, 1))
QUICK = (Shape("layers", 4, 5), Shape("chain", 20, 1))


@dataclass
class Result:
    shape: Shape
    arm: str
    passes: list[float] = field(default_factory=list)  # seconds, one per round
    stage_latencies: list[float] = field(default_factory=list)  # platform arms: each stage's dispatched → finished

    @property
    def best(self) -> float:
        return min(self.passes)


# ---- bare Celery -------------------------------------------------------------------------------------------


def bare_app(broker_url: str):
    """The platform's Celery settings (pipelines/worker.py), with a result backend and a queue of the benchmark's."""
    from training_platform.pipelines.worker import celery_app

    app = celery_app(broker_url)
    app.conf.update(result_backend=broker_url, task_ignore_result=False, task_default_queue=BARE_QUEUE)
    return app


def serve_bare(broker_url: str, concurrency: int) -> None:
    """The bare arm's worker: a no-op task, served as `tplat worker` serves stages (run_worker's options)."""
    app = bare_app(broker_url)

    @app.task(name=BARE_TASK)
    def noop() -> None:
        return None

    app.worker_main(
        [
            "worker",
            "--pool=threads",
            f"--concurrency={concurrency}",
            "--hostname=bench-bare@%h",
            f"--queues={BARE_QUEUE}",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
    )


def time_bare(app, shape: Shape) -> float:
    """A chain as Celery's own canvas (each task's message carries the rest of the chain); layers as a group per
    layer, sent when the client has every result of the layer before. Celery's canvas cannot hold 20 barriers: a
    chain of groups runs tasks more than once, and a chain of chords (a join task after each group) takes time
    exponential in its length to send (5 chords of 9: 6.8 s on the 2-core machine), so the client is the barrier."""
    from celery import chain, group

    def noop():
        return app.signature(BARE_TASK, immutable=True)

    started = time.time()
    if shape.width == 1:
        chain(*[noop() for _ in range(shape.layers)]).apply_async().get(timeout=PASS_TIMEOUT_S)
    else:
        for _ in range(shape.layers):
            # Celery's default interval (0.5 s) is how often a group's results are looked for, not a cost of Celery.
            group([noop() for _ in range(shape.width)]).apply_async().get(timeout=PASS_TIMEOUT_S, interval=0.005)
    return time.time() - started


# ---- the platform ------------------------------------------------------------------------------------------------


def definition(shape: Shape, name: str) -> dict:
    def stage_name(layer: int, index: int) -> str:
        return f"l{layer:03d}_s{index:02d}"

    stages = [
        {
            "name": stage_name(layer, index),
            "type": "empty",
            "depends_on": [stage_name(layer - 1, before) for before in range(shape.width)] if layer else [],
        }
        for layer in range(shape.layers)
        for index in range(shape.width)
    ]
    return {"name": name, "concurrency": CONCURRENCY, "stages": stages}


def time_platform(server, shape: Shape, name: str) -> tuple[float, list[float]]:
    """One pipeline from its POST to its finished_at; with each stage's dispatched → finished, in seconds."""
    from tests.support.helpers import wait_until

    started = time.time()
    response = server.api.post("/pipelines", json={"definition": definition(shape, name), "start": True})
    response.raise_for_status()

    def finished() -> dict | None:
        pipeline = server.api.get(f"/pipelines/{name}").json()
        return pipeline if pipeline["status"] != "running" else None

    # Polled as the UI polls (each read loads every stage: a faster poll would take the server's time from the
    # stages); the pass is timed by finished_at, so the interval only decides when the client hears of it.
    pipeline = wait_until(finished, PASS_TIMEOUT_S, interval=1.0, message=f"pipeline {name}")
    if pipeline["status"] != "completed":
        raise RuntimeError(f"pipeline {name} is {pipeline['status']}: {pipeline['error']} ({pipeline['stage_counts']})")
    latencies = [_at(stage["finished_at"]) - _at(stage["dispatched_at"]) for stage in pipeline["stages"]]
    return _at(pipeline["finished_at"]) - started, latencies


def _at(stamp: str) -> float:
    return datetime.fromisoformat(stamp).timestamp()


# ---- the run -----------------------------------------------------------------------------------------------------


class Arms:
    """The two servers, the `tplat worker` and the bare worker, started under `workdir` and stopped by PID."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.broker_url = f"{REDIS_URL}/{BROKER_DATABASE}"
        self.servers = []
        self.workers = None
        self.bare_worker: subprocess.Popen | None = None
        self.app = None

    def __enter__(self) -> "Arms":
        import redis

        client = redis.Redis.from_url(self.broker_url)
        client.flushdb()  # a message left by an earlier run would reach these workers
        client.close()
        try:
            # Started side by side: a server takes many seconds to come up on a loaded machine.
            with ThreadPoolExecutor(3) as starting:
                platform = starting.submit(self._celery_platform)
                in_process = starting.submit(self._server, "in-process", PLATFORM_PIPELINE_THREADS=str(CONCURRENCY))
                bare = starting.submit(self._start_bare_worker)
                self.in_process, self.bare_worker = in_process.result(), bare.result()
                platform.result()
            self.app = bare_app(self.broker_url)
        except BaseException:
            self.__exit__()
            raise
        return self

    def _celery_platform(self) -> None:
        from tests.support.celery import CeleryWorkers

        self.celery = self._server("celery", PLATFORM_CELERY_BROKER_URL=self.broker_url)
        self.workers = CeleryWorkers(self.celery, self.broker_url, self.workdir)
        self.workers.start("bench-worker", concurrency=CONCURRENCY)

    def _server(self, name: str, **env: str):
        from tests.support.helpers import ServerProcess

        home = self.workdir / name
        home.mkdir()
        server = ServerProcess(home=home)
        server.env.update(env)
        self.servers.append(server)
        server.start()
        return server

    def _start_bare_worker(self) -> subprocess.Popen:
        from tests.support.helpers import wait_until

        log_path = self.workdir / "worker-bare.log"
        with open(log_path, "w") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "benchmarks.pipelines.run", "--bare-worker", self.broker_url],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

        def ready() -> bool:
            if process.poll() is not None:
                raise RuntimeError(f"the bare worker exited: {log_path.read_text(errors='replace')[-3000:]}")
            return " ready." in log_path.read_text(errors="replace")

        self.bare_worker = process
        wait_until(ready, 120, message="the bare Celery worker")
        return process

    def measure(self, arm: str, shape: Shape, name: str) -> tuple[float, list[float]]:
        if arm == BARE:
            return time_bare(self.app, shape), []
        return time_platform(self.celery if arm == ARMS[0] else self.in_process, shape, name)

    def __exit__(self, *exc) -> None:
        if self.app is not None:
            self.app.close()
        if self.bare_worker is not None and self.bare_worker.poll() is None:
            self.bare_worker.send_signal(signal.SIGTERM)  # Celery's warm shutdown, which a thread pool may not end
            try:
                self.bare_worker.wait(15)
            except subprocess.TimeoutExpired:
                self.bare_worker.kill()
                self.bare_worker.wait(30)
        if self.workers is not None:
            self.workers.stop_all()
        for server in self.servers:
            server.shutdown()


def run(shapes: tuple[Shape, ...], repeats: int, workdir: Path, say: Callable[[str], None]) -> list[Result]:
    results = {(shape.name, arm): Result(shape, arm) for shape in shapes for arm in ARMS}
    with Arms(workdir) as arms:
        for shape in shapes:  # a small untimed pass each: connections open, code imported, workers consuming
            warm_up = Shape(shape.name, min(shape.layers, 2), shape.width)
            for arm in ARMS:
                arms.measure(arm, warm_up, f"warm-up-{shape.name}-{ARMS.index(arm)}")
        for round_ in range(repeats):
            order = ARMS[round_ % len(ARMS) :] + ARMS[: round_ % len(ARMS)]
            for shape in shapes:
                for arm in order:
                    seconds, latencies = arms.measure(arm, shape, f"bench-{shape.name}-{ARMS.index(arm)}-{round_}")
                    result = results[(shape.name, arm)]
                    result.passes.append(seconds)
                    result.stage_latencies.extend(latencies)
                    say(f"{shape.name} | {arm}: {shape.stages} stages completed in {seconds:.3f} s")
    return list(results.values())


def table(results: list[Result], repeats: int) -> str:
    header = (
        "shape",
        "arm",
        "stages",
        "best s",
        "median s",
        "ms per stage",
        "stage dispatch → done p50 ms",
        "vs bare Celery",
    )
    bare = {result.shape.name: result for result in results if result.arm == BARE}
    lines = []
    for result in results:
        shape = result.shape
        latency = (
            f"{statistics.median(result.stage_latencies) * 1000:.1f}" if result.stage_latencies else "–"
        )  # bare Celery has no stage rows to read them from
        lines.append(
            (
                shape.describe(),
                result.arm,
                str(shape.stages),
                f"{result.best:.2f}",
                f"{statistics.median(result.passes):.2f}",
                f"{result.best / shape.stages * 1000:.1f}",
                latency,
                f"{result.best / bare[shape.name].best:.2f}x",
            )
        )
    markdown = "\n".join("| " + " | ".join(line) + " |" for line in [header, tuple("---" for _ in header), *lines])
    return (
        f"{markdown}\n\n`empty` stages; pipeline concurrency, worker threads and server threads {CONCURRENCY}; best "
        f"of {repeats} pass(es) per arm, the arms alternating; ms per stage: the best pass over the stages; "
        "vs bare Celery: the best pass over bare Celery's on the same shape. SQLite database, Redis on loopback. "
        f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f} at the end."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="20 stages a shape, one round (the test's run)")
    parser.add_argument("--repeats", type=int, default=None, help="rounds of every arm and shape (default 3; 1 quick)")
    parser.add_argument("--bare-worker", metavar="BROKER_URL", help=argparse.SUPPRESS)  # the bare arm's worker
    args = parser.parse_args()
    if args.bare_worker:
        sys.argv = sys.argv[:1]  # Celery reads the process's arguments as its own
        serve_bare(args.bare_worker, CONCURRENCY)
        return
    shapes = QUICK if args.quick else FULL
    repeats = args.repeats or (1 if args.quick else 3)
    with tempfile.TemporaryDirectory(prefix="pipelines-bench-") as workdir:
        results = run(shapes, repeats, Path(workdir), lambda line: print(line, file=sys.stderr, flush=True))
    print(table(results, repeats))


if __name__ == "__main__":
    main()
