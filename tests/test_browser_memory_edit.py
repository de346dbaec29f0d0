"""Changing and adding memories in a real browser (Debian's Chromium, headless): in place, without a page load."""

import pytest
from playwright.sync_api import expect

from memories.models import Memory
from tests.factories import add_memory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def mark_the_page(page):
    """A value only this page load holds: still there afterwards means htmx swapped, nothing reloaded."""
    page.evaluate("window.notReloaded = true")


def not_reloaded(page):
    return page.evaluate("window.notReloaded === true")


def test_owner_edits_a_live_memory_in_place(live_server, logged_in):
    page = logged_in
    memory = add_memory("User likes tea.", subject="")

    page.goto(f"{live_server.url}/memories/{memory.pk}/")
    mark_the_page(page)
    page.get_by_role("link", name="Edit").click()
    form = page.locator("form.edit")
    form.get_by_label("Text").fill("User likes green tea in the morning.")
    form.get_by_label("Subject").fill("drink")
    form.get_by_label("Layer").select_option("core")
    form.get_by_label("Expires after").fill("30d")
    form.get_by_role("button", name="Save").click()

    expect(page.get_by_text(f"Saved #{memory.pk}.")).to_be_visible()
    expect(page.locator("#memory-fields .text")).to_have_text("User likes green tea in the morning.")
    expect(page.locator("form.edit")).to_have_count(0)
    expect(page.locator(".timeline")).to_contain_text("move")
    expect(page).to_have_url(f"{live_server.url}/memories/{memory.pk}/")
    assert not_reloaded(page)
    memory.refresh_from_db()
    assert (memory.text, memory.subject, memory.layer) == ("User likes green tea in the morning.", "drink", "core")
    assert memory.expires_at is not None

    # A refused change is shown on the form, which keeps what was typed; nothing is stored.
    page.get_by_role("link", name="Edit").click()
    page.locator("form.edit").get_by_label("Scope").select_option("project")
    page.locator("form.edit").get_by_role("button", name="Save").click()
    expect(page.locator("form.edit")).to_contain_text("a project-scoped memory needs the project")
    page.locator("form.edit").get_by_role("link", name="Cancel").click()
    expect(page.locator("form.edit")).to_have_count(0)
    assert Memory.objects.get(pk=memory.pk).scope == "core"
    assert not_reloaded(page)


def test_owner_pins_and_unpins_a_memory_from_its_page(live_server, logged_in):
    page = logged_in
    memory = add_memory("User likes tea.")

    page.goto(f"{live_server.url}/memories/{memory.pk}/")
    mark_the_page(page)
    page.get_by_role("button", name="Pin", exact=True).click()
    expect(page.get_by_text(f"Pinned #{memory.pk}.")).to_be_visible()
    assert Memory.objects.get(pk=memory.pk).pinned
    page.get_by_role("button", name="Unpin").click()
    expect(page.get_by_text(f"Unpinned #{memory.pk}.")).to_be_visible()
    assert not Memory.objects.get(pk=memory.pk).pinned
    assert not_reloaded(page)


def test_owner_adds_a_memory_from_the_list(live_server, logged_in):
    page = logged_in
    older = add_memory("User likes tea.")

    page.goto(f"{live_server.url}/memories/")
    mark_the_page(page)
    page.get_by_text("Add a memory").click()
    form = page.locator("#add form")
    form.get_by_label("Text").fill("User's dog is called Mochi.")
    form.get_by_label("Kind").fill("fact")
    form.get_by_label("Subject").fill("pet")
    form.get_by_role("button", name="Add").click()

    expect(page.locator("#add")).to_contain_text("Added #")
    memory = Memory.objects.exclude(pk=older.pk).get()
    expect(page.locator("#add")).to_contain_text(f"Added #{memory.pk}.")
    expect(page.locator("#table").get_by_role("link", name=str(memory.pk), exact=True)).to_be_visible()
    expect(page.locator("#table")).to_contain_text("User's dog is called Mochi.")
    assert not_reloaded(page)
    assert (memory.kind, memory.subject, memory.status, memory.source_kind) == ("fact", "pet", "approved", "owner")
