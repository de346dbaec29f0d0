"""Undo in a real browser (Debian's Chromium, headless): the banner's button and the history's revert."""

import pytest
from playwright.sync_api import expect

from memories import lifecycle
from memories.models import Memory
from tests.factories import add_memory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def propose(text):
    return lifecycle.add(
        text=text,
        kind="preference",
        source="telegram message",
        source_kind="user_message",
        status="pending",
        actor="agent:bestie",
    )


def test_owner_undoes_an_approval_from_the_banner(live_server, logged_in):
    page = logged_in
    memory = propose("User likes tea in the morning.")
    other = propose("User lives in Huế.")

    page.goto(f"{live_server.url}/pending/")
    page.locator(f"#item-{memory.pk}").get_by_role("checkbox").check()
    page.get_by_role("button", name="Approve selected").click()
    banner = page.locator(".messages li", has_text="Approved 1 proposal.")
    expect(banner).to_be_visible()
    expect(page.locator(f"#item-{memory.pk}")).to_have_count(0)
    assert Memory.objects.get(pk=memory.pk).status == "approved"

    banner.get_by_role("button", name="Undo").click()

    expect(page.get_by_text("Undone: Approved 1 proposal.")).to_be_visible()
    expect(page).to_have_url(f"{live_server.url}/pending/")
    expect(page.locator(f"#item-{memory.pk}")).to_be_visible()
    expect(page.locator(f"#item-{other.pk}")).to_be_visible()
    assert Memory.objects.get(pk=memory.pk).state() == "pending"


def test_owner_undoes_an_approval_made_in_place(live_server, logged_in):
    page = logged_in
    memory = propose("User likes tea in the morning.")

    page.goto(f"{live_server.url}/pending/")
    page.locator(f"#item-{memory.pk}").get_by_role("button", name="Approve", exact=True).click()
    expect(page.locator(f"#item-{memory.pk}")).to_contain_text(f"Approved #{memory.pk}.")
    page.locator(f"#item-{memory.pk}").get_by_role("button", name="Undo").click()

    expect(page.get_by_text(f"Undone: Approved #{memory.pk}.")).to_be_visible()
    expect(page.locator(f"#item-{memory.pk}").get_by_role("button", name="Approve", exact=True)).to_be_visible()
    assert Memory.objects.get(pk=memory.pk).state() == "pending"


def test_owner_reverts_a_change_from_the_memory_history(live_server, logged_in):
    page = logged_in
    memory = add_memory("User likes tea.")
    lifecycle.move(memory.pk, layer="core", actor="owner:cli")

    page.goto(f"{live_server.url}/memories/{memory.pk}/")
    page.get_by_role("button", name="Revert this move").click()

    expect(page.locator(".messages")).to_contain_text("Reverted the move of")
    expect(page.locator(".timeline")).to_contain_text("undo of event #")
    assert Memory.objects.get(pk=memory.pk).layer == "working"
