"""The console's icon: linked from every page, and /favicon.ico answers for browsers that ask for it."""

import urllib.request
from xml.etree import ElementTree

import pytest
from django.contrib.staticfiles import finders

from tests.console import text_of

pytestmark = pytest.mark.django_db

ICON = "/static/favicon.svg"


def test_favicon_ico_sends_the_browser_to_the_icon_without_a_login(outsider):
    response = outsider.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == ICON
    assert ElementTree.parse(finders.find("favicon.svg")).getroot().tag == "{http://www.w3.org/2000/svg}svg"


def test_every_page_links_the_icon(outsider, console):
    link = f'<link rel="icon" href="{ICON}" type="image/svg+xml">'
    assert link in text_of(outsider.get("/login/"))
    for url in ("/", "/memories/", "/settings/", "/jobs/"):
        assert link in text_of(console.get(url))


def test_the_running_console_answers_favicon_ico_with_the_icon(live_server):
    with urllib.request.urlopen(f"{live_server.url}/favicon.ico") as response:
        assert response.status == 200 and response.url.endswith(ICON)
        assert response.headers.get_content_type() == "image/svg+xml"
        assert response.read().startswith(b"<svg")
