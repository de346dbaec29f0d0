"""The audit history of memories (SPEC §2): what an event holds, and the one way events are written.

``record`` writes one event and ``record_many`` many (one statement); nothing else inserts into the
history. Values are JSON: times as ``memories.times.iso`` writes them. Inside ``recording()``, the ids of
the events written are kept: what one action of the owner changed, for the console to offer its undo.
"""

import contextlib
import contextvars
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


class Recording:
    """The ids of the events written inside ``recording()``, oldest first, up to ``limit`` of them;
    ``complete`` is False once more were written (they are written all the same)."""

    def __init__(self, limit):
        self.limit = limit
        self.event_ids = []
        self.complete = True

    def has_room(self, count):
        return self.complete and len(self.event_ids) + count <= self.limit


_recording = contextvars.ContextVar("recording", default=None)


@contextlib.contextmanager
def recording(limit):
    """Keep the ids of the events the block writes (see ``Recording``)."""
    kept = Recording(limit)
    token = _recording.set(kept)
    try:
        yield kept
    finally:
        _recording.reset(token)


def record(event, memory_id, actor, old=None, new=None, note="", sha=""):
    written = rows.insert(audit_event(event, memory_id, actor, old, new, note, sha))
    if (kept := _recording.get()) is not None:
        if kept.has_room(1):
            kept.event_ids.append(written.pk)
        else:
            kept.complete = False
    return written


def record_many(events):
    """Write ``audit_event``s in one statement (one each, with their ids read back, inside a
    ``recording()`` that has room for them); returns how many."""
    kept = _recording.get()
    if kept is None:
        return rows.insert_many(events)
    events = list(events)
    if not kept.has_room(len(events)):
        kept.complete = False
        return rows.insert_many(events)
    kept.event_ids.extend(rows.insert(event).pk for event in events)
    return len(events)
