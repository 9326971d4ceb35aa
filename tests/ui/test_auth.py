"""Logging in and out in the browser, and what a role is shown: a logged-out visit ends on the login form and returns
to the page asked for, a wrong password or a rate limit is said so, a logout ends the session on the server, and a
viewer gets no enabled write buttons; a write forced anyway is refused by the server and its reason shown."""

import re

from playwright.sync_api import Page, expect

from tests.support.helpers import ServerProcess
from tests.ui.conftest import DEMO_MODEL, PASSWORD, USER, create_user, fill_login, log_in

VIEWER = "victor"
VIEWER_PASSWORD = "victor-ui-password-1"


def session_cookies(page: Page) -> list[dict]:
    return [cookie for cookie in page.context.cookies() if cookie["name"] == "tplat_session"]


def test_a_logged_out_visit_shows_the_login_form_then_the_page_asked_for(anonymous_page: Page, ui_server):
    page = anonymous_page
    dataset = ui_server.api.get("/datasets/demo-sft").json()
    page.goto(f"{ui_server.url}/datasets/{dataset['id']}")
    page.wait_for_url(re.compile(r"/login\?next=(/|%2F)datasets(/|%2F)[0-9a-f]{32}$"))
    expect(page.get_by_test_id("login-form")).to_be_visible()
    expect(page.locator(".sidebar")).to_have_count(0)  # nothing of the app shows before a login

    page.goto(f"{ui_server.url}/jobs")
    page.wait_for_url(re.compile(r"/login\?next=(/|%2F)jobs$"))
    fill_login(page, USER, PASSWORD)
    page.wait_for_url(f"{ui_server.url}/jobs")
    expect(page.locator("h1")).to_have_text("Training jobs")
    expect(page.get_by_test_id("user-name")).to_have_text(USER)
    expect(page.get_by_test_id("user-role")).to_have_text("Member")
    cookie = session_cookies(page)[0]
    assert (cookie["httpOnly"], cookie["sameSite"]) == (True, "Strict")
    # A reload keeps the session; the login page sends a logged-in user on.
    page.reload()
    expect(page.get_by_test_id("user-name")).to_have_text(USER)
    page.goto(f"{ui_server.url}/login?next=/compute")
    page.wait_for_url(f"{ui_server.url}/compute")


def test_a_wrong_password_is_refused_and_said_so(anonymous_page: Page, ui_server, console):
    console.expect("status of 401")
    page = anonymous_page
    page.goto(f"{ui_server.url}/login")
    fill_login(page, USER, "not-the-password")
    expect(page.get_by_test_id("login-error")).to_have_text("Wrong user name or password.")
    expect(page.locator("[data-field='password']")).to_have_value("")
    assert page.url == f"{ui_server.url}/login"
    assert session_cookies(page) == []
    # An empty form is not sent at all.
    page.get_by_test_id("login-submit").click()
    expect(page.get_by_test_id("login-error")).to_have_text("Enter your user name and password.")


def test_a_rate_limited_login_says_how_long_to_wait(anonymous_page: Page, ui_server, console):
    # The limit itself is the server's (tested with the API); here, what the form makes of its answer.
    console.expect("status of 429")
    page = anonymous_page
    page.route(
        "**/api/v1/auth/login",
        lambda route: route.fulfill(status=429, headers={"Retry-After": "42"}, json={"detail": "Too many attempts"}),
    )
    page.goto(f"{ui_server.url}/login")
    fill_login(page, USER, PASSWORD)
    expect(page.get_by_test_id("login-error")).to_contain_text(re.compile(r"Try again in (42|41|40) s"))
    expect(page.get_by_test_id("login-submit")).to_be_disabled()


def test_logging_out_ends_the_session_on_the_server(page: Page, ui_server):
    page.goto(f"{ui_server.url}/datasets")
    expect(page.get_by_test_id("upload-dataset")).to_be_visible()
    page.get_by_test_id("logout").click()
    page.wait_for_url(f"{ui_server.url}/login")
    expect(page.get_by_test_id("login-form")).to_be_visible()
    assert session_cookies(page) == []
    assert page.request.get(f"{ui_server.url}/api/v1/auth/me").status == 401
    page.goto(f"{ui_server.url}/datasets")
    page.wait_for_url(re.compile(r"/login\?next=(/|%2F)datasets$"))


def test_a_viewer_gets_no_write_buttons_and_a_forced_write_shows_the_servers_refusal(
    anonymous_page: Page, ui_server: ServerProcess, console
):
    create_user(ui_server, VIEWER, VIEWER_PASSWORD, "viewer")
    model = ui_server.api.get(f"/models/{DEMO_MODEL}").json()["path"]
    job = ui_server.create_job(
        name="not-for-viewers", algorithm="sft", model_path=model, dataset_paths=["dataset:demo-sft"]
    )
    dataset = ui_server.api.get("/datasets/demo-sft").json()
    page = anonymous_page
    log_in(page, ui_server, VIEWER, VIEWER_PASSWORD)
    expect(page.get_by_test_id("user-role")).to_have_text("Viewer")

    expect(page.locator(".jobs-table .el-table__row", has_text="not-for-viewers")).to_be_visible()
    expect(page.get_by_test_id("new-job")).to_have_count(0)
    expect(page.locator("[data-action]")).to_have_count(0)
    page.goto(f"{ui_server.url}/jobs/{job['id']}")
    expect(page.get_by_test_id("job-name")).to_have_text("not-for-viewers")
    expect(page.locator("[data-action]")).to_have_count(0)
    page.goto(f"{ui_server.url}/jobs/new")
    expect(page.get_by_test_id("read-only")).to_be_visible()
    expect(page.get_by_test_id("create-job")).to_be_disabled()
    page.goto(f"{ui_server.url}/datasets")
    expect(page.locator(".datasets-table .el-table__row", has_text="demo-sft")).to_be_visible()
    expect(page.get_by_test_id("upload-dataset")).to_have_count(0)
    expect(page.locator(".datasets-table").get_by_role("button", name="Delete")).to_have_count(0)
    page.goto(f"{ui_server.url}/datasets/{dataset['id']}")
    expect(page.get_by_test_id("run-audit")).to_be_disabled()

    # What the server says to this viewer starting the job...
    refused = page.request.post(f"{ui_server.url}/api/v1/jobs/{job['id']}/start", headers={"origin": ui_server.url})
    assert refused.status == 403
    reason = refused.json()["detail"]
    # ...is what the page shows when it is made to believe its user a member and the button is pressed.
    console.expect("status of 403")
    page.route("**/api/v1/auth/me", lambda route: route.fulfill(json={"name": VIEWER, "role": "member"}))
    page.goto(f"{ui_server.url}/jobs/{job['id']}")
    page.locator("[data-action='start']").click()
    expect(page.locator(".el-message--error")).to_contain_text(reason)
    expect(page.get_by_test_id("job-name")).to_have_text("not-for-viewers")  # the page stays, no crash, no login
    assert ui_server.job(job["id"])["status"] == "pending"
