"""Training health in the browser: the health badge, the findings panel (messages in both languages, zooming the charts
to a finding, diagnosing again), the gradient heatmap and the system panel from imported files, the job form's health
settings, and the alert targets on the settings page. No training: every job is an imported metrics file."""

import json
import math
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.support.helpers import ServerProcess
from tests.ui.conftest import DEMO_MODEL, create_user, log_in
from tests.ui.elements import chart, choose, form_item, points

ADMIN = "ui-admin"
ADMIN_PASSWORD = "ui-admin-password-1"


@pytest.fixture(scope="module")
def admin(ui_server: ServerProcess) -> str:
    """An admin who logs in through the form: alert targets are an admin's to add, test and delete."""
    create_user(ui_server, ADMIN, ADMIN_PASSWORD, "admin")
    return ADMIN


def ingest(server: ServerProcess, path: Path, job: str) -> None:
    result = server.cli("metrics", "ingest", str(path), "--job", job)
    assert result.returncode == 0, result.stderr


def planted_verl_run(path: Path, steps: int = 200) -> None:
    """verl's file logger: healthy but for gradients above 100 in steps 100-109 and a NaN loss at step 180."""
    with open(path, "w", encoding="utf-8") as handle:
        for step in range(1, steps + 1):
            data = {
                "actor/loss": math.nan if step == 180 else 0.5 - step / 1000,
                "actor/grad_norm": 500.0 if 100 <= step < 110 else 1.0 + (step % 7) / 10,
                "actor/kl_loss": 0.01,
                "critic/score/mean": 0.5 + (step % 5) / 100,
            }
            handle.write(json.dumps({"step": step, "data": data}) + "\n")


LAYERS = ["embed", "000", "001", "002", "003", "head"]


def planted_platform_run(path: Path, steps: int = 100) -> None:
    """The platform's own lines: a loss each step, per-layer gradient norms every 10 steps (the last block's explode
    from step 60), and the CPU and memory samples of a machine without a GPU."""
    with open(path, "w", encoding="utf-8") as handle:
        for step in range(1, steps + 1):
            record: dict = {"step": step, "loss": 2.0 - step / 100}
            if step % 10 == 0:
                for index, layer in enumerate(LAYERS):
                    norm = 1e-3 * 10**index
                    record[f"grad_norm/layer/{layer}"] = norm * (1000 if layer == "003" and step >= 60 else 1)
            record["system/cpu_percent"] = 95.0 + step % 5
            record["system/rss_gib"] = 1.5 + step / 1000
            handle.write(json.dumps(record) + "\n")


def test_a_job_with_findings_is_critical_and_its_findings_zoom_the_charts_in_both_languages(
    anonymous_page: Page, ui_server: ServerProcess, admin: str, tmp_path
):
    page = anonymous_page
    planted_verl_run(tmp_path / "verl.jsonl")
    ingest(ui_server, tmp_path / "verl.jsonl", "planted-ui")
    log_in(page, ui_server, admin, ADMIN_PASSWORD)

    row = page.locator(".jobs-table .el-table__row", has_text="planted-ui")
    expect(row.get_by_test_id("health")).to_have_text("Critical")
    expect(row.get_by_test_id("health")).to_have_attribute("data-health", "critical")
    row.get_by_role("link", name="planted-ui").click()
    expect(page.locator(".page-header").get_by_test_id("health")).to_have_text("Critical")
    # A job in trouble opens on its findings.
    expect(page.get_by_role("tab", name="Health (2)")).to_have_attribute("aria-selected", "true")

    # Worst first, each with its message and suggestions in English.
    findings = page.get_by_test_id("finding")
    expect(findings).to_have_count(2)
    expect(findings.nth(0)).to_have_attribute("data-kind", "non_finite")
    expect(findings.nth(1)).to_have_attribute("data-kind", "grad_explosion")
    non_finite = findings.nth(0)
    expect(non_finite).to_contain_text("Critical")
    expect(non_finite.get_by_test_id("finding-steps")).to_have_text("step 180")
    expect(non_finite.get_by_test_id("finding-message")).to_contain_text("loss not finite (NaN or Inf) at step 180")
    expect(non_finite.locator(".suggestions li").first).not_to_be_empty()
    expect(findings.nth(1).get_by_test_id("finding-steps")).to_have_text("steps 100 to 109")

    # The charts mark the findings; choosing one zooms every chart to its steps, 20 either side, in full detail.
    loss = chart(page, "Loss")
    expect(loss).to_have_attribute("data-last-step", "200")
    assert int(loss.get_attribute("data-marks")) >= 2
    expect(loss).to_have_attribute("data-range", "")
    with page.expect_request(lambda r: "/metrics?" in r.url and "start_step=80" in r.url and "end_step=129" in r.url):
        findings.nth(1).click()
    expect(loss).to_have_attribute("data-range", "80-129")
    expect(chart(page, "Gradient norm")).to_have_attribute("data-range", "80-129")
    expect(page.get_by_text("steps 80 to 129 in full detail")).to_be_visible()
    non_finite.click()
    expect(loss).to_have_attribute("data-range", "160-200")

    # An alert's link names its finding: the page opens zoomed to it.
    grad = next(f for f in ui_server.api.get("/jobs/planted-ui/findings").json() if f["kind"] == "grad_explosion")
    page.goto(f"{ui_server.url}/jobs/planted-ui?finding={grad['id']}")
    expect(loss).to_have_attribute("data-range", "80-129")
    expect(page.locator(".finding.selected")).to_have_attribute("data-kind", "grad_explosion")

    # Diagnosing again finds the same.
    with page.expect_response(lambda r: r.url.endswith("/diagnose") and r.status == 200):
        page.get_by_test_id("diagnose").click()
    expect(findings).to_have_count(2)

    # In Chinese: the same findings, in the detectors' Chinese text.
    page.get_by_test_id("language").click()
    page.locator(".el-select-dropdown__item:visible", has_text="简体中文").click()
    expect(page.locator(".page-header").get_by_test_id("health")).to_have_text("严重")
    expect(non_finite.get_by_test_id("finding-message")).to_contain_text("第 180 步")
    expect(non_finite.get_by_test_id("finding-steps")).to_have_text("第 180 步")
    expect(findings.nth(1)).to_contain_text("梯度爆炸")
    page.get_by_test_id("language").click()
    page.locator(".el-select-dropdown__item:visible", has_text="English").click()  # the next test's language

    # No per-layer norms in this run: no gradient tab. Nor system samples: the system tab says so.
    expect(page.get_by_role("tab", name="Gradients")).to_have_count(0)
    page.get_by_role("tab", name="System").click()
    expect(page.get_by_test_id("no-system")).to_be_visible()


