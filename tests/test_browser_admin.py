"""The owner's first journey in a real browser: log in to the admin."""

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import OWNER_PASSWORD

pytestmark = pytest.mark.browser


def test_owner_logs_in_through_the_admin_form(live_server, page, owner):
    page.goto(f"{live_server.url}/admin/")
    expect(page).to_have_url(re.compile(r"/admin/login/\?next=/admin/$"))
    page.get_by_label("Username:").fill("owner")
    page.get_by_label("Password:").fill(OWNER_PASSWORD)
    page.get_by_role("button", name="Log in").click()

    expect(page).to_have_url(f"{live_server.url}/admin/")
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()
    expect(page.get_by_title("Models in the Memories application")).to_have_text("Memories")


def test_logged_out_visit_to_an_admin_page_goes_to_the_login_page(live_server, page):
    page.goto(f"{live_server.url}/admin/memories/memory/")

    expect(page).to_have_url(re.compile(r"/admin/login/\?next=/admin/memories/memory/$"))
    expect(page.get_by_role("button", name="Log in")).to_be_visible()
