"""The metric store on SQLite and PostgreSQL: idempotent upserts, NaN, rollups, queries, cursors."""

import math
import random

import pytest
from sqlalchemy.exc import DBAPIError

from training_platform.metrics.reader import Cursor
from training_platform.metrics.store import ROLLUP_STEPS, MetricStore


@pytest.fixture
def store(platform):
    return MetricStore(platform.db)


@pytest.fixture
def job_id(platform):
    return platform.jobs.get_or_create_external("store-test", source="test").id


def values_of(store, job_id, key, **query):
    [series] = store.query(job_id, [key], query.get("start"), query.get("end"), query.get("max_points"))
    return list(zip(series.steps, series.values, strict=True)), series


def test_writing_the_same_steps_again_changes_nothing(store, job_id):
    batch = {step: {"loss": 1.0 / step, "kl": 0.01} for step in range(1, 11)}
    assert store.write_batch(job_id, batch) == 20
    assert store.write_batch(job_id, batch) == 20
    assert [(k.key, k.points, k.first_step, k.last_step) for k in store.keys(job_id)] == [
        ("kl", 10, 1, 10),
        ("loss", 10, 1, 10),
    ]
    assert len(list(store.records(job_id))) == 10


def test_overwritten_steps_update_values_and_rollups(store, job_id):
    store.write_batch(job_id, {step: {"loss": 1.0} for step in range(0, 600)})
    store.write_batch(job_id, {300: {"loss": 50.0}, 5: {"loss": -50.0}})  # re-logged after a resume
    points, _ = values_of(store, job_id, "loss")
    assert dict(points)[300] == 50.0 and dict(points)[5] == -50.0
    assert store.keys(job_id)[0].points == 600


def test_nan_and_infinity_round_trip(store, job_id):
    store.write_batch(job_id, {1: {"loss": math.nan}, 2: {"loss": math.inf}, 3: {"loss": -math.inf}})
    points, _ = values_of(store, job_id, "loss")
    assert math.isnan(points[0][1]) and points[1:] == [(2, math.inf), (3, -math.inf)]


def test_a_long_series_downsamples_from_rollups_and_keeps_a_spike(store, job_id):
    rng = random.Random(0)
    steps = 100 * ROLLUP_STEPS + 37
    spike, dip, nan_step = 12_345, 20_001, 7_000
    for start in range(0, steps, 5000):
        batch = {s: {"loss": math.sin(s / 300) + rng.random() * 0.01} for s in range(start, min(start + 5000, steps))}
        store.write_batch(job_id, batch)
    store.write_batch(job_id, {spike: {"loss": 1e9}, dip: {"loss": -1e9}, nan_step: {"loss": math.nan}})
    points, series = values_of(store, job_id, "loss", max_points=200)
    assert series.downsampled and series.total_points == steps and len(points) <= 200
    assert (spike, 1e9) in points and (dip, -1e9) in points
    assert any(step == nan_step and math.isnan(value) for step, value in points)
    assert points[0][0] == 0 and points[-1][0] == steps - 1
    ranged, series = values_of(store, job_id, "loss", start=1000, end=25_000, max_points=100)
    assert ranged[0][0] == 1000 and ranged[-1][0] == 25_000 and series.total_points == 24_001
    assert (spike, 1e9) in ranged and (dip, -1e9) in ranged
    raw, series = values_of(store, job_id, "loss", start=10, end=20)
    assert [s for s, _ in raw] == list(range(10, 21)) and not series.downsampled


def test_records_group_a_step_and_keys_filter(store, job_id):
    store.write_batch(job_id, {2: {"a": 2.0, "b": 20.0}, 1: {"a": 1.0}, 3: {"b": 30.0}})
    assert list(store.records(job_id)) == [(1, {"a": 1.0}), (2, {"a": 2.0, "b": 20.0}), (3, {"b": 30.0})]
    assert list(store.records(job_id, 2, 2)) == [(2, {"a": 2.0, "b": 20.0})]
    assert [s.key for s in store.query(job_id, ["b", "missing"], None, None, None)] == ["b"]


def test_cursor_and_anomalies_are_written_with_the_values(store, job_id):
    cursor = Cursor(offset=120, line_number=3, fingerprint="ab", fingerprint_length=40, malformed_lines=1)
    store.write_batch(job_id, {3: {"loss": math.nan}}, [(3, "non_finite_loss", "loss is nan")], ("/m.jsonl", cursor))
    assert store.load_cursor(job_id, "/m.jsonl") == cursor
    assert store.load_cursor(job_id, "/other") is None
    [anomaly] = store.anomalies(job_id)
    assert (anomaly.step, anomaly.kind, anomaly.message) == (3, "non_finite_loss", "loss is nan")


def test_a_write_that_rolls_back_leaves_no_series_behind_for_later_writes(platform, store, job_id):
    other_job = platform.jobs.get_or_create_external("store-test-other", source="test").id
    # A step beyond a 64-bit integer fails after the new series was made (SQLite's driver, PostgreSQL's server).
    with pytest.raises((OverflowError, DBAPIError)):
        store.write_batch(job_id, {2**64: {"reward_mean": 1.0}})
    # The rolled-back series' id is free again: another job's new series may get it.
    store.write_batch(other_job, {1: {"throughput": 7.0}})
    store.write_batch(job_id, {3: {"reward_mean": 0.5}})
    assert values_of(store, job_id, "reward_mean")[0] == [(3, 0.5)]
    assert values_of(store, other_job, "throughput")[0] == [(1, 7.0)]
