"""Model surgery in the browser: checkpoint selection with its reason, an average run followed to its registered model
and lineage, the merge form built from the API's methods, a bad mergekit recipe refused at its line, the page in
Chinese, and a job's final model offered as the base of a new job. One 10-step demo SFT job (a checkpoint and an
evaluation every 5 steps) serves the whole module: seconds of training, the price of real checkpoints."""

import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.surgery import recorded_eval_losses, train_evaluated_sft
from tests.ui.conftest import log_in
from tests.ui.elements import choose, form_item

JOB = "surgery-demo"
EVERY = 5
CHECKPOINT = f"checkpoint-{EVERY}"


@pytest.fixture(scope="module")
def trained(ui_server, demo_assets) -> dict:
    return train_evaluated_sft(ui_server, demo_assets, JOB, 2 * EVERY, EVERY)


def open_tab(page: Page, server, name: str) -> None:
    page.goto(f"{server.url}/surgery")
    page.get_by_role("tab", name=name).click()


def test_select_shows_the_checkpoint_with_the_lowest_eval_loss_and_the_reason(page: Page, ui_server, trained):
    losses = recorded_eval_losses(trained)
    assert sorted(losses) == [EVERY, 2 * EVERY]
    best, second = sorted(losses, key=losses.get)
    open_tab(page, ui_server, "Select checkpoint")
    choose(page, "job", JOB)
    page.get_by_test_id("select-checkpoint").click()
    expect(page.get_by_test_id("pick")).to_have_text(f"checkpoint-{best}")
    expect(page.get_by_test_id("pick-value")).to_have_text(f"{losses[best]:.4g} at step {best}")
    expect(page.get_by_test_id("runner-up")).to_contain_text(f"checkpoint-{second}")
    expect(page.get_by_test_id("considered")).to_have_text("2")
    reason = re.compile(rf"lowest .*2 complete checkpoints.* at step {best}")
    expect(page.get_by_test_id("reason")).to_contain_text(reason)


def test_an_average_started_on_the_page_completes_and_shows_the_registered_model_and_lineage(
    page: Page, ui_server, trained
):
    open_tab(page, ui_server, "Average")
    choose(page, "job", JOB)
    page.locator("[data-field='name']").fill("ui-swa")
    page.get_by_test_id("start-average").click()
    run = page.get_by_test_id("surgery-run")
    expect(run.get_by_test_id("model-name")).to_have_text("ui-swa", timeout=120_000)
    expect(run.get_by_test_id("status")).to_have_text("Completed")
    job = ui_server.api.get("/jobs/ui-swa").json()
    assert (job["algorithm"], job["engine"]) == ("average", "surgery")
    expect(run.get_by_test_id("run-link")).to_have_attribute("href", f"/jobs/{job['id']}")
    lineage = ui_server.api.get("/models/ui-swa").json()["lineage"]
    assert [entry["step"] for entry in lineage["inputs"]] == [EVERY, 2 * EVERY]
    expect(run.get_by_test_id("lineage-operation")).to_have_text("Average")
    expect(run.get_by_test_id("lineage-parameters")).to_contain_text('mode="swa"')
    expect(run.get_by_test_id("input-step")).to_have_text([str(EVERY), str(2 * EVERY)])
    expect(run.get_by_test_id("input-sha")).to_have_text([entry["sha256"][:12] for entry in lineage["inputs"]])


def test_the_merge_form_shows_the_methods_help_and_the_fields_it_takes(page: Page, ui_server):
    methods = {method["name"]: method for method in ui_server.api.get("/surgery/methods").json()}
    assert set(methods["linear"]["per_model"]) == {"weight"} and methods["slerp"]["base"] == "required"
    assert methods["slerp"]["per_model"] == {} and "t" in methods["slerp"]["parameters"]
    page.goto(f"{ui_server.url}/surgery")
    help_text = page.get_by_test_id("method-help")
    expect(help_text).to_have_text(methods["linear"]["help"])
    weights = page.locator("[data-field$='.parameters.weight']")
    expect(weights).to_have_count(2)
    expect(page.locator("[data-field='parameters.normalize']")).to_be_visible()
    expect(page.locator("[data-field='base_model']")).to_have_count(0 if methods["linear"]["base"] == "none" else 1)

    choose(page, "method", "slerp")
    expect(help_text).to_have_text(methods["slerp"]["help"])
    expect(weights).to_have_count(0)
    expect(page.locator("[data-field='parameters.t']")).to_be_visible()
    expect(page.locator("[data-field='parameters.normalize']")).to_have_count(0)
    expect(page.locator("[data-field='base_model']")).to_be_visible()
    expect(page.get_by_test_id("model-row")).to_have_count(2)


