"""The channels and backups pages in a real browser (Debian's Chromium, headless): an email channel added
and tested against a local SMTP server; a backup made by a real job cluster and listed."""

import pytest
from playwright.sync_api import expect

from governance import backups
from governance.models import DigestChannel
from tests.factories import add_memory, child_env
from tests.servers import job_cluster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def backup_cluster(settings, tmp_path):
    """The job cluster on this test's database, backing up into ``tmp_path``; stopped after."""
    settings.BESTIE_BACKUP_DIR = tmp_path / "backups"
    env = {**child_env(), "BESTIE_BACKUP_DIR": str(settings.BESTIE_BACKUP_DIR), "BESTIE_Q_WORKERS": "1"}
    with job_cluster(env, tmp_path / "qcluster.log"):
        yield settings.BESTIE_BACKUP_DIR


def test_owner_adds_an_email_channel_and_sends_it_a_test(live_server, logged_in, smtp):
    page = logged_in
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Channels").click()

    page.get_by_label("Kind").select_option("email")
    page.get_by_label("Target").fill("owner at example.com")
    page.get_by_role("button", name="Add channel").click()
    expect(page.get_by_text("a target for email must be an email address like you@example.com")).to_be_visible()
    assert not DigestChannel.objects.exists()

    page.get_by_label("Target").fill("owner@example.com")
    page.get_by_role("button", name="Add channel").click()
    expect(page.locator(".messages")).to_contain_text("The digest now goes to email:owner@example.com too.")
    channel = DigestChannel.objects.get()

    item = page.locator(f"#channel-{channel.pk}")
    item.get_by_role("button", name="Send test").click()

    expect(item.get_by_role("status")).to_have_text("Test sent to email:owner@example.com: check that it arrived.")
    expect(page).to_have_url(f"{live_server.url}/channels/")  # in place, no page load
    [(recipients, mail)] = smtp.messages
    assert recipients == ["owner@example.com"] and mail["Subject"] == "Bestie memory: a test of this channel"


@pytest.mark.sqlite
def test_owner_makes_a_backup_through_the_job_cluster_and_sees_it_listed(live_server, logged_in, backup_cluster):
    add_memory("User prefers concise replies.")
    page = logged_in
    page.goto(f"{live_server.url}/backups/")
    expect(page.get_by_text("No backup yet.")).to_be_visible()

    page.get_by_role("button", name="Back up now").click()

    # The page polls until the cluster has made it, then lists it.
    expect(page.get_by_text("integrity ok")).to_be_visible(timeout=30_000)
    [made] = backups.backups(backup_cluster)
    listed = page.locator("#backups .item").filter(has_text=made.name)
    expect(listed).to_be_visible()
    expect(listed.get_by_role("link", name="Download")).to_have_attribute("href", f"/backups/{made.name}/download/")
    assert backups.integrity_problems(made) == []
