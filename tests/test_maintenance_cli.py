"""``bestie memory prune | digest | backup | restore | maintenance install/status/remove``."""

import io
import json
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django_q.models import Schedule

from governance import backups
from governance.models import DigestChannel, JobRun
from memories.lifecycle.policies import set_delete_policy
from memories.models import AuditEvent, Memory
from tests.cli import memory, refused
from tests.factories import OWNER, add_memory

NOW = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def expiring(db):
    with time_machine.travel(NOW - timedelta(days=3), tick=False):
        add_memory("User is at a conference this week.", ttl=timedelta(days=1))
        add_memory("User prefers concise replies.")
    with time_machine.travel(NOW, tick=False):
        yield


def channels():
    return sorted(str(channel) for channel in DigestChannel.objects.all())


def digest_cron():
    return Schedule.objects.get(name="bestie-digest").cron


def test_prune_dry_run_says_what_it_would_erase_and_erases_nothing(expiring):
    set_delete_policy("allow", actor=OWNER)
    out = memory("prune", "--dry-run")
    assert out.strip() == (
        "would erase 1 memories (1 expired, 0 superseded over 180 days ago); delete policy allow; nothing erased"
    )
    assert Memory.objects.count() == 2


def test_prune_under_ask_needs_yes(expiring):
    set_delete_policy("ask", actor=OWNER)
    assert "run `bestie memory prune --yes`" in memory("prune")
    assert Memory.objects.count() == 2
    assert memory("prune", "--yes").startswith("erased 1 memories (1 expired, 0 superseded")
    assert list(Memory.objects.values_list("text", flat=True)) == ["User prefers concise replies."]


def test_prune_under_allow_erases_without_asking(expiring):
    set_delete_policy("allow", actor=OWNER)
    assert memory("prune").startswith("erased 1 memories")
    assert Memory.objects.count() == 1


def test_prune_under_deny_is_refused_and_says_how_many_would_go(expiring):
    set_delete_policy("deny", actor=OWNER)
    message = refused("prune", "--yes")
    assert message == (
        "the delete policy is deny: 1 memories would be erased; nothing was. "
        "Change it with `bestie memory policy delete ask|allow`"
    )


def test_install_status_and_remove_channels(db):
    out = memory("maintenance", "install", "--channel", "email:owner@example.com", "--channel", "telegram:123456789")
    assert out.strip() == "digest: added email:owner@example.com, telegram:123456789; schedule '0 9 * * 1'"
    assert channels() == ["email:owner@example.com", "telegram:123456789"]

    memory("maintenance", "install", "--channel", "webhook:https://hooks.example/bestie", "--schedule", "30 18 * * 5")
    assert digest_cron() == "30 18 * * 5"
    status = json.loads(memory("maintenance", "status", "--json"))
    assert status["channels"] == [
        "email:owner@example.com",
        "telegram:123456789",
        "webhook:https://hooks.example/bestie",
    ]
    jobs = {job["schedule"]: job for job in status["jobs"]}
    assert jobs["bestie-digest"]["cron"] == "30 18 * * 5" and jobs["bestie-digest"]["last_outcome"] is None
    assert jobs["bestie-digest"]["function"] == "governance.digest.send_scheduled"
    text = memory("maintenance", "status")
    assert "digest channels: email:owner@example.com, telegram:123456789" in text
    assert "bestie-digest" in text and "30 18 * * 5" in text and "never run" in text

    assert memory("maintenance", "remove", "--channel", "telegram:123456789").strip() == "removed 1 channel(s); 2 left"
    assert memory("maintenance", "remove").strip() == "removed 2 channel(s); 0 left"
    assert channels() == []
    history = AuditEvent.objects.filter(event=AuditEvent.Event.POLICY, new__isnull=True).order_by("id")
    assert [(event.actor, event.old) for event in history] == [
        ("owner:cli", {"digest channel": "telegram:123456789"}),
        ("owner:cli", {"digest channel": "email:owner@example.com"}),
        ("owner:cli", {"digest channel": "webhook:https://hooks.example/…"}),
    ]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--channel", "pager:1"], "channel: must be KIND:TARGET with KIND one of email, telegram, zalo, webhook"),
        (
            ["--channel", "email:owner@example.com", "--channel", "zalo:me"],
            "a target for zalo must be the numeric user id",
        ),
        (["--channel", "webhook:http://hooks.example/x"], "a target for webhook must be an https:// URL"),
        (["--channel", "email:owner@example.com", "--schedule", "every monday"], "schedule: must be a cron expression"),
        (["--channel", "email:owner@example.com", "--schedule", "0 25 * * *"], "schedule: must be a cron expression"),
    ],
)
def test_install_refuses_bad_channels_and_crons_and_changes_nothing(db, args, message):
    before = (channels(), digest_cron())
    with pytest.raises(CommandError, match=message):
        memory("maintenance", "install", *args)
    assert (channels(), digest_cron()) == before


