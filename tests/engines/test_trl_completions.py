"""Sample completions of an RL run: what the rewards scored, a few a sampled step, read back for the job page."""

import json

from training_platform.engines.trl.completions import (
    SAMPLE_CHARS,
    RolloutRecorder,
    append_samples,
    sampled,
    sampling_interval,
)
from training_platform.jobs.samples import read_samples


def recorder_with(count: int) -> RolloutRecorder:
    recorder = RolloutRecorder()
    recorder.rewards = [("accuracy", 1.0), ("format", 0.5)]
    prompts = [[{"role": "user", "content": f"question {index // 4}"}] for index in range(count)]
    completions = [f"answer {index}" for index in range(count)]
    recorder.record("accuracy", prompts, completions, [float(index % 2) for index in range(count)])
    recorder.record("format", prompts, completions, [1.0] * (count - 1) + [float("nan")])
    return recorder


def test_a_step_keeps_a_few_completions_spread_over_the_batch_with_their_weighted_reward():
    records = recorder_with(8).samples(step=3)
    assert [record["completion"] for record in records] == ["answer 0", "answer 2", "answer 4", "answer 6"]
    assert [record["prompt"] for record in records] == ["question 0", "question 0", "question 1", "question 1"]
    assert records[0] == {
        "step": 3,
        "index": 0,
        "prompt": "question 0",
        "completion": "answer 0",
        "rewards": {"accuracy": 0.0, "format": 1.0},
        "reward": 0.5,
    }
    last = recorder_with(3).samples(step=1)[-1]  # a reward that did not score is none, and out of the sum
    assert last["rewards"] == {"accuracy": 0.0, "format": None} and last["reward"] == 0.0


def test_the_next_batch_replaces_the_last_and_long_texts_are_cut():
    recorder = recorder_with(8)
    recorder.record("accuracy", ["p"], ["x" * (SAMPLE_CHARS + 10)], [1.0])
    (record,) = recorder.samples(step=5)
    assert len(record["completion"]) == SAMPLE_CHARS
    assert record["rewards"] == {"accuracy": 1.0} and record["reward"] == 1.0
    assert RolloutRecorder().samples(step=1) == []


def test_a_long_run_samples_at_most_a_hundred_steps_the_first_included():
    assert sampling_interval(40) == 1 and all(sampled(step, 1) for step in range(1, 41))
    interval = sampling_interval(10_000)
    assert sum(sampled(step, interval) for step in range(1, 10_001)) == 100
    assert sampled(1, interval) and not sampled(2, interval)


def test_reading_keeps_each_steps_latest_writing_and_skips_what_is_not_a_sample(tmp_path):
    path = tmp_path / "completions.jsonl"
    for step in (1, 2, 3):
        append_samples(path, recorder_with(8).samples(step))
    with path.open("a") as file:
        file.write("not json\n" + json.dumps({"step": "x"}) + "\n")
    # A resume from the checkpoint at step 2 logs step 3 again.
    append_samples(path, [{**record, "completion": "again"} for record in recorder_with(2).samples(3)])
    by_step = read_samples(path)
    assert sorted(by_step) == [1, 2, 3]
    assert [sample.completion for sample in by_step[3]] == ["again", "again"]
    assert len(by_step[1]) == 4
    assert read_samples(tmp_path / "none.jsonl") == {}


def test_only_the_end_of_a_large_file_is_read(tmp_path):
    path = tmp_path / "completions.jsonl"
    for step in range(1, 51):
        append_samples(path, recorder_with(8).samples(step))
    limit = path.stat().st_size // 5
    steps = sorted(read_samples(path, limit))
    assert steps[-1] == 50 and 5 <= len(steps) <= 11
    assert len(read_samples(path, limit)[steps[1]]) == 4  # whole steps after the first, which may be cut
