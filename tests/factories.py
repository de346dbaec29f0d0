"""Small builders for tests: memories go through the real write path."""

from memories import lifecycle

OWNER = "owner:test"


def add_memory(text="User prefers concise replies.", kind="preference", **fields):
    fields.setdefault("source", "test conversation")
    fields.setdefault("source_kind", "owner")
    fields.setdefault("actor", OWNER)
    return lifecycle.add(text=text, kind=kind, **fields)
