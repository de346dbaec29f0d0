"""Maintenance jobs on crafted data with frozen time: prune under each delete policy, hygiene snapshots,
message retention, the job-run history and a running job's progress, the schedules, and prune beside
concurrent writers."""

import importlib
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.db import connection
from django_q.models import Schedule

from governance import hygiene, jobs, prune, retention, schedules
from governance.models import HygieneSnapshot, JobRun
from memories import lifecycle
from memories.lifecycle.policies import set_delete_policy
from memories.models import AuditEvent, Memory, Message
from tests.factories import OWNER, add_memory, child_env

NOW = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def crafted(db, frozen):
    """One memory of each kind prune must judge, by name."""
    with time_machine.travel(NOW - timedelta(days=200), tick=False):
        old_replaced = add_memory("User lived in Huế.", subject="home")
        old_replacement = add_memory("User lives in Đà Nẵng.", subject="home")
        lifecycle.supersede(old_replaced.pk, old_replacement.pk, actor=OWNER)
    with time_machine.travel(NOW - timedelta(days=10), tick=False):
        recent_replaced = add_memory("User uses npm.", subject="tool")
        recent_replacement = add_memory("User uses pnpm.", subject="tool")
        lifecycle.supersede(recent_replaced.pk, recent_replacement.pk, actor=OWNER)
        expired = add_memory("User is at a conference this week.", ttl=timedelta(days=3))
        pinned_expired = add_memory("User's passport renewal is due.", ttl=timedelta(days=3), pinned=True)
        future = add_memory("User is on holiday next month.", ttl=timedelta(days=60))
        kept = add_memory("User prefers concise replies.")
    return {
        "old_replaced": old_replaced,
        "old_replacement": old_replacement,
        "recent_replaced": recent_replaced,
        "recent_replacement": recent_replacement,
        "expired": expired,
        "pinned_expired": pinned_expired,
        "future": future,
        "kept": kept,
    }


def remaining(crafted):
    ids = set(Memory.objects.values_list("pk", flat=True))
    return {name for name, memory in crafted.items() if memory.pk in ids}


def test_prune_under_allow_erases_expired_and_long_superseded_rows_but_never_pinned_ones(crafted):
    set_delete_policy("allow", actor=OWNER)

    result = prune.prune()

    assert (result.policy, result.expired, result.superseded, result.deleted) == ("allow", 1, 1, 2)
    assert remaining(crafted) == {
        "old_replacement",
        "recent_replaced",
        "recent_replacement",
        "pinned_expired",
        "future",
        "kept",
    }
    # Erased the forgetting way: the history keeps a hash of the text, never the text.
    forgets = AuditEvent.objects.filter(
        event="forget", memory_id__in=[crafted["expired"].pk, crafted["old_replaced"].pk]
    )
    assert forgets.count() == 2
    assert all(len(event.text_sha256) == 64 and event.actor == "system:jobs" for event in forgets)
    assert not AuditEvent.objects.filter(memory_id=crafted["expired"].pk, new__isnull=False).exists()
    run = JobRun.objects.get(job="prune")
    assert (run.outcome, run.counts["deleted"], run.finished_at) == ("ok", 2, NOW)


@pytest.mark.sqlite
def test_prune_leaves_the_query_planner_statistics_current_without_stat4_samples(crafted):
    set_delete_policy("allow", actor=OWNER)
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA analysis_limit = 0")
        cursor.execute("ANALYZE")  # a full analysis: stat4 samples, which make lookups recompile on every run
        cursor.execute("SELECT count(*) FROM sqlite_stat4")
        assert cursor.fetchone()[0] > 0
        cursor.execute("DELETE FROM sqlite_stat1")

        prune.prune()

        cursor.execute("SELECT stat FROM sqlite_stat1 WHERE tbl = 'memory' AND idx = 'memory_user_text_key'")
        rows_counted = int(cursor.fetchone()[0].split()[0])
        cursor.execute("SELECT count(*) FROM sqlite_stat4")
        samples = cursor.fetchone()[0]
    assert rows_counted == Memory.objects.count() == 6
    assert samples == 0


