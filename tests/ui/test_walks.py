"""A new user's afternoon, walked in the browser with real training: in Chinese, an SFT job from the form, its
final model chosen in a DPO form from the list (no path typed), both runs overlaid on one chart and smoothed; in
English, a GRPO form whose reward preview warns that every reward would be 0 until the extraction fits, then the
completions its training samples shown while it runs."""

import re

from playwright.sync_api import Page, expect

from tests.ui.conftest import DEMO_MODEL
from tests.ui.elements import chart, choose


def create_in_form(page: Page, name: str, steps: int, steps_label: str) -> str:
    """Name the job in the form filled so far, make it `steps` long, create and start it; its id."""
    page.keyboard.press("Escape")  # the datasets' list stays open after a choice: several may be chosen
    page.locator("[data-field='name']").fill(name)
    choose(page, "length_mode", steps_label)
    page.locator("[data-field='max_steps']").fill(str(steps))
    page.get_by_test_id("create-job").click()
    page.wait_for_url(re.compile(r"/jobs/[0-9a-f]{32}$"))
    return page.url.rsplit("/", 1)[1]


def test_in_chinese_sft_then_dpo_from_its_final_model_then_both_overlaid_and_smoothed(page: Page, ui_server):
    page.evaluate("localStorage.setItem('tplat.locale', 'zh-CN')")
    page.goto(f"{ui_server.url}/jobs/new")
    choose(page, "model_path", DEMO_MODEL)
    choose(page, "dataset_paths", "demo-sft")
    sft = create_in_form(page, "walk-sft", 12, "步数")
    assert ui_server.wait_for_status(sft, "completed", "failed")["status"] == "completed"

    page.goto(f"{ui_server.url}/jobs/new")
    page.get_by_text("DPO", exact=True).click()
    # The SFT job's final model is a choice of the model list, under the job's name.
    page.locator("[data-field='model_path']").click()
    page.locator(".el-select-dropdown__item:visible[data-reference='job:walk-sft']").click()
    choose(page, "dataset_paths", "demo-dpo")
    dpo = create_in_form(page, "walk-dpo", 12, "步数")
    finished = ui_server.wait_for_status(dpo, "completed", "failed")
    assert finished["status"] == "completed", finished["error"]
    assert finished["model_path"] == ui_server.job(sft)["output_dir"] + "/final"

    page.goto(f"{ui_server.url}/jobs")
    rows = page.locator(".jobs-table .el-table__row")
    for name in ("walk-sft", "walk-dpo"):
        rows.filter(has_text=name).locator(".el-checkbox").click()
    page.get_by_test_id("compare").click()
    page.wait_for_url(re.compile(r"/jobs/compare\?ids="))
    loss = chart(page, "损失")
    expect(loss).to_have_attribute("data-lines", "2")
    expect(loss).to_have_attribute("data-x-name", "步")
    raw_last = loss.get_attribute("data-last-value")
    slider = page.locator("[data-field='smoothing'] .el-slider__runway").first
    box = slider.bounding_box()
    slider.click(position={"x": box["width"] * 0.9, "y": box["height"] / 2})
    expect(loss).not_to_have_attribute("data-last-value", raw_last)


def test_a_grpo_form_warns_of_zero_rewards_then_its_training_shows_sampled_completions(page: Page, ui_server):
    page.goto(f"{ui_server.url}/jobs/new")
    page.get_by_text("GRPO", exact=True).click()
    choose(page, "model_path", DEMO_MODEL)
    choose(page, "dataset_paths", "demo-grpo")
    page.get_by_test_id("reward-preview-button").click()
    expect(page.get_by_test_id("reward-preview-warning")).to_contain_text("No row scores above 0")
    choose(page, "rewards.0.extraction", "last number")
    expect(page.get_by_test_id("reward-preview-ok")).to_be_visible()
    # examples/trl-grpo.yaml's sizes: a step in seconds on a CPU, where the defaults' rollouts take a minute.
    for field, value in (("batch_size", 4), ("micro_batch_size", 16), ("rollout_n", 4), ("max_response_length", 12)):
        page.locator(f"[data-field='{field}']").fill(str(value))
    job = create_in_form(page, "walk-grpo", 200, "Steps")
    try:
        expect(page.get_by_test_id("status")).to_have_text("Running", timeout=120_000)
        page.get_by_role("tab", name="Completions").click()
        expect(page.get_by_test_id("sample-completion").first).to_be_visible(timeout=180_000)
        assert ui_server.job(job)["status"] == "running"  # seen while it trains
        params = ui_server.job(job)["params"]
        assert (params["rewards"][0]["extraction"], params["rollout_n"], params["max_response_length"]) == (
            "last_number",
            4,
            12,
        )
    finally:
        ui_server.api.post(f"/jobs/{job}/stop")
