import sys
import textwrap
import time

import pytest
from pydantic import ValidationError

from training_platform.rewards import (
    RewardConfigError,
    RewardSpec,
    build_reward_function,
    load_custom_function,
    score,
    validate_reward_spec,
)

REWARD_MODULE = "tp_rewards_test_module"


def write(path, source):
    path.write_text(textwrap.dedent(source))
    return path


@pytest.fixture
def code_dir(tmp_path):
    """The reward code directory (settings.reward_code_dir): custom functions come from here only."""
    directory = tmp_path / "reward_code"
    directory.mkdir()
    yield directory
    while str(directory) in sys.path:  # a module import puts the directory on the path
        sys.path.remove(str(directory))


@pytest.fixture
def reward_file(code_dir):
    return write(
        code_dir / "my_rewards.py",
        """
        from pathlib import Path

        # Each import appends a line, so tests can count how often the file was loaded.
        with open(Path(__file__).with_suffix(".imports"), "a") as log:
            log.write("imported\\n")

        def length_penalty(completion, reference, row):
            return -len(completion) / 100

        def matches_reference(completion, reference, row):
            return completion.strip() == str(reference) and row["difficulty"] == "easy"

        def returns_text(completion, reference, row):
            return "1.0"

        def returns_none(completion, reference, row):
            return None

        def returns_nan(completion, reference, row):
            return float("nan")

        def returns_inf(completion, reference, row):
            return float("inf")

        def crashes(completion, reference, row):
            raise KeyError("oops")

        def wrong_signature(text):
            return 1.0

        NOT_CALLABLE = 3
        """,
    )


@pytest.fixture
def reward_module(code_dir):
    package = code_dir
    write(
        package / f"{REWARD_MODULE}.py",
        """
        def exact(completion, reference, row):
            return 1.0 if completion == reference else 0.0
        """,
    )
    write(package / "tp_rewards_broken_dependency.py", "import tp_no_such_dependency_xyz\n")
    write(package / "tp_rewards_raises_on_import.py", "raise RuntimeError('bad config')\n")
    yield REWARD_MODULE
    for name in (REWARD_MODULE, "tp_rewards_broken_dependency", "tp_rewards_raises_on_import"):
        sys.modules.pop(name, None)


# --- RewardSpec -----------------------------------------------------------------------------


def test_spec_defaults():
    spec = RewardSpec()
    assert (spec.type, spec.extraction, spec.comparison, spec.answer_field) == (
        "math_verify",
        "boxed",
        "numeric",
        "solution",
    )
    assert (spec.json_key, spec.weight, spec.tolerance, spec.fuzzy_threshold) == ("answer", 1.0, 1e-6, 0.8)
    assert spec.pattern is None and spec.function is None


@pytest.mark.parametrize(
    ("fields", "name"),
    [
        ({}, "math_verify_boxed_numeric"),
        ({"extraction": "json", "comparison": "fuzzy"}, "math_verify_json_fuzzy"),
        ({"type": "format_check"}, "format_check_boxed"),
        ({"type": "format_check", "extraction": "last_number"}, "format_check_last_number"),
        ({"type": "format_check", "pattern": "<think>.*</think>.*"}, "format_check_pattern"),
        ({"type": "custom", "function": "pkg.rewards:my_reward"}, "custom_my_reward"),
        ({"type": "custom", "function": "/abs/path/rewards.py:other"}, "custom_other"),
    ],
)
def test_spec_name(fields, name):
    assert RewardSpec(**fields).name == name


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"type": "custom"}, "function", "required when type is 'custom'"),
        ({"type": "custom", "function": "no_colon"}, "function", "expected 'file.py:function'"),
        ({"type": "custom", "function": "mod:not-an-identifier"}, "function", "expected 'file.py:function'"),
        ({"type": "custom", "function": ":func"}, "function", "expected 'file.py:function'"),
        ({"function": "mod:func"}, "function", "only used by type 'custom'"),
        ({"type": "format_check", "pattern": "(unclosed"}, "pattern", "missing ): (unclosed"),
        ({"type": "format_check", "pattern": r"(a)\1"}, "pattern", "backreferences and lookarounds are not supported"),
        ({"type": "format_check", "pattern": "(?=x)"}, "pattern", "not a regular expression RE2 matches in linear"),
        ({"pattern": ".*"}, "pattern", "only used by type 'format_check'"),
        ({"answer_field": ""}, "answer_field", "must not be empty"),
        ({"answer_field": "  "}, "answer_field", "must not be empty"),
        ({"weight": float("inf")}, "weight", "finite"),
        ({"weight": float("nan")}, "weight", "finite"),
        ({"tolerance": -1e-3}, "tolerance", "greater than or equal to 0"),
        ({"fuzzy_threshold": 0}, "fuzzy_threshold", "greater than 0"),
        ({"fuzzy_threshold": 1.5}, "fuzzy_threshold", "less than or equal to 1"),
        ({"type": "llm_judge"}, "type", "Input should be"),
        ({"extraction": "regex"}, "extraction", "Input should be"),
        ({"comparison": "semantic"}, "comparison", "Input should be"),
        ({"answer_key": "x"}, "answer_key", "Extra inputs are not permitted"),
    ],
)
def test_spec_validation_names_the_field(fields, field, message):
    with pytest.raises(ValidationError) as caught:
        RewardSpec(**fields)
    errors = caught.value.errors()
    assert [error["loc"] for error in errors] == [(field,)]
    assert message in errors[0]["msg"]


