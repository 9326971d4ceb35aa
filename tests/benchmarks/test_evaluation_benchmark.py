"""The evaluation benchmark's local part runs on the demo model with a few prompts, so `make bench` does not rot: the
platform's TransformersGenerator and the plain transformers loop answer the same prompts, their answers are equal
(the benchmark compares them) and the table reports the target against the loop. The API part starts vLLM, which
takes minutes on a CPU: `python -m benchmarks.evaluation.run --quick --part api` runs it."""

import pytest

from benchmarks.evaluation import run


@pytest.mark.slow
def test_quick_local_generation_is_measured_against_a_plain_transformers_loop(tmp_path):
    cache = tmp_path / "cache"
    rows = run.run_local(run.QUICK, cache, models={"demo model": run.ensure_demo_model(cache)})

    assert [row["path"] for row in rows] == ["local target", "plain transformers loop"]
    assert all(row["answers_match"] and row["mismatched"] == 0 for row in rows)
    by_path = {row["path"]: row for row in rows}
    assert by_path["plain transformers loop"]["ratio"] == 1.0
    assert all(row["samples"] == run.QUICK.prompts and row["samples_per_second"] > 0 for row in rows)
    assert "| demo model | local target | 8 |" in run.table(rows, run.QUICK)