def test_prune_under_deny_erases_nothing_and_says_how_many_would_go(crafted):
    set_delete_policy("deny", actor=OWNER)

    result = prune.prune(confirmed=True)

    assert (result.deleted, result.would_delete, result.awaiting_confirmation) == (0, 2, 0)
    assert remaining(crafted) == set(crafted)
    assert JobRun.objects.get(job="prune").counts["would_delete"] == 2


def test_prune_under_ask_waits_for_the_owners_confirmation(crafted):
    set_delete_policy("ask", actor=OWNER)

    scheduled = prune.prune()
    assert (scheduled.deleted, scheduled.awaiting_confirmation) == (0, 2)
    assert remaining(crafted) == set(crafted)

    confirmed = prune.prune(confirmed=True)
    assert confirmed.deleted == 2
    assert "expired" not in remaining(crafted) and "old_replaced" not in remaining(crafted)
    assert [run.counts["deleted"] for run in JobRun.objects.filter(job="prune").order_by("id")] == [0, 2]


def test_prune_plan_changes_nothing(crafted):
    set_delete_policy("allow", actor=OWNER)
    plan = prune.plan()
    assert (plan.expired, plan.superseded, plan.would_delete) == (1, 1, 2)
    assert remaining(crafted) == set(crafted)
    assert not JobRun.objects.exists()


def test_prune_keeps_a_row_whose_erasure_would_take_a_pinned_older_version(db, frozen):
    set_delete_policy("allow", actor=OWNER)
    older = add_memory("User's emergency contact is Lan.", pinned=True)
    newer = add_memory("User's emergency contact is Minh.", ttl=timedelta(days=1))
    lifecycle.supersede(older.pk, newer.pk, actor=OWNER)
    with time_machine.travel(NOW + timedelta(days=2), tick=False):
        assert prune.prune().deleted == 0
    assert Memory.objects.count() == 2


def test_prune_works_in_batches_and_finishes_them_all(db, frozen):
    set_delete_policy("allow", actor=OWNER)
    Memory.objects.bulk_create(
        Memory(
            text=f"expired note {i}",
            kind="note",
            source="test",
            source_kind="owner",
            status="approved",
            expires_at=NOW - timedelta(hours=1),
        )
        for i in range(1300)
    )
    keep = add_memory("User prefers concise replies.")

    result = prune.prune()

    assert result.deleted == 1300 and result.batches >= 2
    assert list(Memory.objects.values_list("pk", flat=True)) == [keep.pk]
    assert AuditEvent.objects.filter(event="forget").count() == 1300


def test_a_failing_job_is_recorded_with_its_error(db, frozen):
    @jobs.recorded("doomed")
    def doomed():
        raise ValueError("the disk is full")

    with pytest.raises(ValueError):
        doomed()
    run = JobRun.objects.get(job="doomed")
    assert (run.outcome, run.finished_at, run.error, run.counts) == ("failed", NOW, "ValueError: the disk is full", {})


# ---------------------------------------------------------------------------------------------------
# Hygiene


def test_a_job_s_progress_is_kept_on_its_run(db, monkeypatch):
    run = JobRun.objects.create(job="cleanup")
    progress = jobs.Progress(run.pk)
    progress("merge", 0, 10)
    progress("merge", 1, 10)  # within PROGRESS_SECONDS of the last write: not written
    run.refresh_from_db()
    assert (run.step, run.done, run.total) == ("merge", 0, 10)
    progress("archive", 2, 10)  # a new step is always written
    run.refresh_from_db()
    assert (run.step, run.done, run.total) == ("archive", 2, 10)
    monkeypatch.setattr(jobs, "PROGRESS_SECONDS", 0)
    progress("archive", 3, 10)
    run.refresh_from_db()
    assert run.done == 3


@dataclass(frozen=True)
class Seen:
    step: str
    done: int
    total: int


def test_a_job_recorded_with_progress_is_given_it(db):
    @jobs.recorded("test", reports_progress=True)
    def job(*, progress):
        progress("only", 1, 2)
        run = JobRun.objects.get(job="test")
        return Seen(run.step, run.done, run.total)

    assert job() == Seen("only", 1, 2)
    assert JobRun.objects.get(job="test").outcome == JobRun.Outcome.OK


