"""Browser tests: Debian's Chromium driven by Playwright against a real `tplat serve` with the built web UI.

Every test leaves a screenshot in the output directory (PLATFORM_TEST_SCREENSHOTS, default build/ui-screenshots)
and fails if the page logged a console error or threw, unless the test declared that error expected. The server
requires a login like any other: each test's `page` has logged in through the login form as USER, a member.
"""

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect, sync_playwright

from tests.alerts.support import LOOPBACK
from tests.support.helpers import ServerProcess
from tests.support.jobs import sft_body

REPO = Path(__file__).resolve().parents[2]
WEB_INDEX = REPO / "training_platform" / "web" / "index.html"
CHROMIUM = Path(os.environ.get("PLATFORM_TEST_CHROMIUM", "/usr/bin/chromium"))
SCREENSHOTS = Path(os.environ.get("PLATFORM_TEST_SCREENSHOTS", REPO / "build" / "ui-screenshots"))
# Playwright adds --headless itself; the rest keeps Chromium from reaching out to the network or a GPU.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
DEMO_MODEL = "demo-tiny-qwen2"
# The user the browser tests log in as: a member, who owns what they create and reads everyone's.
USER = "alice"
PASSWORD = "alice-ui-password-1"


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not WEB_INDEX.is_file():
        pytest.fail(
            f"the web UI is not built ({WEB_INDEX} is missing): run `make web` (or `make test`, which builds it)"
        )
    if not CHROMIUM.is_file():
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: `make test` installs Debian's chromium package")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def ui_server(tmp_path_factory, demo_assets) -> Iterator[ServerProcess]:
    """A real server whose registry holds the demo model and datasets, as after `tplat demo`."""
    server = ServerProcess(home=tmp_path_factory.mktemp("ui_home"))
    server.env["PLATFORM_ALERT_ALLOWED_NETWORKS"] = LOOPBACK  # the webhook receiver of tests/ui/test_health.py
    server.start()
    try:
        create_user(server, USER, PASSWORD, "member")
        response = server.api.post("/models", json={"name": DEMO_MODEL, "path": str(demo_assets["model"])})
        assert response.status_code == 201, response.text
        for kind in ("sft", "dpo", "grpo"):
            body = {"name": f"demo-{kind}", "path": str(demo_assets[kind]), "kind": kind}
            response = server.api.post("/datasets", json=body)
            assert response.status_code == 201, response.text
        yield server
    finally:
        server.shutdown()


class ConsoleWatch:
    """Console errors and uncaught exceptions of a page; a test names the ones it provokes on purpose."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.expected: list[re.Pattern] = []

    def on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"console error: {message.text} ({message.location.get('url', '')})")

    def on_page_error(self, error: Exception) -> None:
        self.errors.append(f"uncaught: {error}")

    def expect(self, pattern: str) -> None:
        self.expected.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        return [error for error in self.errors if not any(p.search(error) for p in self.expected)]


@pytest.fixture
def console() -> ConsoleWatch:
    return ConsoleWatch()


def create_user(server: ServerProcess, name: str, password: str, role: str) -> None:
    """A user made by the admin through the API (the server's own admin token), as an operator would."""
    response = server.api.post("/auth/users", json={"name": name, "password": password, "role": role})
    assert response.status_code in (200, 201), response.text


def fill_login(page: Page, name: str, password: str) -> None:
    """Type the user name and password into the login form and press the button, as a person does."""
    page.locator("[data-field='username']").fill(name)
    page.locator("[data-field='password']").fill(password)
    page.get_by_test_id("login-submit").click()


def log_in(page: Page, server: ServerProcess, name: str = USER, password: str = PASSWORD, path: str = "/jobs") -> None:
    """Open `path` logged out, get sent to the login form, log in there and land back on `path`."""
    page.goto(f"{server.url}{path}")
    page.wait_for_url(re.compile(r"/login\?next="))
    fill_login(page, name, password)
    page.wait_for_url(re.compile(f"{re.escape(server.url)}{re.escape(path)}$"))
    expect(page.get_by_test_id("user-name")).to_have_text(name)


@pytest.fixture
def anonymous_page(browser: Browser, console: ConsoleWatch, request) -> Iterator[Page]:
    """A fresh browser page that has not logged in; screenshot and console check at the end."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    opened = context.new_page()
    opened.set_default_timeout(30_000)
    opened.on("console", console.on_console)
    opened.on("pageerror", console.on_page_error)
    try:
        yield opened
    finally:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        opened.screenshot(path=str(SCREENSHOTS / f"{request.node.name}.png"))
        context.close()
    assert not console.unexpected(), "\n".join(console.unexpected())


@pytest.fixture
def page(anonymous_page: Page, ui_server: ServerProcess) -> Page:
    """A browser page logged in as USER through the login form."""
    log_in(anonymous_page, ui_server)
    return anonymous_page


def screenshot(page: Page, name: str) -> Path:
    """An extra screenshot under a name of its own (the README's come from here)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


@pytest.fixture(scope="module")
def failed_job(ui_server, demo_assets, tmp_path_factory) -> dict:
    """A demo SFT job whose model's weights are not a weights file: its trainer raises as it loads them."""
    broken = tmp_path_factory.mktemp("broken_model")
    for source in demo_assets["model"].iterdir():
        if source.is_file() and source.suffix != ".safetensors":
            shutil.copy(source, broken / source.name)
    (broken / "model.safetensors").write_bytes(b"these bytes are no safetensors header")
    body = {**sft_body(demo_assets, "ui-fails-fast", max_steps=5), "model_path": str(broken)}
    job = ui_server.create_job(**body, start=True)
    return ui_server.wait_for_status(job["id"], "failed", "completed", timeout=180)
