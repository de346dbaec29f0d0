"""The owner curates the core profile in a real browser: promote a suggestion, see the tokens change,
demote it again, all in place; and approve a proposal into core from the queue."""

import re

import pytest
from playwright.sync_api import expect

from memories import lifecycle
from memories.models import Memory, MemorySettings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def remember(text, **fields):
    fields.setdefault("kind", "preference")
    return lifecycle.add(text=text, source="chat", source_kind="owner", actor="owner:owner", **fields)


def test_owner_promotes_a_suggestion_sees_the_tokens_change_and_demotes_it(live_server, logged_in):
    page = logged_in
    budget = MemorySettings.load().core_budget_tokens
    remember("User prefers Vietnamese replies with proper diacritics.", subject="language", layer="core")
    address = remember("Call the user anh Minh.", kind="addressing")
    remember("User prefers pnpm.", subject="package_manager")

    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Core profile", exact=True).click()
    expect(page).to_have_url(f"{live_server.url}/core/")
    tokens = page.locator("#core-tokens")
    expect(tokens).to_have_text(re.compile(rf"^\d+ / {budget} tokens$"))
    before = int(tokens.inner_text().split(" ")[0])
    assert before > 0
    expect(page.get_by_text("User prefers pnpm.")).to_have_count(0)

    suggestion = page.locator(f"#suggestion-{address.pk}")
    expect(suggestion).to_contain_text("Call the user anh Minh.")
    suggestion.get_by_role("button", name="Promote to core").click()

    expect(page.get_by_text(f"#{address.pk} is in the core profile: always injected.")).to_be_visible()
    expect(page).to_have_url(f"{live_server.url}/core/")  # in place, no page load
    expect(page.locator("pre.prompt")).to_contain_text("- Call the user anh Minh (confirmed ")
    after = int(tokens.inner_text().split(" ")[0])
    assert after > before
    expect(page.locator(f"#suggestion-{address.pk}")).to_have_count(0)
    assert Memory.objects.get(pk=address.pk).layer == "core"

    page.locator(f"#core-{address.pk}").get_by_role("button", name="Demote to working").click()
    expect(page.get_by_text(f"#{address.pk} is back in working: injected only when relevant.")).to_be_visible()
    expect(tokens).to_have_text(f"{before} / {budget} tokens")
    expect(page.locator(f"#suggestion-{address.pk}")).to_be_visible()
    assert Memory.objects.get(pk=address.pk).layer == "working"


def test_owner_approves_a_proposal_into_core_from_the_queue(live_server, logged_in):
    page = logged_in
    memory = lifecycle.add(
        text="Reply in short paragraphs.",
        kind="communication_preference",
        source="telegram message",
        source_kind="user_message",
        status="pending",
        actor="agent:bestie",
    )

    page.goto(f"{live_server.url}/pending/")
    item = page.locator(f"#item-{memory.pk}")
    expect(item.get_by_text("suggested for core")).to_be_visible()
    item.get_by_role("button", name="Approve into core").click()

    expect(page.locator(f"#item-{memory.pk}")).to_have_text(f"Approved #{memory.pk} into the core profile.")
    page.get_by_role("link", name="Core profile").click()
    expect(page.locator("pre.prompt")).to_contain_text("- Reply in short paragraphs (confirmed ")


def test_the_core_profile_page_in_vietnamese_on_a_phone(live_server, logged_in):
    page = logged_in
    remember("User prefers Vietnamese replies.", subject="language", layer="core")
    remember("Call the user anh Minh.", kind="addressing")
    page.set_viewport_size({"width": 390, "height": 844})

    page.goto(f"{live_server.url}/core/")
    page.get_by_role("button", name="Tiếng Việt").click()

    expect(page.locator("html")).to_have_attribute("lang", "vi")
    expect(page.get_by_role("heading", name="Hồ sơ lõi", exact=True)).to_be_visible()
    widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], "the page scrolls sideways at 390 px"