def test_running_is_a_run_still_going_not_one_the_cluster_killed(db):
    now = datetime.now(UTC)
    assert jobs.running("doctor", now) is None
    JobRun.objects.create(job="doctor", started_at=now - timedelta(seconds=settings.Q_CLUSTER["timeout"] + 5))
    assert jobs.running("doctor", now) is None
    current = JobRun.objects.create(job="doctor", started_at=now - timedelta(seconds=5))
    JobRun.objects.create(job="doctor", started_at=now, outcome=JobRun.Outcome.OK, finished_at=now)
    assert jobs.running("doctor", now) == current


def test_hygiene_snapshot_stores_the_counts_and_a_score(db, frozen):
    with time_machine.travel(NOW - timedelta(days=15), tick=False):
        waiting = add_memory("User might like jazz.", status="pending", source_kind="agent_inference")
    for i in range(7):
        add_memory(f"User fact number {i}.")
    add_memory("User was at a meetup.", ttl=timedelta(hours=1))
    Memory.objects.filter(text="User was at a meetup.").update(expires_at=NOW - timedelta(minutes=1))

    result = hygiene.snapshot()

    snapshot = HygieneSnapshot.objects.get()
    assert snapshot.pk == result.snapshot_id and snapshot.taken_at == NOW
    assert snapshot.counts["total"] == 9 and snapshot.counts["live"] == 7 and snapshot.counts["pending"] == 1
    assert snapshot.oldest_pending_at == waiting.created_at
    # governance.hygiene's parts: 20 × 7/9 live, 20 no duplicates, 15 none stale, 0 for the expired
    # backlog (1 row against a tenth of 9), 0 for conflicts (the seven "fact number N" contradict each
    # other), 5 × (1 − 15/30 days pending), 5 no noise, 5 core within budget, 0 metadata (no subjects),
    # 5 no broken chains.
    assert snapshot.score == round(20 * 7 / 9 + 20 + 15 + 0 + 0 + 2.5 + 5 + 5 + 0 + 5) == 68
    assert JobRun.objects.get(job="hygiene").counts["score"] == 68


def test_hygiene_of_an_empty_store_is_perfect(db, frozen):
    assert hygiene.score().score == 100


# ---------------------------------------------------------------------------------------------------
# Message retention


def test_message_retention_deletes_old_messages_and_keeps_the_memories_from_them(db, frozen, settings):
    settings.BESTIE_MESSAGE_RETENTION_DAYS = 365
    old = Message.objects.create(role="user", text="I moved to Đà Nẵng.", created_at=NOW - timedelta(days=400))
    recent = Message.objects.create(role="user", text="I use pnpm now.", created_at=NOW - timedelta(days=30))
    memory = add_memory("User lives in Đà Nẵng.", message=old)

    result = retention.message_retention()

    assert (result.retention_days, result.deleted) == (365, 1)
    assert list(Message.objects.values_list("pk", flat=True)) == [recent.pk]
    memory.refresh_from_db()
    assert memory.message_id is None and memory.text == "User lives in Đà Nẵng."


def test_message_retention_zero_keeps_every_message(db, frozen, settings):
    settings.BESTIE_MESSAGE_RETENTION_DAYS = 0
    Message.objects.create(role="user", text="ancient", created_at=NOW - timedelta(days=4000))
    assert retention.message_retention().deleted == 0
    assert Message.objects.count() == 1


# ---------------------------------------------------------------------------------------------------
# Schedules


def test_schedules_are_seeded_once_and_point_at_importable_functions(db):
    # The test database was migrated, which seeded them; seeding again adds nothing.
    assert schedules.seed() == 0
    assert schedules.seed() == 0
    names = list(Schedule.objects.values_list("name", flat=True))
    assert sorted(names) == sorted(job.schedule for job in schedules.JOBS)
    for schedule in Schedule.objects.all():
        module, _, name = schedule.func.rpartition(".")
        assert callable(getattr(importlib.import_module(module), name)), schedule.func
        assert schedule.schedule_type == Schedule.CRON and schedule.repeats == -1
    assert settings.Q_CLUSTER["catch_up"] is False


