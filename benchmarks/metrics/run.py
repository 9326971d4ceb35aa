"""Metrics pipeline benchmarks: `python -m benchmarks.metrics.run` (or `make bench-metrics`).

(a) ingest throughput of a 1,000,000-value verl-format file, on SQLite and PostgreSQL, against the naive
    baseline of one ORM insert per value in one transaction;
(b) live latency, line appended → WebSocket message, with 50 viewers on 10 jobs being written at once;
(c) query latency of a 1,000,000-step series downsampled to 2,000 points, against a SQL GROUP BY over
    every point (what the query would cost without rollups);
(d) ingest throughput with every detector on (the platform's own ingest path: diagnostics as a step watcher,
    findings stored) against the same ingest with them off, over a verl GRPO file whose keys the detectors read.
Targets (issue 3): ≥ 200,000 values/s into SQLite, live p99 ≤ 100 ms, query ≤ 100 ms; (issue 16): detectors on
within 10% of off.
"""

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg
from sqlalchemy import text
from sqlalchemy.engine import make_url

from benchmarks.report import print_table
from training_platform.db import Database
from training_platform.db.tables import Job, MetricPoint
from training_platform.metrics.ingest import MetricsIngester
from training_platform.metrics.reader import LocalFileSource
from training_platform.metrics.store import MetricStore
from training_platform.platform import Platform
from training_platform.settings import Settings

KEYS_PER_STEP = 60  # what verl logs per PPO step
DRAIN_SECONDS = 30.0  # the longest the live benchmark waits for the last messages
VALUES = 1_000_000
BASELINE_VALUES = 30_000  # the naive baseline is measured on a slice, its rate extrapolated


