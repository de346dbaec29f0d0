"""Django's SQLite backend, with one change: how a write transaction waits for the write lock.

Every write transaction starts with ``BEGIN IMMEDIATE`` (SPEC §1), which takes SQLite's write lock or
waits for it. SQLite's own wait (``busy_timeout``) sleeps longer and longer between tries, up to 100 ms
at a time, so a writer that has waited a little looks only ten times a second, and a batch job that takes
the lock again a moment after releasing it keeps winning. Here a transaction start looks every 2 ms
instead, for as long as ``busy_timeout`` (5 s), and the jobs' pause between batches can be that much
shorter. Statements outside a transaction keep SQLite's own wait, and ``PRAGMA busy_timeout`` reads 5000
between transactions.

The database file and its WAL and shared-memory files are readable by the owner only: the file is made
with mode 0600 before SQLite opens it (SQLite gives the WAL and -shm files the database file's mode), and a
file made wider earlier is narrowed when it is opened.

And one saving: Django writes placeholders as ``%s`` and its cursor turns them into SQLite's ``?`` with a
regular expression on every run of every statement (21 µs for a proposal's INSERT of a memory); here each
distinct statement is converted once.
"""

import functools
import os
import stat
import time

from django.conf import settings
from django.db import OperationalError
from django.db.backends.sqlite3 import base

LOCK_POLL_SECONDS = 0.002


OWNER_ONLY = 0o600


def owner_only(path):
    """Make ``path`` (a database file, created if missing) readable by the owner only, with its WAL and -shm."""
    if str(path) == ":memory:" or str(path).startswith("file:"):
        return
    # Never open and close a database file that exists: closing any descriptor of a file drops every POSIX
    # lock this process holds on it, so the locks of the other connections of this process (another
    # thread's read or write) would be gone, and another process could checkpoint or truncate the WAL
    # under them. A file that does not exist yet has no connection to lose its locks.
    if not os.path.exists(path):
        try:
            os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, OWNER_ONLY))
        except FileExistsError:
            pass
    for name in (str(path), f"{path}-wal", f"{path}-shm"):
        try:
            if stat.S_IMODE(os.stat(name).st_mode) & 0o077:
                os.chmod(name, OWNER_ONLY)
        except FileNotFoundError:
            pass


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params):
        owner_only(conn_params["database"])
        return super().get_new_connection(conn_params)

    def create_cursor(self, name=None):
        return self.connection.cursor(factory=CursorWrapper)

    def _start_transaction_under_autocommit(self):
        timeout = int(settings.SQLITE_PRAGMAS["busy_timeout"]) / 1000
        deadline = time.monotonic() + timeout
        # The tries are made here rather than by a busy handler: sqlean's set_busy_handler crashes the
        # interpreter when its callable is garbage-collected.
        self.connection.set_busy_timeout(0)
        try:
            while True:
                try:
                    # On the connection itself: a Django cursor costs ~10 µs to make, on every transaction.
                    with self.wrap_database_errors:
                        self.connection.execute(f"BEGIN {self.transaction_mode or 'DEFERRED'}")
                    return
                except OperationalError as error:
                    if "locked" not in str(error) or time.monotonic() >= deadline:
                        raise
                time.sleep(LOCK_POLL_SECONDS)
        finally:
            self.connection.set_busy_timeout(timeout)


# Longer statements are mostly ``IN (%s, %s, …)`` over thousands of ids, each length once: not kept.
CACHED_STATEMENT_LENGTH = 4096


class CursorWrapper(base.SQLiteCursorWrapper):
    def convert_query(self, query, *, param_names=None):
        if param_names is None and len(query) <= CACHED_STATEMENT_LENGTH:
            return _qmark_style(query)
        return super().convert_query(query, param_names=param_names)


# Statements hold placeholders, never values, so what is kept here is the application's own SQL.
@functools.lru_cache(maxsize=1024)
def _qmark_style(query):
    return base.FORMAT_QMARK_REGEX.sub("?", query).replace("%%", "%")
