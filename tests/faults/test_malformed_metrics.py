"""No metrics line stops a job's ingest: each hostile line is reported by its number and skipped, the cursor
moves past it, and the good lines around it (and those written later) are stored. On SQLite and PostgreSQL."""

import json
import logging
import math
import time

from tests.support.jobs import add_job
from training_platform.metrics.ingest import MALFORMED_NAMED, WARNING_INTERVAL_S, MetricsIngester
from training_platform.metrics.reader import MAX_READ_BYTES, LocalFileSource, parse_console_line
from training_platform.metrics.store import MetricStore


def good(step: int) -> bytes:
    return (json.dumps({"step": step, "loss": {"total_loss": step / 10}}) + "\n").encode()


# Each a line of its own in the file; None: malformed, else the values it stores for its step.
HOSTILE: list[tuple[bytes, dict | None]] = [
    (b'{"step": 2, "loss": {"total_loss": 1' + b"0" * 400 + b"}}", {"loss": math.inf}),
    (b'{"step": 3, "data": {"train/loss": -1' + b"0" * 400 + b"}}", {"loss": -math.inf}),
    (b'{"step": 1' + b"0" * 400 + b"}", None),
    (b'{"step": ' + str(2**63).encode() + b"}", None),
    (b'{"step": ' + str(2**64 + 1).encode() + b', "loss": {"total_loss": 1}}', None),
    (b'{"step": NaN, "loss": {"total_loss": 1}}', None),
    (b'{"step": -Infinity}', None),
    (b'{"step": 4.0}', None),
    (b'{"step": 5, "custom": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", None),
    (b'{"step": 5, "anomaly": ' + b'{"a":' * 50_000 + b"1" + b"}" * 50_000 + b"}", None),
    (b'{"step": 5, "custom": {"x": "\xff\xfe"}}', None),
    (b'{"step": 5, "data": {"x": 1' + b"2" * 5000 + b"}}", None),  # beyond Python's digits for an int
    (b'{"step": 5, "custom": {"a\\u0000b": 1}}', None),
    (b'{"step": 5, "custom": {"\\ud800": 1}}', None),
    (b'{"step": 5, "custom": {"' + b"k" * 300 + b'": 1}}', None),
    (b'{"step": 5, "custom": {' + b",".join(b'"k%d": 1' % i for i in range(20_000)) + b"}}", None),
    (b"step:1" + b"0" * 30 + b" - a:1", None),
    (b"step:6 - " + b"a:1 - " * 100_000 + b"x y", None),  # almost verl's console format, 600 KB
    (
        b'{"step": 7, "loss": {"total_loss": 1}, "anomaly": {"type": "' + b"t" * 100 + b'", "message": "a\\u0000b"}}',
        {"loss": 1.0},
    ),
    (b"x" * (MAX_READ_BYTES + 2 * 2**20), None),  # a 10 MB line
    (b"[" * 3_000_000, None),  # 3 MB
]


def write_file(path) -> tuple[list[int], dict[int, dict]]:
    """The file: good lines around the hostile ones; the malformed lines' numbers and what must be stored."""
    expected = {1: {"loss": 0.1}}
    malformed, lines = [], [good(1)]
    for line, values in HOSTILE:
        lines.append(line + b"\n")
        if values is None:
            malformed.append(len(lines))
        else:
            expected[json.loads(line.replace(b"\\u0000", b""))["step"]] = values
    for step in (8, 9):
        lines.append(good(step))
        expected[step] = {"loss": step / 10}
    path.write_bytes(b"".join(lines))
    return malformed, expected


def stored(store: MetricStore, job_id: str) -> dict[int, dict[str, float]]:
    return {step: {k: v for k, v in values.items() if k != "timestamp"} for step, values in store.records(job_id)}


def test_hostile_lines_are_skipped_with_their_numbers_and_later_lines_are_ingested(db, jobs, tmp_path, caplog):
    store = MetricStore(db)
    job = add_job(jobs, tmp_path).id
    path = tmp_path / "m.jsonl"
    malformed, expected = write_file(path)
    began = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="training_platform.metrics.ingest"):
        report = MetricsIngester(store, job, LocalFileSource(path)).ingest_all()
    assert time.monotonic() - began < 60
    assert [line.line_number for line in report.malformed] == malformed
    assert stored(store, job) == expected
    [anomaly] = store.anomalies(job)
    assert (anomaly.step, anomaly.kind, anomaly.message) == (7, "t" * 64, "ab")
    cursor = store.load_cursor(job, str(path.resolve()))
    assert cursor.offset == path.stat().st_size
    assert (cursor.line_number, cursor.malformed_lines) == (len(HOSTILE) + 3, len(malformed))
    # The first lines are named in the log; the rest wait for the next summary.
    named = [r.getMessage() for r in caplog.records if "skipped:" in r.getMessage()]
    assert len(named) == MALFORMED_NAMED and f"line {malformed[0]} of" in named[0]

    # A later ingest (a restarted follower, from the stored cursor) reads only what was appended since.
    with open(path, "ab") as handle:
        handle.write(b'{"step": 1e400}\n' + good(10))
    report = MetricsIngester(store, job, LocalFileSource(path)).ingest_all()
    assert (report.records, [m.line_number for m in report.malformed]) == (1, [len(HOSTILE) + 4])
    assert stored(store, job)[10] == {"loss": 1.0}


def test_a_file_of_garbage_is_logged_by_a_few_lines_and_then_a_summary_a_minute(db, jobs, tmp_path, caplog):
    store = MetricStore(db)
    job = add_job(jobs, tmp_path).id
    path = tmp_path / "m.jsonl"
    path.write_text("garbage\n" * 1000)
    now = [0.0]
    ingester = MetricsIngester(store, job, LocalFileSource(path), clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="training_platform.metrics.ingest"):
        ingester.poll()
        with open(path, "a") as handle:
            handle.write("more garbage\n" * 10)
        now[0] = WARNING_INTERVAL_S + 1
        ingester.poll()
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == MALFORMED_NAMED + 1
    assert "1005 more malformed metrics lines" in messages[-1] and "line 1010" in messages[-1]


def test_verl_console_lines_parse_in_linear_time():
    for size in (20_000, 200_000):
        near_misses = [
            "step:1 - a:1" * size + " x",
            " - step:1 - a:b" * size + " x",
            "step:1" + " - a" * size + " x",
            "step:1 - " + "a:b - " * size + "x y",
        ]
        began = time.monotonic()
        assert [parse_console_line(line, 1) for line in near_misses] == [None] * 4
        assert time.monotonic() - began < 0.5 * size / 20_000
    record = parse_console_line("(TaskRunner pid=1) step:12 - a:1.5 - b/c:nan - x:y - step:3", 7)
    assert (record.step, record.values["a"], math.isnan(record.values["b/c"]), record.values["step"]) == (
        12,
        1.5,
        True,
        3.0,
    )
