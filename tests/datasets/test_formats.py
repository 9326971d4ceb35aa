"""Reading and checking dataset files: JSON, JSON Lines and Parquet, per algorithm."""

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from training_platform.datafiles.errors import DatasetFileError
from training_platform.datafiles.formats import validate_file
from training_platform.datafiles.readers import count_rows, iter_rows


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_the_three_formats_read_the_same_rows(tmp_path):
    rows = [{"prompt": "p1", "response": "r1"}, {"prompt": "p2", "response": "r2"}]
    write_jsonl(tmp_path / "d.jsonl", rows)
    (tmp_path / "d.json").write_text(json.dumps(rows))
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "d.parquet")
    for name in ("d.jsonl", "d.json", "d.parquet"):
        assert [row for _, row in iter_rows(tmp_path / name)] == rows
        assert count_rows(tmp_path / name) == 2


@pytest.mark.parametrize(
    ("kind", "row", "problem"),
    [
        ("sft", {"prompt": "p", "response": "r"}, None),
        ("sft", {"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]}, None),
        ("sft", {"messages": [{"role": "user", "content": "q"}]}, "no assistant message"),
        ("sft", {"messages": "hello"}, "field 'messages' must be a list of chat messages"),
        ("sft", {"prompt": "p", "response": None}, "missing required field 'response'"),
        ("sft", {"prompt": "p", "response": ["x"]}, "field 'response' must be text or a list of assistant messages"),
        ("sft", {"prompt": "   ", "response": "r"}, "field 'prompt' is empty"),
        ("sft", {"prompt": [{"role": "user", "content": "q"}], "response": "r"}, None),
        ("sft", {"prompt": [{"role": "robot", "content": "q"}], "response": "r"}, "not a list of chat messages"),
        ("dpo", {"prompt": "p", "chosen": "c"}, "missing required field 'rejected'"),
        ("grpo", {"prompt": "p", "solution": 62}, None),
        ("eval", {"prompt": "p", "reference": ""}, "field 'reference' is empty"),
    ],
)
def test_row_checks(tmp_path, kind, row, problem):
    messages = [p.message for p in validate_file(write_jsonl(tmp_path / "d.jsonl", [row]), kind).problems]
    if problem is None:
        assert messages == []
    else:
        assert len(messages) == 1 and problem in messages[0]


def test_rl_answer_fields_are_required_when_a_reward_needs_them(tmp_path):
    path = write_jsonl(tmp_path / "d.jsonl", [{"prompt": "p", "solution": "1"}, {"prompt": "q"}])
    report = validate_file(path, "grpo", answer_fields=["solution"])
    assert [(p.row, p.message) for p in report.problems] == [(2, "missing required field 'solution'")]
    assert report.columns == {"prompt", "solution"}


def test_encoding_and_json_problems_are_row_level(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_bytes(b'{"prompt": "ok", "response": "fine"}\n{"prompt": "\xff\xfe", "response": "x"}\n[1, 2]\n')
    report = validate_file(path, "sft")
    assert [(p.row, p.message) for p in report.problems] == [
        (2, "not valid UTF-8 (byte 13 of the line)"),
        (3, "is not a JSON object"),
    ]
    assert (report.num_rows, report.num_invalid, report.ok) == (3, 2, False)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        # One object over several lines is neither an array nor JSON Lines (a one-line object is JSON Lines).
        ("d.json", b'{\n  "prompt": "p"\n}', "must hold a JSON array of objects or JSON Lines"),
        ("d.json", b"[{", "is not valid JSON"),
        ("d.json", b"[\xff]", "is not valid UTF-8"),
        ("d.parquet", b"not parquet", "is not a readable Parquet file"),
        ("d.jsonl", b"\n\n", "has no rows"),
        ("d.txt", b"hello", "unsupported file type '.txt'"),
    ],
)
def test_whole_file_problems(tmp_path, name, content, message):
    (tmp_path / name).write_bytes(content)
    with pytest.raises(DatasetFileError, match=message):
        validate_file(tmp_path / name, "sft")
