"""Backups and restore of the SQLite store (SPEC §6).

A backup is ``VACUUM INTO`` a dated file, written under a ``.partial`` name; only when
``PRAGMA integrity_check`` on it says ``ok`` is it renamed into place and are older backups beyond
``BESTIE_BACKUP_KEEP`` rotated out. A bad copy is deleted and the older backups stay.

Restore checks the file first, keeps a backup of the current store, then copies the file INTO the
live database with SQLite's online backup API: the copy takes the database's write lock, so the
running console and job cluster wait their turn and then read the restored data; nothing keeps
writing to an old file (the live file is never replaced or moved). The safety backup's rotation spares
the file being restored, and the job queue the backup holds (the database broker's) is emptied: what
was queued or running when it was made is past.

On PostgreSQL neither does anything: ``pg_dump`` and ``pg_restore`` are the tools there.
"""

import os
import sqlite3
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from governance.jobs import record_run, recorded
from memories.lifecycle import LifecycleError

PREFIX, SUFFIX = "bestie-", ".sqlite3"
NAME_TIME = "%Y%m%d-%H%M%S"  # in UTC
POSTGRESQL = (
    "the database is PostgreSQL: back it up with pg_dump (pg_dump -Fc -f bestie.dump DBNAME) and restore "
    "with pg_restore (pg_restore --clean -d DBNAME bestie.dump); nothing was changed"
)


class BackupError(LifecycleError):
    """A backup or restore that could not be done; older backups and the live store are untouched."""


@dataclass(frozen=True)
class BackupResult:
    path: str
    size_bytes: int
    seconds: float
    rotated_out: list  # older backups deleted to keep BESTIE_BACKUP_KEEP


def _require_sqlite():
    if connection.vendor != "sqlite":
        raise BackupError(POSTGRESQL)


def _live_path():
    return Path(connection.settings_dict["NAME"])


def _connect(path, *, read_only=True):
    uri = f"{Path(path).resolve().as_uri()}?mode={'ro' if read_only else 'rw'}"
    return sqlite3.connect(uri, uri=True, timeout=5, isolation_level=None)


def integrity_problems(path):
    """What ``PRAGMA integrity_check`` says is wrong with the database file at ``path`` ([] when ok)."""
    path = Path(path)
    if not path.is_file():
        return [f"{path} does not exist"]
    try:
        database = _connect(path)
        try:
            rows = [row[0] for row in database.execute("PRAGMA integrity_check").fetchall()]
            if (
                rows == ["ok"]
                and not database.execute(
                    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'memory'"
                ).fetchone()
            ):
                rows = ["it is not a Bestie Memory database (no memory table)"]
        finally:
            database.close()
    except sqlite3.DatabaseError as error:
        return [str(error)]
    return [] if rows == ["ok"] else [" ".join(row.split()) for row in rows]


def backup_dir(dest=None):
    return Path(dest) if dest else Path(settings.BESTIE_BACKUP_DIR)


def backups(dest=None):
    """The backups in ``dest``, newest first (their names sort by time)."""
    directory = backup_dir(dest)
    if not directory.is_dir():
        return []
    return sorted(directory.glob(f"{PREFIX}*{SUFFIX}"), reverse=True)


@dataclass(frozen=True)
class BackupFile:
    name: str
    path: str
    size_bytes: int
    made_at: datetime | None  # read from its name


def listing(dest=None):
    """The backups in ``dest`` with their size and time, newest first."""
    files = []
    for path in backups(dest):
        try:
            size = path.stat().st_size
        except FileNotFoundError:  # rotated out since the folder was read
            continue
        try:
            made_at = datetime.strptime(path.name.removeprefix(PREFIX).removesuffix(SUFFIX), NAME_TIME)
        except ValueError:
            made_at = None
        files.append(
            BackupFile(
                name=path.name,
                path=str(path),
                size_bytes=size,
                made_at=made_at.replace(tzinfo=UTC) if made_at else None,
            )
        )
    return files


def named(name, dest=None):
    """The backup called ``name`` in ``dest``: a name from the folder's listing, never a path."""
    for path in backups(dest):
        if path.name == name:
            return path
    raise BackupError(_("there is no backup named %(name)r in %(folder)s") % {"name": name, "folder": backup_dir(dest)})


