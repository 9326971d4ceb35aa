"""Data format presets in the browser: the upload dialog detects a file's format from its first rows and shows
them as the engines receive them; the dataset page shows the format and the normalised rows; the loss preview and
the new-job form take SFT's `train_on`."""

import json
import re

from playwright.sync_api import Page, expect

from tests.ui.conftest import PASSWORD, USER, screenshot
from tests.ui.elements import choose
from training_platform.datafiles.layout import SUPPORTED_SUFFIXES


def sharegpt_rows() -> list[dict]:
    return [
        {
            "conversations": [
                {"from": "human", "value": f"What is {n} plus {n}?"},
                {"from": "gpt", "value": f"It is {2 * n}."},
                {"from": "human", "value": "And doubled?"},
                {"from": "gpt", "value": f"That makes {4 * n}."},
            ],
            "source": "arithmetic",
        }
        for n in range(12)
    ]


def test_sharegpt_upload_detected_format_normalised_rows_and_loss_turns(page: Page, ui_server, tmp_path):
    data = tmp_path / "chats.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in sharegpt_rows()), encoding="utf-8")

    page.goto(f"{ui_server.url}/datasets")
    page.get_by_test_id("upload-dataset").click()
    page.locator("[data-testid='file-drop'] input[type=file]").set_input_files(str(data))
    # The first rows, read in the browser, fit the sharegpt preset; they are shown as the engines receive them.
    expect(page.get_by_test_id("detected-format")).to_contain_text("Detected format: sharegpt")
    expect(page.get_by_test_id("unused-columns")).to_contain_text("source")
    first = page.get_by_test_id("detect-rows").locator("[data-row='1']")
    expect(first).to_contain_text('"messages"')
    expect(first).to_contain_text('"role": "assistant"')
    expect(first).to_contain_text("What is 0 plus 0?")
    screenshot(page, "upload-format-detected")
    page.get_by_test_id("upload-submit").click()
    page.wait_for_url(re.compile(r"/datasets/[0-9a-f]{32}$"))
    expect(page.get_by_test_id("dataset-name")).to_have_text("chats")
    expect(page.get_by_test_id("dataset-preset")).to_have_text("sharegpt")
    assert ui_server.api.get("/datasets/chats").json()["preset"] == "sharegpt"

    page.get_by_role("tab", name="Preview").click()
    rows = page.get_by_test_id("rows")
    expect(rows.locator("thead")).to_contain_text("conversations")
    page.get_by_test_id("rows-normalised").click()
    expect(rows.locator("thead")).to_contain_text("messages")
    expect(rows.locator("thead")).not_to_contain_text("conversations")
    expect(rows.locator(".el-table__row").first).to_contain_text("What is 0 plus 0?")
    screenshot(page, "dataset-rows-normalised")

    # Both assistant turns carry the loss by default; only the last one when the job trains on it alone.
    rows.locator(".el-table__row").first.click()
    drawer = page.get_by_test_id("rows-drawer")
    drawer.get_by_test_id("show-loss").click()
    preview = drawer.get_by_test_id("loss-preview")
    expect(preview.locator(".carries")).to_have_count(2, timeout=60_000)  # the server loads the tokenizer
    choose(page, "train_on", "last assistant turn")
    expect(preview.locator(".carries")).to_have_count(1)
    expect(preview.locator(".carries")).to_contain_text("That makes 0.")


