"""The export document (SPEC §10): every memory and the audit history as JSON, and its import."""

from datetime import datetime, timezone as dt_timezone

FORMAT = "bestie-memory-export"
VERSION = 1

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


def iso(value):
    """ISO-8601 in UTC with a Z, as every time in the document is written."""
    if value is None:
        return None
    return value.astimezone(dt_timezone.utc).isoformat().replace("+00:00", "Z")


def _plain(value):
    return iso(value) if isinstance(value, datetime) else value


def memory_rows(queryset):
    """``values_list`` rows of the exported fields, streamed in id order."""
    return queryset.order_by("id").values_list(*MEMORY_FIELDS.values()).iterator(chunk_size=2000)


def memory_dict(row):
    """One ``memory_rows`` row as the exported object (also the ``--json`` shape of listings)."""
    return {name: _plain(value) for name, value in zip(MEMORY_FIELDS, row)}


def history_dict(row):
    return {name: _plain(value) for name, value in zip(HISTORY_FIELDS, row)}
