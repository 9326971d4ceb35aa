"""Datasets in the browser: upload (refused with its rows named, then accepted), audit findings → rows, loss
highlighting, distributions, preview, semantic search and deduplication."""

import json
import re

from playwright.sync_api import Page, expect


def write_jsonl(path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")


def qa_rows() -> list[dict]:
    rows = [
        {
            "prompt": f"What is {n} plus {n + 3}?",
            "response": f"The answer is {2 * n + 3}.",
            "data_source": "math" if n % 3 else "arithmetic",
        }
        for n in range(40)
    ]
    rows[17] = dict(rows[4])  # rows 5 and 18 (1-based) say the same thing
    rows[31] = dict(rows[4])
    return rows


def open_upload(page: Page, path) -> None:
    page.get_by_test_id("upload-dataset").click()
    page.locator("[data-testid='file-drop'] input[type=file]").set_input_files(str(path))


def test_upload_audit_finding_rows_loss_stats_search_and_dedup(page: Page, ui_server, tmp_path, console):
    console.expect("status of 422")
    broken = tmp_path / "broken.jsonl"
    write_jsonl(broken, [{"question": f"What is {n}?", "answer": str(n)} for n in range(20)])  # other column names
    good = tmp_path / "qa.jsonl"
    write_jsonl(good, qa_rows())

    page.goto(f"{ui_server.url}/datasets")
    open_upload(page, broken)
    expect(page.locator("[data-field='name']")).to_have_value("broken")
    page.get_by_test_id("upload-submit").click()
    # The file was sent in full (the bar is fed by the upload's progress events), then refused: each problem once,
    # with its rows and the columns the file has; why no preset fits is said once, by the format detection.
    errors = page.get_by_test_id("row-errors")
    expect(errors).to_contain_text(
        "missing required field 'prompt': 20 of 20 rows (rows 1, 2, 3, 4, 5, …); the file's columns: question, answer"
    )
    expect(errors.get_by_text("missing required field 'response'")).to_have_count(1)
    expect(page.get_by_text("no format preset fits these sft rows")).to_have_count(1)
    expect(page.get_by_test_id("upload-progress")).to_contain_text("100%")
    assert {d["name"] for d in ui_server.api.get("/datasets").json()} == {"demo-sft", "demo-dpo", "demo-grpo"}
    # The errors were about the file as it was mapped: mapping a field clears them.
    page.locator(".mapping-row", has_text="prompt").locator("input").fill("question")
    expect(page.get_by_test_id("row-errors")).to_have_count(0)
    page.locator(".el-dialog").get_by_role("button", name="Cancel").click()

    open_upload(page, good)
    page.locator(".el-dialog .el-form-item", has_text="Label fields").locator(".el-select").click()
    page.keyboard.type("data_source")
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    page.get_by_test_id("upload-submit").click()
    page.wait_for_url(re.compile(r"/datasets/[0-9a-f]{32}$"))
    expect(page.get_by_test_id("dataset-name")).to_have_text("qa")

    page.locator("[data-field='near_threshold'] input").fill("0.75")
    page.get_by_test_id("run-audit").click()
    finding = page.get_by_test_id("findings").locator(".el-table__row", has_text="Duplicate").first
    expect(finding).to_contain_text("5, 18, 32")
    # Reloaded in Chinese: the options set are kept, the server's findings are said in Chinese.
    page.evaluate("localStorage.setItem('tplat.locale', 'zh-CN')")
    page.reload()
    expect(page.locator("[data-field='near_threshold'] input")).to_have_value("0.75")
    expect(page.get_by_test_id("findings")).to_contain_text("3 行的 prompt 完全相同")
    page.evaluate("localStorage.setItem('tplat.locale', 'en')")
    page.reload()
    finding = page.get_by_test_id("findings").locator(".el-table__row", has_text="Duplicate").first
    finding.click()
    drawer = page.get_by_test_id("rows-drawer")
    for row in (5, 18, 32):
        expect(drawer.locator(f"[data-row='{row}']")).to_contain_text("What is 4 plus 7?")
    drawer.locator("[data-row='5']").get_by_test_id("show-loss").click()
    preview = drawer.get_by_test_id("loss-preview")
    expect(preview.locator(".carries").first).to_be_visible(timeout=60_000)  # the server loads the tokenizer
    expect(preview.locator(".carries").first).to_contain_text("11")
    page.keyboard.press("Escape")

    page.get_by_role("tab", name="Field configuration").click()
    page.locator("[data-field='mapping.response']").click()
    page.locator(".el-select-dropdown__item:visible", has_text="response").first.click()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Saved.")).to_be_visible()
    saved = ui_server.api.get("/datasets/qa").json()
    assert (saved["field_mapping"], saved["label_fields"]) == ({"response": "response"}, ["data_source"])

    page.get_by_role("tab", name="Distributions").click()
    expect(page.get_by_test_id("length-histogram").first.locator("canvas")).to_be_visible()
    expect(page.get_by_test_id("label-chart").first).to_contain_text("data_source")
    expect(page.get_by_test_id("column-type").first).to_have_text("text")

    page.get_by_role("tab", name="Preview").click()
    expect(page.get_by_test_id("rows").locator(".el-table__row").first).to_contain_text("What is 0 plus 3?")
    expect(page.locator(".el-pagination")).to_contain_text("Total 40")

    page.get_by_role("tab", name="Search and dedup").click()
    page.get_by_test_id("build-index").click()
    expect(page.get_by_test_id("search-query")).to_be_enabled(timeout=120_000)
    page.get_by_test_id("search-query").fill("What is 4 plus 7?")
    page.get_by_test_id("search-query").press("Enter")
    expect(page.locator(".hits .el-table__row").first).to_contain_text("What is 4 plus 7?", timeout=120_000)

    page.get_by_test_id("dedup").click()
    result = page.get_by_test_id("dedup-result")
    expect(result).to_contain_text("Removed 2 rows in 1 duplicate groups")
    # The same deduplication again finds nothing new: it names the version that already holds its rows.
    page.get_by_test_id("dedup").click()
    expect(result).to_contain_text("Nothing new to remove")
    result.get_by_role("link", name="qa-dedup").click()
    expect(page.get_by_test_id("dataset-name")).to_have_text("qa-dedup")
    assert ui_server.api.get("/datasets/qa-dedup").json()["num_rows"] == 38


def test_media_dropped_on_purpose_and_the_columns_training_will_not_read(page: Page, ui_server, tmp_path, console):
    """A multimodal file is refused saying why; with its media dropped in the dialog it registers, and the
    registration says what was dropped and which columns training will not read."""
    console.expect("status of 422")
    path = tmp_path / "mllm.jsonl"
    chat = [{"role": "user", "content": "<image>Who are they?"}, {"role": "assistant", "content": "Players."}]
    write_jsonl(path, [{"messages": chat, "images": [f"{n}.jpg"], "source": "demo"} for n in range(3)])

    page.goto(f"{ui_server.url}/datasets")
    open_upload(page, path)
    page.get_by_test_id("upload-submit").click()
    expect(page.locator(".el-dialog")).to_contain_text("multimodal training is not supported")

    page.locator("[data-field='drop_columns']").click()
    page.keyboard.type("images")
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    page.get_by_test_id("upload-submit").click()
    page.wait_for_url(re.compile(r"/datasets/[0-9a-f]{32}$"))
    expect(page.get_by_test_id("dropped-columns")).to_have_text("images")
    expect(page.get_by_test_id("unused-columns")).to_have_text("source")
    assert ui_server.api.get("/datasets/mllm").json()["dropped_columns"] == ["images"]
