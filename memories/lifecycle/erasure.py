"""Erasure down to the files (SPEC §2): after every deletion the SQLite WAL is copied into the database
file and truncated, so nothing deleted is left in either (``secure_delete`` zeroes the freed pages).

A reader holding an old snapshot open can hold the truncation back. Then the erasure is recorded as
pending (``MemorySettings.erasure_pending_since``, shown by ``bestie memory status`` and the console's
dashboard) and finished by the next write or by the job cluster, as soon as the reader lets go.
"""

import time

from django.conf import settings
from django.db import connection
from django.utils import timezone

from memories.models import MemorySettings

# A checkpoint that truncates the WAL holds the write lock while it waits for readers, for as long as the
# connection's busy timeout: with the usual 5 s, one slow console read would stall every writer. Each
# try waits this long at most; between tries the lock is free.
CHECKPOINT_WAIT_MS = 10


def checkpoint_wal(attempts=20):
    """Copy the WAL into the database file and truncate it, so deleted text is gone from both files.

    Another process reading at that moment can hold the checkpoint back; it is tried again for about a
    second. Returns True when the WAL is empty (always on PostgreSQL, which has no WAL file here).
    """
    if connection.vendor != "sqlite":
        return True
    with connection.cursor() as cursor:
        cursor.execute(f"PRAGMA busy_timeout = {CHECKPOINT_WAIT_MS}")
        try:
            for _attempt in range(attempts):
                cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                busy, _, _ = cursor.fetchone()
                if not busy:
                    return True
                time.sleep(0.05)
        finally:
            cursor.execute(f"PRAGMA busy_timeout = {settings.SQLITE_PRAGMAS['busy_timeout']}")
    return False


def finish_erasure(attempts=20):
    """Make sure what was just deleted is in neither file: the WAL checkpointed and truncated; while a
    reader holds it back, the erasure recorded as pending (and cleared once it is done). True when done."""
    done = checkpoint_wal(attempts)
    table = MemorySettings._meta.db_table
    with connection.cursor() as cursor:
        if done:
            cursor.execute(f"UPDATE {table} SET erasure_pending_since = NULL WHERE erasure_pending_since IS NOT NULL")
        else:
            cursor.execute(
                f"UPDATE {table} SET erasure_pending_since = %s WHERE erasure_pending_since IS NULL",
                [connection.ops.adapt_datetimefield_value(timezone.now())],
            )
    return done


def finish_pending_erasure():
    """Finish an erasure a reader held back, if there is one (the next write and the job cluster ask).
    Returns None when none was pending, else whether it is done now. One try: a write does not wait for
    a reader that is still there."""
    if MemorySettings.load().erasure_pending_since is None:
        return None
    return finish_erasure(attempts=1)