def snapshot(dest=None, now=None):
    """``VACUUM INTO`` a new ``.partial`` file in ``dest``; returns its path, not yet checked."""
    _require_sqlite()
    directory = backup_dir(dest)
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    name = f"{PREFIX}{(now or timezone.now()).astimezone(UTC):{NAME_TIME}}{SUFFIX}"
    partial = directory / (name + ".partial")
    partial.unlink(missing_ok=True)
    # Made empty, readable by the owner only, before VACUUM INTO fills it (it takes an empty file).
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    # A connection of its own: VACUUM INTO reads one consistent snapshot and never holds the write lock.
    database = _connect(_live_path())
    try:
        database.execute("VACUUM INTO ?", (str(partial),))
    finally:
        database.close()
    return partial


def keep(partial, keep_count=None, spare=None):
    """Check the ``.partial`` copy; when it is ok, rename it into place and rotate out the backups
    beyond ``keep_count``, never ``spare`` (the backup being restored). A bad copy is deleted, the older
    backups stay, and ``BackupError`` says why."""
    partial = Path(partial)
    problems = integrity_problems(partial)
    if problems:
        partial.unlink(missing_ok=True)
        raise BackupError(
            f"the backup {partial.name} failed its integrity check ({'; '.join(problems[:5])}); it was "
            f"deleted and the older backups were kept"
        )
    final = partial.with_name(partial.name.removesuffix(".partial"))
    partial.replace(final)
    keep_count = keep_count or settings.BESTIE_BACKUP_KEEP
    spared = {final.resolve(), Path(spare).resolve() if spare else None}
    rotated = [path for path in backups(final.parent) if path.resolve() not in spared][keep_count - 1 :]
    for path in rotated:
        path.unlink()
    return final, [path.name for path in rotated]


@recorded("backup")
def backup(dest=None, now=None, spare=None):
    started = time.monotonic()
    final, rotated = keep(snapshot(dest, now), spare=spare)
    return BackupResult(
        path=str(final),
        size_bytes=final.stat().st_size,
        seconds=round(time.monotonic() - started, 3),
        rotated_out=rotated,
    )


@dataclass(frozen=True)
class RestorePlan:
    source: str
    database: str
    source_bytes: int
    problems: list


def restore_plan(path):
    _require_sqlite()
    path = Path(path)
    return RestorePlan(
        source=str(path),
        database=str(_live_path()),
        source_bytes=path.stat().st_size if path.is_file() else 0,
        problems=integrity_problems(path),
    )


@dataclass(frozen=True)
class RestoreResult:
    source: str
    database: str
    safety_backup: str  # the store as it was just before, in the backup directory


def restore(path, *, dest=None):
    """Replace the live store's content with the backup at ``path`` (checked first). The run is kept
    in the job history of the restored store, as a failure if nothing could be restored."""
    started_at = timezone.now()
    try:
        result = _restore(path, dest)
    except Exception as error:
        record_run("restore", started_at=started_at, error=error)
        raise
    record_run("restore", started_at=started_at, result=result)
    return result


def _restore(path, dest):
    plan = restore_plan(path)
    if plan.problems:
        raise BackupError(f"{path} failed its integrity check ({'; '.join(plan.problems[:5])}); nothing was restored")
    safety = backup(dest, spare=path)
    connection.close()
    source, target = _connect(path), _connect(_live_path(), read_only=False)
    try:
        # The online backup API copies every page under the target's write lock in one step (pages=-1),
        # so other connections see either the old store or the restored one, never a mix.
        try:
            source.backup(target, pages=-1)
        except sqlite3.Error as error:
            raise BackupError(
                f"could not copy {path} into {plan.database}: {error}; the store as it was is in {safety.path}"
            ) from None
        # The database queue of the job cluster as it was then: tasks queued or running when the backup
        # was made (a backup job is in it, acknowledged only when it ends). They are past; run again,
        # a backup would rotate out an older one and a second restore undo this one.
        if target.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'django_q_ormq'").fetchone():
            target.execute("DELETE FROM django_q_ormq")
        target.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        source.close()
        target.close()
    return RestoreResult(source=str(path), database=plan.database, safety_backup=safety.path)
