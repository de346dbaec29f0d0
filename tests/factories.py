"""Small builders for tests: memories go through the real write path."""

from memories import lifecycle
from memories.language.folding import fold

OWNER = "owner:test"


def add_memory(text="User prefers concise replies.", kind="preference", **fields):
    fields.setdefault("source", "test conversation")
    fields.setdefault("source_kind", "owner")
    fields.setdefault("actor", OWNER)
    return lifecycle.add(text=text, kind=kind, **fields)


def database_bytes():
    """The SQLite test database file and its WAL as a reader of the disk sees them, read by another process
    (``cat``): opening and closing the file here would drop every lock this process's connections hold on
    it (POSIX locks belong to the process), and a child process closing its last connection would then
    take itself for the last one and delete the WAL under them (the serve test's "disk I/O error")."""
    import subprocess
    from pathlib import Path

    from django.db import connection

    path = Path(connection.settings_dict["NAME"])
    wal = path.with_name(path.name + "-wal")
    # A missing WAL is only an error of cat's: what it read of the file is on stdout.
    return subprocess.run(["cat", str(path), str(wal)], capture_output=True).stdout


def child_env():
    """Environment for a child process (``manage.py``, ``bestie``) that uses this test's database."""
    import os

    from django.db import connection

    env = dict(os.environ)
    name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        env["BESTIE_DB_PATH"] = str(name)
        env.pop("DATABASE_URL", None)
    else:
        s = connection.settings_dict
        env["DATABASE_URL"] = f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{name}"
    return env


def propose(text="User prefers pnpm over npm.", **fields):
    """``text`` proposed by an agent, as the owner said it in a chat (``proposals.propose``)."""
    from memories.lifecycle import proposals

    fields.setdefault("kind", "preference")
    fields.setdefault("source", "telegram message 42")
    fields.setdefault("source_kind", "user_message")
    fields.setdefault("agent", "bestie")
    fields.setdefault("user", "owner")
    return proposals.propose(text=text, **fields)


def read_otherwise(read, otherwise, a, b, texts=()):
    """Whether ``otherwise`` holds of what ``read`` makes of two texts (a slot, a standing, a spouse, an
    attribute), the owner's memories being ``texts``."""
    a, b = read(a), read(b)
    return bool(a and b) and otherwise(a, b, lambda name: [text for text in texts if name in fold(text).lower()])