def test_spec_accepts_valid_custom_and_pattern():
    assert RewardSpec(type="custom", function="rewards.py:f").function == "rewards.py:f"
    assert RewardSpec(type="format_check", pattern=r"\d+").pattern == r"\d+"


# --- score: math_verify and format_check --------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "completion", "row", "expected"),
    [
        ({}, "Thus \\boxed{\\frac{1}{2}}.", {"solution": "0.5"}, 1.0),
        ({}, "Thus \\boxed{3}.", {"solution": "The answer is $\\boxed{4}$."}, 0.0),
        ({}, "I don't know", {"solution": "4"}, 0.0),
        ({"extraction": "last_number"}, "5 + 7 = 12, so 1,200 cents", {"solution": 1200}, 1.0),
        ({"extraction": "last_number", "answer_field": "answer"}, "It is -3.", {"answer": "-3"}, 1.0),
        (
            {"extraction": "json", "comparison": "exact"},
            '```json\n{"answer": "Paris"}\n```',
            {"solution": "paris"},
            1.0,
        ),
        (
            {"extraction": "json", "json_key": "city", "comparison": "fuzzy"},
            '{"city": "Pariss"}',
            {"solution": "Paris"},
            1.0,
        ),
        ({"comparison": "numeric", "tolerance": 0.01}, "\\boxed{3.14}", {"solution": "\\pi"}, 1.0),
        ({"comparison": "numeric"}, "\\boxed{3.14}", {"solution": "\\pi"}, 0.0),
    ],
)
def test_score_math_verify(fields, completion, row, expected):
    assert score(RewardSpec(**fields), completion, row) == expected


def test_score_math_verify_missing_answer_field():
    spec = RewardSpec(answer_field="gold")
    with pytest.raises(
        RewardConfigError, match="answer_field: column 'gold' not found in row \\(columns: prompt, solution\\)"
    ):
        score(spec, "\\boxed{1}", {"prompt": "p", "solution": "1"})


THINK_FORMAT = r"<think>.+</think>\s*<answer>.+</answer>"


@pytest.mark.parametrize(
    ("fields", "completion", "expected"),
    [
        ({"pattern": THINK_FORMAT}, "<think>step 1\nstep 2</think>\n<answer>4</answer>", 1.0),
        ({"pattern": THINK_FORMAT}, "  <think>x</think><answer>4</answer>\n\n", 1.0),
        ({"pattern": THINK_FORMAT}, "<think>x</think><answer>4</answer> trailing text", 0.0),
        ({"pattern": THINK_FORMAT}, "<answer>4</answer>", 0.0),
        ({}, "so \\boxed{4}", 1.0),
        ({}, "so 4", 0.0),
        ({"extraction": "last_number"}, "so 4", 1.0),
        ({"extraction": "json"}, '{"answer": 4}', 1.0),
        ({"extraction": "json", "json_key": "result"}, '{"answer": 4}', 0.0),
    ],
)
def test_score_format_check(fields, completion, expected):
    # format_check needs no reference, so the row may lack the answer field.
    assert score(RewardSpec(type="format_check", **fields), completion, {}) == expected


