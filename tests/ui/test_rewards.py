"""Rewards in the browser: the GRPO form's reward preview scores right answers of the dataset's first rows before
launch, and warns, in the reader's language, while the rewards would give every one of them 0; a GRPO job's page
shows the completions its training sampled, a step at a time."""

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.support.jobs import example_params
from tests.ui.elements import choose
from training_platform.engines.trl.completions import COMPLETIONS_FILE, RolloutRecorder, append_samples


def test_the_reward_preview_warns_of_all_zero_rewards_until_the_extraction_fits(page: Page, ui_server):
    page.goto(f"{ui_server.url}/jobs/new")
    page.get_by_text("GRPO", exact=True).click()
    expect(page.get_by_test_id("reward-preview-button")).to_be_disabled()  # no rows to score yet
    choose(page, "dataset_paths", "demo-grpo")
    page.get_by_test_id("reward-preview-button").click()

    # The default reward reads \boxed{} answers; the demo's answers are plain numbers.
    warning = page.get_by_test_id("reward-preview-warning")
    expect(warning).to_contain_text("No row scores above 0")
    expect(warning).to_contain_text("'last_number'")
    rows = page.get_by_test_id("reward-preview-rows")
    expect(rows.locator(".el-table__row")).to_have_count(8)
    expect(rows.locator(".total")).to_have_text(["0"] * 16)

    # The preview follows the settings: with the extraction the warning names, right answers score.
    choose(page, "rewards.0.extraction", "last number")
    expect(page.get_by_test_id("reward-preview-ok")).to_be_visible()
    expect(warning).to_have_count(0)
    expect(rows.locator(".total")).to_have_text(["1"] * 16)

    # In Chinese, the server's warning is too.
    page.get_by_test_id("language").click()
    page.locator(".el-select-dropdown__item:visible", has_text="简体中文").click()
    expect(page.get_by_test_id("reward-preview-ok")).to_contain_text("正确答案能获得奖励")
    choose(page, "rewards.0.extraction", "boxed")
    expect(warning).to_contain_text("即使把参考答案当作回答")


def test_a_grpo_jobs_sampled_completions_are_shown_a_step_at_a_time(page: Page, ui_server, demo_assets):
    job = ui_server.create_job(
        name="ui-grpo-samples",
        algorithm="grpo",
        model_path=str(demo_assets["model"]),
        dataset_paths=[str(demo_assets["grpo"])],
        params=example_params("trl-grpo"),
    )
    # What its training process would write at steps 1 and 2 (tests/api/test_training_e2e.py trains one for real).
    accuracy, format_ = "math_verify_last_number_numeric", "format_check_pattern"
    recorder = RolloutRecorder()
    recorder.rewards = [(accuracy, 1.0), (format_, 0.5)]
    scores = {"The answer is 7.": (1, 1), "The answer is 6.": (0, 1), "7": (1, 0), "Maybe.": (0, 0), "No idea.": (0, 0)}
    prompts = [[{"role": "user", "content": "What is 3 plus 4?"}]] * 4
    for step, answers in ((1, ["No idea."] * 4), (2, ["The answer is 7.", "The answer is 6.", "7", "Maybe."])):
        recorder.record(accuracy, prompts, answers, [scores[answer][0] for answer in answers])
        recorder.record(format_, prompts, answers, [scores[answer][1] for answer in answers])
        append_samples(Path(job["output_dir"]) / COMPLETIONS_FILE, recorder.samples(step))

    page.goto(f"{ui_server.url}/jobs/{job['id']}")
    page.get_by_role("tab", name="Completions").click()
    samples = page.get_by_test_id("samples")
    expect(samples.get_by_test_id("sample-completion")).to_have_text(
        ["The answer is 7.", "The answer is 6.", "7", "Maybe."]
    )
    expect(samples.get_by_test_id("sample-reward")).to_have_text(["1.5", "0.5", "1", "0"])
    choose(page, "samples-step", "1")
    expect(samples.get_by_test_id("sample-completion")).to_have_text(["No idea."] * 4)
