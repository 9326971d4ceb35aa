import pytest

from training_platform.rewards import RewardConfigError, extract_answer


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The answer is \\boxed{42}.", "42"),
        ("So \\boxed{\\frac{1}{2}} it is", "\\frac{1}{2}"),
        ("\\boxed{\\sqrt{\\frac{a}{b}}}", "\\sqrt{\\frac{a}{b}}"),
        ("first \\boxed{1}, then \\boxed{2}", "2"),
        ("\\boxed{\\boxed{3} + 1}", "\\boxed{3} + 1"),
        ("\\boxed{\\{1, 2\\}}", "\\{1, 2\\}"),
        ("\\boxed { 7 }", "7"),
        ("\\fbox{x}", "x"),
        ("\\boxed{5} and then it was cut off \\boxed{\\frac{1}{", "5"),
        ("no box here, just 42", None),
        ("\\boxed{}", None),
        ("\\boxed{   }", None),
        ("", None),
    ],
)
def test_boxed(text, expected):
    assert extract_answer(text, "boxed") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The answer is 42.", "42"),
        ("x = -3", "-3"),
        ("it costs 3.14 dollars", "3.14"),
        ("total: 1,000", "1000"),
        ("population 1,234,567.89 people", "1234567.89"),
        ("we get 3/4 of the pie", "3/4"),
        ("we get 3 / 4", "3/4"),
        ("-1/2", "-1/2"),
        ("first 7, then 8, finally 9", "9"),
        ("between 3-5 apples", "5"),
        ("x-1 and 2x-7", "7"),
        ("temperature fell to −7", "-7"),
        ("avogadro is 6.02e23", "6.02e23"),
        ("about .5 of them", ".5"),
        ("the list 1,2,3", "3"),
        ("no digits at all", None),
        ("", None),
    ],
)
def test_last_number(text, expected):
    assert extract_answer(text, "last_number") == expected


@pytest.mark.parametrize(
    ("text", "key", "expected"),
    [
        ('{"answer": "Paris"}', "answer", "Paris"),
        ('Sure!\n```json\n{"answer": 42, "reasoning": "x"}\n```\n', "answer", "42"),
        ('```json\n{"answer": 1}\n```\nactually:\n```json\n{"answer": 2}\n```', "answer", "2"),
        ('{"answer": 5} and my confidence: {"confidence": 0.9}', "answer", "5"),
        ('{"result": {"answer": 3}, "answer": "outer"}', "answer", "outer"),
        ('{"final": [1, 2]}', "final", "[1, 2]"),
        ('{"answer": 0.5}', "answer", "0.5"),
        ('{"answer": true}', "answer", "true"),
        ('{"answer": "  spaced  "}', "answer", "spaced"),
        ('{"answer": null}', "answer", None),
        ('{"answer": ""}', "answer", None),
        ('{"other": 1}', "answer", None),
        ("{not json at all}", "answer", None),
        ('{"answer": 1', "answer", None),
        ("\\frac{1}{2} has braces but no JSON", "answer", None),
        ("plain text", "answer", None),
    ],
)
def test_json(text, key, expected):
    assert extract_answer(text, "json", json_key=key) == expected


def test_unknown_method_is_a_config_error():
    with pytest.raises(RewardConfigError, match="unknown extraction method 'regex'"):
        extract_answer("42", "regex")