def write_verl_file(path: Path, values: int) -> None:
    rng = random.Random(0)
    keys = [f"actor/metric_{i}" for i in range(KEYS_PER_STEP)]
    with open(path, "w") as handle:
        for step in range(1, values // KEYS_PER_STEP + 1):
            handle.write(json.dumps({"step": step, "data": {k: rng.random() for k in keys}}) + "\n")


# What verl's GRPO trainer logs that the detectors read (engines/verl/keys.py); the rest of its keys are filler.
DETECTED_KEYS = [
    "actor/loss",
    "actor/pg_loss",
    "actor/grad_norm",
    "actor/kl_loss",
    "actor/entropy",
    "critic/score/mean",
    "critic/score/min",
    "critic/score/max",
    "perf/throughput",
    "timing_s/step",
]


def write_grpo_file(path: Path, values: int) -> None:
    """A verl GRPO run's lines, healthy but for a gradient spike a third of the way (so findings are written too)."""
    rng = random.Random(0)
    fillers = [f"actor/metric_{i}" for i in range(KEYS_PER_STEP - len(DETECTED_KEYS))]
    steps = values // KEYS_PER_STEP
    spike = range(steps // 3, steps // 3 + 10)
    with open(path, "w") as handle:
        for step in range(1, steps + 1):
            data = {
                "actor/loss": 0.5 + rng.random() / 10,
                "actor/pg_loss": rng.random() / 10,
                "actor/grad_norm": 500.0 if step in spike else 1 + rng.random(),
                "actor/kl_loss": 0.01 + rng.random() / 100,
                "actor/entropy": 1 + rng.random(),
                "critic/score/mean": 0.5 + rng.random() / 10,
                "critic/score/min": 0.0,
                "critic/score/max": 1.0,
                "perf/throughput": 1000 + rng.random() * 50,
                "timing_s/step": 1 + rng.random() / 10,
            }
            data |= {key: rng.random() for key in fillers}
            handle.write(json.dumps({"step": step, "data": data}) + "\n")


def bench_detectors(workdir: Path, metrics_file: Path, runs: int = 3) -> dict:
    """The same file into a fresh SQLite platform `runs` times each way, alternating; the median rate of each."""
    rates: dict[bool, list[float]] = {True: [], False: []}
    for run in range(2 * runs):
        detectors_on = run % 2 == 0
        settings = Settings(home=workdir / f"platform-{run}", database_url=f"sqlite:///{workdir / f'health-{run}.db'}")
        platform = Platform.open(settings)
        try:
            job = platform.jobs.get_or_create_external(f"bench-{run}", "benchmark")
            watchers = platform.metrics.watchers if detectors_on else []
            started = time.perf_counter()
            ingester = MetricsIngester(platform.metrics.store, job.id, LocalFileSource(metrics_file), watchers=watchers)
            report = ingester.ingest_all()
            rates[detectors_on].append(report.values / (time.perf_counter() - started))
            findings = len(platform.diagnostics.health(job.id).findings)
            assert (findings > 0) == detectors_on, (
                f"{findings} findings with detectors {'on' if detectors_on else 'off'}"
            )
        finally:
            platform.close()
    return {"on": statistics.median(rates[True]), "off": statistics.median(rates[False]), "rates": rates}


class FreshDatabase:
    """An empty, migrated database: an SQLite file, or a new database on the PostgreSQL server."""

    def __init__(self, kind: str, workdir: Path, postgres_url: str):
        self.kind, self.postgres_url = kind, postgres_url
        if kind == "sqlite":
            self.url = f"sqlite:///{workdir / f'{uuid.uuid4().hex}.db'}"
        else:
            self.name = f"tplat_bench_{uuid.uuid4().hex[:10]}"
            with psycopg.connect(_libpq(postgres_url), autocommit=True) as connection:
                connection.execute(f'CREATE DATABASE "{self.name}"')
            self.url = make_url(postgres_url).set(database=self.name).render_as_string(hide_password=False)
        self.db = Database(self.url)
        self.db.upgrade()
        with self.db.session() as session:
            session.add(
                Job(
                    id="bench",
                    name="bench",
                    algorithm="external",
                    engine="external",
                    run_mode="external",
                    model_path="",
                    dataset_paths=[],
                    params={},
                    status="completed",
                    output_dir="/tmp",
                )
            )
            session.commit()

    def close(self) -> None:
        self.db.dispose()
        if self.kind == "postgresql":
            with psycopg.connect(_libpq(self.postgres_url), autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def _libpq(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def bench_ingest(
    kind: str, workdir: Path, postgres_url: str, metrics_file: Path, baseline_values: int = BASELINE_VALUES
) -> dict:
    database = FreshDatabase(kind, workdir, postgres_url)
    try:
        started = time.perf_counter()
        report = MetricsIngester(MetricStore(database.db), "bench", LocalFileSource(metrics_file)).ingest_all()
        ours = report.values / (time.perf_counter() - started)
        baseline = naive_orm_rate(database.db, baseline_values)
    finally:
        database.close()
    return {"values": report.values, "ours": ours, "baseline": baseline}


def naive_orm_rate(db: Database, values: int) -> float:
    """One ORM object and one INSERT per value, one commit at the end (series created up front, for it)."""
    with db.engine.begin() as connection:
        connection.execute(text("INSERT INTO metric_series (job_id, key) VALUES ('bench', 'naive')"))
        series_id = connection.execute(text("SELECT id FROM metric_series WHERE key = 'naive'")).scalar_one()
    rng = random.Random(1)
    started = time.perf_counter()
    with db.session() as session:
        for step in range(values):
            session.add(MetricPoint(series_id=series_id, step=step, value=rng.random()))
            session.flush()
        session.commit()
    return values / (time.perf_counter() - started)


def bench_query(kind: str, workdir: Path, postgres_url: str, steps: int = 1_000_000) -> dict:
    database = FreshDatabase(kind, workdir, postgres_url)
    try:
        store = MetricStore(database.db)
        rng = random.Random(2)
        for start in range(0, steps, 50_000):
            store.write_batch("bench", {s: {"loss": rng.random()} for s in range(start, min(start + 50_000, steps))})
        spike = steps * 7 // 9
        store.write_batch("bench", {spike: {"loss": 1e9}})
        timings = []
        for _ in range(20):
            began = time.perf_counter()
            [series] = store.query("bench", ["loss"], None, None, 2000)
            timings.append(time.perf_counter() - began)
        assert spike in series.steps and len(series.steps) <= 2000, "the planted spike must survive"
        scan = []
        bucket = steps / 2000
        sql = text(
            "SELECT CAST(step / :w AS INTEGER) AS b, MIN(value), MAX(value), MIN(step), MAX(step) "
            "FROM metric_points p JOIN metric_series s ON s.id = p.series_id "
            "WHERE s.job_id = 'bench' AND s.key = 'loss' GROUP BY b"
        )
        with database.db.engine.connect() as connection:
            for _ in range(5):
                began = time.perf_counter()
                connection.execute(sql, {"w": bucket}).all()
                scan.append(time.perf_counter() - began)
    finally:
        database.close()
    return {"p50": statistics.median(timings), "max": max(timings), "scan": statistics.median(scan)}


# ---- live latency ------------------------------------------------------------------------------------


def bench_live(jobs: int = 10, viewers_per_job: int = 5, seconds: float = 15.0, rate_per_job: float = 20.0) -> dict:
    """A real server process follows `jobs` metrics files (as it does for launched jobs) while a separate
    writer process appends lines to them; the latency is the writer's clock at write → the viewer's at receipt."""
    import httpx

    from tests.support.helpers import ServerProcess, wait_until

    with tempfile.TemporaryDirectory() as home:
        server = ServerProcess(home=Path(home))
        server.env["BENCH_JOBS"] = str(jobs)
        server.process = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.metrics.live_server"],
            env=server.env,
            start_new_session=True,
            stdout=open(Path(home) / "server.log", "w"),
            stderr=subprocess.STDOUT,
        )
        try:
            wait_until(server._healthy, 60, message="benchmark server")
            files = wait_until(lambda: httpx.get(f"{server.url}/bench/files").json() or None, 30, message="jobs")
            latencies, expected = asyncio.run(_measure(server, files, viewers_per_job, seconds, rate_per_job))
        finally:
            server.process.terminate()
            server.process.wait(30)
    latencies.sort()
    return {
        "messages": len(latencies),
        "expected": expected,
        "p50": latencies[len(latencies) // 2],
        "p99": latencies[int(len(latencies) * 0.99)],
        "viewers": jobs * viewers_per_job,
        "jobs": jobs,
    }


async def _measure(server, files: dict[str, str], viewers_per_job: int, seconds: float, rate: float):
    from websockets.asyncio.client import connect

    latencies: list[float] = []
    sockets = []
    for job_id in files:
        for _ in range(viewers_per_job):
            socket = await connect(server.ws_url(f"/monitoring/{job_id}/live"), additional_headers=server.auth_headers)
            await socket.recv()  # the initial status message
            sockets.append(socket)

    async def listen(socket):
        try:
            async for raw in socket:
                received = time.time()
                message = json.loads(raw)
                if message["type"] == "metric":
                    latencies.append(received - message["data"]["custom"]["bench/sent"])
        except Exception:
            pass

    listeners = [asyncio.create_task(listen(s)) for s in sockets]
    writer = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.metrics.live_writer", str(seconds), str(rate), *files.values()],
        stdout=subprocess.PIPE,
        text=True,
    )
    written = int((await asyncio.get_running_loop().run_in_executor(None, writer.communicate))[0])
    # The last lines' messages are still on their way: wait for every one (or give up after DRAIN_SECONDS, and the
    # count says what is missing), rather than for a fixed time a loaded machine may overrun.
    deadline = time.monotonic() + DRAIN_SECONDS
    while len(latencies) < written * viewers_per_job and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    for socket in sockets:
        await socket.close()
    await asyncio.gather(*listeners)
    return latencies, written * viewers_per_job


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=["ingest", "live", "query", "detectors"], action="append")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("PLATFORM_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1/test"),
    )
    args = parser.parse_args()
    chosen = set(args.only or ["ingest", "live", "query", "detectors"])
    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        workdir = Path(workdir)
        if "ingest" in chosen:
            metrics_file = workdir / "verl_1M.jsonl"
            write_verl_file(metrics_file, VALUES)
            for kind in ("sqlite", "postgresql"):
                result = bench_ingest(kind, workdir, args.postgres, metrics_file)
                rows.append(
                    (
                        f"ingest 1M values ({kind})",
                        f"{result['ours']:,.0f} values/s",
                        f"{result['baseline']:,.0f} values/s (ORM insert per value)",
                        f"{result['ours'] / result['baseline']:.1f}x",
                        "≥ 200,000 values/s" if kind == "sqlite" else "-",
                    )
                )
                print(f"ingest {kind}: {result}", file=sys.stderr)
        if "detectors" in chosen:
            grpo_file = workdir / "verl_grpo_1M.jsonl"
            write_grpo_file(grpo_file, VALUES)
            result = bench_detectors(workdir, grpo_file)
            rows.append(
                (
                    "ingest 1M values, every detector on (SQLite)",
                    f"{result['on']:,.0f} values/s",
                    f"{result['off']:,.0f} values/s (detectors off)",
                    f"{result['on'] / result['off']:.2f}x",
                    "≥ 0.90x",
                )
            )
            print(f"detectors: {result}", file=sys.stderr)
        if "query" in chosen:
            for kind in ("sqlite", "postgresql"):
                result = bench_query(kind, workdir, args.postgres)
                rows.append(
                    (
                        f"query 1M steps → 2,000 points ({kind})",
                        f"{result['p50'] * 1000:.1f} ms p50",
                        f"{result['scan'] * 1000:.1f} ms (GROUP BY over every point)",
                        f"{result['scan'] / result['p50']:.1f}x",
                        "≤ 100 ms",
                    )
                )
                print(f"query {kind}: {result}", file=sys.stderr)
    if "live" in chosen:
        result = bench_live()
        rows.append(
            (
                f"live latency, {result['viewers']} viewers, {result['jobs']} jobs writing",
                f"p50 {result['p50'] * 1000:.1f} ms, p99 {result['p99'] * 1000:.1f} ms",
                f"{result['messages']:,} of {result['expected']:,} messages arrived",
                "-",
                "p99 ≤ 100 ms",
            )
        )
    print_table(rows)


if __name__ == "__main__":
    main()
