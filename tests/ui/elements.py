"""Driving Element Plus widgets the way a person does: click the select, click the option."""

from playwright.sync_api import Locator, Page


def choose(page: Page, field: str, option: str) -> None:
    """Open the select marked data-field=`field` and click the visible option whose text contains `option`."""
    page.locator(f"[data-field='{field}']").first.click()
    page.locator(".el-select-dropdown__item:visible", has_text=option).first.click()


def form_item(page: Page, label: str) -> Locator:
    """The form item whose label reads `label` (its error message, if any, is inside it)."""
    return page.locator(".el-form-item").filter(has=page.locator(".el-form-item__label", has_text=label)).first


def chart(page: Page, title: str) -> Locator:
    return page.locator(f".metric-chart[data-chart='{title}']")


def points(page: Page, title: str) -> int:
    return int(chart(page, title).get_attribute("data-points") or 0)
