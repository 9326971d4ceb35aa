"""Remote hosts in the browser: an admin adds a real sshd machine through the dialog (its private key pasted), tests
the connection and reads the report, finds run mode ssh:remote in the job form, syncs a dataset to the host from the
datasets list, and reads the hosts page in Chinese."""

import base64
import secrets
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.support.helpers import ServerProcess
from tests.support.sshd import RemoteMachine, start_remote_machine
from tests.ui.conftest import create_user, log_in, screenshot

ADMIN = "ui-host-admin"
ADMIN_PASSWORD = "ui-host-admin-password-1"
DATASET = "demo-sft"


@pytest.fixture(scope="module")
def machine(tmp_path_factory) -> Iterator[RemoteMachine]:
    with start_remote_machine(tmp_path_factory.mktemp("remote")) as remote:
        yield remote


@pytest.fixture(scope="module")
def hosts_server(tmp_path_factory, demo_assets) -> Iterator[ServerProcess]:
    """A server that can keep a host's credentials (PLATFORM_SECRET_KEY), one registered dataset and an admin."""
    server = ServerProcess(home=tmp_path_factory.mktemp("hosts_ui_home"))
    server.env["PLATFORM_SECRET_KEY"] = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()
    server.start()
    try:
        create_user(server, ADMIN, ADMIN_PASSWORD, "admin")
        response = server.api.post("/datasets", json={"name": DATASET, "path": str(demo_assets["sft"]), "kind": "sft"})
        assert response.status_code == 201, response.text
        yield server
    finally:
        server.shutdown()


def test_an_admin_adds_a_host_tests_it_runs_jobs_there_and_syncs_a_dataset(
    anonymous_page: Page, hosts_server: ServerProcess, machine: RemoteMachine
):
    page = anonymous_page
    log_in(page, hosts_server, ADMIN, ADMIN_PASSWORD, path="/hosts")
    expect(page.locator("h1")).to_have_text("Remote hosts")
    expect(page.locator(".hosts-table")).to_contain_text("No remote hosts yet.")

    page.get_by_test_id("add-host").click()
    dialog = page.get_by_test_id("host-dialog")
    dialog.locator("[data-field='host.name']").fill("remote")
    dialog.locator("[data-field='host.host']").fill(machine.host)
    dialog.locator("[data-field='host.port'] input").fill(str(machine.port))
    dialog.locator("[data-field='host.username']").fill(machine.username)
    dialog.locator("[data-field='host.private_key']").fill(machine.private_key)
    dialog.locator("[data-field='host.work_dir']").fill(str(machine.home / "tplat"))
    dialog.locator("[data-field='host.python']").fill(machine.python)
    dialog.get_by_test_id("add-variable").click()
    dialog.locator("[data-field='host.variable.name']").fill("HF_HUB_OFFLINE")
    dialog.locator("[data-field='host.variable.value']").fill("1")
    dialog.get_by_test_id("host-create").click()
    expect(dialog).to_be_hidden()

    row = page.locator(".hosts-table .el-table__row", has_text="remote")
    expect(row.get_by_test_id("host-address")).to_have_text(f"{machine.username}@{machine.host}:{machine.port}")
    expect(row.get_by_test_id("host-tested-at")).to_have_text("not tested yet")
    host = hosts_server.api.get("/hosts/remote").json()
    assert host["auth"] == "key" and host["environment"] == {"HF_HUB_OFFLINE": "1"}

    row.get_by_test_id("test-host").click()
    result = page.get_by_test_id("host-test")
    expect(result).to_have_attribute("data-ok", "true", timeout=30_000)
    expect(result).to_contain_text("First connection: the host key SHA256:")
    python = hosts_server.api.get("/hosts/remote").json()["report"]["python"]
    expect(result.get_by_test_id("report-python")).to_have_text(python)
    expect(result.get_by_test_id("report-package")).to_have_text(hosts_server.api.get("/system").json()["version"])
    expect(row.get_by_test_id("host-fingerprint")).to_contain_text("SHA256:")
    expect(row).to_contain_text(f"Python {python}")
    screenshot(page, "hosts")

    page.goto(f"{hosts_server.url}/jobs/new")
    page.locator("[data-field='run_mode']").click()
    expect(page.locator(".el-select-dropdown__item:visible", has_text="ssh:remote")).to_be_visible()
    page.keyboard.press("Escape")

    page.goto(f"{hosts_server.url}/datasets")
    dataset_row = page.locator(".datasets-table .el-table__row", has_text=DATASET)
    state = dataset_row.get_by_test_id("sync-state")
    expect(state).to_have_attribute("data-state", "not_synced")
    expect(state).to_have_text("Not synced")
    dataset_row.get_by_test_id("sync-dataset").click()
    expect(state).to_have_attribute("data-state", "synced", timeout=30_000)
    expect(state).to_have_text("Synced")
    screenshot(page, "datasets-host-sync")
    [copy] = hosts_server.api.get("/hosts/remote/datasets").json()
    assert copy["state"] == "synced" and copy["bytes_done"] == copy["bytes_total"] > 0

    page.goto(f"{hosts_server.url}/hosts")
    page.get_by_test_id("language").click()
    page.locator(".el-select-dropdown__item:visible", has_text="简体中文").click()
    expect(page.locator("h1")).to_have_text("远程主机")
    expect(page.locator(".hosts-table .el-table__row", has_text="remote")).to_contain_text("测试连接")
    page.goto("about:blank")  # the datasets page is gone already; nothing keeps polling the server stopped next
