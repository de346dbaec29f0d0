"""The audit history of memories (SPEC §2): what an event holds, and the one way events are written.

``record`` writes one event and ``record_many`` many (one statement); nothing else inserts into the
history. Values are JSON: times as ``memories.times.iso`` writes them.
"""

import hashlib

from memories import rows
from memories.models import AuditEvent
from memories.times import json_ready

# Fields shown in audit events and compared on edit; the record's bookkeeping (statistics, ids) is not.
AUDITED_FIELDS = (
    "text",
    "kind",
    "subject",
    "scope",
    "user",
    "channel",
    "project",
    "layer",
    "status",
    "pinned",
    "stale",
    "superseded_by_id",
    "expires_at",
    "confidence",
    "source",
    "source_kind",
    "deleted_at",
)


def text_sha256(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def snapshot(memory, fields=AUDITED_FIELDS):
    return {field: json_ready(getattr(memory, field)) for field in fields}


def audit_event(event, memory_id, actor, old=None, new=None, note="", sha=""):
    """An event to write with ``record_many``: ``old`` and ``new`` are the changed values before and after."""
    return AuditEvent(
        memory_id=memory_id,
        event=event,
        actor=actor,
        old=json_ready(old),
        new=json_ready(new),
        note=note,
        text_sha256=sha,
    )


def record(event, memory_id, actor, old=None, new=None, note="", sha=""):
    return rows.insert(audit_event(event, memory_id, actor, old, new, note, sha))


def record_many(events):
    """Write ``audit_event``s in one statement; returns how many."""
    return rows.insert_many(events)
