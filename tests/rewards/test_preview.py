"""The reward preview: right answers scored by a job's rewards before launch, with a warning when none scores."""

import os

import pytest

from training_platform.errors import InvalidInputError
from training_platform.jobs.reward_preview import RewardPreviewRequest, preview_rewards
from training_platform.rewards import RewardSpec
from training_platform.rewards.preview import all_zero, always_zero, boxed_without_boxes, plain_answer, score_rows
from training_platform.settings import Settings, get_settings

CHAT_ROW = {"prompt": [{"role": "user", "content": "What is 3 plus 4?"}], "solution": "7"}
LAST_NUMBER = RewardSpec(extraction="last_number")
FORMAT = RewardSpec(type="format_check", pattern=r"The answer is -?\d+\.", weight=0.5)


def totals(rows) -> list[dict[str, float]]:
    return [{completion.kind: completion.total for completion in row.completions} for row in rows]


def test_the_default_boxed_reward_gives_plain_number_references_nothing():
    rows = score_rows([RewardSpec()], [(1, CHAT_ROW), (2, {**CHAT_ROW, "solution": "12"})], None)
    assert [row.prompt for row in rows] == ["What is 3 plus 4?"] * 2
    assert [completion.text for completion in rows[0].completions] == ["7", "The answer is 7."]
    assert totals(rows) == [{"reference": 0.0, "plain": 0.0}] * 2
    assert all_zero(rows) and boxed_without_boxes([RewardSpec()], rows)


def test_last_number_scores_them_and_weights_add_up():
    rows = score_rows([LAST_NUMBER, FORMAT], [(1, CHAT_ROW)], None)
    assert [completion.scores for completion in rows[0].completions] == [[1.0, 0.0], [1.0, 1.0]]
    assert totals(rows) == [{"reference": 1.0, "plain": 1.5}]
    assert not all_zero(rows)
    assert always_zero(rows, 2) == []


def test_a_boxed_worked_solution_scores_as_its_own_reference():
    row = {"prompt": "Solve", "solution": "2x = 10, so x = \\boxed{5}"}
    rows = score_rows([RewardSpec()], [(4, row)], None)
    assert rows[0].row == 4
    assert totals(rows) == [{"reference": 1.0, "plain": 0.0}]
    assert plain_answer(row["solution"]) == "The answer is 5."
    assert plain_answer("Adding them gives 42. #### 42") == "The answer is 42."
    assert not all_zero(rows) and not boxed_without_boxes([RewardSpec()], rows)


def test_a_reward_that_never_scores_is_named_among_others_that_do():
    never = RewardSpec(type="format_check", extraction="json")
    rows = score_rows([LAST_NUMBER, never], [(1, CHAT_ROW)], None)
    assert always_zero(rows, 2) == [1]


def test_a_reward_that_cannot_score_a_row_names_its_setting():
    with pytest.raises(InvalidInputError) as raised:
        score_rows([LAST_NUMBER, RewardSpec(answer_field="answer")], [(1, CHAT_ROW)], None)
    assert [error.field for error in raised.value.errors] == ["rewards.1.answer_field"]


# ---- through the jobs service: the dataset read and scored in the decoding worker --------------------------------


@pytest.fixture(scope="module")
def jobs(tmp_path_factory):
    from training_platform.platform import Platform

    home = tmp_path_factory.mktemp("preview_home")
    settings = Settings(
        home=home,
        database_url=f"sqlite:///{home / 'platform.db'}",
        data_roots=[str(tmp_path_factory.getbasetemp())],
    )
    platform = Platform.open(settings)
    yield platform.jobs
    platform.close()


@pytest.fixture
def reward_code_dir(tmp_path, monkeypatch):
    directory = tmp_path / "reward_code"
    directory.mkdir()
    (directory / "where.py").write_text("import os\n\ndef pid(completion, reference, row):\n    return os.getpid()\n")
    monkeypatch.setenv("PLATFORM_REWARD_CODE_DIR", str(directory))
    get_settings.cache_clear()
    yield directory
    get_settings.cache_clear()


def test_the_demo_grpo_rows_warn_with_the_default_reward_and_not_with_last_number(jobs, demo_assets):
    request = RewardPreviewRequest(rewards=[RewardSpec()], dataset=str(demo_assets["grpo"]), rows=3)
    preview = preview_rewards(jobs, request, "zh-CN")
    assert [row.row for row in preview.rows] == [1, 2, 3]
    assert preview.rewards == ["math_verify_boxed_numeric"]
    assert preview.all_zero
    (warning,) = preview.warnings  # in the reader's language, with what to choose instead
    assert warning.startswith("即使把参考答案当作回答，也没有任何一行得分高于 0") and "“last_number”" in warning

    fixed = preview_rewards(jobs, request.model_copy(update={"rewards": [LAST_NUMBER, FORMAT]}), "en")
    assert not fixed.all_zero and fixed.warnings == []
    assert all(completion.total > 0 for row in fixed.rows for completion in row.completions)


def test_a_custom_reward_runs_in_the_worker_never_in_the_server(jobs, demo_assets, reward_code_dir):
    custom = RewardSpec(type="custom", function="where.py:pid")
    preview = preview_rewards(
        jobs, RewardPreviewRequest(rewards=[custom], dataset=str(demo_assets["grpo"]), rows=1), "en"
    )
    (ran_in,) = {score for row in preview.rows for completion in row.completions for score in completion.scores}
    assert ran_in != os.getpid()


def test_unknown_datasets_and_code_outside_the_directory_are_named(jobs, demo_assets, reward_code_dir):
    with pytest.raises(InvalidInputError) as raised:
        preview_rewards(jobs, RewardPreviewRequest(rewards=[RewardSpec()], dataset="dataset:no-such"), "en")
    assert [error.field for error in raised.value.errors] == ["dataset"]
    with pytest.raises(InvalidInputError) as raised:  # a path only under the data roots, as a job's
        preview_rewards(jobs, RewardPreviewRequest(rewards=[RewardSpec()], dataset="/etc/passwd"), "en")
    assert [error.field for error in raised.value.errors] == ["dataset"]
    outside = RewardSpec(type="custom", function="/etc/passwd.py:x")
    with pytest.raises(InvalidInputError) as raised:
        preview_rewards(jobs, RewardPreviewRequest(rewards=[outside], dataset=str(demo_assets["grpo"])), "en")
    assert [error.field for error in raised.value.errors] == ["rewards.0.function"]
