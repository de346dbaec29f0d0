"""The export document's shape (SPEC §10): its format, the fields of a memory and of an audit event, and
how their values are written."""

from memories.times import json_ready

FORMAT = "bestie-memory-export"
VERSION = 1

DOCUMENT_FIELDS = ("format", "version", "exported_at", "memories", "history")
# What an import needs; a document (one written by hand, say) may leave out the rest, which then take the
# model's defaults (a memory without a status is pending; history, an empty list).
REQUIRED_DOCUMENT_FIELDS = ("format", "version", "memories")
REQUIRED_MEMORY_FIELDS = ("id", "text", "kind", "source", "source_kind")
REQUIRED_HISTORY_FIELDS = ("id", "event", "actor", "at")

# Export field -> model attribute, in the order they appear in each exported memory.
MEMORY_FIELDS = {
    "id": "id",
    "text": "text",
    "kind": "kind",
    "subject": "subject",
    "scope": "scope",
    "user": "user",
    "channel": "channel",
    "project": "project",
    "layer": "layer",
    "status": "status",
    "pinned": "pinned",
    "stale": "stale",
    "superseded_by": "superseded_by_id",
    "expires_at": "expires_at",
    "confidence": "confidence",
    "source": "source",
    "source_kind": "source_kind",
    "message_id": "message_id",
    "flags": "flags",
    "created_at": "created_at",
    "confirmed_at": "confirmed_at",
    "last_accessed_at": "last_accessed_at",
    "access_count": "access_count",
    "deleted_at": "deleted_at",
}
HISTORY_FIELDS = {
    "id": "id",
    "memory_id": "memory_id",
    "event": "event",
    "actor": "actor",
    "at": "at",
    "old": "old",
    "new": "new",
    "text_sha256": "text_sha256",
    "note": "note",
}


def memory_dict(values):
    """A memory's exported object from the values of its ``MEMORY_FIELDS`` attributes, in order."""
    return {name: json_ready(value) for name, value in zip(MEMORY_FIELDS, values)}


def history_dict(values):
    """An audit event's exported object from the values of its ``HISTORY_FIELDS`` attributes, in order."""
    return {name: json_ready(value) for name, value in zip(HISTORY_FIELDS, values)}
