"""The audit history of memories: what an event holds (SPEC §3)."""

import hashlib
from datetime import datetime

from memories import rows
from memories.models import AuditEvent

# Fields shown in audit events and compared on edit; the record's bookkeeping (statistics, ids) is not.
AUDITED_FIELDS = (
    "text", "kind", "subject", "scope", "user", "channel", "project", "layer", "status", "pinned",
    "stale", "superseded_by_id", "expires_at", "confidence", "source", "source_kind", "deleted_at",
)


def text_sha256(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def json_value(value):
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def snapshot(memory, fields=AUDITED_FIELDS):
    return {field: json_value(getattr(memory, field)) for field in fields}


def audit_event(event, memory_id, actor, old=None, new=None, note="", sha=""):
    return AuditEvent(
        memory_id=memory_id, event=event, actor=actor, old=old, new=new, note=note, text_sha256=sha
    )


def record(event, memory_id, actor, old=None, new=None, note="", sha=""):
    return rows.insert(audit_event(event, memory_id, actor, old, new, note, sha))
