"""The incremental reader: both line formats, partial lines, rewrites, NaN, malformed lines."""

import json
import math

from training_platform.metrics.reader import Cursor, LocalFileSource, MetricsReader


def append(path, text: str) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(text)


def platform_line(step: int, loss: float, **extra) -> str:
    return json.dumps({"step": step, "timestamp": 1000.0 + step, "loss": {"total_loss": loss}, **extra}) + "\n"


def test_platform_lines_become_flat_canonical_values(tmp_path):
    path = tmp_path / "m.jsonl"
    append(path, platform_line(1, 2.5, reward={"mean": 0.5}, custom={"rewards/margins": 0.1}, epoch=0.1))
    batch = MetricsReader(LocalFileSource(path)).read()
    [record] = batch.records
    assert record.step == 1 and record.line_number == 1
    assert record.values == {"timestamp": 1001.0, "loss": 2.5, "reward_mean": 0.5, "rewards/margins": 0.1, "epoch": 0.1}


def test_verl_lines_map_keys_and_null_reads_as_nan(tmp_path):
    path = tmp_path / "verl.jsonl"
    append(path, '{"step":1,"data":{"train/loss":5.7,"train/lr":0.001,"train/grad_norm":null,"note":"x"}}\n')
    append(path, '{"step":1,"data":{"val/loss":5.2}}\n')
    records = MetricsReader(LocalFileSource(path)).read().records
    assert [r.step for r in records] == [1, 1]
    assert records[0].values["loss"] == 5.7 and records[0].values["learning_rate"] == 0.001
    assert math.isnan(records[0].values["grad_norm"]) and "note" not in records[0].values
    assert records[1].values == {"eval_loss": 5.2}


def test_nan_and_infinity_survive(tmp_path):
    path = tmp_path / "m.jsonl"
    append(path, '{"step": 3, "loss": {"total_loss": NaN}, "gradient": {"actor_norm": Infinity}}\n')
    [record] = MetricsReader(LocalFileSource(path)).read().records
    assert math.isnan(record.values["loss"]) and record.values["grad_norm"] == math.inf


def test_a_partial_last_line_waits_for_its_end(tmp_path):
    path = tmp_path / "m.jsonl"
    line = platform_line(1, 1.0)
    append(path, line + line[:10].replace('"step": 1', '"step": 2'))
    reader = MetricsReader(LocalFileSource(path))
    assert [r.step for r in reader.read().records] == [1]
    assert reader.cursor.offset == len(line) and reader.read().records == []
    append(path, platform_line(2, 2.0)[10:])
    assert [r.step for r in reader.read().records] == [2]
    assert reader.cursor.line_number == 2


def test_malformed_lines_are_reported_with_their_number_and_skipped(tmp_path):
    path = tmp_path / "m.jsonl"
    append(path, platform_line(1, 1.0) + "{oops\n" + '{"step": -1}\n' + '["list"]\n' + "\n" + platform_line(2, 2.0))
    batch = MetricsReader(LocalFileSource(path)).read()
    assert [r.step for r in batch.records] == [1, 2]
    assert [(m.line_number, m.reason) for m in batch.malformed] == [
        (2, "invalid JSON: Expecting property name enclosed in double quotes at column 2"),
        (3, "'step' must be an integer from 0 to 2**62, got -1"),
        (4, "not a JSON object"),
    ]
    assert batch.records[1].line_number == 6


def test_a_truncated_or_replaced_file_is_detected(tmp_path):
    path = tmp_path / "m.jsonl"
    append(path, platform_line(1, 1.0) + platform_line(2, 2.0))
    reader = MetricsReader(LocalFileSource(path))
    reader.read()
    assert not reader.was_rewritten()
    path.write_text(platform_line(3, 3.0))  # shorter: truncated and rewritten (verl on resume)
    assert reader.was_rewritten()
    path.write_text(platform_line(7, 7.0) * 5)  # longer, but a different first line
    assert reader.was_rewritten()
    reader.restart()
    assert [r.step for r in reader.read().records] == [7] * 5
    path.unlink()
    assert reader.was_rewritten() and reader.read().records == []


def test_a_cursor_resumes_where_it_stopped(tmp_path):
    path = tmp_path / "m.jsonl"
    append(path, platform_line(1, 1.0))
    first = MetricsReader(LocalFileSource(path))
    first.read()
    append(path, platform_line(2, 2.0))
    second = MetricsReader(LocalFileSource(path), Cursor(**vars(first.cursor)))
    assert not second.was_rewritten()
    assert [(r.step, r.line_number) for r in second.read().records] == [(2, 2)]


def test_anomalies_flagged_by_the_trainer_are_read(tmp_path):
    path = tmp_path / "m.jsonl"
    append(path, platform_line(4, float("nan"), anomaly={"type": "non_finite_loss", "message": "loss is nan"}))
    [record] = MetricsReader(LocalFileSource(path)).read().records
    assert record.anomaly == ("non_finite_loss", "loss is nan")


def test_verl_console_lines_are_read_as_a_fallback(tmp_path):
    path = tmp_path / "stdout.log"
    path.write_text(
        "step:1 - perf/max_memory_allocated_gb:0.0 - train/loss:5.71875 - train/lr:0.001"
        " - train/total_tokens(B):3.4e-07\n"
        "\x1b[36m(TaskRunnerV1 pid=11734)\x1b[0m step:3 - val/loss:5.2109375\n"
        "Epoch 1/4: 100%|#####| 4/4\n"
    )
    batch = MetricsReader(LocalFileSource(path)).read()
    assert [(r.step, r.values) for r in batch.records] == [
        (
            1,
            {
                "gpu_memory_gib": 0.0,
                "loss": 5.71875,
                "learning_rate": 0.001,
                "train/total_tokens(B)": 3.4e-07,
            },
        ),
        (3, {"eval_loss": 5.2109375}),
    ]
    assert [m.line_number for m in batch.malformed] == [3]