def test_seeding_recreates_a_missing_schedule_and_keeps_an_edited_cron(db, frozen):
    Schedule.objects.filter(name="bestie-prune").update(cron="15 2 * * *", func="somewhere.else")
    Schedule.objects.filter(name="bestie-hygiene").delete()

    assert schedules.seed() == 1

    prune = Schedule.objects.get(name="bestie-prune")
    assert (prune.cron, prune.func) == ("15 2 * * *", "governance.prune.prune")
    hygiene = Schedule.objects.get(name="bestie-hygiene")
    assert hygiene.cron == "0 4 * * *" and hygiene.next_run == datetime(2026, 6, 2, 4, 0, tzinfo=UTC)


@pytest.mark.parametrize("cron", ["", "every monday", "0 9 * *", "61 * * * *", "0 9 * * 1 2026"])
def test_a_bad_cron_is_named(db, cron):
    before = list(Schedule.objects.values_list("name", "cron"))
    with pytest.raises(lifecycle.InvalidValue, match="cron expression of five fields"):
        schedules.set_digest_cron(cron, actor=OWNER)
    assert list(Schedule.objects.values_list("name", "cron")) == before


# ---------------------------------------------------------------------------------------------------
# Prune beside concurrent writers, and killed mid-way (real files, real processes)

WRITER = """
import django, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
django.setup()
from memories import lifecycle
for i in range(int(sys.argv[2])):
    lifecycle.add(text=f"writer {sys.argv[1]} memory {i}", kind="fact", source="soak", source_kind="owner",
                  actor="owner:soak")
print("sent", sys.argv[2])
"""

PRUNER = """
import django, os, sys, time
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
django.setup()
from governance import hygiene, prune
deleted, end = 0, time.monotonic() + float(sys.argv[1])
while True:
    deleted += prune.prune().deleted
    hygiene.snapshot()
    if time.monotonic() > end:
        break
print("deleted", deleted)
"""


def _expired_rows(count):
    Memory.objects.bulk_create(
        (
            Memory(
                text=f"expired note {i}",
                kind="note",
                source="soak",
                source_kind="owner",
                status="approved",
                expires_at=datetime(2026, 1, 1, tzinfo=UTC),
            )
            for i in range(count)
        ),
        batch_size=1000,
    )


def _spawn(script, *args):
    return subprocess.Popen(
        [sys.executable, "-c", script, *map(str, args)],
        cwd=settings.BASE_DIR,
        env=child_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.django_db(transaction=True)
def test_prune_beside_concurrent_writers_loses_nothing_and_never_sees_a_lock():
    set_delete_policy("allow", actor=OWNER)
    _expired_rows(3000)
    writers, per_writer = 3, 40
    processes = [_spawn(PRUNER, 3)] + [_spawn(WRITER, n, per_writer) for n in range(writers)]
    results = [process.communicate(timeout=180) + (process.returncode,) for process in processes]

    for _stdout, stderr, returncode in results:
        assert "locked" not in stderr
        assert returncode == 0, stderr
    assert results[0][0].strip() == "deleted 3000"
    assert Memory.objects.count() == writers * per_writer
    assert Memory.objects.filter(source="soak", text__startswith="writer").count() == writers * per_writer


@pytest.mark.django_db(transaction=True)
def test_a_prune_killed_mid_way_leaves_every_batch_whole():
    set_delete_policy("allow", actor=OWNER)
    _expired_rows(20000)
    process = _spawn(PRUNER, 60)
    deadline = time.monotonic() + 60
    while not AuditEvent.objects.filter(event="forget").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=30)

    gone = 20000 - Memory.objects.count()
    forgotten = set(AuditEvent.objects.filter(event="forget").values_list("memory_id", flat=True))
    assert 0 < gone < 20000
    # Every erased row has its forget event and no row that is still there has one: no half batch.
    assert len(forgotten) == gone
    assert not Memory.objects.filter(pk__in=forgotten).exists()
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA integrity_check")
            assert cursor.fetchall() == [("ok",)]
    set_delete_policy("allow", actor=OWNER)
    assert prune.prune().deleted == 20000 - gone
