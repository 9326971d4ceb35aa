"""The compute configurator in the browser: a recommendation, its memory explained on hover, its expected duration,
applied to a new job."""

import re

from playwright.sync_api import Page, expect

from tests.ui.conftest import DEMO_MODEL
from tests.ui.elements import choose


def test_the_configurator_explains_its_memory_and_applies_to_a_new_job(page: Page, ui_server):
    page.goto(f"{ui_server.url}/compute")
    choose(page, "model", "Qwen2.5-7B")
    choose(page, "gpu", "A100-80G")
    choose(page, "seq_len", "4096")
    page.locator("[data-field='samples'] input").fill("20000")
    page.get_by_test_id("recommend").click()

    recommendation = page.get_by_test_id("recommendation")
    expect(recommendation).to_be_visible()
    expected = ui_server.api.post(
        "/compute/recommend",
        json={"model": "Qwen2.5-7B", "gpu": "A100-80G", "seq_len": 4096, "algorithm": "sft", "samples": 20000},
    ).json()
    expect(page.get_by_test_id("global-batch")).to_have_text(str(expected["global_batch"]))
    # The expected duration is the API's: its total for its number of steps.
    duration = page.get_by_test_id("duration")
    expect(duration).to_have_attribute("data-seconds", str(expected["duration"]["total_seconds"]))
    expect(duration).to_contain_text(f"for {expected['duration']['steps']} steps")
    expect(recommendation).to_contain_text(f"ZeRO-{expected['configuration']['zero_stage']}")

    # Hovering the stacked bar explains the part under the pointer: why it exists and each term's formula.
    bar = page.get_by_test_id("memory-bar")
    box = bar.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.55)
    tip = page.locator(".memory-tip")
    expect(tip).to_be_visible()
    category = tip.locator("b").first.inner_text()
    explanations = {e["key"] for e in expected["estimate"]["terms"]}
    assert category and tip.locator(".why").inner_text().strip()
    assert any(key in tip.inner_text() for key in explanations)

    page.get_by_test_id("apply").click()
    page.wait_for_url(re.compile(r"/jobs/new$"))
    expect(page.get_by_test_id("prefilled")).to_be_visible()
    # The form keeps the configurator's expected duration beside what it pre-filled.
    expect(page.get_by_test_id("prefilled-duration")).to_contain_text(f"for {expected['duration']['steps']} steps")
    params = expected["params"]
    expect(page.locator("[data-field='batch_size']")).to_have_value(str(params["batch_size"]))
    expect(page.locator("[data-field='micro_batch_size']")).to_have_value(str(params["micro_batch_size"]))
    expect(page.locator("[data-field='max_length']")).to_have_value(str(params["max_length"]))

    page.locator("[data-field='name']").fill("from-configurator")
    choose(page, "model_path", DEMO_MODEL)
    choose(page, "dataset_paths", "demo-sft")
    page.locator("[data-field='start']").click()  # create it only; its batch is sized for an A100, not this CPU
    page.get_by_test_id("create-job").click()
    page.wait_for_url(re.compile(r"/jobs/[0-9a-f]{32}$"))
    expect(page.get_by_test_id("status")).to_have_text("Pending")
    job = ui_server.job("from-configurator")
    assert {key: job["params"][key] for key in params} == params
