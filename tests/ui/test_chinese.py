"""The Chinese UI carries no English sentence from the server: every page a new user meets (the jobs list, a running
job, a failed job with its events, the new-job form with errors, the datasets list, a dataset with its audit, the
configurator, settings) is opened in zh-CN, and each English sentence found in the API's answers to that page is
looked for in what the page shows. Words that are not the platform's own (a log line, a dataset's rows, the
exception a log holds, names and paths a user gave) travel as they are and are not the platform's to translate."""

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Response, expect

from tests.support.helpers import wait_until
from tests.support.jobs import sft_body
from tests.ui.conftest import SCREENSHOTS, log_in
from tests.ui.elements import choose

# Four or more words of Latin letters in a row, with nothing Chinese in the string: a sentence, not a name or a key.
ENGLISH_SENTENCE = re.compile(r"[A-Za-z][A-Za-z']+(?:[ ,;:()-]+[A-Za-z][A-Za-z']+){3,}")
CJK = re.compile(r"[\u3400-\u9fff]")
# Where the API hands on words that are not its own.
NOT_THE_PLATFORMS = {
    "lines",  # a log's lines (GET /jobs/{job}/logs)
    "rows",  # a dataset's rows
    "row",
    "values",  # a row's fields in an audit finding
    "cause",  # the exception line a failed job's log holds, quoted as it is
    "description",  # what a user wrote about a dataset or model
}


def strings(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """Every string in a JSON answer with the key that holds it (a list's items under the list's key)."""
    if isinstance(value, dict):
        for inner_key, inner in value.items():
            yield from strings(inner, str(inner_key))
    elif isinstance(value, list):
        for inner in value:
            yield from strings(inner, key)
    elif isinstance(value, str):
        yield key, value


def server_sentences(answer: Any) -> Iterator[tuple[str, str]]:
    """The English sentences of a JSON answer with their keys, but for words that are not the platform's: under the
    keys that carry such words, and the same words wherever else they are repeated (a trainer's last message is part
    of the exception line the failure quotes)."""
    found = list(strings(answer))
    foreign = {text for key, text in found if key in NOT_THE_PLATFORMS}
    for key, text in found:
        repeated = any(text in other for other in foreign)
        if key not in NOT_THE_PLATFORMS and not repeated and not CJK.search(text) and ENGLISH_SENTENCE.search(text):
            yield key, text


class Scan:
    """The API's JSON answers to a page, and the English sentences among them that the page shows."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.answers: list[Response] = []
        self.found: dict[str, list[str]] = {}
        page.on("response", lambda response: self.answers.append(response))

    def visit(self, name: str) -> None:
        """Call once the page shows what it is tested for: reads its answers, then what it shows."""
        self.page.wait_for_load_state("networkidle")
        sentences = set()
        for answer in self.answers:
            if "/api/v1/" in answer.url and "json" in (answer.headers.get("content-type") or ""):
                try:
                    found = list(server_sentences(answer.json()))
                except Exception:  # an answer whose body the browser no longer holds: a page left behind
                    continue
                path = answer.url.split("/api/v1", 1)[1].split("?")[0]
                sentences.update((f"{path} {key}", sentence) for key, sentence in found)
        self.answers.clear()
        shown = " ".join(self.page.locator("body").inner_text().split())
        leaked = sorted(f"{key}: {sentence}" for key, sentence in sentences if " ".join(sentence.split()) in shown)
        if leaked:
            self.found[name] = leaked
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / f"chinese-{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def running_job(ui_server, demo_assets) -> Iterator[dict]:
    """A demo SFT job long enough to be running while its page is read; stopped afterwards."""
    job = ui_server.create_job(**sft_body(demo_assets, "ui-zh-running", max_steps=5000), start=True)

    def stepping():
        read = ui_server.job(job["id"])
        assert read["status"] in ("pending", "queued", "running"), read["error"]
        return read if (read["progress"] or {}).get("current_step", 0) >= 1 else None

    yield wait_until(stepping, 180, message="the job's first step")
    ui_server.api.post(f"/jobs/{job['id']}/stop")


def test_no_page_shows_an_english_sentence_from_the_server(browser: Browser, ui_server, running_job, failed_job):
    dataset = ui_server.api.get("/datasets/demo-sft").json()
    audit = ui_server.api.post(f"/datasets/{dataset['id']}/audit", json={})
    assert audit.status_code == 202, audit.text
    task = audit.json()["id"]
    wait_until(
        lambda: ui_server.api.get(f"/datasets/{dataset['id']}/tasks/{task}").json()["status"] == "completed",
        120,
        message="the audit",
    )
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
    page = context.new_page()
    scan = Scan(page)
    try:
        log_in(page, ui_server)
        expect(page.locator("h1")).to_have_text("训练任务")
        scan.visit("jobs")

        page.goto(f"{ui_server.url}/jobs/{running_job['id']}")
        expect(page.locator(".page-header").get_by_text("运行中")).to_be_visible()
        scan.visit("job-running")
        page.goto(f"{ui_server.url}/jobs/{failed_job['id']}")
        expect(page.get_by_test_id("failure")).to_be_visible()
        page.get_by_role("tab", name="事件").click()
        scan.visit("job-failed")

        page.goto(f"{ui_server.url}/jobs/new")
        page.locator("[data-field='name']").fill("名字 不行!")
        choose(page, "model_path", "demo-tiny-qwen2")
        page.get_by_test_id("create-job").click()
        expect(page.locator(".el-form-item__error").first).to_be_visible()
        scan.visit("job-form-errors")

        page.goto(f"{ui_server.url}/datasets")
        expect(page.get_by_text("demo-sft").first).to_be_visible()
        scan.visit("datasets")
        page.goto(f"{ui_server.url}/datasets/{dataset['id']}")
        expect(page.get_by_role("tab", name="质量检查")).to_have_attribute("aria-selected", "true")
        scan.visit("dataset-audit")

        page.goto(f"{ui_server.url}/compute")
        choose(page, "model", "Qwen2.5-7B")
        choose(page, "gpu", "A100-80G")
        page.get_by_test_id("recommend").click()
        expect(page.get_by_test_id("recommendation")).to_be_visible()
        scan.visit("configurator")

        page.goto(f"{ui_server.url}/settings")
        expect(page.get_by_test_id("run-mode")).to_be_visible()
        scan.visit("settings")
    finally:
        context.close()
    assert scan.found == {}