def test_removing_a_channel_that_is_not_installed_is_named(db):
    memory("maintenance", "install", "--channel", "email:owner@example.com")
    with pytest.raises(CommandError, match="not installed: telegram:42"):
        memory("maintenance", "remove", "--channel", "telegram:42")
    assert channels() == ["email:owner@example.com"]


def test_install_without_a_schedule_keeps_the_owners_schedule(db):
    memory("maintenance", "install", "--channel", "email:owner@example.com", "--schedule", "30 18 * * 5")
    events = AuditEvent.objects.count()

    out = memory("maintenance", "install", "--channel", "telegram:123456789")

    assert out.strip() == "digest: added telegram:123456789; schedule '30 18 * * 5'"
    assert digest_cron() == "30 18 * * 5"
    # The channel added is in the history; the schedule, unchanged, is not.
    assert [event.new for event in AuditEvent.objects.order_by("id")[events:]] == [
        {"digest channel": "telegram:123456789"}
    ]
    memory("maintenance", "install", "--channel", "telegram:123456789", "--schedule", "0 8 * * *")
    assert digest_cron() == "0 8 * * *"


def test_a_channel_with_a_bad_target_can_be_removed(db):
    DigestChannel.objects.create(kind="email", target="not-an-email")
    DigestChannel.objects.create(kind="webhook", target="http://hooks.example/x")
    assert memory("maintenance", "remove", "--channel", "email:not-an-email").strip() == "removed 1 channel(s); 1 left"
    assert channels() == ["webhook:http://hooks.example/x"]
    memory("maintenance", "remove", "--channel", "webhook:http://hooks.example/x")
    assert channels() == []


def test_digest_names_a_bad_target_as_a_failure(db):
    DigestChannel.objects.create(kind="email", target="not-an-email")
    out = io.StringIO()
    with pytest.raises(CommandError, match="the digest was not sent: every channel failed"):
        call_command("memory", "digest", stdout=out, stderr=io.StringIO())
    assert out.getvalue().strip() == (
        "email:not-an-email: FAILED, not tried: a target for email must be an email address like you@example.com, "
        "not 'not-an-email'"
    )


def test_digest_without_channels_prints_the_report(db):
    add_memory("User always deploys with checks off.", source="web page fetched in task 41", source_kind="tool_output")
    stderr = io.StringIO()
    out = memory("digest", stderr=stderr)
    assert out.startswith("Bestie memory digest")
    assert "[TOOL OUTPUT]" in out and "source: web page fetched in task 41 (tool_output)" in out
    assert "no channels installed" in stderr.getvalue()
    assert JobRun.objects.filter(job="digest").count() == 0


def test_digest_reports_a_failing_channel_and_fails(db, settings):
    settings.BESTIE_ZALO_ACCESS_TOKEN = ""
    memory("maintenance", "install", "--channel", "zalo:8412345678901")
    out = io.StringIO()
    with pytest.raises(CommandError, match="the digest was not sent: every channel failed"):
        call_command("memory", "digest", stdout=out, stderr=io.StringIO())
    assert "zalo:8412345678901: FAILED after 1 attempts: BESTIE_ZALO_ACCESS_TOKEN is not set" in out.getvalue()


@pytest.mark.sqlite
@pytest.mark.django_db(transaction=True)
def test_backup_and_restore_from_the_command_line(tmp_path):
    add_memory("User prefers concise replies.")
    out = memory("backup", "--dest", str(tmp_path))
    [saved] = backups.backups(tmp_path)
    assert out.startswith(f"backed up to {saved} (") and "integrity ok" in out
    add_memory("Added after the backup.")

    plan = memory("restore", str(saved))
    assert plan.startswith(f"would replace the content of {connection.settings_dict['NAME']} with {saved}")
    assert Memory.objects.count() == 2

    assert "restored" in memory("restore", str(saved), "--yes")
    assert list(Memory.objects.values_list("text", flat=True)) == ["User prefers concise replies."]


@pytest.mark.sqlite
@pytest.mark.django_db(transaction=True)
def test_restore_of_a_bad_file_is_refused(tmp_path):
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("not a database")
    add_memory("User prefers concise replies.")
    with pytest.raises(CommandError, match="failed its integrity check.*nothing was restored"):
        memory("restore", str(junk), "--yes")
    assert Memory.objects.count() == 1


def test_restore_needs_a_file_argument(db):
    with pytest.raises(CommandError, match="the following arguments are required: FILE"):
        memory("restore")


def test_backup_and_restore_name_the_postgresql_tools_there(db, tmp_path):
    if connection.vendor == "sqlite":
        assert "integrity ok" in memory("backup", "--dest", str(tmp_path))
        return
    assert "pg_dump" in refused("backup", "--dest", str(tmp_path))
    assert "pg_restore" in refused("restore", str(tmp_path / "bestie.dump"), "--yes")
    assert list(tmp_path.iterdir()) == []
