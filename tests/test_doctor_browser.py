"""The doctor's journeys in a real browser: compute the report through a real job cluster and see it come,
review and merge a duplicate group, apply a cleanup plan and follow its progress."""

import re
from contextlib import ExitStack

import pytest
from playwright.sync_api import expect

from governance import checkup
from governance.models import JobRun
from memories.models import AuditEvent, Memory
from tests.factories import add_memory, child_env
from tests.servers import job_cluster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def cluster(tmp_path):
    """Starts the job cluster on this test's database when called; stopped after the test."""
    with ExitStack() as stack:
        yield lambda: stack.enter_context(
            job_cluster({**child_env(), "BESTIE_Q_WORKERS": "1"}, tmp_path / "qcluster.log")
        )


def test_owner_recomputes_the_report_and_sees_it_come(live_server, logged_in, cluster):
    page = logged_in
    add_memory("User prefers Vietnamese.", subject="language")
    add_memory("User wants Vietnamese-first.", subject="language")
    page.goto(f"{live_server.url}/doctor/")
    expect(page.get_by_text("No report yet.")).to_be_visible()

    page.get_by_role("button", name="Compute the report").click()

    # Queued, and no cluster yet: the page says so and keeps looking.
    status = page.locator("#status")
    expect(status.get_by_role("status")).to_contain_text("waiting for the job cluster to compute it")
    expect(status.locator("progress")).to_be_visible()
    cluster()
    # The page polls until the cluster has computed it, then shows the report.
    expect(page.get_by_text("1 duplicate group")).to_be_visible(timeout=30_000)
    expect(page.locator("#status")).to_contain_text("Computed 0\xa0minutes ago")
    expect(page).to_have_url(f"{live_server.url}/doctor/")
    assert JobRun.objects.get(job="doctor").outcome == JobRun.Outcome.OK


def test_owner_reviews_and_merges_a_duplicate_group(live_server, logged_in):
    page = logged_in
    group = [
        add_memory("User prefers Vietnamese.", subject="language").pk,
        add_memory("User wants Vietnamese-first.", subject="language").pk,
        add_memory("Always answer in Vietnamese with diacritics.", subject="language").pk,
    ]
    checkup.compute()
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


def test_owner_pages_through_findings_in_place(live_server, logged_in):
    page = logged_in
    for n in range(30):
        add_memory(f"note {n}", subject=f"note {n}")
    checkup.compute()
    page.goto(f"{live_server.url}/doctor/")
    noise = page.locator("#noise")
    expect(noise.locator("li")).to_have_count(25)
    noise.get_by_role("link", name="Next").click()
    expect(page.locator("#noise li")).to_have_count(5)
    expect(page).to_have_url(f"{live_server.url}/doctor/?section=noise&page=2")
    expect(page.locator("#duplicates")).to_be_visible()


def test_owner_applies_a_cleanup_plan_through_the_cluster(live_server, logged_in, cluster):
    page = logged_in
    noise = add_memory("ok thanks", subject="chat").pk
    checkup.compute()
    page.goto(f"{live_server.url}/doctor/cleanup/")
    expect(page.locator(".step-soft_delete")).to_contain_text(f"#{noise}")
    page.get_by_label("I reviewed this plan: apply it").check()
    page.get_by_role("button", name="Apply this plan").click()
    expect(page.locator("#progress")).to_contain_text("waiting for the job cluster to apply it")
    cluster()
    expect(page.locator("#progress")).to_contain_text("soft-deleted 1", timeout=30_000)
    assert Memory.objects.get(pk=noise).deleted_at is not None
