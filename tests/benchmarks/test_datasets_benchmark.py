"""The datasets benchmark runs (at a small scale), so `make bench` does not rot between releases."""

from benchmarks.datasets import run


def test_audit_benchmark_finds_what_it_planted_and_the_baseline_agrees(tmp_path):
    path = tmp_path / "sft.jsonl"
    planted = run.write_sft_file(path, 3000)
    ours = run.bench_platform(path)
    baseline = run.bench_pandas(path)
    assert ours["summary"]["empty_field"] == baseline["counts"]["empty response"] == planted["empty"] > 0
    assert ours["summary"]["exact_duplicate"] == baseline["counts"]["exact"] > planted["exact"]
    assert ours["summary"]["length_outlier"] == baseline["counts"]["outliers response"] >= planted["long"] > 0
    assert ours["summary"]["near_duplicate"] >= planted["near"] > 0
    assert ours["lengths"] == 2 and ours["seconds"] > 0 and baseline["seconds"] > 0
