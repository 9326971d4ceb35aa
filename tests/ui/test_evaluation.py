"""Evaluation in the browser: a run started from the form completes and its results page shows each metric with its
interval and the category bars; a metric the dataset cannot serve is refused at that metric; two runs compared
show the counts and the answers side by side; the page in Chinese. The demo model answers a four-row eval set with
8 greedy tokens, so that each run takes seconds. The playground streams the demo model's answers on two sides at once
and shows an unknown model's refusal at that side's model field."""

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.support.surgery import train_evaluated_sft
from tests.ui.conftest import DEMO_MODEL
from tests.ui.elements import choose, form_item

DATASET = "ui-eval"
ROWS = [
    {"prompt": "What is 1 + 1?", "reference": "2", "category": "math"},
    {"prompt": "What is 2 + 3?", "reference": "5", "category": "math"},
    {"prompt": "Name a colour.", "reference": "red", "category": "words"},
    {"prompt": "Say hello.", "reference": "hello", "category": "words"},
]
GENERATION = {"max_new_tokens": 8, "temperature": 0}


@pytest.fixture(scope="module")
def eval_set(ui_server, tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("eval_data")
    path = folder / "eval.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in ROWS))
    prompts = folder / "prompts.jsonl"
    prompts.write_text("".join(json.dumps({"prompt": row["prompt"]}) + "\n" for row in ROWS))
    for name, file in ((DATASET, path), ("ui-prompts-only", prompts)):
        response = ui_server.api.post("/datasets", json={"name": name, "path": str(file), "kind": "eval"})
        assert response.status_code == 201, response.text
    return DATASET


def run_through_api(server, name: str, max_new_tokens: int) -> dict:
    body = {
        "name": name,
        "dataset": DATASET,
        "target": {"kind": "model", "model": f"model:{DEMO_MODEL}"},
        "metrics": [{"name": "exact_match"}, {"name": "chrf"}],
        "generation": {**GENERATION, "max_new_tokens": max_new_tokens},
    }
    response = server.api.post("/evaluations", json=body)
    assert response.status_code == 201, response.text
    job = server.wait_for_status(response.json()["id"], "completed", "failed", timeout=300)
    assert job["status"] == "completed", job["error"]
    return job


@pytest.fixture(scope="module")
def two_runs(ui_server, eval_set) -> tuple[str, str]:
    run_through_api(ui_server, "ui-eval-short", 2)
    run_through_api(ui_server, "ui-eval-long", 8)
    return "ui-eval-short", "ui-eval-long"


def test_a_run_started_on_the_form_completes_and_shows_its_metrics_and_category_bars(page: Page, ui_server, eval_set):
    page.goto(f"{ui_server.url}/evaluation")
    choose(page, "dataset", DATASET)
    choose(page, "target.model", DEMO_MODEL)
    for metric in ("exact_match", "chrf"):
        page.locator(f"[data-field='metric-{metric}']").click()
    help_text = ui_server.api.get("/evaluations/metrics").json()
    chrf = next(metric for metric in help_text if metric["name"] == "chrf")
    expect(page.locator("[data-metric='chrf'] [data-testid='metric-help']")).to_have_text(chrf["help"])
    # exact_match declares one option (normalize), chrF none: only the chosen metric's declared options show.
    expect(page.locator("[data-field='exact_match.normalize']")).to_be_visible()
    expect(page.locator("[data-field^='chrf.']")).to_have_count(0)
    page.get_by_text("Generation settings").click()
    page.locator("[data-field='generation.max_new_tokens']").fill("8")
    page.locator("[data-field='name']").fill("ui-eval-form")
    page.get_by_test_id("start-eval").click()

    link = page.get_by_test_id("run-results-link").filter(has_text="ui-eval-form")
    expect(link).to_be_visible()
    job = ui_server.api.get("/jobs/ui-eval-form").json()
    assert job["params"]["generation"]["max_new_tokens"] == 8
    ui_server.wait_for_status(job["id"], "completed", "failed", timeout=300)
    link.click()
    page.wait_for_url(re.compile(r"/evaluation/runs/ui-eval-form$"))
    expect(page.get_by_test_id("run-name")).to_have_text("ui-eval-form")
    expect(page.get_by_test_id("metric-key")).to_have_text(["exact_match", "chrf"], timeout=30_000)
    overall = ui_server.api.get("/evaluations/ui-eval-form").json()["results"]["overall"]
    assert overall["chrf"]["low"] is not None
    # Each value with its interval: `12.3 [4.5, 20.1]`.
    number = r"[0-9.e+-]+"
    interval = re.compile(rf"^{number} \[{number}, {number}\]$")
    expect(page.get_by_test_id("metric-value").nth(1)).to_have_text(interval)
    expect(page.get_by_test_id("category-bars")).to_have_attribute("data-categories", "2")
    expect(page.get_by_test_id("run-scored")).to_have_text("4 / 4 scored")
    expect(page.get_by_test_id("sample-prompt")).to_have_count(4)
    page.locator("[data-field='samples-category']").click()
    page.locator(".el-select-dropdown__item:visible", has_text="words").click()
    expect(page.get_by_test_id("sample-prompt")).to_have_count(2)
    expect(page.get_by_test_id("samples-total")).to_have_text("2 samples")


def test_a_metric_the_dataset_cannot_serve_is_refused_at_that_metric(page: Page, ui_server, eval_set, console):
    console.expect("status of 422")
    page.goto(f"{ui_server.url}/evaluation")
    choose(page, "dataset", "ui-prompts-only")
    choose(page, "target.model", DEMO_MODEL)
    page.locator("[data-field='metric-bleu']").click()
    page.locator("[data-field='name']").fill("ui-eval-refused")
    page.get_by_test_id("start-eval").click()
    error = page.locator("[data-metric='bleu'] .el-form-item__error")
    expect(error).to_contain_text("bleu needs references")
    assert ui_server.api.get("/jobs/ui-eval-refused").status_code == 404


def test_two_runs_compared_show_the_counts_and_the_answers_side_by_side(page: Page, ui_server, two_runs):
    short, long = two_runs
    page.goto(f"{ui_server.url}/evaluation")
    for name in (short, long):
        row = page.locator(".el-table__row", has=page.get_by_test_id("run-results-link").filter(has_text=name))
        row.locator(".el-checkbox").click()
    page.get_by_test_id("compare-runs").click()
    page.wait_for_url(re.compile(r"/evaluation/compare\?runs="))

    comparison = ui_server.api.post("/evaluations/compare", json={"runs": [short, long]}).json()
    counts = comparison["counts"][long]
    assert sum(counts.values()) == len(ROWS)
    row = page.get_by_test_id("counts").locator(f"[data-run='{long}']")
    for direction, count in counts.items():
        expect(row.get_by_test_id(f"count-{direction}")).to_contain_text(str(count))
    expect(page.get_by_test_id("compare-metrics").locator(".el-table__row")).to_have_count(2)
    expect(page.get_by_test_id("difference")).to_have_count(2)
    samples = page.get_by_test_id("compared-sample")
    expect(samples).to_have_count(len(ROWS))
    first = samples.first
    expect(first.get_by_test_id("side")).to_have_count(2)
    answers = {run: comparison["samples"][0]["outputs"][run][0] for run in (short, long)}
    expect(first.locator(f"[data-run='{short}']")).to_contain_text(answers[short].strip())
    changed = first.locator(f"[data-run='{long}'] [data-change]:not([data-change='same'])")
    if answers[short] != answers[long]:
        # The demo model's answers are noise, often whitespace: what differs is marked, whatever it is.
        expect(changed).not_to_have_count(0)
    else:
        expect(changed).to_have_count(0)

    choose(page, "compare-category", "math")
    expect(samples).to_have_count(2)


def test_the_page_in_chinese_shows_chinese_labels(page: Page, ui_server, eval_set):
    page.evaluate("localStorage.setItem('tplat.locale', 'zh-CN')")
    page.goto(f"{ui_server.url}/evaluation")
    expect(page.locator("h1")).to_have_text("模型评测")
    expect(page.locator(".el-menu-item", has_text="模型评测")).to_be_visible()
    expect(page.locator(".el-menu-item", has_text="对话试验场")).to_be_visible()
    for label in ("评测数据集", "评测对象", "指标", "样本数"):
        expect(form_item(page, label)).to_be_visible()
    expect(page.get_by_test_id("start-eval")).to_have_text("开始评测")
    expect(page.get_by_test_id("compare-runs")).to_contain_text("比较")


def test_the_playground_streams_two_answers_side_by_side_and_refuses_an_unknown_model(page: Page, ui_server, console):
    page.goto(f"{ui_server.url}/playground")
    page.get_by_test_id("add-side").click()
    for side in range(2):
        page.locator("[data-field='target.model']").nth(side).click()
        page.locator(".el-select-dropdown__item:visible", has_text=DEMO_MODEL).first.click()
        expect(page.locator(".el-select-dropdown__item:visible")).to_have_count(0)  # closed before the next opens
    page.get_by_text("Generation settings").click()
    page.locator("[data-field='generation.max_new_tokens']").fill("8")
    page.locator("[data-field='prompt']").fill("What is 1 + 1?")
    page.get_by_test_id("send").click()
    sides = page.get_by_test_id("chat-side")
    expect(sides).to_have_count(2)
    for side in range(2):
        chat = sides.nth(side)
        expect(chat.get_by_test_id("chat-stats")).to_be_visible(timeout=120_000)
        expect(chat.locator("[data-role='user']")).to_have_text("What is 1 + 1?")
        expect(chat.locator("[data-role='assistant']")).to_have_count(1)
    expect(page.get_by_test_id("chat-error")).to_have_count(0)

    console.expect("status of 422")
    page.get_by_test_id("remove-side").click()
    page.get_by_text("Model or checkpoint").first.click()
    model = page.locator("[data-field='target.model']").first
    model.locator("input").fill("model:no-such-model")
    model.locator("input").press("Enter")
    page.locator("[data-field='prompt']").fill("Hello?")
    page.get_by_test_id("send").click()
    error = form_item(page, "Model or checkpoint").locator(".el-form-item__error")
    expect(error).to_contain_text("no-such-model")
    # The refused turn is taken back and its text is ready to be sent again.
    expect(page.locator("[data-field='prompt']")).to_have_value("Hello?")
    expect(sides.first.get_by_test_id("chat-message")).to_have_count(2)


def test_a_jobs_checkpoints_evaluated_from_its_page_are_charted_by_step(page: Page, ui_server, eval_set, demo_assets):
    job = train_evaluated_sft(ui_server, demo_assets, "ui-eval-sweep", 10, 5)
    page.goto(f"{ui_server.url}/jobs/{job['id']}")
    expect(page.get_by_test_id("eval-curve")).to_contain_text("No checkpoint of this job has been evaluated yet.")
    page.get_by_test_id("evaluate-checkpoints").click()
    dialog = page.locator(".el-dialog:visible")
    choose(page, "sweep-dataset", DATASET)
    dialog.locator(".el-checkbox", has_text="chrf").click()
    dialog.locator("[data-field='sweep-limit']").fill("2")
    dialog.locator("[data-field='every'] input").fill("2")
    dialog.get_by_text("Generation settings").click()
    dialog.locator("[data-field='generation.max_new_tokens']").fill("8")
    dialog.get_by_test_id("start-sweep").click()
    expect(dialog).to_have_count(0)

    # Every second checkpoint (10; 5 is skipped) and the final model: two runs, charted once each completes.
    expect(page.get_by_test_id("eval-curve-chart")).to_have_attribute("data-points", "2", timeout=300_000)
    curve = ui_server.api.get("/evaluations/curve/ui-eval-sweep").json()
    assert curve["metric_keys"] == ["chrf"]
    assert [point["step"] for point in curve["points"]] == [10, None]
