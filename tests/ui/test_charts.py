"""Metric charts in the browser: a DPO job's default charts (its margins, accuracies and chosen/rejected rewards, as
GET /algorithms declares them), smoothing and log scale, two runs overlaid from the jobs list, the tidy jobs table, the
axis in Chinese. No training: two DPO jobs are created unstarted and given metrics through the import endpoint."""

import json

import pytest
from playwright.sync_api import Page, expect

from tests.support.helpers import ServerProcess
from tests.ui.conftest import DEMO_MODEL
from tests.ui.elements import chart, points

STEPS = 20
MARGINS = "Reward margin (chosen − rejected)"


def dpo_metrics(offset: float) -> bytes:
    """TRL's DPO keys, as the platform's callback writes them; the margin is negative for the first three steps and
    zigzags, so both the log scale and the smoothing change what is drawn."""
    lines = []
    for step in range(1, STEPS + 1):
        margin = (step - 3.5) / 4 + offset + (0.3 if step % 2 else -0.3)
        record = {
            "step": step,
            "loss": {"total_loss": 0.7 - step / 100 - offset},
            "learning_rate": 1e-5,
            "custom": {
                "rewards/margins": margin,
                "rewards/accuracies": min(1.0, 0.5 + step / 40),
                "rewards/chosen": 0.1 * step,
                "rewards/rejected": -0.05 * step,
            },
        }
        lines.append(json.dumps(record))
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture(scope="module")
def dpo_runs(ui_server: ServerProcess) -> list[dict]:
    model = ui_server.api.get(f"/models/{DEMO_MODEL}").json()["path"]
    runs = []
    for name, offset in (("dpo-chart-a", 0.0), ("dpo-chart-b", 0.5)):
        body = {"name": name, "algorithm": "dpo", "model_path": model, "dataset_paths": ["dataset:demo-dpo"]}
        response = ui_server.api.post("/jobs", json=body)
        assert response.status_code == 201, response.text
        imported = ui_server.api.post(
            f"/monitoring/{name}/metrics/import", params={"filename": "metrics.jsonl"}, content=dpo_metrics(offset)
        )
        assert imported.status_code == 200, imported.text
        assert imported.json()["records"] == STEPS
        runs.append(response.json())
    return runs


def test_dpo_charts_smoothing_log_scale_and_two_runs_overlaid(page: Page, ui_server: ServerProcess, dpo_runs):
    first, second = dpo_runs
    # The jobs table: no header broken inside a word or cut off, a loss on one line.
    rows = page.locator(".jobs-table .el-table__row")
    expect(rows.filter(has_text=first["name"])).to_be_visible()
    clipped = page.evaluate(
        "[...document.querySelectorAll('.jobs-table th .cell')]"
        ".filter((cell) => cell.scrollWidth > cell.clientWidth).map((cell) => cell.textContent)"
    )
    assert clipped == []

    page.goto(f"{ui_server.url}/jobs/{first['id']}")
    # DPO's own charts by default, beside the loss; what the run did not log (log-probabilities) is not drawn.
    for title in ("Loss", MARGINS, "Preference accuracy", "Chosen and rejected rewards"):
        expect(chart(page, title)).to_have_attribute("data-points", str(STEPS))
    expect(chart(page, "Chosen and rejected rewards")).to_have_attribute("data-lines", "2")
    expect(chart(page, "Log-probabilities")).to_have_count(0)
    margins = chart(page, MARGINS)
    expect(margins).to_have_attribute("data-x-name", "step")

    # Smoothing draws the average instead of the last raw value.
    raw_last = margins.get_attribute("data-last-value")
    slider = page.locator("[data-field='smoothing'] .el-slider__runway").first
    box = slider.bounding_box()
    slider.click(position={"x": box["width"] * 0.9, "y": box["height"] / 2})
    expect(margins).not_to_have_attribute("data-last-value", raw_last)

    # A log scale leaves out the margins at or below 0 (the first three steps).
    page.locator("[data-field='log_scale']").first.click()
    expect(margins).to_have_attribute("data-y-scale", "log")
    expect(margins).to_have_attribute("data-points", str(STEPS - 3))
    page.locator("[data-field='log_scale']").first.click()
    expect(margins).to_have_attribute("data-points", str(STEPS))

    # Two runs ticked in the jobs list: one chart per shared metric, a line per run.
    page.goto(f"{ui_server.url}/jobs")
    compare = page.get_by_test_id("compare")
    expect(compare).to_be_disabled()
    for job in dpo_runs:
        rows.filter(has_text=job["name"]).locator(".el-checkbox").click()
    compare.click()
    page.wait_for_url(f"**/jobs/compare?ids={first['id']}&ids={second['id']}")
    expect(page.get_by_test_id("compared-run")).to_have_text([first["name"], second["name"]])
    overlaid = chart(page, MARGINS)
    expect(overlaid).to_have_attribute("data-lines", "2")
    expect(overlaid).to_have_attribute("data-points", str(STEPS))
    expect(chart(page, "Loss")).to_have_attribute("data-lines", "2")
    assert points(page, "Preference accuracy") == STEPS

    # In Chinese the axis says so.
    page.get_by_test_id("language").click()
    page.locator(".el-select-dropdown__item:visible", has_text="简体中文").click()
    expect(chart(page, "偏好准确率")).to_have_attribute("data-x-name", "步")


def test_an_sft_jobs_padding_is_charted_and_its_last_value_shown(page: Page, ui_server: ServerProcess):
    """TRL's SFT logs the share of each step's positions that were padding (engines/trl/packing.py)."""
    model = ui_server.api.get(f"/models/{DEMO_MODEL}").json()["path"]
    body = {"name": "sft-padding", "algorithm": "sft", "model_path": model, "dataset_paths": ["dataset:demo-sft"]}
    response = ui_server.api.post("/jobs", json=body)
    assert response.status_code == 201, response.text
    lines = [
        {"step": step, "loss": {"total_loss": 1.0 / step}, "custom": {"padding_ratio": 0.5 - step / 40}}
        for step in range(1, 11)
    ]
    metrics = "".join(json.dumps(line) + "\n" for line in lines).encode()
    imported = ui_server.api.post(
        "/monitoring/sft-padding/metrics/import", params={"filename": "metrics.jsonl"}, content=metrics
    )
    assert imported.status_code == 200, imported.text
    page.goto(f"{ui_server.url}/jobs/{response.json()['id']}")
    expect(chart(page, "Padding (share of positions)")).to_have_attribute("data-points", "10")
    expect(page.get_by_test_id("padding")).to_have_text("25.0 %")