def test_a_pattern_that_would_backtrack_catastrophically_is_matched_in_linear_time():
    """`(a+)+$` against 30 a's and a b: Python's `re` tries 2^30 ways (minutes); RE2 answers at once. The time
    bound is three orders of magnitude above RE2's and far below backtracking's, so load cannot fail it."""
    spec = RewardSpec(type="format_check", pattern="(a+)+$")
    began = time.process_time()
    assert score(spec, "a" * 30 + "b", {}) == 0.0
    assert score(spec, "a" * 100_000, {}) == 1.0
    assert time.process_time() - began < 1.0


# --- custom functions -------------------------------------------------------------------------


def test_custom_from_file_by_its_path_into_the_code_directory(reward_file, code_dir):
    spec = RewardSpec(type="custom", function=f"{reward_file}:length_penalty")
    assert score(spec, "x" * 50, {"solution": "s"}, code_dir) == -0.5


def test_custom_from_file_by_name_receives_reference_and_row(reward_file, code_dir):
    spec = RewardSpec(type="custom", function="my_rewards.py:matches_reference")
    assert score(spec, " 42 ", {"solution": 42, "difficulty": "easy"}, code_dir) == 1.0
    assert score(spec, "42", {"solution": 42, "difficulty": "hard"}, code_dir) == 0.0
    # The reference is passed as None rather than failing when the column is absent.
    assert score(spec, "None", {"difficulty": "easy"}, code_dir) == 1.0


def test_custom_from_module(reward_module, code_dir):
    spec = RewardSpec(type="custom", function=f"{reward_module}:exact", answer_field="gold")
    assert score(spec, "yes", {"gold": "yes"}, code_dir) == 1.0
    assert score(spec, "no", {"gold": "yes"}, code_dir) == 0.0


def test_no_custom_function_without_a_code_directory(reward_file):
    spec = RewardSpec(type="custom", function=f"{reward_file}:length_penalty")
    with pytest.raises(RewardConfigError, match="custom reward code is disabled on this server"):
        score(spec, "x", {})
    assert not reward_file.with_suffix(".imports").exists()  # never imported


@pytest.mark.parametrize(
    ("function", "message"),
    [
        ("returns_text", "must return a finite number, got '1.0'"),
        ("returns_none", "must return a finite number, got None"),
        ("returns_nan", "must return a finite number, got nan"),
        ("returns_inf", "must return a finite number, got inf"),
        ("crashes", "raised KeyError: 'oops'"),
    ],
)
def test_custom_bad_results_are_config_errors(reward_file, code_dir, function, message):
    spec = RewardSpec(type="custom", function=f"{reward_file}:{function}")
    with pytest.raises(RewardConfigError, match=message):
        score(spec, "completion", {"solution": "s"}, code_dir)


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("{file}:NOT_CALLABLE", "'NOT_CALLABLE' in file 'my_rewards.py' is not callable \\(it is a int\\)"),
        ("{file}:missing", "file 'my_rewards.py' has no attribute 'missing'"),
        ("{dir}/absent.py:f", "no file 'absent.py' in the reward code directory"),
        ("syntax_error.py:f", "importing custom reward file syntax_error.py failed: SyntaxError"),
        ("tp_no_such_module_xyz:f", "no module 'tp_no_such_module_xyz' in the reward code directory"),
        ("tp_no_such_pkg_xyz.sub:f", "no module 'tp_no_such_pkg_xyz.sub' in the reward code directory"),
        (
            "tp_rewards_broken_dependency:f",
            "importing module 'tp_rewards_broken_dependency' failed: No module named 'tp_no_such_dependency_xyz'",
        ),
        (
            "tp_rewards_raises_on_import:f",
            "importing module 'tp_rewards_raises_on_import' failed: RuntimeError: bad config",
        ),
        ("{module}:absent", f"module '{REWARD_MODULE}' has no attribute 'absent'"),
        ("no_colon_at_all", "must look like 'file.py:function'"),
        ("module:", "must look like 'file.py:function'"),
    ],
)
def test_load_custom_function_errors(reward_file, reward_module, code_dir, target, message):
    (code_dir / "syntax_error.py").write_text("def f(:\n")
    target = target.format(file=reward_file, dir=code_dir, module=reward_module)
    with pytest.raises(RewardConfigError, match=message):
        load_custom_function(target, code_dir)