def test_a_bad_mergekit_recipe_shows_the_error_naming_its_line(page: Page, ui_server, console):
    console.expect("status of 422")
    page.goto(f"{ui_server.url}/surgery")
    page.get_by_text("mergekit YAML", exact=True).click()
    page.locator("[data-field='name']").fill("ui-bad-recipe")
    page.locator("[data-field='recipe']").fill("merge_method: linear\nmodels:\n  - model: a\n   bad: 1\n")
    page.get_by_test_id("start-merge").click()
    expect(form_item(page, "mergekit recipe").locator(".el-form-item__error")).to_contain_text("line 4")
    assert ui_server.api.get("/jobs/ui-bad-recipe").status_code == 404


def test_the_page_in_chinese_shows_chinese_labels(page: Page, ui_server):
    page.evaluate("localStorage.setItem('tplat.locale', 'zh-CN')")
    page.goto(f"{ui_server.url}/surgery")
    expect(page.locator("h1")).to_have_text("模型手术")
    expect(page.locator(".el-menu-item", has_text="模型手术")).to_be_visible()
    for tab in ("合并", "平均", "挑选检查点", "LoRA 融合"):
        expect(page.get_by_role("tab", name=tab)).to_be_visible()
    expect(form_item(page, "方法")).to_be_visible()
    page.get_by_role("tab", name="挑选检查点").click()
    expect(form_item(page, "规则")).to_be_visible()
    expect(page.get_by_test_id("select-checkpoint")).to_have_text("挑选")


def test_the_job_form_offers_a_jobs_final_model_as_the_base_of_a_new_dpo_job(page: Page, ui_server, trained):
    page.goto(f"{ui_server.url}/jobs/new")
    page.get_by_text("DPO", exact=True).click()
    page.locator("[data-field='name']").fill("ui-dpo-from-sft")
    page.locator("[data-field='model_path']").click()
    final = page.locator(".el-select-dropdown__item:visible", has_text=f"{JOB} · final")
    expect(final).to_have_attribute("data-reference", f"job:{JOB}")
    # A checkpoint is offered too, with the step and the losses recorded there.
    expect(page.locator(".el-select-dropdown__item:visible", has_text=f"{JOB} · checkpoint-{EVERY}")).to_contain_text(
        re.compile(rf"step {EVERY} · eval loss [0-9.]+ · loss [0-9.]+")
    )
    final.click()
    choose(page, "dataset_paths", "demo-dpo")
    page.locator("[data-field='start']").click()  # created, not started: the base model is what this test is about
    page.get_by_test_id("create-job").click()
    page.wait_for_url(re.compile(r"/jobs/[0-9a-f]{32}$"))
    job = ui_server.api.get("/jobs/ui-dpo-from-sft").json()
    assert (job["algorithm"], job["status"]) == ("dpo", "pending")
    assert job["model_path"] == str(Path(trained["output_dir"]) / "final")


def test_a_checkpoint_on_the_jobs_page_opens_training_evaluation_and_surgery_with_it_chosen(
    page: Page, ui_server, trained
):
    reference = f"job:{JOB}@{CHECKPOINT}"
    act = checkpoint_action(page, ui_server, trained)
    act("train")
    page.wait_for_url(re.compile(r"/jobs/new\?model=job(:|%3A)"))
    assert unquote(page.url.split("model=")[1]) == reference
    chosen(page, "model_path")
    act("evaluate")
    chosen(page, "target.model")
    act("surgery")
    chosen(page, "models.0.model")


def test_an_admin_exports_a_checkpoint_from_the_jobs_page(browser: Browser, ui_server, trained, console):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    page.on("console", console.on_console)
    try:
        log_in(page, ui_server, name="admin", password=ui_server.admin_password_file.read_text().strip())
        checkpoint_action(page, ui_server, trained)("export")
        notice = page.locator(".el-message--success")
        expect(notice).to_contain_text("Exported to", timeout=60_000)
    finally:
        context.close()
    tasks = ui_server.api.get(f"/jobs/{trained['id']}/tasks").json()
    exported = next(task for task in tasks if task["params"] == {"checkpoint": CHECKPOINT})
    assert exported["status"] == "completed"
    assert (Path(exported["result"]["path"]) / "config.json").is_file()
    assert not console.unexpected(), console.unexpected()


def checkpoint_action(page: Page, server, trained: dict):
    """Open the job's checkpoints tab and press `action` on CHECKPOINT."""

    def act(action: str) -> None:
        page.goto(f"{server.url}/jobs/{trained['id']}")
        page.get_by_role("tab", name=re.compile(r"^Checkpoints")).click()
        page.locator(f"[data-checkpoint='{CHECKPOINT}'] [data-action='{action}']").click()

    return act


def chosen(page: Page, field: str) -> None:
    """The select shows the choice's label, the one its dropdown lists under the job's checkpoints."""
    expect(page.locator(f"[data-field='{field}']").first).to_contain_text(f"{JOB} · {CHECKPOINT}")
