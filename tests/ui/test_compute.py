"""The compute configurator in the browser: a recommendation, its memory explained on hover, its expected duration,
each engine's configuration of it (or why there is none), applied to a new job field by field."""

import re

from playwright.sync_api import Page, expect

from tests.ui.conftest import DEMO_MODEL
from tests.ui.elements import choose


def test_the_configurator_explains_its_memory_and_applies_to_a_new_job(page: Page, ui_server):
    page.goto(f"{ui_server.url}/compute")
    choose(page, "model", "Qwen2.5-7B")
    choose(page, "gpu", "A100-80G")
    choose(page, "seq_len", "4096")
    page.locator("[data-field='num_gpus'] input").fill("2")  # sharded: the ZeRO stage is a field of the form too
    page.locator("[data-field='samples'] input").fill("20000")
    page.get_by_test_id("recommend").click()

    recommendation = page.get_by_test_id("recommendation")
    expect(recommendation).to_be_visible()
    expected = ui_server.api.post(
        "/compute/recommend",
        json={
            "model": "Qwen2.5-7B",
            "gpu": "A100-80G",
            "num_gpus": 2,
            "seq_len": 4096,
            "algorithm": "sft",
            "samples": 20000,
        },  # fmt: skip
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

    # Each engine's panel shows its configuration of the same params, or why it cannot run them.
    for panel in expected["engines"]:
        shown = page.get_by_test_id(f"engine-{panel['engine']}")
        if panel["not_shown"]:
            expect(shown.get_by_test_id("not-shown")).to_have_text(panel["not_shown"])
        else:
            expect(shown).to_contain_text(next(iter(panel["configuration"])))
    expect(page.get_by_test_id("not-carried")).to_contain_text(expected["not_carried"][0])
    # The "Why" column wraps its sentences within the card: the table needs no sideways scrolling, no cell is cut.
    table = page.locator(".el-table__body-wrapper .el-scrollbar__wrap").first
    assert table.evaluate("wrap => wrap.scrollWidth <= wrap.clientWidth")
    cut = page.get_by_test_id("term-why").evaluate_all(
        "texts => texts.filter(text => text.closest('.cell').scrollWidth > text.closest('.cell').clientWidth).length"
    )
    assert cut == 0

    page.get_by_test_id("apply").click()
    page.wait_for_url(re.compile(r"/jobs/new$"))
    expect(page.get_by_test_id("prefilled")).to_be_visible()
    # The form keeps the configurator's expected duration beside what it pre-filled.
    expect(page.get_by_test_id("prefilled-duration")).to_contain_text(f"for {expected['duration']['steps']} steps")
    params = expected["params"]
    assert params["zero_stage"] == expected["configuration"]["zero_stage"]
    # Every recommended parameter is in a visible field of the form, the duration as its length in steps.
    assert params["max_steps"] == expected["duration"]["steps"]
    expect(page.locator("[data-field='length_mode']")).to_contain_text("Steps")
    fields = {}
    for name, value in params.items():
        if isinstance(value, dict):  # LoRA: its card switched on, each of its settings in its own field
            expect(page.locator(f"[data-field='{name}_enabled']")).to_have_class(re.compile(r"\bis-checked\b"))
            fields.update({f"{name}.{key}": inner for key, inner in value.items()})
        else:
            fields[name] = value
    for name, value in fields.items():
        field = page.locator(f"[data-field='{name}']").first
        expect(field).to_be_visible()
        if isinstance(value, bool):
            expect(field).to_have_class(re.compile(r"\bis-checked\b") if value else re.compile(r"^(?!.*is-checked)"))
        elif isinstance(value, str):  # a choice: the select shows it
            expect(field).to_contain_text(value)
        else:
            expect(field).to_have_value(str(value))

    page.locator("[data-field='name']").fill("from-configurator")
    choose(page, "model_path", DEMO_MODEL)
    choose(page, "dataset_paths", "demo-sft")
    page.locator("[data-field='start']").click()  # create it only; its batch is sized for an A100, not this CPU
    page.get_by_test_id("create-job").click()
    page.wait_for_url(re.compile(r"/jobs/[0-9a-f]{32}$"))
    expect(page.get_by_test_id("status")).to_have_text("Pending")
    job = ui_server.job("from-configurator")
    assert {key: job["params"][key] for key in params} == params