def test_csv_detection_and_train_on_in_the_job_form(page: Page, ui_server, tmp_path):
    data = tmp_path / "alpaca.csv"
    # Quoted fields with commas, doubled quotes and a line break, as the server's CSV reader reads them.
    data.write_text(
        'instruction,input,output\n"Add the numbers, please","2, 3","The sum is 5."\n'
        '"Quote ""this""",,"He said:\nhello"\n',
        encoding="utf-8",
    )
    page.goto(f"{ui_server.url}/datasets")
    page.get_by_test_id("upload-dataset").click()
    page.locator("[data-testid='file-drop'] input[type=file]").set_input_files(str(data))
    expect(page.get_by_test_id("detected-format")).to_contain_text("Detected format: alpaca")
    rows = page.get_by_test_id("detect-rows")
    expect(rows.locator("[data-row='1']")).to_contain_text("Add the numbers, please")
    expect(rows.locator("[data-row='2']")).to_contain_text('Quote \\"this\\"')
    expect(page.get_by_test_id("format-detect")).to_contain_text("The first 2 of 2 rows read")
    choose(page, "preset", "Platform fields")
    expect(page.get_by_test_id("detected-format")).to_contain_text("You chose Platform fields")
    page.locator(".el-dialog").get_by_role("button", name="Cancel").click()

    page.goto(f"{ui_server.url}/jobs/new")
    expect(page.locator("[data-field='train_on']")).to_contain_text("all assistant turns")
    choose(page, "train_on", "last assistant turn")
    expect(page.locator("[data-field='train_on']")).to_contain_text("last assistant turn")
    # Packing is the engine's to decide unless the job says: auto, on or off.
    packing = page.locator("[data-field='packing']")
    expect(packing.locator(".is-active")).to_have_text("Auto")
    packing.get_by_text("Off").click()
    expect(packing.locator(".is-active")).to_have_text("Off")


def test_the_upload_dialog_shows_the_servers_file_types_and_reads_json_lines_named_json(
    page: Page, ui_server, tmp_path
):
    data = tmp_path / "lines.json"  # JSON Lines under .json, as LLaMA-Factory's files may be
    data.write_text("".join(json.dumps(row) + "\n" for row in sharegpt_rows()[:3]), encoding="utf-8")
    page.goto(f"{ui_server.url}/datasets")
    page.get_by_test_id("upload-dataset").click()
    # The accepted types come from the server's one list (GET /datasets/file-types).
    drop = page.get_by_test_id("file-drop")
    expect(drop.locator("input[type=file]")).to_have_attribute("accept", ",".join(SUPPORTED_SUFFIXES))
    expect(drop).to_contain_text(ui_server.api.get("/datasets/file-types").json()["summary"])
    drop.locator("input[type=file]").set_input_files(str(data))
    expect(page.get_by_test_id("detected-format")).to_contain_text("Detected format: sharegpt")
    expect(page.get_by_test_id("detect-rows").locator("[data-row='3']")).to_contain_text("What is 2 plus 2?")
    expect(page.locator("[data-field='name']")).to_have_value("lines")
    screenshot(page, "upload-json-lines-named-json")


def test_a_datasets_format_is_changed_in_its_field_configuration(page: Page, ui_server, tmp_path):
    rows = [
        {"prompt": f"p{i}", "response": f"r{i}", "instruction": f"Add {i} and {i}.", "output": str(2 * i)}
        for i in range(4)
    ]
    data = tmp_path / "both.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    # Registered by the member the browser is logged in as: a dataset's format is its owner's to change.
    login = ui_server.anonymous().post(
        "/auth/login", params={"token": True}, json={"username": USER, "password": PASSWORD}
    )
    assert login.status_code == 200, login.text
    body = {"name": "two-formats", "path": str(data), "kind": "sft"}
    created = ui_server.anonymous().post(
        "/datasets", json=body, headers={"Authorization": f"Bearer {login.json()['token']}"}
    )
    assert created.status_code == 201 and created.json()["preset"] is None, created.text

    page.goto(f"{ui_server.url}/datasets/{created.json()['id']}")
    page.get_by_role("tab", name="Field configuration").click()
    choose(page, "fields.preset", "alpaca")
    page.get_by_test_id("save-fields").click()
    expect(page.get_by_test_id("dataset-preset")).to_have_text("alpaca")
    assert ui_server.api.get("/datasets/two-formats").json()["preset"] == "alpaca"
    screenshot(page, "dataset-format-changed")