def test_load_custom_function_is_a_value_error(reward_file, code_dir):
    with pytest.raises(ValueError):
        load_custom_function(f"{reward_file}:missing", code_dir)


def test_a_module_imported_from_elsewhere_is_refused(code_dir):
    # A module of the directory whose name an installed, already imported package holds: never that package's.
    (code_dir / "pytest").mkdir()
    write(code_dir / "pytest" / "__init__.py", "def f(completion, reference, row):\n    return 1.0\n")
    with pytest.raises(RewardConfigError, match="already imported from outside the reward code directory"):
        load_custom_function("pytest:f", code_dir)


# --- build_reward_function ----------------------------------------------------------------------


def test_build_reward_function_scores_a_batch():
    reward = build_reward_function(RewardSpec(extraction="last_number"))
    completions = ["so 12", "so 13", "no idea", "it is 1/2"]
    rows = [{"solution": "12"}, {"solution": 12}, {"solution": "1"}, {"solution": "0.5"}]
    assert reward(completions, rows) == [1.0, 0.0, 0.0, 1.0]
    assert reward.__name__ == "math_verify_last_number_numeric"
    assert reward([], []) == []


def test_build_reward_function_loads_custom_function_once(reward_file, code_dir):
    imports = reward_file.with_suffix(".imports")
    reward = build_reward_function(RewardSpec(type="custom", function=f"{reward_file}:length_penalty"), code_dir)
    assert reward(["a" * 10, "b" * 20], [{}, {}]) == [-0.1, -0.2]
    assert reward(["c"], [{}]) == [-0.01]
    assert imports.read_text().count("imported") == 1
    assert reward.__name__ == "custom_length_penalty"


def test_build_reward_function_rejects_mismatched_batches():
    reward = build_reward_function(RewardSpec())
    with pytest.raises(ValueError, match="2 completions but 1 rows"):
        reward(["a", "b"], [{"solution": "1"}])


def test_build_reward_function_fails_early_on_a_bad_custom_function(code_dir):
    with pytest.raises(RewardConfigError, match="no file 'nope.py'"):
        build_reward_function(RewardSpec(type="custom", function=f"{code_dir}/nope.py:f"), code_dir)


# --- validate_reward_spec -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "columns"),
    [
        ({}, ["prompt", "solution"]),
        ({}, None),
        ({"answer_field": "answer"}, ("prompt", "answer")),
        ({"type": "format_check"}, ["prompt"]),
        ({"type": "format_check", "pattern": "x"}, []),
    ],
)
def test_validate_accepts(fields, columns):
    validate_reward_spec(RewardSpec(**fields), columns)


def test_validate_reads_no_custom_code(tmp_path):
    # The code is the engines' to check, with the server's reward code directory (test_code.py).
    spec = RewardSpec(type="custom", function=f"{tmp_path}/anywhere.py:f")
    validate_reward_spec(spec, iter(["prompt", "solution"]), location="rewards[0]")


@pytest.mark.parametrize(
    ("fields", "location", "message"),
    [
        ({}, "rewards[0]", "rewards[0].answer_field: column 'solution' not found in dataset (columns: prompt, answer)"),
        ({}, "", "answer_field: column 'solution' not found in dataset (columns: prompt, answer)"),
        (
            {"type": "custom", "function": "rewards.py:length_penalty", "answer_field": "gold"},
            "rewards[2]",
            "rewards[2].answer_field: column 'gold' not found in dataset (columns: prompt, answer)",
        ),
    ],
)
def test_validate_rejects(fields, location, message):
    with pytest.raises(RewardConfigError) as caught:
        validate_reward_spec(RewardSpec(**fields), ["prompt", "answer"], location=location)
    assert str(caught.value).startswith(message)
