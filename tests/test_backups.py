"""Backups and restore on real SQLite files: integrity-checked copies, rotation, a corrupt copy caught
with the older backups kept, and a restore that gives back exactly what was exported."""

import io
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine
from django.db import connection
from django_q.models import OrmQ
from django_q.tasks import async_task

from governance import backups
from governance.models import JobRun
from memories import lifecycle, transfer
from memories.models import Memory
from tests.factories import OWNER, add_memory

pytestmark = pytest.mark.django_db(transaction=True)

NOW = datetime(2026, 6, 1, 3, 0, tzinfo=UTC)
EXPORTED_AT = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def export():
    out = io.StringIO()
    transfer.write_export(out, exported_at=EXPORTED_AT)
    return out.getvalue()


def backup_on(day, dest):
    with time_machine.travel(NOW + timedelta(days=day), tick=False):
        return backups.backup(dest)


@pytest.mark.sqlite
def test_a_backup_is_a_dated_integrity_checked_copy(tmp_path):
    add_memory("User prefers concise replies.")

    result = backup_on(0, tmp_path)

    assert Path(result.path) == tmp_path / "bestie-20260601-030000.sqlite3"
    assert backups.integrity_problems(result.path) == []
    assert result.size_bytes == os.path.getsize(result.path) and result.rotated_out == []
    assert list(tmp_path.iterdir()) == [Path(result.path)]
    assert JobRun.objects.get(job="backup").counts["path"] == result.path


@pytest.mark.sqlite
def test_backups_beyond_the_retention_count_are_rotated_out_oldest_first(tmp_path, settings):
    settings.BESTIE_BACKUP_KEEP = 3
    add_memory("User prefers concise replies.")
    for day in range(4):
        result = backup_on(day, tmp_path)
    assert result.rotated_out == ["bestie-20260601-030000.sqlite3"]
    assert [path.name for path in backups.backups(tmp_path)] == [
        "bestie-20260604-030000.sqlite3",
        "bestie-20260603-030000.sqlite3",
        "bestie-20260602-030000.sqlite3",
    ]


@pytest.mark.sqlite
def test_a_corrupt_backup_is_caught_deleted_and_the_older_backups_survive(tmp_path, settings):
    settings.BESTIE_BACKUP_KEEP = 2
    for i in range(400):
        add_memory(f"User fact number {i} with enough words to fill a few pages of the database file.")
    older = [backup_on(day, tmp_path).path for day in range(2)]

    with time_machine.travel(NOW + timedelta(days=2), tick=False):
        partial = backups.snapshot(tmp_path)
    data = bytearray(partial.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 8192] = bytes(b ^ 0xFF for b in data[middle : middle + 8192])
    partial.write_bytes(bytes(data))

    with pytest.raises(backups.BackupError, match="(?s)failed its integrity check.*older backups were kept"):
        backups.keep(partial)

    assert not partial.exists()
    assert sorted(str(path) for path in backups.backups(tmp_path)) == sorted(older)
    assert all(backups.integrity_problems(path) == [] for path in older)


@pytest.mark.sqlite
def test_backup_then_restore_gives_back_exactly_what_was_exported(tmp_path):
    old = add_memory("User lived in Huế.", subject="home")
    new = add_memory("User lives in Đà Nẵng.", subject="home")
    lifecycle.supersede(old.pk, new.pk, actor=OWNER)
    add_memory("User might like jazz.", status="pending", source_kind="agent_inference")
    before = export()
    saved = backup_on(0, tmp_path)

    lifecycle.forget(new.pk, actor=OWNER, confirmed=True)
    add_memory("Something added after the backup.")
    assert export() != before

    restored = backups.restore(saved.path, dest=tmp_path)

    assert export() == before
    assert restored.safety_backup != saved.path and backups.integrity_problems(restored.safety_backup) == []
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA integrity_check")
        assert cursor.fetchall() == [("ok",)]
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
    # The restored store has the backup's job history and this restore in it.
    run = JobRun.objects.filter(job="restore").get()
    assert (run.outcome, run.counts["source"], run.counts["safety_backup"]) == (
        "ok",
        str(saved.path),
        restored.safety_backup,
    )
    assert run.started_at <= run.finished_at
    # The restored store takes writes again.
    add_memory("Written after the restore.")
    assert Memory.objects.filter(text="Written after the restore.").exists()


@pytest.mark.sqlite
def test_restore_of_a_corrupt_or_foreign_file_changes_nothing(tmp_path):
    add_memory("User prefers concise replies.")
    before = export()
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(backups.BackupError, match="failed its integrity check"):
        backups.restore(junk, dest=tmp_path)
    with pytest.raises(backups.BackupError, match="does not exist"):
        backups.restore(tmp_path / "missing.sqlite3", dest=tmp_path)
    assert export() == before
    assert not backups.backups(tmp_path)
    failures = JobRun.objects.filter(job="restore").order_by("id")
    assert [run.outcome for run in failures] == ["failed", "failed"]
    assert "failed its integrity check" in failures[0].error and "does not exist" in failures[1].error


def test_on_postgresql_backup_and_restore_point_at_pg_dump_and_change_nothing(tmp_path):
    if connection.vendor == "sqlite":
        assert backups.backup(tmp_path).path
        return
    with pytest.raises(backups.BackupError, match="pg_dump"):
        backups.backup(tmp_path)
    with pytest.raises(backups.BackupError, match="pg_restore"):
        backups.restore(tmp_path / "x.sqlite3", dest=tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.sqlite
def test_restoring_the_oldest_backup_keeps_it_through_the_safety_backups_rotation(tmp_path, settings):
    """The safety backup a restore makes first rotated out the oldest backup: the very one being
    restored, when it was the oldest of a full folder, and the restore then failed."""
    settings.BESTIE_BACKUP_KEEP = 2
    add_memory("User lived in Huế.")
    before = export()
    oldest = backup_on(0, tmp_path)
    add_memory("Added after the first backup.")
    backup_on(1, tmp_path)

    with time_machine.travel(NOW + timedelta(days=2), tick=False):
        restored = backups.restore(oldest.path, dest=tmp_path)

    assert export() == before
    assert Path(oldest.path).exists() and Path(restored.safety_backup).exists()


@pytest.mark.sqlite
def test_a_restore_brings_back_no_job_that_was_queued_when_the_backup_was_made(tmp_path):
    """A backup the job cluster makes holds its own task in the database queue (a task leaves it when it
    ends): restored, the cluster ran that backup again, and would run a restore queued then again too."""
    async_task("governance.backups.backup", str(tmp_path))
    saved = backup_on(0, tmp_path)
    OrmQ.objects.all().delete()  # the cluster ran it meanwhile

    backups.restore(saved.path, dest=tmp_path)

    assert not OrmQ.objects.exists()
