"""Ingest is exact: whatever the interleaving of appends, partial writes, rewrites and ingester crashes,
the store ends with exactly the (step, key, value) set the file held — none lost, none doubled."""

import json
import math
import os
import random
import signal
import subprocess
import sys
import threading
import time

import pytest

from training_platform.metrics.ingest import MetricsIngester
from training_platform.metrics.reader import LocalFileSource
from training_platform.metrics.store import MetricStore


class FileModel:
    """Writes a metrics file like a trainer would and remembers what an exact ingest must end with."""

    def __init__(self, path, rng: random.Random, verl: bool):
        self.path, self.rng, self.verl = path, rng, verl
        self.expected: dict[tuple[int, str], float] = {}
        self.unwritten: list[tuple[str, dict]] = []  # lines (or their tails) not yet in the file, with their values
        self.step = 0
        path.write_text("")

    def _value(self) -> float:
        roll = self.rng.random()
        return math.nan if roll < 0.03 else math.inf if roll < 0.05 else round(self.rng.uniform(-5, 5), 6)

    def line(self, step: int) -> str:
        keys = self.rng.sample(["x/a", "x/b", "x/c"], self.rng.randint(1, 3))
        values = {key: self._value() for key in keys}
        loss = self._value()
        if self.verl:
            data = {key: (None if math.isnan(v) else v) for key, v in values.items()} | {"train/loss": loss}
            # orjson writes non-finite numbers as null; the reader reads null as NaN
            data = {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in data.items()}
            expected = {k: v for k, v in values.items()} | {"loss": loss}
            expected = {k: (v if math.isfinite(v) else math.nan) for k, v in expected.items()}
            text = json.dumps({"step": step, "data": data})
        else:
            timestamp = 1000.0 + self.rng.random()
            expected = values | {"loss": loss, "timestamp": timestamp}
            text = json.dumps({"step": step, "timestamp": timestamp, "loss": {"total_loss": loss}, "custom": values})
        return text + "\n", {(step, key): value for key, value in expected.items()}

    def next_step(self) -> int:
        if self.step and self.rng.random() < 0.1:
            return self.rng.randint(max(1, self.step - 5), self.step)  # re-logged after a resume, or verl's 2nd line
        self.step += 1
        return self.step

    def _write(self, text: str, mode: str = "a") -> None:
        with open(self.path, mode, encoding="utf-8") as handle:
            handle.write(text)

    def append_lines(self, count: int) -> None:
        """Write whole lines, except that a random cut may leave the last ones unwritten for now."""
        self.unwritten += [self.line(self.next_step()) for _ in range(count)]
        text = "".join(line for line, _ in self.unwritten)
        cut = self.rng.randint(0, len(text)) if self.rng.random() < 0.4 else len(text)
        self._write(text[:cut])
        while self.unwritten and cut >= len(self.unwritten[0][0]):
            line, values = self.unwritten.pop(0)
            cut -= len(line)
            self.expected.update(values)  # the line is complete in the file now
        if self.unwritten:
            self.unwritten[0] = (self.unwritten[0][0][cut:], self.unwritten[0][1])

    def append_malformed(self) -> None:
        if not self.unwritten:
            self._write(self.rng.choice(["{broken\n", '{"step": "x"}\n', "[]\n"]))

    def rewrite(self, from_step: int) -> None:
        """verl on resume: the file is truncated and logging restarts after the checkpoint."""
        self.step = from_step
        self.unwritten = []
        self._write("", mode="w")
        self.append_lines(self.rng.randint(1, 5))

    def finish(self) -> None:
        self.append_lines(0) if not self.unwritten else None
        for line, values in self.unwritten:
            self._write(line)
            self.expected.update(values)
        self.unwritten = []


def stored(store: MetricStore, job_id: str) -> dict[tuple[int, str], float]:
    return {(step, key): value for step, values in store.records(job_id) for key, value in values.items()}


def assert_same(actual: dict, expected: dict) -> None:
    assert actual.keys() == expected.keys(), (
        sorted(actual.keys() - expected.keys())[:5],
        sorted(expected.keys() - actual.keys())[:5],
    )
    for key, value in expected.items():
        assert actual[key] == value or (math.isnan(actual[key]) and math.isnan(value)), (key, actual[key], value)


@pytest.mark.parametrize("seed", range(12))
def test_random_interleavings_with_crashes_end_exact(platform, tmp_path, seed):
    rng = random.Random(seed)
    job_id = platform.jobs.get_or_create_external(f"fuzz-{seed}", source="fuzz").id
    store = MetricStore(platform.db)
    model = FileModel(tmp_path / "m.jsonl", rng, verl=seed % 2 == 1)
    source = LocalFileSource(model.path)

    def fresh() -> MetricsIngester:  # what a restarted platform builds from the stored cursor
        return MetricsIngester(MetricStore(platform.db), job_id, source, flush_records=rng.randint(1, 8))

    ingester = fresh()
    for _ in range(120):
        action = rng.random()
        if action < 0.45:
            model.append_lines(rng.randint(1, 6))
        elif action < 0.5:
            model.append_malformed()
        elif action < 0.8:
            ingester.poll()
            if ingester.flush_due() or rng.random() < 0.2:
                ingester.flush()
        elif action < 0.93:
            ingester = fresh()  # crash: whatever was read but not flushed is gone
        else:
            ingester.ingest_all()  # the old file was taken in before the run resumed ...
            model.rewrite(rng.randint(0, model.step))  # ... and rewrote it
    model.finish()
    report = fresh().ingest_all()
    assert_same(stored(store, job_id), model.expected)
    assert fresh().ingest_all().records == 0  # nothing new: a second ingest reads nothing
    assert report.bytes_read >= 0


@pytest.mark.slow
def test_an_ingester_killed_at_random_instants_loses_and_doubles_nothing(platform, tmp_path):
    rng = random.Random(7)
    job_id = platform.jobs.get_or_create_external("killed", source="kill").id
    model = FileModel(tmp_path / "m.jsonl", rng, verl=False)
    writing = threading.Event()
    writing.set()

    def writer():
        for _ in range(400):
            model.append_lines(rng.randint(1, 4))
            time.sleep(0.004)
        model.finish()
        writing.clear()

    thread = threading.Thread(target=writer)
    thread.start()
    kills = 0
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    while writing.is_set() or kills < 3:
        worker = subprocess.Popen(
            [sys.executable, "-m", "tests.support.ingest_worker", platform.settings.database_url, job_id,
             str(model.path)],
            stdout=subprocess.PIPE, env=env,
        )  # fmt: skip
        assert worker.stdout.readline().strip() == b"ready"
        time.sleep(rng.uniform(0.05, 0.4))
        worker.send_signal(signal.SIGKILL)
        worker.wait()
        kills += 1
    thread.join()
    MetricsIngester(MetricStore(platform.db), job_id, LocalFileSource(model.path)).ingest_all()
    assert kills >= 3
    assert_same(stored(MetricStore(platform.db), job_id), model.expected)
