"""Forgetting really forgets, and concurrent writers never see "database is locked" (real files)."""

import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from memories import lifecycle
from memories.models import Memory
from tests.factories import OWNER, add_memory, child_env

pytestmark = pytest.mark.django_db(transaction=True)

MARKERS = ["Quokkazephyr", "quokkazephyr", "Marmaladeprism", "marmaladeprism"]


def raw_bytes():
    """The database file and its WAL, as a reader of the disk would see them."""
    path = Path(connection.settings_dict["NAME"])
    wal = path.with_name(path.name + "-wal")
    return path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")


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
