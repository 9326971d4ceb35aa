"""The metrics benchmark runs (at a small scale), so `make bench` does not rot between releases."""

import pytest

from benchmarks.metrics import run
from tests.conftest import POSTGRES_URL


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_ingest_and_query_benchmarks_run(tmp_path, kind):
    metrics_file = tmp_path / "verl.jsonl"
    run.write_verl_file(metrics_file, 6000)
    ingest = run.bench_ingest(kind, tmp_path, POSTGRES_URL, metrics_file, baseline_values=500)
    assert ingest["values"] == 6000 and ingest["ours"] > ingest["baseline"] > 0
    query = run.bench_query(kind, tmp_path, POSTGRES_URL, steps=40_000)
    assert 0 < query["p50"] <= query["max"]


@pytest.mark.slow
def test_live_benchmark_delivers_every_message():
    result = run.bench_live(jobs=2, viewers_per_job=2, seconds=2.0, rate_per_job=10.0)
    assert result["messages"] == result["expected"] > 0
    assert 0 < result["p50"] <= result["p99"]


def test_detectors_benchmark_runs_both_ways_and_finds_the_planted_spike(tmp_path):
    metrics_file = tmp_path / "grpo.jsonl"
    run.write_grpo_file(metrics_file, 60 * 300)
    result = run.bench_detectors(tmp_path, metrics_file, runs=1)  # asserts findings only with the detectors on
    assert result["on"] > 0 and result["off"] > 0
