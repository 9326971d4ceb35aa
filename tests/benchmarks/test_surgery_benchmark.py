"""The surgery benchmark runs on tiny models, so `make bench` does not rot: the platform's process, mergekit's command
line and the I/O floor each merge (or copy) the same three models, the platform's output holds mergekit's tensors
(the benchmark asserts it), and the table reports each against mergekit's command line."""

import pytest

from benchmarks.surgery import run


@pytest.mark.slow
def test_quick_ties_merge_is_measured_three_ways(tmp_path):
    rows = run.run(run.QUICK, ["ties"], repeats=1, cache=tmp_path / "cache", workdir=tmp_path / "work")

    assert [row["runner"] for row in rows] == ["platform", "mergekit CLI", "I/O floor"]
    by_runner = {row["runner"]: row for row in rows}
    assert by_runner["mergekit CLI"]["time_ratio"] == by_runner["mergekit CLI"]["rss_ratio"] == 1.0
    assert by_runner["platform"]["tensors"] == len(run.qwen2_shapes(run.QUICK))
    # Each command's peak is its own, not the launcher's: this test process has imported torch and mergekit,
    # and a command charged with them would hold about as much as the platform.
    assert 0 < by_runner["I/O floor"]["peak_rss_mib"] < 0.8 * by_runner["platform"]["peak_rss_mib"]
    assert all(row["seconds"] > 0 for row in rows)
    assert "| ties, 3 x 0.138M (tiny) | platform |" in run.table(rows, run.QUICK)
