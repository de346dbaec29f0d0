"""The doctor's journeys in a real browser: review and merge a duplicate group, confirm a cleanup."""

import re

import pytest
from playwright.sync_api import expect

from memories.models import AuditEvent, Memory
from tests.factories import add_memory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_owner_reviews_and_merges_a_duplicate_group(live_server, logged_in):
    page = logged_in
    group = [
        add_memory("User prefers Vietnamese.", subject="language").pk,
        add_memory("User wants Vietnamese-first.", subject="language").pk,
        add_memory("Always answer in Vietnamese with diacritics.", subject="language").pk,
    ]
    page.goto(f"{live_server.url}/doctor/")
    page.get_by_role("link", name="Review merge").click()
    for memory_id in group:
        expect(page.locator(f"#member-{memory_id}")).to_be_visible()
    text = "User prefers Vietnamese replies with proper diacritics unless they ask for another language."
    expect(page.get_by_label(re.compile("Merged text"))).to_have_value("Always answer in Vietnamese with diacritics.")
    page.get_by_label(re.compile("Merged text")).fill(text)
    page.get_by_role("button", name="Merge").click()
    expect(page.get_by_role("status")).to_contain_text("Merged #")
    merged = Memory.objects.get(text=text)
    assert set(Memory.objects.filter(pk__in=group).values_list("superseded_by_id", flat=True)) == {merged.pk}
    assert AuditEvent.objects.filter(event="merge", memory_id=merged.pk).exists()


def test_owner_confirms_a_cleanup_plan(live_server, logged_in):
    page = logged_in
    noise = add_memory("ok thanks", subject="chat").pk
    page.goto(f"{live_server.url}/doctor/cleanup/")
    expect(page.locator(".step-soft_delete")).to_contain_text(f"#{noise}")
    page.get_by_label("I reviewed this plan: apply it").check()
    page.get_by_role("button", name="Apply this plan").click()
    expect(page.locator("#progress")).to_contain_text("[1/1] soft-delete")
    expect(page.locator("#progress")).to_contain_text("soft-deleted 1")
    assert Memory.objects.get(pk=noise).deleted_at is not None