def test_the_gradient_heatmap_and_the_system_panel_chart_what_was_sampled(page: Page, ui_server, tmp_path):
    planted_platform_run(tmp_path / "layers.jsonl")
    ingest(ui_server, tmp_path / "layers.jsonl", "planted-layers")
    page.goto(f"{ui_server.url}/jobs/planted-layers")
    # The layer whose gradients explode is a finding as well as the heatmap's red row.
    expect(page.locator(".page-header").get_by_test_id("health")).to_have_text("Warning")
    finding = page.get_by_test_id("finding")
    expect(finding).to_have_attribute("data-kind", "grad_explosion")
    expect(finding.get_by_test_id("finding-message")).to_contain_text("layer 003")

    page.get_by_role("tab", name="Gradients").click()
    heatmap = page.get_by_test_id("grad-heatmap")
    expect(heatmap).to_have_attribute("data-layers", str(len(LAYERS)))
    expect(heatmap).to_have_attribute("data-columns", "10")  # steps 10, 20, ... 100
    expect(heatmap.locator("canvas").first).to_be_visible()

    page.get_by_role("tab", name="System").click()
    expect(page.get_by_test_id("no-gpu")).to_contain_text("No GPU series")
    for title in ("CPU (%)", "Memory RSS (GiB)"):
        expect(chart(page, title)).to_be_visible()
        expect(chart(page, title)).to_have_attribute("data-points", "100")
    expect(page.get_by_test_id("system-panel").locator(".metric-chart")).to_have_count(2)
    # The system samples are not offered as charts of their own: the system panel has them.
    page.locator("[data-field='add_chart']").click()
    expect(page.locator(".el-select-dropdown__item:visible", has_text="grad_norm/layer/000")).to_be_visible()
    expect(page.locator(".el-select-dropdown__item:visible", has_text="system/")).to_have_count(0)
    assert points(page, "Loss") == 100

    # A run on two GPUs: one chart per GPU series, a line per GPU.
    with open(tmp_path / "gpus.jsonl", "w", encoding="utf-8") as handle:
        for step in range(1, 21):
            record = {"step": step, "loss": 1.0, "system/cpu_percent": 100.0, "system/rss_gib": 3.0}
            for gpu in (0, 1):
                record |= {f"system/gpu{gpu}/utilization": 90.0, f"system/gpu{gpu}/memory_gib": 40.0 + gpu}
                record[f"system/gpu{gpu}/temperature_c"] = 60.0 + step
            handle.write(json.dumps(record) + "\n")
    ingest(ui_server, tmp_path / "gpus.jsonl", "planted-gpus")
    page.goto(f"{ui_server.url}/jobs/planted-gpus")
    page.get_by_role("tab", name="System").click()
    for title in ("GPU utilisation (%)", "GPU memory used (GiB)", "GPU temperature (°C)"):
        expect(chart(page, title)).to_have_attribute("data-points", "20")
    expect(page.get_by_test_id("system-panel").locator(".metric-chart")).to_have_count(5)
    expect(page.get_by_test_id("no-gpu")).to_have_count(0)


