"""Pipelines in the browser: a YAML pipeline with a cycle and an unknown dependency refused with each problem listed
beside its line and the lines marked, a two-stage pipeline created and started from the page and followed in its
drawn graph until both stages complete, resumed with its first stage chosen to run again, and the pages in Chinese.
`empty` stages run nothing, so each run takes a moment, and the server needs no model or dataset."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.support.helpers import ServerProcess
from tests.ui.conftest import PASSWORD, USER, create_user, log_in, screenshot

# Stage b's depends_on (line 8) closes the cycle a -> b -> a; stage c's dependency (line 11) names no stage.
BROKEN = """\
name: ui-broken
stages:
  - name: a
    type: empty
    depends_on: [b]
  - name: b
    type: empty
    depends_on: [a]
  - name: c
    type: empty
    depends_on: [nowhere]
"""
CYCLE_LINE = 8
UNKNOWN_LINE = 11

PIPELINE = "ui-two-stages"
VALID = f"""\
name: {PIPELINE}
description: Two empty stages, the second after the first.
stages:
  - name: first
    type: empty
  - name: second
    type: empty
    depends_on: [first]
"""


@pytest.fixture(scope="module")
def pipelines_server(tmp_path_factory) -> Iterator[ServerProcess]:
    """A server with the browser tests' member: empty stages need nothing registered."""
    server = ServerProcess(home=tmp_path_factory.mktemp("pipelines_ui_home"))
    server.start()
    try:
        create_user(server, USER, PASSWORD, "member")
        yield server
    finally:
        server.shutdown()


def test_a_pipeline_is_checked_line_by_line_then_created_started_and_drawn_to_its_end(
    anonymous_page: Page, pipelines_server: ServerProcess, console
):
    page = anonymous_page
    console.expect("status of 422")  # the refused definition's answer, which the page shows beside its lines
    log_in(page, pipelines_server, path="/pipelines")
    expect(page.locator("h1")).to_have_text("Pipelines")
    expect(page.locator(".pipelines-table")).to_contain_text("No pipelines yet.")

    page.get_by_test_id("new-pipeline").click()
    [template, *_] = pipelines_server.api.get("/pipelines/templates").json()
    page.get_by_test_id("pipeline-template").click()
    page.locator(".el-select-dropdown__item:visible", has_text=template["title"]).click()
    expect(page.get_by_test_id("pipeline-yaml")).to_have_value(template["text"])
    page.get_by_test_id("pipeline-yaml").fill(BROKEN)
    page.get_by_test_id("pipeline-validate").click()
    problems = page.get_by_test_id("pipeline-problems").get_by_test_id("pipeline-problem")
    expect(problems).to_have_count(2)
    cycle = problems.filter(has_text="cycle")
    expect(cycle).to_have_attribute("data-line", str(CYCLE_LINE))
    expect(cycle.get_by_test_id("problem-line")).to_have_text(f"Line {CYCLE_LINE}")
    unknown = problems.filter(has_text="nowhere")
    expect(unknown).to_have_attribute("data-line", str(UNKNOWN_LINE))
    expect(unknown).to_have_attribute("data-stage", "c")
    expect(unknown.get_by_test_id("problem-line")).to_have_text(f"Line {UNKNOWN_LINE}")
    marked = page.locator("[data-testid='yaml-line'].problem")
    expect(marked).to_have_count(2)
    assert [int(line) for line in marked.evaluate_all("rows => rows.map(row => row.dataset.line)")] == [
        CYCLE_LINE,
        UNKNOWN_LINE,
    ]
    screenshot(page, "pipeline-problems")
    assert pipelines_server.api.get("/pipelines").json() == []

    page.get_by_test_id("pipeline-yaml").fill(VALID)
    page.get_by_test_id("pipeline-validate").click()
    expect(page.get_by_test_id("pipeline-valid")).to_contain_text("Valid: 2 stages in 2 layers")
    expect(page.locator("[data-testid='yaml-line'].problem")).to_have_count(0)
    page.get_by_test_id("pipeline-create-start").click()

    page.wait_for_url(f"{pipelines_server.url}/pipelines/{PIPELINE}")
    expect(page.get_by_test_id("pipeline-title")).to_have_text(PIPELINE)
    graph = page.get_by_test_id("pipeline-graph")
    first = graph.locator("[data-testid='stage-node'][data-stage='first']")
    second = graph.locator("[data-testid='stage-node'][data-stage='second']")
    expect(graph.locator("[data-testid='stage-edge'][data-from='first'][data-to='second']")).to_have_count(1)
    # Polled while it runs: both reach completed on the page without a reload.
    expect(first).to_have_attribute("data-status", "completed", timeout=20_000)
    expect(second).to_have_attribute("data-status", "completed", timeout=20_000)
    expect(second.get_by_test_id("stage-node-status")).to_have_text("empty · Completed")
    expect(page.locator(".page-header").get_by_test_id("pipeline-status")).to_have_attribute("data-status", "completed")
    # Resume applies to a completed pipeline; cancel and start do not.
    expect(page.locator("[data-action='resume']")).to_be_visible()
    expect(page.locator("[data-action='cancel']")).to_have_count(0)
    expect(page.locator("[data-action='start']")).to_have_count(0)

    second.click()
    detail = page.get_by_test_id("stage-detail")
    expect(detail.get_by_test_id("stage-name")).to_have_text("second")
    expect(detail.get_by_test_id("pipeline-status")).to_have_text("Completed")
    expect(detail.get_by_test_id("stage-attempt")).to_have_text("1 of 1")
    screenshot(page, "pipeline")
    stages = {stage["name"]: stage for stage in pipelines_server.api.get(f"/pipelines/{PIPELINE}").json()["stages"]}
    assert stages["first"]["status"] == stages["second"]["status"] == "completed"

    # Resume with the first stage chosen to run again: it and the stage after it make their second attempt.
    page.locator("[data-action='resume']").click()
    dialog = page.get_by_test_id("resume-dialog")
    dialog.locator("[data-testid='rerun-stage'][data-stage='first']").click()
    dialog.get_by_test_id("resume-confirm").click()
    expect(dialog).to_be_hidden()
    expect(first.get_by_test_id("stage-node-status")).to_have_text("empty · Completed · 2/2", timeout=20_000)
    expect(second.get_by_test_id("stage-node-status")).to_have_text("empty · Completed · 2/2", timeout=20_000)
    expect(detail.get_by_test_id("stage-attempt")).to_have_text("2 of 2")

    page.get_by_test_id("language").click()
    page.locator(".el-select-dropdown__item:visible", has_text="简体中文").click()
    expect(second.get_by_test_id("stage-node-status")).to_have_text("empty · 已完成 · 2/2")
    expect(page.locator("[data-action='resume']")).to_have_text("恢复")
    expect(detail.get_by_test_id("stage-attempt")).to_have_text("第 2 次，共 2 次")
    page.goto(f"{pipelines_server.url}/pipelines")
    expect(page.locator("h1")).to_have_text("流水线")
    row = page.locator(".pipelines-table .el-table__row", has_text=PIPELINE)
    expect(row.get_by_test_id("pipeline-status")).to_have_text("已完成")
    expect(row.get_by_test_id("stage-counts")).to_contain_text("已完成 2")
