"""Every page at 1280x800 and 1920x1080 (the login page too), the language switch, Settings, the offline API docs,
unknown addresses."""

from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.ui.conftest import DEMO_MODEL, SCREENSHOTS, log_in

PAGES = ["/jobs", "/jobs/new", "/datasets", "/compute", "/pipelines", "/settings"]


def local_only(page: Page, server_url: str) -> list[str]:
    """Record every request the page makes that leaves the platform's own origin (a CDN, a font service)."""
    outside: list[str] = []
    origin = urlparse(server_url).netloc
    page.on("request", lambda request: outside.append(request.url) if urlparse(request.url).netloc != origin else None)
    return outside


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)], ids=["1280x800", "1920x1080"])
def test_every_page_fits_the_window_and_loads_nothing_from_outside(browser: Browser, ui_server, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    outside = local_only(page, ui_server.url)
    model = ui_server.api.get(f"/models/{DEMO_MODEL}").json()["path"]
    body = {"name": f"layout-{size[0]}", "algorithm": "sft", "model_path": model, "dataset_paths": ["dataset:demo-sft"]}
    job = ui_server.api.post("/jobs", json=body).json()
    dataset = ui_server.api.get("/datasets/demo-sft").json()

    def fits(path: str) -> None:
        # No sideways scrolling: the content area is as wide as what it holds.
        overflow = page.evaluate(
            "(() => { const el = document.querySelector('.content') ?? document.body;"
            " return el.scrollWidth - el.clientWidth })()"
        )
        assert overflow <= 1, f"{path} is {overflow}px wider than the window at {size}"

    try:
        page.goto(f"{ui_server.url}/login")
        expect(page.get_by_test_id("login-form")).to_be_visible()
        fits("/login")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"page-login-{size[0]}x{size[1]}.png"))
        log_in(page, ui_server)
        for path in [*PAGES, f"/jobs/{job['id']}", f"/datasets/{dataset['id']}"]:
            page.goto(f"{ui_server.url}{path}")
            page.wait_for_load_state("networkidle")
            fits(path)
            name = path.replace("/", "-").replace(job["id"], "detail").replace(dataset["id"], "detail")
            page.screenshot(path=str(SCREENSHOTS / f"page{name}-{size[0]}x{size[1]}.png"))
    finally:
        context.close()
    assert outside == []
    assert errors == []


# The bound on what a first visit downloads: the login page, then the jobs list after logging in.
FIRST_LOAD_LIMIT_BYTES = 800_000


def test_a_first_visit_downloads_at_most_0_8_mb(browser: Browser, ui_server):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    finished = []
    page.on("requestfinished", lambda request: finished.append(request))
    try:
        log_in(page, ui_server)  # /jobs, sent to the login form, and back
        page.wait_for_load_state("networkidle")
        # What crossed the wire: Chromium's encoded sizes, after the server's compression.
        sizes = {request.url: request.sizes() for request in finished}
    finally:
        context.close()
    transferred = sum(size["responseBodySize"] + size["responseHeadersSize"] for size in sizes.values())
    largest = max(sizes.items(), key=lambda item: item[1]["responseBodySize"])
    assert transferred <= FIRST_LOAD_LIMIT_BYTES, (transferred, largest[0], largest[1])


def test_the_language_follows_the_browser_and_the_switch_sticks(browser: Browser, ui_server):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
    page = context.new_page()
    try:
        # The login page speaks the browser's language too.
        page.goto(f"{ui_server.url}/jobs")
        expect(page.get_by_test_id("login-submit")).to_have_text("登录")
        log_in(page, ui_server)
        expect(page.locator("h1")).to_have_text("训练任务")
        expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
        page.get_by_test_id("language").click()
        page.locator(".el-select-dropdown__item:visible", has_text="English").click()
        expect(page.locator("h1")).to_have_text("Training jobs")
        page.reload()
        expect(page.locator("h1")).to_have_text("Training jobs")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "language-switched.png"))
    finally:
        context.close()


def test_settings_show_the_run_mode_paths_and_versions(page: Page, ui_server):
    page.goto(f"{ui_server.url}/settings")
    system = ui_server.api.get("/system").json()
    expect(page.get_by_test_id("run-mode")).to_contain_text("Local")
    # No Ray cluster is configured here: the page says how one becomes a run mode.
    expect(page.get_by_test_id("ray-help")).to_contain_text("PLATFORM_RAY_ADDRESS")
    expect(page.get_by_test_id("paths")).to_contain_text(system["paths"]["jobs"])
    expect(page.get_by_test_id("paths")).to_contain_text(system["database"])
    expect(page.get_by_test_id("version")).to_have_text(system["version"])
    expect(page.get_by_test_id("about")).to_contain_text(system["packages"]["torch"])


def test_the_api_docs_work_offline_and_unknown_addresses_say_so(page: Page, ui_server, console):
    outside = local_only(page, ui_server.url)
    page.goto(f"{ui_server.url}/docs")
    expect(page.locator(".swagger-ui .opblock-summary-path", has_text="/api/v1/jobs").first).to_be_visible()
    assert outside == []

    page.goto(f"{ui_server.url}/no/such/page")
    expect(page.get_by_text("Page not found")).to_be_visible()
    console.expect("status of 404")
    page.goto(f"{ui_server.url}/jobs/no-such-job")
    expect(page.get_by_text('There is no job "no-such-job".')).to_be_visible()
