"""Forgetting really forgets, and concurrent writers never see "database is locked" (real files)."""

import io
import subprocess
import sys

import pytest
import sqlean
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from governance import erasure
from governance.models import JobRun
from memories import lifecycle, reports
from memories.lifecycle import proposals
from memories.models import Memory, MemorySettings, Message
from tests.factories import OWNER, add_memory, child_env, database_bytes

pytestmark = pytest.mark.django_db(transaction=True)

MARKERS = ["Quokkazephyr", "quokkazephyr", "Marmaladeprism", "marmaladeprism"]


def raw_bytes():
    """The database file and its WAL, as a reader of the disk would see them."""
    return database_bytes()


@pytest.mark.sqlite
def test_forget_leaves_no_plaintext_in_the_database_file_or_its_wal():
    for i in range(300):
        add_memory(f"Filler memory number {i} about ordinary preferences and projects.")
    old = add_memory("Owner's old doctor is Dr. Marmaladeprism in Huế.", subject="doctor")
    new = add_memory("Owner's doctor is Dr. Quokkazephyr ở Đà Nẵng.", subject="doctor")
    lifecycle.supersede(old.pk, new.pk, actor=OWNER)
    lifecycle.edit(new.pk, "Owner's doctor is Dr. Quokkazephyr in Đà Nẵng.", actor=OWNER)
    before = raw_bytes()
    assert all(marker.encode() in before for marker in ("Quokkazephyr", "Marmaladeprism"))

    assert sorted(lifecycle.forget(new.pk, actor=OWNER, confirmed=True).erased) == sorted([old.pk, new.pk])

    after = raw_bytes()
    for marker in MARKERS:
        assert marker.encode() not in after, marker
    assert Memory.objects.count() == 300
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM memory_fts WHERE memory_fts MATCH 'quokkazephyr OR marmaladeprism'")
        assert cursor.fetchone()[0] == 0
        cursor.execute("PRAGMA foreign_key_check")
        assert cursor.fetchall() == []
        cursor.execute("INSERT INTO memory_fts(memory_fts) VALUES ('integrity-check')")


@pytest.mark.sqlite
def test_clear_leaves_no_plaintext_either():
    add_memory("Owner's bank is Quokkazephyr Savings.")
    lifecycle.clear(actor=OWNER, confirmed=True)
    for marker in MARKERS:
        assert marker.encode() not in raw_bytes(), marker


def hold_a_read():
    """Another process in the middle of a read: its snapshot keeps the WAL from being truncated."""
    reader = sqlean.connect(connection.settings_dict["NAME"], isolation_level=None, check_same_thread=False)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM memory").fetchone()
    return reader


def pending_since():
    return MemorySettings.objects.values_list("erasure_pending_since", flat=True).get()


@pytest.mark.sqlite
def test_a_forget_a_reader_holds_back_is_pending_and_the_job_finishes_it():
    memory = add_memory("Owner's locker code word is Quokkazephyr.")
    reader = hold_a_read()
    try:
        lifecycle.forget(memory.pk, actor=OWNER, confirmed=True)
        # Gone from every table, but the reader's snapshot still needs the WAL that has the text.
        assert not Memory.objects.filter(pk=memory.pk).exists()
        assert b"Quokkazephyr" in raw_bytes()
        assert pending_since() is not None
        assert reports.status()["erasure_pending_since"] is not None
        assert erasure.finish_pending() == erasure.ErasureResult(done=False)
    finally:
        reader.close()

    assert erasure.finish_pending() == erasure.ErasureResult(done=True)
    assert b"Quokkazephyr" not in raw_bytes()
    assert pending_since() is None and reports.status()["erasure_pending_since"] is None
    runs = JobRun.objects.order_by("pk").values_list("job", "outcome", "counts")
    assert list(runs) == [("erasure", "ok", {"done": False}), ("erasure", "ok", {"done": True})]
    # With nothing pending the job does nothing and keeps no run.
    assert erasure.finish_pending() is None
    assert JobRun.objects.count() == 2