def test_the_job_form_sends_the_health_settings(page: Page, ui_server: ServerProcess, console):
    console.expect("status of 422")
    page.goto(f"{ui_server.url}/jobs/new")
    page.locator("[data-field='name']").fill("ui-health")
    choose(page, "model_path", DEMO_MODEL)
    choose(page, "dataset_paths", "demo-sft")
    page.locator("[data-field='start']").click()  # create only: nothing trains

    # Folded away until opened; the API's objection to a setting opens it and stands under the input.
    expect(page.locator("[data-field='health.actions.pause_on_non_finite']")).to_be_hidden()
    page.get_by_test_id("health-settings").locator(".el-collapse-item__header").click()
    page.locator("[data-field='health.actions.pause_on_non_finite']").click()
    page.locator("[data-field='health.actions.lr_factor']").fill("2")
    page.locator("[data-field='health.detectors.grad_explosion.ceiling']").fill("50")
    page.locator("[data-field='health.detectors.loss_plateau.enabled']").click()
    page.get_by_test_id("create-job").click()
    expect(form_item(page, "Learning rate factor").locator(".el-form-item__error")).to_contain_text("less than 1")

    page.locator("[data-field='health.actions.lr_factor']").fill("0.25")
    page.get_by_test_id("create-job").click()
    page.wait_for_url(re.compile(r"/jobs/[0-9a-f]{32}$"))
    job = ui_server.job(page.url.rsplit("/", 1)[1])
    settings = job["health_settings"]
    assert settings["actions"]["pause_on_non_finite"] is True
    assert settings["actions"]["lr_factor"] == 0.25
    assert settings["actions"]["lower_lr_on_grad_explosion"] is False
    assert settings["detectors"]["grad_explosion"] == {"enabled": True, "ceiling": 50.0, "steps": 5}
    assert settings["detectors"]["loss_plateau"]["enabled"] is False
    defaults = ui_server.api.get("/health/defaults").json()["detectors"]
    assert settings["detectors"]["kl_explosion"] == defaults["kl_explosion"]
    # Not started: no finding could have been made yet.
    expect(page.locator(".page-header").get_by_test_id("health")).to_have_text("Unknown")


class Receiver:
    """A webhook on loopback that takes every POST with a 200 and keeps its body."""

    def __init__(self) -> None:
        received = self.received = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                received.append(json.loads(self.rfile.read(int(self.headers["content-length"]))))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    opened = Receiver()
    yield opened
    opened.close()


def test_an_admin_adds_tests_and_deletes_an_alert_target(
    anonymous_page: Page, ui_server: ServerProcess, admin: str, receiver: Receiver, console
):
    console.expect("status of 422")
    page = anonymous_page
    log_in(page, ui_server, admin, ADMIN_PASSWORD, path="/settings")
    targets = page.get_by_test_id("alert-targets")
    expect(targets).to_contain_text("No alert targets yet.")

    page.get_by_test_id("add-alert-target").click()
    dialog = page.get_by_test_id("alert-target-dialog")
    dialog.locator("[data-field='alert.name']").fill("ui-hook")
    dialog.locator("[data-field='alert.url']").fill("ftp://example.com/hook")
    dialog.get_by_test_id("alert-target-create").click()
    url_error = form_item(page, "Webhook URL").locator(".el-form-item__error")
    expect(url_error).to_contain_text("must be an http or https URL")
    assert ui_server.api.get("/alerts/targets").json() == []

    dialog.locator("[data-field='alert.url']").fill(receiver.url)
    dialog.get_by_test_id("alert-target-create").click()
    expect(dialog).to_be_hidden()
    row = targets.locator(".el-table__row", has_text="ui-hook")
    expect(row).to_contain_text("Generic JSON")
    expect(row).to_contain_text("http://127.0.0.1:")

    row.get_by_test_id("send-test").click()
    expect(row.get_by_test_id("test-result")).to_have_attribute("data-ok", "true")
    expect(row.get_by_test_id("test-result")).to_contain_text("Delivered: HTTP 200")
    assert receiver.received and receiver.received[0]["kind"] == "test"
    row.locator(".el-table__expand-icon").click()
    deliveries = targets.get_by_test_id("deliveries")
    expect(deliveries.get_by_test_id("delivery-status")).to_have_text(["delivered"])
    expect(deliveries).to_contain_text("Test alert for target ui-hook")

    row.get_by_test_id("delete-target").click()
    page.locator(".el-message-box").get_by_role("button", name="Delete").click()
    expect(targets.locator(".el-table__row", has_text="ui-hook")).to_have_count(0)
    assert ui_server.api.get("/alerts/targets").json() == []
