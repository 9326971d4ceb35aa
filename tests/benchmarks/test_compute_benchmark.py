"""The memory-accuracy benchmark runs and stays within its target on its quick grid."""

import pytest

from benchmarks.compute import run


@pytest.mark.slow
def test_quick_grid_is_within_target():
    rows = run.run(run.QUICK_GRID)
    assert len(rows) == len(run.QUICK_GRID)
    assert all(abs(row["error"]) <= 0.2 for row in rows), rows
    assert "median |error| / worst" in run.table(rows)