@pytest.mark.sqlite
def test_the_next_write_finishes_a_pending_erasure_without_waiting_for_a_reader_still_there():
    memory = add_memory("Owner's old PO box is Marmaladeprism 42.")
    reader = hold_a_read()
    lifecycle.forget(memory.pk, actor=OWNER, confirmed=True)
    add_memory("Owner likes green tea.")  # the reader is still there: one quick try, still pending
    assert pending_since() is not None and b"Marmaladeprism" in raw_bytes()
    reader.close()

    add_memory("Owner likes oolong too.")

    assert pending_since() is None
    assert b"Marmaladeprism" not in raw_bytes()


@pytest.mark.sqlite
def test_status_and_the_dashboard_say_an_erasure_is_pending(client, django_user_model):
    memory = add_memory("Owner's safe word is Quokkazephyr.")
    reader = hold_a_read()
    try:
        lifecycle.forget(memory.pk, actor=OWNER, confirmed=True)
        out = io.StringIO()
        call_command("memory", "status", stdout=out)
        assert "erasure is PENDING" in out.getvalue()
        client.force_login(django_user_model.objects.create_user("owner", password="x"))
        assert "An erasure is pending since" in client.get("/").content.decode()
    finally:
        reader.close()
    erasure.finish_pending()
    out = io.StringIO()
    call_command("memory", "status", stdout=out)
    assert "PENDING" not in out.getvalue()
    assert "An erasure is pending" not in client.get("/").content.decode()


def test_forgetting_a_memory_erases_the_message_it_came_from():
    message = proposals.record_message(role="user", text="My doctor is Dr. Quokkazephyr.", agent="bestie")
    other = proposals.record_message(role="user", text="I like tea.", agent="bestie")
    doctor = add_memory("Owner's doctor is Dr. Quokkazephyr.", kind="fact", message=message)
    sibling = add_memory("Owner sees the doctor on Mondays.", kind="fact", message=message)
    tea = add_memory("Owner likes tea.", message=other)

    lifecycle.forget(doctor.pk, actor=OWNER, confirmed=True)

    assert list(Message.objects.values_list("pk", flat=True)) == [other.pk]
    sibling.refresh_from_db()
    tea.refresh_from_db()
    assert sibling.message_id is None and tea.message_id == other.pk
    if connection.vendor == "sqlite":
        assert b"Quokkazephyr" not in raw_bytes()


def test_clear_erases_every_message_too():
    message = proposals.record_message(role="user", text="My bank is Marmaladeprism Savings.", agent="bestie")
    proposals.record_message(role="assistant", text="Noted.", agent="bestie")
    add_memory("Owner banks with Marmaladeprism Savings.", kind="fact", message=message)
    assert lifecycle.clear_plan() == {"memories": 1, "history": 1, "messages": 2}

    lifecycle.clear(actor=OWNER, confirmed=True)

    assert Message.objects.count() == 0
    if connection.vendor == "sqlite":
        assert b"Marmaladeprism" not in raw_bytes()


WRITER = """
import django, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
django.setup()
from memories import lifecycle
for i in range(int(sys.argv[2])):
    m = lifecycle.add(text=f"writer {sys.argv[1]} memory {i}", kind="fact", source="soak", source_kind="owner",
                      actor="owner:soak")
    lifecycle.pin(m.pk, actor="owner:soak")
"""


def test_concurrent_writers_never_see_database_is_locked():
    writers, per_writer = 4, 60
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(n), str(per_writer)],
            cwd=settings.BASE_DIR,
            env=child_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(writers)
    ]
    results = [process.communicate(timeout=120) + (process.returncode,) for process in processes]
    for _stdout, stderr, returncode in results:
        assert "locked" not in stderr
        assert returncode == 0, stderr
    assert Memory.objects.count() == writers * per_writer
    assert Memory.objects.filter(pinned=True).count() == writers * per_writer
