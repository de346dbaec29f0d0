"""Small builders for tests: memories go through the real write path."""

from memories import lifecycle

OWNER = "owner:test"


def add_memory(text="User prefers concise replies.", kind="preference", **fields):
    fields.setdefault("source", "test conversation")
    fields.setdefault("source_kind", "owner")
    fields.setdefault("actor", OWNER)
    return lifecycle.add(text=text, kind=kind, **fields)


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
