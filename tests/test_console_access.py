"""Every console page needs the owner's login; CSRF on every form; the console in Vietnamese."""

import pytest
from django.test import Client

from memories.models import AgentToken, Memory, MemorySettings
from tests.conftest import OWNER_PASSWORD
from tests.console import HTMX, propose, text_of

pytestmark = pytest.mark.django_db


GET_URLS = [
    "/",
    "/pending/",
    "/pending/1/",
    "/pending/1/edit/",
    "/pending/filtered/?decision=approve",
    "/pending/reject-all/",
    "/memories/",
    "/memories/1/",
    "/core/",
    "/memories/1/edit/",
    "/export/",
    "/settings/",
    "/jobs/",
    "/channels/",
    "/channels/1/edit/",
    "/channels/1/remove/",
    "/backups/",
    "/backups/bestie-20260601-030000.sqlite3/download/",
    "/backups/bestie-20260601-030000.sqlite3/restore/",
]
POST_URLS = [
    "/pending/decide/",
    "/pending/filtered/",
    "/pending/reject-all/",
    "/pending/1/edit/",
    "/pending/1/approve/",
    "/pending/1/reject/",
    "/pending/1/approve-update/",
    "/pending/1/approve-core/",
    "/core/1/promote/",
    "/core/1/demote/",
    "/memories/bulk/",
    "/memories/add/",
    "/memories/1/edit/",
    "/memories/1/pin/",
    "/memories/1/unpin/",
    "/memories/1/confirm/",
    "/history/1/revert/",
    "/undo/",
    "/settings/policies/",
    "/settings/pause/",
    "/settings/tokens/",
    "/settings/tokens/revoke/",
    "/jobs/schedule/",
    "/channels/add/",
    "/channels/1/edit/",
    "/channels/1/remove/",
    "/channels/1/test/",
    "/channels/digest/",
    "/backups/now/",
    "/backups/bestie-20260601-030000.sqlite3/restore/",
]


@pytest.mark.parametrize("url", GET_URLS)
def test_a_logged_out_visit_to_a_console_page_goes_to_the_login_page(client, url):
    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"].startswith("/login/?next=")


@pytest.mark.parametrize("url", POST_URLS)
def test_a_logged_out_post_changes_nothing_and_goes_to_the_login_page(client, url):
    memory = propose()
    response = client.post(
        url.replace("/1/", f"/{memory.pk}/"),
        {"ids": [memory.pk], "action": "approve", "decision": "approve", "confirm": "yes", "name": "intruder"},
    )

    assert response.status_code == 302
    assert response["Location"].startswith("/login/?next=")
    assert Memory.objects.get(pk=memory.pk).status == "pending"
    assert Memory.objects.get(pk=memory.pk).layer == "working"
    assert Memory.objects.count() == 1 and not Memory.objects.get(pk=memory.pk).pinned
    assert MemorySettings.load().paused is False
    assert not AgentToken.objects.exists()


def test_an_htmx_call_after_the_session_ended_sends_the_browser_to_log_in(client):
    memory = propose()

    response = client.post(
        f"/pending/{memory.pk}/approve/",
        follow=True,
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL="http://testserver/pending/?kind=preference",
    )

    assert response["HX-Redirect"] == "/login/?next=%2Fpending%2F%3Fkind%3Dpreference"
    assert Memory.objects.get(pk=memory.pk).status == "pending"


def test_the_owner_logs_in_and_out(client, owner):
    page = client.get("/login/?next=/pending/")
    assert 'name="password"' in text_of(page)

    wrong = client.post("/login/", {"username": "owner", "password": "wrong", "next": "/pending/"})
    assert wrong.status_code == 200
    assert "correct username and password" in text_of(wrong)

    response = client.post("/login/", {"username": "owner", "password": OWNER_PASSWORD, "next": "/pending/"})
    assert response.status_code == 302 and response["Location"] == "/pending/"
    assert client.get("/pending/").status_code == 200

    assert client.post("/logout/")["Location"] == "/login/"
    assert client.get("/pending/").status_code == 302


def test_the_admin_keeps_its_own_login(client):
    response = client.get("/admin/")

    assert response["Location"].startswith("/admin/login/")


def test_csrf_is_enforced_on_console_posts(owner):
    memory = propose()
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)

    refused = client.post(f"/pending/{memory.pk}/approve/")
    assert refused.status_code == 403
    assert Memory.objects.get(pk=memory.pk).status == "pending"
    assert client.post("/settings/pause/", {"action": "pause"}).status_code == 403
    assert MemorySettings.load().paused is False

    # The token htmx sends from <body hx-headers>: the page carries it, the header is accepted.
    page = text_of(client.get("/pending/"))
    token = page.split('"X-CSRFToken": "')[1].split('"')[0]
    accepted = client.post(f"/pending/{memory.pk}/approve/", HTTP_X_CSRFTOKEN=token, **HTMX)
    assert accepted.status_code == 200
    assert Memory.objects.get(pk=memory.pk).status == "approved"


def test_the_console_speaks_vietnamese(console):
    propose("Người dùng thích phở.")

    response = console.post("/i18n/setlang/", {"language": "vi", "next": "/pending/"})
    assert response["Location"] == "/pending/"
    page = text_of(console.get("/pending/"))

    assert '<html lang="vi">' in page
    assert "Đề xuất chờ duyệt" in page
    assert "Duyệt" in page
