"""The page of a job that failed: its banner quotes the cause its log holds and links to that line in the logs, in
English and in Chinese; Resume is not offered first (resumed, the run would fail the same way); its health is
unknown and no step count is made up, since it never logged a step."""

from playwright.sync_api import Page, expect


def test_the_banner_quotes_the_cause_and_resume_is_not_offered_first(page: Page, ui_server, failed_job):
    failure = failed_job["failure"]
    assert failed_job["status"] == "failed" and failure["kind"] == "exception", failed_job["error"]
    assert failure["resume_advised"] is False and failure["cause_stream"] == "stderr"
    page.goto(f"{ui_server.url}/jobs/{failed_job['id']}")
    banner = page.get_by_test_id("failure")
    expect(banner).to_contain_text(f"exited with code {failed_job['exit_code']}")
    expect(banner.get_by_test_id("failure-cause")).to_have_text(failure["cause"])
    expect(banner.get_by_test_id("failure-advice")).to_contain_text("fail the same way")
    expect(page.locator("[data-action=resume]")).to_have_attribute("data-primary", "false")
    expect(page.locator(".page-header").get_by_test_id("health")).to_have_attribute("data-health", "unknown")
    expect(page.get_by_test_id("no-steps")).to_have_text("No steps logged")

    banner.get_by_test_id("failure-reveal").click()
    revealed = page.get_by_test_id("revealed-line")
    expect(revealed).to_contain_text(failure["cause"])
    expect(revealed).to_be_in_viewport()


def test_the_banner_and_the_events_in_chinese(page: Page, ui_server, failed_job):
    page.evaluate("localStorage.setItem('tplat.locale', 'zh-CN')")
    page.goto(f"{ui_server.url}/jobs/{failed_job['id']}")
    banner = page.get_by_test_id("failure")
    expect(banner).to_contain_text(f"退出码 {failed_job['exit_code']}")
    expect(banner.get_by_test_id("failure-cause")).to_have_text(failed_job["failure"]["cause"])  # the log's own words
    expect(banner.get_by_test_id("failure-advice")).to_contain_text("同样的方式失败")
    expect(page.locator(".page-header").get_by_test_id("health")).to_have_text("未知")
    page.get_by_role("tab", name="事件").click()
    events = page.locator(".events")
    expect(events).to_contain_text("由用户启动")
    expect(events).not_to_contain_text("started by user")
